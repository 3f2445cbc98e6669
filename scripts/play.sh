#!/usr/bin/env bash
# Installs the app and starts it on a local SQLite database: http://127.0.0.1:8000
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh
exec .venv/bin/ginrummy serve "$@"
