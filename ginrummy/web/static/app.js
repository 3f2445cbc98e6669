// The Gin Rummy page: settings, the table, the history. Native ES modules, no build step.
// The server is the referee: this page shows the player's view it is sent and asks for
// moves; it never decides what is legal on its own. This module starts the page: it
// loads the words, wires the parts together and follows the address.

import { closeAll, closeDialog, openDialog, wireDialogs } from "./js/dialogs.js";
import { $ } from "./js/dom.js";
import * as friend from "./js/friend.js";
import * as game from "./js/game.js";
import { buildForm, checkForm, markField, readForm, showFormError, syncForm, wireLearnOffer } from "./js/home.js";
import { showHistory } from "./js/history.js";
import { showReview, wireReview } from "./js/review.js";
import { showStats } from "./js/stats.js";
import { wireKeys } from "./js/keys.js";
import { loadCatalogue, t, translatePage, translateStyles, wireLanguageControl } from "./js/messages.js";
import { wirePointer } from "./js/pointer.js";
import { drawOfflineBox, offeredBundle, registerServiceWorker, startOfflineEarly, wireOfflineBox } from "./js/pwa.js";
import * as prefs from "./js/prefs.js";
import * as screens from "./js/screens.js";
import { mineFirst, seatsMineFirst, seatWord } from "./js/seats.js";
import { state } from "./js/state.js";
import { againBody, newMatchBody, valuesOf } from "./js/settings.js";
import { api } from "./js/transport.js";
import { errorText, rulesSummary } from "./js/words.js";

startOfflineEarly();
await loadCatalogue();
translatePage(document);
wireLanguageControl(document);
translateStyles();
game.mountTable();

// ---------------------------------------------------------------- display options

const comfort = game.comfort;

function applyComfort() {
  document.body.classList.toggle("four-colour", comfort.fourColour);
  document.body.classList.toggle("large-cards", comfort.large);
  document.body.classList.toggle("no-motion", comfort.speed === "off");
  // "system" leaves the scheme to prefers-color-scheme (game.css); light or dark fixes it.
  document.documentElement.dataset.theme = comfort.theme;
  /** @type {HTMLInputElement} */ ($("opt-four-colour")).checked = comfort.fourColour;
  /** @type {HTMLInputElement} */ ($("opt-large")).checked = comfort.large;
  /** @type {HTMLSelectElement} */ ($("opt-speed")).value = comfort.speed;
  /** @type {HTMLSelectElement} */ ($("opt-theme")).value = comfort.theme;
  /** @type {HTMLInputElement} */ ($("opt-sound")).checked = comfort.sound;
  $("sound-toggle").setAttribute("aria-pressed", String(comfort.sound));
}

function saveComfort() {
  prefs.saveComfort(comfort);
  applyComfort();
  if (state.match) game.render();
}

$("opt-four-colour").addEventListener("change", (e) => { comfort.fourColour = /** @type {HTMLInputElement} */ (e.target).checked; saveComfort(); });
$("opt-large").addEventListener("change", (e) => { comfort.large = /** @type {HTMLInputElement} */ (e.target).checked; saveComfort(); });
$("opt-speed").addEventListener("change", (e) => { comfort.speed = /** @type {any} */ (/** @type {HTMLSelectElement} */ (e.target).value); saveComfort(); });
$("opt-theme").addEventListener("change", (e) => { comfort.theme = /** @type {HTMLSelectElement} */ (e.target).value; saveComfort(); });
$("opt-sound").addEventListener("change", (e) => { comfort.sound = /** @type {HTMLInputElement} */ (e.target).checked; saveComfort(); });
$("sound-toggle").addEventListener("click", () => {
  comfort.sound = !comfort.sound;
  saveComfort();
  game.announce(t(comfort.sound ? "sound.on" : "sound.off"));
});
// No sound before the player's first click, tap or key: then the table may be heard.
for (const gesture of ["pointerdown", "keydown"]) {
  window.addEventListener(gesture, () => game.sounds.unlock(), { capture: true, once: true });
}

// ---------------------------------------------------------------- routing

/** @param {string} path */
function navigate(path) {
  if (location.pathname !== path) history.pushState(null, "", path);
  route();
}

/**
 * Show another address in place of this one (a link that must not stay in the history).
 * @param {string} path
 */
function replaceWith(path) {
  history.replaceState(null, "", path);
  route();
}

/** @param {"home" | "table" | "history" | "join" | "review" | "stats"} name */
function showView(name) {
  for (const v of ["home", "table", "history", "join", "review", "stats"]) $("view-" + v).hidden = v !== name;
  if (name !== "table") friend.unfollow();
  $("nav-rules").setAttribute("href", "/rules");
  document.body.dataset.view = name;
  closeAll();
}

async function route() {
  const path = location.pathname;
  const m = path.match(/^\/match\/([A-Za-z0-9_-]+)$/);
  if (m) {
    showView("table");
    return game.openMatch(m[1]);
  }
  const invite = path.match(/^\/join\/([A-Za-z0-9_-]+)$/);
  if (invite) {
    document.title = t("title.home");
    showView("join");
    return friend.showJoin(invite[1], replaceWith);
  }
  const seat = path.match(/^\/resume\/([A-Za-z0-9_-]+)\/([01])\/([0-9a-f]+)$/);
  if (seat) {
    showView("join");
    return friend.showResume(seat[1], Number(seat[2]), seat[3], replaceWith);
  }
  const r = path.match(/^\/review\/([A-Za-z0-9_-]+)\/([0-9]+)$/);
  if (r) {
    showView("review");
    return showReview(r[1], Number(r[2]));
  }
  if (path === "/statistics") {
    showView("stats");
    return showStats();
  }
  if (path === "/history") {
    showView("history");
    return showHistory(screens.sheetOf);
  }
  return showHome();
}

