// One table view for the game and the worked hand: builds the felt (the other seat's
// hand, the stock and the pile, the player's hand) and draws a table state on it. The
// game's table is live (its cards and piles are buttons); the worked hand's is a picture.

import { back, face, mini, name } from "./cards.js";
import { h } from "./dom.js";
import { num, t, tNodes } from "./messages.js";
import { cardStep, handPicture } from "./picture.js";

/**
 * @typedef {object} TableParts the elements a drawing fills in
 * @property {HTMLElement} root
 * @property {HTMLElement} oppName
 * @property {HTMLElement} oppCount
 * @property {HTMLElement} oppDealer
 * @property {HTMLElement} oppCards
 * @property {HTMLElement} oppTakenWrap
 * @property {HTMLElement} oppTaken
 * @property {HTMLElement} stock
 * @property {HTMLElement} stockCard
 * @property {HTMLElement} stockCount
 * @property {HTMLElement} pile
 * @property {HTMLElement} pileCard
 * @property {HTMLElement} pileCount
 * @property {HTMLElement} myName
 * @property {HTMLElement | null} myDealer
 * @property {HTMLElement} deadwood
 * @property {HTMLElement} deadwoodCount
 * @property {HTMLElement | null} throwHint
 * @property {HTMLElement} hand
 * @property {boolean} live
 */

/**
 * @typedef {object} TableOptions
 * @property {string} [prefix] put before every id ("w-" for the worked hand)
 * @property {boolean} [live] the game's table: piles and cards are buttons
 * @property {string} [middleClass] the class of the row with the piles
 * @property {Node[]} [middle] what stands beside the piles (prompt and log, or the status)
 * @property {Node[]} [beforeMine] what stands above the player's hand
 * @property {Node[]} [tools] the buttons in the hand's bar
 */

/**
 * Build the table's elements inside `root` (its old content goes).
 * @param {HTMLElement} root
 * @param {TableOptions} [opts]
 * @returns {TableParts}
 */
