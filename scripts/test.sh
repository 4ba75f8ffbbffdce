#!/usr/bin/env bash
# Every check and test, from a fresh clone: toolchain, install, build, type checks, unit and
# integration tests (PGlite, and PostgreSQL at 127.0.0.1:5432 when reachable), browser tests in
# Chromium (installed with apt-get when missing, as is bubblewrap, Proven Code's sandbox), CLI tests in a real terminal (tmux).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/toolchain.sh

# Chromium, tmux, bubblewrap and unzip with apt-get when missing (as root), or a line saying what
# to install and exit 1 (system-packages.sh, shared with start.sh).
source scripts/system-packages.sh
wolfpack_test_packages || exit 1
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
