# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# msi-common.sh - what the installer tests under Wine share, sourced by msi.sh and msi_fleet.sh: a
# fresh prefix with a process that keeps Wine's services alive, the cleanup that uninstalls, the
# failure report, the processes of this prefix and waiting for the installed service's answer.
# Expects wine_run, msi and prefix to be set; `older` may name a second MSI the cleanup removes.
export WINEPREFIX="$prefix"
# No Linux menu entries for the Start-menu shortcut (winemenubuilder would write to ~/.local).
export WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
folder="$prefix/drive_c/Program Files/ThreadSoup"
exe='C:\Program Files\ThreadSoup\threadsoup.exe'
older=${older:-}
keeper=
msi_cleanup() {
  "$wine_run" msiexec /x "$msi" /qn >/dev/null 2>&1
  [ -n "$older" ] && [ -f "$older" ] && "$wine_run" msiexec /x "$older" /qn >/dev/null 2>&1
  [ -n "$older" ] && rm -f "$older"
  [ -n "$keeper" ] && kill "$keeper" 2>/dev/null
  wineserver -k 2>/dev/null
}
trap msi_cleanup EXIT
fail() { printf '%s: %s\n' "${0##*/}" "$*" >&2; exit 1; }
# Processes matching PATTERN that run in this test's prefix (other tests run trays of their own).
in_prefix() {
  for p in $(pgrep -f "$1"); do
    tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "WINEPREFIX=$prefix" && echo "$p"
  done
}

# A fresh prefix (wine-run copies it from the build's template): a run killed before its cleanup
# may have left products installed whose codes this build's MSIs do not know (Id="*").
WINEPREFIX="$prefix" wineserver -k 2>/dev/null
rm -rf "$prefix"

# shellcheck source=tests/wine/wine-keeper.sh
. "$(dirname "$0")/wine-keeper.sh"
start_wine_keeper "$wine_run" "$(dirname "$msi")/threadsoup-idle.exe"
"$wine_run" msiexec /x "$msi" /qn >/dev/null 2>&1 # an earlier run's leftovers
rm -rf "$prefix/drive_c/ProgramData/ThreadSoup"

# Waits (10 s at most) until the installed service answers `status`; its answer in $answered.
wait_answer() {
  answered=""
  for _ in $(seq 50); do
    answered=$("$wine_run" "$exe" status --fields 2>&1 | tr -d '\r' | grep "^server") && return 0
    sleep 0.2
  done
  return 1
}
