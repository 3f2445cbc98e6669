// The first page: the settings form (every setting with its help), the resume box and
// the offer of the worked hand.

import { $, h } from "./dom.js";
import { t } from "./messages.js";
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
    for (const p of opt.presets) {
      const b = h("button", { type: "button", className: "chip", "aria-label": t("form.preset_label", { label: words.label, value: p }) }, String(p));
      b.addEventListener("click", () => { input.value = String(p); syncForm(); });
      row.appendChild(b);
    }
    wrap.append(label, row, help);
  }
  return wrap;
}

/** Keep the form's dependent parts in step: pressed presets, big gin's bonus, the house count. */
export function syncForm() {
  for (const row of document.querySelectorAll(".number-row")) {
    const input = /** @type {HTMLInputElement} */ (row.querySelector("input"));
    for (const chip of row.querySelectorAll(".chip")) chip.setAttribute("aria-pressed", String(chip.textContent === input.value));
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

/** The worked hand's offer: shown until answered. */
export function wireLearnOffer() {
  $("learn-offer-go").addEventListener("click", () => prefs.rememberLearnOffer());
  $("learn-offer-dismiss").addEventListener("click", () => {
    prefs.rememberLearnOffer();
    $("learn-offer").hidden = true;
  });
}
