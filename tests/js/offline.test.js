import assert from "node:assert/strict";
import { test } from "node:test";

import { setCatalogue } from "../../ginrummy/web/static/js/messages.js";
import { createReferee, isOfflineId } from "../../ginrummy/web/static/js/offline.js";
import { ApiError, createTransport } from "../../ginrummy/web/static/js/transport.js";
import { EN } from "./catalogue.js";

setCatalogue(EN);

/**
 * A worker that answers each message with reply(message) (nothing: it never answers).
 * @param {(message: any) => any} reply
 */
function fakeWorker(reply) {
  /** @type {any} */
  const w = {
    sent: [],
    terminated: false,
    onmessage: null,
    onerror: null,
    postMessage(/** @type {any} */ message) {
      w.sent.push(message);
      const out = reply(message);
      if (out) setTimeout(() => w.onmessage({ data: { id: message.id, ...out } }), 0);
    },
    terminate() { w.terminated = true; },
  };
  return w;
}

const BUNDLE = { index: "/offline/pyodide-1/", engine: "/offline/ginrummy-x.zip", files: [] };

test("a referee that never starts is given up after the timeout, with a code to show", async () => {
  const worker = fakeWorker(() => null); // a blocked WebAssembly compile: no answer, ever
  const referee = createReferee({ makeWorker: () => worker, bundle: () => BUNDLE, timeout: 30 });
  await assert.rejects(referee.start(), (e) => /** @type {any} */ (e).code === "offline_start");
  assert.equal(worker.terminated, true);
  assert.ok(EN["error.offline_start"].length > 20); // the page has words for it
});

test("a started referee answers requests in the server's shapes, stamped with the time", async () => {
  const worker = fakeWorker((m) => (m.type === "start" ? { ready: true } : { status: 200, body: { id: m.request.id, op: m.request.op } }));
  const referee = createReferee({ makeWorker: () => worker, bundle: () => BUNDLE, now: () => "T" });
  const answer = await referee.getMatch("offline-1");
  assert.deepEqual(answer, { status: 200, body: { id: "offline-1", op: "get" } });
  assert.deepEqual(worker.sent[0].bundle, BUNDLE);
  assert.equal(worker.sent[1].request.stamp, "T");
  await referee.getMatch("offline-1");
  assert.equal(worker.sent.filter((/** @type {any} */ m) => m.type === "start").length, 1); // started once
});

test("a new offline match draws fresh seeds from the secure source", async () => {
  const worker = fakeWorker((m) => (m.type === "start" ? { ready: true } : { status: 200, body: m.request }));
  const referee = createReferee({ makeWorker: () => worker, bundle: () => BUNDLE });
  const a = (await referee.newMatch({ seats: [] })).body;
  const b = (await referee.newMatch({ seats: [] })).body;
  assert.ok(isOfflineId(a.id));
  assert.match(a.deal_seed, /^[0-9a-f]{64}$/);
  assert.notEqual(a.deal_seed, b.deal_seed);
  assert.notEqual(a.id, b.id);
});

/** A referee that records what it was asked and answers from a table. */
function fakeReferee(answers = {}) {
  /** @type {any[]} */
  const asked = [];
  /** @param {string} op */
  const answer = (op, args = {}) => {
    asked.push({ op, ...args });
    return Promise.resolve(/** @type {any} */ (answers)[op] || { status: 200, body: { op } });
  };
  return {
    asked,
    start: async () => {},
    ask: async (/** @type {any} */ r) => answer(r.op),
    settings: () => answer("settings"),
    newMatch: (/** @type {any} */ body) => answer("new", { body }),
    getMatch: (/** @type {string} */ id) => answer("get", { id }),
    act: (/** @type {any} */ m, /** @type {any} */ move) => answer("act", { id: m.id, move }),
    nextHand: (/** @type {any} */ m) => answer("next", { id: m.id }),
    record: (/** @type {string} */ id) => answer("record", { id }),
    thinking: () => answer("thinking"),
    matches: async () => [{ id: "offline-9", updated_at: "2026-11-30T10:00:00" }],
  };
}

