// The game's prompt, its buttons (take, pass, knock, big gin, next hand) and the move
// log: built once beside the piles, drawn on every render.

import { name, symbol } from "./cards.js";
import { h, keyHint } from "./dom.js";
import { t } from "./messages.js";

/**
 * @typedef {object} Controls
 * @property {HTMLElement} promptArea
 * @property {HTMLElement} logPanel
 * @property {HTMLElement} prompt
 * @property {HTMLElement} error
 * @property {HTMLButtonElement} take
 * @property {HTMLButtonElement} pass
 * @property {HTMLButtonElement} knock
 * @property {HTMLElement} knockLabel
 * @property {HTMLElement} knockSub
 * @property {HTMLFieldSetElement} layouts
 * @property {HTMLElement} layoutOptions
 * @property {HTMLButtonElement} bigGin
 * @property {HTMLButtonElement} next
 * @property {HTMLButtonElement} hint
 * @property {HTMLElement} hintText
 * @property {HTMLElement} log
 * @property {HTMLButtonElement} sort
 * @property {HTMLButtonElement} group
 */

/** @returns {Controls} */
export function buildControls() {
  const prompt = h("p", { className: "prompt", id: "prompt" });
  const error = h("p", { className: "error", id: "error", role: "alert" });
  const take = h("button", { type: "button", className: "btn primary", id: "btn-take", hidden: true }, t("action.take") + " ", keyHint("T"));
  const pass = h("button", { type: "button", className: "btn", id: "btn-pass", hidden: true }, t("action.pass") + " ", keyHint("N"));
  const knockLabel = h("span", { id: "knock-label" }, t("action.knock"));
  const knockSub = h("small", { id: "knock-sub" });
  const knock = h("button", { type: "button", className: "btn knock", id: "btn-knock", hidden: true }, knockLabel, " ", keyHint("K"), knockSub);
  const layoutOptions = h("div", { id: "knock-layout-options" });
  const layouts = h("fieldset", { className: "layouts", id: "knock-layouts", hidden: true }, h("legend", {}, t("knock.layouts_legend")), layoutOptions);
  const bigGin = h("button", { type: "button", className: "btn knock", id: "btn-big-gin", hidden: true }, t("action.big_gin") + " ", keyHint("B"));
  const next = h("button", { type: "button", className: "btn primary", id: "btn-next", hidden: true }, t("action.next_hand") + " ", keyHint("Enter"));
  const hint = h("button", { type: "button", className: "btn", id: "btn-hint", hidden: true }, t("action.hint") + " ", keyHint("H"));
  const hintText = h("p", { className: "hint-text", id: "hint-text", "aria-live": "polite" });
  const actions = h("div", { className: "actions", id: "actions" }, take, pass, knock, layouts, bigGin, next, hint);
  const promptArea = h("div", { className: "prompt-area" }, prompt, error, actions, hintText);
  const log = h("ol", { className: "log", id: "log" });
  const logPanel = h("aside", { className: "log-panel", "aria-label": t("log.label") }, h("h2", { className: "log-title" }, t("log.title")), log);
  const sort = h("button", { type: "button", className: "btn small", id: "btn-sort" });
  const group = h("button", { type: "button", className: "btn small", id: "btn-group", "aria-pressed": "false" });
  return { promptArea, logPanel, prompt, error, take, pass, knock, knockLabel, knockSub, layouts, layoutOptions, bigGin, next, hint, hintText, log, sort, group };
}

/**
 * The Knock button's words for a choice: "Knock with 4" (or "Gin"), and what it throws.
 * @param {Controls} c
 * @param {{card: string, leaves: number} | null} choice
 */
export function drawKnock(c, choice) {
  c.knock.hidden = !choice;
  if (!choice) return;
  const what = choice.leaves === 0 ? t("knock.gin") : t("knock.with", { leaves: choice.leaves });
  c.knockLabel.textContent = what;
  const throws = t("knock.throws", { card: symbol(choice.card) });
  c.knockSub.textContent = throws;
  // The name starts with the words on the button (speech input says them), then names the card.
  c.knock.setAttribute("aria-label", t("knock.label", { what, throws, card: name(choice.card) }));
}

/**
 * How a layout reads: "3♣ 3♦ 3♥ · 9♠ 10♠ J♠, leaving 2♥ 4♥".
 * @param {{melds: {cards: string[]}[], deadwood: string[]}} layout
 */
export function layoutText(layout) {
  const melds = layout.melds.map((meld) => meld.cards.map(symbol).join(" ")).join(" · ");
  const dead = layout.deadwood.map(symbol).join(" ");
  return dead ? t("knock.layout_leaving", { melds, dead }) : melds;
}

/**
 * The knocker's choice among equally good layouts (it matters for lay-offs).
 * @param {Controls} c
 * @param {any} layouts the table's knock_layouts entry for the chosen card, or null
 * @param {number} chosen
 * @param {(i: number) => void} onChoose
 */
export function drawLayouts(c, layouts, chosen, onChoose) {
  c.layouts.hidden = !layouts;
  if (!layouts) return;
  c.layoutOptions.replaceChildren(...layouts.layouts.map((/** @type {any} */ layout, /** @type {number} */ i) => {
    const input = h("input", { type: "radio", name: "knock-layout", value: String(i) });
    input.checked = i === chosen;
    input.addEventListener("change", () => onChoose(i));
    return h("label", { className: "layout-option" }, input, h("span", {}, layoutText(layout)));
  }));
}

/**
 * The Sort and Group buttons' words.
 * @param {Controls} c
 * @param {"rank" | "suit"} next what Sort would sort by
 * @param {boolean} grouped
 */
export function drawTools(c, next, grouped) {
  const by = t(`sort.by_${next}`);
  c.sort.replaceChildren(by + " ", keyHint("O"));
  c.sort.setAttribute("aria-label", t(`sort.label_${next}`, { by, key: "O" }));
  c.group.setAttribute("aria-pressed", String(grouped));
  c.group.replaceChildren(t(grouped ? "hand.ungroup" : "hand.group") + " ", keyHint("G"));
}

/**
 * The move log.
 * @param {Controls} c
 * @param {{mine: boolean, text: string}[]} lines
 */
export function drawLog(c, lines) {
  c.log.replaceChildren(...lines.map((line) => h("li", { className: line.mine ? "mine" : "theirs" }, line.text)));
  c.log.scrollTop = c.log.scrollHeight;
}
