// The learn pages: example hands drawn as cards, the rules of one match, the
// worked hand's steps, and the strategy guide's measured figures. Cards are
// drawn by cards.js, the same code the game uses.
"use strict";

(function () {
  const C = window.Cards;
  const $ = (id) => document.getElementById(id);
  const OFFER_KEY = "ginrummy.learn.offered";

  async function getJSON(path) {
    const r = await fetch(path, { headers: { Accept: "application/json" } });
    const body = await r.json().catch(() => null);
    if (!r.ok) {
      const message = body && body.error ? body.error.message : `${r.status} ${r.statusText}`;
      throw new Error(message);
    }
    return body;
  }

  function text(tag, cls, content) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (content !== undefined) node.textContent = content;
    return node;
  }

  // ------------------------------------------------------------ example hands

  // A card token may end in "!" (the card to look at) or "~" (a card that is
  // not in your hand: on the pile, or one the other player may hold).
  function miniFromToken(token) {
    const mark = token.slice(-1);
    const code = mark === "!" || mark === "~" ? token.slice(0, -1) : token;
    const cls = mark === "!" ? "hl" : mark === "~" ? "dim" : "";
    return C.mini(code, cls);
  }

  function drawExamples() {
    // data-cards="AS | 7H | TD": cards, "|" just spaces them.
    for (const row of document.querySelectorAll("[data-cards]")) {
      row.replaceChildren();
      for (const part of row.dataset.cards.split("|")) {
        const g = text("div", "grp");
        const cards = text("div", "grp-cards");
        for (const tok of part.trim().split(/\s+/).filter(Boolean)) cards.appendChild(miniFromToken(tok));
        g.appendChild(cards);
        row.appendChild(g);
      }
    }
    // data-groups="Run: 3S 4S 5S | Deadwood: AC": labelled groups.
    for (const row of document.querySelectorAll("[data-groups]")) {
      row.replaceChildren();
      for (const part of row.dataset.groups.split("|")) {
        const [label, cardsText] = part.includes(":") ? part.split(":") : ["", part];
        const g = text("div", "grp");
        if (label.trim()) g.appendChild(text("span", "grp-label", label.trim()));
        const cards = text("div", "grp-cards");
        for (const tok of cardsText.trim().split(/\s+/).filter(Boolean)) cards.appendChild(miniFromToken(tok));
        g.appendChild(cards);
        row.appendChild(g);
      }
    }
  }

  // ------------------------------------------------------------ the rules page

  function valueLabel(opt, value) {
    if (opt.kind === "switch") return value ? "On" : "Off";
    if (opt.kind === "choice") {
      const found = opt.choices.find((c) => c[0] === value);
      return found ? found[1] : String(value);
    }
    return String(value);
  }

  function settingsFromQuery(options, params) {
    let any = false;
    const s = {};
    for (const opt of options) {
      s[opt.name] = opt.default;
      if (!params.has(opt.name)) continue;
      any = true;
      const raw = params.get(opt.name);
      if (opt.kind === "switch") s[opt.name] = raw === "true" || raw === "1" || raw === "on";
      else if (opt.kind === "number") s[opt.name] = Number.parseInt(raw, 10) || opt.default;
      else if (opt.choices.some((c) => c[0] === raw)) s[opt.name] = raw;
    }
    return any ? s : null;
  }

  function badge() {
    return text("span", "this-match", "This match");
  }

  function showMatchRules(options, settings, summary) {
    $("match-rules").hidden = false;
    $("match-rules-summary").textContent = summary || "";
    const list = $("match-rules-list");
    list.replaceChildren();
    for (const opt of options) {
      if (opt.name === "big_gin_bonus" && !settings.big_gin) continue;
      const li = document.createElement("li");
      li.dataset.setting = opt.name;
      li.append(text("strong", "", `${opt.label}: ${valueLabel(opt, settings[opt.name])}`), ` — ${opt.help}`);
      list.appendChild(li);
    }
    // The rules that depend on a setting: mark the ones this match uses.
    for (const node of document.querySelectorAll("[data-when]")) {
      const [key, want] = node.dataset.when.split("=");
      if (String(settings[key]) === want) {
        node.classList.add("active-rule");
        for (const note of node.querySelectorAll(".default-note")) note.hidden = true;
        (node.tagName === "TR" ? node.cells[0] : node).appendChild(badge());
      }
    }
    // Figures that are settings: this match's values.
    for (const node of document.querySelectorAll("[data-setting]")) {
      if (node.tagName === "LI") continue;
      const v = settings[node.dataset.setting];
      if (v !== undefined) node.textContent = String(v);
    }
    for (const row of document.querySelectorAll("[data-setting-row]")) {
      const opt = options.find((o) => o.name === row.dataset.settingRow);
      if (!opt) continue;
      const v = settings[opt.name];
      if (v !== opt.default) {
        row.classList.add("active-rule");
        row.cells[1].append(" ", text("span", "this-match", `This match: ${valueLabel(opt, v)}`));
      }
    }
  }

  async function rulesPage() {
    const params = new URLSearchParams(location.search);
    const matchId = params.get("match");
    let options;
    try {
      options = await getJSON("/api/settings");
    } catch (e) {
      return;
    }
    if (matchId) {
      try {
        const m = await getJSON(`/api/matches/${encodeURIComponent(matchId)}`);
        showMatchRules(options, m.settings, m.settings_summary);
        const back = text("a", "btn small", "Back to the match");
        back.href = `/match/${encodeURIComponent(matchId)}`;
        $("match-rules").appendChild(back);
      } catch (e) {
        const box = $("match-rules-error");
        box.hidden = false;
        box.textContent = `That match's settings could not be loaded (${e.message}). The rules below are the standard ones.`;
      }
    } else {
      const s = settingsFromQuery(options, params);
      if (s) showMatchRules(options, s, "");
    }
    if (location.hash) {
      const target = document.getElementById(location.hash.slice(1));
      if (target) target.scrollIntoView();
    }
  }

  // ------------------------------------------------------------ the worked hand

  const worked = { steps: [], at: 0, showComputer: false };

  function tableCard(code, cls) {
    const b = text("span", "card" + (cls ? " " + cls : ""));
    b.dataset.code = code;
    b.setAttribute("role", "img");
    b.appendChild(C.face(code));
    let label = C.name(code);
    if (cls && cls.includes("drawn")) label += ", just drawn";
    if (cls && cls.includes("locked")) label += ", taken from the pile, cannot be thrown this turn";
    b.setAttribute("aria-label", label);
    return b;
  }

  function statusText(step) {
    const t = step.table;
    const top = t.pile.length ? C.symbol(t.pile[t.pile.length - 1]) : "";
    if (t.phase === "over") return step.result ? step.result.summary : "The hand is over.";
    if (t.to_act === "computer") {
      return t.phase === "upcard" ? `The computer may take the ${top} or pass.` : "The computer is playing…";
    }
    if (t.phase === "upcard") return `You are offered the ${top}: take it or pass.`;
    if (t.phase === "draw") return `Your turn: draw from the stock, or take the ${top}.`;
    return "Your turn: throw a card, or knock.";
  }

  function renderHandGroups(t) {
    const hand = $("w-hand");
    hand.replaceChildren();
    const mark = (c) => [c === t.drawn ? "drawn" : "", c === t.locked ? "locked" : "", t.knock && c === t.knock.card ? "marked" : ""]
      .filter(Boolean).join(" ");
    for (const meld of t.arrangement.melds) {
      const g = text("div", "meld-group");
      g.appendChild(text("span", "group-label", meld.kind === "run" ? "Run" : "Set"));
      const row = text("div", "group-cards");
      for (const c of meld.cards) row.appendChild(tableCard(c, mark(c)));
      g.appendChild(row);
      hand.appendChild(g);
    }
    if (t.arrangement.deadwood.length) {
      const g = text("div", "meld-group deadwood-group");
      g.appendChild(text("span", "group-label", `Deadwood ${t.arrangement.points}`));
      const row = text("div", "group-cards");
      const dead = [...t.arrangement.deadwood].sort((a, b) => C.sortKey(a) - C.sortKey(b));
      for (const c of dead) {
        const card = tableCard(c, mark(c));
        const pts = text("span", "pts", String(C.points(c)));
        pts.setAttribute("aria-hidden", "true");
        card.appendChild(pts);
        row.appendChild(card);
      }
      g.appendChild(row);
      hand.appendChild(g);
    }
  }

  function renderResult(step) {
    const box = $("w-result");
    const r = step.result;
    box.hidden = !r;
    if (!r) return;
    box.replaceChildren();
    const knocker = r.knocker === "you" ? "You" : "The computer";
    const defender = r.knocker === "you" ? "The computer" : "You";
    box.appendChild(text("h3", "", `${knocker} knocked — ${r.knocker_points}`));
    box.appendChild(C.laid(r.knocker_melds, r.knocker_deadwood, r.knocker_points, r.lay_offs));
    box.appendChild(text("h3", "", `${defender} — ${r.defender_points}`));
    box.appendChild(C.laid(r.defender_melds, r.defender_deadwood, r.defender_points, []));
    if (r.lay_offs.length) {
      box.appendChild(text("p", "muted small", "Laid off onto the knocker's melds: " + r.lay_offs.map((lo) => C.symbol(lo.card)).join(" ")));
    }
    const totals = text("p", "totals", `You ${step.scores[0]} · Computer ${step.scores[1]}`);
    totals.id = "w-totals";
    box.appendChild(totals);
  }

  function renderStep() {
    const step = worked.steps[worked.at];
    if (!step) return;
    const t = step.table;
    const n = worked.steps.length;
    $("step-count").textContent = `Step ${worked.at + 1} of ${n}`;
    $("step-title").textContent = step.title;
    $("step-caption").textContent = step.caption;
    $("step-moves").replaceChildren(...step.moves.map((ev) => text("li", "", `${ev.who === "you" ? "You" : "Computer"} ${ev.text}`)));
    $("step-prev").disabled = worked.at === 0;
    $("step-next").disabled = worked.at === n - 1;
    for (const [i, dot] of [...$("step-dots").children].entries()) {
      if (i === worked.at) dot.setAttribute("aria-current", "step");
      else dot.removeAttribute("aria-current");
    }

    // The computer's side.
    const opp = $("w-opp-cards");
    opp.replaceChildren();
    const faceUp = t.opponent_hand || (worked.showComputer ? step.computer_hand : null);
    if (faceUp) {
      opp.classList.add("revealed");
      for (const c of faceUp) opp.appendChild(C.face(c));
    } else {
      opp.classList.remove("revealed");
      for (let i = 0; i < t.opponent_count; i++) opp.appendChild(C.back());
    }
    $("w-opp-count").textContent = `${t.opponent_count} card${t.opponent_count === 1 ? "" : "s"}`;
    $("w-opp-dealer").hidden = t.dealer !== "computer";
    $("w-opp-taken").replaceChildren(...t.opponent_pile_cards.map((c) => C.mini(c)));
    $("w-opp-taken-wrap").hidden = t.opponent_pile_cards.length === 0 || Boolean(t.opponent_hand);

    // Stock and pile.
    $("w-stock-card").replaceChildren(t.stock_count > 0 ? C.back() : text("span", "empty-slot"));
    $("w-stock-count").textContent = String(t.stock_count);
    const top = t.pile.length ? t.pile[t.pile.length - 1] : null;
    $("w-pile-card").replaceChildren(top ? C.face(top) : text("span", "empty-slot"));
    $("w-pile-card").setAttribute("aria-label", top ? `Top of the pile: ${C.name(top)}` : "The pile is empty");
    $("w-pile-card").setAttribute("role", "img");
    $("w-pile-count").textContent = String(t.pile.length);
    $("w-status").textContent = statusText(step);
    $("w-limit").textContent = t.knock_limit === 0 ? "Gin only this hand" : `Knock at ${t.knock_limit} or less`;
    const knock = $("w-knock");
    knock.hidden = !t.knock;
    if (t.knock) knock.textContent = `${t.knock.gin ? "Gin" : "Knock with " + t.knock.leaves} — throws the ${C.symbol(t.knock.card)}`;

    // Your hand, laid out in melds as the game's Group button does.
    $("w-deadwood").textContent = String(t.arrangement.points);
    renderHandGroups(t);
    renderResult(step);
    if (history.replaceState) history.replaceState(null, "", `#step-${worked.at + 1}`);
  }

  function go(i) {
    const n = worked.steps.length;
    if (!n) return;
    worked.at = Math.max(0, Math.min(n - 1, i));
    renderStep();
  }

  async function workedPage() {
    try { localStorage.setItem(OFFER_KEY, "seen"); } catch (e) { /* private mode: the offer may show again */ }
    $("step-prev").addEventListener("click", () => go(worked.at - 1));
    $("step-next").addEventListener("click", () => go(worked.at + 1));
    $("show-computer").addEventListener("change", (e) => {
      worked.showComputer = e.target.checked;
      renderStep();
    });
    document.addEventListener("keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const tag = e.target && e.target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
      if (e.key === "ArrowRight") { e.preventDefault(); go(worked.at + 1); }
      else if (e.key === "ArrowLeft") { e.preventDefault(); go(worked.at - 1); }
      else if (e.key === "Home") { e.preventDefault(); go(0); }
      else if (e.key === "End") { e.preventDefault(); go(worked.steps.length - 1); }
    });
    let data;
    try {
      data = await getJSON("/api/learn/worked-hand");
    } catch (e) {
      $("step-title").textContent = "The hand could not be loaded.";
      $("step-caption").textContent = e.message;
      return;
    }
    worked.steps = data.steps;
    const dots = $("step-dots");
    dots.replaceChildren(...data.steps.map((s, i) => {
      const b = text("button");
      b.type = "button";
      b.setAttribute("aria-label", `Step ${i + 1}: ${s.title}`);
      b.title = s.title;
      b.addEventListener("click", () => go(i));
      return b;
    }));
    const m = /^#step-(\d+)$/.exec(location.hash);
    go(m ? Number(m[1]) - 1 : 0);
    document.body.dataset.ready = "1";
  }

  // ------------------------------------------------------------ the strategy page

  const SHOWN_COUNTS = [2, 4, 6, 8, 10];

  function pct(cell) {
    return cell && cell.knocks ? `${Math.round(cell.win_rate * 100)}%` : "–";
  }

  function stageName(row) {
    return row.last_turn >= 99 ? `turn ${row.first_turn} on` : `turns ${row.first_turn}–${row.last_turn}`;
  }

  function stagePhrase(row) {
    return row.last_turn >= 99 ? `from turn ${row.first_turn} on` : `in turns ${row.first_turn}–${row.last_turn}`;
  }

  async function strategyPage() {
    let data;
    try {
      data = await getJSON("/static/learn/knock-stage.json");
    } catch (e) {
      document.querySelector("[data-fig=sentence]").textContent = "the measured figures could not be loaded.";
      return;
    }
    const hands = data.hands.toLocaleString("en");
    const head = $("knock-table-head");
    for (const c of SHOWN_COUNTS) {
      const th = text("th", "num", `with ${c}`);
      th.scope = "col";
      head.appendChild(th);
    }
    const body = $("knock-table-body");
    for (const row of data.stages) {
      const tr = document.createElement("tr");
      const th = text("th", "", stageName(row));
      th.scope = "row";
      tr.appendChild(th);
      for (const c of SHOWN_COUNTS) {
        const cell = row.cells.find((x) => x.count === c);
        const td = text("td", "num", pct(cell));
        td.dataset.count = String(c);
        if (cell && cell.knocks) td.title = `${cell.wins} of ${cell.knocks} knocks won; ${cell.mean_points} points a knock on average`;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    $("knock-table-caption").textContent = `How often a knock wins against Hard, by the knocker's turn and the deadwood left (${hands} simulated hands).`;
    const knocks = data.stages.reduce((n, row) => n + row.cells.reduce((k, c) => k + c.knocks, 0), 0);
    $("knock-method").textContent = `${hands} hands, ${knocks.toLocaleString("en")} knocks tried. ${data.method}${data.commit ? ` Measured at commit ${data.commit}.` : ""} Run bench/bench_knock_stage.py to measure it again.`;
    const eights = data.stages.map((row) => row.cells.find((x) => x.count === 8));
    const parts = data.stages.map((row, i) => `${pct(eights[i])} ${stagePhrase(row)}`);
    document.querySelector("[data-fig=sentence]").textContent =
      `against Hard, a knock with 8 won ${parts.join(", ")} (${hands} simulated hands).`;
  }

  // ------------------------------------------------------------ start

  function start() {
    C.defs();
    drawExamples();
    const page = document.body.dataset.page;
    let ready;
    if (page === "rules") ready = rulesPage();
    else if (page === "worked") ready = workedPage();
    else if (page === "strategy") ready = strategyPage();
    Promise.resolve(ready).finally(() => { document.body.dataset.ready = "1"; });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
