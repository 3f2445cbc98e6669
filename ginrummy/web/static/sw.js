// The service worker: the app shell precached under the static files' version, so the
// page opens with no server; Pyodide and the engine (kept when the player opts in to
// offline play) answered from their own cache. The server fills in BUILD when it sends
// this script (ginrummy/web/pwa.py): any change to a static file changes it, the browser
// installs the new worker beside the old one, and the page offers to reload.

/** @type {{version: string, shell: string[]}} */
const BUILD = { version: "dev", shell: [] };
const SHELL_CACHE = `ginrummy-shell-${BUILD.version}`;
const VERSIONED = `/static/${BUILD.version}/`;
/** How long a page's request may take before the kept copy is shown instead. */
const NAVIGATION_WAIT_MS = 4000;

const sw = /** @type {any} */ (self);

sw.addEventListener("install", (/** @type {any} */ e) => {
  e.waitUntil(caches.open(SHELL_CACHE).then((c) => c.addAll(BUILD.shell)));
});

sw.addEventListener("activate", (/** @type {any} */ e) => {
  e.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("ginrummy-shell-") && name !== SHELL_CACHE) await caches.delete(name);
    }
    await sw.clients.claim();
  })());
});

// The page says when the player chose to load the new version.
sw.addEventListener("message", (/** @type {MessageEvent} */ e) => {
  if (e.data === "skip-waiting") sw.skipWaiting();
});

/**
 * The network's answer, or null when there is none in time.
 * @param {Request} request
 * @param {number} [wait]
 */
async function network(request, wait) {
  const ctrl = new AbortController();
  const timer = wait ? setTimeout(() => ctrl.abort(), wait) : null;
  try {
    return await fetch(request, { signal: ctrl.signal });
  } catch {
    return null;
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/**
 * The kept copy, from any of this site's caches (the shell's, or the offline one the
 * page fills: offline.js).
 * @param {Request | string} request
 */
async function kept(request) {
  return (await caches.match(request)) || null;
}

/**
 * A page: the server's, else the kept one (a lesson's own, else the game's page, which
 * serves every other address).
 * @param {Request} request
 */
async function page(request) {
  const fresh = await network(request, NAVIGATION_WAIT_MS);
  if (fresh) return fresh;
  return (await caches.match(request, { ignoreSearch: true })) || (await kept("/")) || Response.error();
}

/**
 * A file whose address names its version: it never changes, so the kept copy is it.
 * @param {Request} request
 */
async function versioned(request) {
  return (await kept(request)) || (await network(request)) || Response.error();
}

/**
 * A file by its plain address (the catalogue, bundle.json): the server's, else the kept one.
 * @param {Request} request
 * @param {string} [fallback] where the kept copy is
 */
async function plain(request, fallback) {
  const fresh = await network(request);
  if (fresh && fresh.ok) return fresh;
  return (await kept(fallback || request)) || fresh || Response.error();
}

sw.addEventListener("fetch", (/** @type {any} */ e) => {
  const request = /** @type {Request} */ (e.request);
  const url = new URL(request.url);
  if (url.origin !== location.origin || request.method !== "GET") return;
  if (url.pathname.startsWith("/api/") && url.pathname !== "/api/learn/worked-hand") return;
  if (request.mode === "navigate") {
    e.respondWith(page(request));
  } else if (url.pathname.startsWith(VERSIONED) || url.pathname.startsWith("/offline/pyodide-") || url.pathname.startsWith("/offline/ginrummy-")) {
    e.respondWith(versioned(request));
  } else if (url.pathname.startsWith("/static/") && !/^\/static\/[0-9a-f]{12}\//.test(url.pathname)) {
    e.respondWith(plain(request, VERSIONED + url.pathname.slice("/static/".length)));
  } else if (url.pathname === "/offline/bundle.json" || url.pathname === "/api/learn/worked-hand") {
    e.respondWith(plain(request));
  }
});
