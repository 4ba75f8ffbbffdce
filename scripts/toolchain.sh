#!/usr/bin/env bash
# Source this file: it makes Node 24 and pnpm available on PATH, installing them from the npm
# registry into .toolchain/ on first use. The machine's own Node (20) is too old for the stack,
# and corepack fails on registry signatures, so we take both straight from the registry.
# No `set -e` here: this file is sourced, and shell options would leak into the caller's shell.
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_tc="$_root/.toolchain"
_want_node_major=24
_pnpm_version=12.21.0
_have_node() { [ -x "$_tc/bin/node" ] && [ "$("$_tc/bin/node" -p 'process.versions.node.split(".")[0]')" = "$_want_node_major" ]; }
if ! _have_node || [ ! -x "$_tc/bin/pnpm" ]; then
  echo "wolfpack: installing Node $_want_node_major and pnpm $_pnpm_version into .toolchain/ (one time)" >&2
  # npm's output only when it fails (then whole): the start-up output is Wolfpack's own lines.
  _log="$(mktemp)"
  if ! npm install --global --no-audit --no-fund --loglevel=error --prefix "$_tc" "node@$_want_node_major" "pnpm@$_pnpm_version" >"$_log" 2>&1; then
    cat "$_log" >&2
    rm -f "$_log"
    echo "wolfpack: could not install Node $_want_node_major and pnpm from the npm registry (npm's output is above); check the network or the registry (npm config get registry), then try again" >&2
    unset _root _tc _want_node_major _pnpm_version _log
    return 1 2>/dev/null || exit 1
  fi
  rm -f "$_log"
fi
export PATH="$_tc/bin:$PATH"
unset _root _tc _want_node_major _pnpm_version _log
