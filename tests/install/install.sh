#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# install.sh - `make install` into a staging folder as a package build does it (DESTDIR, PREFIX=/usr),
# then checks what was installed: both programs, the systemd unit whose ExecStart is the installed
# program, a manual page that renders without warnings, an installed threadsoup that runs and
# finds threadsoup-idle beside itself; and that `make uninstall` removes it all again.
#   sh tests/install/install.sh SOURCE_DIR BUILD_DIR
# Exits 77 (skipped) when neither man nor groff is there to render the page.
set -eu
src=$(cd "${1:?usage: install.sh SOURCE_DIR BUILD_DIR}" && pwd)
build=$(cd "${2:?usage: install.sh SOURCE_DIR BUILD_DIR}" && pwd)
stage=$(mktemp -d "${TMPDIR:-/tmp}/threadsoup-install.XXXXXX")
trap 'rm -rf "$stage"' EXIT INT TERM
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# Not the make of a surrounding `make test`: its jobserver flags mean nothing here.
unset MAKEFLAGS MFLAGS MAKELEVEL
make -s -C "$src" install DESTDIR="$stage" PREFIX=/usr INSTALL_FROM="$build" >"$stage/make.log" 2>&1 || {
  cat "$stage/make.log" >&2
  echo "FAIL: make install" >&2
  exit 1
}

root=$stage/usr
for f in bin/threadsoup bin/threadsoup-idle; do
  [ -f "$root/$f" ] && [ -x "$root/$f" ] || fail "$f is not installed as an executable"
done
unit=$root/lib/systemd/system/threadsoup.service
page=$root/share/man/man1/threadsoup.1
[ -f "$unit" ] || fail "lib/systemd/system/threadsoup.service is not installed"
[ -f "$page" ] || fail "share/man/man1/threadsoup.1 is not installed"
[ "$failures" -eq 0 ] || exit 1

# The unit starts the installed program, not the staging copy or the default /usr/local.
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
[ "$exec_start" = "/usr/bin/threadsoup service run" ] ||
  fail "the unit's ExecStart is '$exec_start', expected '/usr/bin/threadsoup service run'"

# The unit lets the service make its load: no task limit (systemd's default is 15 % of pid_max,
# 4,915 tasks where pid_max is 32,768: 15,000 sleepers would fail).
grep -qx 'TasksMax=infinity' "$unit" || fail "the unit does not lift TasksMax (systemd's default caps the load)"

# The page renders, without a single warning, and holds every command's section.
rendered=$stage/page.txt
if command -v man >/dev/null 2>&1; then
  MANWIDTH=80 MANPAGER=cat PAGER=cat man -l "$page" >"$rendered" 2>"$stage/man.err" ||
    fail "man -l failed: $(cat "$stage/man.err")"
elif command -v groff >/dev/null 2>&1; then
  groff -k -man -Tutf8 -P-cbou "$page" >"$rendered" 2>"$stage/man.err" ||
    fail "groff failed: $(cat "$stage/man.err")"
else
  echo "neither man nor groff is installed: the page is not checked (skipped)"
  exit 77
fi
if command -v groff >/dev/null 2>&1; then
  groff -k -man -Tutf8 -ww -z "$page" 2>"$stage/groff.err" || fail "groff -ww failed"
  [ ! -s "$stage/groff.err" ] || fail "groff warns about the page: $(cat "$stage/groff.err")"
fi
grep -q 'THREADSOUP(1)' "$rendered" || fail "the rendered page has no THREADSOUP(1) header"
for c in $("$root/bin/threadsoup" --help | awk '/^commands:$/ { on = 1; next } on && /^$/ { exit } on { print $1 }'); do
  grep -q "threadsoup $c" "$rendered" || fail "the page does not show 'threadsoup $c'"
done

# The installed program runs, and starts its idle children from beside itself.
version=$("$root/bin/threadsoup" --version) || fail "the installed threadsoup --version failed"
case "$version" in
threadsoup\ [0-9]*) ;;
*) fail "the installed threadsoup --version printed '$version'" ;;
esac
"$root/bin/threadsoup" load procs --count 2 --for 1s --quiet >"$stage/load.out" 2>&1 ||
  fail "the installed threadsoup cannot start threadsoup-idle: $(cat "$stage/load.out")"

make -s -C "$src" uninstall DESTDIR="$stage" PREFIX=/usr >/dev/null || fail "make uninstall"
left=$(find "$stage/usr" -type f)
[ -z "$left" ] || fail "make uninstall left: $left"

[ "$failures" -eq 0 ] || exit 1
echo "installed, checked and uninstalled in $stage"
