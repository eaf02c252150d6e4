#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# bootstrap.sh - installs the Debian packages of one profile (only those that are missing):
# `native` what the native build needs (make run, linux, bench, install), `all` (the default)
# everything the tests and the Windows build need, then the pinned SQLite amalgamation.
#   sh scripts/bootstrap.sh [native|all]     sh scripts/bootstrap.sh --list PROFILE (no install)
set -eu
# The native build: a C compiler, CMake and Debian's SQLite. Nothing else, so a first `make run`
# on a fresh machine does not wait for a Windows toolchain it will not use.
NATIVE="build-essential cmake pkg-config libsqlite3-dev"
# The tests and the Windows build: the sqlite3 shell (command-line tests read the database),
# groff-base (the install test renders the manual page) | Windows cross build | Windows tests under
# Wine and Xvfb, and Authenticode signing (osslsigncode) | 7-Zip | formatting | the HTML report
# rendered by a real browser (tests/e2e/html_report.sh)
ALL="$NATIVE sqlite3 groff-base \
gcc-mingw-w64-x86-64 mingw-w64-x86-64-dev binutils-mingw-w64-x86-64 \
wine wine64 xvfb xauth xdotool imagemagick wixl msitools osslsigncode \
7zip util-linux procps clang-format \
chromium"

usage() {
  echo "usage: sh scripts/bootstrap.sh [native|all] or --list native|all" >&2
  echo "  native: what the native build needs; all (the default): also the tests and the Windows build" >&2
  exit 2
}
list_only=0
if [ "${1:-}" = "--list" ]; then
  list_only=1
  shift
  [ $# -eq 1 ] || usage
fi
[ $# -le 1 ] || usage
profile=${1:-all}
case $profile in
native) PACKAGES=$NATIVE ;;
all)
  PACKAGES=$ALL
  # npm fetches the SQLite amalgamation; a Node.js from elsewhere may already bring it.
  command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES npm"
  ;;
*)
  echo "bootstrap: unknown profile '$profile'" >&2
  usage
  ;;
esac
if [ $list_only -eq 1 ]; then
  printf '%s\n' $PACKAGES
  exit 0
fi

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "bootstrap ($profile): installing$missing"
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
fi
# The amalgamation is the Windows build's SQLite; the native build links Debian's.
[ "$profile" = native ] || "$(dirname "$0")/fetch-sqlite.sh"
