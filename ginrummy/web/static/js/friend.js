// Play a friend: the invite (link, QR code, cancel), the page an invite link opens, the
// resume link, and the live stream that brings the other seat's moves to this table.
// The stream (Server-Sent Events) sends the whole match from this seat at each version;
// the page plays out what it has not shown yet, as it does for the computer's moves.

import { autoNews, clockLength, clockLine, clockNews } from "./clock.js";
import { closeDialog } from "./dialogs.js";
import { $ } from "./dom.js";
import * as game from "./game.js";
import { dateTime, t } from "./messages.js";
import * as prefs from "./prefs.js";
import { isMine, mySeat, otherSeat, seatWord } from "./seats.js";
import { state } from "./state.js";
import { api } from "./transport.js";
import { errorText, rulesSummary } from "./words.js";

/** @type {EventSource | null} the open stream */
let source = null;
/** @type {string | null} the match the stream follows */
let followed = null;
/** @type {any} a version the stream brought while the page was busy */
let pending = null;
/** Whether the stream is down and the browser is reconnecting it. */
let reconnecting = false;
/** @type {ReturnType<typeof setTimeout> | null} */
let retry = null;
/** @type {string} a message that replaces the status line (the seat moved away) */
let gone = "";
/** The move clock choices a new friend match offers, in seconds (0: none). */
const CLOCK_CHOICES = [0, 30, 60, 120, 300];
/** @type {{key: string, left: number, at: number, said: number} | null} the clock as last heard */
let clockBase = null;
/** @type {ReturnType<typeof setInterval> | null} */
let ticker = null;
/** @type {number} the version whose clock move was told (said once) */
let toldAuto = 0;
/** @type {string | null} when this seat was last reminded, as the stream last said */
let reminded = null;
/** @type {string} a line under the clock: a reminder sent or received */
let clockMessage = "";

/**
 * Whether a match is played by two people (a friend match).
 * @param {any} m
 */
export function isFriendMatch(m) {
  return Boolean(m) && m.seats.every((/** @type {any} */ s) => s.kind === "person");
}

/**
 * What to send for a friend match: the rules, this player's seat and the friend's.
 * @param {Record<string, any>} values the form's values (its bot level is not used)
 * @param {string} name
 */
export function friendBody(values, name, clock = { seconds: 0, expiry: "ask" }) {
  const settings = { ...values };
  delete settings["difficulty"]; // the form's bot level: no bot sits at a friend match
  /** @type {{settings: Record<string, any>, seats: any[], clock?: {seconds: number, expiry: string}}} */
  const body = { settings, seats: [{ kind: "person", name: name || null }, { kind: "friend" }] };
  if (clock.seconds > 0) body.clock = clock;
  return body;
}

/** The move clock chosen in the friend box (seconds 0: none). */
export function chosenClock() {
  const seconds = Number(/** @type {HTMLSelectElement} */ ($("friend-clock")).value) || 0;
  const expiry = /** @type {HTMLSelectElement} */ ($("friend-expiry")).value === "timed" ? "timed" : "ask";
  return { seconds, expiry };
}

/** Show the clock's second choice (what happens on expiry) only with a clock, and say what it means. */
function syncClockChoice() {
  const { seconds, expiry } = chosenClock();
  $("friend-expiry").hidden = seconds === 0;
  $("friend-expiry-label").hidden = seconds === 0;
  const help = $("friend-clock-help");
  help.hidden = seconds === 0;
  help.textContent = seconds === 0 ? "" : t(expiry === "timed" ? "clock.help_timed" : "clock.help_ask", { time: clockLength(seconds) });
}

/** @param {string} path */
function absolute(path) {
  return new URL(path, location.origin).href;
}

// ---------------------------------------------------------------- the stream

/**
 * Follow a match live (a friend match this browser holds a seat in), or stop following.
 * @param {any} m
 */
export function follow(m) {
  if (m && followed === m.id && source) return;
  unfollow();
  if (!isFriendMatch(m) || mySeat(m) === null) return;
  followed = m.id;
  gone = "";
  reminded = null;
  clockMessage = "";
  connect();
}

function connect() {
  if (!followed) return;
  const id = followed;
  const es = new EventSource(api.streamUrl(id));
  source = es;
  es.addEventListener("open", () => { reconnecting = false; draw(); });
  es.addEventListener("match", (e) => receive(JSON.parse(/** @type {MessageEvent} */ (e).data)));
  es.addEventListener("presence", (e) => present(JSON.parse(/** @type {MessageEvent} */ (e).data)));
  es.addEventListener("error", () => {
    reconnecting = true;
    draw();
    // The browser reconnects by itself after a dropped connection; after a refusal
    // (a 403, a 503 while the server restarts) it gives up: ask why, then try again.
    if (es.readyState !== EventSource.CLOSED || source !== es) return;
    source = null;
    retry = setTimeout(() => checkAndReconnect(id), 1500);
  });
}

