#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# tray_state.sh - what the tray shows under Wine and Xvfb: its state icon and tooltip follow a load
# started by the command-line client, its menu shows quiet mode as the service reports it (a
# refusal comes as a balloon), "Quiet mode during experiments" is stored per user, and a stopped
# service turns it to "unreachable". The tray's --log file says what it shows.
# Usage: tray_state.sh WINE-RUN THREADSOUP-EXE THREADSOUP-TRAY-EXE WINEPREFIX (a prefix of its
# own: a Wine session started without a display cannot show windows later).
set -u
wine_run=$1 exe=$2 tray=$3 prefix=$4

if [ -z "${TRAY_TEST_IN_X:-}" ]; then
  TRAY_TEST_IN_X=1 exec xvfb-run -a -s "-screen 0 1024x768x24" sh "$0" "$@"
fi

# pipe, out, shots, log, fail, wait_log, control_at, click_control; status, prefix_pids,
# start_desktop_and_service
. "$(dirname "$0")/tray-common.sh"
tray_test_begin tray-state
shot=$shots/tray-state-menu.png
t0=$(date +%s%N)
now_ms() { echo $((($(date +%s%N) - t0) / 1000000)); }
# The last state line of the log.
last_state() { grep '^state ' "$log" | tail -n 1; }
# Polls (every 0.5 s, up to $2 s, 60 unless given) until the last state line matches $1 (grep -E).
wait_state() {
  for i in $(seq 1 $((${2:-60} * 2))); do
    last_state | grep -Eq "$1" && return 0
    sleep 0.5
  done
  return 1
}

# The icon is the only one in the notification area of the 1024x768 desktop; the menu opens
# upwards from it, right-aligned to the screen edge. Rows (y, seen in the screenshot; tray.sh
# has them all): Run experiment 606, Quiet mode now 666, Quiet mode during experiments 683. While
# idle the menu's left edge is near x 804 (its widest row is Quiet mode during experiments), and
# the plans' submenu opens to the left of it, about 77 px wide, first row level with Run
# experiment (screenshot tray-state-plans.png).
icon_x=1014 icon_y=757 item_x=950
quiet_now_y=666 quiet_runs_y=683 run_y=606 first_plan_x=765
open_menu() {
  xdotool mousemove $icon_x $icon_y click 3
  sleep 1
}
close_menu() {
  xdotool key Escape
  xdotool mousemove 300 200 click 1
  sleep 1
}
pick() {
  xdotool mousemove "$1" "$2"
  sleep 0.7
  xdotool click 1
}
# Opens the menu until the tray logs it (a busy machine may be slow to show the icon).
menu_opened() { # COUNT-BEFORE
  for attempt in 1 2 3 4 5; do
    open_menu
    for i in $(seq 1 10); do
      [ "$(grep -c '^menu ' "$log")" -gt "$1" ] && return 0
      sleep 0.5
    done
    close_menu
  done
  return 1
}

# --- the desktop, the service, the tray --------------------------------------------------------
rm -f "$log" "$shot"
start_desktop_and_service tray-state
"$wine_run" reg delete 'HKCU\Software\ThreadSoup\Tray' /f >/dev/null 2>&1
echo "desktop and service up after $(now_ms) ms"

tray_win="Z:$(echo "$tray" | tr / '\\')"
log_win="Z:$(echo "$log" | tr / '\\')"
"$wine_run" explorer /desktop=shell,1024x768 "$tray_win" --pipe "$pipe" --log "$log_win" \
  >"$out/tray.txt" 2>&1 &
wait_log '^state idle \| ThreadSoup: Idle$' || fail "the tray did not show the idle state"
echo "tray idle at $(now_ms) ms: $(last_state)"

# An idle tray wakes for no timer: with nothing happening its threads are not switched in at all.
# Wine runs each Windows thread as a Linux thread whose context switches /proc counts; a 1 s timer
# or poll would show as 10 or more in 10 s. Measured here: 0.
tray_switches() { # prints "THREADS SWITCHES" of this prefix's threadsoup-tray process
  threads=0 switches=0
  for p in $(prefix_pids 'threadsoup-tray'); do
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = threadsoup-tray ] || continue
    for s in /proc/"$p"/task/*/status; do
      v=$(awk '/ctxt_switches/ {n += $2} END {print n + 0}' "$s" 2>/dev/null)
      threads=$((threads + 1)) switches=$((switches + ${v:-0}))
    done
  done
  echo "$threads $switches"
}
sleep 3
set -- $(tray_switches)
[ "$1" -gt 0 ] || fail "no threadsoup-tray process of this prefix found to measure"
before=$2
sleep 10
set -- $(tray_switches)
woke=$(($2 - before))
echo "idle tray: $1 threads, $woke context switches in 10 s"
[ "$woke" -lt 5 ] || fail "the idle tray's threads were switched in $woke times in 10 s: something wakes it"

# --- a load from the command line: icon and tooltip in numbers ----------------------------------
"$wine_run" "$exe" start sleep:700 --socket "$pipe" >"$out/start.txt" 2>&1 ||
  fail "threadsoup start sleep:700 failed"
wait_log '^state load \| ThreadSoup: 700 sleepers at 0\.5 s, 1,400 wake-ups/s$' ||
  fail "the tray did not show the load of 700 sleepers"
echo "load -> $(last_state) at $(now_ms) ms"

# Asks the service for quiet mode's state ($quiet), opens the menu and checks that its Quiet mode
# now is checked exactly when the service says quiet mode is on.
menu_shows_quiet() {
  status || fail "no status"
  quiet=$(sed -n 's/^quiet  *//p' "$out/status.txt")
  [ -n "$quiet" ] || fail "status has no quiet field"
  menu_opened "$(grep -c '^menu ' "$log")" || fail "the menu did not open"
  want=unchecked
  [ "$quiet" = on ] && want=checked
  grep '^menu ' "$log" | tail -n 1 | grep -q "| quiet-now $want |" ||
    fail "the menu's Quiet mode now is not $want while the service says quiet $quiet"
}

