// The match on the table: asks the server for moves, plays the answer out one move at a
// time, and draws the table, the controls and the dialogs from the state.

import { laid, mini, name, shownName, symbol } from "./cards.js";
import { actionPhrase, reasonText } from "./coach.js";
import { buildControls, drawKnock, drawLayouts, drawLog, drawTools } from "./controls.js";
import { celebrate, dealIn, fly, motionAllowed, sleep } from "./anim.js";
import { closeDialog } from "./dialogs.js";
import { $, h, keyHint, rectOf } from "./dom.js";
import { remember, sawDeal } from "./fair.js";
import { num, t } from "./messages.js";
import { limitText, promptText, throwHint } from "./picture.js";
import * as prefs from "./prefs.js";
import { showFinal, showResult } from "./screens.js";
import { createSounds, soundOf } from "./sound.js";
import { isMine, mineFirst, mySeat, otherSeat, seatName, seatsMineFirst, seatWord } from "./seats.js";
import { applyPublic, canAct, currentTable, handOrder, knockChoice, layoutsFor, replayStart, sortCards, state } from "./state.js";
import { buildTable, drawTable, layoutHand } from "./table.js";
import { api, randomId } from "./transport.js";
import { errorText, eventSpoken, eventText, rulesSummary, summaryText } from "./words.js";

/** The display options in force (set by the page's start). */
export const comfort = prefs.loadComfort(window.matchMedia("(prefers-reduced-motion: reduce)").matches);

/** The table's sounds: heard when the display options have them on (after a gesture). */
export const sounds = createSounds(() => comfort.sound);

/** @type {import("./controls.js").Controls} the prompt, the buttons and the log */
export let controls;
/** @type {import("./table.js").TableParts} the table's elements */
export let parts;

/**
 * What another part of the page does at three moments: a match is shown, a request's
 * moves have been played out, the table was drawn (the friend bar, js/friend.js).
 * @type {{entered: (m: any) => void, settled: () => void, rendered: () => void}}
 */
export const hooks = { entered: () => {}, settled: () => {}, rendered: () => {} };

/** Build the table and its controls (once the catalogue is loaded). */
export function mountTable() {
  controls = buildControls();
  parts = buildTable($("felt"), {
    live: true,
    middle: [controls.promptArea, controls.logPanel],
    tools: [controls.sort, controls.group],
  });
}

/** @param {string} text what a screen reader hears */
export function announce(text) {
  const live = $("live");
  const line = document.createElement("p");
  line.textContent = text;
  live.appendChild(line);
  while (live.childNodes.length > 6) live.removeChild(live.childNodes[0]);
}

/** The table as it is drawn now. */
export function table() { return currentTable(state.match, state.display); }
/** @param {any} t */
export function live(t) { return canAct(t, state.busy, mySeat(state.match)); }

