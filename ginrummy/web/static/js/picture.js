// The table as a picture: pure functions from a table state to what each part shows
// (the hand's groups and cards with their names, the overlap of a row of cards). The
// DOM is drawn from this by table.js; node --test checks it without a browser.

import { points, shownName, sortKey } from "./cards.js";
import { t } from "./messages.js";

/**
 * @typedef {object} CardPicture
 * @property {string} code
 * @property {string[]} classes e.g. "drawn", "locked", "marked"
 * @property {string} label what a screen reader says
 * @property {number | null} pts the points shown on a deadwood card
 */

/**
 * @typedef {object} GroupPicture
 * @property {"row" | "run" | "set" | "deadwood"} kind
 * @property {string} label
 * @property {CardPicture[]} cards
 */

/**
 * A card in the hand: its marks and its name, which starts with what the card shows.
 * @param {any} t the table
 * @param {string} code
 * @param {string | null} marked
 * @param {string | null} [knockCard] the card the Knock button would throw
 * @returns {CardPicture}
 */
export function cardPicture(t, code, marked, knockCard = null) {
  const notes = [];
  const classes = [];
  if (code === t.drawn) { notes.push(tr("card.just_drawn")); classes.push("drawn"); }
  if (code === t.locked) { notes.push(tr("card.locked")); classes.push("locked"); }
  if (code === marked) classes.push("marked");
  // Marked for the eye only: the Knock button's own name already says which card it throws.
  if (code === knockCard) classes.push("knock-card");
  const label = notes.length ? tr("card.with_note", { card: shownName(code), note: notes.join(tr("list.comma")) }) : shownName(code);
  return { code, classes, label, pts: null };
}

// t is also the table's usual name; the catalogue's t goes by tr in this module.
const tr = t;

/**
 * The hand as rows of cards: in the player's order, or grouped in melds and deadwood.
 * @param {any} table the table
 * @param {{grouped: boolean, order: string[], marked: string | null, knockCard?: string | null}} opts
 * @returns {GroupPicture[]}
 */
export function handPicture(table, opts) {
  const { grouped, order, marked } = opts;
  const knockCard = opts.knockCard || null;
  if (!grouped) return [{ kind: "row", label: "", cards: order.map((c) => cardPicture(table, c, marked, knockCard)) }];
  const arrangement = table.arrangement;
  /** @type {GroupPicture[]} */
  const groups = arrangement.melds.map((/** @type {any} */ meld) => ({
    kind: meld.kind,
    label: tr(`meld.${meld.kind}`),
    cards: meld.cards.map((/** @type {string} */ c) => {
      const card = cardPicture(table, c, marked, knockCard);
      card.label = tr(`card.in_${meld.kind}`, { card: card.label });
      return card;
    }),
  }));
  if (arrangement.deadwood.length) {
    const dead = [...arrangement.deadwood].sort((a, b) => sortKey(a) - sortKey(b));
    groups.push({
      kind: "deadwood",
      label: tr("hand.deadwood_label", { points: arrangement.points }),
      cards: dead.map((c) => {
        const card = cardPicture(table, c, marked, knockCard);
        card.pts = points(c);
        card.label = tr("card.in_deadwood", { card: card.label, count: points(c) });
        return card;
      }),
    });
  }
  return groups;
}

/**
 * How far apart the cards of a row stand (the CSS --step is this less the card's width).
 * A loose row overlaps just enough to fit `avail`; grouped melds overlap by half.
 * @param {{n: number, width: number, avail: number, grouped: boolean, gap?: number}} row
 */
export function cardStep({ n, width, avail, grouped, gap = 6 }) {
  let step = width + gap;
  if (grouped) return Math.max(width * 0.3, Math.min(width * 0.5, width + gap));
  if (n > 1 && (n - 1) * step + width > avail) step = Math.max(width * 0.28, (avail - width) / (n - 1));
  return step;
}

/**
 * The knock limit's line: "Knock at 7 or less", "Gin only this hand".
 * @param {number} limit
 */
export function limitText(limit) {
  return limit === 0 ? tr("table.gin_only") : tr("table.knock_limit", { limit });
}

/**
 * The line that tells the player what to do now.
 * @param {any} m the match
 * @param {any} table the table shown
 * @param {{busy: boolean, replaying: boolean, myTurn: boolean, them: string, marked: string | null, learned: (what: string) => boolean, symbol: (code: string) => string, waiting?: boolean, friendOpen?: boolean}} ctx
 *   (`them`: the other seat as a sentence starts with it, "The computer"; `waiting`: the
 *   other seat is a person's, whose move the table waits for; `friendOpen`: nobody took it yet)
 */
export function promptText(m, table, ctx) {
  // An open seat plays nothing: while the deal is shown there, nobody is playing.
  if (ctx.busy) return ctx.replaying && !ctx.friendOpen ? tr("prompt.they_play", { who: ctx.them }) : "";
  if (m.final) return tr("prompt.match_over");
  if (table.phase === "over") return tr("prompt.hand_over");
  if (!ctx.myTurn) {
    // Another person's turn: say who the table waits for (a friend who has not come yet).
    if (ctx.friendOpen) return tr("prompt.waiting_for_friend");
    return tr(ctx.waiting ? "prompt.waiting_for" : "prompt.they_play", { who: ctx.them });
  }
  const top = table.pile.length ? ctx.symbol(table.pile[table.pile.length - 1]) : "";
  if (table.phase === "upcard") return tr(ctx.learned("take") ? "prompt.upcard" : "prompt.upcard_first", { card: top });
  if (table.phase === "draw") {
    if (!table.legal.pile) return tr("prompt.draw_stock");
    return tr(ctx.learned("draw") ? "prompt.draw" : "prompt.draw_first", { card: top });
  }
  if (ctx.marked) {
    const leaves = (table.throws.find((/** @type {any} */ x) => x.card === ctx.marked) || {}).leaves;
    return leaves !== undefined
      ? tr("prompt.throw_marked_leaves", { card: ctx.symbol(ctx.marked), leaves })
      : tr("prompt.throw_marked", { card: ctx.symbol(ctx.marked) });
  }
  return tr(ctx.learned("throw") ? "prompt.throw" : "prompt.throw_first");
}

/**
 * The hint beside the deadwood: what throwing the marked card leaves, or the best throw.
 * @param {any} table
 * @param {{live: boolean, marked: string | null, symbol: (code: string) => string}} ctx
 */
export function throwHint(table, ctx) {
  const hint = ctx.marked && table.throws.find((/** @type {any} */ x) => x.card === ctx.marked);
  if (hint) return tr("hand.throw_hint", { card: ctx.symbol(hint.card), leaves: hint.leaves });
  // In the draw's eleven cards, the count before a throw is not the Knock button's: say the
  // count after the best throw beside it.
  if (ctx.live && table.phase === "discard" && table.throws.length) {
    return tr("hand.best_throw", { leaves: Math.min(...table.throws.map((/** @type {any} */ x) => x.leaves)) });
  }
  return "";
}
