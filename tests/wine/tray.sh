#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# tray.sh - the tray as the service's controller under Wine and Xvfb: its menu starts and stops
# the service's load, and `threadsoup status` confirms each change.
# Usage: tray.sh WINE-RUN THREADSOUP-EXE THREADSOUP-TRAY-EXE WINEPREFIX (a prefix of its own: a
# Wine session started without a display cannot show windows later).
set -u
wine_run=$1 exe=$2 tray=$3 prefix=$4

# Every Wine process of this prefix's session runs inside one X server (the prefix itself is a
# copy of the build's template, which holds no session). 1024x768 is the desktop the tray's icon
# position below is computed for.
if [ -z "${TRAY_TEST_IN_X:-}" ]; then
  TRAY_TEST_IN_X=1 exec xvfb-run -a -s "-screen 0 1024x768x24" sh "$0" "$@"
fi

# pipe, out, shots, log, fail, wait_log, control_at, click_control; status, prefix_pids,
# start_desktop_and_service
. "$(dirname "$0")/tray-common.sh"
tray_test_begin tray
shot=$shots/tray-menu.png
t0=$(date +%s%N)
now_ms() { echo $((($(date +%s%N) - t0) / 1000000)); }
# Polls status (up to $2 times, 40 unless given: ~20 s) until its load line matches $1.
wait_load() {
  for i in $(seq 1 "${2:-40}"); do
    status
    grep -Eq "^load +$1\$" "$out/status.txt" && return 0
    sleep 0.5
  done
  return 1
}
# Whether the tray of this test still runs: a threadsoup-tray.exe of this prefix.
tray_running() {
  [ -n "$(prefix_pids 'threadsoup-tray\.exe.*threadsoup-tray-test')" ]
}
# xdotool's keys do not reach Wine's popup menus on a bare Xvfb (no window manager gives the
# Wine desktop the keyboard focus; seen with Wine 8.0), so the menu is driven by the mouse where
# the tray logged its items (menu_open, menu_hover, menu_click in tray-common.sh): hovering opens
# a submenu, a left click picks an item.

# --- the desktop, the service, the tray --------------------------------------------------------
start_desktop_and_service tray-test
grep -Eq "^load +none$" "$out/status.txt" || fail "a fresh service runs load already"
echo "desktop and service up after $(now_ms) ms"

# Started through explorer so the icon lands in this desktop's notification area.
tray_win="Z:$(echo "$tray" | tr / '\\')"
log_win="Z:$(echo "$log" | tr / '\\')"
rm -f "$log"
"$wine_run" explorer /desktop=shell,1024x768 "$tray_win" --pipe "$pipe" --log "$log_win" \
  >"$out/tray.txt" 2>&1 &
sleep 3
echo "tray started at $(now_ms) ms"

# --- Start load -> 1,500 sleepers ----------------------------------------------------------------
# A busy machine may take longer than the 3 s to show the icon: a click that found no icon (no
# menu opened) is tried again, up to three times.
t_click=$(now_ms)
started=0
for attempt in 1 2 3; do
  menu_open || fail "the menu did not open"
  menu_hover 'Start load' || fail "Start load opened no submenu"
  menu_click '1,500 sleepers'
  wait_load 'sleep:1500@500ms' 20 && { started=1; break; }
  echo "Start load: no load after attempt $attempt; the menu is opened again"
  import -window root "$shots/tray-attempt-$attempt.png" 2>/dev/null
  xdotool mousemove 300 200 click 1 # closes a menu left open
  sleep 1
done
[ $started -eq 1 ] || fail "the menu's Start load did not start sleep:1500@500ms"
echo "Start load -> service runs sleep:1500@500ms after $(($(now_ms) - t_click)) ms" \
  "($(sed -n 's/^threads  *//p' "$out/status.txt") service threads)"

# --- the open menu on record, then Stop load -------------------------------------------------------
sleep 1 # the load-started event reaches the tray: the menu shows the load and offers Stop load
menu_open || fail "the menu did not open for Stop load"
xdotool mousemove 300 200 # the icon's tooltip would cover the menu
sleep 0.5
import -window root "$shot" || fail "no screenshot"
echo "screenshot of the open menu: $shot"
t_click=$(now_ms)
menu_click 'Stop load'

wait_load none || fail "the menu's Stop load did not stop the load"
echo "Stop load -> service load none after $(($(now_ms) - t_click)) ms"

# --- Exit ------------------------------------------------------------------------------------------
tray_running || fail "no threadsoup-tray.exe of this prefix runs before Exit"
menu_open || fail "the menu did not open for Exit"
menu_click 'Exit'

gone=0
for i in $(seq 1 20); do
  tray_running || { gone=1; break; }
  sleep 0.5
done
[ $gone -eq 1 ] || fail "the tray did not exit after Exit"
status || fail "the service went away with the tray"
echo "tray menu started and stopped the service's load; total $(now_ms) ms"
