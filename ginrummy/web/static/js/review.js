// The review of a finished hand: every step with both hands face up, and at each decision
// what was done, what Hard would have done, the cost with its interval and the reason.
// The server makes the review off its request threads; this page polls until it is done.

import { laid, mini } from "./cards.js";
import { actionPhrase, points, reasonText } from "./coach.js";
import { $, h } from "./dom.js";
import { t } from "./messages.js";
import { seatName } from "./seats.js";
import { api } from "./transport.js";
import { errorText } from "./words.js";

/** How often to ask how far a review has got, in ms. */
const POLL_MS = 400;

/**
 * @typedef {object} Shown
 * @property {any} data the review as the server sent it
 * @property {any} match the match, for its seats' names
 * @property {number} step
 * @property {Map<number, any[]>} decisions by action number
 */

/** @type {Shown | null} */
let shown = null;
/** The review asked for last: a newer request wins over an older poll. */
let asked = 0;

/**
 * A hand (melds and deadwood, as the server laid it out) as the page draws laid hands.
 * @param {{melds: string[][], deadwood: string[], points: number}} hand
 */
function laidHand(hand) {
  const melds = hand.melds.map((cards) => ({ kind: new Set(cards.map((c) => c[0])).size === 1 ? "set" : "run", cards }));
  return laid(melds, hand.deadwood, hand.points);
}

/**
 * The card a draw brought: the one in the hand after it and not before.
 * @param {any[]} steps
 * @param {number} i
 */
function drawnAt(steps, i) {
  const p = steps[i].player;
  if (p === null || i + 1 >= steps.length) return null;
  const cards = (/** @type {any} */ hand) => [...hand.melds.flat(), ...hand.deadwood];
  const before = new Set(cards(steps[i].hands[p]));
  return cards(steps[i + 1].hands[p]).find((c) => !before.has(c)) || null;
}

/**
 * What one decision says: the action, Hard's choice, the cost and interval, the reason.
 * @param {any} d a decision of the review
 * @param {any} m the match
 * @param {number} reviewed the seat reviewed
 * @param {{top: string | null, drawn: string | null}} at
 * @param {number} threshold
 */
function decisionBox(d, m, reviewed, at, threshold) {
  const who = seatName(m, d.player);
  const box = h("div", { className: "review-decision" + (d.mistake ? " is-mistake" : "") });
  const kind = t(`coach.kind.${d.kind}`);
  box.appendChild(h("p", { className: "review-did" }, h("b", {}, t("coach.did", { who, kind })), " ", actionPhrase(d.action, at)));
  if (d.player !== reviewed) {
    if (d.reason) box.appendChild(h("p", { className: "review-why" }, t("coach.why_label"), " ", reasonText(d.reason, "why")));
    return box;
  }
  const same = d.hard === null || d.hard === d.action || (d.cost === 0 && d.samples === 0);
  box.appendChild(h("p", {}, t("coach.hard_would"), " ", same ? t("coach.same_as_hard") : actionPhrase(d.hard, at)));
  if (d.cost !== null && d.interval && d.samples > 0) {
    const [low, high] = d.interval;
    box.appendChild(h("p", { className: "review-cost" }, t("coach.cost", { cost: points(d.cost), low: points(low), high: points(high), samples: d.samples })));
  }
  if (d.mistake) {
    box.appendChild(h("p", { className: "review-mark" }, h("span", { className: "chip mistake" }, t("coach.mistake")), " ", reasonText(d.reason, "mistake")));
  } else if (!same && d.samples > 0) {
    box.appendChild(h("p", { className: "muted" }, t("coach.not_marked", { threshold: points(threshold) })));
  }
  return box;
}

/** Draw the step shown. */
function draw() {
  if (!shown) return;
  const { data, match, step } = shown;
  const steps = data.steps;
  const s = steps[step];
  const reviewed = data.seat;
  const other = 1 - reviewed;
  const last = steps.length - 1;
  $("review-step").textContent = t("coach.step", { step: step + 1, count: steps.length });
  for (const [id, off] of [["review-first", step === 0], ["review-back", step === 0], ["review-next", step === last], ["review-last", step === last]]) {
    /** @type {HTMLButtonElement} */ ($(/** @type {string} */ (id))).disabled = /** @type {boolean} */ (off);
  }
  const hand = (/** @type {number} */ p) => h("div", { className: "review-hand" + (p === reviewed ? " mine" : "") },
    h("h2", { className: "review-who" }, t("coach.hand_of", { who: seatName(match, p), points: s.hands[p].points })), laidHand(s.hands[p]));
  const top = s.pile.length ? s.pile[s.pile.length - 1] : null;
  const middle = h("div", { className: "review-middle" },
    h("span", {}, t("coach.pile"), " ", top ? mini(top) : t("coach.pile_empty")),
    h("span", { className: "muted" }, t("coach.stock", { count: s.stock })));
  $("review-table").replaceChildren(hand(other), middle, hand(reviewed));
  const panel = $("review-panel");
  panel.replaceChildren();
  if (s.action === null) {
    const r = data.review.result;
    const winner = r.winner === null ? "" : seatName(match, r.winner);
    panel.appendChild(h("p", { className: "review-did" }, h("b", {}, t(`coach.result.${r.kind}`, { who: winner, points: r.points }))));
    panel.appendChild(h("p", { className: "muted" }, t("coach.summary", { count: data.review.mistakes, lost: points(data.review.points_lost) })));
    return;
  }
  const at = { top, drawn: drawnAt(steps, step) };
  const here = shown.decisions.get(s.number) || [];
  if (!here.length) {
    const who = seatName(match, s.player);
    panel.appendChild(h("p", { className: "review-did" }, h("b", {}, t("coach.forced", { who })), " ", actionPhrase(s.action, at)));
  }
  for (const d of here) panel.appendChild(decisionBox(d, match, reviewed, at, data.review.threshold));
  for (const b of document.querySelectorAll("#review-marks button")) {
    b.setAttribute("aria-current", String(Number(/** @type {HTMLElement} */ (b).dataset.step) === step));
  }
}

