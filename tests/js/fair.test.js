import assert from "node:assert/strict";
import { webcrypto } from "node:crypto";
import { test } from "node:test";

import { checkProof, dealCheck, dealLine, fairDeck, fairFirstDealer, promise, remember, sawDeal } from "../../ginrummy/web/static/js/fair.js";
import { setCatalogue } from "../../ginrummy/web/static/js/messages.js";
import { EN } from "./catalogue.js";

setCatalogue(EN);
// Node 18 (Debian's) has WebCrypto only as a module; the page finds it as a global.
if (!globalThis.crypto) Object.assign(globalThis, { crypto: webcrypto });

/** A localStorage as the browser's, kept across the "reloads" below. */
const stored = new Map();
Object.assign(globalThis, {
  localStorage: {
    getItem: (/** @type {string} */ k) => (stored.has(k) ? stored.get(k) : null),
    setItem: (/** @type {string} */ k, /** @type {string} */ v) => { stored.set(k, String(v)); },
    removeItem: (/** @type {string} */ k) => { stored.delete(k); },
  },
});

// Made by ginrummy.fairness (fair_deck, commitment and fair_first_dealer) for this seed:
// the page and the server must shuffle and cut alike.
const SEED = "00".repeat(31) + "2a";
const COMMITMENT = "0a28e9ffef0073f9a6a674cf57ee77307f38f0f1bebb087888d9011ed0eeefdf";
const DECK = "QC KH 2C QH 3S AH 8S 8C JS 2H 6H KD 8H 7D TS 3H 4C KS 6C 4H 9H TH 4S 8D 7C TD 6S AD 5C 9S 9C QS 5H JD 5S 4D 3C 2D 7S 9D 2S AS QD 5D JH TC KC 6D JC 7H 3D AC";
const DECK1 = "9H 9D JC JD KC 8S 3S 9S 8D 2S QS AD 8C AH 4C 5H TD JS QD 6D TS 3H 7C 7D 2D QC AC 9C 7H 3D QH 5C 2C 4S 3C 8H 6S 4D JH KD 4H 6C TH 2H TC KH 5D 6H KS AS 7S 5S".split(" ");

/** The first hand's proof as the server sends it once the hand is over (seat 1 dealt). */
const PROOF = { hand: 1, fixed: false, committed: true, first_dealer: 1, commitment: COMMITMENT, client_seed: "page-seed", client_seed_by: "you", server_seed: SEED, deck: DECK1 };
/** What the page remembers of that deal: it holds seat 0, the non-dealer (cards 0, 2, … 18). */
const MINE = { commitment: COMMITMENT, client_seed: "page-seed", seat: 0, dealer: 1, upcard: "TS", hand: "9H JC KC 3S 8D QS 8C 4C TD QD".split(" ") };
/** What the table showed at the hand's end: two stock draws, cards out of the stock. */
const SEEN = { stockCount: 29, cards: [...MINE.hand.slice(1), "3H", "9D", "TS"], stockDraws: ["3H", "7C"] };

test("the page derives the same deck and first dealer from the seeds as the server", async () => {
  assert.equal((await fairDeck(SEED, "page-seed", 3)).join(" "), DECK);
  assert.deepEqual(await fairDeck(SEED, "page-seed", 1), DECK1);
  assert.deepEqual(await Promise.all(["page-seed", "other-seed", "seed-3", "seed-4"].map((c) => fairFirstDealer(SEED, c))), [1, 0, 0, 0]);
});

test("a true proof checks out against everything the page remembers and saw", async () => {
  assert.deepEqual(await checkProof(PROOF, MINE, SEEN), []);
});

test("a forged client seed is refused, even with a deck and dealer made to match it", async () => {
  const deck = await fairDeck(SEED, "other-seed", 1);
  const forged = { ...PROOF, client_seed: "other-seed", deck, first_dealer: 0 };
  assert.deepEqual(await checkProof(forged, MINE), [
    "fair.problem.client_seed_changed", "fair.problem.first_dealer_mismatch", "fair.problem.cards_mismatch"]);
  // Only the seed: still refused.
  assert.deepEqual(await checkProof({ ...forged, first_dealer: null }, { ...MINE, dealer: undefined, hand: undefined, upcard: undefined }),
    ["fair.problem.client_seed_changed"]);
});

test("a forged server seed with its own hash is refused by the remembered commitment", async () => {
  const seed = "11".repeat(32);
  const hash = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", Buffer.from(seed, "hex"))), (b) => b.toString(16).padStart(2, "0")).join("");
  const forged = { ...PROOF, server_seed: seed, commitment: hash, deck: await fairDeck(seed, "page-seed", 1), first_dealer: await fairFirstDealer(seed, "page-seed") };
  const problems = await checkProof(forged, MINE);
  assert.equal(problems[0], "fair.problem.commitment_changed");
  assert.ok(problems.includes("fair.problem.cards_mismatch"));
});

