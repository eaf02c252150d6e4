# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# wine-keeper.sh - keeps a Wine prefix's services alive for a test, sourced by the service and
# installer tests: Wine ends services.exe, and the service with it, when the last ordinary process
# of the prefix exits, so threadsoup-idle (no owner handle: it waits forever) is started and the
# caller waits until Wine runs it. Sets keeper to its wine-run's PID, for the caller's cleanup.
# usage: start_wine_keeper WINE_RUN IDLE_EXE
start_wine_keeper() {
  "$1" "$2" >/dev/null 2>&1 &
  keeper=$!
  # Up once Wine runs it: wine-run's child, the wine loader, has become threadsoup-idle.exe (its
  # first argument is the program's own path then).
  for i in $(seq 1 100); do
    for child in $(pgrep -P "$keeper"); do
      tr '\0' '\n' <"/proc/$child/cmdline" 2>/dev/null | head -n 1 |
        grep -q 'threadsoup-idle\.exe' && return 0
    done
    sleep 0.1
  done
}
