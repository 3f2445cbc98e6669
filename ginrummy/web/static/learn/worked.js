// The worked hand: one real hand, step by step, drawn by the game's own table view.

import { laid, symbol } from "../js/cards.js";
import { $, h } from "../js/dom.js";
import { t } from "../js/messages.js";
import { limitText } from "../js/picture.js";
import { rememberLearnOffer } from "../js/prefs.js";
import { isMine, mineFirst, seatWord } from "../js/seats.js";
import { eventText, summaryText } from "../js/words.js";
import { buildTable, drawTable } from "../js/table.js";
import { getJSON } from "./fetch.js";

/** @type {{steps: any[], at: number, showComputer: boolean, match: any}} */
const worked = { steps: [], at: 0, showComputer: false, match: { seat: 0, seats: [] } };

/** @type {import("../js/table.js").TableParts} */
let parts;
const status = h("p", { className: "status", id: "w-status" });
const limit = h("p", { className: "limit", id: "w-limit" });
const knock = h("span", { className: "knock-preview", id: "w-knock", hidden: true });
const result = h("div", { className: "worked-result", id: "w-result", hidden: true });

/** @param {any} who a step's seat: is it the reader's? */
const mine = (who) => isMine(worked.match, who);

/** @param {any} step what the status line says at a step */
function statusText(step) {
  const tb = step.table;
  const top = tb.pile.length ? symbol(tb.pile[tb.pile.length - 1]) : "";
  if (tb.phase === "over") return step.result ? summaryText(worked.match, step.result) : t("prompt.hand_over");
  if (!mine(tb.to_act)) return tb.phase === "upcard" ? t("learn.worked.they_upcard", { card: top }) : t("prompt.they_play", { who: seatWord(worked.match, tb.to_act, "subject") });
  if (tb.phase === "upcard") return t("learn.worked.upcard", { card: top });
  if (tb.phase === "draw") return t("learn.worked.draw", { card: top });
  return t("learn.worked.throw");
}

/** @param {any} step both hands laid down and the score, at the last step */
function drawResult(step) {
  const r = step.result;
  result.hidden = !r;
  if (!r) return;
  const side = mine(r.knocker) ? "mine" : "theirs";
  const other = mine(r.knocker) ? "theirs" : "mine";
  const children = [
    h("h3", {}, t(`learn.worked.knocked_${side}`, { points: r.knocker_points })),
    laid(r.knocker_melds, r.knocker_deadwood, r.knocker_points, r.lay_offs),
    h("h3", {}, t(`learn.worked.defender_${other}`, { points: r.defender_points })),
    laid(r.defender_melds, r.defender_deadwood, r.defender_points, []),
  ];
  if (r.lay_offs.length) {
    children.push(h("p", { className: "muted small" }, t("result.laid_off_onto", { cards: r.lay_offs.map((/** @type {any} */ lo) => symbol(lo.card)).join(" ") })));
  }
  children.push(h("p", { className: "totals", id: "w-totals" }, t("learn.worked.totals", totalsOf(step.scores))));
  result.replaceChildren(...children);
}

/** @param {number[]} scores by seat: the reader's first */
function totalsOf(scores) {
  const [mineScore, theirs] = mineFirst(worked.match, scores);
  return { mine: mineScore, theirs };
}