test("a forged deck is refused", async () => {
  const swapped = { ...PROOF, deck: [DECK1[1], DECK1[0], ...DECK1.slice(2)] };
  assert.deepEqual(await checkProof(swapped, MINE, SEEN), ["fair.problem.deck_mismatch"]);
  assert.deepEqual(await checkProof({ ...PROOF, deck: null }, MINE), ["fair.problem.deck_mismatch"]);
});

test("a wrong first dealer is refused, named in the proof or seen at the table", async () => {
  assert.deepEqual(await checkProof({ ...PROOF, first_dealer: 0 }, MINE), ["fair.problem.first_dealer_mismatch"]);
  // The page saw seat 0 deal (and was dealt the dealer's cards): the seeds say seat 1.
  const dealtAsDealer = { ...MINE, dealer: 0, seat: 0, hand: DECK1.filter((_, i) => i < 20 && i % 2 === 1) };
  assert.deepEqual(await checkProof(PROOF, dealtAsDealer), ["fair.problem.first_dealer_mismatch"]);
});

test("cards the page saw that the deck does not put there are refused", async () => {
  assert.deepEqual(await checkProof(PROOF, { ...MINE, hand: [...MINE.hand.slice(1), "9D"] }), ["fair.problem.cards_mismatch"]);
  assert.deepEqual(await checkProof(PROOF, { ...MINE, upcard: "3H" }), ["fair.problem.cards_mismatch"]);
  assert.deepEqual(await checkProof(PROOF, MINE, { ...SEEN, stockDraws: ["7C", "3H"] }), ["fair.problem.cards_mismatch"]);
  assert.deepEqual(await checkProof(PROOF, MINE, { ...SEEN, cards: [...SEEN.cards, "5S"] }), ["fair.problem.cards_mismatch"]);
});

test("the line says checked only when the browser remembers the deal, and flags the rest", async () => {
  assert.match(await dealLine("m-none", PROOF), /^The seeds give this deck .* no record/);
  remember("m1", 1, MINE);
  assert.match(await dealLine("m1", PROOF, { who: (s) => `seat ${s}` }),
    /^✓ Fair deal, checked here: server seed 000000000000…, SHA-256 0a28e9ffef00…, your seed page-seed, first dealer: seat 1 \(drawn from the seeds\)\.$/);
  assert.match(await dealLine("m1", { ...PROOF, first_dealer: 0 }), /does not check out: the first dealer is not the one the seeds give/);
  promise("m2", 1, "f".repeat(64));
  assert.match(await dealLine("m2", PROOF), /does not check out: the commitment differs/);
  const uncommitted = await dealCheck("m1", { ...PROOF, committed: false });
  assert.equal(uncommitted.status, "uncommitted");
  assert.match(uncommitted.text, /^Deal not committed: /);
  assert.match(await dealLine("m1", { ...PROOF, committed: false, server_seed: null, deck: null }), /^Deal not committed: .*SHA-256 0a28e9ffef00…/);
});

test("a deck fixed by a test is never called fair, and a committed deal called fixed is refused", async () => {
  const fixed = { hand: 1, fixed: true, committed: false, first_dealer: null, commitment: null, client_seed: null, client_seed_by: null, server_seed: null, deck: null };
  const unknown = await dealCheck("m-fixed", fixed);
  assert.equal(unknown.status, "fixed");
  assert.match(unknown.text, /^Deal not committed: .*test mode/);
  remember("m-forged", 1, MINE); // this browser was shown a commitment before its seed went
  const forged = await dealCheck("m-forged", fixed);
  assert.equal(forged.status, "bad");
  assert.match(forged.text, /does not check out: the server calls this deal fixed by a test/);
  // A proof that does not say it was committed is not taken as committed.
  const silent = { ...PROOF };
  delete silent.committed;
  assert.equal((await dealCheck("m-forged", silent)).status, "uncommitted");
});

test("what the page remembers survives a reload, and a deal's answer is remembered", async () => {
  remember("m3", 1, { commitment: COMMITMENT, client_seed: "page-seed" });
  sawDeal({ id: "m3", seat: 0, hand_number: 1, events: [{ hand: 1, who: 1, kind: "dealt", card: "TS" }], table: { hand: MINE.hand } });
  // A fresh copy of the module is a reloaded page: it has only localStorage.
  const reloaded = await import("../../ginrummy/web/static/js/fair.js?reload");
  assert.deepEqual(reloaded.remembered("m3", 1), MINE);
  assert.deepEqual(await reloaded.checkDeal("m3", { ...PROOF, client_seed: "forged" }), [
    "fair.problem.client_seed_changed", "fair.problem.deck_mismatch", "fair.problem.first_dealer_mismatch",
    "fair.problem.cards_mismatch"]);
  assert.equal((await reloaded.dealCheck("m3", PROOF)).status, "ok");
});
