// The Gin Rummy page: settings, the table, the history. Plain JavaScript, no build step.
// The server is the referee: this page shows the player's view it is sent and
// asks for moves; it never decides what is legal on its own.
"use strict";

(function () {
  const C = window.Cards;
  const $ = (id) => document.getElementById(id);

  // ---------------------------------------------------------------- comfort

  const COMFORT_KEY = "ginrummy.comfort";
  const SPEEDS = { off: 0, fast: 200, normal: 380, slow: 700 };
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function loadComfort() {
    let saved = {};
    try { saved = JSON.parse(localStorage.getItem(COMFORT_KEY) || "{}") || {}; } catch (e) { saved = {}; }
    return {
      fourColour: Boolean(saved.fourColour),
      large: Boolean(saved.large),
      speed: SPEEDS[saved.speed] !== undefined ? saved.speed : (reducedMotion ? "off" : "normal"),
    };
  }
  const comfort = loadComfort();

  function applyComfort() {
    document.body.classList.toggle("four-colour", comfort.fourColour);
    document.body.classList.toggle("large-cards", comfort.large);
    document.body.classList.toggle("no-motion", comfort.speed === "off");
    $("opt-four-colour").checked = comfort.fourColour;
    $("opt-large").checked = comfort.large;
    $("opt-speed").value = comfort.speed;
  }

  function saveComfort() {
    localStorage.setItem(COMFORT_KEY, JSON.stringify(comfort));
    applyComfort();
    if (state.match) render();
  }

  // ---------------------------------------------------------------- state

  const state = {
    match: null,        // the last MatchOut from the server
    display: null,      // while the computer's moves play: the public table step by step
    busy: false,        // a request or an animation is under way
    marked: null,       // the card code marked for a throw or a knock
    grouped: false,     // Group pressed
    layout: { card: null, index: 0 },  // the layout chosen for a knock, when there is a choice
    focus: null,        // the card code that holds the keyboard focus in the hand
    settingsOptions: null,
  };

  class ApiError extends Error {
    constructor(status, code, message) {
      super(message);
      this.status = status;
      this.code = code;
    }
  }

  async function api(method, path, body) {
    let response;
    try {
      response = await fetch(path, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw new ApiError(0, "network", "The server cannot be reached. Is `ginrummy serve` still running?");
    }
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const err = data && data.error ? data.error : { code: "http_" + response.status, message: `The server answered ${response.status}.` };
      throw new ApiError(response.status, err.code, err.message);
    }
    return data;
  }

  function announce(text) {
    const live = $("live");
    const line = document.createElement("p");
    line.textContent = text;
    live.appendChild(line);
    while (live.childNodes.length > 6) live.removeChild(live.firstChild);
  }

  function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

  // ---------------------------------------------------------------- the fair deal
  // The server commits to a secret seed (shows its SHA-256) before this page sends its
  // own random seed; the deck is derived from both (docs/FAIRNESS.md). When the hand
  // is over the seed is revealed and checked here, with the same steps as the doc's.

  const promised = {};  // "matchId/hand" -> the commitment shown before our seed went

  function randomId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function hexBytes(hex) {
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  }

  async function fairDeck(serverSeed, clientSeed, nonce) {
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

  // What is wrong with a revealed deal ([] when it checks out), or null if this browser
  // cannot check (WebCrypto needs https or localhost).
  async function checkDeal(matchId, deal) {
    if (!window.crypto || !crypto.subtle) return null;
    const problems = [];
    const mine = promised[`${matchId}/${deal.hand}`];
    if (mine && mine !== deal.commitment) problems.push("the commitment differs from the one shown before the deal");
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", hexBytes(deal.server_seed)));
    const hash = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
    if (hash !== deal.commitment) problems.push("the server seed does not match the commitment");
    const deck = await fairDeck(deal.server_seed, deal.client_seed, deal.hand);
    if (deck.join(" ") !== deal.deck.join(" ")) problems.push("the deck is not the one the seeds give");
    return problems;
  }

  async function dealLine(matchId, deal) {
    const short = (h) => h.slice(0, 12) + "…";
    if (deal.fixed) return "This hand's deck was fixed by a test (test mode): there is nothing to prove.";
    if (!deal.server_seed) return `Deal committed: SHA-256 ${short(deal.commitment || "")}; the seed is shown when the hand is over.`;
    const problems = await checkDeal(matchId, deal);
    const seeds = `server seed ${short(deal.server_seed)}, SHA-256 ${short(deal.commitment)}, ${deal.client_seed_by === "you" ? "your" : "the server's"} seed ${deal.client_seed}`;
    if (problems === null) return `Deal revealed (${seeds}). Check it with the few lines in docs/FAIRNESS.md.`;
    if (problems.length) return `✗ This deal does not check out: ${problems.join("; ")}.`;
    return `✓ Fair deal, checked here: ${seeds}.`;
  }

  async function showDealCheck(m) {
    let p = $("result-fair");
    if (!p) {
      p = document.createElement("p");
      p.id = "result-fair";
      p.className = "muted";
      $("result-summary").after(p);
    }
    const deal = m.fairness.deal;
    let text = m.last_result && m.last_result.kind === "dead"
      ? "This deal's seed and deck are under Deal proofs on the history page."
      : await dealLine(m.id, deal);
    if (m.fairness.next_commitment) {
      promised[`${m.id}/${m.hand_number + 1}`] = m.fairness.next_commitment;
      text += ` Next deal committed: SHA-256 ${m.fairness.next_commitment.slice(0, 12)}….`;
    }
    p.textContent = text;
  }

  function proofsDetails(matchId) {
    const d = document.createElement("details");
    const s = document.createElement("summary");
    s.textContent = "Deal proofs";
    d.appendChild(s);
    d.addEventListener("toggle", async () => {
      if (!d.open || d.dataset.loaded) return;
      d.dataset.loaded = "1";
      const list = document.createElement("ol");
      list.className = "deal-proofs";
      try {
        const proofs = await api("GET", `/api/matches/${encodeURIComponent(matchId)}/proofs`);
        for (const deal of proofs.deals) {
          const li = document.createElement("li");
          li.textContent = `Hand ${deal.hand}: ${await dealLine(matchId, deal)}`;
          list.appendChild(li);
        }
      } catch (e) {
        const li = document.createElement("li");
        li.textContent = e.message;
        list.appendChild(li);
      }
      d.appendChild(list);
    });
    return d;
  }

  // How to take, draw and throw is explained until the player has done it once.
  const LEARNED_KEY = "ginrummy.learned";
  function learnedSet() {
    try { return JSON.parse(localStorage.getItem(LEARNED_KEY) || "{}") || {}; } catch (e) { return {}; }
  }
  function learned(what) { return Boolean(learnedSet()[what]); }
  function learn(action) {
    const what = { take: "take", pass: "take", stock: "draw", pile: "draw", discard: "throw", knock: "throw" }[action];
    if (!what || learned(what)) return;
    const set = learnedSet();
    set[what] = 1;
    localStorage.setItem(LEARNED_KEY, JSON.stringify(set));
  }

  // ---------------------------------------------------------------- routing

  function navigate(path) {
    if (location.pathname !== path) history.pushState(null, "", path);
    route();
  }

  function showView(name) {
    for (const v of ["home", "table", "history"]) $("view-" + v).hidden = v !== name;
    $("nav-rules").setAttribute("href", "/rules");
    document.body.dataset.view = name;
    for (const d of document.querySelectorAll("dialog[open]")) d.close();
  }

  async function route() {
    const path = location.pathname;
    const m = path.match(/^\/match\/([A-Za-z0-9_-]+)$/);
    if (m) return openMatch(m[1]);
    if (path === "/history") return showHistory();
    return showHome();
  }

  document.addEventListener("click", (e) => {
    const a = e.target.closest("a[data-nav]");
    if (!a || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(a.getAttribute("href"));
  });
  window.addEventListener("popstate", route);

  // ---------------------------------------------------------------- settings page

  const SETTINGS_KEY = "ginrummy.settings";

  function savedSettings() {
    try { return JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {}; } catch (e) { return {}; }
  }

  function field(opt, value) {
    const wrap = document.createElement("div");
    wrap.className = "setting setting-" + opt.kind;
    wrap.dataset.name = opt.name;
    const helpId = "help-" + opt.name;
    const help = document.createElement("p");
    help.className = "help";
    help.id = helpId;
    help.textContent = opt.help;
    if (opt.kind === "switch") {
      const label = document.createElement("label");
      label.className = "switch";
      const input = document.createElement("input");
      input.type = "checkbox";
      input.name = opt.name;
      input.id = "set-" + opt.name;
      input.checked = Boolean(value);
      input.setAttribute("aria-describedby", helpId);
      label.append(input, " " + opt.label);
      wrap.append(label, help);
    } else if (opt.kind === "choice") {
      const fs = document.createElement("fieldset");
      fs.className = "segmented";
      fs.setAttribute("aria-describedby", helpId);
      const legend = document.createElement("legend");
      legend.textContent = opt.label;
      fs.appendChild(legend);
      const row = document.createElement("div");
      row.className = "segments";
      for (const [val, text] of opt.choices) {
        const label = document.createElement("label");
        const input = document.createElement("input");
        input.type = "radio";
        input.name = opt.name;
        input.value = val;
        input.id = `set-${opt.name}-${val}`;
        input.checked = value === val;
        const span = document.createElement("span");
        span.textContent = text;
        label.append(input, span);
        row.appendChild(label);
      }
      fs.appendChild(row);
      wrap.append(fs, help);
    } else {
      const label = document.createElement("label");
      label.className = "field";
      label.htmlFor = "set-" + opt.name;
      label.textContent = opt.label;
      const input = document.createElement("input");
      input.type = "number";
      input.name = opt.name;
      input.id = "set-" + opt.name;
      input.min = opt.minimum;
      input.max = opt.maximum;
      input.step = 1;
      input.required = true;
      input.inputMode = "numeric";
      input.value = value;
      input.setAttribute("aria-describedby", helpId);
      const row = document.createElement("div");
      row.className = "number-row";
      row.appendChild(input);
      for (const p of opt.presets) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "chip";
        b.textContent = String(p);
        b.setAttribute("aria-label", `${opt.label} ${p}`);
        b.addEventListener("click", () => { input.value = p; syncChips(); });
        row.appendChild(b);
      }
      wrap.append(label, row, help);
    }
    return wrap;
  }

  function syncChips() {
    for (const row of document.querySelectorAll(".number-row")) {
      const input = row.querySelector("input");
      for (const chip of row.querySelectorAll(".chip")) {
        chip.setAttribute("aria-pressed", String(chip.textContent === input.value));
      }
    }
    const form = $("settings-form");
    const bigGin = form.elements.namedItem("big_gin");
    const bonus = form.elements.namedItem("big_gin_bonus");
    if (bigGin && bonus) bonus.disabled = !bigGin.checked;
    let on = 0;
    for (const el of $("house-fields").querySelectorAll("input[type=checkbox]")) if (el.checked) on += 1;
    const shutout = form.querySelector("input[name=shutout]:checked");
    if (shutout && shutout.value !== "off") on += 1;
    $("house-count").textContent = on ? `(${on} on)` : "(all off)";
  }

  async function buildSettingsForm(values) {
    if (!state.settingsOptions) state.settingsOptions = await api("GET", "/api/settings");
    const main = $("settings-fields");
    const house = $("house-fields");
    main.replaceChildren();
    house.replaceChildren();
    for (const opt of state.settingsOptions) {
      const value = values[opt.name] !== undefined ? values[opt.name] : opt.default;
      (opt.house_rule ? house : main).appendChild(field(opt, value));
    }
    syncChips();
  }

  function readSettings() {
    const form = $("settings-form");
    const out = {};
    for (const opt of state.settingsOptions) {
      if (opt.kind === "switch") out[opt.name] = form.elements.namedItem(opt.name).checked;
      else if (opt.kind === "choice") {
        const checked = form.querySelector(`input[name=${opt.name}]:checked`);
        out[opt.name] = checked ? checked.value : opt.default;
      } else {
        const raw = form.elements.namedItem(opt.name).value.trim();
        out[opt.name] = /^-?\d+$/.test(raw) ? Number(raw) : raw;
      }
    }
    return out;
  }

  async function showHome() {
    showView("home");
    document.title = "Gin Rummy";
    $("settings-error").textContent = "";
    try {
      await buildSettingsForm(savedSettings());
    } catch (e) {
      $("settings-error").textContent = e.message;
    }
    $("resume-box").hidden = true;
    $("learn-offer").hidden = learnOffered();
    try {
      const matches = await api("GET", "/api/matches");
      const open = matches.find((m) => m.status === "playing");
      if (open) {
        $("resume-text").textContent = `You ${open.scores[0]}, computer ${open.scores[1]} after ${open.hands} hand${open.hands === 1 ? "" : "s"} (${open.settings_summary}).`;
        $("resume-link").setAttribute("href", "/match/" + open.id);
        $("resume-link").dataset.nav = "";
        $("resume-box").hidden = false;
      }
    } catch (e) { /* the history is a nicety here */ }
  }

  // The first visit offers the worked hand, once (the learn pages set the key too).
  const LEARN_KEY = "ginrummy.learn.offered";
  function learnOffered() {
    try { return Boolean(localStorage.getItem(LEARN_KEY)); } catch (e) { return true; }
  }
  function rememberLearnOffer() {
    try { localStorage.setItem(LEARN_KEY, "answered"); } catch (e) { /* private mode */ }
  }
  $("learn-offer-go").addEventListener("click", rememberLearnOffer);
  $("learn-offer-dismiss").addEventListener("click", () => {
    rememberLearnOffer();
    $("learn-offer").hidden = true;
  });

  $("settings-form").addEventListener("input", syncChips);
  $("settings-form").addEventListener("change", syncChips);
  $("reset-settings").addEventListener("click", async () => {
    localStorage.removeItem(SETTINGS_KEY);
    await buildSettingsForm({});
  });
  $("settings-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const settings = readSettings();
    await startMatch(settings, $("settings-error"));
  });

  async function startMatch(settings, errorBox) {
    if (state.busy) return;
    state.busy = true;
    errorBox.textContent = "";
    let created;
    try {
      // The fair deal: the server commits first, then this page sends its own seed.
      const { commitment } = await api("POST", "/api/commitments");
      created = await api("POST", "/api/matches", { settings, commitment, client_seed: randomId() });
      promised[`${created.id}/1`] = commitment;
    } catch (err) {
      errorBox.textContent = err.message;
      state.busy = false;
      return;
    }
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
    history.pushState(null, "", "/match/" + created.id);
    showView("table");
    state.busy = false;
    enterMatch(created, true);
  }

  // ---------------------------------------------------------------- the hand's order

  function orderKey(m) { return `ginrummy.order.${m.id}.${m.hand_number}`; }

  function savedOrder(m) {
    try { return JSON.parse(localStorage.getItem(orderKey(m)) || "null"); } catch (e) { return null; }
  }

  function saveOrder(m, order) {
    localStorage.setItem(orderKey(m), JSON.stringify(order));
  }

  /** The hand as the player arranged it: their own order, or sorted; new cards go last. */
  function handOrder(t, m) {
    const own = savedOrder(m);
    if (!own) return sortCards(t.hand);
    const held = new Set(t.hand);
    const kept = own.filter((c) => held.has(c));
    const fresh = sortCards(t.hand.filter((c) => !kept.includes(c)));
    return kept.concat(fresh);
  }

  // Sorted by suit (colours alternating) or by rank; the choice is kept in the browser.
  const SORT_KEY = "ginrummy.sort";
  const RANKS = "A23456789TJQK";
  function sortBy() { return localStorage.getItem(SORT_KEY) === "rank" ? "rank" : "suit"; }
  function sortCards(cards) {
    const byRank = sortBy() === "rank";
    const key = (c) => (byRank ? RANKS.indexOf(c[0]) * 4 + "CHSD".indexOf(c[1]) : C.sortKey(c));
    return [...cards].sort((a, b) => key(a) - key(b));
  }

  /** Sort the hand: back to sorted after the player's own order, else the other way. */
  function resort() {
    const m = state.match;
    if (!m) return;
    if (savedOrder(m)) localStorage.removeItem(orderKey(m));
    else localStorage.setItem(SORT_KEY, sortBy() === "rank" ? "suit" : "rank");
    state.grouped = false;
    render();
    announce(`Your hand is sorted by ${sortBy()}.`);
  }

  // ---------------------------------------------------------------- the table

  function who(w) { return w === "you" ? "You" : "Computer"; }

  function logLine(ev) {
    return `${who(ev.who)} ${ev.text}`;
  }

  function enterMatch(m, animate) {
    state.match = null;
    state.marked = null;
    state.grouped = false;
    state.focus = null;
    document.title = "Gin Rummy — your match";
    $("nav-rules").setAttribute("href", "/rules?match=" + encodeURIComponent(m.id));
    if (animate && m.events.length) {
      playOut(null, m);
    } else {
      state.match = m;
      render();
      afterHand(false);
    }
  }

  async function openMatch(id) {
    showView("table");
    $("error").textContent = "";
    try {
      const m = await api("GET", "/api/matches/" + encodeURIComponent(id));
      enterMatch(m, false);
    } catch (e) {
      state.match = null;
      $("prompt").textContent = "";
      $("error").textContent = e.message;
    }
  }

  function publicOf(t) {
    return {
      pile: [...t.pile],
      stock_count: t.stock_count,
      opponent_count: t.opponent_count,
      opponent_pile_cards: [...t.opponent_pile_cards],
    };
  }

  function applyPublic(pub, ev) {
    const theirs = ev.who === "computer";
    const dropTheirs = (card) => {
      pub.opponent_count -= 1;
      pub.opponent_pile_cards = pub.opponent_pile_cards.filter((c) => c !== card);
    };
    if (ev.kind === "take" || ev.kind === "pile") {
      pub.pile.pop();
      if (theirs) { pub.opponent_count += 1; pub.opponent_pile_cards.push(ev.card); }
    } else if (ev.kind === "stock") {
      pub.stock_count -= 1;
      if (theirs) pub.opponent_count += 1;
    } else if (ev.kind === "discard") {
      pub.pile.push(ev.card);
      if (theirs) dropTheirs(ev.card);
    } else if (ev.kind === "knock") {
      if (theirs) dropTheirs(ev.card);
    }
  }

  function rectOf(el) { return el.getBoundingClientRect(); }

  async function fly(ev, fromRect) {
    let ms = SPEEDS[comfort.speed];
    if (!ms) return;
    const mine = ev.who === "you";
    const side = mine ? $("hand") : $("opp-cards");
    const from = { take: $("pile"), pile: $("pile"), stock: $("stock"), discard: side, knock: side }[ev.kind];
    const to = { take: side, pile: side, stock: side, discard: $("pile"), knock: $("pile") }[ev.kind];
    if (!from || !to) { await sleep(ms); return; }
    if (mine) ms = Math.round(ms * 0.7);
    const a = fromRect || rectOf(from.querySelector("svg") || from);
    const b = rectOf(mine && (ev.kind === "discard" || ev.kind === "knock") ? $("pile") : (to.querySelector(".card-svg:last-child") || to));
    const ghost = document.createElement("div");
    ghost.className = "flying";
    const faceUp = ev.card && ev.kind !== "knock" && (ev.kind !== "stock" || mine);
    ghost.appendChild(faceUp ? C.face(ev.card) : C.back());
    const w = $("pile").querySelector("svg") ? rectOf($("pile").querySelector("svg")).width : 70;
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
    try { await anim.finished; } catch (e) { /* cancelled */ }
    ghost.remove();
  }

  /** Show what a request did, one move at a time, then the new state. */
  async function playOut(before, after) {
    state.busy = true;
    const events = after.events;
    const newHand = !before || before.hand_number !== after.hand_number || events.some((e) => e.kind === "dealt");
    const pub = newHand
      ? { pile: [after.table.first_upcard], stock_count: 31, opponent_count: 10, opponent_pile_cards: [] }
      : publicOf(before.table);
    state.match = after;
    state.marked = null;
    const firstLog = after.table.log.length - events.filter((e) => e.hand === after.hand_number).length;
    state.display = { pub, logCount: Math.max(0, firstLog) };
    render();
    const ms = SPEEDS[comfort.speed];
    for (const ev of events) {
      if (ev.who === "computer" && ev.kind !== "dealt") {
        if (ms) await sleep(ms * 0.8);
        await fly(ev);
        announce(`Computer ${ev.spoken}.`);
      } else if (ev.who === "you" && ev.kind !== "pass") {
        await fly(ev, ev.kind === "discard" || ev.kind === "knock" ? state.throwFrom : null);
        if (ev.kind !== "discard") announce(`You ${ev.spoken}.`);
      } else if (ev.kind === "dealt") {
        announce(`${who(ev.who)} ${ev.spoken}.`);
      }
      applyPublic(pub, ev);
      state.display.logCount += 1;
      render();
    }
    state.display = null;
    state.busy = false;
    render();
    afterHand(true);
  }

  async function act(action, card, melds) {
    const m = state.match;
    if (!m || state.busy) return;
    state.busy = true;
    $("error").textContent = "";
    render();
    let after;
    const thrown = card && $("hand").querySelector(`[data-code="${card}"]`);
    state.throwFrom = thrown ? rectOf(thrown) : null;
    try {
      const body = { version: m.version, action, action_id: randomId() };  // a retry applies once
      if (card) body.card = card;
      if (melds) body.melds = melds;
      after = await api("POST", `/api/matches/${m.id}/actions`, body);
      learn(action);
    } catch (e) {
      state.busy = false;
      showError(e);
      return;
    }
    await playOut(m, after);
  }

  async function nextHand() {
    const m = state.match;
    if (!m || state.busy || !m.awaiting_deal) return;
    closeDialog("dlg-result");
    state.busy = true;
    let after;
    try {
      // The fair deal: our seed for the hand whose commitment the last result showed.
      const deal = { version: m.version, client_seed: randomId(), action_id: randomId() };
      after = await api("POST", `/api/matches/${m.id}/next-hand`, deal);
    } catch (e) {
      state.busy = false;
      showError(e);
      return;
    }
    state.grouped = false;
    await playOut(m, after);
  }

  async function showError(e) {
    $("error").textContent = e.message;
    announce(e.message);
    if (e.code === "stale_version" && state.match) {
      // Another tab or a repeated click moved the match on: show where it is now.
      try {
        const fresh = await api("GET", "/api/matches/" + state.match.id);
        state.match = fresh;
      } catch (err) { /* keep the message */ }
    }
    render();
  }

  function afterHand(fresh) {
    const m = state.match;
    if (!m || !m.last_result) return;
    if (fresh) announce(m.last_result.summary);
    if (m.final) showFinal();
    else showResult();
  }

  // ---------------------------------------------------------------- drawing the table

  function cardButton(code, extra) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "card";
    b.dataset.code = code;
    b.appendChild(C.face(code));
    let label = C.name(code);
    if (extra && extra.note) label += ", " + extra.note;
    b.setAttribute("aria-label", label);
    return b;
  }

  function smallCard(code, cls) {
    return C.mini(code, cls);
  }

  function currentTable() {
    const m = state.match;
    if (!m) return null;
    if (!state.display) return m.table;
    const t = Object.assign({}, m.table, state.display.pub);
    t.opponent_hand = null;
    t.log = m.table.log.slice(0, state.display.logCount);
    return t;
  }

  function canAct(t) {
    return !state.busy && t.to_act === "you" && t.phase !== "over";
  }

  function knockChoice(t) {
    if (!canAct(t) || t.phase !== "discard" || !t.knock) return null;
    const marked = state.marked && t.legal.knock.find((k) => k.card === state.marked);
    return marked ? { card: marked.card, leaves: marked.leaves } : { card: t.knock.card, leaves: t.knock.leaves };
  }

  function render() {
    const m = state.match;
    if (!m) return;
    const t = currentTable();
    const live = canAct(t);
    const body = document.body;
    body.classList.toggle("my-turn", live);

    $("score-you").textContent = m.scores[0];
    $("score-them").textContent = m.scores[1];
    $("score-target").textContent = `to ${m.settings.match_to}`;
    $("hand-number").textContent = `Hand ${m.hand_number}`;
    $("rules-summary").textContent = m.settings_summary;
    $("knock-limit").textContent = t.knock_limit === 0 ? "Gin only this hand" : `Knock at ${t.knock_limit} or less`;
    $("opp-dealer").hidden = t.dealer !== "computer";
    $("my-dealer").hidden = t.dealer !== "you";

    // The computer's side: face down, with what it took from the pile face up in front.
    const opp = $("opp-cards");
    opp.replaceChildren();
    if (t.opponent_hand && !state.display) {
      for (const c of t.opponent_hand) opp.appendChild(C.face(c));
      opp.classList.add("revealed");
    } else {
      opp.classList.remove("revealed");
      for (let i = 0; i < t.opponent_count; i++) opp.appendChild(C.back());
    }
    $("opp-count").textContent = `${t.opponent_count} card${t.opponent_count === 1 ? "" : "s"}`;
    const taken = $("opp-taken");
    taken.replaceChildren(...t.opponent_pile_cards.map((c) => smallCard(c)));
    $("opp-taken-wrap").hidden = t.opponent_pile_cards.length === 0 || Boolean(t.opponent_hand && !state.display);

    // Stock and pile.
    const stockSlot = $("stock-card");
    stockSlot.replaceChildren();
    if (t.stock_count > 0) stockSlot.appendChild(C.back());
    else stockSlot.appendChild(emptySlot());
    $("stock-count").textContent = String(t.stock_count);
    const canStock = live && t.legal.stock;
    const canPile = live && (t.legal.pile || t.legal.take);
    $("stock").setAttribute("aria-label", `Stock, ${t.stock_count} cards` + (canStock ? ": press to draw (S)" : ""));
    $("stock").classList.toggle("drawable", canStock);
    $("stock").setAttribute("aria-disabled", String(!canStock));
    const top = t.pile.length ? t.pile[t.pile.length - 1] : null;
    const pileSlot = $("pile-card");
    pileSlot.replaceChildren(top ? C.face(top) : emptySlot());
    const canThrow = live && t.phase === "discard";
    let pileLabel = top ? `Discard pile, ${C.name(top)} on top` : "Discard pile, empty";
    if (canPile) pileLabel += t.legal.take ? ": press to take it (T)" : ": press to take it (P)";
    else if (canThrow && state.marked) pileLabel += `: press to throw the ${C.name(state.marked)}`;
    $("pile").setAttribute("aria-label", pileLabel);
    $("pile").classList.toggle("drawable", canPile);
    $("pile").classList.toggle("throwable", canThrow);
    $("pile-count").textContent = String(t.pile.length);

    // Buttons.
    $("btn-take").hidden = !(live && t.legal.take);
    $("btn-pass").hidden = !(live && t.legal.pass);
    const choice = knockChoice(t);
    $("btn-knock").hidden = !choice;
    renderLayouts(t, choice);
    if (choice) {
      $("knock-label").textContent = choice.leaves === 0 ? "Gin" : `Knock with ${choice.leaves}`;
      $("knock-sub").textContent = `throws the ${C.symbol(choice.card)}`;
      $("btn-knock").setAttribute("aria-label", `${choice.leaves === 0 ? "Gin" : "Knock with " + choice.leaves}, throwing the ${C.name(choice.card)}`);
    }
    $("btn-big-gin").hidden = !(live && t.legal.big_gin);
    $("btn-next").hidden = !(m.awaiting_deal && !state.busy);
    $("btn-next").textContent = "";
    $("btn-next").append("Next hand ", keyHint("Enter"));

    // The prompt.
    $("prompt").textContent = promptText(m, t);

    // The log.
    const log = $("log");
    log.replaceChildren(...t.log.map((ev) => {
      const li = document.createElement("li");
      li.className = ev.who === "you" ? "mine" : "theirs";
      li.textContent = logLine(ev);
      return li;
    }));
    log.scrollTop = log.scrollHeight;

    renderHand(m, t, live);
  }

  function keyHint(k) {
    const s = document.createElement("span");
    s.className = "key";
    s.textContent = k;
    return s;
  }

  function emptySlot() {
    const s = document.createElement("span");
    s.className = "empty-slot";
    return s;
  }

  function promptText(m, t) {
    if (state.busy) return state.display ? "The computer is playing…" : "";
    if (m.final) return "The match is over.";
    if (t.phase === "over") return "The hand is over.";
    if (t.to_act !== "you") return "The computer is playing…";
    const top = t.pile.length ? C.symbol(t.pile[t.pile.length - 1]) : "";
    if (t.phase === "upcard") {
      return learned("take") ? `Take the ${top} or pass.` : `Take the ${top} (that is your draw) or pass.`;
    }
    if (t.phase === "draw") {
      if (!t.legal.pile) return "Draw from the stock.";
      return learned("draw")
        ? `Draw from the stock, or take the ${top}.`
        : `Draw from the stock, or take the ${top}: click either, or drag it to your hand.`;
    }
    if (state.marked) {
      const leaves = (t.throws.find((x) => x.card === state.marked) || {}).leaves;
      return `Throw the ${C.symbol(state.marked)}: click the pile` + (leaves !== undefined ? ` (that leaves ${leaves}).` : ".");
    }
    return learned("throw") ? "Throw a card." : "Throw a card: click it, then the pile — or double-click it, or drag it there.";
  }

  function renderHand(m, t, live) {
    const hand = $("hand");
    const order = handOrder(t, m);
    const arrangement = t.arrangement;
    $("deadwood-count").textContent = String(arrangement.points);
    $("deadwood").setAttribute("aria-label", `Deadwood ${arrangement.points}`);
    const sortBtn = $("btn-sort");
    const next = savedOrder(m) ? sortBy() : (sortBy() === "rank" ? "suit" : "rank");
    sortBtn.textContent = "";
    sortBtn.append(`By ${next} `, keyHint("O"));
    sortBtn.setAttribute("aria-label", `Sort your hand by ${next}`);
    const groupBtn = $("btn-group");
    groupBtn.setAttribute("aria-pressed", String(state.grouped));
    groupBtn.textContent = "";
    groupBtn.append(state.grouped ? "Ungroup " : "Group ", keyHint("G"));
    if (state.marked && !t.hand.includes(state.marked)) state.marked = null;
    if (!(live && t.phase === "discard")) state.marked = null;
    const hint = state.marked && t.throws.find((x) => x.card === state.marked);
    let hintText = hint ? `throwing the ${C.symbol(hint.card)} leaves ${hint.leaves}` : "";
    if (!hint && live && t.phase === "discard" && !t.knock && t.throws.length) {
      hintText = `your best throw leaves ${Math.min(...t.throws.map((x) => x.leaves))}`;
    }
    $("throw-hint").textContent = hintText;

    const note = (code) => {
      const parts = [];
      if (code === t.drawn) parts.push("just drawn");
      if (code === t.locked) parts.push("taken from the pile, cannot be thrown this turn");
      return parts.join(", ");
    };
    const build = (code) => {
      const b = cardButton(code, { note: note(code) });
      if (code === t.drawn) b.classList.add("drawn");
      if (code === t.locked) b.classList.add("locked");
      if (code === state.marked) b.classList.add("marked");
      b.setAttribute("aria-pressed", String(code === state.marked));
      b.tabIndex = -1;
      return b;
    };

    hand.replaceChildren();
    hand.classList.toggle("grouped", state.grouped);
    const buttons = [];
    if (state.grouped) {
      for (const meld of arrangement.melds) {
        const g = document.createElement("div");
        g.className = "meld-group";
        const label = document.createElement("span");
        label.className = "group-label";
        label.textContent = meld.kind === "run" ? "Run" : "Set";
        g.appendChild(label);
        const row = document.createElement("div");
        row.className = "group-cards";
        for (const c of meld.cards) {
          const b = build(c);
          b.setAttribute("aria-label", b.getAttribute("aria-label") + `, in a ${meld.kind}`);
          row.appendChild(b);
          buttons.push(b);
        }
        g.appendChild(row);
        hand.appendChild(g);
      }
      if (arrangement.deadwood.length) {
        const g = document.createElement("div");
        g.className = "meld-group deadwood-group";
        const label = document.createElement("span");
        label.className = "group-label";
        label.textContent = `Deadwood ${arrangement.points}`;
        g.appendChild(label);
        const row = document.createElement("div");
        row.className = "group-cards";
        const dead = [...arrangement.deadwood].sort((a, b) => C.sortKey(a) - C.sortKey(b));
        for (const c of dead) {
          const b = build(c);
          const pts = document.createElement("span");
          pts.className = "pts";
          pts.textContent = String(C.points(c));
          pts.setAttribute("aria-hidden", "true");
          b.appendChild(pts);
          b.setAttribute("aria-label", b.getAttribute("aria-label") + `, deadwood, ${C.points(c)} point${C.points(c) === 1 ? "" : "s"}`);
          row.appendChild(b);
          buttons.push(b);
        }
        g.appendChild(row);
        hand.appendChild(g);
      }
    } else {
      const row = document.createElement("div");
      row.className = "hand-row";
      for (const c of order) {
        const b = build(c);
        row.appendChild(b);
        buttons.push(b);
      }
      hand.appendChild(row);
    }
    // One tab stop for the whole hand; arrows move within it.
    let focusCode = state.focus && t.hand.includes(state.focus) ? state.focus : null;
    if (!focusCode && buttons.length) focusCode = (t.drawn && t.hand.includes(t.drawn)) ? t.drawn : buttons[0].dataset.code;
    for (const b of buttons) if (b.dataset.code === focusCode) b.tabIndex = 0;
    layoutHand();
    if (state.focus && hand.dataset.hadFocus === "1") {
      const f = hand.querySelector(`[data-code="${state.focus}"]`);
      if (f) f.focus({ preventScroll: true });
    }
  }

  /** Overlap the cards just enough that a row fits the width. */
  function layoutHand() {
    const hand = $("hand");
    for (const row of hand.querySelectorAll(".hand-row, .group-cards")) {
      const cards = row.querySelectorAll(".card");
      if (!cards.length) continue;
      const w = cards[0].getBoundingClientRect().width;
      const avail = (hand.classList.contains("grouped") ? row.parentElement.parentElement : row).clientWidth;
      const n = cards.length;
      const gap = 6;
      let step = w + gap;
      if (!hand.classList.contains("grouped") && n > 1 && (n - 1) * step + w > avail) {
        step = Math.max(w * 0.28, (avail - w) / (n - 1));
      } else if (hand.classList.contains("grouped")) {
        step = Math.max(w * 0.3, Math.min(w * 0.5, w + gap));
      }
      row.style.setProperty("--step", (step - w) + "px");
    }
  }
  window.addEventListener("resize", () => { if (state.match) layoutHand(); });

  // ---------------------------------------------------------------- result, final score, sheet

  // Drawn by cards.js, which the learn pages' worked hand uses too.
  function meldRow(melds, deadwood, deadPoints, layOffs) {
    return C.laid(melds, deadwood, deadPoints, layOffs);
  }

  function handsOf(entry) {
    const box = document.createElement("div");
    box.className = "result-hands";
    if (entry.kind === "dead") {
      const p = document.createElement("p");
      p.className = "muted";
      // The rules: nothing is revealed, and the same dealer deals again.
      p.textContent = `No cards are shown. ${entry.dealer === "you" ? "You deal" : "The computer deals"} the next hand again.`;
      box.appendChild(p);
      return box;
    }
    const knocker = entry.knocker;
    const defender = knocker === "you" ? "computer" : "you";
    const verb = { gin: "went gin", big_gin: "declared big gin" }[entry.kind] || "knocked";
    const blocks = [
      [`${who(knocker)} ${verb}`, knocker, entry.knocker_melds, entry.knocker_deadwood, entry.knocker_points, entry.lay_offs],
      [`${who(defender)}`, defender, entry.defender_melds, entry.defender_deadwood, entry.defender_points, []],
    ];
    for (const [title, side, melds, dead, pts, los] of blocks) {
      const sec = document.createElement("section");
      sec.className = "result-side side-" + side;
      const h = document.createElement("h3");
      h.textContent = title;
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = ` — ${pts}`;
      h.appendChild(count);
      sec.appendChild(h);
      sec.appendChild(meldRow(melds, dead, pts, los));
      if (side === defender && entry.lay_offs.length) {
        const p = document.createElement("p");
        p.className = "muted small";
        p.textContent = "Laid off onto the knocker's melds: " + entry.lay_offs.map((lo) => C.symbol(lo.card)).join(" ");
        sec.appendChild(p);
      }
      box.appendChild(sec);
    }
    return box;
  }

  function resultTitle(entry) {
    if (entry.kind === "dead") return "Dead hand";
    const base = entry.winner === "you" ? "You win the hand" : "The computer wins the hand";
    return `${base}: ${entry.points} point${entry.points === 1 ? "" : "s"}`;
  }

  function showResult() {
    const m = state.match;
    const entry = m.last_result;
    $("result-title").textContent = resultTitle(entry);
    $("result-summary").textContent = entry.summary;
    showDealCheck(m);  // the fair deal: seed revealed, checked here
    $("result-hands").replaceChildren(handsOf(entry));
    $("result-score").replaceChildren(totalsLine(m.scores, m.settings.match_to));
    $("result-next").hidden = !m.awaiting_deal;
    openDialog("dlg-result");
    $("result-next").focus();
  }

  function totalsLine(scores, target) {
    const p = document.createElement("p");
    p.className = "totals";
    p.textContent = `You ${scores[0]} — Computer ${scores[1]} (to ${target})`;
    return p;
  }

  function sheetTable(m) {
    const wrap = document.createElement("div");
    if (!m.sheet.length) {
      const p = document.createElement("p");
      p.className = "muted";
      p.textContent = "No hand has ended yet.";
      wrap.appendChild(p);
      return wrap;
    }
    const table = document.createElement("table");
    table.className = "sheet";
    const head = document.createElement("thead");
    const hr = document.createElement("tr");
    for (const h of ["Hand", "Result", "You", "Computer"]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = h;
      hr.appendChild(th);
    }
    head.appendChild(hr);
    table.appendChild(head);
    const body = document.createElement("tbody");
    for (const e of m.sheet) {
      // One line per hand; its laid-down hands open in a full-width line beneath.
      const tr = document.createElement("tr");
      tr.className = "sheet-line";
      const hands = document.createElement("tr");
      hands.className = "sheet-hands";
      hands.hidden = true;
      const cell = document.createElement("td");
      cell.colSpan = 4;
      cell.appendChild(handsOf(e));
      hands.appendChild(cell);
      const num = document.createElement("th");
      num.scope = "row";
      num.textContent = String(e.number);
      const result = document.createElement("td");
      const summary = document.createElement("span");
      summary.textContent = e.summary + " ";
      result.appendChild(summary);
      if (e.kind !== "dead") {
        const toggle = document.createElement("button");
        toggle.type = "button";
        toggle.className = "link-btn small";
        toggle.textContent = "Show the hands";
        toggle.setAttribute("aria-expanded", "false");
        toggle.addEventListener("click", () => {
          hands.hidden = !hands.hidden;
          toggle.setAttribute("aria-expanded", String(!hands.hidden));
          toggle.textContent = hands.hidden ? "Show the hands" : "Hide the hands";
        });
        result.appendChild(toggle);
      }
      tr.append(num, result);
      [0, 1].forEach((side) => {
        const td = document.createElement("td");
        const who = side === 0 ? "you" : "computer";
        td.className = "num" + (e.winner === who ? " won" : "");
        td.textContent = e.winner === who ? `+${e.points} → ${e.totals[side]}` : String(e.totals[side]);
        tr.appendChild(td);
      });
      body.append(tr, hands);
    }
    table.appendChild(body);
    wrap.appendChild(table);
    return wrap;
  }

  function showSheet() {
    const m = state.match;
    if (!m) return;
    $("sheet-body").replaceChildren(sheetTable(m));
    openDialog("dlg-sheet");
  }

  function showFinal() {
    const m = state.match;
    const f = m.final;
    $("final-title").textContent = f.winner === "you" ? "You win the match!" : "The computer wins the match";
    const body = $("final-body");
    body.replaceChildren();
    if (m.last_result) {
      const p = document.createElement("p");
      p.className = "result-summary";
      p.textContent = `Last hand: ${m.last_result.summary}`;
      body.appendChild(p);
    }
    const table = document.createElement("table");
    table.className = "final-table";
    const rows = [["Running score", f.running]];
    if (m.settings.game_bonus) rows.push(["Game bonus", f.game_bonus]);
    if (m.settings.line_bonus) rows.push(["Line bonus", f.line_bonus]);
    if (m.settings.shutout !== "off") rows.push(["Shutout bonus", f.shutout_bonus]);
    rows.push(["Total", f.totals]);
    const hr = document.createElement("tr");
    for (const h of ["", "You", "Computer"]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = h;
      hr.appendChild(th);
    }
    const thead = document.createElement("thead");
    thead.appendChild(hr);
    table.appendChild(thead);
    const tbody = document.createElement("tbody");
    for (const [label, pair] of rows) {
      const tr = document.createElement("tr");
      if (label === "Total") tr.className = "total";
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = label;
      tr.appendChild(th);
      for (const v of pair) {
        const td = document.createElement("td");
        td.textContent = String(v);
        tr.appendChild(td);
      }
      tbody.appendChild(tr);
    }
    table.appendChild(tbody);
    body.appendChild(table);
    const hands = document.createElement("p");
    hands.className = "muted";
    hands.textContent = `${m.sheet.length} hand${m.sheet.length === 1 ? "" : "s"} played · ${m.settings_summary}`;
    body.appendChild(hands);
    openDialog("dlg-final");
    $("final-again").focus();
  }

  // ---------------------------------------------------------------- dialogs

  function openDialog(id) {
    const d = $(id);
    if (!d.open) d.showModal();
  }

  function closeDialog(id) {
    const d = $(id);
    if (d.open) d.close();
  }

  for (const d of document.querySelectorAll("dialog")) {
    d.addEventListener("click", (e) => {
      if (e.target.closest("[data-close]")) d.close();
      else if (e.target === d) d.close(); // a click on the backdrop
    });
  }

  function showRules() {
    const m = state.match;
    if (!m || !state.settingsOptions) return;
    $("rules-full-link").setAttribute("href", "/rules?match=" + encodeURIComponent(m.id));
    const dl = $("rules-body");
    dl.replaceChildren();
    for (const opt of state.settingsOptions) {
      const v = m.settings[opt.name];
      if (opt.name === "big_gin_bonus" && !m.settings.big_gin) continue;
      const dt = document.createElement("dt");
      dt.textContent = opt.label;
      const dd = document.createElement("dd");
      let text = String(v);
      if (opt.kind === "switch") text = v ? "On" : "Off";
      if (opt.kind === "choice") text = (opt.choices.find((c) => c[0] === v) || [v, v])[1];
      const b = document.createElement("b");
      b.textContent = text;
      const help = document.createElement("span");
      help.className = "muted";
      help.textContent = " — " + opt.help;
      dd.append(b, help);
      dl.append(dt, dd);
    }
    openDialog("dlg-rules");
  }

  $("open-rules").addEventListener("click", async () => {
    if (!state.settingsOptions) {
      try { state.settingsOptions = await api("GET", "/api/settings"); } catch (e) { return; }
    }
    showRules();
  });
  $("open-sheet").addEventListener("click", showSheet);
  $("result-sheet").addEventListener("click", showSheet);
  $("final-sheet").addEventListener("click", showSheet);
  $("result-close").addEventListener("click", () => closeDialog("dlg-result"));
  $("result-next").addEventListener("click", nextHand);
  $("btn-next").addEventListener("click", nextHand);
  $("final-again").addEventListener("click", () => {
    const m = state.match;
    if (!m) return;
    closeDialog("dlg-final");
    startMatch(m.settings, $("error"));
  });
  $("open-pile").addEventListener("click", () => {
    const t = currentTable();
    if (!t) return;
    const box = $("pile-body");
    box.replaceChildren(...t.pile.map((c) => smallCard(c)));
    openDialog("dlg-pile");
  });
  $("open-help").addEventListener("click", () => openDialog("dlg-help"));
  $("open-comfort").addEventListener("click", () => openDialog("dlg-comfort"));
  $("opt-four-colour").addEventListener("change", (e) => { comfort.fourColour = e.target.checked; saveComfort(); });
  $("opt-large").addEventListener("change", (e) => { comfort.large = e.target.checked; saveComfort(); });
  $("opt-speed").addEventListener("change", (e) => { comfort.speed = e.target.value; saveComfort(); });

  // ---------------------------------------------------------------- moves by mouse

  function throwCard(code) {
    const t = currentTable();
    if (!t || !canAct(t) || t.phase !== "discard") return;
    if (code === t.locked) {
      $("error").textContent = `The ${C.symbol(code)} was just taken from the pile: it can't be thrown this turn.`;
      return;
    }
    act("discard", code);
  }

  function markCard(code) {
    const t = currentTable();
    if (!t) return;
    state.focus = code;
    if (!canAct(t) || t.phase !== "discard") return;
    if (code === t.locked) {
      $("error").textContent = `The ${C.symbol(code)} was just taken from the pile: it can't be thrown this turn.`;
      return;
    }
    $("error").textContent = "";
    state.marked = state.marked === code ? null : code;
    render();
  }

  function drawStock() {
    const t = currentTable();
    if (t && canAct(t) && t.legal.stock) act("stock");
  }

  function drawPile() {
    const t = currentTable();
    if (!t || !canAct(t)) return;
    if (t.legal.take) act("take");
    else if (t.legal.pile) act("pile");
  }

  function knock() {
    const t = currentTable();
    const choice = t && knockChoice(t);
    if (!choice) return;
    const layouts = layoutsFor(t, choice.card);
    const picked = layouts && layouts.layouts[state.layout.card === choice.card ? state.layout.index : 0];
    act("knock", choice.card, picked ? picked.melds.map((meld) => meld.cards) : undefined);
  }

  /** The equally good ways to lay down after knocking with ``card``, if there is a choice. */
  function layoutsFor(t, card) {
    return (t.knock_layouts || []).find((k) => k.card === card) || null;
  }

  function layoutText(layout) {
    const melds = layout.melds.map((meld) => meld.cards.map(C.symbol).join(" ")).join(" · ");
    const dead = layout.deadwood.map(C.symbol).join(" ");
    return dead ? `${melds}, leaving ${dead}` : melds;
  }

  /** The knocker's choice among equally good layouts (it matters for lay-offs). */
  function renderLayouts(t, choice) {
    const box = $("knock-layouts");
    const layouts = choice && layoutsFor(t, choice.card);
    box.hidden = !layouts;
    if (!layouts) return;
    if (state.layout.card !== choice.card) state.layout = { card: choice.card, index: 0 };
    const list = $("knock-layout-options");
    list.replaceChildren(...layouts.layouts.map((layout, i) => {
      const label = document.createElement("label");
      label.className = "layout-option";
      const input = document.createElement("input");
      input.type = "radio";
      input.name = "knock-layout";
      input.value = String(i);
      input.checked = i === state.layout.index;
      input.addEventListener("change", () => { state.layout = { card: choice.card, index: i }; });
      const text = document.createElement("span");
      text.textContent = layoutText(layout);
      label.append(input, text);
      return label;
    }));
  }

  $("stock").addEventListener("click", () => { if (!dragState.justDragged) drawStock(); });
  $("pile").addEventListener("click", () => {
    if (dragState.justDragged) return;
    const t = currentTable();
    if (!t || !canAct(t)) return;
    if (t.phase === "discard") {
      if (state.marked) throwCard(state.marked);
      else $("error").textContent = "Pick the card to throw first, then click the pile.";
    } else drawPile();
  });
  $("btn-take").addEventListener("click", () => act("take"));
  $("btn-pass").addEventListener("click", () => act("pass"));
  $("btn-knock").addEventListener("click", knock);
  $("btn-big-gin").addEventListener("click", () => act("big_gin"));
  $("btn-group").addEventListener("click", () => { state.grouped = !state.grouped; render(); });
  $("btn-sort").addEventListener("click", resort);

  // A second click on the same card soon after the first throws it. (Counted here, not by
  // the browser's dblclick, because marking re-draws the hand between the two clicks.)
  const lastClick = { code: null, at: 0 };
  $("hand").addEventListener("click", (e) => {
    const b = e.target.closest(".card");
    if (!b || dragState.justDragged) return;
    const code = b.dataset.code;
    const now = performance.now();
    if (lastClick.code === code && now - lastClick.at < 450) {
      lastClick.code = null;
      throwCard(code);
      return;
    }
    lastClick.code = code;
    lastClick.at = now;
    markCard(code);
    const again = $("hand").querySelector(`[data-code="${code}"]`);
    if (again) again.focus({ preventScroll: true });
  });
  $("hand").addEventListener("focusin", (e) => {
    const b = e.target.closest(".card");
    $("hand").dataset.hadFocus = "1";
    if (b) state.focus = b.dataset.code;
  });
  $("hand").addEventListener("focusout", () => { $("hand").dataset.hadFocus = "0"; });

  // ---------------------------------------------------------------- dragging

  const dragState = { source: null, start: null, ghost: null, active: false, justDragged: false, pointer: null };

  function startDrag(e, source) {
    if (e.button !== 0 || state.busy) return;
    dragState.source = source;
    dragState.start = { x: e.clientX, y: e.clientY };
    dragState.active = false;
    dragState.pointer = e.pointerId;
  }

  function beginGhost(e) {
    const src = dragState.source;
    const ghost = document.createElement("div");
    ghost.className = "flying dragging-ghost";
    let svgEl;
    if (src.kind === "card") svgEl = C.face(src.code);
    else if (src.kind === "pile") svgEl = C.face(src.code);
    else svgEl = C.back();
    ghost.appendChild(svgEl);
    const w = src.el.getBoundingClientRect().width;
    ghost.style.width = w + "px";
    document.body.appendChild(ghost);
    dragState.ghost = ghost;
    dragState.offset = { x: w / 2, y: w * 0.7 };
    if (src.kind === "card") src.el.classList.add("dragging");
    moveGhost(e);
  }

  function moveGhost(e) {
    const g = dragState.ghost;
    if (!g) return;
    g.style.left = e.clientX - dragState.offset.x + "px";
    g.style.top = e.clientY - dragState.offset.y + "px";
    const over = dropTarget(e);
    $("pile").classList.toggle("drop-over", over === "pile");
    $("hand").classList.toggle("drop-over", over === "hand" && dragState.source.kind !== "card");
  }

  function dropTarget(e) {
    const el = document.elementFromPoint(e.clientX, e.clientY);
    if (!el) return null;
    if (el.closest(".pile-wrap")) return "pile";
    if (el.closest(".mine")) return "hand";
    return null;
  }

  function endDrag(e) {
    const src = dragState.source;
    const wasActive = dragState.active;
    dragState.source = null;
    if (!src) return;
    if (dragState.ghost) dragState.ghost.remove();
    dragState.ghost = null;
    $("pile").classList.remove("drop-over");
    $("hand").classList.remove("drop-over");
    if (src.kind === "card") src.el.classList.remove("dragging");
    if (!wasActive) return;
    dragState.justDragged = true;
    setTimeout(() => { dragState.justDragged = false; }, 50);
    const target = dropTarget(e);
    const t = currentTable();
    if (!t) return;
    if (src.kind === "card") {
      if (target === "pile") throwCard(src.code);
      else if (target === "hand") reorderTo(src.code, e.clientX, e.clientY);
    } else if (target === "hand") {
      if (src.kind === "stock") drawStock();
      else drawPile();
    }
  }

  function reorderTo(code, x) {
    const m = state.match;
    const t = currentTable();
    const shown = [...$("hand").querySelectorAll(".card")].map((b) => b.dataset.code);
    const rest = shown.filter((c) => c !== code);
    const others = [...$("hand").querySelectorAll(".card")].filter((b) => b.dataset.code !== code);
    let index = rest.length;
    for (let i = 0; i < others.length; i++) {
      const r = others[i].getBoundingClientRect();
      const step = i + 1 < others.length ? others[i + 1].getBoundingClientRect().left - r.left : r.width;
      if (x < r.left + Math.min(step, r.width) / 2) { index = i; break; }
    }
    rest.splice(index, 0, code);
    saveOrder(m, rest.filter((c) => t.hand.includes(c)));
    state.grouped = false;
    state.focus = code;
    render();
  }

  function moveInOrder(code, delta) {
    const m = state.match;
    const t = currentTable();
    if (!m || !t) return;
    const shown = [...$("hand").querySelectorAll(".card")].map((b) => b.dataset.code);
    const i = shown.indexOf(code);
    const j = i + delta;
    if (i < 0 || j < 0 || j >= shown.length) return;
    [shown[i], shown[j]] = [shown[j], shown[i]];
    saveOrder(m, shown);
    state.grouped = false;
    state.focus = code;
    $("hand").dataset.hadFocus = "1";
    render();
    announce(`${C.name(code)} moved to place ${j + 1} of ${shown.length}`);
  }

  $("hand").addEventListener("pointerdown", (e) => {
    const b = e.target.closest(".card");
    if (b) startDrag(e, { kind: "card", code: b.dataset.code, el: b });
  });
  $("stock").addEventListener("pointerdown", (e) => {
    const t = currentTable();
    if (t && canAct(t) && t.legal.stock) startDrag(e, { kind: "stock", el: $("stock") });
  });
  $("pile").addEventListener("pointerdown", (e) => {
    const t = currentTable();
    if (t && canAct(t) && (t.legal.pile || t.legal.take)) startDrag(e, { kind: "pile", code: t.pile[t.pile.length - 1], el: $("pile") });
  });
  document.addEventListener("pointermove", (e) => {
    if (!dragState.source || e.pointerId !== dragState.pointer) return;
    if (!dragState.active) {
      const dx = e.clientX - dragState.start.x;
      const dy = e.clientY - dragState.start.y;
      if (dx * dx + dy * dy < 64) return;
      dragState.active = true;
      beginGhost(e);
    }
    e.preventDefault();
    moveGhost(e);
  });
  document.addEventListener("pointerup", (e) => { if (e.pointerId === dragState.pointer) endDrag(e); });
  document.addEventListener("pointercancel", () => {
    if (dragState.ghost) dragState.ghost.remove();
    if (dragState.source && dragState.source.kind === "card") dragState.source.el.classList.remove("dragging");
    dragState.ghost = null;
    dragState.source = null;
  });

  // ---------------------------------------------------------------- keys

  function focusedCard() {
    const el = document.activeElement;
    return el && el.closest && el.closest("#hand .card") ? el.closest(".card") : null;
  }

  function moveFocus(delta, toEnd) {
    const cards = [...$("hand").querySelectorAll(".card")];
    if (!cards.length) return;
    const current = focusedCard();
    let i = current ? cards.indexOf(current) : cards.findIndex((b) => b.tabIndex === 0);
    if (toEnd === "home") i = 0;
    else if (toEnd === "end") i = cards.length - 1;
    else i = Math.max(0, Math.min(cards.length - 1, (i < 0 ? 0 : i) + delta));
    for (const b of cards) b.tabIndex = -1;
    cards[i].tabIndex = 0;
    cards[i].focus();
    state.focus = cards[i].dataset.code;
  }

  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const openDlg = document.querySelector("dialog[open]");
    const inField = e.target.closest && e.target.closest("input, select, textarea");
    if (inField) return;
    if (document.body.dataset.view !== "table" || !state.match) {
      if (e.key === "?" && !openDlg) { openDialog("dlg-help"); e.preventDefault(); }
      return;
    }
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (openDlg) {
      if (openDlg.id === "dlg-result" && key === "Enter" && state.match.awaiting_deal && !e.target.closest("button, a, summary")) {
        e.preventDefault();
        nextHand();
      }
      return;
    }
    const card = focusedCard();
    const t = currentTable();
    let handled = true;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const delta = key === "ArrowLeft" ? -1 : 1;
      if (e.shiftKey && card) moveInOrder(card.dataset.code, delta);
      else moveFocus(delta);
    } else if (key === "Home" && card) moveFocus(0, "home");
    else if (key === "End" && card) moveFocus(0, "end");
    else if ((key === " " || key === "Enter") && card) markCard(card.dataset.code);
    else if (key === "Enter" && state.match.awaiting_deal) nextHand();
    else if (key === "d" || key === "Delete") {
      const code = state.marked || (card && card.dataset.code);
      if (code) throwCard(code);
    } else if (key === "s") drawStock();
    else if (key === "p") drawPile();
    else if (key === "t") { if (t && canAct(t) && t.legal.take) act("take"); }
    else if (key === "n") { if (t && canAct(t) && t.legal.pass) act("pass"); }
    else if (key === "k") knock();
    else if (key === "b") { if (t && canAct(t) && t.legal.big_gin) act("big_gin"); }
    else if (key === "g") { state.grouped = !state.grouped; render(); }
    else if (key === "o") resort();
    else if (key === "l") $("open-pile").click();
    else if (key === "m") showSheet();
    else if (key === "?" || key === "h") openDialog("dlg-help");
    else handled = false;
    if (handled) e.preventDefault();
  });

  // ---------------------------------------------------------------- history

  function when(iso) {
    const d = new Date(iso);
    return isNaN(d) ? iso : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  }

  async function showHistory() {
    showView("history");
    document.title = "Gin Rummy — history";
    const list = $("history-list");
    list.replaceChildren();
    let matches;
    try {
      matches = await api("GET", "/api/matches");
    } catch (e) {
      $("history-empty").hidden = false;
      $("history-empty").textContent = e.message;
      return;
    }
    $("history-empty").hidden = matches.length > 0;
    for (const m of matches) {
      const li = document.createElement("li");
      li.className = "history-item";
      const head = document.createElement("div");
      head.className = "history-head";
      const status = document.createElement("span");
      status.className = "chip status-" + (m.status === "over" ? (m.winner === "you" ? "won" : "lost") : "playing");
      status.textContent = m.status === "over" ? (m.winner === "you" ? "You won" : "Computer won") : "Unfinished";
      const score = document.createElement("span");
      score.className = "history-score";
      score.textContent = `You ${m.scores[0]} — Computer ${m.scores[1]}`;
      const meta = document.createElement("span");
      meta.className = "muted";
      meta.textContent = `${when(m.updated_at)} · ${m.hands} hand${m.hands === 1 ? "" : "s"} · ${m.settings_summary}`;
      head.append(status, score, meta);
      li.appendChild(head);
      const actions = document.createElement("div");
      actions.className = "history-actions";
      if (m.status === "playing") {
        const a = document.createElement("a");
        a.className = "btn primary small";
        a.href = "/match/" + m.id;
        a.dataset.nav = "";
        a.textContent = "Resume";
        actions.appendChild(a);
      }
      const d = document.createElement("details");
      const s = document.createElement("summary");
      s.textContent = "Score sheet";
      d.appendChild(s);
      d.addEventListener("toggle", async () => {
        if (!d.open || d.dataset.loaded) return;
        d.dataset.loaded = "1";
        try {
          const full = await api("GET", "/api/matches/" + m.id);
          d.appendChild(sheetTable(full));
        } catch (e) {
          const p = document.createElement("p");
          p.textContent = e.message;
          d.appendChild(p);
        }
      });
      actions.appendChild(d);
      actions.appendChild(proofsDetails(m.id));  // the fair deal: every hand's proof
      if (m.status === "over" || m.hands > 1) {
        // The record (docs/RECORDS.md) of the hands that are over, to keep or replay.
        const rec = document.createElement("a");
        rec.className = "btn small";
        rec.href = `/api/matches/${encodeURIComponent(m.id)}/record`;
        rec.setAttribute("download", `ginrummy-${m.id}.json`);
        rec.textContent = "Download record";
        actions.appendChild(rec);
      }
      li.appendChild(actions);
      list.appendChild(li);
    }
  }

  // ---------------------------------------------------------------- another tab

  // Back in this tab after playing in another one: show the match as it is now.
  async function catchUp() {
    const m = state.match;
    if (document.hidden || !m || state.busy || document.body.dataset.view !== "table") return;
    let fresh;
    try { fresh = await api("GET", "/api/matches/" + encodeURIComponent(m.id)); } catch (e) { return; }
    if (state.busy || !state.match || state.match.id !== fresh.id || fresh.version === state.match.version) return;
    for (const d of document.querySelectorAll("dialog[open]")) d.close();
    $("error").textContent = "";
    enterMatch(fresh, false);
  }
  document.addEventListener("visibilitychange", catchUp);
  window.addEventListener("focus", catchUp);

  // ---------------------------------------------------------------- start

  applyComfort();
  route();
})();
