// The learn pages: example hands drawn as cards, the rules of one match, the worked
// hand's steps, and the strategy guide's measured figures. Cards are drawn by the
// game's own modules.

import { defs, mini } from "../js/cards.js";
import { h } from "../js/dom.js";
import { loadCatalogue, translateStyles, wireLanguageControl } from "../js/messages.js";
import { loadComfort } from "../js/prefs.js";
import { rulesPage } from "./rules.js";
import { strategyPage } from "./strategy.js";
import { workedPage } from "./worked.js";

/**
 * A card token may end in "!" (the card to look at) or "~" (a card that is not in your
 * hand: on the pile, or one the other player may hold).
 * @param {string} token
 */
function miniFromToken(token) {
  const mark = token.slice(-1);
  const code = mark === "!" || mark === "~" ? token.slice(0, -1) : token;
  const cls = mark === "!" ? "hl" : mark === "~" ? "dim" : "";
  return mini(code, cls);
}

/** @param {string} text card tokens separated by spaces */
function cardsOf(text) {
  return h("div", { className: "grp-cards" }, ...text.trim().split(/\s+/).filter(Boolean).map(miniFromToken));
}

function drawExamples() {
  // data-cards="AS | 7H | TD": cards, "|" just spaces them.
  for (const row of document.querySelectorAll("[data-cards]")) {
    const parts = (/** @type {HTMLElement} */ (row).dataset.cards || "").split("|");
    row.replaceChildren(...parts.map((part) => h("div", { className: "grp" }, cardsOf(part))));
  }
  // data-groups="Run: 3S 4S 5S | Deadwood: AC": labelled groups.
  for (const row of document.querySelectorAll("[data-groups]")) {
    const parts = (/** @type {HTMLElement} */ (row).dataset.groups || "").split("|");
    row.replaceChildren(...parts.map((part) => {
      const [label, cards] = part.includes(":") ? part.split(":") : ["", part];
      const g = h("div", { className: "grp" });
      if (label.trim()) g.appendChild(h("span", { className: "grp-label" }, label.trim()));
      g.appendChild(cardsOf(cards));
      return g;
    }));
  }
}

// The colours the player chose on the game page (system, light or dark), here as well.
const theme = loadComfort(false).theme;
document.documentElement.dataset.theme = theme;
document.querySelector('meta[name="color-scheme"]')?.setAttribute("content", theme === "system" ? "light dark" : theme);

async function start() {
  await loadCatalogue();
  wireLanguageControl(document);
  translateStyles();
  defs();
  drawExamples();
  const page = document.body.dataset.page;
  try {
    if (page === "rules") await rulesPage();
    else if (page === "worked") await workedPage();
    else if (page === "strategy") await strategyPage();
  } finally {
    document.body.dataset.ready = "1";
  }
}

start();