function renderStep() {
  const step = worked.steps[worked.at];
  if (!step) return;
  const tb = step.table;
  const n = worked.steps.length;
  $("step-count").textContent = t("learn.worked.step_of", { n: worked.at + 1, total: n });
  $("step-title").textContent = stepTitle(step);
  $("step-caption").textContent = t(`learn.worked.step.${step.key}.caption`, step.figures);
  $("step-moves").replaceChildren(...step.moves.map((/** @type {any} */ ev) => h("li", {}, eventText(worked.match, ev))));
  /** @type {HTMLButtonElement} */ ($("step-prev")).disabled = worked.at === 0;
  /** @type {HTMLButtonElement} */ ($("step-next")).disabled = worked.at === n - 1;
  for (const [i, dot] of [...$("step-dots").children].entries()) {
    if (i === worked.at) dot.setAttribute("aria-current", "step");
    else dot.removeAttribute("aria-current");
  }
  drawTable(parts, tb, {
    reveal: tb.opponent_hand || (worked.showComputer ? step.opponent_hand : null),
    grouped: true,
    marked: tb.knock ? tb.knock.card : null,
    theyDeal: tb.dealer !== null && !mine(tb.dealer),
  });
  status.textContent = statusText(step);
  limit.textContent = limitText(tb.knock_limit);
  knock.hidden = !tb.knock;
  if (tb.knock) knock.textContent = t("learn.worked.knock", { what: tb.knock.gin ? t("knock.gin") : t("knock.with", { leaves: tb.knock.leaves }), card: symbol(tb.knock.card) });
  drawResult(step);
  if (history.replaceState) history.replaceState(null, "", `#step-${worked.at + 1}`);
}

/** @param {any} step its title: the server names its words (`key`), the catalogue says them */
function stepTitle(step) {
  return t(`learn.worked.step.${step.key}.title`, step.figures);
}

/**
 * Bring the step's table and caption onto the screen, just under the step buttons (which
 * stay at the top: learn.css), if they are not on it already.
 */
function keepInView() {
  const bar = /** @type {HTMLElement} */ ($("step-prev").parentElement);
  const under = getComputedStyle(bar).position === "sticky" ? bar.getBoundingClientRect().height : 0;
  const shown = [$("worked-table"), /** @type {HTMLElement} */ ($("step-title").parentElement)].map((el) => el.getBoundingClientRect());
  const top = Math.min(...shown.map((r) => r.top));
  const bottom = Math.max(...shown.map((r) => r.bottom));
  if (top >= under && bottom <= window.innerHeight) return;
  // The step buttons stuck at the very top, the dots and the step right under them: the
  // same place at every step, so Next stays under the reader's finger.
  window.scrollBy({ top: $("step-dots").getBoundingClientRect().top - under, behavior: "instant" });
}

/**
 * @param {number} i go to step i (0-based)
 * @param {boolean} [show] bring it into view (a step chosen by the reader)
 */
function go(i, show = true) {
  const n = worked.steps.length;
  if (!n) return;
  worked.at = Math.max(0, Math.min(n - 1, i));
  renderStep();
  if (show) keepInView();
}

export async function workedPage() {
  rememberLearnOffer("seen");
  parts = buildTable($("worked-table"), {
    prefix: "w-",
    middleClass: "felt-row",
    middle: [h("div", {}, status, limit, h("p", {}, knock))],
    beforeMine: [result],
  });
  $("step-prev").addEventListener("click", () => go(worked.at - 1));
  $("step-next").addEventListener("click", () => go(worked.at + 1));
  $("show-computer").addEventListener("change", (e) => {
    worked.showComputer = /** @type {HTMLInputElement} */ (e.target).checked;
    renderStep();
  });
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target instanceof Element ? e.target.tagName : "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const to = { ArrowRight: worked.at + 1, ArrowLeft: worked.at - 1, Home: 0, End: worked.steps.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });
  let data;
  try {
    data = await getJSON("/api/learn/worked-hand");
  } catch (e) {
    $("step-title").textContent = t("learn.worked.unloadable");
    $("step-caption").textContent = /** @type {Error} */ (e).message;
    return;
  }
  // The worked hand names its players as a match does: the reader's seat and who sits where.
  worked.match = { seat: data.seat, seats: data.seats };
  worked.steps = data.steps;
  $("step-dots").replaceChildren(...data.steps.map((/** @type {any} */ s, /** @type {number} */ i) => {
    const title = stepTitle(s);
    const b = h("button", { type: "button", "aria-label": t("learn.worked.step_dot", { n: i + 1, title }), title });
    b.addEventListener("click", () => go(i));
    return b;
  }));
  const m = /^#step-(\d+)$/.exec(location.hash);
  // The first step under the page's introduction; a step named in the address in view.
  go(m ? Number(m[1]) - 1 : 0, Boolean(m && m[1] !== "1"));
}
