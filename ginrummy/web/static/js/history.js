// The history page: every match of this seat, with its score sheet, its deals' proofs
// and its record.

import { openDialog } from "./dialogs.js";
import { $, h } from "./dom.js";
import { dealLine } from "./fair.js";
import { dateTime, t } from "./messages.js";
import { isOfflineId } from "./offline.js";
import { isMine, mineFirst, seatName, seatsMineFirst } from "./seats.js";
import { api } from "./transport.js";
import { errorText, rulesSummary } from "./words.js";

/** @param {string} iso a time, shown in the reader's locale */
function when(iso) {
  const d = new Date(iso);
  return isNaN(d.getTime()) ? iso : dateTime(d);
}

/**
 * A <details> that loads its content the first time it opens.
 * @param {string} title
 * @param {() => Promise<Node>} load
 */
function lazyDetails(title, load) {
  const d = h("details", {}, h("summary", {}, title));
  d.addEventListener("toggle", async () => {
    if (!d.open || d.dataset.loaded) return;
    d.dataset.loaded = "1";
    try {
      d.appendChild(await load());
    } catch (e) {
      d.appendChild(h("p", {}, errorText(/** @type {any} */ (e))));
    }
  });
  return d;
}

/**
 * Every hand's deal proof of a match, checked here against what this browser remembers.
 * @param {string} matchId
 * @param {(seat: number) => string} [who] a seat's name
 */
export function proofsDetails(matchId, who) {
  const d = h("details", {}, h("summary", {}, t("history.proofs")));
  d.addEventListener("toggle", async () => {
    if (!d.open || d.dataset.loaded) return;
    d.dataset.loaded = "1";
    const list = h("ol", { className: "deal-proofs" });
    try {
      const proofs = await api.proofs(matchId);
      for (const deal of proofs.deals) {
        list.appendChild(h("li", {}, t("history.proof_line", { hand: deal.hand, line: await dealLine(matchId, deal, { who }) })));
      }
    } catch (e) {
      list.appendChild(h("li", {}, errorText(/** @type {any} */ (e))));
    }
    d.appendChild(list);
  });
  return d;
}

/**
 * The record of an offline match, made by the referee on this device, saved as a file.
 * @param {string} id
 */
function offlineRecordButton(id) {
  const b = h("button", { type: "button", className: "btn small" }, t("history.record"));
  b.addEventListener("click", async () => {
    let record;
    try {
      record = await api.offlineRecord(id);
    } catch (e) {
      b.after(h("p", { className: "form-error" }, errorText(/** @type {any} */ (e))));
      return;
    }
    const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
    const a = h("a", { href: url, download: `ginrummy-${id}.json`, hidden: true });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  });
  return b;
}

/**
 * One history line.
 * @param {any} m a MatchSummaryOut
 * @param {(full: any) => Node} sheet draws a match's score sheet
 */
function historyItem(m, sheet) {
  const won = m.status === "over" && isMine(m, m.winner);
  const status = h("span", { className: "chip status-" + (m.status === "over" ? (won ? "won" : "lost") : "playing") },
    m.status === "over" ? t(won ? "history.you_won" : "history.they_won", { who: seatName(m, m.winner) }) : t("history.unfinished"));
  const [mine, theirs] = mineFirst(m, m.scores);
  const [me, them] = seatsMineFirst(m).map((s) => seatName(m, s));
  const offline = isOfflineId(m.id);
  const where = offline ? [h("span", { className: "chip chip-offline" }, t("history.offline"))] : [];
  const head = h("div", { className: "history-head" }, status, ...where,
    h("span", { className: "history-score" }, t("history.score", { me, mine, them, theirs })),
    h("span", { className: "muted" }, t("history.meta", { when: when(m.updated_at), count: m.hands, summary: rulesSummary(m) })));
  const actions = h("div", { className: "history-actions" });
  if (m.status === "playing") {
    const a = h("a", { className: "btn primary small", href: "/match/" + m.id }, t("history.resume"));
    a.dataset.nav = "";
    actions.appendChild(a);
  }
  const item = h("li", { className: "history-item" }, head, actions);
  if (m.status === "playing") {
    // Only a match in play may go: a finished one keeps its record and deal proofs.
    const del = h("button", { type: "button", className: "btn small danger history-delete" }, t("history.delete"));
    del.addEventListener("click", () => confirmDelete(m.id, item, del));
    actions.appendChild(del);
  }
  actions.appendChild(lazyDetails(t("history.sheet"), async () => sheet(await api.getMatch(m.id))));
  // The fair deal: every hand's proof (a match dealt on this device claims none).
  if (!offline) actions.appendChild(proofsDetails(m.id, (seat) => seatName(m, seat)));
  if (m.hands > 0 && offline) {
    actions.appendChild(offlineRecordButton(m.id));
  } else if (m.hands > 0) {
    // The coach's review of each hand that is over.
    const links = [];
    for (let k = 1; k <= m.hands; k++) {
      const a = h("a", { className: "btn small", href: `/review/${m.id}/${k}`, "aria-label": t("history.review_hand", { hand: k }) }, String(k));
      a.dataset.nav = "";
      links.push(a);
    }
    actions.appendChild(h("span", { className: "history-reviews" }, h("span", { className: "muted" }, t("history.review")), ...links));
    // The record (docs/RECORDS.md) of the hands that are over, to keep or replay.
    actions.appendChild(h("a", { className: "btn small", href: api.recordUrl(m.id), download: `ginrummy-${m.id}.json` }, t("history.record")));
  }
  return item;
}

/**
 * Ask, then delete an unfinished match and take its line away.
 * @param {string} matchId
 * @param {HTMLElement} item its history line
 * @param {HTMLElement} button the Delete button (focus comes back to it if kept)
 */
function confirmDelete(matchId, item, button) {
  const dialog = /** @type {HTMLDialogElement} */ ($("dlg-delete"));
  dialog.returnValue = "";
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "delete") { button.focus(); return; }
    try {
      await api.deleteMatch(matchId);
    } catch (e) {
      const err = /** @type {any} */ (e);
      // Gone already (another tab): its line goes all the same.
      if (err.code !== "unknown_match") {
        const says = err.code === "match_over" ? t("history.delete_finished") : errorText(err);
        item.querySelector(".history-error")?.remove();
        item.appendChild(h("p", { className: "field-error history-error", role: "alert" }, says));
        return;
      }
    }
    const list = $("history-list");
    const next = /** @type {HTMLElement | null} */ (item.nextElementSibling || item.previousElementSibling);
    item.remove();
    $("history-empty").hidden = list.children.length > 0;
    const live = $("live");
    live.textContent = t("history.deleted");
    /** @type {HTMLElement} */ (next?.querySelector("a, button") || $("main")).focus();
  }, { once: true });
  openDialog("dlg-delete");
}

/**
 * Show the history page.
 * @param {(full: any) => Node} sheet
 */
export async function showHistory(sheet) {
  document.title = t("title.history");
  const list = $("history-list");
  list.replaceChildren();
  let matches;
  try {
    matches = await api.matches();
  } catch (e) {
    $("history-empty").hidden = false;
    $("history-empty").textContent = errorText(/** @type {any} */ (e));
    return;
  }
  $("history-empty").hidden = matches.length > 0;
  for (const m of matches) list.appendChild(historyItem(m, sheet));
}
