// Cards flying from one place to another on the table, at the player's chosen speed.

import { back, face } from "./cards.js";
import { rectOf } from "./dom.js";

/** @param {number} ms */
export function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

/**
 * Where a move's card flies: the names of the places it leaves and reaches.
 * @param {string} kind the event's kind
 * @returns {{from: "pile" | "stock" | "side", to: "pile" | "side"} | null}
 */
export function flightOf(kind) {
  if (kind === "take" || kind === "pile") return { from: "pile", to: "side" };
  if (kind === "stock") return { from: "stock", to: "side" };
  if (kind === "discard" || kind === "knock") return { from: "side", to: "pile" };
  return null;
}

/**
 * Fly one move's card across the table.
 * @param {{kind: string, card?: string | null}} ev
 * @param {{ms: number, mine: boolean, stock: HTMLElement, pile: HTMLElement, side: HTMLElement, fromRect?: DOMRect | null}} where
 */
export async function fly(ev, where) {
  let ms = where.ms;
  if (!ms) return;
  const flight = flightOf(ev.kind);
  if (!flight) { await sleep(ms); return; }
  const places = { pile: where.pile, stock: where.stock, side: where.side };
  const from = places[flight.from];
  const to = places[flight.to];
  if (where.mine) ms = Math.round(ms * 0.7);
  const a = where.fromRect || rectOf(from.querySelector("svg") || from);
  const b = rectOf(where.mine && flight.to === "pile" ? where.pile : (to.querySelector(".card-svg:last-child") || to));
  const ghost = document.createElement("div");
  ghost.className = "flying";
  const faceUp = ev.card && ev.kind !== "knock" && (ev.kind !== "stock" || where.mine);
  ghost.appendChild(faceUp && ev.card ? face(ev.card) : back());
  const pileSvg = where.pile.querySelector("svg");
  const w = pileSvg ? rectOf(pileSvg).width : 70;
  ghost.style.width = w + "px";
  ghost.style.left = a.left + a.width / 2 - w / 2 + "px";
  ghost.style.top = a.top + "px";
  document.body.appendChild(ghost);
  const dx = b.left + b.width / 2 - (a.left + a.width / 2);
  const dy = b.top - a.top;
  const anim = ghost.animate(
    [{ transform: "translate(0, 0) rotate(0deg)" }, { transform: `translate(${dx}px, ${dy}px) rotate(${ev.kind === "discard" ? 4 : -3}deg)` }],
    { duration: ms, easing: "cubic-bezier(.3,.7,.4,1)" },
  );
  try { await anim.finished; } catch { /* cancelled */ }
  ghost.remove();
}

/**
 * Whether the table may move: the player's animation speed is not "off" and the system
 * does not ask for reduced motion.
 * @param {number} ms the chosen speed's flight time
 */
export function motionAllowed(ms) {
  const reduce = globalThis.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
  return ms > 0 && !reduce;
}

/**
 * The deal: the cards just drawn on the table come in from the stock one after another,
 * alternating between the two hands as a dealer deals them.
 * @param {{mine: Element[], theirs: Element[], stock: HTMLElement, ms: number}} deal
 */
export async function dealIn({ mine, theirs, stock, ms }) {
  const from = rectOf(stock.querySelector("svg") || stock);
  /** @type {Element[]} */
  const order = [];
  for (let i = 0; i < Math.max(mine.length, theirs.length); i++) {
    if (theirs[i]) order.push(theirs[i]);
    if (mine[i]) order.push(mine[i]);
  }
  const each = Math.round(ms * 0.7);
  const gap = Math.round(ms / 14);
  const runs = order.map((el, k) => {
    const at = rectOf(el);
    const dx = from.left + from.width / 2 - (at.left + at.width / 2);
    const dy = from.top - at.top;
    return el.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(0.8)`, opacity: 0.4 }, { transform: "none", opacity: 1 }],
      { duration: each, delay: k * gap, easing: "cubic-bezier(.3,.7,.4,1)", fill: "backwards", id: "deal" },
    ).finished.then(() => true, () => false);
  });
  await Promise.all(runs);
}

const CONFETTI = ["#f2b636", "#e0513f", "#3f8fe0", "#2fae62", "#ffffff", "#b06fe0"];

/**
 * The match won: a short shower of confetti over the final dialog (decoration only,
 * hidden from screen readers, never in the way of a click).
 * @param {HTMLElement} where the element to shower over (the open dialog)
 * @param {number} [pieces]
 */
export async function celebrate(where, pieces = 48) {
  const box = document.createElement("div");
  box.className = "celebration";
  box.setAttribute("aria-hidden", "true");
  where.appendChild(box);
  const height = window.innerHeight;
  const runs = [];
  for (let i = 0; i < pieces; i++) {
    const bit = document.createElement("span");
    bit.className = "confetti";
    bit.style.left = `${Math.random() * 100}%`;
    bit.style.background = CONFETTI[i % CONFETTI.length];
    box.appendChild(bit);
    const drift = (Math.random() - 0.5) * 160;
    const turn = (Math.random() - 0.5) * 1080;
    runs.push(bit.animate(
      [{ transform: "translate(0, -20px) rotate(0deg)", opacity: 1 },
        { transform: `translate(${drift}px, ${height * 0.9}px) rotate(${turn}deg)`, opacity: 0 }],
      { duration: 1300 + Math.random() * 900, delay: Math.random() * 400, easing: "cubic-bezier(.2,.6,.4,1)", fill: "both", id: "celebrate" },
    ).finished.then(() => true, () => false));
  }
  await Promise.all(runs);
  box.remove();
}
