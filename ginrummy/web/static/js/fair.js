// The fair deal: the server commits to a secret seed (shows its SHA-256) before this page
// sends its own random seed; the deck and the first dealer are derived from both
// (docs/FAIRNESS.md). When the hand is over the seed is revealed and checked here, with the
// same steps as the doc's, against what this page remembers: the commitment it saw, the
// seed it sent and the cards it was dealt. It remembers them in this browser
// (localStorage, one entry per match), so a reload or another page checks them as well.

import { t } from "./messages.js";

/** @typedef {{commitment?: string, client_seed?: string, seat?: number, dealer?: number, hand?: string[], upcard?: string}} Remembered */
/** @typedef {{stockCount: number, cards: string[], stockDraws: string[]}} SeenAtEnd */

const PREFIX = "ginrummy.fair.";

/** @type {Record<string, Record<string, Remembered>>} the same, where localStorage is refused */
const kept = {};

/**
 * What this browser remembers of a match's deals, by hand number.
 * @param {string} matchId
 * @returns {Record<string, Remembered>}
 */
function entry(matchId) {
  try {
    const stored = globalThis.localStorage && localStorage.getItem(PREFIX + matchId);
    if (stored) return { ...JSON.parse(stored), ...kept[matchId] };
  } catch { /* private mode, or not JSON: what this page kept */ }
  return { ...kept[matchId] };
}

/**
 * Remember facts about a hand's deal (merged with what is remembered already).
 * @param {string} matchId
 * @param {number} hand
 * @param {Remembered} facts
 */
export function remember(matchId, hand, facts) {
  const all = entry(matchId);
  all[hand] = { ...all[hand], ...facts };
  kept[matchId] = all;
  try {
    if (globalThis.localStorage) localStorage.setItem(PREFIX + matchId, JSON.stringify(all));
  } catch { /* private mode or full: kept for this page only */ }
}

/**
 * What this browser remembers of a hand's deal, or null.
 * @param {string} matchId
 * @param {number} hand
 * @returns {Remembered | null}
 */
export function remembered(matchId, hand) {
  return entry(matchId)[hand] || null;
}

/**
 * The commitment shown before this page's seed for the hand went.
 * @param {string} matchId
 * @param {number} hand
 * @param {string} commitment
 */
export function promise(matchId, hand, commitment) {
  remember(matchId, hand, { commitment });
}

/**
 * Remember what a deal gave this page's seat, from the answer that dealt it (before the
 * seat moved): who dealt, the upcard and the seat's ten cards.
 * @param {any} m
 */
export function sawDeal(m) {
  if (m.seat === null || m.seat === undefined) return;
  const dealt = m.events.find((/** @type {any} */ e) => e.kind === "dealt" && e.hand === m.hand_number);
  if (!dealt) return;
  remember(m.id, m.hand_number, { seat: m.seat, dealer: dealt.who, upcard: dealt.card, hand: [...m.table.hand] });
}

/**
 * What the table shows of a hand ended by a knock or gin: every card out of the stock the
 * page sees, and the stock's draws in order.
 * @param {any} table
 * @param {number} hand
 * @returns {SeenAtEnd}
 */
export function seenAtEnd(table, hand) {
  return {
    stockCount: table.stock_count,
    cards: [...table.hand, ...(table.opponent_hand || []), ...table.pile],
    stockDraws: table.log.filter((/** @type {any} */ e) => e.hand === hand && e.kind === "stock" && e.card).map((/** @type {any} */ e) => e.card),
  };
}

/** @param {string} hex */
function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

/** @param {Uint8Array} bytes */
function hexOf(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * HMAC-SHA-256 of a text keyed with the server seed, as a big number.
 * @param {CryptoKey} key
 * @param {string} text
 */
async function macNumber(key, text) {
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text)));
  let n = 0n;
  for (const b of mac) n = (n << 8n) | BigInt(b);
  return n;
}

