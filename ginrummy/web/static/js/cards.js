// Cards drawn as SVG, crisp at any size. A card is named by its code in the
// rules' notation: rank A 2-9 T J Q K, then suit C D H S ("7C", "TD").

import { t } from "./messages.js";

const NS = "http://www.w3.org/2000/svg";
const W = 200;
const H = 280;
/** @type {Record<string, string>} */
const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
/** @type {Record<string, number>} */
const POINTS = { A: 1, T: 10, J: 10, Q: 10, K: 10 };
const RANK_ORDER = "A23456789TJQK";

// Pip positions on a 200x280 face, as [x, y]; pips below the middle are turned.
// Three columns between the corner indices; two, three or four evenly spaced rows.
const L = 66, M = 100, R = 134;
const TOP = 64, BOTTOM = 216, MID = 140;
const Q1 = 115, Q3 = 165; // the inner rows of four
/** @type {Record<string, number[][]>} */
const PIPS = {
  A: [[M, MID]],
  2: [[M, TOP], [M, BOTTOM]],
  3: [[M, TOP], [M, MID], [M, BOTTOM]],
  4: [[L, TOP], [R, TOP], [L, BOTTOM], [R, BOTTOM]],
  5: [[L, TOP], [R, TOP], [M, MID], [L, BOTTOM], [R, BOTTOM]],
  6: [[L, TOP], [R, TOP], [L, MID], [R, MID], [L, BOTTOM], [R, BOTTOM]],
  7: [[L, TOP], [R, TOP], [M, 102], [L, MID], [R, MID], [L, BOTTOM], [R, BOTTOM]],
  8: [[L, TOP], [R, TOP], [M, 102], [L, MID], [R, MID], [M, 178], [L, BOTTOM], [R, BOTTOM]],
  9: [[L, TOP], [R, TOP], [L, Q1], [R, Q1], [M, MID], [L, Q3], [R, Q3], [L, BOTTOM], [R, BOTTOM]],
  T: [[L, TOP], [R, TOP], [M, 89], [L, Q1], [R, Q1], [L, Q3], [R, Q3], [M, 191], [L, BOTTOM], [R, BOTTOM]],
};

/**
 * @param {string} name
 * @param {Record<string, string | number>} [attrs]
 * @param {Element} [parent]
 */
function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

/** @param {string} code */
export function rankOf(code) { return code[0]; }
/** @param {string} code */
export function suitOf(code) { return code[1]; }

/**
 * The spoken name: "seven of clubs".
 * @param {string} code
 */
export function name(code) {
  return t("card.name", { rank: t(`card.rank.${rankOf(code)}`), suit: t(`card.suit.${suitOf(code)}`) });
}

/**
 * What a card's corner shows: "7", "10", "K".
 * @param {string} code
 */
export function index(code) {
  const r = rankOf(code);
  return r === "T" ? "10" : r;
}

/**
 * A card control's name: it starts with what the card shows, so speech input
 * ("click 7 of hearts", "click K") finds it: "7 of hearts", "K, king of clubs".
 * @param {string} code
 */
export function shownName(code) {
  const key = /[2-9T]/.test(rankOf(code)) ? "card.shown_number" : "card.shown_court";
  return t(key, { index: index(code), suit: t(`card.suit.${suitOf(code)}`), name: name(code) });
}

/**
 * Rank and suit symbol: "7♣", "10♦".
 * @param {string} code
 */
export function symbol(code) {
  const r = rankOf(code);
  return (r === "T" ? "10" : r) + SUIT_SYMBOLS[suitOf(code)];
}

/**
 * Deadwood points: ace 1, two to ten face value, court cards 10.
 * @param {string} code
 */
export function points(code) {
  const r = rankOf(code);
  return POINTS[r] || Number(r);
}

/**
 * Sort key: suits in an alternating colour order, then rank.
 * @param {string} code
 */
export function sortKey(code) {
  return "CHSD".indexOf(suitOf(code)) * 13 + RANK_ORDER.indexOf(rankOf(code));
}

/**
 * @param {string} suit
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {Element} parent
 * @param {boolean} turned
 */
function suitUse(suit, x, y, size, parent, turned) {
  /** @type {Record<string, string | number>} */
  const attrs = { href: `#suit-${suit}`, x: x - size / 2, y: y - size / 2, width: size, height: size };
  if (turned) attrs.transform = `rotate(180 ${x} ${y})`;
  return el("use", attrs, parent);
}

