// The one place that talks to the server: fetch, action ids, versions and retries.
// Every request and answer is JSON; an error answer is {"error": {"code", "message", "params"}}.

import { t } from "./messages.js";

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
 */

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

  return {
    request,
    /** The settings form's options. */
    settings: () => request("GET", "/api/settings"),
    /** The requester's matches, most recent first. */
    matches: () => request("GET", "/api/matches"),
    /** @param {string} id a match as the requester sees it */
    getMatch: (id) => request("GET", match(id)),
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
    /** The server's commitment to the next match's first deal. */
    commit: () => request("POST", "/api/commitments"),
    /** @param {Record<string, any>} body a new match */
    newMatch: (body) => request("POST", "/api/matches", body),
    /**
     * A move on the version of the match it was made on; a retry carries the same
     * action id, so the server applies it once.
     * @param {{id: string, version: number}} m
     * @param {Record<string, any>} move
     */
    act: (m, move) => request("POST", `${match(m.id)}/actions`, { version: m.version, action: move.action, action_id: newId(), ...move }),
    /**
     * The next hand, with the page's seed for its deal.
     * @param {{id: string, version: number}} m
     * @param {string} clientSeed
     */
    nextHand: (m, clientSeed) => request("POST", `${match(m.id)}/next-hand`, { version: m.version, client_seed: clientSeed, action_id: newId() }),
  };
}

/** The page's transport. */
export const api = createTransport();
