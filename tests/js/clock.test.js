import assert from "node:assert/strict";
import { test } from "node:test";

import { autoNews, clockLength, clockLine, clockNews, countdown } from "../../ginrummy/web/static/js/clock.js";
import { setCatalogue } from "../../ginrummy/web/static/js/messages.js";
import { againBody } from "../../ginrummy/web/static/js/settings.js";
import { rulesSummary } from "../../ginrummy/web/static/js/words.js";
import { EN } from "./catalogue.js";

setCatalogue(EN);

const SETTINGS = { match_to: 100, knocking: "standard", undercut_bonus: 25, gin_bonus: 25, big_gin_bonus: 31, big_gin: false, ace_high: false, game_bonus: false, line_bonus: false, shutout: "off", spades_double: false };
const person = (/** @type {number} */ index, /** @type {string} */ name) => ({ index, kind: "person", bot: null, name });
/** Ann's view of her friend match with Bob, Bob's clock running. */
const clock = (/** @type {string} */ expiry, /** @type {number | null} */ seat) => ({
  seat: 0, seats: [person(0, "Ann"), person(1, "Bob")], settings: SETTINGS,
  clock: { seconds: 60, expiry, seat, deadline: "2026-11-30T16:00:00.000+00:00", left_ms: 42000, auto: false },
});

test("the clock's length and countdown are written as a player reads them", () => {
  assert.equal(clockLength(30), "30 s");
  assert.equal(clockLength(120), "2 min");
  assert.equal(countdown(65000), "1:05");
  assert.equal(countdown(8200), "0:09");
  assert.equal(countdown(-5), "0:00");
  assert.equal(rulesSummary(clock("ask", 1)), "To 100 · Standard knocking (10) · 1 min a turn");
  assert.match(rulesSummary(clock("timed", 1)), /timed, 1 min a turn$/);
});

test("both seats see whose clock runs, and time up says who may do what", () => {
  assert.deepEqual(clockLine(clock("ask", 1), 42000), { text: "Bob to move: 0:42", state: "" });
  assert.deepEqual(clockLine(clock("ask", 0), 9000), { text: "Your move: 0:09", state: "low" });
  assert.equal(clockLine(clock("ask", 0), 0)?.text, "Time's up! It is still your move.");
  assert.equal(clockLine(clock("ask", 1), 0)?.text, "Bob's time is up. You may wait.");
  assert.equal(clockLine(clock("timed", 1), 0)?.text, "Bob's time is up: the server is playing that turn.");
  assert.equal(clockLine(clock("ask", null), 0), null, "no clock runs between hands");
});

test("a screen reader hears the clock at a few moments, not every second", () => {
  const mine = clock("ask", 0);
  assert.equal(clockNews(mine, 30000, 29000), "");
  assert.equal(clockNews(mine, 10400, 9900), "10 seconds left to move.");
  assert.equal(clockNews(mine, 9900, 8900), "");
  assert.equal(clockNews(mine, 200, 0), "Time's up! It is still your move.");
  assert.equal(clockNews(clock("ask", 1), 10400, 9900), "", "the other's low time is not announced");
  assert.equal(autoNews(mine, 1), "Bob's time ran out: the server played that turn.");
  assert.equal(autoNews(mine, 0), "Your time ran out: the server played your turn.");
});

test("play again against a friend keeps the move clock", () => {
  const m = { ...clock("timed", 1), seat: 1 };
  assert.deepEqual(againBody(m).clock, { seconds: 60, expiry: "timed" });
  assert.equal(againBody({ ...m, clock: null }).clock, undefined);
});
