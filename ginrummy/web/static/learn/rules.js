// The rules page: opened from a match (?match=ID) or with settings in the address, it
// shows that match's settings and marks the rules that depend on them.

import { $, h } from "../js/dom.js";
import { num, t } from "../js/messages.js";
import { formOptions, settingWords, valueText, valuesOf } from "../js/settings.js";
import { errorText, rulesSummary } from "../js/words.js";
import { getJSON } from "./fetch.js";

/**
 * Settings named in the address (?knocking=oklahoma), or null if none is.
 * @param {any[]} options
 * @param {URLSearchParams} params
 */
function settingsFromQuery(options, params) {
  let any = false;
  /** @type {Record<string, any>} */
  const s = {};
  for (const opt of options) {
    s[opt.name] = opt.default;
    if (!params.has(opt.name)) continue;
    any = true;
    const raw = params.get(opt.name) || "";
    if (opt.kind === "switch") s[opt.name] = raw === "true" || raw === "1" || raw === "on";
    else if (opt.kind === "number") s[opt.name] = Number.parseInt(raw, 10) || opt.default;
    else if (opt.choices.includes(raw)) s[opt.name] = raw;
  }
  return any ? s : null;
}

function badge() {
  return h("span", { className: "this-match" }, t("learn.this_match"));
}

/**
 * @param {any[]} options
 * @param {Record<string, any>} settings
 * @param {string} summary
 */
function showMatchRules(options, settings, summary) {
  $("match-rules").hidden = false;
  $("match-rules-summary").textContent = summary || "";
  $("match-rules-list").replaceChildren(...options.filter((opt) => !(opt.name === "big_gin_bonus" && !settings.big_gin)).map((opt) => {
    const words = settingWords(opt);
    const li = h("li", {}, h("strong", {}, t("learn.setting_value", { label: words.label, value: valueText(opt, settings[opt.name]) })), t("rules.help_dash", { help: words.help }));
    li.dataset.setting = opt.name;
    return li;
  }));
  // The rules that depend on a setting: mark the ones this match uses.
  for (const node of document.querySelectorAll("[data-when]")) {
    const [key, want] = (/** @type {HTMLElement} */ (node).dataset.when || "").split("=");
    if (String(settings[key]) === want) {
      node.classList.add("active-rule");
      for (const note of node.querySelectorAll(".default-note")) /** @type {HTMLElement} */ (note).hidden = true;
      (node instanceof HTMLTableRowElement ? node.cells[0] : node).appendChild(badge());
    }
  }
  // Figures that are settings: this match's values.
  for (const node of document.querySelectorAll("[data-setting]")) {
    if (node.tagName === "LI") continue;
    const v = settings[/** @type {HTMLElement} */ (node).dataset.setting || ""];
    if (v !== undefined) node.textContent = typeof v === "number" ? num(v) : String(v);
  }
  for (const row of document.querySelectorAll("[data-setting-row]")) {
    const opt = options.find((o) => o.name === /** @type {HTMLElement} */ (row).dataset.settingRow);
    if (!opt || !(row instanceof HTMLTableRowElement)) continue;
    const v = settings[opt.name];
    if (v !== opt.default) {
      row.classList.add("active-rule");
      row.cells[1].append(" ", h("span", { className: "this-match" }, t("learn.this_match_value", { value: valueText(opt, v) })));
    }
  }
}

export async function rulesPage() {
  const params = new URLSearchParams(location.search);
  const matchId = params.get("match");
  let options;
  try {
    options = formOptions(await getJSON("/api/settings")).options;
  } catch {
    return;
  }
  if (matchId) {
    try {
      const m = await getJSON(`/api/matches/${encodeURIComponent(matchId)}`);
      showMatchRules(options, valuesOf(m), rulesSummary(m));
      $("match-rules").appendChild(h("a", { className: "btn small", href: `/match/${encodeURIComponent(matchId)}` }, t("learn.back_to_match")));
    } catch (e) {
      const box = $("match-rules-error");
      box.hidden = false;
      box.textContent = t("learn.match_unloadable", { message: errorText(/** @type {any} */ (e)) });
    }
  } else {
    const s = settingsFromQuery(options, params);
    if (s) showMatchRules(options, s, "");
  }
  if (location.hash) {
    const target = document.getElementById(location.hash.slice(1));
    if (target) target.scrollIntoView();
  }
}
