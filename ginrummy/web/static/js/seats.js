// Who is who at the table, from the requester's side. The wire names players by seat
// index (0 or 1); the page calls its own seat "You", a bot seat "the computer" (by its
// level when both seats are bots) and another person by their name or "Player 2".

import { t } from "./messages.js";

/**
 * @typedef {{index: number, kind: "person" | "bot", bot: string | null, name: string | null}} Seat
 */

/**
 * The seat the page's player holds: the match's `seat`, or in a history line (which has
 * no `seat`) the person's seat; null for someone who holds none.
 * @param {any} m a MatchOut or a history line
 * @returns {number | null}
 */
export function mySeat(m) {
  if (!m) return null;
  if ("seat" in m) return m.seat;
  const person = m.seats.find((/** @type {Seat} */ s) => s.kind === "person");
  return person ? person.index : null;
}

/**
 * Whether an event's or a result's player is the page's own.
 * @param {any} m
 * @param {any} who
 */
export function isMine(m, who) {
  const mine = mySeat(m);
  return mine !== null && who === mine;
}

/**
 * The seat that is not `who`.
 * @param {number} who
 */
export function otherSeat(who) {
  return 1 - who;
}

/**
 * A seat as the match describes it.
 * @param {any} m
 * @param {any} who
 * @returns {Seat | null}
 */
export function seatOf(m, who) {
  return typeof who === "number" ? m.seats[who] || null : null;
}

/** @param {any} m whether both seats are bots (a demonstration match) */
function allBots(m) {
  return m.seats.every((/** @type {Seat} */ s) => s.kind === "bot");
}

/**
 * A seat's name in one of its forms: "label" (a column head, a log line: "You",
 * "Computer"), "subject" (starting a sentence: "You", "The computer"), "object"
 * (inside one: "you", "the computer") or "bare" (in a list of scores: "computer").
 * @param {any} m
 * @param {any} who
 * @param {"label" | "subject" | "object" | "bare"} [form]
 */
export function seatWord(m, who, form = "label") {
  if (isMine(m, who)) return t(`seat.you.${form}`);
  const seat = seatOf(m, who);
  if (!seat || seat.kind === "bot") {
    if (seat && seat.bot && allBots(m)) return t("seat.bot_level", { level: t(`bot.${seat.bot}`), number: seat.index + 1 });
    return t(`seat.bot.${form}`);
  }
  return seat.name || t("seat.player", { number: seat.index + 1 });
}

/**
 * A seat's name as a log line or a column starts: "You", "Computer".
 * @param {any} m
 * @param {any} who
 */
export function seatName(m, who) {
  return seatWord(m, who, "label");
}

/**
 * The player's own seat first: [mine, theirs] (seat order for someone who holds none).
 * @param {any} m
 * @param {any[]} pair a list indexed by seat
 */
export function mineFirst(m, pair) {
  return mySeat(m) === 1 ? [pair[1], pair[0]] : [pair[0], pair[1]];
}

/**
 * The seats in the order of mineFirst.
 * @param {any} m
 */
export function seatsMineFirst(m) {
  return mineFirst(m, [0, 1]);
}