/** Draw everything from the state. */
export function render() {
  const m = state.match;
  if (!m) return;
  const tb = table();
  const on = live(tb);
  document.body.classList.toggle("my-turn", on);
  const [mine, theirs] = mineFirst(m, m.scores);
  const [me, other] = seatsMineFirst(m);
  /** @type {HTMLElement} */ (document.querySelector(".score.you .who")).textContent = seatName(m, me);
  /** @type {HTMLElement} */ (document.querySelector(".score.them .who")).textContent = seatName(m, other);
  $("score-you").textContent = num(mine);
  $("score-them").textContent = num(theirs);
  $("score-target").textContent = t("score.target", { target: m.settings.match_to });
  $("hand-number").textContent = t("score.hand", { number: m.hand_number });
  $("rules-summary").textContent = rulesSummary(m);
  $("knock-limit").textContent = limitText(tb.knock_limit);

  if (state.marked && !tb.hand.includes(state.marked)) state.marked = null;
  if (!(on && tb.phase === "discard")) state.marked = null;
  const own = prefs.savedOrder(m);
  const choice = knockChoice(tb, on, state.marked);
  const shown = afterKnock(m, other);
  drawTable(parts, tb, {
    reveal: tb.opponent_hand && !state.display ? sortCards(tb.opponent_hand, prefs.sortBy()) : null,
    revealLaid: shown ? shown.laid : null,
    knockThrow: shown ? shown.knockThrow : null,
    grouped: state.grouped,
    order: handOrder(tb.hand, own, prefs.sortBy()),
    marked: state.marked,
    knockCard: choice ? choice.card : null,
    theyDeal: tb.dealer !== null && tb.dealer !== undefined && !isMine(m, tb.dealer),
    iDeal: isMine(m, tb.dealer),
    them: seatName(m, other),
    theirHand: t("table.their_hand", { who: seatWord(m, other, "subject") }),
  });

  const canStock = on && tb.legal.stock;
  const canPile = on && (tb.legal.pile || tb.legal.take);
  const canThrow = on && tb.phase === "discard";
  parts.stock.setAttribute("aria-label", t(canStock ? "table.stock_drawable" : "table.stock_count", { count: tb.stock_count }));
  parts.stock.classList.toggle("drawable", canStock);
  parts.stock.setAttribute("aria-disabled", String(!canStock));
  const pile = shown && shown.knockThrow ? [...tb.pile, shown.knockThrow] : tb.pile;
  const top = pile.length ? pile[pile.length - 1] : null;
  let pileLabel = top ? t("table.pile_top", { card: shownName(top) }) : t("table.pile_none");
  if (canPile) pileLabel = t(tb.legal.take ? "table.pile_take_upcard" : "table.pile_take", { label: pileLabel });
  else if (canThrow && state.marked) pileLabel = t("table.pile_throw", { label: pileLabel, card: name(state.marked) });
  parts.pile.setAttribute("aria-label", pileLabel);
  parts.pile.classList.toggle("drawable", canPile);
  parts.pile.classList.toggle("throwable", canThrow);

  const c = controls;
  c.take.hidden = !(on && tb.legal.take);
  c.pass.hidden = !(on && tb.legal.pass);
  drawKnock(c, choice);
  const layouts = choice && layoutsFor(tb, choice.card);
  if (layouts && state.layout.card !== choice.card) state.layout = { card: choice.card, index: 0 };
  drawLayouts(c, layouts, state.layout.index, (i) => { state.layout = { card: choice ? choice.card : null, index: i }; });
  c.bigGin.hidden = !(on && tb.legal.big_gin);
  const hints = Boolean(m.settings.hints) && on;
  c.hint.hidden = !hints;
  if (!hints || state.hintFor !== m.version) { c.hintText.textContent = ""; state.hintFor = null; }
  c.next.hidden = !(m.awaiting_deal && !state.busy);
  c.next.replaceChildren(t("action.next_hand") + " ", keyHint("Enter"));
  const otherPerson = m.seats[other].kind === "person" && mySeat(m) !== null;
  c.prompt.textContent = promptText(m, tb, {
    busy: state.busy, replaying: Boolean(state.display), myTurn: tb.to_act === mySeat(m),
    waiting: otherPerson, friendOpen: otherPerson && Boolean(m.seats[other].open),
    them: seatWord(m, tb.to_act === null || tb.to_act === undefined || isMine(m, tb.to_act) ? otherSeat(mySeat(m) ?? 0) : tb.to_act, "subject"),
    marked: state.marked, learned: prefs.learned, symbol,
  });
  drawLog(c, tb.log.map((/** @type {any} */ ev) => ({ mine: isMine(m, ev.who), text: eventText(m, ev) })));

  const sortNext = own ? prefs.sortBy() : (prefs.sortBy() === "rank" ? "suit" : "rank");
  drawTools(c, sortNext, state.grouped);
  parts.deadwood.setAttribute("aria-label", t("hand.deadwood_aria", { count: tb.arrangement.points }));
  if (parts.throwHint) parts.throwHint.textContent = throwHint(tb, { live: on, marked: state.marked, symbol });
  focusHand(tb);
  if (!state.display) prefs.saveView(m, { grouped: state.grouped, marked: state.marked });
  hooks.rendered();
}

/** One tab stop for the whole hand; the arrows move within it. */
/**
 * The table after a knock or gin, as the players left it: the other seat's hand laid
 * down in its melds (with any cards laid off onto them) and the knock card on the pile.
 * Null while a hand is played, while it is played back, and after a dead hand.
 * @param {any} m
 * @param {number} other the other seat
 * @returns {{laid: Node, knockThrow: string | null} | null}
 */
function afterKnock(m, other) {
  const tb = m.table;
  const e = m.last_result;
  if (tb.phase !== "over" || state.display || !e || e.number !== m.hand_number || e.kind === "dead") return null;
  const knock = tb.log.findLast((/** @type {any} */ ev) => ev.kind === "knock");
  const knockThrow = knock && knock.card ? knock.card : null;
  if (other === e.knocker) return { laid: laid(e.knocker_melds, e.knocker_deadwood, e.knocker_points, e.lay_offs), knockThrow };
  const box = laid(e.defender_melds, e.defender_deadwood, e.defender_points, []);
  if (e.lay_offs.length) {
    // The defender's cards laid off onto the knocker's melds are still theirs to see.
    box.appendChild(h("div", { className: "laid-meld laid-offs" }, h("span", { className: "group-label" }, t("laid.laid_off_group")),
      h("div", { className: "laid-cards" }, ...e.lay_offs.map((/** @type {any} */ lo) => mini(lo.card, "laid-off")))));
  }
  return { laid: box, knockThrow };
}

