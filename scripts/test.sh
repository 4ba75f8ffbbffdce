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

pnpm install --frozen-lockfile --reporter=silent
pnpm build
pnpm -r typecheck
pnpm -r lint

report_dir="$(mktemp -d)"
status=0
run() { # name, then the command
  local name=$1; shift
  echo "== $name"
  "$@" --reporter=default --reporter=json --outputFile="$report_dir/$name.json" || status=1
}
run core pnpm --filter @wolfpack/core exec vitest run
run server pnpm --filter @wolfpack/server exec vitest run
run cli pnpm --filter @wolfpack/cli exec vitest run
run web-unit pnpm --filter @wolfpack/web exec vitest run
run web-e2e pnpm --filter @wolfpack/web exec vitest run --config vitest.e2e.config.ts
node scripts/test-summary.mjs "$report_dir" || status=1
exit $status