/** @param {string} id */
async function checkAndReconnect(id) {
  retry = null;
  if (followed !== id) return;
  try {
    const fresh = await api.getMatch(id);
    if (followed !== id) return;
    if (fresh.seat === null) {
      seatGone();
      return;
    }
    receive(fresh);
  } catch (e) {
    const code = /** @type {any} */ (e).code;
    if (code === "not_your_seat" || code === "unknown_match") {
      seatGone();
      return;
    }
  }
  if (followed === id && !source) connect();
}

function seatGone() {
  reconnecting = false;
  gone = t("error.seat_moved");
  const was = followed;
  unfollow();
  followed = was;
  draw();
}

/** Stop following (the player left the table). */
export function unfollow() {
  if (source) source.close();
  if (retry) clearTimeout(retry);
  source = null;
  retry = null;
  followed = null;
  pending = null;
  reconnecting = false;
}

/**
 * A version of the match from the stream: play out what this page has not shown.
 * @param {any} fresh
 */
function receive(fresh) {
  const m = state.match;
  if (!m || m.id !== fresh.id || fresh.version <= m.version) return;
  if (state.busy) {
    if (!pending || fresh.version > pending.version) pending = fresh;
    return;
  }
  show(fresh);
}

/** @param {any} fresh */
function show(fresh) {
  const m = state.match;
  // Keep what the stream said of the seats (a name, who is here): it is newer.
  fresh.seats = fresh.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ ...s, connected: m.seats[i].connected }));
  if (fresh.hand_number !== m.hand_number) closeDialog("dlg-result");
  game.controls.error.textContent = "";
  game.catchUpTo(fresh);
}

/** Called when the page has played out a move: show what the stream brought meanwhile. */
export function settled() {
  const m = state.match;
  const next = pending;
  pending = null;
  if (next && m && next.id === m.id && next.version > m.version) show(next);
  else draw();
}

/**
 * Who is at the table now, from the stream.
 * @param {{connected: boolean[], open: boolean[], names: (string | null)[], reminded?: string[]}} p
 */
function present(p) {
  const m = state.match;
  if (!m || m.id !== followed) return;
  const other = otherSeat(mySeat(m) ?? 0);
  const own = p.reminded ? p.reminded[mySeat(m) ?? 0] : "";
  // A reminder from the other player (not the one already there when the stream opened).
  if (reminded !== null && own && own !== reminded && m.clock && isMine(m, m.clock.seat)) {
    clockMessage = t("clock.reminded_me", { who: seatWord(m, other, "subject") });
    game.announce(clockMessage);
    game.sounds.play("knock");
  }
  reminded = own;
  const joined = m.seats[other].open && !p.open[other];
  m.seats = m.seats.map((/** @type {any} */ s, /** @type {number} */ i) => ({ ...s, connected: p.connected[i], open: p.open[i], name: p.names[i] }));
  if (joined) {
    m.invite = null;
    game.announce(t("friend.joined", { who: seatWord(m, other, "subject") }));
    if (m.clock) refreshClock(m.id);
  }
  if (!state.busy) game.render();
  draw();
}

/**
 * The clock starts when the friend sits down, with no new version to stream: ask for it.
 * @param {string} id
 */
async function refreshClock(id) {
  try {
    const fresh = await api.getMatch(id);
    const m = state.match;
    if (m && m.id === id && fresh.version === m.version) {
      m.clock = fresh.clock;
      draw();
    }
  } catch {
    // The next version brings the clock anyway.
  }
}

// ---------------------------------------------------------------- the move clock

/** @type {string} the turn (clock key) the clock message belongs to */
let clockFor = "";

async function sendReminder() {
  const m = state.match;
  if (!m || !m.clock) return;
  const button = /** @type {HTMLButtonElement} */ ($("clock-remind"));
  button.disabled = true;
  try {
    await api.remind(m.id);
    clockMessage = t("clock.reminded_sent", { who: seatWord(m, m.clock.seat, "subject") });
    game.announce(clockMessage);
  } catch (e) {
    clockMessage = errorText(/** @type {any} */ (e));
  }
  draw();
  setTimeout(() => { button.disabled = false; }, 10_000);
}

/** Milliseconds left on the running clock, counted down since it was last heard. */
function clockLeft() {
  return clockBase ? clockBase.left - (performance.now() - clockBase.at) : 0;
}