function focusHand(/** @type {any} */ tb) {
  const buttons = [...parts.hand.querySelectorAll(".card")].map((b) => /** @type {HTMLElement} */ (b));
  let focusCode = state.focus && tb.hand.includes(state.focus) ? state.focus : null;
  if (!focusCode && buttons.length) focusCode = tb.drawn && tb.hand.includes(tb.drawn) ? tb.drawn : buttons[0].dataset.code;
  for (const b of buttons) if (b.dataset.code === focusCode) b.tabIndex = 0;
  layoutHand(parts.hand);
  if (state.focus && parts.hand.dataset.hadFocus === "1") {
    const f = /** @type {HTMLElement | null} */ (parts.hand.querySelector(`[data-code="${state.focus}"]`));
    if (f) f.focus({ preventScroll: true });
  }
}

/**
 * Show a match from its start (a new match plays its first events out).
 * @param {any} m
 * @param {boolean} animate
 */
export function enterMatch(m, animate) {
  state.match = null;
  state.marked = null;
  state.grouped = false;
  state.focus = null;
  document.title = t("title.match");
  $("nav-rules").setAttribute("href", "/rules?match=" + encodeURIComponent(m.id));
  hooks.entered(m);
  if (animate && m.events.length) {
    playOut(null, m);
  } else {
    state.match = m;
    // A reload keeps the table as the player left it: grouped, and the card they marked.
    const view = prefs.savedView(m);
    state.grouped = view.grouped;
    state.marked = view.marked;
    render();
    afterHand(false);
  }
}

/** Ask for Hard's choice for this decision (a match with hints on) and show it with its reason. */
export async function askHint() {
  const m = state.match;
  if (!m || !m.settings.hints || !live(table()) || state.busy) return;
  const version = m.version;
  try {
    const answer = await api.hint(m.id);
    if (!state.match || state.match.version !== version) return;
    const tb = table();
    const top = tb.pile.length ? tb.pile[tb.pile.length - 1] : null;
    state.hintFor = version;
    controls.hintText.textContent = t("coach.hint", { action: actionPhrase(answer.action, { top }), reason: reasonText(answer.reason, "hint") });
  } catch (e) {
    controls.error.textContent = errorText(/** @type {any} */ (e));
  }
}

/** @param {string} id */
export async function openMatch(id) {
  controls.error.textContent = "";
  try {
    enterMatch(await api.getMatch(id), false);
  } catch (e) {
    state.match = null;
    controls.prompt.textContent = "";
    controls.error.textContent = errorText(/** @type {any} */ (e));
  }
}

/**
 * Start a match (the fair deal: the server commits first, then this page sends its seed).
 * @param {{settings: Record<string, any>, seats?: any[]}} body
 * @param {Record<string, any>} values the form's values, kept for the next visit
 * @param {HTMLElement} errorBox
 * @param {() => void} show called once the match exists, to show the table
 * @param {(e: any, text: string) => void} [refused] how to show a refusal (else in errorBox)
 */
export async function startMatch(body, values, errorBox, show, refused) {
  if (state.busy) return;
  state.busy = true;
  errorBox.textContent = "";
  let created;
  try {
    const { commitment } = await api.commit();
    const seed = randomId();
    created = await api.newMatch({ ...body, commitment, client_seed: seed });
    // A match dealt on this device (offline) has no commitment and nothing to prove.
    if (commitment) {
      remember(created.id, 1, { commitment, client_seed: seed });
      sawDeal(created);
    }
  } catch (err) {
    if (refused) refused(err, errorText(/** @type {any} */ (err)));
    else errorBox.textContent = errorText(/** @type {any} */ (err));
    state.busy = false;
    return;
  }
  prefs.saveSettings(values);
  history.pushState(null, "", "/match/" + created.id);
  show();
  state.busy = false;
  enterMatch(created, true);
}

/**
 * Show what a request did, one move at a time, then the new state.
 * @param {any} before the match before the request (null for a new one)
 * @param {any} after
 */
