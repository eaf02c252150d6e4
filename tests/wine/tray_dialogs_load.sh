#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# tray_dialogs_load.sh - the tray's Custom load and Record a score dialogs under Wine and Xvfb: a
# bad count shows the CLI's own message in the dialog, which stays open; 700 sleepers start; a
# score typed in lands in a new run. Controls are clicked where the tray's --log says they are.
# Usage: tray_dialogs_load.sh WINE-RUN THREADSOUP-EXE THREADSOUP-TRAY-EXE WINEPREFIX (its own).
set -u
wine_run=$1 exe=$2 tray=$3 prefix=$4

if [ -z "${TRAY_TEST_IN_X:-}" ]; then
  TRAY_TEST_IN_X=1 exec xvfb-run -a -s "-screen 0 1024x768x24" sh "$0" "$@"
fi

# pipe, out, shots, log, fail, wait_log, control_at, click_control; status, prefix_pids,
# start_desktop_and_service
. "$(dirname "$0")/tray-common.sh"
tray_test_begin tray-dialogs
# Opens the menu, hovers over the items given before the last (submenus) and clicks the last,
# where the tray logged them, until the dialog logs it is open.
open_dialog() { # NAME LABEL...
  name=$1
  shift
  before=$(grep -c "^dialog $name open " "$log")
  for attempt in 1 2 3 4 5; do
    menu_open || fail "the menu did not open"
    n=0
    for label in "$@"; do
      n=$((n + 1))
      if [ $n -lt $# ]; then
        menu_hover "$label" || fail "$label opened no submenu"
      else
        menu_click "$label"
      fi
    done
    for i in $(seq 1 20); do
      [ "$(grep -c "^dialog $name open " "$log")" -gt "$before" ] && return 0
      sleep 0.5
    done
    xdotool key Escape Escape
    xdotool mousemove 300 200 click 1
    sleep 1
  done
  return 1
}
screenshot() {
  xdotool mousemove 5 5
  sleep 1
  import -window root "$1" || fail "no screenshot $1"
  colours=$(convert "$1" -format '%k' info:)
  echo "screenshot $1: $colours colours"
  [ "$colours" -gt 8 ] || fail "the screenshot $1 is blank ($colours colours)"
}

rm -f "$log"
start_desktop_and_service tray-dialogs
tray_win="Z:$(echo "$tray" | tr / '\\')"
log_win="Z:$(echo "$log" | tr / '\\')"
"$wine_run" explorer /desktop=shell,1024x768 "$tray_win" --pipe "$pipe" --log "$log_win" \
  >"$out/tray.txt" 2>&1 &
wait_log '^state idle ' || fail "the tray did not show the idle state"

# --- Custom load: a bad count, then 700 sleepers ------------------------------------------------
open_dialog custom-load 'Start load' 'Custom load' || fail "Start load > Custom load did not open the dialog"
click_control custom-load count
xdotool type --delay 100 abc
click_control custom-load interval
xdotool type --delay 100 500ms
click_control custom-load ok
wait_log '^dialog custom-load error ' || fail "a count of abc showed no error in the dialog"
shown=$(grep '^dialog custom-load error ' "$log" | tail -n 1 | sed 's/^dialog custom-load error //')
echo "count abc -> $shown"
"$wine_run" "$exe" load sleep --count abc --interval 500ms >"$out/cli.raw" 2>&1
tr -d '\r' <"$out/cli.raw" >"$out/cli.txt"
grep -qF "$shown" "$out/cli.txt" || fail "the dialog's error is not the CLI's message"
screenshot "$shots/tray-dialogs-custom-load.png"
grep -q '^dialog custom-load cancelled' "$log" && fail "the dialog closed on an error"
click_control custom-load count
xdotool key End BackSpace BackSpace BackSpace
xdotool type --delay 100 700
click_control custom-load ok
wait_log '^dialog custom-load started ' || fail "OK with 700 sleepers did not start the load"
for i in $(seq 1 120); do
  status && grep -Eq '(^| )700( |$)' "$out/status.txt" && break
  [ "$i" = 120 ] && fail "threadsoup status does not show 700 load threads"
  sleep 0.5
done
echo "status: $(grep -E '(^| )700( |$)' "$out/status.txt" | head -n 1)"

# --- Record a score: builtin-st / baseline / 123.4 / New run ------------------------------------
open_dialog record-score 'Record a score' || fail "Record a score did not open the dialog"
click_control record-score bench
xdotool type --delay 100 builtin-st
click_control record-score score
xdotool type --delay 100 123.4
screenshot "$shots/tray-dialogs-record-score.png"
click_control record-score ok
wait_log '^dialog record-score recorded run [0-9]+ ' || fail "the score was not recorded"
run=$(grep '^dialog record-score recorded run ' "$log" | tail -n 1 | awk '{print $5}')
"$wine_run" "$exe" report "$run" --db 'C:\tray-dialogs.db' >"$out/report.raw" 2>&1
tr -d '\r' <"$out/report.raw" >"$out/report.txt"
grep -q '123\.4' "$out/report.txt" || fail "threadsoup report $run does not show 123.4"
"$wine_run" "$exe" history --db 'C:\tray-dialogs.db' >"$out/history.raw" 2>&1
tr -d '\r' <"$out/history.raw" >"$out/history.txt"
grep -Eq "^ *$run( [IS])? +[^ ]+ +[^ ]+ +manual " "$out/history.txt" ||
  fail "threadsoup history does not list run $run (plan manual)"
echo "recorded into run $run"