/** Draw the clock line; tell a screen reader at the moments worth it (see js/clock.js). */
function drawClock() {
  const m = state.match;
  const clock = m && m.clock;
  const running = Boolean(clock) && clock.seat !== null && clock.seat !== undefined && !gone;
  if (!running) {
    clockBase = null;
    if (ticker) clearInterval(ticker);
    ticker = null;
  } else {
    const key = `${m.id}/${clock.seat}/${clock.deadline}`;
    if (!clockBase || clockBase.key !== key) {
      clockBase = { key, left: clock.left_ms ?? 0, at: performance.now(), said: clock.left_ms ?? 0 };
    }
    if (!ticker) ticker = setInterval(drawClock, 250);
  }
  const left = clockLeft();
  const line = running ? clockLine(m, left) : null;
  const el = $("clock-line");
  el.hidden = !line;
  el.classList.toggle("low", Boolean(line) && line?.state === "low");
  el.classList.toggle("up", Boolean(line) && line?.state === "up");
  if (line) $("clock-text").textContent = line.text;
  if (line && clockBase) {
    const news = clockNews(m, clockBase.said, left);
    clockBase.said = left;
    if (news) game.announce(news);
    // Time is up and nothing will change until somebody moves: stop counting.
    if (left <= 0 && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  }
  const note = $("clock-note");
  const auto = Boolean(m && m.clock && m.clock.auto);
  // The other player's time is up in an 'ask' match: they may be reminded.
  const remind = $("clock-remind");
  const theirs = Boolean(line) && line?.state === "up" && !isMine(m, m.clock.seat) && m.clock.expiry === "ask";
  remind.hidden = !theirs;
  if (theirs) remind.textContent = t("clock.remind", { who: seatWord(m, m.clock.seat, "object") });
  if (clockBase && clockBase.key !== clockFor) {
    clockFor = clockBase.key;
    clockMessage = "";
  }
  note.hidden = !auto && !clockMessage;
  if (!auto) note.textContent = clockMessage;
  if (auto) {
    // The clock's move is the last in the log: its seat is the one that was late.
    const log = m.table.log;
    note.textContent = autoNews(m, log.length ? log[log.length - 1].who : otherSeat(m.clock.seat ?? 0));
    if (toldAuto !== m.version) {
      toldAuto = m.version;
      game.announce(note.textContent);
    }
  }
}

// ---------------------------------------------------------------- the bar above the table

/** Draw the friend bar: who is here, the invite, the seat link. */
export function draw() {
  const m = state.match;
  const bar = $("friend-bar");
  if (!m || !isFriendMatch(m) || document.body.dataset.view !== "table") {
    bar.hidden = true;
    if (ticker) clearInterval(ticker);
    ticker = null;
    clockBase = null;
    return;
  }
  bar.hidden = false;
  const mine = mySeat(m);
  const other = otherSeat(mine ?? 0);
  const them = m.seats[other];
  let status;
  if (gone) status = gone;
  else if (reconnecting) status = t("friend.reconnecting");
  else if (them.open) status = t("friend.not_joined");
  else status = t(them.connected ? "friend.connected" : "friend.away", { who: seatWord(m, other, "subject") });
  $("friend-status").textContent = status;
  $("friend-status").classList.toggle("away", Boolean(gone || reconnecting || !them.connected));

  const invite = them.open && m.invite ? m.invite : null;
  const expired = Boolean(invite) && Date.parse(invite.expires_at) <= Date.now();
  $("invite-box").hidden = !invite;
  // The seat is still open but its link is gone (cancelled or expired): offer a new one.
  $("invite-renew").hidden = !(them.open && (!invite || expired) && !gone);
  if (invite) {
    const link = /** @type {HTMLInputElement} */ ($("invite-link"));
    link.value = absolute(invite.url);
    const qr = /** @type {HTMLImageElement} */ ($("invite-qr"));
    if (qr.getAttribute("src") !== invite.qr) qr.src = invite.qr;
    qr.alt = t("friend.qr_alt");
    $("invite-expires").textContent = expired
      ? t("friend.expired")
      : t("friend.expires", { time: dateTime(new Date(invite.expires_at)) });
  }
  const seatLink = $("seat-link");
  seatLink.hidden = !m.resume || Boolean(gone);
  if (m.resume) /** @type {HTMLInputElement} */ ($("seat-link-url")).value = absolute(m.resume);
  drawClock();
}

/**
 * Copy a link's text; say so on the button for a moment.
 * @param {string} inputId
 * @param {HTMLElement} button
 */
async function copy(inputId, button) {
  const input = /** @type {HTMLInputElement} */ ($(inputId));
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select(); // no clipboard (an insecure origin): leave it selected to copy by hand
    return;
  }
  button.textContent = t("friend.copied");
  setTimeout(() => { button.textContent = t("friend.copy"); }, 1500);
}

async function cancelInvite() {
  const m = state.match;
  if (!m || !m.invite) return;
  try {
    await api.cancelInvite(m.invite.code);
    m.invite = null;
    draw();
    $("friend-status").textContent = t("friend.cancelled");
  } catch (e) {
    game.controls.error.textContent = errorText(/** @type {any} */ (e));
  }
}