# --- the menu: quiet mode as the service reports it ---------------------------------------------
menu_shows_quiet
xdotool mousemove 300 200 # the icon's tooltip would cover the menu
sleep 0.5
import -window root "$shot" || fail "no screenshot"
colours=$(convert "$shot" -format '%k' info:)
echo "menu screenshot $shot: $colours colours"
[ "$colours" -gt 8 ] || fail "the menu's screenshot is blank ($colours colours)"

# Quiet mode now: Wine has neither Defender nor Windows Update, so the service refuses and the
# tray says why in a balloon; the item stays as the service reports.
[ "$quiet" = off ] || fail "quiet mode is on in a fresh service under Wine"
pick $item_x $quiet_now_y
wait_log '^balloon error \| Quiet mode was not turned on \| .+|^state .*/Quiet mode: ' ||
  fail "Quiet mode now: no balloon said why it was not turned on, and it did not turn on"
echo "Quiet mode now -> $(grep -E '^(balloon|state) ' "$log" | tail -n 1)"
menu_shows_quiet

# Quiet mode during experiments: a per-user setting in the registry.
pick $item_x $quiet_runs_y
wait_log '^setting QuietDuringExperiments 1$' 20 || fail "Quiet mode during experiments not set"
"$wine_run" reg query 'HKCU\Software\ThreadSoup\Tray' /v QuietDuringExperiments \
  >"$out/reg.txt" 2>&1
grep -q 'QuietDuringExperiments.*REG_DWORD.*0x1' "$out/reg.txt" ||
  fail "QuietDuringExperiments is not 1 in HKCU\\Software\\ThreadSoup\\Tray"
menu_opened "$(grep -c '^menu ' "$log")" || fail "the menu did not open a third time"
grep '^menu ' "$log" | tail -n 1 | grep -q '| quiet-during-experiments checked$' ||
  fail "Quiet mode during experiments is not checked after the click"
close_menu
echo "Quiet mode during experiments stored and checked at $(now_ms) ms"

# --- an experiment from the menu asks for quiet mode ----------------------------------------------
"$wine_run" "$exe" stop --socket "$pipe" >"$out/stop.txt" 2>&1 || fail "threadsoup stop failed"
wait_state '^state idle \| ' || fail "the tray did not return to idle after the load stopped"
# A busy machine may open the submenu late: a click that started no run is tried again.
started=0
for attempt in 1 2 3; do
  menu_opened "$(grep -c '^menu ' "$log")" || fail "the menu did not open for Run experiment"
  xdotool mousemove $item_x $run_y
  sleep 1
  import -window root "$shots/tray-state-plans.png" 2>/dev/null
  pick $first_plan_x $run_y
  wait_state '^state run \| ThreadSoup: Run [0-9]+: ' 30 && { started=1; break; }
  echo "Run experiment: no run after attempt $attempt; the menu is opened again"
  close_menu
done
[ $started -eq 1 ] || fail "Run experiment > quick started no run"
echo "Run experiment -> $(last_state) at $(now_ms) ms"
# The run's plan asked for quiet mode: the run's note says what quiet mode did (here: why it
# cannot), before the first trial. The run is stopped then, before its big loads (WINE.md).
wait_log '^note \| quiet mode: ' 120
noted=$?
"$wine_run" "$exe" stop --run --socket "$pipe" >"$out/stop-run.txt" 2>&1
[ $noted -eq 0 ] || fail "the run started from the tray did not ask for quiet mode"
wait_state '^state idle \| ' || fail "the tray did not return to idle after the run stopped"
echo "the run asked for quiet mode: $(grep '^note | quiet mode: ' "$log" | head -n 1)"

# --- the service goes away: unreachable ----------------------------------------------------------
for p in $(prefix_pids 'threadsoup\.exe service run'); do kill "$p" 2>/dev/null; done
wait_state '^state unreachable \| ' || fail "the tray did not turn unreachable after the service stopped"
echo "service stopped -> $(last_state) at $(now_ms) ms"
echo "tray state test passed; total $(now_ms) ms"
