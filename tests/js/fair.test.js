import assert from "node:assert/strict";
import { webcrypto } from "node:crypto";
import { test } from "node:test";

import { checkDeal, dealLine, fairDeck, promise } from "../../ginrummy/web/static/js/fair.js";
import { setCatalogue } from "../../ginrummy/web/static/js/messages.js";
import { EN } from "./catalogue.js";

setCatalogue(EN);
// Node 18 (Debian's) has WebCrypto only as a module; the page finds it as a global.
if (!globalThis.crypto) Object.assign(globalThis, { crypto: webcrypto });

// Made by ginrummy.fairness (fair_deck and commitment) for this seed: the page and the
// server must shuffle alike.
const SEED = "00".repeat(31) + "2a";
const COMMITMENT = "0a28e9ffef0073f9a6a674cf57ee77307f38f0f1bebb087888d9011ed0eeefdf";
const DECK = "QC KH 2C QH 3S AH 8S 8C JS 2H 6H KD 8H 7D TS 3H 4C KS 6C 4H 9H TH 4S 8D 7C TD 6S AD 5C 9S 9C QS 5H JD 5S 4D 3C 2D 7S 9D 2S AS QD 5D JH TC KC 6D JC 7H 3D AC";

test("the page derives the same deck from the seeds as the server", async () => {
  assert.equal((await fairDeck(SEED, "page-seed", 3)).join(" "), DECK);
});

test("a revealed deal checks out, and a changed one does not", async () => {
  const deal = { hand: 3, server_seed: SEED, client_seed: "page-seed", commitment: COMMITMENT, deck: DECK.split(" "), client_seed_by: "you" };
  assert.deepEqual(await checkDeal("m1", deal), []);
  assert.match(await dealLine("m1", deal), /^✓ Fair deal, checked here: server seed 000000000000…, SHA-256 0a28e9ffef00…, your seed page-seed\.$/);
  const swapped = { ...deal, deck: [...deal.deck.slice(1), deal.deck[0]] };
  assert.deepEqual(await checkDeal("m1", swapped), ["fair.problem.deck_mismatch"]);
  promise("m2", 3, "f".repeat(64));
  assert.deepEqual(await checkDeal("m2", deal), ["fair.problem.commitment_changed"]);
  assert.match(await dealLine("m2", deal), /does not check out: the commitment differs/);
});
