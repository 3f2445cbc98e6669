// Cards drawn as SVG, crisp at any size. A card is named by its code in the
// rules' notation: rank A 2-9 T J Q K, then suit C D H S ("7C", "TD").
"use strict";

(function () {
  const NS = "http://www.w3.org/2000/svg";
  const W = 200;
  const H = 280;
  const RANK_NAMES = {
    A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
    8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king",
  };
  const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const POINTS = { A: 1, T: 10, J: 10, Q: 10, K: 10 };
  const RANK_ORDER = "A23456789TJQK";

  // Pip positions on a 200x280 face, as [x, y]; pips below the middle are turned.
  const L = 66, M = 100, R = 134;
  const T1 = 58, T2 = 104, MID = 140, B2 = 176, B1 = 222;
  const PIPS = {
    A: [[M, MID]],
    2: [[M, T1], [M, B1]],
    3: [[M, T1], [M, MID], [M, B1]],
    4: [[L, T1], [R, T1], [L, B1], [R, B1]],
    5: [[L, T1], [R, T1], [M, MID], [L, B1], [R, B1]],
    6: [[L, T1], [R, T1], [L, MID], [R, MID], [L, B1], [R, B1]],
    7: [[L, T1], [R, T1], [M, 101], [L, MID], [R, MID], [L, B1], [R, B1]],
    8: [[L, T1], [R, T1], [M, 101], [L, MID], [R, MID], [M, 179], [L, B1], [R, B1]],
    9: [[L, T1], [R, T1], [L, T2 - 2], [R, T2 - 2], [M, MID], [L, B2 + 2], [R, B2 + 2], [L, B1], [R, B1]],
    T: [[L, T1], [R, T1], [M, 81], [L, T2 - 2], [R, T2 - 2], [L, B2 + 2], [R, B2 + 2], [M, 199], [L, B1], [R, B1]],
  };

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  function rankOf(code) { return code[0]; }
  function suitOf(code) { return code[1]; }

  /** The spoken name: "seven of clubs". */
  function name(code) {
    return `${RANK_NAMES[rankOf(code)]} of ${SUIT_NAMES[suitOf(code)]}`;
  }

  /** Rank and suit symbol: "7♣", "10♦". */
  function symbol(code) {
    const r = rankOf(code);
    return (r === "T" ? "10" : r) + SUIT_SYMBOLS[suitOf(code)];
  }

  /** Deadwood points: ace 1, two to ten face value, court cards 10. */
  function points(code) {
    const r = rankOf(code);
    return POINTS[r] || Number(r);
  }

  /** Sort key: suits in an alternating colour order, then rank. */
  function sortKey(code) {
    return "CHSD".indexOf(suitOf(code)) * 13 + RANK_ORDER.indexOf(rankOf(code));
  }

  function suitUse(suit, x, y, size, parent, turned) {
    const attrs = { href: `#suit-${suit}`, x: x - size / 2, y: y - size / 2, width: size, height: size };
    if (turned) attrs.transform = `rotate(180 ${x} ${y})`;
    return el("use", attrs, parent);
  }

  function corner(rank, suit, g) {
    const label = rank === "T" ? "10" : rank;
    const text = el("text", { x: 27, y: 54, class: "rank", "text-anchor": "middle" }, g);
    if (label.length > 1) {
      text.setAttribute("textLength", "44");
      text.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
    text.textContent = label;
    suitUse(suit, 27, 80, 34, g, false);
  }

  /** A face-up card as an <svg> element (decorative: the button around it is named). */
  function face(code) {
    const rank = rankOf(code);
    const suit = suitOf(code);
    const svg = el("svg", {
      viewBox: `0 0 ${W} ${H}`,
      class: `card-svg suit-${suit}`,
      "aria-hidden": "true",
      focusable: "false",
    });
    el("rect", { x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 14, class: "face-bg" }, svg);
    const ink = el("g", { class: "ink" }, svg);
    corner(rank, suit, ink);
    const turned = el("g", { transform: `rotate(180 ${W / 2} ${H / 2})` }, ink);
    corner(rank, suit, turned);
    if (PIPS[rank]) {
      const size = rank === "A" ? 84 : 34;
      for (const [x, y] of PIPS[rank]) suitUse(suit, x, y, size, ink, y > MID + 1);
    } else {
      el("rect", { x: 50, y: 42, width: 100, height: 196, rx: 8, class: "court-frame" }, svg);
      const letter = el("text", { x: W / 2, y: 168, class: "court-letter", "text-anchor": "middle" }, ink);
      letter.textContent = rank;
      suitUse(suit, 72, 66, 28, ink, false);
      suitUse(suit, 128, 214, 28, ink, true);
    }
    return svg;
  }

  /** A face-down card. */
  function back() {
    const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "card-svg back", "aria-hidden": "true", focusable: "false" });
    el("rect", { x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 14, class: "back-edge" }, svg);
    el("rect", { x: 12, y: 12, width: W - 24, height: H - 24, rx: 8, fill: "url(#back-pattern)" }, svg);
    el("rect", { x: 12, y: 12, width: W - 24, height: H - 24, rx: 8, class: "back-line" }, svg);
    return svg;
  }

  window.Cards = { face, back, name, symbol, points, sortKey, rankOf, suitOf };
})();
