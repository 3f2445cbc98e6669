// The coach's words: a review's or a hint's actions and reasons, from the codes the server
// sends (docs/COACH.md lists them), in the reader's language.

import { symbol } from "./cards.js";
import { has, t } from "./messages.js";

const CARD = /^[A2-9TJQK][CDHS]$/;

/**
 * An action of the action notation ("discard 7H", "knock 2C [AS 2S 3S]", "pile") as a
 * phrase: "throw the 7♥". `drawn` is the card a draw brought (when it is known).
 * @param {string} action
 * @param {{top?: string | null, drawn?: string | null}} [at] the pile's top before it, the card drawn
 * @returns {string}
 */
export function actionPhrase(action, at = {}) {
  const [verb, card] = action.split(" ");
  const shown = (/** @type {string | null | undefined} */ c) => (c && CARD.test(c) ? symbol(c) : "");
  switch (verb) {
    case "take": return t("coach.do.take", { card: shown(at.top) });
    case "pass": return t("coach.do.pass", { card: shown(at.top) });
    case "stock": return at.drawn ? t("coach.do.stock_card", { card: shown(at.drawn) }) : t("coach.do.stock");
    case "pile": return t("coach.do.pile", { card: shown(at.top) });
    case "discard": return t("coach.do.discard", { card: shown(card) });
    case "knock": return t("coach.do.knock", { card: shown(card) });
    case "big_gin": return t("coach.do.big_gin");
    default: return action;
  }
}

/**
 * A reason code and its params as words: a mistake's ("threw 9♥, a card the other player
 * collects"), a decision's explanation ("kept 9♥: the other player collects it") or a
 * hint's ("the knock wins 80% of the time").
 * @param {{code: string, [k: string]: any} | null} reason
 * @param {"mistake" | "why" | "hint"} as
 */
export function reasonText(reason, as) {
  if (!reason) return "";
  const key = `coach.${as}.${reason.code}`;
  if (!has(key)) return reason.code;
  /** @type {Record<string, string | number>} */
  const params = {};
  for (const [k, v] of Object.entries(reason)) {
    if (k === "code") continue;
    if (k === "card" && typeof v === "string") params[k] = CARD.test(v) ? symbol(v) : v;
    else if (k === "cards" && typeof v === "string") params[k] = v.split(" ").map((c) => (CARD.test(c) ? symbol(c) : c)).join(" ");
    else params[k] = v;
  }
  return t(key, params);
}

/**
 * Points with one decimal, in the reader's locale.
 * @param {number} x
 */
export function points(x) {
  return x.toLocaleString(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}
