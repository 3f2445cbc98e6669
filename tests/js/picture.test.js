import assert from "node:assert/strict";
import { test } from "node:test";

import { symbol } from "../../ginrummy/web/static/js/cards.js";
import { setCatalogue } from "../../ginrummy/web/static/js/messages.js";
import { cardPicture, cardStep, handPicture, limitText, promptText, throwHint } from "../../ginrummy/web/static/js/picture.js";
import { EN } from "./catalogue.js";

setCatalogue(EN);

const TABLE = {
  hand: ["AS", "2S", "3S", "9C", "9D", "9S", "KC", "QD"],
  drawn: "QD",
  locked: null,
  arrangement: {
    melds: [{ kind: "run", cards: ["AS", "2S", "3S"] }, { kind: "set", cards: ["9C", "9D", "9S"] }],
    deadwood: ["QD", "KC"],
    points: 20,
  },
};

test("a loose row of cards overlaps only when it would not fit", () => {
  assert.equal(cardStep({ n: 10, width: 80, avail: 2000, grouped: false }), 86);
  const step = cardStep({ n: 11, width: 80, avail: 400, grouped: false });
  assert.equal(step, (400 - 80) / 10);
  assert.ok(10 * step + 80 <= 400);
  // Never closer than 28% of a card: the rank stays readable.
  assert.ok(Math.abs(cardStep({ n: 11, width: 100, avail: 150, grouped: false }) - 28) < 1e-9);
  // Grouped melds overlap by half.
  assert.equal(cardStep({ n: 3, width: 80, avail: 100, grouped: true }), 40);
});

test("grouped, the hand shows its melds then its deadwood with points", () => {
  const groups = handPicture(TABLE, { grouped: true, order: TABLE.hand, marked: "KC" });
  assert.deepEqual(groups.map((g) => g.label), ["Run", "Set", "Deadwood 20"]);
  assert.deepEqual(groups[2].cards.map((c) => c.code), ["KC", "QD"]);
  assert.deepEqual(groups[2].cards.map((c) => c.pts), [10, 10]);
  assert.deepEqual(groups[2].cards[0].classes, ["marked"]);
  assert.equal(groups[0].cards[0].label, "A, ace of spades, in a run");
  assert.equal(groups[2].cards[1].label, "Q, queen of diamonds, just drawn, deadwood, 10 points");
});

test("the card the Knock button would throw is marked in the hand", () => {
  const [row] = handPicture(TABLE, { grouped: false, order: ["KC", "AS"], marked: null, knockCard: "KC" });
  assert.deepEqual(row.cards[0].classes, ["knock-card"]);
  assert.equal(row.cards[0].label, "K, king of clubs");
  assert.deepEqual(row.cards[1].classes, []);
});

test("ungrouped, the hand is one row in the player's order", () => {
  const [row] = handPicture({ ...TABLE, locked: "QD", drawn: null }, { grouped: false, order: ["QD", "AS"], marked: null });
  assert.equal(row.kind, "row");
  assert.deepEqual(row.cards.map((c) => c.code), ["QD", "AS"]);
  assert.equal(row.cards[0].label, "Q, queen of diamonds, taken from the pile, cannot be thrown this turn");
  assert.deepEqual(row.cards[0].classes, ["locked"]);
});

test("the knock limit reads as the rules say it", () => {
  assert.equal(limitText(7), "Knock at 7 or less");
  assert.equal(limitText(0), "Gin only this hand");
});

