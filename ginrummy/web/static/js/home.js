// The first page: the settings form (every setting with its help), the resume box and
// the offer of the worked hand.

import { $, h } from "./dom.js";
import { num, t } from "./messages.js";
import * as prefs from "./prefs.js";
import { choicesOf, settingWords } from "./settings.js";

/**
 * One setting's field: a switch, a row of choices, or a number with presets.
 * @param {any} opt
 * @param {any} value
 */
function field(opt, value) {
  const words = settingWords(opt);
  const wrap = h("div", { className: `setting setting-${opt.kind}` });
  wrap.dataset.name = opt.name;
  const helpId = `help-${opt.name}`;
  const help = h("p", { className: "help", id: helpId }, words.help);
  if (opt.kind === "switch") {
    const input = h("input", { type: "checkbox", name: opt.name, id: `set-${opt.name}`, "aria-describedby": helpId });
    input.checked = Boolean(value);
    wrap.append(h("label", { className: "switch" }, input, " " + words.label), help);
  } else if (opt.kind === "choice") {
    const row = h("div", { className: "segments" });
    for (const [val, text] of choicesOf(opt)) {
      const input = h("input", { type: "radio", name: opt.name, value: val, id: `set-${opt.name}-${val}` });
      input.checked = value === val;
      row.appendChild(h("label", {}, input, h("span", {}, text)));
    }
    wrap.append(h("fieldset", { className: "segmented", "aria-describedby": helpId }, h("legend", {}, words.label), row), help);
  } else {
    const label = h("label", { className: "field" }, words.label);
    label.htmlFor = `set-${opt.name}`;
    const input = h("input", {
      type: "number", name: opt.name, id: `set-${opt.name}`, min: opt.minimum, max: opt.maximum,
      step: 1, required: true, inputmode: "numeric", "aria-describedby": helpId,
    });
    input.value = String(value);
    const row = h("div", { className: "number-row" }, input);
    const problem = h("p", { className: "field-error", id: `error-${opt.name}`, hidden: true });
    for (const p of opt.presets) {
      const b = h("button", { type: "button", className: "chip", "aria-label": t("form.preset_label", { label: words.label, value: p }) }, num(p));
      b.dataset.value = String(p);
      b.addEventListener("click", () => { input.value = String(p); syncForm(); });
      row.appendChild(b);
    }
    wrap.append(label, row, problem, help);
  }
  return wrap;
}

/** Keep the form's dependent parts in step: pressed presets, big gin's bonus, the house count. */
export function syncForm() {
  for (const row of document.querySelectorAll(".number-row")) {
    const input = /** @type {HTMLInputElement} */ (row.querySelector("input"));
    for (const chip of row.querySelectorAll(".chip")) chip.setAttribute("aria-pressed", String(/** @type {HTMLElement} */ (chip).dataset.value === input.value));
  }
  const form = /** @type {HTMLFormElement} */ ($("settings-form"));
  const bigGin = /** @type {HTMLInputElement | null} */ (form.elements.namedItem("big_gin"));
  const bonus = /** @type {HTMLInputElement | null} */ (form.elements.namedItem("big_gin_bonus"));
  if (bigGin && bonus) bonus.disabled = !bigGin.checked;
  let on = 0;
  for (const el of $("house-fields").querySelectorAll("input[type=checkbox]")) if (/** @type {HTMLInputElement} */ (el).checked) on += 1;
  const shutout = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=shutout]:checked"));
  if (shutout && shutout.value !== "off") on += 1;
  $("house-count").textContent = on ? t("form.house_on", { count: on }) : t("form.house_off");
}

/**
 * Build the form from the options with these values (missing ones at their defaults).
 * @param {any[]} options
 * @param {Record<string, any>} values
 */
export function buildForm(options, values) {
  const main = $("settings-fields");
  const house = $("house-fields");
  main.replaceChildren();
  house.replaceChildren();
  for (const opt of options) {
    const value = values[opt.name] !== undefined ? values[opt.name] : opt.default;
    (opt.house_rule ? house : main).appendChild(field(opt, value));
  }
  syncForm();
}

