// Offline play: the same referee as the server's (the project's own Python engine and
// bots, run by Pyodide) in a Web Worker, for matches against the computer with no
// connection. The player opts in ("Keep for offline play"): Pyodide and the engine are
// downloaded once, with progress shown, into the Cache Storage the service worker
// answers from. The worker answers in the server's shapes; transport.js sends it the
// requests for offline matches (ids "offline-...") and, when the server cannot be
// reached or the player chose to play offline, for new ones.

import { allMatches } from "./offline-store.js";

export const OFFLINE_PREFIX = "offline-";
/** The Cache Storage that holds Pyodide and the engine (the service worker reads it). */
export const OFFLINE_CACHE = "ginrummy-offline";
const BUNDLE_KEY = "ginrummy.offline.bundle";
const FORM_KEY = "ginrummy.offline.form";
const CHOSEN_KEY = "ginrummy.offline.chosen";
/** How long the referee may take to start before the page says it could not (a slow
 * phone starts it in seconds; a blocked WebAssembly compile never finishes). */
export const START_TIMEOUT_MS = 60000;

/** @param {string} id */
export function isOfflineId(id) {
  return typeof id === "string" && id.startsWith(OFFLINE_PREFIX);
}

/** @param {string} key */
function load(key) {
  try { return JSON.parse(localStorage.getItem(key) || "null"); } catch { return null; }
}

/**
 * @param {string} key
 * @param {any} value
 */
function save(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch { /* private mode */ }
}

/** What was kept for offline play (bundle.json as downloaded), or null. */
export function keptBundle() {
  return load(BUNDLE_KEY);
}

/** Whether the player chose to play new matches offline even with the server there. */
export function chosen() {
  return load(CHOSEN_KEY) === true;
}

/** @param {boolean} on */
export function choose(on) {
  save(CHOSEN_KEY, on);
}

/**
 * 64 hex digits from the browser's secure source: one hand's deal.
 * @returns {string}
 */
export function dealSeed() {
  const buf = new Uint8Array(32);
  crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A bot's seed (31 bits) from the same source. */
function botSeed() {
  const buf = new Uint32Array(1);
  crypto.getRandomValues(buf);
  return buf[0] >>> 1;
}

/**
 * Download Pyodide and the engine into the offline cache, reporting bytes as they come.
 * @param {(done: number, total: number) => void} progress
 * @param {any} form the settings form's options, kept for the form offline
 */
export async function keep(progress, form) {
  const response = await fetch("/offline/bundle.json", { cache: "no-store" });
  if (!response.ok) throw Object.assign(new Error("no offline bundle"), { code: "offline_unavailable" });
  const bundle = await response.json();
  const cache = await caches.open(OFFLINE_CACHE);
  const total = bundle.files.reduce((/** @type {number} */ n, /** @type {any} */ f) => n + f.bytes, 0);
  let done = 0;
  progress(0, total);
  for (const file of bundle.files) {
    if (await cache.match(file.url)) {
      done += file.bytes;
      progress(done, total);
      continue;
    }
    const got = await fetch(file.url);
    if (!got.ok || !got.body) throw Object.assign(new Error(file.url), { code: "offline_download" });
    /** @type {BlobPart[]} */
    const chunks = [];
    const reader = got.body.getReader();
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      chunks.push(/** @type {BlobPart} */ (value));
      done += value.length;
      progress(Math.min(done, total), total);
    }
    const headers = { "Content-Type": got.headers.get("Content-Type") || "application/octet-stream" };
    await cache.put(file.url, new Response(new Blob(chunks), { headers }));
  }
  // Only this bundle's files stay (an older Pyodide or engine goes).
  const wanted = new Set(bundle.files.map((/** @type {any} */ f) => new URL(f.url, location.href).href));
  for (const req of await cache.keys()) if (!wanted.has(req.url)) await cache.delete(req);
  save(FORM_KEY, form);
  save(BUNDLE_KEY, bundle);
  return bundle;
}

/** Forget offline play: the downloaded files go (the matches stay in IndexedDB). */
export async function forget() {
  save(BUNDLE_KEY, null);
  save(CHOSEN_KEY, null);
  await caches.delete(OFFLINE_CACHE);
}

