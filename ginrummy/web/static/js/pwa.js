// The installable app: the service worker (sw.js, served at /sw.js) and the notice that
// a new version is ready; and the home page's offer to keep the game for offline play,
// with the download's progress.

import { $ } from "./dom.js";
import { digits, t } from "./messages.js";
import { OFFLINE_PREFIX, chosen, choose, keep, keptBundle } from "./offline.js";
import { api, referee } from "./transport.js";
import { errorText } from "./words.js";

/** Register the service worker; show the update bar when a new version waits. */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  let reloading = false;
  /** @param {ServiceWorker} waiting */
  const offer = (waiting) => {
    $("update-bar").hidden = false;
    $("update-reload").onclick = () => {
      reloading = true;
      waiting.postMessage("skip-waiting");
    };
  };
  // The new worker took over after the player asked for it: load the new version.
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading) location.reload();
  });
  navigator.serviceWorker.register("/sw.js").then((reg) => {
    if (reg.waiting && navigator.serviceWorker.controller) offer(reg.waiting);
    reg.addEventListener("updatefound", () => {
      const fresh = reg.installing;
      if (!fresh) return;
      fresh.addEventListener("statechange", () => {
        if (fresh.state === "installed" && navigator.serviceWorker.controller) offer(fresh);
      });
    });
  }, () => { /* no service worker (a private window): the page works online */ });
}

/** @param {number} bytes as megabytes with one decimal, in the reader's digits */
const mb = (bytes) => digits((bytes / 1e6).toFixed(1));

/**
 * What the server offers for offline play (bundle.json): the bundle, null when the server
 * has none, undefined when it cannot be asked.
 * @returns {Promise<any>}
 */
export async function offeredBundle() {
  if (keptBundle()) return undefined;
  try {
    const r = await fetch("/offline/bundle.json", { cache: "no-store" });
    return r.ok ? await r.json() : r.status === 404 ? null : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Draw the offline box as things stand: the offer, or what is kept and the choice.
 * @param {any} [offered] what offeredBundle() answered
 */
export function drawOfflineBox(offered) {
  const kept = keptBundle();
  const supported = "serviceWorker" in navigator && "caches" in window && "indexedDB" in window;
  $("offline-keep").hidden = Boolean(kept) || !supported || offered === null;
  $("offline-choose-row").hidden = !kept;
  /** @type {HTMLInputElement} */ ($("offline-choose")).checked = chosen();
  if (!supported) $("offline-text").textContent = t("offline.unsupported");
  else if (kept) $("offline-text").textContent = t("offline.kept");
  else if (offered === null) $("offline-text").textContent = t("error.offline_unavailable");
  else if (offered) $("offline-text").textContent = t("offline.offer", { size: mb(offered.gzip_bytes) });
  else $("offline-text").textContent = t("offline.offer_unsized");
  const status = $("offline-status");
  if (kept && api.playsHere() && !chosen()) status.textContent = t("offline.unreachable");
  else if (status.dataset.sticky !== "1") status.textContent = "";
  // Playing here: start the referee now, so it is ready when the player deals.
  if (kept && api.playsHere()) referee.start().catch(() => {});
}

/**
 * When the game is kept and will be played here (chosen, no server, or the address is
 * an offline match), start the referee at once: the page calls this first thing, so Pyodide starts while the page
 * draws itself (docs/OFFLINE.md, "Start-up").
 */
export function startOfflineEarly() {
  if (!keptBundle()) return;
  const go = () => { if (api.playsHere()) referee.start().catch(() => {}); };
  if (chosen()) go();
  else if (location.pathname.startsWith("/match/" + OFFLINE_PREFIX)) referee.start().catch(() => {});
  else api.probe().then(go);
}

/** Wire the offer's button and the choice. */
export function wireOfflineBox() {
  $("offline-keep").addEventListener("click", async () => {
    const button = /** @type {HTMLButtonElement} */ ($("offline-keep"));
    const bar = /** @type {HTMLProgressElement} */ ($("offline-progress"));
    const status = $("offline-status");
    status.dataset.sticky = "1";
    button.disabled = true;
    bar.hidden = false;
    try {
      const form = await api.settings();
      await keep((done, total) => {
        bar.max = total;
        bar.value = done;
        status.textContent = t("offline.downloading", { done: mb(done), total: mb(total) });
      }, form);
      status.textContent = t("offline.starting");
      await referee.start();
      status.textContent = t("offline.ready");
    } catch (e) {
      const code = /** @type {any} */ (e).code;
      status.textContent = code ? t(`error.${code}`) : errorText(/** @type {any} */ (e));
    } finally {
      button.disabled = false;
      bar.hidden = true;
      drawOfflineBox(await offeredBundle());
    }
  });
  $("offline-choose").addEventListener("change", (e) => {
    choose(/** @type {HTMLInputElement} */ (e.target).checked);
    drawOfflineBox(undefined);
  });
}
