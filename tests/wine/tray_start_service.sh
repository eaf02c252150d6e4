#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# tray_start_service.sh - the tray's "Start the service" under Wine and Xvfb: with no service the
# command (threadsoup.exe service start through ShellExecuteEx's "runas" verb) fails and a balloon
# says so; with ThreadSoup's service installed but stopped the tray shows unreachable, the menu
# item starts the service, the tray follows it (idle) and threadsoup status answers. The service
# is uninstalled at the end.
# Usage: tray_start_service.sh WINE-RUN THREADSOUP-EXE THREADSOUP-TRAY-EXE WINEPREFIX (a prefix of
# its own: services, the registry and the default pipe name belong to a prefix).
set -u
wine_run=$1 exe=$2 tray=$3 prefix=$4

if [ -z "${TRAY_TEST_IN_X:-}" ]; then
  TRAY_TEST_IN_X=1 exec xvfb-run -a -s "-screen 0 1024x768x24" sh "$0" "$@"
fi

# pipe, out, shots, log, fail, wait_log; menu_open, menu_click, menu_close; cli, status
. "$(dirname "$0")/tray-common.sh"
tray_test_begin tray-start-service
# The installed service answers on the default pipe, which the tray uses without --pipe.
pipe='\\.\pipe\threadsoup'
t0=$(date +%s%N)
now_ms() { echo $((($(date +%s%N) - t0) / 1000000)); }
# Leaves nothing behind: the service stopped and uninstalled, then the prefix's whole session.
cleanup() {
  "$wine_run" "$exe" service stop >/dev/null 2>&1
  "$wine_run" "$exe" service uninstall >/dev/null 2>&1
  wineserver -k 2>/dev/null
  rm -rf "$out"
}
trap cleanup EXIT

# Picks Start the service from the tray's menu, shown only while the service is unreachable,
# where the tray logged the item (tray-common.sh): true once the tray logs that it ran the
# command. A busy machine may be slow to show the icon or the menu: a click that started nothing
# is tried again.
pick_start_service() { # SHOT: the first menu's screenshot
  runs=$(grep -c '^start-service ' "$log")
  for attempt in 1 2 3 4 5; do
    menu_open || return 1
    [ "$attempt" -eq 1 ] && import -window root "$1" 2>/dev/null
    menu_click 'Start the service'
    for i in $(seq 1 40); do
      [ "$(grep -c '^start-service ' "$log")" -gt "$runs" ] && return 0
      sleep 0.5
    done
    menu_close
  done
  return 1
}

# --- the desktop and the tray, no service installed ----------------------------------------------
rm -f "$log"
# The desktop's explorer also keeps the prefix's session (and services.exe with it) alive.
"$wine_run" explorer /desktop=shell,1024x768 >"$out/desktop.log" 2>&1 &
# Leftovers of an earlier run of this test: the service, and its database.
"$wine_run" "$exe" service uninstall >/dev/null 2>&1
rm -rf "$prefix/drive_c/ProgramData/ThreadSoup"
tray_win="Z:$(echo "$tray" | tr / '\\')"
log_win="Z:$(echo "$log" | tr / '\\')"
"$wine_run" explorer /desktop=shell,1024x768 "$tray_win" --log "$log_win" >"$out/tray.txt" 2>&1 &
wait_log '^state unreachable \| ' || fail "the tray did not show the service unreachable"
echo "tray unreachable at $(now_ms) ms: $(grep '^state ' "$log" | tail -n 1)"

# --- Start the service without a service: the command fails and a balloon says so ----------------
pick_start_service "$shots/tray-start-service-menu.png" || fail "Start the service did nothing"
wait_log '^start-service ended [1-9][0-9]*$' 120 ||
  fail "threadsoup service start without a service did not fail"
balloon='^balloon error \| Start the service \| The service was not started: threadsoup service'
wait_log "$balloon start failed \\(exit code [1-9]" 30 ||
  fail "no balloon said that the service was not started"
echo "no service: $(grep '^balloon error | Start the service' "$log" | tail -n 1)"

# --- the service installed (stopped), Start the service starts it ---------------------------------
cli install service install || fail "threadsoup service install failed"
"$wine_run" sc query ThreadSoup 2>&1 | tr -d '\r' >"$out/sc_query.txt"
grep -q "STOPPED" "$out/sc_query.txt" || fail "the freshly installed service is not stopped"
status && fail "threadsoup status answered before the service was started"
echo "service installed and stopped at $(now_ms) ms"
pick_start_service "$shots/tray-start-service-menu-2.png" || fail "Start the service did nothing"
grep -q '^start-service failed' "$log" && fail "Start the service failed"
# printf, not echo: the logged path's backslashes are no escapes.
printf '%s\n' "Start the service -> $(grep '^start-service | ' "$log" | tail -n 1) at $(now_ms) ms"
wait_log '^start-service ended 0$' 120 ||
  fail "threadsoup service start did not end with 0: $(grep '^start-service' "$log" | tail -n 1)"
# The tray follows the service it started: its state turns idle with no click.
wait_log '^state idle \| ThreadSoup: Idle$' 60 || fail "the tray did not follow the started service"
echo "tray follows the service at $(now_ms) ms: $(grep '^state ' "$log" | tail -n 1)"
status || fail "threadsoup status does not answer after Start the service"
grep -Eq '^load +none$' "$out/status.txt" || fail "the started service runs a load already"
cli query service status || fail "threadsoup service status failed"
grep -q "running" "$out/query.txt" || fail "threadsoup service status does not say running"

# --- stop and uninstall (the trap does it again if this fails) ------------------------------------
cli stop service stop || fail "threadsoup service stop failed"
cli uninstall service uninstall || fail "threadsoup service uninstall failed"
"$wine_run" sc query ThreadSoup 2>&1 | tr -d '\r' >"$out/sc_gone.txt"
grep -q "SERVICE_NAME: ThreadSoup" "$out/sc_gone.txt" && fail "sc query still knows ThreadSoup"
# The last state line (earlier ones said unreachable too, before the service ran).
for i in $(seq 1 120); do
  grep '^state ' "$log" | tail -n 1 | grep -q '^state unreachable | ' && break
  sleep 0.5
done
grep '^state ' "$log" | tail -n 1 | grep -q '^state unreachable | ' ||
  fail "the tray did not turn unreachable after the stop"
echo "tray start service test passed; total $(now_ms) ms"
