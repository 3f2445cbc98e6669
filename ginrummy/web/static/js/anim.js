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