/** @param {number} to a step, kept within the hand */
function go(to) {
  if (!shown) return;
  shown.step = Math.max(0, Math.min(shown.data.steps.length - 1, to));
  draw();
}

/** The list of the reviewed player's mistakes, each a button to its step. */
function marksList() {
  if (!shown) return;
  const { data } = shown;
  const list = $("review-marks");
  list.replaceChildren();
  const mistakes = data.review.decisions.filter((/** @type {any} */ d) => d.mistake);
  $("review-marks-title").textContent = t("coach.mistakes_title", { count: mistakes.length });
  for (const d of mistakes) {
    const step = data.steps.findIndex((/** @type {any} */ s) => s.number === d.number);
    const b = h("button", { type: "button", className: "link-btn" },
      t("coach.mark_line", { step: step + 1, cost: points(d.cost), reason: reasonText(d.reason, "mistake") }));
    b.dataset.step = String(step);
    b.addEventListener("click", () => go(step));
    list.appendChild(h("li", {}, b));
  }
}

/**
 * Show the review of hand `hand` of match `matchId`, asking the server until it is made.
 * @param {string} matchId
 * @param {number} hand
 */
export async function showReview(matchId, hand) {
  const mine = ++asked;
  shown = null;
  document.title = t("title.review", { hand });
  $("review-title").textContent = t("coach.title", { hand });
  $("review-back-link").setAttribute("href", "/match/" + matchId);
  $("review-prev-hand").hidden = true;
  $("review-next-hand").hidden = true;
  $("review-body").hidden = true;
  $("review-error").textContent = "";
  const progress = /** @type {HTMLProgressElement} */ ($("review-progress-bar"));
  $("review-progress").hidden = false;
  progress.removeAttribute("value");
  $("review-progress-text").textContent = t("coach.working");
  let match;
  try {
    match = await api.getMatch(matchId);
    for (;;) {
      const answer = await api.review(matchId, hand);
      if (mine !== asked) return;
      if (answer.status === "done") {
        showDone(answer.review, match);
        return;
      }
      if (answer.status === "failed") throw { code: "review_failed", message: answer.message, params: {} };
      progress.max = Math.max(1, answer.total);
      progress.value = answer.done;
      $("review-progress-text").textContent = t("coach.progress", { done: answer.done, total: answer.total });
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } catch (e) {
    if (mine !== asked) return;
    $("review-progress").hidden = true;
    $("review-error").textContent = errorText(/** @type {any} */ (e));
  }
}

/**
 * @param {any} data the finished review
 * @param {any} match
 */
function showDone(data, match) {
  /** @type {Map<number, any[]>} */
  const decisions = new Map();
  for (const d of data.review.decisions) {
    if (!decisions.has(d.number)) decisions.set(d.number, []);
    /** @type {any[]} */ (decisions.get(d.number)).push(d);
  }
  shown = { data, match, step: 0, decisions };
  $("review-progress").hidden = true;
  $("review-body").hidden = false;
  const r = data.review;
  $("review-summary").textContent = t("coach.summary_line", {
    count: r.mistakes, lost: points(r.points_lost), samples: r.samples, threshold: points(r.threshold),
  });
  marksList();
  // The match's other finished hands, one link each way.
  const hand = data.review.hand;
  const prev = $("review-prev-hand"), next = $("review-next-hand");
  prev.hidden = hand <= 1;
  prev.setAttribute("href", `/review/${data.match}/${hand - 1}`);
  next.hidden = hand >= match.sheet.length;
  next.setAttribute("href", `/review/${data.match}/${hand + 1}`);
  draw();
}

/** @param {KeyboardEvent} e */
function onKey(e) {
  if (!shown || document.body.dataset.view !== "review" || e.altKey || e.ctrlKey || e.metaKey) return;
  if (document.querySelector("dialog[open]")) return;
  const target = /** @type {Element} */ (e.target);
  if (target.closest && target.closest("input, select, textarea")) return;
  const moves = { ArrowLeft: shown.step - 1, ArrowRight: shown.step + 1, Home: 0, End: shown.data.steps.length - 1 };
  if (!(e.key in moves)) return;
  e.preventDefault();
  go(moves[/** @type {keyof typeof moves} */ (e.key)]);
}

/** The next step after the one shown that holds a mistake of the player reviewed. */
function nextMistake() {
  if (!shown) return;
  const { data, step } = shown;
  const steps = data.steps;
  const marked = new Set(data.review.decisions.filter((/** @type {any} */ d) => d.mistake).map((/** @type {any} */ d) => d.number));
  for (let i = 1; i <= steps.length; i++) {
    const j = (step + i) % steps.length;
    if (marked.has(steps[j].number)) { go(j); return; }
  }
}

/** Wire the review page's buttons and keys (once). */
export function wireReview() {
  $("review-first").addEventListener("click", () => go(0));
  $("review-back").addEventListener("click", () => go((shown ? shown.step : 0) - 1));
  $("review-next").addEventListener("click", () => go((shown ? shown.step : 0) + 1));
  $("review-last").addEventListener("click", () => go(shown ? shown.data.steps.length - 1 : 0));
  $("review-next-mistake").addEventListener("click", nextMistake);
  document.addEventListener("keydown", onKey);
}