const down = async () => { throw new TypeError("Failed to fetch"); };
const noWait = { sleep: async () => {}, newId: () => "id-1" };

test("offline matches go to the referee, never to the server", async () => {
  const referee = fakeReferee();
  const api = createTransport({ fetch: down, ...noWait, offline: /** @type {any} */ (referee), kept: () => true });
  assert.deepEqual(await api.getMatch("offline-1"), { op: "get" });
  assert.deepEqual(await api.act({ id: "offline-1", version: 3 }, { action: "stock" }), { op: "act" });
  assert.deepEqual(referee.asked.map((a) => a.op), ["get", "act"]);
});

test("with the server unreachable and the game kept, a new match is dealt on the device", async () => {
  const referee = fakeReferee();
  /** @type {string[]} */
  const tried = [];
  const fetch = async (/** @type {string} */ path) => { tried.push(path); throw new TypeError("Failed to fetch"); };
  const api = createTransport({ fetch, ...noWait, offline: /** @type {any} */ (referee), kept: () => true });
  assert.equal(api.playsHere(), false);
  assert.deepEqual(await api.commit(), { commitment: null });
  assert.deepEqual(tried, ["/api/commitments"]); // asked once, no retries: the page goes on at once
  assert.equal(api.playsHere(), true);
  await api.newMatch({ settings: {} });
  assert.deepEqual(tried, ["/api/commitments"]);
  assert.equal(referee.asked.at(-1).op, "new");
});

test("without the game kept, an unreachable server is the error it always was", async () => {
  const referee = fakeReferee();
  const api = createTransport({ fetch: down, ...noWait, offline: /** @type {any} */ (referee), kept: () => false });
  await assert.rejects(api.settings(), (e) => e instanceof ApiError && e.code === "network");
  assert.equal(referee.asked.length, 0);
});

test("the referee's refusals arrive as the server's would", async () => {
  const refusal = { status: 409, body: { error: { code: "stale_version", message: "moved on", params: { version: 1, current: 2 } } } };
  const referee = fakeReferee({ act: refusal });
  const api = createTransport({ fetch: down, ...noWait, offline: /** @type {any} */ (referee), kept: () => true });
  await assert.rejects(api.act({ id: "offline-1", version: 1 }, { action: "stock" }), (e) =>
    e instanceof ApiError && e.status === 409 && e.code === "stale_version" && e.params.current === 2);
});

test("the history lists the server's matches and the device's, newest first", async () => {
  const referee = fakeReferee();
  const fetch = async () => ({ ok: true, status: 200, json: async () => [{ id: "m1", updated_at: "2026-11-30T11:00:00" }, { id: "m0", updated_at: "2026-11-29T09:00:00" }] });
  const api = createTransport({ fetch, ...noWait, offline: /** @type {any} */ (referee), kept: () => true });
  assert.deepEqual((await api.matches()).map((/** @type {any} */ m) => m.id), ["m1", "offline-9", "m0"]);
});

test("a probe that finds no server makes new matches play here at once; one that finds it does not", async () => {
  const referee = fakeReferee();
  /** @type {string[]} */
  const tried = [];
  const down = async (/** @type {string} */ path) => { tried.push(path); throw new TypeError("Failed to fetch"); };
  const offline = createTransport({ fetch: down, ...noWait, offline: /** @type {any} */ (referee), kept: () => true });
  assert.equal(await offline.probe(), false);
  assert.deepEqual(tried, ["/api/health"]); // once, no retries
  assert.equal(offline.playsHere(), true);
  const up = async () => ({ ok: true, status: 200, json: async () => ({ status: "ok" }) });
  const online = createTransport({ fetch: up, ...noWait, offline: /** @type {any} */ (referee), kept: () => true });
  assert.equal(await online.probe(), true);
  assert.equal(online.playsHere(), false);
});
