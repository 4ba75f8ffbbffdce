#!/usr/bin/env bash
# Mutation testing (StrykerJS) of the rules that hold money and truth: core's billing, verification
# record and start verdict, then the server's ledger writes (see docs/MUTATION.md). Not part of
# `npm test`. Incremental: a rerun tests only the mutants whose code or covering tests changed.
#
#   pnpm mutate                  both packages, core first
#   pnpm mutate server           one package (core or server)
#   pnpm mutate core --force     any other argument goes to `stryker run`; --force retests every
#                                mutant (needed after adding tests for a module-level constant or
#                                for code no test reached: incremental mode reuses those results)
#
# Reports: reports/mutation/<package>/index.html (and mutation.json). Fails when a package's score
# is under 85 %.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/toolchain.sh

packages=()
args=()
for arg in "$@"; do
  case $arg in
    core | server) packages+=("$arg") ;;
    *) args+=("$arg") ;;
  esac
done
[ ${#packages[@]} -gt 0 ] || packages=(core server)

stryker="$PWD/node_modules/.bin/stryker"
status=0
for package in "${packages[@]}"; do
  echo "== mutate $package"
  start=$SECONDS
  (cd "packages/$package" && "$stryker" run stryker.config.mjs "${args[@]}") || status=1
  echo "== mutate $package: $((SECONDS - start)) s"
done
exit $status
