// The words for the settings: a setting's label and help, a value's name, the summary
// of a match's rules. The server sends the settings' names, kinds and values; the words
// come from the catalogue (or, from a server that still sends them, its own).

import { has, t } from "./messages.js";

/**
 * A setting's label and one-sentence help.
 * @param {any} opt a settings form option
 */
export function settingWords(opt) {
  const key = `setting.${opt.name}`;
  return {
    label: has(`${key}.label`) ? t(`${key}.label`) : opt.label,
    help: has(`${key}.help`) ? t(`${key}.help`) : opt.help,
  };
}

/**
 * The values a choice offers, as [value, words] pairs.
 * @param {any} opt
 * @returns {[string, string][]}
 */
export function choicesOf(opt) {
  return opt.choices.map((/** @type {any} */ c) => {
    const value = Array.isArray(c) ? c[0] : c;
    const key = `setting.${opt.name}.${value}`;
    return [value, has(key) ? t(key) : (Array.isArray(c) ? c[1] : String(value))];
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
    return found ? found[1] : String(value);
  }
  return String(value);
}
