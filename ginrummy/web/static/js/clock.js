// The move clock of a friend match: the countdown both seats see, whose time runs, and
// what is said when it runs low or out. The server keeps the time (js/friend.js brings
// its answers); the page counts down from the milliseconds left that each answer gives,
// so the reader's own clock does not matter. A screen reader hears the clock at a few
// moments only (its turn starts, ten seconds left, time up, the clock moved for a seat),
// never each second.

import { digits, num, t } from "./messages.js";
import { isMine, seatWord } from "./seats.js";

/** Seconds left under which the countdown is marked as running low (and said once). */
export const LOW = 10;

/**
 * How long a clock gives a turn, in words: "30 s", "2 min".
 * @param {number} seconds
 */
export function clockLength(seconds) {
  return seconds % 60 === 0 && seconds >= 60
    ? t("clock.minutes", { minutes: num(seconds / 60) })
    : t("clock.seconds", { seconds: num(seconds) });
}

/**
 * The clock in the match's rules line: "1 min a turn" or "timed, 1 min a turn".
 * @param {{seconds: number, expiry: string}} clock
 */
export function clockRule(clock) {
  return t(clock.expiry === "timed" ? "rules.clock_timed" : "rules.clock", { time: clockLength(clock.seconds) });
}

/**
 * Time left as a countdown shows it: "1:05", "0:09".
 * @param {number} ms
 */
export function countdown(ms) {
  const whole = Math.ceil(Math.max(0, ms) / 1000);
  return digits(`${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`);
}

/**
 * What the clock line says, and how it looks, for the match ``m`` with ``ms`` left.
 * @param {any} m the match (its ``clock``, who is who)
 * @param {number} ms milliseconds left for the seat whose time runs
 * @returns {{text: string, state: "" | "low" | "up"} | null} nothing when no clock runs
 */
export function clockLine(m, ms) {
  const clock = m && m.clock;
  if (!clock || clock.seat === null || clock.seat === undefined) return null;
  const mine = isMine(m, clock.seat);
  const who = seatWord(m, clock.seat, "subject");
  if (ms <= 0) {
    let key = mine ? "clock.up_mine" : "clock.up_theirs";
    if (clock.expiry === "timed") key = mine ? "clock.up_mine_timed" : "clock.up_theirs_timed";
    return { text: t(key, { who }), state: "up" };
  }
  const time = countdown(ms);
  return {
    text: t(mine ? "clock.running_mine" : "clock.running_theirs", { who, time }),
    state: ms <= LOW * 1000 ? "low" : "",
  };
}

/**
 * What a screen reader is told as the clock goes from ``before`` to ``after`` ms left in
 * the same turn (none: nothing worth saying).
 * @param {any} m
 * @param {number} before
 * @param {number} after
 */
export function clockNews(m, before, after) {
  const clock = m && m.clock;
  if (!clock || clock.seat === null || clock.seat === undefined) return "";
  const mine = isMine(m, clock.seat);
  if (before > 0 && after <= 0) return /** @type {any} */ (clockLine(m, 0)).text;
  if (mine && before > LOW * 1000 && after <= LOW * 1000) return t("clock.low_mine", { seconds: num(LOW) });
  return "";
}

/**
 * What is said when an answer shows that the clock made the last move (a timed match).
 * @param {any} m
 * @param {number} late the seat the clock moved for
 */
export function autoNews(m, late) {
  return t(isMine(m, late) ? "clock.moved_mine" : "clock.moved_theirs", { who: seatWord(m, late, "subject") });
}
