#!/usr/bin/env bash
# One command from a fresh clone to a running Wolfpack: installs Node 24 + pnpm (into .toolchain/),
# the dependencies, builds every package, then serves the web app and API on one port with the
# embedded database in ./data. No keys needed. PORT and WOLFPACK_DATA_DIR override the defaults.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/toolchain.sh
pnpm install --frozen-lockfile --reporter=silent
pnpm build >/dev/null
# A smaller young generation keeps the server's memory flat while it streams large exports
# (see the export benchmark) at about the same speed.
exec node --max-semi-space-size=4 packages/cli/dist/bin.js serve --port "${PORT:-3000}" --data-dir "${WOLFPACK_DATA_DIR:-./data}" "$@"
