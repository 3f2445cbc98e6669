#!/usr/bin/env bash
# Installs everything (Chromium and PostgreSQL from Debian's packages included)
# and runs every check: ruff (lint and format), mypy --strict, the page's ESLint, tsc --checkJs and
# node --test, and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh --dev

# System packages the browser and database tests need.
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]} from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
eval "$(scripts/start-postgres.sh)"
# Every suite must run here: a missing browser or database fails, never skips.
export GINRUMMY_TEST_ALL=1

.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/lint-imports
# The page's JavaScript: the pinned tools from package-lock.json, then lint, types, tests.
npm ci --no-audit --no-fund --silent
.venv/bin/python scripts/build_offline.py  # the offline bundle, from these sources
npx --no-install eslint .
npx --no-install tsc --noEmit -p jsconfig.json
node --test tests/js/
.venv/bin/python -m pytest "$@"