/** @param {string} serverSeed hex */
function seedKey(serverSeed) {
  return crypto.subtle.importKey("raw", hexBytes(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/**
 * The deck the two seeds give for a hand (a Fisher-Yates shuffle driven by HMAC-SHA-256).
 * @param {string} serverSeed hex
 * @param {string} clientSeed
 * @param {number} nonce the hand's number
 * @returns {Promise<string[]>}
 */
export async function fairDeck(serverSeed, clientSeed, nonce) {
  const key = await seedKey(serverSeed);
  const cards = [];
  for (const s of "CDHS") for (const r of "A23456789TJQK") cards.push(r + s);
  for (let i = 51; i > 0; i--) {
    const j = Number((await macNumber(key, `${clientSeed}:${nonce}:${i}`)) % BigInt(i + 1));
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

/**
 * The seat that deals a match's first hand, from the first hand's two seeds.
 * @param {string} serverSeed hex
 * @param {string} clientSeed
 */
export async function fairFirstDealer(serverSeed, clientSeed) {
  return Number((await macNumber(await seedKey(serverSeed), `${clientSeed}:cut`)) % 2n);
}

/**
 * The ten cards a deck deals to a seat: card 0 to the non-dealer, card 1 to the dealer…
 * @param {string[]} deck
 * @param {number} seat
 * @param {number} dealer
 */
function dealtTo(deck, seat, dealer) {
  const first = seat === dealer ? 1 : 0;
  return Array.from({ length: 10 }, (_, k) => deck[2 * k + first]);
}

/** @param {string[]} a @param {string[]} b */
function sameCards(a, b) {
  return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" ");
}

/**
 * What is wrong with a revealed deal, as catalogue keys ([] when it checks out). Pure but
 * for WebCrypto: `mine` is what this browser remembers of the deal (the commitment shown
 * before its seed went, the seed, the seat, dealer, upcard and ten cards it was dealt),
 * `seen` what the table showed when the hand ended. Each is checked when known.
 * @param {any} deal the proof
 * @param {Remembered | null} mine
 * @param {SeenAtEnd | null} [seen]
 * @returns {Promise<string[]>}
 */
export async function checkProof(deal, mine, seen = null) {
  const problems = [];
  if (mine && mine.commitment && mine.commitment !== deal.commitment) problems.push("fair.problem.commitment_changed");
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", hexBytes(deal.server_seed)));
  if (hexOf(digest) !== deal.commitment) problems.push("fair.problem.seed_mismatch");
  if (mine && mine.client_seed && mine.client_seed !== deal.client_seed) problems.push("fair.problem.client_seed_changed");
  const deck = await fairDeck(deal.server_seed, deal.client_seed, deal.hand);
  if (!Array.isArray(deal.deck) || deck.join(" ") !== deal.deck.join(" ")) problems.push("fair.problem.deck_mismatch");
  if (deal.hand === 1) {
    const first = await fairFirstDealer(deal.server_seed, deal.client_seed);
    const named = deal.first_dealer !== null && deal.first_dealer !== undefined && deal.first_dealer !== first;
    const dealt = mine && mine.dealer !== undefined && mine.dealer !== first;
    if (named || dealt) problems.push("fair.problem.first_dealer_mismatch");
  }
  // The cards this page saw must be where the deck the seeds give puts them.
  let cards = true;
  if (mine && mine.hand && mine.seat !== undefined && mine.dealer !== undefined) {
    cards = sameCards(mine.hand, dealtTo(deck, mine.seat, mine.dealer));
  }
  if (mine && mine.upcard && mine.upcard !== deck[20]) cards = false;
  if (seen) {
    const dealtOut = new Set(deck.slice(0, 52 - seen.stockCount));
    if (!seen.cards.every((c) => dealtOut.has(c))) cards = false;
    if (!seen.stockDraws.every((c, k) => deck[21 + k] === c)) cards = false;
  }
  if (!cards) problems.push("fair.problem.cards_mismatch");
  return problems;
}

/**
 * What is wrong with a revealed deal (the catalogue keys, [] when it checks out), or null
 * if this browser cannot check (WebCrypto needs https or localhost).
 * @param {string} matchId
 * @param {any} deal
 * @param {SeenAtEnd | null} [seen]
 * @returns {Promise<string[] | null>}
 */
export async function checkDeal(matchId, deal, seen = null) {
  if (!globalThis.crypto || !crypto.subtle) return null;
  return checkProof(deal, remembered(matchId, deal.hand), seen);
}

/** @param {string} hex */
export function short(hex) {
  return hex.slice(0, 12) + "…";
}

/**
 * @typedef {object} CheckOptions
 * @property {(by: any) => boolean} [isMine] whether a seed's sender is this page's seat
 * @property {(seat: number) => string} [who] a seat's name
 * @property {SeenAtEnd | null} [seen] what the table showed at the hand's end
 */

/**
 * The line that tells the player about a deal's proof.
 * @param {string} matchId
 * @param {any} deal
 * @param {CheckOptions} [options]
 */
export async function dealLine(matchId, deal, options) {
  return (await dealCheck(matchId, deal, options)).text;
}

/** @typedef {"ok" | "bad" | "unchecked" | "fixed" | "committed" | "uncommitted" | "partly"} CheckStatus */

/**
 * A deal's proof checked, and the line saying so. "ok": every check passed against what
 * this browser remembers; "partly": the seeds give the deck, but this browser has no record
 * of the deal's commitment and seed; "uncommitted": no commitment was shown before the
 * seed went (or the proof does not say it was); "bad": a check failed; "unchecked": this
 * browser cannot check; "fixed": a test server's deck, not dealt under a commitment (shown
 * "not committed"; "bad" if this browser was shown a commitment for it); "committed": not
 * revealed yet.
 * @param {string} matchId
 * @param {any} deal
 * @param {CheckOptions} [options]
 * @returns {Promise<{status: CheckStatus, text: string}>}
 */
export async function dealCheck(matchId, deal, options = {}) {
  const { isMine = (/** @type {any} */ by) => by === "you", who = (seat) => t("seat.player", { number: seat + 1 }), seen = null } = options;
  if (deal.fixed) {
    // A deck fixed by a test server is not dealt from committed seeds: never "fair". If this
    // browser was shown a commitment for the deal, the claim is a forgery.
    const mine = remembered(matchId, deal.hand);
    if (mine && mine.commitment) return { status: "bad", text: t("fair.bad", { problems: t("fair.problem.fixed_after_commitment") }) };
    return { status: "fixed", text: t("fair.fixed") };
  }
  if (!deal.server_seed) {
    const key = deal.committed !== true ? "fair.uncommitted_pending" : "fair.committed";
    return { status: "committed", text: t(key, { hash: short(deal.commitment || "") }) };
  }
  const problems = await checkDeal(matchId, deal, seen);
  let seeds = t("fair.seeds", {
    seed: short(deal.server_seed),
    hash: short(deal.commitment),
    whose: t(isMine(deal.client_seed_by) ? "fair.seed_yours" : "fair.seed_servers"),
    client_seed: deal.client_seed,
  });
  if (deal.first_dealer !== null && deal.first_dealer !== undefined) {
    seeds += t("fair.first_dealer", { who: who(deal.first_dealer) });
  }
  if (problems === null) return { status: "unchecked", text: t("fair.revealed", { seeds }) };
  if (problems.length) return { status: "bad", text: t("fair.bad", { problems: problems.map((k) => t(k)).join(t("fair.problem_separator")) }) };
  if (deal.committed !== true) return { status: "uncommitted", text: t("fair.uncommitted", { seeds }) };
  const mine = remembered(matchId, deal.hand);
  if (!mine || !mine.commitment || !mine.client_seed) return { status: "partly", text: t("fair.partly", { seeds }) };
  return { status: "ok", text: t("fair.checked", { seeds }) };
}