/**
 * @typedef {object} RefereeOptions
 * @property {() => Worker} [makeWorker] how to start the worker (a fake one in tests)
 * @property {() => any} [bundle] what was kept (bundle.json)
 * @property {number} [timeout] ms the start may take
 * @property {() => string} [now] the time, as the server writes it
 */

/**
 * A client of the offline referee: starts the worker on first use, then sends it requests.
 * An answer is {status, body} as the server would send; a start that fails or takes too
 * long rejects with code "offline_start" (the page says so instead of waiting forever).
 * @param {RefereeOptions} [options]
 */
export function createReferee(options = {}) {
  const makeWorker = options.makeWorker || (() => new Worker(new URL("./offline-worker.js", import.meta.url), { type: "module" }));
  const bundleOf = options.bundle || keptBundle;
  const timeout = options.timeout ?? START_TIMEOUT_MS;
  const now = options.now || (() => new Date().toISOString().replace("Z", "+00:00"));
  /** @type {Worker | null} */
  let worker = null;
  /** @type {Promise<void> | null} */
  let started = null;
  let next = 1;
  /** @type {Map<number, {resolve: (v: any) => void, reject: (e: any) => void}>} */
  const waiting = new Map();

  /** @param {any} message */
  function send(message) {
    const id = next++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      /** @type {Worker} */ (worker).postMessage({ ...message, id });
    });
  }

  /** @param {string} why */
  function failAll(why) {
    const err = Object.assign(new Error(why), { code: "offline_start" });
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
    if (worker) worker.terminate();
    worker = null;
    started = null;
    return err;
  }

  /** Start the worker and Pyodide in it (once). */
  function start() {
    if (started) return started;
    const bundle = bundleOf();
    if (!bundle) return Promise.reject(Object.assign(new Error("not kept"), { code: "offline_not_kept" }));
    worker = makeWorker();
    worker.onmessage = (e) => {
      const w = waiting.get(e.data.id);
      if (!w) return;
      waiting.delete(e.data.id);
      if (e.data.error) w.reject(Object.assign(new Error(e.data.error), { code: "offline_start" }));
      else w.resolve(e.data);
    };
    worker.onerror = (e) => { failAll(e.message || "the offline referee stopped"); };
    started = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(failAll("the offline referee did not start in time")), timeout);
      send({ type: "start", bundle }).then(() => { clearTimeout(timer); resolve(); }, (e) => { clearTimeout(timer); failAll(String(e.message)); reject(e); });
    });
    return started;
  }

  /**
   * One request to the referee.
   * @param {Record<string, any>} request
   * @returns {Promise<{status: number, body: any}>}
   */
  async function ask(request) {
    await start();
    const answer = await send({ type: "request", request: { ...request, stamp: now() } });
    return { status: answer.status, body: answer.body };
  }

  return {
    start,
    ask,
    /** The settings form (as kept with the download; else the referee's). */
    settings: async () => {
      const form = load(FORM_KEY);
      return form ? { status: 200, body: form } : ask({ op: "settings" });
    },
    /** @param {Record<string, any>} body a new match, as POST /api/matches takes it */
    newMatch: (body) => ask({ op: "new", id: OFFLINE_PREFIX + dealSeed().slice(0, 16), body, deal_seed: dealSeed(), bot_seed: botSeed() }),
    /** @param {string} id */
    getMatch: (id) => ask({ op: "get", id }),
    /**
     * @param {{id: string, version: number}} m
     * @param {Record<string, any>} move
     */
    act: (m, move) => ask({ op: "act", id: m.id, version: m.version, move }),
    /** @param {{id: string, version: number}} m */
    nextHand: (m) => ask({ op: "next", id: m.id, version: m.version, deal_seed: dealSeed() }),
    /** @param {string} id the record to download */
    record: (id) => ask({ op: "record", id }),
    /** How long each bot decision took in this worker. */
    thinking: () => ask({ op: "thinking" }),
    /** The history lines of every offline match on this device. */
    matches: async () => (await allMatches()).map((m) => m.summary),
  };
}