test("the prompt tells the player what to do now", () => {
  const ctx = { busy: false, replaying: false, myTurn: true, them: "The computer", marked: null, learned: () => true, symbol };
  const m = { final: null };
  const t = { phase: "upcard", pile: ["QD"], legal: { pile: false }, throws: [] };
  assert.equal(promptText(m, t, ctx), "Take the Q♦ or pass.");
  assert.equal(promptText(m, t, { ...ctx, learned: () => false }), "Take the Q♦ (that is your draw) or pass.");
  assert.equal(promptText(m, { ...t, phase: "draw", legal: { pile: true } }, ctx), "Draw from the stock, or take the Q♦.");
  assert.equal(promptText(m, { ...t, phase: "draw" }, ctx), "Draw from the stock.");
  const discard = { ...t, phase: "discard", throws: [{ card: "TD", leaves: 12 }] };
  assert.equal(promptText(m, discard, { ...ctx, marked: "TD" }), "Throw the 10♦: click the pile (that leaves 12).");
  assert.equal(promptText(m, discard, ctx), "Throw a card.");
  assert.equal(promptText(m, t, { ...ctx, myTurn: false }), "The computer is playing…");
  assert.equal(promptText(m, t, { ...ctx, busy: true }), "");
  assert.equal(promptText({ final: {} }, t, ctx), "The match is over.");
});

test("at a friend's table the prompt says whose move it waits for", () => {
  const ctx = { busy: false, replaying: false, myTurn: false, them: "Bob", marked: null, learned: () => true, symbol };
  const t = { phase: "draw", pile: ["QD"], legal: { pile: false }, throws: [] };
  assert.equal(promptText({ final: null }, t, { ...ctx, waiting: true }), "Waiting for Bob to move.");
  assert.equal(promptText({ final: null }, t, { ...ctx, waiting: true, friendOpen: true }), "Waiting for your friend to open the invite link.");
  assert.equal(promptText({ final: null }, t, { ...ctx, waiting: true, myTurn: true }), "Draw from the stock.");
  assert.equal(promptText({ final: null }, t, ctx), "Bob is playing…");
  // While moves are shown: Bob's, or only the deal where nobody has taken the seat yet.
  const shown = { ...ctx, busy: true, replaying: true, waiting: true };
  assert.equal(promptText({ final: null }, t, shown), "Bob is playing…");
  assert.equal(promptText({ final: null }, t, { ...shown, friendOpen: true }), "");
});

test("the hint says what a throw leaves", () => {
  const t = { phase: "discard", knock: null, throws: [{ card: "KC", leaves: 10 }, { card: "9D", leaves: 11 }] };
  assert.equal(throwHint(t, { live: true, marked: "9D", symbol }), "throwing the 9♦ leaves 11");
  assert.equal(throwHint(t, { live: true, marked: null, symbol }), "· after the best throw 10");
  // With a knock open too: the eleven cards' count and the Knock button's agree through it.
  assert.equal(throwHint({ ...t, knock: { card: "KC", leaves: 10 } }, { live: true, marked: null, symbol }), "· after the best throw 10");
  assert.equal(throwHint(t, { live: false, marked: null, symbol }), "");
});

test("cards laid off onto a run take their place in it", async () => {
  const { meldWithLayOffs } = await import("../../ginrummy/web/static/js/cards.js");
  const run = { kind: "run", cards: ["5H", "6H", "7H"] };
  const shown = meldWithLayOffs(run, ["4H", "3H", "8H"]);
  assert.deepEqual(shown.map((c) => c.code), ["3H", "4H", "5H", "6H", "7H", "8H"]);
  assert.deepEqual(shown.map((c) => c.laidOff), [true, true, false, false, false, true]);
  const high = meldWithLayOffs({ kind: "run", cards: ["QS", "KS", "AS"] }, ["JS"]);
  assert.deepEqual(high.map((c) => c.code), ["JS", "QS", "KS", "AS"]);
  const set = meldWithLayOffs({ kind: "set", cards: ["9C", "9D", "9S"] }, ["9H"]);
  assert.deepEqual(set.map((c) => c.code), ["9C", "9D", "9S", "9H"]);
});

test("a card's name starts with what its corner shows, for speech input", () => {
  assert.equal(cardPicture(TABLE, "7H", null).label, "7 of hearts");
  assert.equal(cardPicture(TABLE, "TD", null).label, "10 of diamonds");
  assert.equal(cardPicture(TABLE, "JS", null).label, "J, jack of spades");
});
