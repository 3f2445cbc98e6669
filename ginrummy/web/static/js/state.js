// The page's state, and the pure steps that derive what to show from it. Nothing here
// touches the DOM or the server, so it is tested with node --test.

import { sortKey } from "./cards.js";

/**
 * @typedef {object} Public the part of the table everyone sees, replayed move by move
 * @property {string[]} pile
 * @property {number} stock_count
 * @property {number} opponent_count
 * @property {string[]} opponent_pile_cards
 */

/**
 * @typedef {object} State
 * @property {any} match the last MatchOut from the server
 * @property {{pub: Public, logCount: number} | null} display while moves play: the public table step by step
 * @property {boolean} busy a request or an animation is under way
 * @property {string | null} marked the card marked for a throw or a knock
 * @property {boolean} grouped Group pressed
 * @property {{card: string | null, index: number}} layout the layout chosen for a knock, when there is a choice
 * @property {string | null} focus the card that holds the keyboard focus in the hand
 * @property {import("./settings.js").FormOptions | null} form the settings form's fields, once fetched
 * @property {DOMRect | null} throwFrom where the card just thrown was
 * @property {number | null} hintFor the version of the match the hint shown was for
 */

/** @type {State} */
export const state = {
  match: null,
  display: null,
  busy: false,
  marked: null,
  grouped: false,
  layout: { card: null, index: 0 },
  focus: null,
  form: null,
  throwFrom: null,
  hintFor: null,
};

/**
 * The public part of a table.
 * @param {any} t a TableOut
 * @returns {Public}
 */
export function publicOf(t) {
  return {
    pile: [...t.pile],
    stock_count: t.stock_count,
    opponent_count: t.opponent_count,
    opponent_pile_cards: [...t.opponent_pile_cards],
  };
}

/**
 * The public table at the start of a hand.
 * @param {string} upcard
 * @returns {Public}
 */
export function dealtPublic(upcard) {
  return { pile: [upcard], stock_count: 31, opponent_count: 10, opponent_pile_cards: [] };
}

/**
 * The public table after one event (changed in place).
 * @param {Public} pub
 * @param {{who: any, kind: string, card?: string | null}} ev
 * @param {(who: any) => boolean} isTheirs whether the event's player is the other seat
 */
export function applyPublic(pub, ev, isTheirs) {
  const theirs = isTheirs(ev.who);
  const dropTheirs = (/** @type {string} */ card) => {
    pub.opponent_count -= 1;
    pub.opponent_pile_cards = pub.opponent_pile_cards.filter((c) => c !== card);
  };
  if (ev.kind === "take" || ev.kind === "pile") {
    pub.pile.pop();
    if (theirs) { pub.opponent_count += 1; if (ev.card) pub.opponent_pile_cards.push(ev.card); }
  } else if (ev.kind === "stock") {
    pub.stock_count -= 1;
    if (theirs) pub.opponent_count += 1;
  } else if (ev.kind === "discard") {
    if (ev.card) pub.pile.push(ev.card);
    if (theirs && ev.card) dropTheirs(ev.card);
  } else if (ev.kind === "knock") {
    if (theirs && ev.card) dropTheirs(ev.card);
  }
  return pub;
}

/**
 * The table to draw: the match's, or while moves play, the public table as it was.
 * @param {any} m
 * @param {State["display"]} display
 */
export function currentTable(m, display) {
  if (!m) return null;
  if (!display) return m.table;
  const t = Object.assign({}, m.table, display.pub);
  t.opponent_hand = null;
  t.log = m.table.log.slice(0, display.logCount);
  return t;
}

/**
 * Whether the player may move now.
 * @param {any} t
 * @param {boolean} busy
 * @param {any} mySeat the seat the player holds
 */
export function canAct(t, busy, mySeat) {
  return !busy && t.to_act === mySeat && t.phase !== "over";
}

/**
 * What the Knock button would do: the marked card if it can knock, else the best one.
 * @param {any} t
 * @param {boolean} live the player may move
 * @param {string | null} marked
 * @returns {{card: string, leaves: number} | null}
 */
export function knockChoice(t, live, marked) {
  if (!live || t.phase !== "discard" || !t.knock) return null;
  const mine = marked && t.legal.knock.find((/** @type {any} */ k) => k.card === marked);
  return mine ? { card: mine.card, leaves: mine.leaves } : { card: t.knock.card, leaves: t.knock.leaves };
}

/**
 * The equally good ways to lay down after knocking with `card`, if there is a choice.
 * @param {any} t
 * @param {string} card
 */
export function layoutsFor(t, card) {
  return (t.knock_layouts || []).find((/** @type {any} */ k) => k.card === card) || null;
}

const RANKS = "A23456789TJQK";

/**
 * Cards sorted by suit (colours alternating, then rank) or by rank.
 * @param {string[]} cards
 * @param {"rank" | "suit"} by
 */
export function sortCards(cards, by) {
  const key = (/** @type {string} */ c) => (by === "rank" ? RANKS.indexOf(c[0]) * 4 + "CHSD".indexOf(c[1]) : sortKey(c));
  return [...cards].sort((a, b) => key(a) - key(b));
}

/**
 * The hand as the player arranged it: their own order, or sorted; new cards go last.
 * @param {string[]} hand
 * @param {string[] | null} own
 * @param {"rank" | "suit"} by
 */
export function handOrder(hand, own, by) {
  if (!own) return sortCards(hand, by);
  const kept = own.filter((c) => hand.includes(c));
  const fresh = sortCards(hand.filter((c) => !kept.includes(c)), by);
  return kept.concat(fresh);
}

/**
 * An order with `code` moved `delta` places (null if it cannot move that way).
 * @param {string[]} order
 * @param {string} code
 * @param {number} delta
 */
export function moved(order, code, delta) {
  const i = order.indexOf(code);
  const j = i + delta;
  if (i < 0 || j < 0 || j >= order.length) return null;
  const out = [...order];
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

/**
 * The events a request's answer brings that belong in the move log from `before`.
 * @param {any} before the match before the request (null: a new match)
 * @param {any} after
 */
export function replayStart(before, after) {
  const events = after.events;
  const newHand = !before || before.hand_number !== after.hand_number || events.some((/** @type {any} */ e) => e.kind === "dealt");
  const pub = newHand ? dealtPublic(after.table.first_upcard) : publicOf(before.table);
  const firstLog = after.table.log.length - events.filter((/** @type {any} */ e) => e.hand === after.hand_number).length;
  return { pub, logCount: Math.max(0, firstLog) };
}
