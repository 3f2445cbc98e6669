import assert from "node:assert/strict";
import { test } from "node:test";

import { setCatalogue } from "../../ginrummy/web/static/js/messages.js";
import { mineFirst, mySeat, seatWord } from "../../ginrummy/web/static/js/seats.js";
import { againBody, choicesOf, formOptions, newMatchBody, valueText, valuesOf } from "../../ginrummy/web/static/js/settings.js";
import { errorText, eventSpoken, eventText, rulesSummary, summaryText } from "../../ginrummy/web/static/js/words.js";
import { EN } from "./catalogue.js";

setCatalogue(EN);

const person = (/** @type {number} */ index, name = null) => ({ index, kind: "person", bot: null, name });
const bot = (/** @type {number} */ index, level = "medium") => ({ index, kind: "bot", bot: level, name: null });
const SETTINGS = { match_to: 100, knocking: "standard", undercut_bonus: 25, gin_bonus: 25, big_gin_bonus: 31, big_gin: false, ace_high: false, game_bonus: false, line_bonus: false, shutout: "off", spades_double: false };
/** The person in seat 0 against Medium, as the page's player sees it. */
const M = { seat: 0, seats: [person(0), bot(1)], settings: SETTINGS };

test("the log and the screen reader say who did what, by seat", () => {
  assert.equal(eventText(M, { who: 0, kind: "discard", card: "KC", hand: 1 }), "You threw the K♣");
  assert.equal(eventText(M, { who: 1, kind: "stock", card: null, hand: 1 }), "Computer drew from the stock");
  assert.equal(eventText(M, { who: 1, kind: "stock", card: "7C", hand: 1 }), "Computer drew the 7♣ from the stock");
  assert.equal(eventText(M, { who: 1, kind: "dealt", card: "QD", hand: 3 }), "Computer dealt hand 3; the upcard is Q♦");
  assert.equal(eventText(M, { who: 0, kind: "knock", card: "9D", deadwood: 4, hand: 1 }), "You knocked with 4, throwing the 9♦");
  assert.equal(eventText(M, { who: 0, kind: "knock", card: "9D", deadwood: 0, hand: 1 }), "You went gin, throwing the 9♦");
  assert.equal(eventSpoken(M, { who: 1, kind: "pile", card: "7C", hand: 1 }), "Computer took the seven of clubs from the pile.");
  assert.equal(eventSpoken(M, { who: 1, kind: "pass", card: null, hand: 1 }), "Computer passed on the upcard.");
});

test("a person in seat 1 is 'you' there, and their score comes first", () => {
  const m = { seat: 1, seats: [bot(0, "hard"), person(1)], settings: SETTINGS };
  assert.equal(eventText(m, { who: 1, kind: "discard", card: "KC", hand: 1 }), "You threw the K♣");
  assert.equal(eventText(m, { who: 0, kind: "discard", card: "KC", hand: 1 }), "Computer threw the K♣");
  assert.deepEqual(mineFirst(m, [10, 25]), [25, 10]);
  assert.equal(rulesSummary(m), "To 100 · Standard knocking (10) · Hard");
});

test("another person is named, and two bots by their levels", () => {
  const friends = { seat: 0, seats: [person(0), person(1, "Asha")], settings: SETTINGS };
  assert.equal(seatWord(friends, 1, "subject"), "Asha");
  assert.equal(seatWord({ seat: 0, seats: [person(0), person(1)] }, 1), "Player 2");
  const demo = { seat: null, seats: [bot(0, "easy"), bot(1, "hard")], settings: SETTINGS };
  assert.equal(eventText(demo, { who: 0, kind: "pass", card: null, hand: 1 }), "Easy (seat 1) passed on the upcard");
  assert.equal(rulesSummary(demo), "To 100 · Standard knocking (10) · Easy vs Hard");
  // A history line has no seat: the person's seat is the requester's.
  assert.equal(mySeat({ seats: [bot(0), person(1)] }), 1);
});

test("a hand's result reads as one sentence", () => {
  const entry = { kind: "knock", knocker: 0, winner: 0, points: 26, knocker_points: 4, defender_points: 30, multiplier: 1 };
  assert.equal(summaryText(M, entry), "You knocked with 4; the computer had 30. You score 26.");
  const undercut = { ...entry, kind: "undercut", knocker: 1, winner: 0, points: 29, knocker_points: 8, defender_points: 4, multiplier: 2 };
  assert.equal(summaryText(M, undercut),
    "The computer knocked with 8; you had 4: undercut! You score 29 (doubled: the first upcard was a spade).");
  const gin = { ...entry, kind: "gin", knocker: 1, winner: 1, points: 55, defender_points: 30 };
  assert.equal(summaryText(M, gin), "The computer went gin; you had 30. The computer scores 55.");
  assert.equal(summaryText(M, { kind: "dead" }), "Dead hand: two cards left in the stock, nobody scores.");
});

