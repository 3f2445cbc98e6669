import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { fill, has, list, setCatalogue, t, tNodes } from "../../ginrummy/web/static/js/messages.js";
import { EN, STATIC } from "./catalogue.js";

test("t fills the placeholders with the params", () => {
  setCatalogue({ "knock.with": "Knock with {leaves}" });
  assert.equal(t("knock.with", { leaves: 4 }), "Knock with 4");
});

test("a count picks the plural form of the reader's language", () => {
  setCatalogue({ "cards.one": "{count} card", "cards.other": "{count} cards" });
  assert.equal(t("cards", { count: 1 }), "1 card");
  assert.equal(t("cards", { count: 0 }), "0 cards");
  assert.equal(t("cards", { count: 10 }), "10 cards");
  assert.ok(has("cards"));
});

test("a missing key shows as itself and a missing param stays a placeholder", () => {
  setCatalogue({ "a": "{x} and {y}" });
  assert.equal(t("no.such.key"), "no.such.key");
  assert.equal(t("a", { x: 1 }), "1 and {y}");
  assert.equal(fill("{x}", { x: 0 }), "0");
});

test("tNodes puts nodes where their placeholders are", () => {
  setCatalogue({ "table.pile_button": "Pile ({count})" });
  const node = { node: true };
  assert.deepEqual(tNodes("table.pile_button", { count: /** @type {any} */ (node) }), ["Pile (", node, ")"]);
});

test("a list reads as English", () => {
  setCatalogue(EN);
  assert.equal(list(["a"]), "a");
  assert.equal(list(["a", "b", "c"]), "a, b and c");
});

/** Every JavaScript file of the page. */
function sources(dir = STATIC) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".js") ? [join(dir, e.name)] : []);
}

test("every key the page names has words in the English catalogue", () => {
  const missing = [];
  for (const file of sources()) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/\bt[r]?\(\s*"([a-z_.0-9]+)"/g)) {
      const key = m[1];
      if (!(key in EN) && !(`${key}.other` in EN)) missing.push(`${file}: ${key}`);
    }
  }
  assert.deepEqual(missing, []);
});

test("the catalogue is flat: every value is a string", () => {
  for (const [key, value] of Object.entries(EN)) assert.equal(typeof value, "string", key);
  for (const r of "A23456789TJQK") assert.ok(`card.rank.${r}` in EN);
  for (const s of "CDHS") assert.ok(`card.suit.${s}` in EN);
});

test("no module but the catalogue holds an English sentence", () => {
  // A string literal of two or more words starting with a capital is a sentence for a
  // reader: those live in i18n/en.json. (Comments and test-mode ids are not checked.)
  const found = [];
  for (const file of sources()) {
    const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "").replace(/\s\/\/ .*$/gm, "");
    for (const m of code.matchAll(/(["'`])([A-Z][a-z]+ [a-z][^"'`]*)\1/g)) found.push(`${file}: ${m[2]}`);
  }
  assert.deepEqual(found, []);
});

test("the page's own markup holds the catalogue's words, key by key", () => {
  const html = readFileSync(`${STATIC}index.html`, "utf8");
  const found = [...html.matchAll(/ data-t="([^"]+)">([^<]*)</g)];
  assert.ok(found.length > 50);
  for (const [, key, text] of found) assert.equal(EN[key], text.replace(/&amp;/g, "&"), key);
  for (const m of html.matchAll(/ (aria-label|title)="([^"]*)" data-t-\1="([^"]+)"/g)) assert.equal(EN[m[3]], m[2], m[3]);
  // Words outside any data-t: none but key names and symbols, and the language control's
  // names, each written in its own language (lang="en", lang="ne") whatever the page's.
  const text = html.replace(/<head>[\s\S]*?<\/head>/, "").replace(/<svg[\s\S]*?<\/svg>/g, "").replace(/<kbd>[^<]*<\/kbd>/g, "")
    .replace(/<a [^>]*\blang="[a-z]+"[^>]*>[^<]*<\/a>/g, "")
    .replace(/<([a-z0-9]+)[^>]* data-t="[^"]+"[^>]*>[^<]*<\/\1>/g, "").replace(/<[^>]+>/g, " ");
  assert.deepEqual(text.match(/[A-Za-z]{2,}/g), ["Aa"]); // the display options button: a sample of type
});
