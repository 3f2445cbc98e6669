import assert from "node:assert/strict";
import { test } from "node:test";

import { applyPublic, canAct, currentTable, dealtPublic, handOrder, knockChoice, moved, replayStart, sortCards } from "../../ginrummy/web/static/js/state.js";

const theirs = (/** @type {any} */ who) => who === 1;

test("the other seat's draws and throws change what everyone sees", () => {
  const pub = dealtPublic("QD");
  applyPublic(pub, { who: 1, kind: "take", card: "QD" }, theirs);
  assert.deepEqual(pub, { pile: [], stock_count: 31, opponent_count: 11, opponent_pile_cards: ["QD"] });
  applyPublic(pub, { who: 1, kind: "discard", card: "QD" }, theirs);
  assert.deepEqual(pub, { pile: ["QD"], stock_count: 31, opponent_count: 10, opponent_pile_cards: [] });
  applyPublic(pub, { who: 0, kind: "stock", card: "7C" }, theirs);
  assert.equal(pub.stock_count, 30);
  assert.equal(pub.opponent_count, 10);
  applyPublic(pub, { who: 1, kind: "stock", card: null }, theirs);
  assert.equal(pub.opponent_count, 11);
  applyPublic(pub, { who: 1, kind: "knock", card: "9S" }, theirs);
  assert.equal(pub.opponent_count, 10);
});

test("a replay starts from the deal on a new hand and from the last table otherwise", () => {
  const after = { hand_number: 2, events: [{ kind: "dealt", hand: 2 }, { kind: "pass", hand: 2 }], table: { first_upcard: "5H", log: [{}, {}] } };
  const start = replayStart({ hand_number: 1, table: {} }, after);
  assert.deepEqual(start.pub, dealtPublic("5H"));
  assert.equal(start.logCount, 0);
  const before = { hand_number: 2, table: { pile: ["5H"], stock_count: 30, opponent_count: 10, opponent_pile_cards: [] } };
  const next = { hand_number: 2, events: [{ kind: "stock", hand: 2 }], table: { log: [{}, {}, {}] } };
  const again = replayStart(before, next);
  assert.equal(again.pub.stock_count, 30);
  assert.equal(again.logCount, 2);
});

test("while moves play, the table shows the public state and no revealed hand", () => {
  const m = { table: { hand: ["AS"], opponent_hand: ["KC"], log: [1, 2, 3], pile: ["QD"], stock_count: 20 } };
  const shown = currentTable(m, { pub: dealtPublic("QD"), logCount: 1 });
  assert.equal(shown.opponent_hand, null);
  assert.deepEqual(shown.log, [1]);
  assert.equal(shown.stock_count, 31);
  assert.equal(currentTable(m, null), m.table);
});

test("the player acts only on their own turn, when nothing is under way", () => {
  const t = { to_act: 0, phase: "draw" };
  assert.ok(canAct(t, false, 0));
  assert.ok(!canAct(t, true, 0));
  assert.ok(!canAct({ ...t, to_act: 1 }, false, 0));
  assert.ok(!canAct({ ...t, phase: "over" }, false, 0));
  assert.ok(canAct({ to_act: 1, phase: "discard" }, false, 1));
});

test("knock throws the marked card if it can knock, else the best one", () => {
  const t = { phase: "discard", knock: { card: "KC", leaves: 4 }, legal: { knock: [{ card: "KC", leaves: 4 }, { card: "9D", leaves: 9 }] } };
  assert.deepEqual(knockChoice(t, true, null), { card: "KC", leaves: 4 });
  assert.deepEqual(knockChoice(t, true, "9D"), { card: "9D", leaves: 9 });
  assert.deepEqual(knockChoice(t, true, "2H"), { card: "KC", leaves: 4 });
  assert.equal(knockChoice(t, false, null), null);
  assert.equal(knockChoice({ ...t, knock: null }, true, null), null);
});

test("the hand keeps the player's order and puts new cards last, sorted", () => {
  assert.deepEqual(sortCards(["KS", "AC", "2H"], "suit"), ["AC", "2H", "KS"]);
  assert.deepEqual(sortCards(["KS", "AC", "2H"], "rank"), ["AC", "2H", "KS"]);
  assert.deepEqual(sortCards(["2C", "AH", "AC"], "rank"), ["AC", "AH", "2C"]);
  assert.deepEqual(handOrder(["AC", "2H", "KS", "QD"], ["KS", "AC", "9S", "2H"], "suit"), ["KS", "AC", "2H", "QD"]);
  assert.deepEqual(handOrder(["KS", "AC"], null, "suit"), ["AC", "KS"]);
});

test("a card moves one place in the order, never off its ends", () => {
  assert.deepEqual(moved(["a", "b", "c"], "b", 1), ["a", "c", "b"]);
  assert.deepEqual(moved(["a", "b", "c"], "a", -1), null);
  assert.deepEqual(moved(["a", "b", "c"], "c", 1), null);
});