async function renewInvite() {
  const m = state.match;
  if (!m) return;
  try {
    const fresh = await api.renewInvite(m.id);
    if (state.match && state.match.id === fresh.id) state.match.invite = fresh.invite;
    draw();
  } catch (e) {
    game.controls.error.textContent = errorText(/** @type {any} */ (e));
  }
}

// ---------------------------------------------------------------- the invite link's page

/**
 * The page an invite link opens: who invites, with which rules; take the seat.
 * @param {string} code
 * @param {(path: string) => void} go show another address (in place of this one)
 */
export async function showJoin(code, go) {
  const form = /** @type {HTMLFormElement} */ ($("join-form"));
  form.hidden = true;
  $("join-text").textContent = "";
  $("join-error").textContent = "";
  let info;
  try {
    info = await api.invite(code);
  } catch (e) {
    $("join-error").textContent = errorText(/** @type {any} */ (e));
    return;
  }
  if (info.state === "yours") {
    go("/match/" + info.match);
    return;
  }
  const rules = rulesSummary({ settings: info.settings, seats: [], clock: info.clock });
  $("join-text").textContent = info.host
    ? t("friend.invite_from", { who: info.host, rules })
    : t("friend.invite_from_someone", { rules });
  const clock = info.clock;
  const timed = Boolean(clock) && clock.expiry === "timed";
  $("join-clock").hidden = !clock;
  $("join-clock").textContent = clock ? t(timed ? "clock.join_timed" : "clock.join_ask", { time: clockLength(clock.seconds) }) : "";
  $("join-agree-row").hidden = !timed;
  const agree = /** @type {HTMLInputElement} */ ($("join-agree"));
  agree.checked = false;
  agree.required = timed;
  form.dataset.timed = timed ? "1" : "";
  /** @type {HTMLInputElement} */ ($("join-name")).value = prefs.savedName();
  form.dataset.code = code;
  form.hidden = false;
}

/** @param {(path: string) => void} go */
async function join(go) {
  const form = /** @type {HTMLFormElement} */ ($("join-form"));
  const code = form.dataset.code || "";
  const name = /** @type {HTMLInputElement} */ ($("join-name")).value.trim();
  $("join-error").textContent = "";
  const agreed = /** @type {HTMLInputElement} */ ($("join-agree")).checked;
  if (form.dataset.timed && !agreed) {
    $("join-error").textContent = t("error.clock_not_accepted", {});
    $("join-agree").focus();
    return;
  }
  try {
    const m = await api.join(code, name || null, agreed);
    prefs.saveName(name);
    go("/match/" + m.id);
  } catch (e) {
    const err = /** @type {any} */ (e);
    $("join-error").textContent = errorText(err);
    if (!["bad_name", "network", "clock_not_accepted"].includes(err.code)) form.hidden = true;
  }
}

/**
 * A resume link opened: move the seat to this browser, then show the match.
 * @param {string} id
 * @param {number} seat
 * @param {string} token
 * @param {(path: string) => void} go
 */
export async function showResume(id, seat, token, go) {
  /** @type {HTMLFormElement} */ ($("join-form")).hidden = true;
  $("join-text").textContent = "";
  $("join-error").textContent = "";
  try {
    await api.resumeSeat(id, seat, token);
    go("/match/" + id);
  } catch (e) {
    $("join-error").textContent = errorText(/** @type {any} */ (e));
  }
}

/**
 * Wire the friend parts of the page.
 * @param {(path: string) => void} go show another address in place of this one
 */
export function wireFriend(go) {
  $("invite-copy").addEventListener("click", (e) => copy("invite-link", /** @type {HTMLElement} */ (e.currentTarget)));
  $("seat-link-copy").addEventListener("click", (e) => copy("seat-link-url", /** @type {HTMLElement} */ (e.currentTarget)));
  $("invite-cancel").addEventListener("click", cancelInvite);
  $("invite-renew").addEventListener("click", renewInvite);
  $("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    join(go);
  });
  /** @type {HTMLInputElement} */ ($("friend-name")).value = prefs.savedName();
  const select = /** @type {HTMLSelectElement} */ ($("friend-clock"));
  select.replaceChildren(...CLOCK_CHOICES.map((seconds) => {
    const option = document.createElement("option");
    option.value = String(seconds);
    option.textContent = seconds ? clockLength(seconds) : t("clock.off");
    return option;
  }));
  select.addEventListener("change", syncClockChoice);
  $("clock-remind").addEventListener("click", sendReminder);
  $("friend-expiry").addEventListener("change", syncClockChoice);
  syncClockChoice();
  game.hooks.entered = follow;
  game.hooks.settled = settled;
  game.hooks.rendered = draw;
}
