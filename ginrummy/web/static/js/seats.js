// Who is who at the table, from the requester's side: the seat the page's player holds
// and how each seat is named.

import { t } from "./messages.js";

/**
 * The seat the page's player holds in a match.
 * @param {any} m a MatchOut
 */
export function mySeat(m) {
  return m && "seat" in m ? m.seat : "you";
}

/**
 * Whether an event's or a result's player is the page's own.
 * @param {any} m
 * @param {any} who
 */
export function isMine(m, who) {
  return who === mySeat(m);
}

/**
 * The seat that is not `who`.
 * @param {any} m
 * @param {any} who
 */
export function otherSeat(m, who) {
  if (typeof who === "number") return 1 - who;
  return who === "you" ? "computer" : "you";
}

/**
 * A seat's name as a sentence's subject starting it ("You", "Computer").
 * @param {any} m
 * @param {any} who
 */
export function seatName(m, who) {
  return t(isMine(m, who) ? "seat.you" : "seat.computer");
}

/**
 * The scores as [mine, theirs].
 * @param {any} m
 * @param {any[]} pair a list indexed by seat
 */
export function mineFirst(m, pair) {
  return mySeat(m) === 1 ? [pair[1], pair[0]] : [pair[0], pair[1]];
}

/**
 * The seat at index `i` as the wire names it.
 * @param {any} m
 * @param {number} i
 */
export function seatAt(m, i) {
  return m && "seat" in m ? i : (i === 0 ? "you" : "computer");
}
