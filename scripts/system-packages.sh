#!/usr/bin/env bash
# Source this file (start.sh and test.sh do): the Debian packages Wolfpack takes from the system,
# installed with apt-get when they are missing and installing is allowed (as root, where apt-get
# exists, and unless WOLFPACK_INSTALL_SYSTEM_PACKAGES=0). One line says what it installs.
#
#   wolfpack_start_packages   npm start: bubblewrap and Chromium, which Proven Code needs to run
#                             generated code and load its pages. Never fails: without them the app
#                             starts anyway, and the server's start-up line names the fix.
#   wolfpack_test_packages    npm test: those, chromium-headless-shell, tmux and unzip; returns 1
#                             when one is still missing.
#
# No `set -e` here: this file is sourced, and shell options would leak into the caller's shell.

# Where Debian's chromium package puts the browser, and where Proven Code's page check and the
# browser tests look first. (A variable, so the tests of this file can point it elsewhere.)
wolfpack_chromium="${wolfpack_chromium:-/usr/bin/chromium}"

# The packages among "$@" whose program this machine lacks, one per line.
wolfpack_missing_packages() {
  local package
  for package in "$@"; do
    case "$package" in
      chromium) [ -x "$wolfpack_chromium" ] ;;
      bubblewrap) command -v bwrap >/dev/null ;;
      *) command -v "$package" >/dev/null ;;
    esac || printf '%s\n' "$package"
  done
}

# Why apt-get may not install anything here, in a few words; nothing when it may.
wolfpack_install_blocked() {
  if [ "${WOLFPACK_INSTALL_SYSTEM_PACKAGES:-1}" = 0 ]; then
    echo 'WOLFPACK_INSTALL_SYSTEM_PACKAGES=0'
  elif [ "$(id -u)" != 0 ]; then
    echo 'not root'
  elif ! command -v apt-get >/dev/null; then
    echo 'no apt-get'
  fi
}

# `apt-get install` of "${@:2}", quietly, after one line saying what and why ($1). On failure
# wolfpack_apt_error holds apt's last line (what went wrong, e.g. "E: Unable to locate package").
wolfpack_apt_install() {
  local why="$1" log status=0
  shift
  echo "wolfpack: installing $* with apt-get ($why)" >&2
  log="$(mktemp)"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"; } >"$log" 2>&1 || status=$?
  wolfpack_apt_error="$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)"
  rm -f "$log"
  return "$status"
}

wolfpack_start_packages() {
  # Turned off, Proven Code runs no generated code: it needs neither, and nothing is installed.
  if [ "${WOLFPACK_SANDBOX:-}" = off ]; then return 0; fi
  local -a missing
  mapfile -t missing < <(wolfpack_missing_packages bubblewrap chromium)
  if [ ${#missing[@]} -eq 0 ]; then return 0; fi
  # Not allowed to install: the server says what is missing and the command that fixes it, once.
  if [ -n "$(wolfpack_install_blocked)" ]; then return 0; fi
  if ! wolfpack_apt_install 'for Proven Code' "${missing[@]}"; then
    echo "wolfpack: could not install ${missing[*]} (${wolfpack_apt_error:-apt-get failed}); starting without them, so Proven Code's verdicts will be \"not proven\"" >&2
  fi
  return 0
}

wolfpack_test_packages() {
  local -a missing
  # Chromium for Proven Code's page loads; Debian's build of Chromium's headless shell (the same
  # Blink and V8, without the full browser's machinery) for the browser tests, which took half the
  # CPU with it (docs/PERFORMANCE.md, The test suite); tmux for the CLI's tests in a real terminal;
  # bubblewrap, Proven Code's sandbox (its sandbox tests need it too); unzip, as exports are
  # checked with `unzip -t` as well as with a zip library.
  mapfile -t missing < <(wolfpack_missing_packages chromium chromium-headless-shell tmux bubblewrap unzip)
  if [ ${#missing[@]} -eq 0 ]; then return 0; fi
  local blocked
  blocked="$(wolfpack_install_blocked)"
  if [ -z "$blocked" ]; then
    if wolfpack_apt_install 'for the tests' "${missing[@]}"; then return 0; fi
    blocked="${wolfpack_apt_error:-apt-get failed}"
  fi
  echo "wolfpack: the tests need ${missing[*]} ($blocked); install them (Debian: sudo apt-get install ${missing[*]})" >&2
  return 1
}
