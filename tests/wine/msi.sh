#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# msi.sh - installs threadsoup.msi with Wine's msiexec: the files land in Program Files, the
# service is registered and started and answers through its pipe; then uninstalls it and checks
# that the files and the service are gone. Usage: msi.sh WINE-RUN MSI WINEPREFIX
set -u
wine_run=$1 msi=$2 prefix=$3
export WINEPREFIX="$prefix"
folder="$prefix/drive_c/Program Files/ThreadSoup"
exe='C:\Program Files\ThreadSoup\threadsoup.exe'
keeper=
cleanup() {
  "$wine_run" msiexec /x "$msi" /qn >/dev/null 2>&1
  [ -n "$keeper" ] && kill "$keeper" 2>/dev/null
  wineserver -k 2>/dev/null
}
trap cleanup EXIT
fail() { echo "msi: $*" >&2; exit 1; }

# Wine ends services.exe when the last ordinary process of the prefix exits: keep one alive.
"$wine_run" "$(dirname "$msi")/threadsoup-idle.exe" >/dev/null 2>&1 &
keeper=$!
# Up once Wine runs it: wine-run's child, the wine loader, has become threadsoup-idle.exe (its
# first argument is the program's own path then).
for i in $(seq 1 100); do
  for child in $(pgrep -P "$keeper"); do
    tr '\0' '\n' <"/proc/$child/cmdline" 2>/dev/null | head -n 1 | grep -q 'threadsoup-idle\.exe' &&
      break 2
  done
  sleep 0.1
done
"$wine_run" msiexec /x "$msi" /qn >/dev/null 2>&1 # an earlier run's leftovers

"$wine_run" msiexec /i "$msi" /qn || fail "msiexec /i failed with exit code $?"
for f in threadsoup.exe threadsoup-idle.exe threadsoup-tray.exe; do
  [ -f "$folder/$f" ] || fail "$f was not installed in $folder"
done
version=$("$wine_run" "$exe" --version | tr -d '\r')
case "$version" in "threadsoup "[0-9]*) ;; *) fail "installed threadsoup.exe printed '$version'" ;; esac
"$wine_run" sc query ThreadSoup | tr -d '\r' | grep -q "RUNNING" ||
  fail "the installer did not start the service: $("$wine_run" sc query ThreadSoup | tr -d '\r')"
answered=""
for _ in $(seq 50); do
  answered=$("$wine_run" "$exe" status 2>&1 | tr -d '\r' | grep "^server") && break
  sleep 0.2
done
[ -n "$answered" ] || fail "the installed service does not answer on its pipe"
echo "installed: $version; service running and answering ($answered)"

"$wine_run" msiexec /x "$msi" /qn || fail "msiexec /x failed with exit code $?"
# Wine's msiexec asks the service to stop but does not wait for it (ServiceControl Wait="yes"):
# a service still exiting holds its threadsoup.exe, which then cannot be removed. Said if seen.
still=""
for p in $(pgrep -f 'ThreadSoup.threadsoup\.exe'); do
  tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "WINEPREFIX=$prefix" &&
    still=" (the service's process $p still ran when msiexec /x returned)"
done
[ ! -e "$folder/threadsoup.exe" ] || fail "threadsoup.exe is still there after uninstall$still"
"$wine_run" sc query ThreadSoup 2>&1 | tr -d '\r' | grep -q "SERVICE_NAME: ThreadSoup" &&
  fail "the service is still registered after uninstall"
echo "installed, started, answered and uninstalled"
