// Sentences about the game made from the wire's structured fields with the catalogue:
// the move log and what a screen reader hears, a hand's result, the rules' summary.

import { name, symbol } from "./cards.js";
import { clockRule } from "./clock.js";
import { has, t } from "./messages.js";
import { isMine, otherSeat, seatName, seatWord } from "./seats.js";

/**
 * The key and params of an event's sentence.
 * @param {any} ev
 * @param {(code: string) => string} card how a card is written (symbol or spoken name)
 */
function eventParams(ev, card) {
  let kind = ev.kind;
  if (kind === "stock" && !ev.card) kind = "stock_hidden";
  if (kind === "knock" && ev.deadwood === 0) kind = "gin";
  return { kind, params: { card: ev.card ? card(ev.card) : "", deadwood: ev.deadwood ?? "", hand: ev.hand } };
}

/**
 * A move as the log shows it: "Computer drew from the stock", "You threw the K♣".
 * @param {any} m the match (for who is who)
 * @param {any} ev an event
 */
export function eventText(m, ev) {
  const { kind, params } = eventParams(ev, symbol);
  return t(`event.${kind}`, { who: seatName(m, ev.who), ...params });
}

/**
 * A move as a screen reader hears it: "Computer took the seven of clubs from the pile."
 * @param {any} m
 * @param {any} ev
 */
export function eventSpoken(m, ev) {
  const { kind, params } = eventParams(ev, name);
  return t(`spoken.${kind}`, { who: seatName(m, ev.who), ...params });
}

/**
 * A hand's result in one line: "You knocked with 4; the computer had 30. You score 26."
 * @param {any} m
 * @param {any} entry a sheet entry
 */
export function summaryText(m, entry) {
  if (entry.kind === "dead") return t("summary.dead");
  const said = t(`summary.${entry.kind}`, {
    knocker: seatWord(m, entry.knocker, "subject"),
    defender: seatWord(m, otherSeat(entry.knocker), "object"),
    knocker_points: entry.knocker_points,
    defender_points: entry.defender_points,
  });
  const scores = t(isMine(m, entry.winner) ? "summary.score_mine" : "summary.score_theirs", {
    who: seatWord(m, entry.winner, "subject"),
    points: entry.points,
    double: entry.multiplier > 1 ? t("summary.doubled") : "",
  });
  return `${said} ${scores}`;
}


/**
 * The level of the bot seats: "Medium", "Easy vs Hard" (none: "").
 * @param {any} m
 */
function levels(m) {
  return m.seats.filter((/** @type {any} */ s) => s.kind === "bot" && s.bot).map((/** @type {any} */ s) => t(`bot.${s.bot}`)).join(t("summary.vs"));
}

/**
 * A match's rules in a few words: "To 100 · Standard knocking (10) · Medium · game bonus".
 * @param {any} m a MatchOut or a history line
 */
export function rulesSummary(m) {
  const s = m.settings;
  const parts = [t("rules.to", { target: s.match_to }), t(`rules.knocking.${s.knocking}`)];
  const level = levels(m);
  if (level) parts.push(level);
  if (s.undercut_bonus !== 25) parts.push(t("rules.undercut", { bonus: s.undercut_bonus }));
  if (s.gin_bonus !== 25) parts.push(t("rules.gin", { bonus: s.gin_bonus }));
  if (s.big_gin) parts.push(t("rules.big_gin", { bonus: s.big_gin_bonus }));
  for (const rule of ["ace_high", "game_bonus", "line_bonus"]) if (s[rule]) parts.push(t(`rules.${rule}`));
  if (s.shutout && s.shutout !== "off") parts.push(t(`rules.shutout.${s.shutout}`));
  if (s.spades_double) parts.push(t("rules.spades_double"));
  if (s.hints) parts.push(t("rules.hints"));
  if (m.clock) parts.push(clockRule(m.clock));
  return parts.join(t("rules.separator"));
}

/**
 * An error in the reader's words: the catalogue's for its code (a refusal of the rules or
 * the server's own), with its params; the server's message for a code it does not know.
 * @param {{code?: string, message: string, params?: Record<string, any>}} e
 */
export function errorText(e) {
  const params = { ...(e.params || {}) };
  for (const k of ["card", "token"]) {
    if (typeof params[k] === "string" && /^[A2-9TJQK][CDHS]$/.test(params[k])) params[k] = symbol(params[k]);
  }
  // A refusal about a part (a record's deck, a setting) carries the inner refusal's code.
  if (typeof params.reason === "string" && has(`refusal.${params.reason}`)) params.reason = t(`refusal.${params.reason}`, params);
  for (const key of [`refusal.${e.code}`, `error.${e.code}`]) {
    if (!e.code || !has(key)) continue;
    const text = t(key, params);
    // A param the words need and the answer lacks: the server's message says more.
    return /\{\w+\}/.test(text) ? e.message : text;
  }
  return e.message;
}
