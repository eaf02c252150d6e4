# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# tray-common.sh - what the tray tests under Wine share, sourced by tray.sh and tray_state.sh: the
# service's status, the processes of this prefix, and the desktop with the service running.
# Expects wine_run, exe, prefix, pipe and out to be set, and a fail function.

# Asks the service for its status into $out/status.txt; fails when it does not answer.
status() {
  "$wine_run" "$exe" status --socket "$pipe" >"$out/status.raw" 2>&1
  rc=$?
  tr -d '\r' <"$out/status.raw" >"$out/status.txt"
  return $rc
}

# The Unix pids of this prefix's processes whose command line matches $1 (other builds may run
# the same test at the same time, in prefixes of their own).
prefix_pids() {
  for p in $(pgrep -f "$1"); do
    tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "WINEPREFIX=$prefix" && echo "$p"
  done
}

# Starts the 1024x768 Wine desktop and the service in its console on a fresh database C:\$1.db,
# and waits (up to ~30 s) until the service answers.
start_desktop_and_service() {
  "$wine_run" explorer /desktop=shell,1024x768 >"$out/desktop.log" 2>&1 &
  rm -f "$prefix/drive_c/$1.db" "$prefix/drive_c/$1.db-wal" "$prefix/drive_c/$1.db-shm"
  "$wine_run" "$exe" service run --console --socket "$pipe" --db "C:\\$1.db" \
    >"$out/service.txt" 2>&1 &
  for i in $(seq 1 60); do
    status && return 0
    sleep 0.5
  done
  fail "the service did not answer on $pipe"
}
