// Moves by mouse and touch: clicks on the piles, the buttons and the cards, and dragging
// (a card to the pile or within the hand, the stock or the pile to the hand).

import { back, face } from "./cards.js";
import { act, controls, live, nextHand, parts, resort, table } from "./game.js";
import { state } from "./state.js";
import { drawPile, drawStock, knock, markCard, pressPile, reorderTo, throwCard, toggleGroup } from "./moves.js";

/**
 * @typedef {{kind: "card" | "stock" | "pile", code?: string, el: HTMLElement}} DragSource
 */

const drag = {
  /** @type {DragSource | null} */ source: null,
  start: { x: 0, y: 0 },
  offset: { x: 0, y: 0 },
  /** @type {HTMLElement | null} */ ghost: null,
  active: false,
  justDragged: false,
  pointer: -1,
};

/**
 * @param {PointerEvent} e
 * @param {DragSource} source
 */
function startDrag(e, source) {
  if (e.button !== 0 || state.busy) return;
  drag.source = source;
  drag.start = { x: e.clientX, y: e.clientY };
  drag.active = false;
  drag.pointer = e.pointerId;
}

/** @param {PointerEvent} e */
function beginGhost(e) {
  const src = /** @type {DragSource} */ (drag.source);
  const ghost = document.createElement("div");
  ghost.className = "flying dragging-ghost";
  ghost.appendChild(src.kind !== "stock" && src.code ? face(src.code) : back());
  const w = src.el.getBoundingClientRect().width;
  ghost.style.width = w + "px";
  document.body.appendChild(ghost);
  drag.ghost = ghost;
  drag.offset = { x: w / 2, y: w * 0.7 };
  if (src.kind === "card") src.el.classList.add("dragging");
  moveGhost(e);
}

/** @param {PointerEvent} e */
function moveGhost(e) {
  const g = drag.ghost;
  if (!g || !drag.source) return;
  g.style.left = e.clientX - drag.offset.x + "px";
  g.style.top = e.clientY - drag.offset.y + "px";
  const over = dropTarget(e);
  parts.pile.classList.toggle("drop-over", over === "pile");
  parts.hand.classList.toggle("drop-over", over === "hand" && drag.source.kind !== "card");
}

/** @param {PointerEvent} e */
function dropTarget(e) {
  const el = document.elementFromPoint(e.clientX, e.clientY);
  if (!el) return null;
  if (el.closest(".pile-wrap")) return "pile";
  if (el.closest(".mine")) return "hand";
  return null;
}

/** @param {PointerEvent} e */
function endDrag(e) {
  const src = drag.source;
  const wasActive = drag.active;
  drag.source = null;
  if (!src) return;
  if (drag.ghost) drag.ghost.remove();
  drag.ghost = null;
  parts.pile.classList.remove("drop-over");
  parts.hand.classList.remove("drop-over");
  if (src.kind === "card") src.el.classList.remove("dragging");
  if (!wasActive) return;
  drag.justDragged = true;
  setTimeout(() => { drag.justDragged = false; }, 50);
  const target = dropTarget(e);
  if (!table()) return;
  if (src.kind === "card" && src.code) {
    if (target === "pile") throwCard(src.code);
    else if (target === "hand") reorderTo(src.code, e.clientX);
  } else if (target === "hand") {
    if (src.kind === "stock") drawStock();
    else drawPile();
  }
}

function cancelDrag() {
  if (drag.ghost) drag.ghost.remove();
  if (drag.source && drag.source.kind === "card") drag.source.el.classList.remove("dragging");
  drag.ghost = null;
  drag.source = null;
}

/** Listen to the table's buttons, cards and piles. */
export function wirePointer() {
  parts.stock.addEventListener("click", () => { if (!drag.justDragged) drawStock(); });
  parts.pile.addEventListener("click", () => { if (!drag.justDragged) pressPile(); });
  controls.take.addEventListener("click", () => act("take"));
  controls.pass.addEventListener("click", () => act("pass"));
  controls.knock.addEventListener("click", knock);
  controls.bigGin.addEventListener("click", () => act("big_gin"));
  controls.next.addEventListener("click", nextHand);
  controls.group.addEventListener("click", toggleGroup);
  controls.sort.addEventListener("click", resort);

  // A second click on the same card soon after the first throws it. (Counted here, not by
  // the browser's dblclick, because marking re-draws the hand between the two clicks.)
  const lastClick = { code: "", at: 0 };
  parts.hand.addEventListener("click", (e) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest(".card"));
    if (!b || drag.justDragged) return;
    const code = b.dataset.code || "";
    const now = performance.now();
    if (lastClick.code === code && now - lastClick.at < 450) {
      lastClick.code = "";
      throwCard(code);
      return;
    }
    lastClick.code = code;
    lastClick.at = now;
    markCard(code);
    const again = /** @type {HTMLElement | null} */ (parts.hand.querySelector(`[data-code="${code}"]`));
    if (again) again.focus({ preventScroll: true });
  });
  parts.hand.addEventListener("focusin", (e) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest(".card"));
    parts.hand.dataset.hadFocus = "1";
    if (b) state.focus = b.dataset.code || null;
  });
  parts.hand.addEventListener("focusout", () => { parts.hand.dataset.hadFocus = "0"; });

  parts.hand.addEventListener("pointerdown", (e) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest(".card"));
    if (b) startDrag(e, { kind: "card", code: b.dataset.code, el: b });
  });
  parts.stock.addEventListener("pointerdown", (e) => {
    const tb = table();
    if (tb && live(tb) && tb.legal.stock) startDrag(e, { kind: "stock", el: parts.stock });
  });
  parts.pile.addEventListener("pointerdown", (e) => {
    const tb = table();
    if (tb && live(tb) && (tb.legal.pile || tb.legal.take)) startDrag(e, { kind: "pile", code: tb.pile[tb.pile.length - 1], el: parts.pile });
  });
  document.addEventListener("pointermove", (e) => {
    if (!drag.source || e.pointerId !== drag.pointer) return;
    if (!drag.active) {
      const dx = e.clientX - drag.start.x;
      const dy = e.clientY - drag.start.y;
      if (dx * dx + dy * dy < 64) return;
      drag.active = true;
      beginGhost(e);
    }
    e.preventDefault();
    moveGhost(e);
  });
  document.addEventListener("pointerup", (e) => { if (e.pointerId === drag.pointer) endDrag(e); });
  document.addEventListener("pointercancel", cancelDrag);
}
