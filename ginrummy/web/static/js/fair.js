// The fair deal: the server commits to a secret seed (shows its SHA-256) before this page
// sends its own random seed; the deck is derived from both (docs/FAIRNESS.md). When the
// hand is over the seed is revealed and checked here, with the same steps as the doc's.

import { t } from "./messages.js";

/** @type {Record<string, string>} "matchId/hand" -> the commitment shown before this page's seed went. */
export const promised = {};

/**
 * @param {string} matchId
 * @param {number} hand
 * @param {string} commitment
 */
export function promise(matchId, hand, commitment) {
  promised[`${matchId}/${hand}`] = commitment;
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
 * The deck the two seeds give for a hand (a Fisher-Yates shuffle driven by HMAC-SHA-256).
 * @param {string} serverSeed hex
 * @param {string} clientSeed
 * @param {number} nonce the hand's number
 * @returns {Promise<string[]>}
 */
export async function fairDeck(serverSeed, clientSeed, nonce) {
  const key = await crypto.subtle.importKey(
    "raw", hexBytes(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const cards = [];
  for (const s of "CDHS") for (const r of "A23456789TJQK") cards.push(r + s);
  const text = new TextEncoder();
  for (let i = 51; i > 0; i--) {
    const mac = new Uint8Array(
      await crypto.subtle.sign("HMAC", key, text.encode(`${clientSeed}:${nonce}:${i}`)));
    let n = 0n;
    for (const b of mac) n = (n << 8n) | BigInt(b);
    const j = Number(n % BigInt(i + 1));
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

/**
 * What is wrong with a revealed deal (the catalogue keys, [] when it checks out), or null
 * if this browser cannot check (WebCrypto needs https or localhost).
 * @param {string} matchId
 * @param {any} deal
 * @returns {Promise<string[] | null>}
 */
export async function checkDeal(matchId, deal) {
  if (!globalThis.crypto || !crypto.subtle) return null;
  const problems = [];
  const mine = promised[`${matchId}/${deal.hand}`];
  if (mine && mine !== deal.commitment) problems.push("fair.problem.commitment_changed");
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", hexBytes(deal.server_seed)));
  if (hexOf(digest) !== deal.commitment) problems.push("fair.problem.seed_mismatch");
  const deck = await fairDeck(deal.server_seed, deal.client_seed, deal.hand);
  if (deck.join(" ") !== deal.deck.join(" ")) problems.push("fair.problem.deck_mismatch");
  return problems;
}

/** @param {string} hex */
export function short(hex) {
  return hex.slice(0, 12) + "…";
}

/**
 * The line that tells the player about a deal's proof.
 * @param {string} matchId
 * @param {any} deal
 * @param {(seat: any) => boolean} [isMine] whether a seed's sender is this page's seat
 */
export async function dealLine(matchId, deal, isMine) {
  return (await dealCheck(matchId, deal, isMine)).text;
}

/**
 * A deal's proof checked: how it went ("ok", "bad", "unchecked": this browser cannot
 * check, "fixed": a test's deck, "committed": not revealed yet) and the line saying so.
 * @param {string} matchId
 * @param {any} deal
 * @param {(seat: any) => boolean} [isMine]
 * @returns {Promise<{status: "ok" | "bad" | "unchecked" | "fixed" | "committed", text: string}>}
 */
export async function dealCheck(matchId, deal, isMine = (by) => by === "you") {
  if (deal.fixed) return { status: "fixed", text: t("fair.fixed") };
  if (!deal.server_seed) return { status: "committed", text: t("fair.committed", { hash: short(deal.commitment || "") }) };
  const problems = await checkDeal(matchId, deal);
  const seeds = t("fair.seeds", {
    seed: short(deal.server_seed),
    hash: short(deal.commitment),
    whose: t(isMine(deal.client_seed_by) ? "fair.seed_yours" : "fair.seed_servers"),
    client_seed: deal.client_seed,
  });
  if (problems === null) return { status: "unchecked", text: t("fair.revealed", { seeds }) };
  if (problems.length) return { status: "bad", text: t("fair.bad", { problems: problems.map((k) => t(k)).join(t("fair.problem_separator")) }) };
  return { status: "ok", text: t("fair.checked", { seeds }) };
}
