#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# bootstrap.sh - installs the Debian packages ThreadSoup builds and tests with (only those that are
# missing), then the pinned SQLite amalgamation for the Windows build.
set -eu
# native build and tests (groff-base: the install test renders the manual page) | Windows cross
# build | Windows tests under Wine and Xvfb | 7-Zip | the HTML report rendered by a real browser
# (tests/e2e/html_report.sh)
PACKAGES="build-essential cmake pkg-config libsqlite3-dev sqlite3 groff-base \
gcc-mingw-w64-x86-64 mingw-w64-x86-64-dev binutils-mingw-w64-x86-64 \
wine wine64 xvfb xauth xdotool imagemagick wixl \
7zip util-linux procps clang-format \
chromium"
# npm fetches the SQLite amalgamation; a Node.js from elsewhere may already bring it.
command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES npm"

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "bootstrap: installing$missing"
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
fi
"$(dirname "$0")/fetch-sqlite.sh"
