#!/usr/bin/env bash
# One command from a fresh clone to a running Wolfpack: installs Node 24 + pnpm (into .toolchain/),
# the dependencies, builds every package, then serves the web app and API on one port with the
# embedded database in ./data. No keys needed. PORT and WOLFPACK_DATA_DIR override the defaults.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/toolchain.sh
pnpm install --frozen-lockfile --reporter=silent
pnpm build >/dev/null
# Node's own heap settings: a smaller young generation (--max-semi-space-size=4, shipped until
# 2026-11-24) let more of a large export's garbage reach the old generation, and on PostgreSQL the
# server then grew by 68-135 MB instead of 16-44 MB (pnpm bench export, docs/PERFORMANCE.md).
exec node packages/cli/dist/bin.js serve --port "${PORT:-3000}" --data-dir "${WOLFPACK_DATA_DIR:-./data}" "$@"