async function playOut(before, after) {
  state.busy = true;
  state.match = after;
  state.marked = null;
  const display = replayStart(before, after);
  state.display = display;
  render();
  const ms = prefs.SPEEDS[comfort.speed];
  const where = (/** @type {boolean} */ mine) => ({ ms, mine, stock: parts.stock, pile: parts.pile, side: mine ? parts.hand : parts.oppCards });
  for (const ev of after.events) {
    const mine = isMine(after, ev.who);
    if (ev.kind === "dealt") {
      announce(eventSpoken(after, ev));
      sounds.play("deal");
      if (motionAllowed(ms)) {
        await dealIn({ mine: [...parts.hand.querySelectorAll(".card")], theirs: [...parts.oppCards.children], stock: parts.stock, ms });
      }
    } else if (!mine) {
      if (ms) await sleep(ms * 0.8);
      await fly(ev, where(false));
      sounds.play(soundOf(ev));
      announce(eventSpoken(after, ev));
    } else if (ev.kind !== "pass") {
      const thrown = ev.kind === "discard" || ev.kind === "knock";
      await fly(ev, { ...where(true), fromRect: thrown ? state.throwFrom : null });
      sounds.play(soundOf(ev));
      if (ev.kind !== "discard") announce(eventSpoken(after, ev));
    }
    applyPublic(display.pub, ev, (who) => !isMine(after, who));
    display.logCount += 1;
    render();
  }
  state.display = null;
  state.busy = false;
  render();
  afterHand(true);
  hooks.settled();
}

/**
 * Make a move and play the answer out.
 * @param {string} action
 * @param {string} [card]
 * @param {string[][]} [melds]
 */
export async function act(action, card, melds) {
  const m = state.match;
  if (!m || state.busy) return;
  state.busy = true;
  controls.error.textContent = "";
  render();
  const thrown = card && parts.hand.querySelector(`[data-code="${card}"]`);
  state.throwFrom = thrown ? rectOf(thrown) : null;
  let after;
  try {
    after = await api.act(m, { action, card, melds });
    prefs.learn(action);
  } catch (e) {
    state.busy = false;
    showError(e);
    return;
  }
  await playOut(m, after);
}

export async function nextHand() {
  const m = state.match;
  if (!m || state.busy || !m.awaiting_deal) return;
  closeDialog("dlg-result");
  state.busy = true;
  let after;
  try {
    // The fair deal: our seed for the hand whose commitment the last result showed,
    // remembered with it before it goes, so the proof is checked against both.
    const seed = randomId();
    if (m.fairness.next_commitment) remember(m.id, m.hand_number + 1, { commitment: m.fairness.next_commitment, client_seed: seed });
    after = await api.nextHand(m, seed);
    if (after.fairness.deal.commitment) sawDeal(after);
  } catch (e) {
    state.busy = false;
    showError(e);
    return;
  }
  state.grouped = false;
  await playOut(m, after);
  focusHandStop(); // not the page's body: the dialog that had the focus is closed
}

/** Put the keyboard focus on the hand's tab stop. */
export function focusHandStop() {
  const stop = /** @type {HTMLElement | null} */ (parts.hand.querySelector('.card[tabindex="0"]'));
  if (stop) stop.focus({ preventScroll: true });
}

/** @param {any} e an ApiError */
async function showError(e) {
  const text = errorText(e);
  controls.error.textContent = text;
  announce(text);
  if (e.code === "stale_version" && state.match) {
    // Another tab or a repeated click moved the match on: play out what happened since.
    let fresh = null;
    try { fresh = await api.getMatch(state.match.id); } catch { /* keep the message */ }
    if (fresh) {
      await catchUpTo(fresh);
      return;
    }
  }
  render();
}

/**
 * Bring the table to `fresh` (the same match, moved on elsewhere) by playing out the moves
 * this page has not shown, as if they had come in an answer.
 * @param {any} fresh
 */
export async function catchUpTo(fresh) {
  const before = state.match;
  if (!before || before.id !== fresh.id || state.busy) return;
  const sameHand = before.hand_number === fresh.hand_number;
  const missed = sameHand ? fresh.table.log.slice(before.table.log.length) : fresh.table.log;
  await playOut(before, { ...fresh, events: missed });
}

/** @param {boolean} fresh the hand ended just now (say so) */
function afterHand(fresh) {
  const m = state.match;
  if (!m || !m.last_result) return;
  if (fresh) announce(summaryText(m, m.last_result));
  if (m.final) showFinal(m);
  else showResult(m);
  if (fresh && m.final) {
    const won = isMine(m, m.final.winner);
    sounds.play(won ? "win" : "lose");
    if (won && motionAllowed(prefs.SPEEDS[comfort.speed])) celebrate($("dlg-final"));
  }
}

/** Sort the hand: back to sorted after the player's own order, else the other way. */
export function resort() {
  const m = state.match;
  if (!m) return;
  if (prefs.savedOrder(m)) prefs.forgetOrder(m);
  else prefs.toggleSort();
  state.grouped = false;
  render();
  announce(t("sort.announce", { by: t(`sort.${prefs.sortBy()}`) }));
}
