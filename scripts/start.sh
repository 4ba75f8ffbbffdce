#!/usr/bin/env bash
# One command from a fresh clone to a running Wolfpack: installs Node 24 + pnpm (into .toolchain/),
# bubblewrap and Chromium for Proven Code (with apt-get, as root, when missing; see
# system-packages.sh), the dependencies, builds every package, then serves the web app and API on
# one port with the embedded database in ./data. No keys needed. PORT and WOLFPACK_DATA_DIR
# override the defaults; WOLFPACK_SANDBOX=off or WOLFPACK_INSTALL_SYSTEM_PACKAGES=0 install nothing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/toolchain.sh
# Without a sandbox every verdict would be "not proven". Never stops the start: the server then
# says in one line what is missing and the command that fixes it.
source scripts/system-packages.sh
wolfpack_start_packages
pnpm install --frozen-lockfile --reporter=silent
pnpm build >/dev/null
# Node's own heap settings: a smaller young generation (--max-semi-space-size=4, shipped until
# 2026-11-24) let more of a large export's garbage reach the old generation, and on PostgreSQL the
# server then grew by 68-135 MB instead of 16-44 MB (pnpm bench export, docs/PERFORMANCE.md).
exec node packages/cli/dist/bin.js serve --port "${PORT:-3000}" --data-dir "${WOLFPACK_DATA_DIR:-./data}" "$@"