/**
 * The settings the form holds now.
 * @param {any[]} options
 */
export function readForm(options) {
  const form = /** @type {HTMLFormElement} */ ($("settings-form"));
  /** @type {Record<string, any>} */
  const out = {};
  for (const opt of options) {
    const el = /** @type {HTMLInputElement} */ (form.elements.namedItem(opt.name));
    if (opt.kind === "switch") out[opt.name] = el.checked;
    else if (opt.kind === "choice") {
      const checked = /** @type {HTMLInputElement | null} */ (form.querySelector(`input[name=${opt.name}]:checked`));
      out[opt.name] = checked ? checked.value : opt.default;
    } else {
      const raw = el.value.trim();
      out[opt.name] = /^-?\d+$/.test(raw) ? Number(raw) : raw;
    }
  }
  return out;
}

/**
 * What is wrong with a number field's text (null when it is a whole number in range).
 * @param {string} raw
 * @param {{minimum?: number | null, maximum?: number | null}} opt
 * @returns {{key: string, params: Record<string, any>} | null}
 */
export function numberProblem(raw, opt) {
  const text = raw.trim();
  const low = opt.minimum ?? null;
  const high = opt.maximum ?? null;
  const range = { low, high };
  if (!/^-?\d+$/.test(text)) return { key: text ? "form.not_whole" : "form.empty", params: range };
  const n = Number(text);
  if ((low !== null && n < low) || (high !== null && n > high)) return { key: "form.out_of_range", params: { ...range, value: n } };
  return null;
}

/**
 * Mark a field as wrong with the words why (or clear it: text ""), and move to the first.
 * @param {string} name the setting
 * @param {string} text
 */
export function markField(name, text) {
  const input = document.getElementById(`set-${name}`);
  const problem = document.getElementById(`error-${name}`);
  if (!input || !problem) return false;
  problem.textContent = text;
  problem.hidden = !text;
  if (text) {
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", `error-${name} help-${name}`);
  } else {
    input.removeAttribute("aria-invalid");
    input.setAttribute("aria-describedby", `help-${name}`);
  }
  return true;
}

/**
 * Check the form's numbers before it is sent: each wrong one is marked with its reason,
 * the first gets the focus (scrolled into view), and the words go to the form's error line.
 * @param {any[]} options
 * @returns {boolean} whether everything can be sent
 */
export function checkForm(options) {
  const form = /** @type {HTMLFormElement} */ ($("settings-form"));
  /** @type {HTMLElement | null} */
  let first = null;
  let firstText = "";
  for (const opt of options) {
    if (opt.kind !== "number") continue;
    const input = /** @type {HTMLInputElement} */ (form.elements.namedItem(opt.name));
    const problem = input.disabled ? null : numberProblem(input.value, opt);
    const text = problem ? t(problem.key, { label: settingWords(opt).label, ...problem.params }) : "";
    markField(opt.name, text);
    if (problem && !first) { first = input; firstText = text; }
  }
  $("settings-error").textContent = firstText;
  if (first) first.focus();
  return !first;
}

/**
 * Show a refusal of the settings by the server: at its field when it names one.
 * @param {{params?: Record<string, any>}} e
 * @param {string} text the words for it
 */
export function showFormError(e, text) {
  $("settings-error").textContent = text;
  const name = e.params && typeof e.params.name === "string" ? e.params.name : null;
  if (name && markField(name, text)) document.getElementById(`set-${name}`)?.focus();
  else $("settings-error").scrollIntoView({ block: "center" });
}

/** The worked hand's offer: shown until answered. */
export function wireLearnOffer() {
  $("learn-offer-go").addEventListener("click", () => prefs.rememberLearnOffer());
  $("learn-offer-dismiss").addEventListener("click", () => {
    prefs.rememberLearnOffer();
    $("learn-offer").hidden = true;
  });
}
