// The offline referee's thread: Pyodide running the project's own engine and bots
// (ginrummy.offline), answering the page's requests in the server's shapes. It keeps
// every match it changes in IndexedDB, so a reload or a restart carries on. This script
// alone is served with 'wasm-unsafe-eval' in its Content-Security-Policy (Pyodide
// compiles WebAssembly); the pages keep the strict policy.
//
// Starting CPython and importing the engine is most of a start (seconds on a phone), so
// the first start keeps a snapshot of Pyodide's memory with the referee imported, in the
// offline cache; every later start restores it instead (docs/OFFLINE.md, "Start-up").

import { getMatch, putMatch } from "./offline-store.js";

/** The Cache Storage of offline play (offline.js's OFFLINE_CACHE). */
const CACHE = "ginrummy-offline";
/** Where snapshots are kept in it: one per bundle and boot code. */
const SNAPSHOT_PREFIX = "/offline/snapshot-";

/** @type {((text: string) => string) | null} */
let handle = null;

/** Where the engine's zip is put, for Python to import from. */
const ENGINE = "/engine.zip";

const BOOT = `
import json, sys
sys.path.insert(0, "${ENGINE}")
from ginrummy.offline import Referee, warm_up
warm_up()
_referee = Referee()
def handle(text):
    return json.dumps(_referee.handle(json.loads(text)))
`;

/**
 * The snapshot's address for this bundle and this boot code: a snapshot is memory with
 * both in it, so a change to either makes another.
 * @param {any} bundle
 */
async function snapshotUrl(bundle) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(BOOT));
  const hex = Array.from(new Uint8Array(digest).slice(0, 6), (b) => b.toString(16).padStart(2, "0")).join("");
  return new URL(`${SNAPSHOT_PREFIX}${bundle.version}-${hex}`, location.href).href;
}

/** @param {string} url */
async function bytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

/**
 * Keep this start's memory for the next, and drop older snapshots.
 * @param {any} py
 * @param {Cache} cache
 * @param {string} url
 */
async function keepSnapshot(py, cache, url) {
  const snapshot = py.makeMemorySnapshot();
  await cache.put(url, new Response(snapshot, { headers: { "Content-Type": "application/octet-stream" } }));
  for (const req of await cache.keys()) {
    if (req.url !== url && new URL(req.url).pathname.startsWith(SNAPSHOT_PREFIX)) await cache.delete(req);
  }
}

/** @param {any} bundle what was kept (bundle.json) */
async function boot(bundle) {
  performance.mark("offline:boot");
  // Everything the start needs is asked for at once, to come in side by side: the
  // engine, the loader, Pyodide's JavaScript, and the WebAssembly (compiled here while
  // the snapshot is read; V8 hands the same compiled module to Pyodide's own compile).
  const engine = bytes(bundle.engine);
  const loader = import(bundle.index + "pyodide.mjs");
  import(bundle.index + "pyodide.asm.mjs").catch(() => {});
  const wasm = WebAssembly.compileStreaming(fetch(bundle.index + "pyodide.asm.wasm")).catch(
    /** @returns {null} a failed compile here is Pyodide's to report */ () => null,
  );
  const cache = await caches.open(CACHE);
  const url = await snapshotUrl(bundle);
  const kept = await cache.match(url);
  const snapshot = kept ? kept.arrayBuffer() : null;
  const { loadPyodide } = await loader;
  performance.mark("offline:loader");
  const options = { indexURL: bundle.index, stdout: () => {}, stderr: () => {} };
  if (snapshot) {
    try {
      const py = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      performance.mark("offline:pyodide");
      // The memory has the engine imported; its zip (a file, kept outside that memory)
      // comes back for any module imported later.
      py.FS.writeFile(ENGINE, await engine);
      performance.mark("offline:engine");
      handle = py.globals.get("handle");
      performance.mark("offline:ready");
      await wasm; // held until Pyodide compiled its own
      return;
    } catch {
      // Not restorable (a browser that cannot, a damaged entry): start afresh below.
      await cache.delete(url);
    }
  }
  const py = await loadPyodide({ ...options, _makeSnapshot: true });
  await wasm;
  performance.mark("offline:pyodide");
  py.FS.writeFile(ENGINE, await engine);
  performance.mark("offline:engine");
  py.runPython(BOOT);
  handle = py.globals.get("handle");
  performance.mark("offline:ready");
  // Before any request changes the referee; and before the page is told the game is
  // ready, which it may be closed right after.
  await keepSnapshot(py, cache, url).catch(() => { /* no room: the next start is slower */ });
}

let asked = 0;

/** @param {any} request */
async function answer(request) {
  const first = asked++ === 0;
  if (first) performance.mark("offline:asked");
  if (request.id && request.op !== "new") {
    const kept = await getMatch(request.id);
    if (kept) request.kept = kept.kept;
  }
  const out = JSON.parse(/** @type {(text: string) => string} */ (handle)(JSON.stringify(request)));
  if (first) performance.mark("offline:answered");
  if (out.keep) await putMatch({ id: out.keep.id, kept: out.keep, summary: out.summary });
  if (first) performance.mark("offline:stored");
  return { status: out.status, body: out.body };
}

const scope = /** @type {any} */ (self);
scope.onmessage = async (/** @type {MessageEvent} */ e) => {
  const { id, type } = e.data;
  try {
    if (type === "start") {
      if (!handle) await boot(e.data.bundle);
      scope.postMessage({ id, ready: true });
    } else {
      scope.postMessage({ id, ...(await answer(e.data.request)) });
    }
  } catch (err) {
    scope.postMessage({ id, error: String(/** @type {any} */ (err).message || err) });
  }
};
