import assert from "node:assert/strict";
import { test } from "node:test";

import { setCatalogue } from "../../ginrummy/web/static/js/messages.js";
import { ApiError, createTransport, isRepeatable } from "../../ginrummy/web/static/js/transport.js";
import { EN } from "./catalogue.js";

setCatalogue(EN);

/**
 * A fetch that answers from a script: each entry is a [status, body] or "down".
 * @param {any[]} script
 */
function fakeFetch(script) {
  /** @type {{path: string, init: any}[]} */
  const calls = [];
  const fetch = async (/** @type {string} */ path, /** @type {any} */ init) => {
    calls.push({ path, init });
    const next = script.shift();
    if (next === "down") throw new TypeError("Failed to fetch");
    const [status, body] = next;
    return { ok: status < 400, status, json: async () => body };
  };
  return { fetch, calls };
}

const noWait = { sleep: async () => {}, newId: () => "id-1" };

test("a move carries the version it was made on and an action id", async () => {
  const { fetch, calls } = fakeFetch([[200, { version: 4 }]]);
  const api = createTransport({ fetch, ...noWait });
  const after = await api.act({ id: "m1", version: 3 }, { action: "discard", card: "7C" });
  assert.deepEqual(after, { version: 4 });
  assert.equal(calls[0].path, "/api/matches/m1/actions");
  assert.equal(calls[0].init.method, "POST");
  assert.deepEqual(JSON.parse(calls[0].init.body), { version: 3, action: "discard", action_id: "id-1", card: "7C" });
});

test("a move lost on the way is sent again with the same action id", async () => {
  const { fetch, calls } = fakeFetch(["down", [503, null], [200, { version: 4 }]]);
  const waits = [];
  const api = createTransport({ fetch, sleep: async (ms) => { waits.push(ms); }, backoff: 100, newId: () => "id-9" });
  assert.deepEqual(await api.act({ id: "m1", version: 3 }, { action: "stock" }), { version: 4 });
  assert.equal(calls.length, 3);
  assert.deepEqual(calls.map((c) => JSON.parse(c.init.body).action_id), ["id-9", "id-9", "id-9"]);
  assert.deepEqual(waits, [100, 200]);
});

test("a request without an action id is sent once", async () => {
  const { fetch, calls } = fakeFetch(["down", [200, {}]]);
  const api = createTransport({ fetch, ...noWait });
  await assert.rejects(api.commit(), (e) => e instanceof ApiError && e.status === 0 && e.code === "network");
  assert.equal(calls.length, 1);
  assert.ok(!isRepeatable("POST", { version: 1 }));
  assert.ok(isRepeatable("GET", undefined));
});

test("retries stop after the last try", async () => {
  const { fetch, calls } = fakeFetch(["down", "down", "down", "down"]);
  const api = createTransport({ fetch, ...noWait, retries: 2 });
  await assert.rejects(api.getMatch("m1"), (e) => e.code === "network" && e.message === EN["error.network"]);
  assert.equal(calls.length, 3);
});

test("a refusal is not retried and keeps its code and params", async () => {
  const error = { code: "stale_version", message: "the match has moved on", params: { version: 5 } };
  const { fetch, calls } = fakeFetch([[409, { error }], [200, {}]]);
  const api = createTransport({ fetch, ...noWait });
  await assert.rejects(api.act({ id: "m1", version: 3 }, { action: "pass" }), (e) =>
    e.status === 409 && e.code === "stale_version" && e.message === "the match has moved on" && e.params.version === 5);
  assert.equal(calls.length, 1);
});

test("an error answer without a body still says what happened", async () => {
  const { fetch } = fakeFetch([[418, null]]);
  const api = createTransport({ fetch, ...noWait });
  await assert.rejects(api.settings(), (e) => e.code === "http_418" && e.message === "The server could not answer (418): try again in a moment.");
});

test("the next hand sends this page's seed with the version", async () => {
  const { fetch, calls } = fakeFetch([[200, {}]]);
  const api = createTransport({ fetch, ...noWait });
  await api.nextHand({ id: "a b", version: 9 }, "seed");
  assert.equal(calls[0].path, "/api/matches/a%20b/next-hand");
  assert.deepEqual(JSON.parse(calls[0].init.body), { version: 9, client_seed: "seed", action_id: "id-1" });
});
