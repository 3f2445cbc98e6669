// The one place that talks to the server: fetch, action ids, versions and retries.
// Every request and answer is JSON; an error answer is {"error": {"code", "message", "params"}}.
// Offline matches (ids "offline-...") go to the offline referee instead (offline.js), which
// answers in the same shapes; so do new matches while the server cannot be reached (or the
// player chose to play offline), once the game is kept for offline play.

import { t } from "./messages.js";
import { chosen, createReferee, isOfflineId, keptBundle } from "./offline.js";
import { deleteMatch as deleteKept } from "./offline-store.js";

/** An answer that is not a success, or no answer at all (status 0). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {Record<string, any>} [params]
   */
  constructor(status, code, message, params = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

/**
 * A random id of `bytes` bytes in hex: action ids and the page's seeds for fair deals.
 * @param {number} [bytes]
 */
export function randomId(bytes = 16) {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Statuses worth asking again about: the server or a proxy was briefly unable to answer. */
const RETRY_STATUSES = new Set([502, 503, 504]);

/**
 * Whether a request may be sent again without doing its work twice: a read, or a
 * change that carries an action id (the server applies one action id once).
 * @param {string} method
 * @param {any} body
 */
export function isRepeatable(method, body) {
  return method === "GET" || Boolean(body && body.action_id);
}

/**
 * @typedef {object} TransportOptions
 * @property {typeof fetch} [fetch] the fetch to use (a fake one in tests)
 * @property {(ms: number) => Promise<void>} [sleep] how to wait between tries
 * @property {number} [retries] how many times to send a repeatable request again
 * @property {number} [backoff] the first wait, in ms; each later one doubles
 * @property {() => string} [newId] makes action ids
 * @property {OfflineReferee | null} [offline] the offline referee (none: the server only)
 * @property {() => boolean} [kept] whether the game is kept for offline play
 * @property {() => boolean} [chosen] whether the player chose to play offline
 */

/** @typedef {ReturnType<typeof createReferee>} OfflineReferee */

/**
 * A client of the page's API.
 * @param {TransportOptions} [options]
 */
export function createTransport(options = {}) {
  const doFetch = options.fetch || ((input, init) => globalThis.fetch(input, init));
  const sleep = options.sleep || ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  const retries = options.retries ?? 2;
  const backoff = options.backoff ?? 400;
  const newId = options.newId || (() => randomId());
  const local = options.offline || null;
  const isKept = options.kept || (() => false);
  const isChosen = options.chosen || (() => false);
  /** Set when the server could not be reached: new matches are then played offline. */
  let unreachable = false;

  /** Whether a new match is played on this device. */
  function playHere() {
    return Boolean(local) && isKept() && (isChosen() || unreachable);
  }

  /**
   * A request to the offline referee: its answer, or its error as an ApiError.
   * @param {() => Promise<{status: number, body: any}>} work
   */
  async function here(work) {
    let answer;
    try {
      answer = await work();
    } catch (e) {
      const code = /** @type {any} */ (e).code || "offline_start";
      throw new ApiError(0, code, t(`error.${code}`));
    }
    if (answer.status >= 400) {
      const err = answer.body.error;
      throw new ApiError(answer.status, err.code, err.message, err.params);
    }
    return answer.body;
  }

  /**
   * Ask the server; when it cannot be reached and the game is kept, ask the referee here.
   * @param {(send: typeof request) => Promise<any>} there
   * @param {() => Promise<{status: number, body: any}>} instead
   */
  async function serverOrHere(there, instead) {
    if (playHere()) return here(instead);
    try {
      return await there(local && isKept() ? once : request);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 0 || !local || !isKept()) throw e;
      unreachable = true;
      return here(instead);
    }
  }

  /**
   * One request, sent again on a network failure or a 502-504 when that is safe.
   * @param {string} method
   * @param {string} path
   * @param {any} [body]
   * @returns {Promise<any>}
   */
  async function request(method, path, body) {
    const tries = isRepeatable(method, body) ? retries + 1 : 1;
    /** @type {ApiError | null} */
    let last = null;
    for (let attempt = 0; attempt < tries; attempt++) {
      if (attempt > 0) await sleep(backoff * 2 ** (attempt - 1));
      try {
        return await once(method, path, body);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        last = e;
        if (e.status !== 0 && !RETRY_STATUSES.has(e.status)) throw e;
      }
    }
    throw last;
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {any} [body]
   */
  async function once(method, path, body) {
    let response;
    try {
      response = await doFetch(path, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, "network", t("error.network"));
    }
    let data = null;
    try { data = await response.json(); } catch { data = null; }
    if (!response.ok) {
      const err = data && data.error
        ? data.error
        : { code: `http_${response.status}`, message: t("error.http", { status: response.status }), params: {} };
      throw new ApiError(response.status, err.code, err.message, err.params);
    }
    return data;
  }

  const match = (/** @type {string} */ id) => `/api/matches/${encodeURIComponent(id)}`;
  const invite = (/** @type {string} */ code) => `/api/invites/${encodeURIComponent(code)}`;

  const referee = /** @type {OfflineReferee} */ (local);

  return {
    request,
    /** Whether new matches are played on this device now (kept, and chosen or unreachable). */
    playsHere: playHere,
    /**
     * Ask the server whether it is there (once, no retries), so that a page opened with
     * no server knows it at once, not when its first request fails.
     * @returns {Promise<boolean>}
     */
    probe: async () => {
      try {
        await once("GET", "/api/health");
        return true;
      } catch (e) {
        if (e instanceof ApiError && e.status === 0) unreachable = true;
        return false;
      }
    },
    /** The settings form's options. */
    settings: () => serverOrHere((send) => send("GET", "/api/settings"), () => referee.settings()),
    /** The requester's matches, most recent first: the server's and this device's. */
    matches: async () => {
      /** @type {any[]} */
      const offline = local ? await local.matches().catch(() => /** @type {any[]} */ ([])) : [];
      /** @type {any[]} */
      let online = [];
      try {
        if (!unreachable) online = await (local && isKept() ? once : request)("GET", "/api/matches");
      } catch (e) {
        if (!(e instanceof ApiError) || e.status !== 0 || !offline.length) throw e;
        unreachable = true;
      }
      return [...online, ...offline].sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0));
    },
    /** @param {string} id a match as the requester sees it */
    getMatch: (id) => (isOfflineId(id) ? here(() => referee.getMatch(id)) : request("GET", match(id))),
    /** @param {string} id an unfinished match of the requester's, deleted (here or on the server) */
    deleteMatch: (id) => (isOfflineId(id) ? deleteKept(id) : request("DELETE", match(id))),
    /** @param {string} id every deal's proof of a match */
    proofs: (id) => request("GET", `${match(id)}/proofs`),
    /** @param {string} id the address of a match's record */
    recordUrl: (id) => `${match(id)}/record`,
    /**
     * The coach's review of a finished hand for the requester's seat (asking starts it).
     * @param {string} id
     * @param {number} hand
     */
    review: (id, hand) => request("GET", `${match(id)}/hands/${hand}/review`),
    /** @param {string} id Hard's choice for the requester's decision now, and why */
    hint: (id) => request("POST", `${match(id)}/hint`),
    /** The statistics of the requester's matches. */
    statistics: () => request("GET", "/api/statistics"),
    /** @param {string} id an offline match's record (docs/RECORDS.md), as the server's */
    offlineRecord: (id) => here(() => referee.record(id)),
    /** The server's commitment to the next match's first deal (none for a deal made here). */
    commit: () => serverOrHere((send) => send("POST", "/api/commitments"), async () => ({ status: 200, body: { commitment: null } })),
    /** @param {Record<string, any>} body a new match */
    newMatch: (body) => (playHere() ? here(() => referee.newMatch(body)) : request("POST", "/api/matches", body)),
    /**
     * A move on the version of the match it was made on; a retry carries the same
     * action id, so the server applies it once.
     * @param {{id: string, version: number}} m
     * @param {Record<string, any>} move
     */
    act: (m, move) => (isOfflineId(m.id)
      ? here(() => referee.act(m, move))
      : request("POST", `${match(m.id)}/actions`, { version: m.version, action: move.action, action_id: newId(), ...move })),
    /**
     * The next hand, with the page's seed for its deal (a deal made here draws its own).
     * @param {{id: string, version: number}} m
     * @param {string} clientSeed
     */
    nextHand: (m, clientSeed) => (isOfflineId(m.id)
      ? here(() => referee.nextHand(m))
      : request("POST", `${match(m.id)}/next-hand`, { version: m.version, client_seed: clientSeed, action_id: newId() })),
    /** @param {string} code what an invite link offers */
    invite: (code) => request("GET", invite(code)),
    /**
     * Take an invite's seat under a display name.
     * @param {string} code
     * @param {string | null} name
     * @param {boolean} [acceptClock] agreed to a timed match's clock
     */
    join: (code, name, acceptClock = false) => request("POST", `${invite(code)}/join`, { name, accept_clock: acceptClock }),
    /** @param {string} id remind the other player that their time is up */
    remind: (id) => request("POST", `${match(id)}/remind`),
    /** @param {string} id a new invite link to your match's open seat */
    renewInvite: (id) => request("POST", `${match(id)}/invite`),
    /** @param {string} code cancel your invite */
    cancelInvite: (code) => request("DELETE", invite(code)),
    /**
     * Move a seat to this browser with its resume link.
     * @param {string} id
     * @param {number} seat
     * @param {string} token
     */
    resumeSeat: (id, seat, token) => request("POST", "/api/seats/resume", { match: id, seat, token }),
    /** @param {string} id the address of a match's live stream (Server-Sent Events) */
    streamUrl: (id) => `${match(id)}/stream`,
  };
}

/** The offline referee (a worker, started on first use). */
export const referee = createReferee();

/** The page's transport. */
export const api = createTransport({ offline: referee, kept: () => Boolean(keptBundle()), chosen });
