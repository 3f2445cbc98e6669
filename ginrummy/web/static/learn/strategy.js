// The strategy page's measured figures: how often a knock wins, by the turn and the
// deadwood left (bench/bench_knock_stage.py writes knock-stage.json).

import { $, h } from "../js/dom.js";
import { num, t } from "../js/messages.js";
import { getJSON } from "./fetch.js";

const SHOWN_COUNTS = [2, 4, 6, 8, 10];

/** @param {any} cell */
function pct(cell) {
  return cell && cell.knocks ? t("learn.percent", { value: Math.round(cell.win_rate * 100) }) : "–";
}

/** @param {any} row "turns 1–3", "turn 13 on" */
function stageName(row) {
  return t(row.last_turn >= 99 ? "learn.stage_from" : "learn.stage", { first: row.first_turn, last: row.last_turn });
}

/** @param {any} row "in turns 1–3", "from turn 13 on" */
function stagePhrase(row) {
  return t(row.last_turn >= 99 ? "learn.stage_from_phrase" : "learn.stage_phrase", { first: row.first_turn, last: row.last_turn });
}

export async function strategyPage() {
  const sentence = /** @type {HTMLElement} */ (document.querySelector("[data-fig=sentence]"));
  let data;
  try {
    data = await getJSON("/static/learn/knock-stage.json");
  } catch {
    sentence.textContent = t("learn.figures_unloadable");
    return;
  }
  const number = num;
  const hands = number(data.hands);
  const head = $("knock-table-head");
  for (const c of SHOWN_COUNTS) head.appendChild(h("th", { className: "num", scope: "col" }, t("learn.with_count", { count: c })));
  const body = $("knock-table-body");
  for (const row of data.stages) {
    const tr = h("tr", {}, h("th", { scope: "row" }, stageName(row)));
    for (const c of SHOWN_COUNTS) {
      const cell = row.cells.find((/** @type {any} */ x) => x.count === c);
      const td = h("td", { className: "num" }, pct(cell));
      td.dataset.count = String(c);
      if (cell && cell.knocks) td.title = t("learn.cell_title", { wins: cell.wins, knocks: cell.knocks, mean: cell.mean_points });
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  $("knock-table-caption").textContent = t("learn.table_caption", { hands });
  const knocks = data.stages.reduce((/** @type {number} */ n, /** @type {any} */ row) => n + row.cells.reduce((/** @type {number} */ k, /** @type {any} */ c) => k + c.knocks, 0), 0);
  const commit = data.commit ? t("learn.measured_at", { commit: data.commit }) : "";
  $("knock-method").textContent = t("learn.method", { hands, knocks: number(knocks), method: t("learn.method_prober"), commit });
  const parts = data.stages.map((/** @type {any} */ row) => `${pct(row.cells.find((/** @type {any} */ x) => x.count === 8))} ${stagePhrase(row)}`);
  sentence.textContent = t("learn.knock_8_sentence", { parts: parts.join(t("list.comma")), hands });
}
