// The offline referee's thread: Pyodide running the project's own engine and bots
// (ginrummy.offline), answering the page's requests in the server's shapes. It keeps
// every match it changes in IndexedDB, so a reload or a restart carries on. This script
// alone is served with 'wasm-unsafe-eval' in its Content-Security-Policy (Pyodide
// compiles WebAssembly); the pages keep the strict policy.

import { getMatch, putMatch } from "./offline-store.js";

/** @type {((text: string) => string) | null} */
let handle = null;

const BOOT = `
import json, sys
sys.path.insert(0, "/engine")
from ginrummy.offline import Referee
_referee = Referee()
def handle(text):
    return json.dumps(_referee.handle(json.loads(text)))
`;

/** @param {any} bundle what was kept (bundle.json) */
async function boot(bundle) {
  const { loadPyodide } = await import(bundle.index + "pyodide.mjs");
  const engine = fetch(bundle.engine).then((r) => {
    if (!r.ok) throw new Error(`${bundle.engine}: ${r.status}`);
    return r.arrayBuffer();
  });
  const py = await loadPyodide({ indexURL: bundle.index, stdout: () => {}, stderr: () => {} });
  py.unpackArchive(await engine, "zip", { extractDir: "/engine" });
  py.runPython(BOOT);
  handle = py.globals.get("handle");
}

/** @param {any} request */
async function answer(request) {
  if (request.id && request.op !== "new") {
    const kept = await getMatch(request.id);
    if (kept) request.kept = kept.kept;
  }
  const out = JSON.parse(/** @type {(text: string) => string} */ (handle)(JSON.stringify(request)));
  if (out.keep) await putMatch({ id: out.keep.id, kept: out.keep, summary: out.summary });
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