export function buildTable(root, opts = {}) {
  const p = opts.prefix || "";
  const live = Boolean(opts.live);
  const id = (/** @type {string} */ s) => p + s;
  const oppName = h("span", { className: "name" }, t("seat.bot.label"));
  const oppCount = h("span", { id: id("opp-count"), className: "count" });
  const oppDealer = h("span", { id: id("opp-dealer"), className: "dealer-chip", hidden: true }, t("table.dealer"));
  const oppCards = h("div", { className: "opp-cards", id: id("opp-cards"), "aria-hidden": "true" });
  const oppTaken = h("span", { className: "opp-taken-cards", id: id("opp-taken") });
  const oppTakenWrap = h("div", { className: "opp-taken", id: id("opp-taken-wrap"), hidden: true },
    h("span", { className: "muted small-label" }, t("table.holding_from_pile")), "\n", oppTaken);
  const opponent = h("div", { className: "opponent", "aria-label": t("table.their_hand", { who: t("seat.bot.subject") }) },
    h("div", { className: "seat-label" }, oppName, " ", oppCount, " ", oppDealer), oppCards, oppTakenWrap);

  const stockCard = h("span", { className: "card-slot", id: id("stock-card") });
  const pileCard = h("span", { className: "card-slot", id: id("pile-card") });
  const stockCount = h("span", { className: "pile-count", id: id("stock-count") });
  const pileCount = h("span", { id: id("pile-count") });
  let stock, pile, stockWrap, pileWrap;
  if (live) {
    stock = h("button", { type: "button", className: "pile-btn", id: id("stock"), "aria-label": t("table.stock") }, stockCard);
    pile = h("button", { type: "button", className: "pile-btn drop-target", id: id("pile"), "aria-label": t("table.pile") }, pileCard);
    const history = h("button", { type: "button", className: "link-btn pile-history", id: id("open-pile"), "aria-haspopup": "dialog" },
      ...tNodes("table.pile_button", { count: pileCount }));
    stockWrap = h("div", { className: "stock-wrap" }, stock, stockCount);
    pileWrap = h("div", { className: "pile-wrap" }, pile, history);
  } else {
    stock = stockCard;
    pile = pileCard;
    stockCount.setAttribute("aria-label", t("table.stock_count_label"));
    pileCount.className = "pile-count";
    pileCount.setAttribute("aria-label", t("table.pile_count_label"));
    stockWrap = h("div", { className: "stock-wrap" }, stockCard, stockCount, h("span", { className: "pile-label" }, t("table.stock_short")));
    pileWrap = h("div", { className: "pile-wrap" }, pileCard, pileCount, h("span", { className: "pile-label" }, t("table.pile_short")));
  }
  const middle = h("div", { className: opts.middleClass || "middle" },
    h("div", { className: "piles" }, stockWrap, pileWrap), ...(opts.middle || []));

  const myName = h("span", { className: "name" }, t("hand.yours"));
  const myDealer = live ? h("span", { id: id("my-dealer"), className: "dealer-chip", hidden: true }, t("table.dealer")) : null;
  const deadwoodCount = h("b", { id: id("deadwood-count") }, "0");
  const deadwood = h("span", { className: "deadwood", id: id("deadwood") }, ...tNodes("hand.deadwood", { count: deadwoodCount }));
  const throwHint = live ? h("span", { className: "throw-hint muted", id: id("throw-hint") }) : null;
  const bar = h("div", { className: "hand-bar" },
    h("span", { className: "seat-label" }, ...(myDealer ? [myName, " ", myDealer] : [myName])), deadwood);
  if (live) {
    deadwood.setAttribute("aria-live", "off");
    bar.append(throwHint, h("span", { className: "hand-tools" }, ...(opts.tools || [])));
  }
  const hand = h("div", { className: live ? "hand drop-target" : "hand grouped", id: id("hand"), role: "group", "aria-label": t("hand.your_cards") });
  const mine = h("div", { className: "mine" }, bar, hand);

  root.replaceChildren(opponent, middle, ...(opts.beforeMine || []), mine);
  return {
    root, oppName, oppCount, oppDealer, oppCards, oppTakenWrap, oppTaken, stock, stockCard, stockCount,
    pile, pileCard, pileCount, myName, myDealer, deadwood, deadwoodCount, throwHint, hand, live,
  };
}

/** An empty place where a card could lie. */
export function emptySlot() {
  return h("span", { className: "empty-slot" });
}

/**
 * @typedef {object} TableDrawing what to draw besides the table itself
 * @property {string[] | null} [reveal] the other hand's cards face up (after a hand, or by choice)
 * @property {Node | null} [revealLaid] the other hand as laid down after a knock, drawn instead of `reveal`
 * @property {string | null} [knockThrow] the card the knocker threw, on the pile once the hand is over
 * @property {boolean} [grouped] the hand in melds and deadwood
 * @property {string[]} [order] the hand's cards in the player's order
 * @property {string | null} [marked] the card marked for a throw
 * @property {string | null} [knockCard] the card the Knock button would throw
 * @property {boolean} [theyDeal] the other seat deals
 * @property {boolean} [iDeal] the player deals
 * @property {string} [them] the other seat's name ("Computer")
 * @property {string} [theirHand] what a screen reader calls their side ("The computer's hand")
 */

/**
 * Draw a table state on the parts: the other seat's side, the stock and the pile, and the hand.
 * @param {TableParts} parts
 * @param {any} table a TableOut (or one step of the worked hand)
 * @param {TableDrawing} d
 */
