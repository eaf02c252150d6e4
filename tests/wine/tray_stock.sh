#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# tray_stock.sh - the tray on settings a stock Windows PC often has, under Wine and Xvfb: at 150 %
# (LogPixels 144) History's columns are half as wide again as at 100 %; a refusal the user must
# see (Open latest report with no runs yet) comes in a window instead of a balloon when Focus
# assist is on (the notification state "quiet-time", given through the tray's test knob
# THREADSOUP_TRAY_NOTIFICATION_STATE) or notifications are off (ToastEnabled 0), and as a balloon
# otherwise; a knob naming no state is refused at the start. The tray's --log says what it shows.
# Usage: tray_stock.sh WINE-RUN THREADSOUP-EXE THREADSOUP-TRAY-EXE WINEPREFIX (a prefix of its
# own: the DPI and the notifications setting are its user's).
set -u
wine_run=$1 exe=$2 tray=$3 prefix=$4

if [ -z "${TRAY_TEST_IN_X:-}" ]; then
  TRAY_TEST_IN_X=1 exec xvfb-run -a -s "-screen 0 1024x768x24" sh "$0" "$@"
fi

# pipe, out, shots, log, fail, wait_log, click_control, menu_open, menu_click; status,
# prefix_pids, start_desktop_and_service
. "$(dirname "$0")/tray-common.sh"
tray_test_begin tray-stock
tray_win="Z:$(echo "$tray" | tr / '\\')"
log_win="Z:$(echo "$log" | tr / '\\')"
toasts='HKCU\Software\Microsoft\Windows\CurrentVersion\PushNotifications'

# A knob that names no notification state: refused at the start, with the states accepted.
THREADSOUP_TRAY_NOTIFICATION_STATE=loud "$wine_run" "$tray" --exit-after 5000 \
  >"$out/knob.raw" 2>&1
rc=$?
tr -d '\r' <"$out/knob.raw" >"$out/knob.txt"
[ $rc -eq 2 ] || fail "a knob naming no state: exit $rc, not 2"
grep -q "THREADSOUP_TRAY_NOTIFICATION_STATE: 'loud' is not a notification state (accepted: accepts-notifications, quiet-time," \
  "$out/knob.txt" || fail "a knob naming no state is not refused in words"

# 150 %: Wine's DPI is the user's LogPixels, read when a program starts.
"$wine_run" reg add 'HKCU\Control Panel\Desktop' /v LogPixels /t REG_DWORD /d 144 /f \
  >/dev/null 2>&1 || fail "could not set LogPixels 144"
rm -f "$log"
start_desktop_and_service tray-stock

# Waits (up to $3 s) until more than $2 lines of the log match $1 (grep -E).
wait_more() {
  for i in $(seq 1 $(($3 * 2))); do
    n=$(grep -Ec "$1" "$log" 2>/dev/null)
    [ "${n:-0}" -gt "$2" ] && return 0
    sleep 0.5
  done
  return 1
}
# Starts the tray (with the environment given before the call) and waits for it to be idle.
start_tray() {
  idle=$(grep -c '^state idle ' "$log" 2>/dev/null)
  "$wine_run" explorer /desktop=shell,1024x768 "$tray_win" --pipe "$pipe" --log "$log_win" \
    >"$out/tray.txt" 2>&1 &
  wait_more '^state idle ' "${idle:-0}" 120 || fail "the tray did not show the idle state"
}
# Exit from the menu, and waits until the tray is gone.
exit_tray() {
  menu_open || fail "the menu did not open for Exit"
  menu_click Exit
  for i in $(seq 1 40); do
    [ -z "$(prefix_pids 'threadsoup-tray\.exe.*--pipe')" ] && return 0
    sleep 0.5
  done
  fail "the tray did not exit"
}
# Open latest report with no runs: the service's refusal must be seen. $1: how it is shown
# ("window NOTIFICATION-STATE" or "balloon").
refusal_shown_as() {
  refusals='^(window|balloon) error \| Open report \| '
  before=$(grep -Ec "$refusals" "$log") found=$(grep -c '^window shown | Open report$' "$log")
  closed=$(grep -c '^window closed | Open report$' "$log")
  menu_open || fail "the menu did not open"
  menu_click 'Open latest report'
  wait_more "$refusals" "$before" 180 || fail "no refusal shown"
  shown=$(grep -E "$refusals" "$log" | tail -n 1)
  case $1 in
  balloon)
    echo "$shown" | grep -q '^balloon error | Open report | .*no runs yet' ||
      fail "the refusal was not a balloon: $shown"
    ;;
  window*)
    echo "$shown" | grep -q "^window error | Open report | .*no runs yet.* | notifications: ${1#window }\$" ||
      fail "the refusal was not a window for ${1#window }: $shown"
    # The window is on the screen (the tray finds it as any program would, FindWindow), and its
    # OK button, where the tray logged it, closes it.
    wait_more '^window shown \| Open report$' "$found" 30 ||
      fail "FindWindow found no window titled Open report"
    sleep 1
    import -window root "$shots/tray-stock-refusal-window.png" 2>/dev/null
    click_control message OK
    wait_more '^window closed \| Open report$' "$closed" 10 ||
      fail "a click on the window's OK did not close it"
    ;;
  esac
  echo "refusal shown: $shown"
}

# --- Focus assist on: a window -----------------------------------------------------------------
export THREADSOUP_TRAY_NOTIFICATION_STATE=quiet-time
start_tray
unset THREADSOUP_TRAY_NOTIFICATION_STATE
refusal_shown_as 'window quiet-time'

# --- History at 150 %: the columns' widths scaled from 96 dpi (40 150 70 400) ------------------
before=$(grep -c '^dialog history opened' "$log")
for attempt in 1 2 3; do
  menu_open || fail "the menu did not open for History"
  menu_click 'History'
  wait_log '^dialog history columns ' 30 && break
  menu_close
done
grep '^dialog history columns ' "$log" | tail -n 1 |
  grep -q '^dialog history columns 60 225 105 600 at 144 dpi$' ||
  fail "History's columns at 144 dpi: $(grep '^dialog history columns' "$log" | tail -n 1)"
echo "$(grep '^dialog history columns' "$log" | tail -n 1)"
sleep 1
import -window root "$shots/tray-stock-history-144dpi.png" 2>/dev/null
click_control history Close
wait_log '^dialog history closed' 20 || fail "History did not close"
exit_tray

# --- notifications off (Settings: ToastEnabled 0): a window --------------------------------------
"$wine_run" reg add "$toasts" /v ToastEnabled /t REG_DWORD /d 0 /f >/dev/null 2>&1 ||
  fail "could not set ToastEnabled 0"
start_tray
refusal_shown_as 'window notifications-off'
exit_tray

# --- notifications on: a balloon ---------------------------------------------------------------
"$wine_run" reg add "$toasts" /v ToastEnabled /t REG_DWORD /d 1 /f >/dev/null 2>&1 ||
  fail "could not set ToastEnabled 1"
start_tray
refusal_shown_as balloon
exit_tray
echo "tray stock test passed"
