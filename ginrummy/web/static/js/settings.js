// The settings: the words for each (label, help, a value's name), the form's options as
// the server lists them, and the level of the bot seat, which the form shows beside the
// rules as "Difficulty" although it belongs to the seat, not to the rules.

import { has, num, t } from "./messages.js";

/** The level a bot seat plays at unless the form says otherwise. */
export const DEFAULT_LEVEL = "medium";

/**
 * @typedef {object} FormOptions
 * @property {any[]} options every field of the form, the bot's level among them
 * @property {string[]} bots the levels a bot seat can play at
 */

/**
 * The form's fields from the server's answer: the settings, with the bot's level as a
 * "difficulty" choice after the gin bonus (where the form has always shown it).
 * @param {any} raw the answer of GET /api/settings
 * @returns {FormOptions}
 */
export function formOptions(raw) {
  const options = [...raw.settings];
  const level = { name: "difficulty", kind: "choice", default: DEFAULT_LEVEL, choices: raw.bots, house_rule: false };
  const at = options.findIndex((o) => o.name === "gin_bonus");
  options.splice(at < 0 ? options.length : at + 1, 0, level);
  return { options, bots: raw.bots };
}

/**
 * What to send for a new match: the rules as settings and the level as the bot's seat.
 * @param {Record<string, any>} values the form's values
 */
export function newMatchBody(values) {
  const { difficulty, ...settings } = values;
  return { settings, seats: [{ kind: "person" }, { kind: "bot", bot: difficulty || DEFAULT_LEVEL }] };
}

/**
 * The body that starts another match like `m` (Play again).
 * @param {any} m
 */
export function againBody(m) {
  if (m.seats.every((/** @type {any} */ s) => s.kind === "person")) {
    // Against a friend: a new friend match, with a new invite link to send.
    const mine = typeof m.seat === "number" ? m.seats[m.seat].name : null;
    /** @type {{settings: any, seats: any[], clock?: {seconds: number, expiry: string}}} */
    const body = { settings: m.settings, seats: [{ kind: "person", name: mine }, { kind: "friend" }] };
    // The same move clock again (the friend agrees again to a timed one on joining).
    if (m.clock) body.clock = { seconds: m.clock.seconds, expiry: m.clock.expiry };
    return body;
  }
  return { settings: m.settings, seats: m.seats.map((/** @type {any} */ s) => (s.kind === "bot" ? { kind: "bot", bot: s.bot } : { kind: "person" })) };
}

/**
 * A match's values for every field of the form, the bot's level included.
 * @param {any} m
 */
export function valuesOf(m) {
  const bot = m.seats.find((/** @type {any} */ s) => s.kind === "bot");
  return bot ? { ...m.settings, difficulty: bot.bot } : { ...m.settings };
}

/**
 * A setting's label and one-sentence help.
 * @param {any} opt a settings form option
 */
export function settingWords(opt) {
  const key = `setting.${opt.name}`;
  return {
    label: has(`${key}.label`) ? t(`${key}.label`) : opt.name,
    help: has(`${key}.help`) ? t(`${key}.help`) : "",
  };
}

/**
 * The values a choice offers, as [value, words] pairs.
 * @param {any} opt
 * @returns {[string, string][]}
 */
export function choicesOf(opt) {
  return opt.choices.map((/** @type {string} */ value) => {
    const key = `setting.${opt.name}.${value}`;
    return [value, has(key) ? t(key) : value];
  });
}

/**
 * A setting's value in words: "On", "Oklahoma", "100".
 * @param {any} opt
 * @param {any} value
 */
export function valueText(opt, value) {
  if (opt.kind === "switch") return t(value ? "setting.on" : "setting.off");
  if (opt.kind === "choice") {
    const found = choicesOf(opt).find((c) => c[0] === value);
    return found ? found[1] : num(value);
  }
  return typeof value === "number" ? num(value) : String(value);
}
