#!/usr/bin/env bash
# One command from a fresh clone to a running Wolfpack: installs Node 24 + pnpm (into .toolchain/),
# bubblewrap and Chromium for Proven Code (with apt-get, as root, when missing; see
# system-packages.sh), the dependencies, builds the packages that changed since their last build
# (scripts/build-changed.mjs), then serves the web app and API on
# one port with the embedded database in ./data. No keys needed. PORT and WOLFPACK_DATA_DIR
# override the defaults; WOLFPACK_SANDBOX=off or WOLFPACK_INSTALL_SYSTEM_PACKAGES=0 install nothing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/toolchain.sh
# Without a sandbox every verdict would be "not proven". Never stops the start: the server then
# says in one line what is missing and the command that fixes it.
source scripts/system-packages.sh
wolfpack_start_packages
# The output is the product's own lines: pnpm's and the build's appear only when they fail (whole).
# pnpm's own check makes an unchanged install take about a second.
install_log="$(mktemp)"
if ! pnpm install --frozen-lockfile >"$install_log" 2>&1; then
  cat "$install_log" >&2
  rm -f "$install_log"
  echo "wolfpack: installing the dependencies failed (the output of pnpm install is above), so Wolfpack did not start. If pnpm could not reach the registry, check the network; if pnpm-lock.yaml is out of date, run \`pnpm install\` and commit it. Then run npm start again." >&2
  exit 1
fi
rm -f "$install_log"
# Only the packages whose sources, lockfile or toolchain changed since their last build (stamps in
# each dist/): an unchanged second start builds nothing.
node scripts/build-changed.mjs
# glibc's allocator gives each block of 16 KiB or more a mapping of its own, returned to the system
# when freed; by default it serves them from its heap, which a large export leaves freed but in
# pieces, 80-100 MB more RSS for good (docs/PERFORMANCE.md, "Zip export"). An operator's own value
# wins, an empty one included (glibc's defaults).
export GLIBC_TUNABLES="${GLIBC_TUNABLES-glibc.malloc.mmap_threshold=16384}"
exec node packages/cli/dist/bin.js serve --port "${PORT:-3000}" --data-dir "${WOLFPACK_DATA_DIR:-./data}" "$@"
