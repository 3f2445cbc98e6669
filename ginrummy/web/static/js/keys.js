// Every action has a key; ? shows them all (the help dialog).

import { openDialog } from "./dialogs.js";
import { askHint, nextHand, parts, resort } from "./game.js";
import { drawPile, drawStock, ifLegal, knock, markCard, moveInOrder, throwCard, toggleGroup } from "./moves.js";
import { showPile, showSheet } from "./screens.js";
import { state } from "./state.js";

/** The hand's card that has the keyboard focus, if any. */
function focusedCard() {
  const el = document.activeElement;
  return el && el.closest && el.closest("#hand .card") ? /** @type {HTMLElement} */ (el.closest(".card")) : null;
}

/**
 * Move the focus within the hand: `delta` places, or to one end.
 * @param {number} delta
 * @param {"home" | "end"} [toEnd]
 */
function moveFocus(delta, toEnd) {
  const cards = [...parts.hand.querySelectorAll(".card")].map((b) => /** @type {HTMLElement} */ (b));
  if (!cards.length) return;
  const current = focusedCard();
  let i = current ? cards.indexOf(current) : cards.findIndex((b) => b.tabIndex === 0);
  if (toEnd === "home") i = 0;
  else if (toEnd === "end") i = cards.length - 1;
  else i = Math.max(0, Math.min(cards.length - 1, (i < 0 ? 0 : i) + delta));
  for (const b of cards) b.tabIndex = -1;
  cards[i].tabIndex = 0;
  cards[i].focus();
  state.focus = cards[i].dataset.code || null;
}

/** @type {Record<string, () => void>} */
const SIMPLE = {
  s: drawStock,
  p: drawPile,
  t: () => ifLegal("take"),
  n: () => ifLegal("pass"),
  k: knock,
  b: () => ifLegal("big_gin"),
  g: toggleGroup,
  o: resort,
  l: showPile,
  m: showSheet,
  "?": () => openDialog("dlg-help"),
  // A hint in a match that has them; elsewhere H still opens the help.
  h: () => (state.match && state.match.settings.hints ? askHint() : openDialog("dlg-help")),
};

/** @param {KeyboardEvent} e */
function onKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const target = /** @type {Element} */ (e.target);
  const openDlg = document.querySelector("dialog[open]");
  if (target.closest && target.closest("input, select, textarea")) return;
  if (document.body.dataset.view !== "table" || !state.match) {
    if (e.key === "?" && !openDlg) { openDialog("dlg-help"); e.preventDefault(); }
    return;
  }
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (openDlg) {
    if (openDlg.id === "dlg-result" && key === "Enter" && state.match.awaiting_deal && !target.closest("button, a, summary")) {
      e.preventDefault();
      nextHand();
    }
    return;
  }
  const card = focusedCard();
  const code = card ? card.dataset.code || "" : "";
  let handled = true;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const delta = key === "ArrowLeft" ? -1 : 1;
    if (e.shiftKey && card) moveInOrder(code, delta);
    else moveFocus(delta);
  } else if (key === "Home" && card) moveFocus(0, "home");
  else if (key === "End" && card) moveFocus(0, "end");
  else if ((key === " " || key === "Enter") && card) markCard(code);
  else if (key === "Enter" && state.match.awaiting_deal) nextHand();
  else if (key === "d" || key === "Delete") {
    const which = state.marked || code;
    if (which) throwCard(which);
  } else if (SIMPLE[key]) SIMPLE[key]();
  else handled = false;
  if (handled) e.preventDefault();
}

export function wireKeys() {
  document.addEventListener("keydown", onKey);
}
