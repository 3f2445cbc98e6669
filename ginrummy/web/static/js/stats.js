// The statistics page: the matches of the seat this browser holds, their results and
// rates, and the reviewed hands over time. The charts are SVG drawn here (no library, no
// request to anywhere but this server): each is a pure function from numbers to a picture.

import { points } from "./coach.js";
import { $, h } from "./dom.js";
import { t } from "./messages.js";
import { api } from "./transport.js";
import { errorText } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";

/**
 * An SVG element.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {...(Node | string)} children
 */
function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}

/**
 * A chart's frame: an SVG image named for screen readers by its title and summary.
 * @param {string} title
 * @param {string} summary
 * @param {number} width
 * @param {number} height
 */
function chart(title, summary, width, height) {
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${title}: ${summary}`, class: "chart" });
  svg.appendChild(s("title", {}, `${title}: ${summary}`));
  return svg;
}

/** @param {number} x a share, 0 to 1 */
function percent(x) {
  return `${Math.round(100 * x)}%`;
}

/**
 * Bars side by side for each row: a share for and a share against, 0 to 100%.
 * @param {string} title
 * @param {{label: string, mine: number, theirs: number}[]} rows
 */
export function pairedBars(title, rows) {
  const width = 320, rowH = 44, left = 78, right = 40, top = 20;
  const height = top + rows.length * rowH + 8;
  const most = Math.max(0.01, ...rows.flatMap((r) => [r.mine, r.theirs]));
  const scale = (/** @type {number} */ x) => ((width - left - right) * x) / most;
  const summary = rows.map((r) => t("stats.pair_summary", { label: r.label, mine: percent(r.mine), theirs: percent(r.theirs) })).join("; ");
  const svg = chart(title, summary, width, height);
  svg.appendChild(s("rect", { x: left, y: 4, width: 10, height: 10, class: "bar-mine" }));
  svg.appendChild(s("text", { x: left + 14, y: 13, class: "chart-text" }, t("stats.for_you")));
  svg.appendChild(s("rect", { x: left + 90, y: 4, width: 10, height: 10, class: "bar-theirs" }));
  svg.appendChild(s("text", { x: left + 104, y: 13, class: "chart-text" }, t("stats.against_you")));
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    svg.appendChild(s("text", { x: 0, y: y + 24, class: "chart-text" }, r.label));
    for (const [j, value, cls] of /** @type {[number, number, string][]} */ ([[0, r.mine, "bar-mine"], [1, r.theirs, "bar-theirs"]])) {
      const by = y + 6 + j * 17;
      svg.appendChild(s("rect", { x: left, y: by, width: Math.max(1, scale(value)), height: 14, class: cls }));
      svg.appendChild(s("text", { x: left + scale(value) + 4, y: by + 11, class: "chart-text" }, percent(value)));
    }
  });
  return svg;
}

/**
 * A share with its 95% interval on a 0-100% scale.
 * @param {string} title
 * @param {{share: number, low: number, high: number}} w
 */
export function shareBar(title, w) {
  const width = 320, left = 10, right = 10, height = 52;
  const x = (/** @type {number} */ v) => left + (width - left - right) * v;
  const summary = t("stats.share_summary", { share: percent(w.share), low: percent(w.low), high: percent(w.high) });
  const svg = chart(title, summary, width, height);
  svg.appendChild(s("rect", { x: x(0), y: 14, width: x(1) - x(0), height: 14, class: "bar-track" }));
  svg.appendChild(s("rect", { x: x(0), y: 14, width: Math.max(1, x(w.share) - x(0)), height: 14, class: "bar-mine" }));
  svg.appendChild(s("line", { x1: x(w.low), x2: x(w.high), y1: 21, y2: 21, class: "whisker" }));
  for (const v of [w.low, w.high]) svg.appendChild(s("line", { x1: x(v), x2: x(v), y1: 11, y2: 31, class: "whisker" }));
  for (const v of [0, 0.5, 1]) svg.appendChild(s("text", { x: x(v), y: 46, class: "chart-text", "text-anchor": v === 0 ? "start" : v === 1 ? "end" : "middle" }, percent(v)));
  return svg;
}

/**
 * Bars over time, one per reviewed hand, with the running mean as a line.
 * @param {string} title
 * @param {number[]} values
 * @param {(v: number) => string} format
 */
export function barsOverTime(title, values, format) {
  const width = 320, height = 140, left = 34, bottom = 20, top = 10;
  const most = Math.max(1, ...values);
  const n = Math.max(1, values.length);
  const slot = Math.min(36, (width - left - 4) / n); // a few hands stay a few bars wide
  const y = (/** @type {number} */ v) => height - bottom - ((height - bottom - top) * v) / most;
  const mean = values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
  const summary = t("stats.over_time_summary", { count: values.length, mean: format(mean), last: format(values.length ? values[values.length - 1] : 0) });
  const svg = chart(title, summary, width, height);
  svg.appendChild(s("line", { x1: left, x2: width, y1: y(0), y2: y(0), class: "axis" }));
  svg.appendChild(s("text", { x: left - 4, y: y(most) + 4, class: "chart-text", "text-anchor": "end" }, format(most)));
  svg.appendChild(s("text", { x: left - 4, y: y(0), class: "chart-text", "text-anchor": "end" }, "0"));
  values.forEach((v, i) => {
    svg.appendChild(s("rect", { x: left + i * slot + slot * 0.15, y: y(v), width: Math.max(1, slot * 0.7), height: Math.max(0, y(0) - y(v)), class: "bar-mine" }));
  });
  let sum = 0;
  const line = values.map((v, i) => { sum += v; return `${left + (i + 0.5) * slot},${y(sum / (i + 1))}`; }).join(" ");
  if (values.length > 1) svg.appendChild(s("polyline", { points: line, class: "trend" }));
  svg.appendChild(s("text", { x: left, y: height - 4, class: "chart-text" }, t("stats.oldest")));
  svg.appendChild(s("text", { x: Math.max(left + n * slot, left + 80), y: height - 4, class: "chart-text", "text-anchor": "end" }, t("stats.latest")));
  return svg;
}

/**
 * One figure: a label and its value.
 * @param {string} label
 * @param {string} value
 */
function figure(label, value) {
  return h("div", { className: "stat" }, h("dt", {}, label), h("dd", {}, value));
}

/** @param {string} title @param {Node} body */
function section(title, body) {
  return h("section", { className: "stats-section" }, h("h2", {}, title), body);
}

/** @param {any} st the statistics */
function byOpponent(st) {
  const head = h("tr", {}, ...["stats.col.opponent", "stats.col.rules", "stats.col.matches", "stats.col.hands", "stats.col.won"].map((k) => h("th", { scope: "col" }, t(k))));
  const rows = st.by_opponent.map((/** @type {any} */ g) => h("tr", {},
    h("td", {}, t(g.opponent === "person" ? "stats.person" : `bot.${g.opponent}`)),
    h("td", {}, t(`rules.knocking.${g.knocking}`)),
    h("td", {}, String(g.matches)), h("td", {}, String(g.hands)), h("td", {}, String(g.won))));
  return h("table", { className: "sheet stats-table" }, h("thead", {}, head), h("tbody", {}, ...rows));
}

/** Show the statistics page. */
export async function showStats() {
  document.title = t("title.stats");
  const body = $("stats-body");
  body.replaceChildren();
  let st;
  try {
    st = await api.statistics();
  } catch (e) {
    $("stats-empty").hidden = false;
    $("stats-empty").textContent = errorText(/** @type {any} */ (e));
    return;
  }
  $("stats-empty").hidden = st.matches > 0;
  $("stats-empty").textContent = t("stats.none");
  if (!st.matches) return;
  const w = st.win_share;
  const figures = h("dl", { className: "stat-figures" },
    figure(t("stats.matches"), t("stats.matches_value", { count: st.matches, finished: st.finished })),
    figure(t("stats.hands"), String(st.hands)),
    figure(t("stats.win_share"), st.finished ? t("stats.win_share_value", { share: percent(w.share), low: percent(w.low), high: percent(w.high) }) : t("stats.no_finished")),
    figure(t("stats.points_per_hand"), points(st.points_per_hand)),
    figure(t("stats.knock_deadwood"), st.knock_deadwood === null ? t("stats.no_knocks") : t("stats.knock_deadwood_value", { points: points(st.knock_deadwood), count: st.knocks })),
    figure(t("stats.hints"), String(st.hints)));
  body.appendChild(figures);
  if (st.finished) body.appendChild(section(t("stats.win_share"), shareBar(t("stats.win_share"), w)));
  const r = st.rates;
  body.appendChild(section(t("stats.how_hands_ended"), pairedBars(t("stats.how_hands_ended"), [
    { label: t("stats.gin"), mine: r.gin_for, theirs: r.gin_against },
    { label: t("stats.knock"), mine: r.knock_for, theirs: r.knock_against },
    { label: t("stats.undercut"), mine: r.undercut_for, theirs: r.undercut_against },
  ])));
  body.appendChild(section(t("stats.by_opponent"), byOpponent(st)));
  const reviewed = st.reviewed;
  if (reviewed.length) {
    const lost = reviewed.map((/** @type {any} */ x) => x.points_lost);
    const mistakes = reviewed.map((/** @type {any} */ x) => x.mistakes);
    body.appendChild(section(t("stats.over_time"), h("div", { className: "chart-pair" },
      h("figure", {}, barsOverTime(t("stats.points_lost"), lost, points), h("figcaption", {}, t("stats.points_lost"))),
      h("figure", {}, barsOverTime(t("stats.mistakes"), mistakes, (v) => (Number.isInteger(v) ? String(v) : points(v))), h("figcaption", {}, t("stats.mistakes"))))));
  } else {
    body.appendChild(section(t("stats.over_time"), h("p", { className: "muted" }, t("stats.no_reviews"))));
  }
}
