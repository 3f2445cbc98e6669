// The dialogs of the game: a hand's result with its fair-deal proof, the final score,
// the score sheet, the rules of the match and the whole discard pile.

import { openDialog } from "./dialogs.js";
import { clockLength, clockRule } from "./clock.js";
import { $, h } from "./dom.js";
import { dealCheck, promise, seenAtEnd, short } from "./fair.js";
import { t } from "./messages.js";
import { isOfflineId } from "./offline.js";
import { drawPileDialog, finalTable, handsOf, resultTitle, rulesList, sheetTable, totalsLine } from "./result.js";
import { isMine, seatWord } from "./seats.js";
import { formOptions, settingWords, valueText, valuesOf } from "./settings.js";
import { currentTable, state } from "./state.js";
import { api } from "./transport.js";
import { rulesSummary, summaryText } from "./words.js";

/** The settings form's fields, fetched once. */
export async function loadForm() {
  if (!state.form) state.form = formOptions(await api.settings());
  return state.form;
}

/**
 * The fair deal under the result: a small mark ("✓ Fair deal") that opens the proof (the
 * seed revealed and checked here); open from the start when the deal does not check out.
 * @param {any} m
 */
async function showDealCheck(m) {
  const box = $("result-fair");
  if (isOfflineId(m.id)) {
    // Dealt by this device for itself: there is nobody to prove anything to.
    $("result-fair-mark").textContent = t("fair.mark.offline");
    $("result-fair-text").textContent = t("fair.offline");
    box.className = "fair-mark fair-offline";
    /** @type {HTMLDetailsElement} */ (box).open = false;
    return;
  }
  const check = m.last_result && m.last_result.kind === "dead"
    ? { status: "dead", text: t("fair.dead_hand") }
    : await dealCheck(m.id, m.fairness.deal, {
      who: (seat) => seatWord(m, seat, "bare"),
      seen: seenAtEnd(m.table, m.fairness.deal.hand),
    });
  let text = check.text;
  if (m.fairness.next_commitment) {
    promise(m.id, m.hand_number + 1, m.fairness.next_commitment);
    text += " " + t("fair.next", { hash: short(m.fairness.next_commitment) });
  }
  const mark = check.status === "fixed" ? "uncommitted" : ["ok", "bad", "uncommitted"].includes(check.status) ? check.status : "other";
  $("result-fair-mark").textContent = t(`fair.mark.${mark}`);
  $("result-fair-text").textContent = text;
  box.className = `fair-mark fair-${mark}`;
  /** @type {HTMLDetailsElement} */ (box).open = check.status === "bad" || check.status === "uncommitted";
}

/**
 * The result dialog filled with the hand just over (both hands, the score, the deal's
 * proof, the link to its review), without opening it.
 * @param {any} m
 */
function fillResult(m) {
  const entry = m.last_result;
  $("result-title").textContent = resultTitle(m, entry);
  $("result-summary").textContent = summaryText(m, entry);
  showDealCheck(m);
  $("result-hands").replaceChildren(handsOf(m, entry));
  $("result-score").replaceChildren(totalsLine(m));
  $("result-next").hidden = !m.awaiting_deal;
  $("result-review").setAttribute("href", `/review/${m.id}/${m.hand_number}`);
}

/** @param {any} m the result of the hand just over */
export function showResult(m) {
  fillResult(m);
  openDialog("dlg-result");
  $("result-next").focus();
}

/** The hand that ended the match, from the final dialog: its hands, proof and review. */
export function showLastHand() {
  if (!state.match || !state.match.last_result) return;
  openDialog("dlg-result");
  $("result-close").focus();
}

/** @param {any} m the score sheet of a match */
export function sheetOf(m) { return sheetTable(m, (e) => summaryText(m, e)); }

export function showSheet() {
  if (!state.match) return;
  $("sheet-body").replaceChildren(sheetOf(state.match));
  openDialog("dlg-sheet");
}

/** @param {any} m the end of the match */
export function showFinal(m) {
  $("final-title").textContent = t(isMine(m, m.final.winner) ? "final.title_mine" : "final.title_theirs", { who: seatWord(m, m.final.winner, "subject") });
  const body = $("final-body");
  body.replaceChildren();
  // The hand that ended the match keeps its result dialog (both hands, the deal's proof, the
  // review), one button away.
  $("final-last").hidden = !m.last_result;
  if (m.last_result) fillResult(m);
  if (m.last_result) {
    const p = document.createElement("p");
    p.className = "result-summary";
    p.textContent = t("final.last_hand", { summary: summaryText(m, m.last_result) });
    body.appendChild(p);
  }
  body.appendChild(finalTable(m));
  const hands = document.createElement("p");
  hands.className = "muted";
  hands.textContent = t("final.hands_played", { count: m.sheet.length, summary: rulesSummary(m) });
  body.appendChild(hands);
  openDialog("dlg-final");
  $("final-again").focus();
}

export async function showRules() {
  const m = state.match;
  if (!m) return;
  let form;
  try { form = await loadForm(); } catch { return; }
  $("rules-full-link").setAttribute("href", "/rules?match=" + encodeURIComponent(m.id));
  $("rules-body").replaceChildren(...rulesList(form.options, valuesOf(m), settingWords, valueText));
  if (m.clock) {
    const help = t(m.clock.expiry === "timed" ? "clock.help_timed" : "clock.help_ask", { time: clockLength(m.clock.seconds) });
    $("rules-body").append(h("dt", {}, t("clock.label")), h("dd", {}, h("b", {}, clockRule(m.clock)), h("span", { className: "muted" }, t("rules.help_dash", { help }))));
  }
  openDialog("dlg-rules");
}

export function showPile() {
  const tb = currentTable(state.match, state.display);
  if (!tb) return;
  drawPileDialog(tb.pile);
  openDialog("dlg-pile");
}

