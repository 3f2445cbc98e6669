#!/usr/bin/env bash
# Installs the project into .venv from the pinned lock files.
#   scripts/install.sh          the app (engine, bots, web server)
#   scripts/install.sh --dev    the app plus everything the checks need
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "ginrummy needs Python 3.11 or newer (found: $("$python" --version 2>&1))" >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
lock=requirements.lock
[ "${1:-}" = "--dev" ] && lock=requirements-dev.lock
.venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes -r "$lock"
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .

# Offline play: Pyodide from the pinned npm package (package-lock.json), and the engine
# and bots zipped from these sources (scripts/build_offline.py, into ginrummy/web/offline/).
if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing nodejs and npm from Debian's packages (offline play's Pyodide comes from npm)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
if command -v npm >/dev/null 2>&1; then
  want=$(sed -n 's/^ *"pyodide": "\(.*\)".*/\1/p' package.json)
  have=$(sed -n 's/^ *"version": "\(.*\)".*/\1/p' node_modules/pyodide/package.json 2>/dev/null || true)
  [ "$want" = "$have" ] || npm ci --omit=dev --no-audit --no-fund --silent
  .venv/bin/python scripts/build_offline.py
else
  echo "offline play needs npm (Node.js) to fetch Pyodide: the app runs without it" >&2
fi
