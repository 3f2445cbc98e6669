// The player's moves by mouse, touch and keys: each checks that the move is open now and
// asks the game to make it.

import { name, symbol } from "./cards.js";
import { t } from "./messages.js";
import * as prefs from "./prefs.js";
import { knockChoice, layoutsFor, moved, state } from "./state.js";
import { act, announce, controls, live, parts, render, table } from "./game.js";

/** @param {string} code throw this card, if a throw is open and it may go */
export function throwCard(code) {
  const tb = table();
  if (!tb || !live(tb) || tb.phase !== "discard") return;
  if (code === tb.locked) {
    controls.error.textContent = t("error.locked", { card: symbol(code) });
    return;
  }
  act("discard", code);
}

/** @param {string} code mark this card for a throw or a knock (or unmark it) */
export function markCard(code) {
  const tb = table();
  if (!tb) return;
  state.focus = code;
  if (!live(tb) || tb.phase !== "discard") return;
  if (code === tb.locked) {
    controls.error.textContent = t("error.locked", { card: symbol(code) });
    return;
  }
  controls.error.textContent = "";
  state.marked = state.marked === code ? null : code;
  render();
}

export function drawStock() {
  const tb = table();
  if (tb && live(tb) && tb.legal.stock) act("stock");
}

export function drawPile() {
  const tb = table();
  if (!tb || !live(tb)) return;
  if (tb.legal.take) act("take");
  else if (tb.legal.pile) act("pile");
}

/** @param {"take" | "pass" | "big_gin"} action a move open only when the table lists it */
export function ifLegal(action) {
  const tb = table();
  if (tb && live(tb) && tb.legal[action]) act(action);
}

export function knock() {
  const tb = table();
  const choice = tb && knockChoice(tb, live(tb), state.marked);
  if (!choice) return;
  const layouts = layoutsFor(tb, choice.card);
  const picked = layouts && layouts.layouts[state.layout.card === choice.card ? state.layout.index : 0];
  act("knock", choice.card, picked ? picked.melds.map((/** @type {any} */ meld) => meld.cards) : undefined);
}

/** The pile pressed: take from it, or throw the marked card on it. */
export function pressPile() {
  const tb = table();
  if (!tb || !live(tb)) return;
  if (tb.phase === "discard") {
    if (state.marked) throwCard(state.marked);
    else controls.error.textContent = t("error.pick_first");
  } else drawPile();
}

export function toggleGroup() {
  state.grouped = !state.grouped;
  render();
}

/** The cards of the hand as shown now, in order. */
export function shownOrder() {
  return [...parts.hand.querySelectorAll(".card")].map((b) => /** @type {HTMLElement} */ (b).dataset.code || "");
}

/**
 * Put a card at a new place in the player's own order (the order is kept in the browser).
 * @param {string[]} order
 * @param {string} code
 */
function keepOrder(order, code) {
  const m = state.match;
  const tb = table();
  prefs.saveOrder(m, order.filter((c) => tb.hand.includes(c)));
  state.grouped = false;
  state.focus = code;
}

/**
 * Move the card `delta` places in the player's order (Shift+arrows).
 * @param {string} code
 * @param {number} delta
 */
export function moveInOrder(code, delta) {
  if (!state.match || !table()) return;
  const shown = shownOrder();
  const order = moved(shown, code, delta);
  if (!order) return;
  keepOrder(order, code);
  parts.hand.dataset.hadFocus = "1";
  render();
  announce(t("hand.moved", { card: name(code), place: order.indexOf(code) + 1, count: order.length }));
}

/**
 * Drop a dragged card at the screen position `x` in the hand.
 * @param {string} code
 * @param {number} x
 */
export function reorderTo(code, x) {
  const rest = shownOrder().filter((c) => c !== code);
  const others = [...parts.hand.querySelectorAll(".card")].filter((b) => /** @type {HTMLElement} */ (b).dataset.code !== code);
  let index = rest.length;
  for (let i = 0; i < others.length; i++) {
    const r = others[i].getBoundingClientRect();
    const step = i + 1 < others.length ? others[i + 1].getBoundingClientRect().left - r.left : r.width;
    if (x < r.left + Math.min(step, r.width) / 2) { index = i; break; }
  }
  rest.splice(index, 0, code);
  keepOrder(rest, code);
  render();
}
