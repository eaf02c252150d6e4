#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# fetch-sqlite.sh - puts the official SQLite amalgamation for the Windows build in
# third_party/sqlite, from the npm package that ships it, pinned by version and SHA-256.
set -eu
PACKAGE=better-sqlite3@12.11.1
TARBALL_SHA256=ebf0ed75a7a59dbcb3b24bbd014ef49d9f15bc328e4adcbf516f2a8fadfa2835
SQLITE_C_SHA256=60d2f39a3726cd6b9021da6f4e868608d66fbb6528a9f513dc8ffcc640493422
SQLITE_VERSION=3.53.2

top=$(cd "$(dirname "$0")/.." && pwd)
dest="$top/third_party/sqlite"
if [ -f "$dest/sqlite3.c" ] && echo "$SQLITE_C_SHA256  $dest/sqlite3.c" | sha256sum -c --status; then
  exit 0
fi
command -v npm >/dev/null || { echo "fetch-sqlite: npm is needed (scripts/bootstrap.sh installs it)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "fetch-sqlite: fetching SQLite $SQLITE_VERSION from $PACKAGE"
(cd "$work" && npm pack --silent "$PACKAGE" >/dev/null)
tarball=$(ls "$work"/*.tgz)
if ! echo "$TARBALL_SHA256  $tarball" | sha256sum -c --status; then
  echo "fetch-sqlite: $tarball does not have the pinned SHA-256 $TARBALL_SHA256; refusing it" >&2
  exit 1
fi
tar -xzf "$tarball" -C "$work" package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h
if ! echo "$SQLITE_C_SHA256  $work/package/deps/sqlite3/sqlite3.c" | sha256sum -c --status; then
  echo "fetch-sqlite: sqlite3.c does not have the pinned SHA-256 $SQLITE_C_SHA256; refusing it" >&2
  exit 1
fi
mkdir -p "$dest"
cp "$work/package/deps/sqlite3/sqlite3.c" "$work/package/deps/sqlite3/sqlite3.h" "$dest/"
echo "fetch-sqlite: SQLite $SQLITE_VERSION in $dest"
