// The English catalogue, loaded for the tests (the page fetches it).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const STATIC = fileURLToPath(new URL("../../ginrummy/web/static/", import.meta.url));
export const EN = JSON.parse(readFileSync(`${STATIC}i18n/en.json`, "utf8"));