// Each face has one line of text, the index in its top-left corner, as a player reads
// it; the turned corner and a court card's big letter repeat it by reference (<use>), so
// the text a face shows, and speech input matches against its name, is the index once.
// The fonts are presentation attributes, not only CSS: a <use> copy is styled from them.
let faces = 0;
const INDEX_FONT = { "font-family": "system-ui, -apple-system, Segoe UI, Roboto, Arial, sans-serif", "font-weight": 700, "font-size": 46 };
const COURT_FONT = { "font-family": "Georgia, Times New Roman, serif", "font-weight": 700, "font-size": 96 };

/**
 * The top-left corner: the index as text, the suit below it.
 * @param {string} rank
 * @param {string} suit
 * @param {Element} g
 * @param {string} id
 */
function corner(rank, suit, g, id) {
  const label = rank === "T" ? "10" : rank;
  const text = el("text", { id, x: 27, y: 54, class: "rank", "text-anchor": "middle", ...INDEX_FONT }, g);
  if (label.length > 1) {
    text.setAttribute("textLength", "44");
    text.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
  text.textContent = label;
  suitUse(suit, 27, 80, 34, g, false);
}

/**
 * A face-up card as an <svg> element (decorative: the button around it is named).
 * @param {string} code
 */
export function face(code) {
  const rank = rankOf(code);
  const suit = suitOf(code);
  const id = `face-${++faces}`;
  const svg = el("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: `card-svg suit-${suit}`,
    "aria-hidden": "true",
    focusable: "false",
  });
  el("rect", { x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 14, class: "face-bg" }, svg);
  const ink = el("g", { class: "ink" }, svg);
  corner(rank, suit, ink, `${id}-index`);
  const turned = el("g", { transform: `rotate(180 ${W / 2} ${H / 2})` }, ink);
  el("use", { href: `#${id}-index` }, turned);
  suitUse(suit, 27, 80, 34, turned, false);
  if (PIPS[rank]) {
    const size = rank === "A" ? 84 : 30;
    for (const [x, y] of PIPS[rank]) suitUse(suit, x, y, size, ink, y > MID + 1);
  } else {
    el("rect", { x: 50, y: 42, width: 100, height: 196, rx: 8, class: "court-frame" }, svg);
    const letter = el("text", { id: `${id}-letter`, x: W / 2, y: 168, class: "court-letter", "text-anchor": "middle", ...COURT_FONT }, el("defs", {}, ink));
    letter.textContent = rank;
    el("use", { href: `#${id}-letter` }, ink);
    suitUse(suit, 72, 66, 28, ink, false);
    suitUse(suit, 128, 214, 28, ink, true);
  }
  return svg;
}

/** A face-down card. */
export function back() {
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "card-svg back", "aria-hidden": "true", focusable: "false" });
  el("rect", { x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 14, class: "back-edge" }, svg);
  el("rect", { x: 12, y: 12, width: W - 24, height: H - 24, rx: 8, fill: "url(#back-pattern)" }, svg);
  el("rect", { x: 12, y: 12, width: W - 24, height: H - 24, rx: 8, class: "back-line" }, svg);
  return svg;
}

// The suit shapes and the back pattern the faces point at (<use href="#suit-H">).
// index.html carries them inline; other pages call Cards.defs() to add them.
const SUIT_PATHS = {
  H: "M50 92 C22 68 2 50 2 29 C2 13 14 3 28 3 C38 3 46 9 50 19 C54 9 62 3 72 3 C86 3 98 13 98 29 C98 50 78 68 50 92 Z",
  D: "M50 2 C60 20 74 36 90 50 C74 64 60 80 50 98 C40 80 26 64 10 50 C26 36 40 20 50 2 Z",
  S: "M50 2 C62 20 98 38 98 62 C98 77 87 86 74 86 C65 86 58 82 54 75 C55 85 59 92 68 98 L32 98 C41 92 45 85 46 75 C42 82 35 86 26 86 C13 86 2 77 2 62 C2 38 38 20 50 2 Z",
};

