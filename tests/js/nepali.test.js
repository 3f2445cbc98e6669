import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

import { num, setCatalogue, t } from "../../ginrummy/web/static/js/messages.js";
import { STATIC } from "./catalogue.js";

const NE = JSON.parse(readFileSync(`${STATIC}i18n/ne.json`, "utf8"));

test("Nepali numbers are written in Devanagari digits, card indices as printed", () => {
  setCatalogue(NE, "ne");
  assert.equal(num(12345), "१२,३४५");
  assert.equal(num(1000), "१०००");
  assert.equal(t("knock.with", { leaves: 6 }), "६ मा नक");
  assert.equal(t("event.discard", { who: "कम्प्युटर", card: "10♠" }), "कम्प्युटर: 10♠ फालियो");
  setCatalogue({}, "en");
});

test("Nepali plural forms come from Intl.PluralRules", () => {
  setCatalogue({ "x.one": "{count} one", "x.other": "{count} other" }, "ne");
  assert.equal(t("x", { count: 1 }), "१ one");
  assert.equal(t("x", { count: 2 }), "२ other");
  setCatalogue({}, "en");
});

test("the served Devanagari font is the pinned npm package's own file", () => {
  // @fontsource/noto-sans-devanagari in package-lock.json; fonts/ holds its Devanagari subset.
  for (const weight of [400, 700]) {
    const name = `noto-sans-devanagari-devanagari-${weight}-normal.woff2`;
    const pinned = fileURLToPath(new URL(`../../node_modules/@fontsource/noto-sans-devanagari/files/${name}`, import.meta.url));
    assert.deepEqual(readFileSync(`${STATIC}fonts/${name}`), readFileSync(pinned), name);
  }
});
