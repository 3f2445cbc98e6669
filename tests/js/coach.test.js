import assert from "node:assert/strict";
import { test } from "node:test";

import { actionPhrase, reasonText } from "../../ginrummy/web/static/js/coach.js";
import { setCatalogue } from "../../ginrummy/web/static/js/messages.js";
import { EN } from "./catalogue.js";

setCatalogue(EN);

/** The coach's reason codes (ginrummy/coach/reasons.py, docs/COACH.md). */
const CODES = ["collects", "dead_pair", "passed_meld", "no_meld", "undercut_risk", "knock_wins", "layoff_spots", "more_deadwood", "overall"];
const PARAMS = { card: "9H", cards: "7H 7C", percent: 40, points: 12, spots: 3, needed: 1 };

test("every reason has words as a mistake, as an explanation and as a hint, all filled in", () => {
  for (const code of CODES) {
    for (const as of /** @type {const} */ (["mistake", "why", "hint"])) {
      const text = reasonText({ code, ...PARAMS }, as);
      assert.ok(!text.includes("{") && !text.startsWith("coach."), `${as} ${code}: ${text}`);
    }
  }
});

test("a reason names its cards by their suit symbols", () => {
  assert.equal(reasonText({ code: "collects", card: "9H", percent: 80 }, "mistake"), "threw 9♥, a card the other player collects (80% of the deals)");
  assert.equal(reasonText({ code: "dead_pair", cards: "7H 7C" }, "why"), "broke the pair 7♥ 7♣: its other cards are gone");
  assert.equal(reasonText({ code: "knock_wins", percent: 88 }, "hint"), "the knock wins 88% of the time");
});

test("an action of the record reads as what was done", () => {
  assert.equal(actionPhrase("discard 7H"), "throw the 7♥");
  assert.equal(actionPhrase("knock 2C [AS 2S 3S] [4D 5D 6D]"), "knock, throwing the 2♣");
  assert.equal(actionPhrase("pile", { top: "QD" }), "take the Q♦ from the pile");
  assert.equal(actionPhrase("stock", { drawn: "AC" }), "draw the A♣ from the stock");
  assert.equal(actionPhrase("stock"), "draw from the stock");
  assert.equal(actionPhrase("pass", { top: "4S" }), "pass on the upcard 4♠");
});
