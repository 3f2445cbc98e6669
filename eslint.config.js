// ESLint for the page's JavaScript (native ES modules in the browser) and its node tests.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", "build/", "data/", "ginrummy/web/offline/"] },
  js.configs.recommended,
  {
    files: ["ginrummy/web/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "no-duplicate-imports": "error",
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "always"],
      "no-restricted-properties": ["error", { property: "innerHTML", message: "Build elements with h() or textContent." }],
    },
  },
  {
    files: ["ginrummy/web/static/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
