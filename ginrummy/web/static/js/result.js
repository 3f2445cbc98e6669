// After a hand and after the match: the laid-down hands, the result, the score sheet and
// the final score; also the rules of the match and the whole discard pile.

import { laid, mini, symbol } from "./cards.js";
import { $, h } from "./dom.js";
import { num, t } from "./messages.js";
import { isMine, mineFirst, otherSeat, seatName, seatsMineFirst, seatWord } from "./seats.js";

/**
 * Both hands as laid down (or, for a dead hand, who deals again).
 * @param {any} m the match (for who is who)
 * @param {any} entry a sheet entry
 */
export function handsOf(m, entry) {
  const box = h("div", { className: "result-hands" });
  if (entry.kind === "dead") {
    // The rules: nothing is revealed, and the same dealer deals again.
    box.appendChild(h("p", { className: "muted" }, t(isMine(m, entry.dealer) ? "result.dead_you_deal" : "result.dead_they_deal", { who: seatWord(m, entry.dealer, "subject") })));
    return box;
  }
  const knocker = entry.knocker;
  const defender = otherSeat(knocker);
  const verb = ["gin", "big_gin"].includes(entry.kind) ? entry.kind : "knock";
  const blocks = [
    [t(`result.side.${verb}`, { who: seatName(m, knocker) }), knocker, entry.knocker_melds, entry.knocker_deadwood, entry.knocker_points, entry.lay_offs],
    [seatName(m, defender), defender, entry.defender_melds, entry.defender_deadwood, entry.defender_points, []],
  ];
  for (const [title, side, melds, dead, pts, los] of blocks) {
    const sec = h("section", { className: `result-side side-${isMine(m, side) ? "mine" : "theirs"}` },
      h("h3", {}, title, h("span", { className: "count" }, t("result.count", { points: pts }))),
      laid(melds, dead, pts, los));
    if (side === defender && entry.lay_offs.length) {
      sec.appendChild(h("p", { className: "muted small" }, t("result.laid_off_onto", { cards: entry.lay_offs.map((/** @type {any} */ lo) => symbol(lo.card)).join(" ") })));
    }
    box.appendChild(sec);
  }
  return box;
}

/**
 * The result dialog's title: "You win the hand: 25 points", "Dead hand".
 * @param {any} m
 * @param {any} entry
 */
export function resultTitle(m, entry) {
  if (entry.kind === "dead") return t("result.title_dead");
  return t(isMine(m, entry.winner) ? "result.title_mine" : "result.title_theirs", { count: entry.points, who: seatWord(m, entry.winner, "subject") });
}

/**
 * "You 25 — Computer 0 (to 100)".
 * @param {any} m
 */
export function totalsLine(m) {
  const [mine, theirs] = mineFirst(m, m.scores);
  const [me, them] = seatsMineFirst(m).map((s) => seatName(m, s));
  return h("p", { className: "totals" }, t("result.totals", { me, mine, them, theirs, target: m.settings.match_to }));
}

/**
 * Every hand of the match, one line each, with its laid-down hands to open beneath.
 * @param {any} m
 * @param {(entry: any) => string} summary the words for a hand's result
 */
export function sheetTable(m, summary) {
  const wrap = h("div");
  if (!m.sheet.length) {
    wrap.appendChild(h("p", { className: "muted" }, t("sheet.empty")));
    return wrap;
  }
  const seats = [0, 1];
  const head = h("thead", {}, h("tr", {}, ...[t("sheet.hand"), t("sheet.result"), ...seats.map((s) => seatName(m, s))]
    .map((text) => h("th", { scope: "col" }, text))));
  const body = h("tbody");
  for (const e of m.sheet) {
    // One line per hand; its laid-down hands open in a full-width line beneath.
    const hands = h("tr", { className: "sheet-hands", hidden: true }, h("td", { colspan: "4" }, handsOf(m, e)));
    const result = h("td", {}, h("span", {}, summary(e) + " "));
    if (e.kind !== "dead") {
      const toggle = h("button", { type: "button", className: "link-btn small", "aria-expanded": "false" }, t("sheet.show_hands"));
      toggle.addEventListener("click", () => {
        hands.hidden = !hands.hidden;
        toggle.setAttribute("aria-expanded", String(!hands.hidden));
        toggle.textContent = t(hands.hidden ? "sheet.show_hands" : "sheet.hide_hands");
      });
      result.appendChild(toggle);
    }
    const tr = h("tr", { className: "sheet-line" }, h("th", { scope: "row" }, num(e.number)), result);
    seats.forEach((seat, i) => {
      const won = e.winner === seat;
      tr.appendChild(h("td", { className: "num" + (won ? " won" : "") },
        won ? t("sheet.won_cell", { points: e.points, total: e.totals[i] }) : num(e.totals[i])));
    });
    body.append(tr, hands);
  }
  wrap.appendChild(h("table", { className: "sheet" }, head, body));
  return wrap;
}

/**
 * The final score's table: running score, each bonus in play, the total.
 * @param {any} m
 */
export function finalTable(m) {
  const f = m.final;
  const bonuses = [];
  if (m.settings.game_bonus) bonuses.push([t("final.game_bonus"), f.game_bonus]);
  if (m.settings.line_bonus) bonuses.push([t("final.line_bonus"), f.line_bonus]);
  if (m.settings.shutout !== "off") bonuses.push([t("final.shutout_bonus"), f.shutout_bonus]);
  // With no bonus in play the running score is the total: one line, not the same twice.
  const rows = bonuses.length ? [[t("final.running"), f.running], ...bonuses] : [];
  rows.push([t("final.total"), f.totals]);
  const seats = [0, 1];
  const head = h("thead", {}, h("tr", {}, ...["", ...seats.map((s) => seatName(m, s))].map((text) => h("th", { scope: "col" }, text))));
  const body = h("tbody", {}, ...rows.map(([label, pair], i) => h("tr", { className: i === rows.length - 1 ? "total" : null },
    h("th", { scope: "row" }, label), ...pair.map((/** @type {number} */ v) => h("td", {}, num(v))))));
  return h("table", { className: "final-table" }, head, body);
}

/**
 * The rules of a match, one line per setting with its help.
 * @param {any[]} options the settings form's options
 * @param {Record<string, any>} settings
 * @param {(opt: any) => {label: string, help: string}} words a setting's label and help
 * @param {(opt: any, value: any) => string} valueText
 */
export function rulesList(options, settings, words, valueText) {
  const out = [];
  for (const opt of options) {
    if (opt.name === "big_gin_bonus" && !settings.big_gin) continue;
    const w = words(opt);
    out.push(h("dt", {}, w.label), h("dd", {}, h("b", {}, valueText(opt, settings[opt.name])), h("span", { className: "muted" }, t("rules.help_dash", { help: w.help }))));
  }
  return out;
}

/**
 * The whole discard pile, bottom first.
 * @param {string[]} pile
 */
export function drawPileDialog(pile) {
  $("pile-body").replaceChildren(...pile.map((c) => mini(c)));
}
