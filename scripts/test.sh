#!/usr/bin/env bash
# Installs everything (Chromium and PostgreSQL from Debian's packages included)
# and runs every check: ruff, mypy --strict, and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh --dev

# System packages the browser and database tests need.
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
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
.venv/bin/mypy
.venv/bin/lint-imports
.venv/bin/python -m pytest "$@"