export function drawTable(parts, table, d) {
  if (d.them) parts.oppName.textContent = d.them;
  if (d.theirHand) parts.oppName.closest(".opponent")?.setAttribute("aria-label", d.theirHand);
  const faceUp = d.reveal || null;
  if (d.revealLaid) parts.oppCards.replaceChildren(d.revealLaid);
  else parts.oppCards.replaceChildren(...(faceUp ? faceUp.map(face) : Array.from({ length: table.opponent_count }, back)));
  parts.oppCards.classList.toggle("revealed", Boolean(faceUp));
  parts.oppCards.classList.toggle("laid-out", Boolean(d.revealLaid));
  parts.oppCount.textContent = t("table.cards", { count: table.opponent_count });
  parts.oppDealer.hidden = !d.theyDeal;
  if (parts.myDealer) parts.myDealer.hidden = !d.iDeal;
  parts.oppTaken.replaceChildren(...table.opponent_pile_cards.map((/** @type {string} */ c) => mini(c)));
  parts.oppTakenWrap.hidden = table.opponent_pile_cards.length === 0 || Boolean(table.opponent_hand && faceUp);

  parts.stockCard.replaceChildren(table.stock_count > 0 ? back() : emptySlot());
  parts.stockCount.textContent = num(table.stock_count);
  // The knock card is thrown face down while the hand is played out; once it is over,
  // it lies on the pile like any other throw.
  const pile = d.knockThrow ? [...table.pile, d.knockThrow] : table.pile;
  const top = pile.length ? pile[pile.length - 1] : null;
  parts.pileCard.replaceChildren(top ? face(top) : emptySlot());
  parts.pileCount.textContent = num(pile.length);
  if (!parts.live) {
    parts.pileCard.setAttribute("aria-label", top ? t("table.pile_top_is", { card: name(top) }) : t("table.pile_empty"));
    parts.pileCard.setAttribute("role", "img");
  }

  parts.deadwoodCount.textContent = num(table.arrangement.points);
  drawHand(parts, table, d);
}

/**
 * Draw the player's hand: a row in their order, or groups (melds, then the deadwood).
 * @param {TableParts} parts
 * @param {any} table
 * @param {TableDrawing} d
 * @returns {HTMLElement[]} the cards, in the order shown
 */
export function drawHand(parts, table, d) {
  const grouped = Boolean(d.grouped);
  const groups = handPicture(table, { grouped, order: d.order || table.hand, marked: d.marked || null, knockCard: d.knockCard || null });
  const hand = parts.hand;
  hand.replaceChildren();
  hand.classList.toggle("grouped", grouped);
  /** @type {HTMLElement[]} */
  const cards = [];
  for (const g of groups) {
    const row = h("div", { className: g.kind === "row" ? "hand-row" : "group-cards" });
    for (const c of g.cards) {
      const card = parts.live
        ? h("button", { type: "button", className: "card", "aria-label": c.label, "aria-pressed": String(c.classes.includes("marked")) })
        : h("span", { className: "card", role: "img", "aria-label": c.label });
      card.dataset.code = c.code;
      card.classList.add(...c.classes);
      card.appendChild(face(c.code));
      if (c.pts !== null) card.appendChild(h("span", { className: "pts", "aria-hidden": "true", "data-pts": num(c.pts) }));
      if (parts.live) card.tabIndex = -1;
      row.appendChild(card);
      cards.push(card);
    }
    if (g.kind === "row") {
      hand.appendChild(row);
    } else {
      const cls = g.kind === "deadwood" ? "meld-group deadwood-group" : "meld-group";
      hand.appendChild(h("div", { className: cls }, h("span", { className: "group-label" }, g.label), row));
    }
  }
  return cards;
}

/**
 * Overlap the cards just enough that each row fits the width.
 * @param {HTMLElement} hand
 */
export function layoutHand(hand) {
  const grouped = hand.classList.contains("grouped");
  for (const row of hand.querySelectorAll(".hand-row, .group-cards")) {
    const cards = row.querySelectorAll(".card");
    if (!cards.length || !(row instanceof HTMLElement)) continue;
    const width = cards[0].getBoundingClientRect().width;
    const box = grouped && row.parentElement && row.parentElement.parentElement ? row.parentElement.parentElement : row;
    const step = cardStep({ n: cards.length, width, avail: box.clientWidth, grouped });
    row.style.setProperty("--step", (step - width) + "px");
  }
}
