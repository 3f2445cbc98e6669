// Sentences about the game made from the wire's structured fields: the move log and
// what a screen reader hears, a hand's result, the rules' summary.

import { t } from "./messages.js";
import { seatName } from "./seats.js";

/**
 * A move as the log shows it: "Computer drew from the stock".
 * @param {any} m the match (for who is who)
 * @param {any} ev an event
 */
export function eventText(m, ev) {
  return t("event.line", { who: seatName(m, ev.who), text: ev.text });
}

/**
 * A move as a screen reader hears it: "Computer took the seven of clubs."
 * @param {any} m
 * @param {any} ev
 */
export function eventSpoken(m, ev) {
  return t("event.spoken", { who: seatName(m, ev.who), text: ev.spoken });
}

/**
 * A hand's result in one line: "You knocked with 4 against 30: you score 26."
 * @param {any} _m
 * @param {any} entry a sheet entry
 */
export function summaryText(_m, entry) {
  return entry.summary;
}

/**
 * A match's rules in a few words: "To 100 · Standard knocking · Medium".
 * @param {any} m a MatchOut or a history line
 */
export function rulesSummary(m) {
  return m.settings_summary;
}