/** Add the suit symbols and the back pattern to the page, once. */
export function defs() {
  if (document.getElementById("suit-H")) return;
  const svg = el("svg", { class: "defs", "aria-hidden": "true", focusable: "false" });
  const d = el("defs", {}, svg);
  for (const [suit, path] of Object.entries(SUIT_PATHS)) {
    const sym = el("symbol", { id: `suit-${suit}`, viewBox: "0 0 100 100" }, d);
    el("path", { d: path }, sym);
  }
  const club = el("symbol", { id: "suit-C", viewBox: "0 0 100 100" }, d);
  el("circle", { cx: 50, cy: 27, r: 23 }, club);
  el("circle", { cx: 25, cy: 60, r: 23 }, club);
  el("circle", { cx: 75, cy: 60, r: 23 }, club);
  el("path", { d: "M44 40 L56 40 C56 70 60 88 70 98 L30 98 C40 88 44 70 44 40 Z" }, club);
  const pat = el("pattern", { id: "back-pattern", width: 16, height: 16, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, d);
  el("rect", { width: 16, height: 16, fill: "#1d4e89" }, pat);
  el("path", { d: "M0 8 H16 M8 0 V16", stroke: "#3f79c0", "stroke-width": 3 }, pat);
  document.body.prepend(svg);
}

/** A small face-up card with its name, for laid-down hands and examples. */
/**
 * @param {string} code
 * @param {string} [cls]
 */
export function mini(code, cls) {
  const s = document.createElement("span");
  s.className = "mini" + (cls ? " " + cls : "");
  s.setAttribute("role", "img");
  s.setAttribute("aria-label", name(code));
  s.dataset.code = code;
  s.appendChild(face(code));
  return s;
}

/**
 * A meld's cards with the cards laid off onto it, each in its place: a run in rank order
 * (the ace high when the run holds a king and an ace), a set's extra card last.
 * @param {{kind: string, cards: string[]}} meld
 * @param {string[]} laidOff
 * @returns {{code: string, laidOff: boolean}[]}
 */
export function meldWithLayOffs(meld, laidOff) {
  const all = [...meld.cards.map((code) => ({ code, laidOff: false })), ...laidOff.map((code) => ({ code, laidOff: true }))];
  if (meld.kind !== "run") return all;
  const codes = all.map((c) => c.code);
  const aceHigh = codes.some((c) => rankOf(c) === "K") && codes.some((c) => rankOf(c) === "A");
  const value = (/** @type {string} */ c) => (aceHigh && rankOf(c) === "A" ? 13 : RANK_ORDER.indexOf(rankOf(c)));
  return all.sort((a, b) => value(a.code) - value(b.code));
}

/**
 * A hand as laid down after a knock: each meld (with the cards laid off onto
 * it, when layOffs names it) and then the deadwood with its count.
 * @param {{kind: string, cards: string[]}[]} melds
 * @param {string[]} deadwood
 * @param {number} deadPoints
 * @param {{card: string, meld: number}[]} [layOffs]
 */
export function laid(melds, deadwood, deadPoints, layOffs) {
  const wrap = document.createElement("div");
  wrap.className = "laid";
  const block = (/** @type {string} */ cls, /** @type {string} */ labelText) => {
    const g = document.createElement("div");
    g.className = cls;
    const label = document.createElement("span");
    label.className = "group-label";
    label.textContent = labelText;
    g.appendChild(label);
    const cards = document.createElement("div");
    cards.className = "laid-cards";
    g.appendChild(cards);
    wrap.appendChild(g);
    return [g, cards];
  };
  melds.forEach((meld, i) => {
    const [g, cards] = block("laid-meld", t(`meld.${meld.kind}`));
    const extra = (layOffs || []).filter((lo) => lo.meld === i);
    for (const { code, laidOff } of meldWithLayOffs(meld, extra.map((lo) => lo.card))) {
      if (!laidOff) { cards.appendChild(mini(code)); continue; }
      const s = mini(code, "laid-off");
      s.setAttribute("aria-label", t("card.laid_off", { card: name(code) }));
      cards.appendChild(s);
    }
    if (extra.length) {
      const note = document.createElement("span");
      note.className = "laid-off-note";
      note.textContent = t("laid.laid_off_note");
      g.appendChild(note);
    }
  });
  const [, cards] = block("laid-meld laid-deadwood", t("hand.deadwood_label", { points: deadPoints }));
  for (const c of deadwood) cards.appendChild(mini(c));
  if (!deadwood.length) {
    const none = document.createElement("span");
    none.className = "muted";
    none.textContent = t("laid.none");
    cards.appendChild(none);
  }
  return wrap;
}

