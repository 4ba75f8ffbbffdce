#!/usr/bin/env bash
# Every check and test, from a fresh clone: toolchain, install, build, type checks, unit and
# integration tests (PGlite, and PostgreSQL at 127.0.0.1:5432 when reachable), browser tests in
# Chromium (installed with apt-get when missing, as is bubblewrap, Proven Code's sandbox), CLI tests in a real terminal (tmux).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/toolchain.sh

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v tmux >/dev/null || need_apt+=(tmux)
# Proven Code runs generated code only inside bubblewrap (its sandbox tests need it too).
command -v bwrap >/dev/null || need_apt+=(bubblewrap)
# Exports are checked with `unzip -t` as well as with a zip library.
command -v unzip >/dev/null || need_apt+=(unzip)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "wolfpack: installing ${need_apt[*]} with apt-get" >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "wolfpack: the tests need ${need_apt[*]}; install them (Debian: sudo apt-get install ${need_apt[*]})" >&2
    exit 1
  fi
fi
# Every tool a test needs is here now: a test that finds one missing fails instead of skipping.
export WOLFPACK_TEST_REQUIRE_TOOLS=1

pnpm install --frozen-lockfile --reporter=silent
pnpm build
# The CLI's and the browser tests' own builds are the one just made.
export WOLFPACK_TEST_BUILT=1 WOLFPACK_E2E_SKIP_BUILD=1
# lint is tsc with --noUnusedLocals/--noUnusedParameters added: every type error fails it too.
pnpm -r lint

# The suites side by side; each one's output whole when it ends, then the timings (run-suites.mjs).
node scripts/run-suites.mjs