document.addEventListener("click", (e) => {
  const a = /** @type {HTMLAnchorElement | null} */ (/** @type {Element} */ (e.target).closest("a[data-nav]"));
  if (!a || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(a.getAttribute("href") || "/");
});
window.addEventListener("popstate", route);

// ---------------------------------------------------------------- the settings page

async function showHome() {
  document.title = t("title.home");
  // Everything the page shows (the form, the resume box) is fetched and built before the
  // view is drawn, so nothing on it moves once it is on the screen.
  const path = location.pathname;
  const [form, matches, offered] = await Promise.allSettled([screens.loadForm(), api.matches(), offeredBundle()]);
  if (location.pathname !== path) return; // the player went elsewhere meanwhile
  $("settings-error").textContent = "";
  if (form.status === "fulfilled") {
    buildForm(form.value.options, prefs.savedSettings());
    // The button waits for the form: pressed before, it would send the browser's own GET.
    /** @type {HTMLButtonElement} */ ($("start-match")).disabled = false;
    /** @type {HTMLButtonElement} */ ($("start-friend")).disabled = false;
  } else {
    $("settings-error").textContent = errorText(/** @type {any} */ (form.reason));
  }
  $("resume-box").hidden = true;
  $("learn-offer").hidden = prefs.learnOffered();
  drawOfflineBox(offered.status === "fulfilled" ? offered.value : undefined);
  // The history is a nicety here: without it, no resume box.
  const open = matches.status === "fulfilled" ? matches.value.find((/** @type {any} */ m) => m.status === "playing") : null;
  if (open) {
    const [mine, theirs] = mineFirst(open, open.scores);
    const [mySide, theirSide] = seatsMineFirst(open);
    const me = seatWord(open, mySide, "label");
    const them = seatWord(open, theirSide, "bare");
    const words = { me, mine, them, theirs, count: open.hands, summary: rulesSummary(open) };
    $("resume-text").textContent = t(open.hands ? "home.resume" : "home.resume_first_hand", words);
    $("resume-link").setAttribute("href", "/match/" + open.id);
    $("resume-link").dataset.nav = "";
    $("resume-box").hidden = false;
  }
  showView("home");
}

wireLearnOffer();
wireOfflineBox();
$("settings-form").addEventListener("input", (e) => {
  // A refused field is cleared of its mark as soon as it is edited.
  const input = /** @type {HTMLInputElement} */ (e.target);
  if (input.getAttribute("aria-invalid") === "true") markField(input.name, "");
  syncForm();
});
$("settings-form").addEventListener("change", syncForm);
$("skip-deal").addEventListener("click", (e) => {
  // A fragment link to a button moves only where Tab starts from: give it the focus.
  e.preventDefault();
  const deal = $("start-match");
  deal.scrollIntoView({ block: "center" });
  deal.focus();
});
$("start-friend").addEventListener("click", async () => {
  if (!state.form || !checkForm(state.form.options)) return;
  const values = readForm(state.form.options);
  const name = /** @type {HTMLInputElement} */ ($("friend-name")).value.trim();
  const refused = (/** @type {any} */ err, /** @type {string} */ text) => {
    if (err.code === "bad_name") $("friend-error").textContent = text;
    else showFormError(err, text);
  };
  $("friend-error").textContent = "";
  await game.startMatch(friend.friendBody(values, name, friend.chosenClock()), values, $("settings-error"), () => {
    prefs.saveName(name);
    showView("table");
  }, refused);
});
$("reset-settings").addEventListener("click", async () => {
  prefs.forgetSettings();
  if (state.form) buildForm(state.form.options, {});
});
$("settings-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (!state.form || !checkForm(state.form.options)) return;
  const values = readForm(state.form.options);
  await game.startMatch(newMatchBody(values), values, $("settings-error"), () => showView("table"), showFormError);
});

// ---------------------------------------------------------------- the table's buttons and dialogs

wireDialogs();
friend.wireFriend(replaceWith);
wireReview();
wirePointer();
wireKeys();
$("open-rules").addEventListener("click", screens.showRules);
$("open-sheet").addEventListener("click", screens.showSheet);
$("result-sheet").addEventListener("click", screens.showSheet);
$("final-sheet").addEventListener("click", screens.showSheet);
$("final-last").addEventListener("click", screens.showLastHand);
$("result-close").addEventListener("click", () => closeDialog("dlg-result"));
$("result-next").addEventListener("click", game.nextHand);
game.controls.hint.addEventListener("click", game.askHint);
$("final-again").addEventListener("click", () => {
  const m = state.match;
  if (!m) return;
  closeDialog("dlg-final");
  game.startMatch(againBody(m), valuesOf(m), game.controls.error, () => showView("table"));
});
$("open-pile").addEventListener("click", screens.showPile);
$("open-help").addEventListener("click", () => openDialog("dlg-help"));
$("open-comfort").addEventListener("click", () => openDialog("dlg-comfort"));

// ---------------------------------------------------------------- another tab

// Back in this tab after playing in another one: show the match as it is now.
async function catchUp() {
  const m = state.match;
  if (document.hidden || !m || state.busy || document.body.dataset.view !== "table") return;
  let fresh;
  try { fresh = await api.getMatch(m.id); } catch { return; }
  if (state.busy || !state.match || state.match.id !== fresh.id || fresh.version === state.match.version) return;
  closeAll();
  game.controls.error.textContent = "";
  await game.catchUpTo(fresh);
}
document.addEventListener("visibilitychange", catchUp);
window.addEventListener("focus", catchUp);

// ---------------------------------------------------------------- start

applyComfort();
route();
registerServiceWorker();
