// Every word the page shows or speaks comes from one catalogue per language (i18n/en.json,
// the source, and i18n/ne.json), through t(key, params). Keys are flat ("event.discard");
// values hold {name} placeholders. A key with plural forms has one entry per plural
// category of its language (Intl.PluralRules): "cards.one", "cards.other". A number param
// is written in the language's own digits (Devanagari in Nepali): by a table of our own,
// since a browser's Intl may have no Nepali data (Chromium's has none) and write 0-9.

/** @typedef {Record<string, string | number | boolean | null | undefined>} Params */

/** @type {Record<string, string>} */
let catalogue = {};
let lang = "en";
/** @type {Intl.PluralRules} */
let plurals = new Intl.PluralRules("en");
/**
 * Numbers grouped only from five digits ("min2"): 1000 stays whole, as the rules and the
 * form write it; 12,000 is grouped. (TypeScript's lib knows useGrouping as a boolean.)
 * @param {string} language
 */
function numberFormat(language) {
  return new Intl.NumberFormat(language, /** @type {Intl.NumberFormatOptions} */ (/** @type {unknown} */ ({ useGrouping: "min2" })));
}

/** @type {Intl.NumberFormat} */
let numbers = numberFormat("en");

/** @type {Record<string, string>} a language's digits, zero to nine, where not 0-9 */
const DIGITS = { ne: "०१२३४५६७८९" };

/**
 * Use this catalogue from now on.
 * @param {Record<string, string>} entries
 * @param {string} [language]
 */
export function setCatalogue(entries, language = "en") {
  catalogue = entries;
  lang = language;
  plurals = new Intl.PluralRules(language);
  numbers = numberFormat(language);
}

/**
 * Fetch the catalogue of a language from the server and use it: by default the page's
 * own (`<html lang>`, which the server sets to the reader's language).
 * @param {string} [language]
 */
export async function loadCatalogue(language = document.documentElement.lang || "en") {
  const response = await fetch(`/static/i18n/${language}.json`);
  if (!response.ok) throw new Error(`/static/i18n/${language}.json: ${response.status}`);
  setCatalogue(await response.json(), language);
}

/**
 * A number in the reader's digits: "12" in English, "१२" in Nepali.
 * @param {number} n
 */
export function num(n) {
  return digits(numbers.format(n));
}

/**
 * A text's digits 0-9 written in the reader's digits ("बाजी 2" → "बाजी २").
 * @param {string} text
 */
export function digits(text) {
  const own = DIGITS[lang];
  return own ? text.replace(/[0-9]/g, (d) => own[Number(d)]) : text;
}

/**
 * A moment in the reader's words: "Nov 30, 2026, 2:15 PM"; in a language whose words
 * for months the browser may lack, numbers only ("२०२६-११-३० १४:१५").
 * @param {Date} d
 */
export function dateTime(d) {
  if (!(lang in DIGITS)) return d.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return digits(`${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`);
}

/** The language of the catalogue in use. */
export function language() {
  return lang;
}

/**
 * Whether the catalogue has words for this key (or for its plural forms).
 * @param {string} key
 */
export function has(key) {
  return key in catalogue || `${key}.other` in catalogue;
}

/**
 * The words for a key, with the params filled in. A `count` param picks the plural form.
 * A key missing from the catalogue comes back as itself, so the gap shows.
 * @param {string} key
 * @param {Params} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  let text = catalogue[key];
  if (typeof params.count === "number") {
    const form = catalogue[`${key}.${plurals.select(params.count)}`] ?? catalogue[`${key}.other`];
    if (form !== undefined) text = form;
  }
  if (text === undefined) return key;
  return fill(text, params);
}

/**
 * Put the params into a text's {name} placeholders (an unknown name is left as it is).
 * @param {string} text
 * @param {Params} params
 */
export function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = params[name];
    if (typeof value === "number") return num(value);
    return value === undefined || value === null ? whole : String(value);
  });
}

/**
 * A list in the reader's language: "a, b and c".
 * @param {string[]} items
 */
export function list(items) {
  if (items.length <= 1) return items.join("");
  return t("list.many", { init: items.slice(0, -1).join(t("list.comma")), last: items[items.length - 1] });
}

/**
 * The words for a key as a list of strings and nodes: each {name} whose param is a
 * Node becomes that node ("Pile ({count})" with a <span> for the count).
 * @param {string} key
 * @param {Record<string, Node | string | number>} params
 * @returns {(string | Node)[]}
 */
export function tNodes(key, params) {
  /** @type {Params} */
  const plain = {};
  for (const [k, v] of Object.entries(params)) if (typeof v !== "object") plain[k] = v;
  const text = t(key, plain);
  /** @type {(string | Node)[]} */
  const out = [];
  let at = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    const node = params[m[1]];
    if (typeof node !== "object") continue;
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(node);
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/**
 * Put the catalogue's words into the page's own markup: an element's text by its
 * `data-t` key, its aria-label and title by `data-t-aria-label` and `data-t-title`.
 * (The markup holds the English too, for a browser without scripts.)
 * @param {ParentNode} root
 */
export function translatePage(root) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(/** @type {HTMLElement} */ (el).dataset.t || "");
  for (const attr of ["aria-label", "title"]) {
    for (const el of root.querySelectorAll(`[data-t-${attr}]`)) el.setAttribute(attr, t(el.getAttribute(`data-t-${attr}`) || ""));
  }
}

/**
 * The words the style sheets draw as badges (a drawn card's "new", the card a knock would
 * throw, a rule's "Setting:"), handed to them as custom properties: --word-<name>.
 */
export function translateStyles() {
  for (const [name, key] of [["drawn-card", "card.badge_drawn"], ["knock-card", "card.badge_knock"], ["setting-note", "learn.setting_note"]]) {
    if (has(key)) document.documentElement.style.setProperty(`--word-${name}`, JSON.stringify(t(key)));
  }
}

/**
 * Make the language control's links come back to the page the reader is on
 * (`/lang/ne?next=/match/…`): the server remembers the choice and sends them back.
 * @param {ParentNode} root
 */
export function wireLanguageControl(root) {
  for (const a of root.querySelectorAll(".lang-switch a[hreflang]")) {
    if (a.getAttribute("hreflang") === document.documentElement.lang) a.setAttribute("aria-current", "true");
    a.addEventListener("click", () => {
      const lang = a.getAttribute("hreflang") || "en";
      // A learn page in another language has its English path after the language.
      const path = location.pathname.replace(/^\/(ne)(\/|$)/, "/");
      a.setAttribute("href", `/lang/${lang}?next=${encodeURIComponent(path + location.search + location.hash)}`);
    });
  }
}
