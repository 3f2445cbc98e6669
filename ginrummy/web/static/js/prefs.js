// What the page keeps in this browser (localStorage): display options, the last
// settings, the hand's order, the sort, what the player has learned already.

const COMFORT_KEY = "ginrummy.comfort";
const LEARNED_KEY = "ginrummy.learned";
const SETTINGS_KEY = "ginrummy.settings";
const SORT_KEY = "ginrummy.sort";
const OFFER_KEY = "ginrummy.learn.offered";

/** @type {Record<string, number>} Animation speeds: the length of one card's flight, in ms. */
export const SPEEDS = { off: 0, fast: 200, normal: 380, slow: 700 };

/**
 * A stored JSON value, or `fallback` if there is none or it cannot be read.
 * @template T
 * @param {string} key
 * @param {T} fallback
 * @returns {T}
 */
function read(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || "null");
    return v === null || v === undefined ? fallback : v;
  } catch {
    return fallback;
  }
}

/**
 * @param {string} key
 * @param {any} value
 */
function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode */ }
}

/** @typedef {{fourColour: boolean, large: boolean, speed: string, theme: string}} Comfort */

/** The colour themes: as the system says (prefers-color-scheme), or always light or dark. */
export const THEMES = ["system", "light", "dark"];

/**
 * The display options, as kept (or the defaults: reduced motion starts with no animation).
 * @param {boolean} reducedMotion
 * @returns {Comfort}
 */
export function loadComfort(reducedMotion) {
  const saved = read(COMFORT_KEY, /** @type {any} */ ({}));
  return {
    fourColour: Boolean(saved.fourColour),
    large: Boolean(saved.large),
    speed: SPEEDS[saved.speed] !== undefined ? saved.speed : (reducedMotion ? "off" : "normal"),
    theme: THEMES.includes(saved.theme) ? saved.theme : "system",
  };
}

/** @param {Comfort} comfort */
export function saveComfort(comfort) { write(COMFORT_KEY, comfort); }

// How to take, draw and throw is explained until the player has done it once.
/** @type {Record<string, string>} */
const LESSON_OF = { take: "take", pass: "take", stock: "draw", pile: "draw", discard: "throw", knock: "throw" };

/** @param {string} what "take", "draw" or "throw" */
export function learned(what) { return Boolean(read(LEARNED_KEY, /** @type {any} */ ({}))[what]); }

/** @param {string} action an action the player made: its lesson is learned */
export function learn(action) {
  const what = LESSON_OF[action];
  if (!what || learned(what)) return;
  const set = read(LEARNED_KEY, /** @type {any} */ ({}));
  set[what] = 1;
  write(LEARNED_KEY, set);
}

/** The settings of the last match started here. */
export function savedSettings() { return read(SETTINGS_KEY, /** @type {Record<string, any>} */ ({})); }
/** @param {Record<string, any>} settings */
export function saveSettings(settings) { write(SETTINGS_KEY, settings); }
export function forgetSettings() { localStorage.removeItem(SETTINGS_KEY); }

/** @returns {"rank" | "suit"} how the hand is sorted */
export function sortBy() { return localStorage.getItem(SORT_KEY) === "rank" ? "rank" : "suit"; }
export function toggleSort() { localStorage.setItem(SORT_KEY, sortBy() === "rank" ? "suit" : "rank"); }

/** @param {{id: string, hand_number: number}} m */
function orderKey(m) { return `ginrummy.order.${m.id}.${m.hand_number}`; }
/**
 * The player's own order of this hand's cards, or null.
 * @param {{id: string, hand_number: number}} m
 * @returns {string[] | null}
 */
export function savedOrder(m) { return read(orderKey(m), null); }
/**
 * @param {{id: string, hand_number: number}} m
 * @param {string[]} order
 */
export function saveOrder(m, order) { write(orderKey(m), order); }
/** @param {{id: string, hand_number: number}} m */
export function forgetOrder(m) { localStorage.removeItem(orderKey(m)); }

/**
 * How the player left this hand's table: grouped or not, and the card marked.
 * @param {{id: string, hand_number: number}} m
 * @returns {{grouped: boolean, marked: string | null}}
 */
export function savedView(m) {
  const v = read(`ginrummy.view.${m.id}.${m.hand_number}`, /** @type {any} */ ({}));
  return { grouped: Boolean(v.grouped), marked: typeof v.marked === "string" ? v.marked : null };
}
/**
 * @param {{id: string, hand_number: number}} m
 * @param {{grouped: boolean, marked: string | null}} view
 */
export function saveView(m, view) { write(`ginrummy.view.${m.id}.${m.hand_number}`, view); }

/** Whether the worked hand was offered already (the learn pages set it too). */
export function learnOffered() {
  try { return Boolean(localStorage.getItem(OFFER_KEY)); } catch { return true; }
}
/** @param {string} how "answered" or "seen" */
export function rememberLearnOffer(how = "answered") {
  try { localStorage.setItem(OFFER_KEY, how); } catch { /* private mode */ }
}

const NAME_KEY = "ginrummy.name";

/** The display name this player chose last (for a friend match), or "". */
export function savedName() {
  const v = read(NAME_KEY, "");
  return typeof v === "string" ? v : "";
}

/** @param {string} name */
export function saveName(name) { write(NAME_KEY, name); }