test("the rules' summary names what differs from the standard", () => {
  const s = { ...SETTINGS, match_to: 250, knocking: "oklahoma", gin_bonus: 20, big_gin: true, shutout: "plus_100", spades_double: true, game_bonus: true };
  assert.equal(rulesSummary({ ...M, settings: s }),
    "To 250 · Oklahoma knocking · Medium · gin 20 · big gin (31) · game bonus · shutout +100 · spades double");
});

test("errors are the catalogue's words with their params, else the server's message", () => {
  assert.equal(errorText({ code: "knock_too_high", message: "x", params: { deadwood: 14, limit: 10 } }),
    "Your best throw leaves 14 deadwood; a knock needs 10 or less.");
  assert.equal(errorText({ code: "card_just_taken", message: "x", params: { card: "QD" } }),
    "The Q♦ was just taken from the pile: it can't be thrown this turn.");
  assert.equal(errorText({ code: "record_deck", message: "x", params: { hand: 2, reason: "bad_deck" } }),
    "Hand 2 of the record, its deck: A deck holds each of the 52 cards exactly once.");
  assert.equal(errorText({ code: "stale_version", message: "x", params: {} }), EN["error.stale_version"]);
  assert.equal(errorText({ code: "something_new", message: "The server's own words.", params: {} }), "The server's own words.");
});

test("the form shows the bot's level where Difficulty was, and sends it as the seat's", () => {
  const raw = { settings: [{ name: "match_to" }, { name: "gin_bonus" }, { name: "big_gin" }], bots: ["easy", "medium", "hard"] };
  const form = formOptions(raw);
  assert.deepEqual(form.options.map((o) => o.name), ["match_to", "gin_bonus", "difficulty", "big_gin"]);
  assert.deepEqual(newMatchBody({ match_to: 50, difficulty: "hard" }),
    { settings: { match_to: 50 }, seats: [{ kind: "person" }, { kind: "bot", bot: "hard" }] });
  const m = { settings: { match_to: 50 }, seats: [person(0), bot(1, "easy")] };
  assert.deepEqual(againBody(m), { settings: { match_to: 50 }, seats: [{ kind: "person" }, { kind: "bot", bot: "easy" }] });
  // Against a friend: a new friend match, with a new link to send (the player's name kept).
  const friends = { settings: { match_to: 50 }, seat: 1, seats: [{ kind: "person", name: "Ann" }, { kind: "person", name: "Bob" }] };
  assert.deepEqual(againBody(friends), { settings: { match_to: 50 }, seats: [{ kind: "person", name: "Bob" }, { kind: "friend" }] });
  assert.deepEqual(valuesOf(m), { match_to: 50, difficulty: "easy" });
});

test("the settings' choices are plain values, worded by the catalogue", () => {
  const knocking = { name: "knocking", kind: "choice", default: "standard", choices: ["standard", "oklahoma"], house_rule: false };
  assert.deepEqual(choicesOf(knocking), [["standard", EN["setting.knocking.standard"]], ["oklahoma", EN["setting.knocking.oklahoma"]]]);
  assert.equal(valueText(knocking, "oklahoma"), EN["setting.knocking.oklahoma"]);
  // The bot's level is a seat's, never a setting: a new match sends it in `seats`.
  assert.deepEqual(formOptions({ settings: [knocking], bots: ["easy", "medium", "hard"] }).options.map((o) => o.name), ["knocking", "difficulty"]);
  assert.deepEqual(newMatchBody({ knocking: "standard", difficulty: "easy" }),
    { settings: { knocking: "standard" }, seats: [{ kind: "person" }, { kind: "bot", bot: "easy" }] });
});

test("the defender of a hand is the seat other than the knocker", () => {
  const entry = { kind: "undercut", knocker: 1, winner: 0, points: 27, knocker_points: 8, defender_points: 6, multiplier: 1 };
  assert.equal(summaryText(M, entry), "The computer knocked with 8; you had 6: undercut! You score 27.");
});

test("no module of the page names a player by role: the wire has seats", async () => {
  const { readdir, readFile } = await import("node:fs/promises");
  const roots = ["ginrummy/web/static/js", "ginrummy/web/static/learn"];
  for (const root of roots) {
    for (const file of (await readdir(root)).filter((f) => f.endsWith(".js"))) {
      const src = await readFile(`${root}/${file}`, "utf8");
      // fair.js: a proof's `client_seed_by` is "you" | "server" (who made the client seed).
      const roles = file === "fair.js" ? [] : src.match(/[=!]==\s*"(you|computer)"|"(you|computer)"\s*[=!]==/g) || [];
      assert.deepEqual(roles, [], `${root}/${file} compares with a role name`);
      assert.doesNotMatch(src, /settings_summary|\.difficulty\b|before seats/, `${root}/${file} reads the wire from before seats`);
    }
  }
});
