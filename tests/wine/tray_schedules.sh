#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# tray_schedules.sh - the tray's Schedules dialog under Wine and Xvfb: Add... adds a schedule that
# threadsoup schedule list then shows, Remove removes it; both dialogs are screenshotted. The
# experiment menu and the Add dialog offer the service's presets (its catalog), cost and calibrate
# among them.
# Usage: tray_schedules.sh WINE-RUN THREADSOUP-EXE THREADSOUP-TRAY-EXE WINEPREFIX
set -u
wine_run=$1 exe=$2 tray=$3 prefix=$4

if [ -z "${TRAY_TEST_IN_X:-}" ]; then
  TRAY_TEST_IN_X=1 exec xvfb-run -a -s "-screen 0 1024x768x24" sh "$0" "$@"
fi

# pipe, out, shots, log, fail, wait_log, control_at, click_control; menu_open, menu_click,
# menu_close; status, prefix_pids, start_desktop_and_service
. "$(dirname "$0")/tray-common.sh"
tray_test_begin tray-schedules
screenshot() {
  import -window root "$1" || fail "no screenshot $1"
  colours=$(convert "$1" -format '%k' info:)
  [ "$colours" -gt 8 ] || fail "the screenshot $1 is blank ($colours colours)"
}
cli_list() {
  "$wine_run" "$exe" schedule list --socket "$pipe" >"$out/list.raw" 2>&1
  tr -d '\r' <"$out/list.raw" >"$out/list.txt"
}

rm -f "$log"
start_desktop_and_service tray-schedules
tray_win="Z:$(echo "$tray" | tr / '\\')"
log_win="Z:$(echo "$log" | tr / '\\')"
"$wine_run" explorer /desktop=shell,1024x768 "$tray_win" --pipe "$pipe" --log "$log_win" \
  >"$out/tray.txt" 2>&1 &
wait_log '^state idle \| ' || fail "the tray did not show the idle state"

# Schedules... is clicked where the tray logged it in the menu (tray-common.sh); a busy machine
# may be slow to open the dialog, so a click that opened nothing is tried again.
opened=0
for attempt in 1 2 3 4 5; do
  menu_open || fail "the menu did not open"
  menu_click 'Schedules'
  wait_log '^schedules list ' 20 && { opened=1; break; }
  menu_close
done
[ $opened -eq 1 ] || fail "Schedules... did not open the dialog with its list"
grep -Eq '^menu experiments \| quick \| .*\| cost \| (.*\| )?calibrate( |$)' "$log" ||
  fail "the Run experiment menu does not offer the service's presets cost and calibrate"

# Add...: preset quick (the first) and the proposed time daily 03:00, then OK.
click_control schedules Add
wait_log '^dialog add control OK at ' 30 || fail "Add... did not open its dialog"
grep -Eq '^schedules presets \| quick \| .*\| cost \| (.*\| )?calibrate( |$)' "$log" ||
  fail "the Add dialog does not offer the service's presets cost and calibrate"
sleep 1
screenshot "$shots/tray-schedules-add.png"
click_control add OK
wait_log '^schedules added$' 60 || fail "the schedule was not added"
wait_log '^schedules row \| [0-9]+ \| quick \| daily 03:00 \| ' 60 ||
  fail "the dialog's list does not show the new schedule"
cli_list
grep -q 'daily 03:00' "$out/list.txt" || fail "threadsoup schedule list does not show it"
sleep 1
screenshot "$shots/tray-schedules-list.png"

# Remove: the first row is selected from the keyboard, then Remove.
click_control schedules List
xdotool key Home space
sleep 0.5
click_control schedules Remove
wait_log '^schedules list 0$' 60 || fail "Remove did not empty the dialog's list"
cli_list
grep -q 'daily 03:00' "$out/list.txt" && fail "threadsoup schedule list still shows it"
click_control schedules Close
wait_log '^schedules closed$' 30 || fail "the dialog did not close"
echo "tray schedules test passed"
