#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# tray_state.sh - what the tray shows under Wine and Xvfb: its state icon and tooltip follow a load
# started by the command-line client, its menu shows quiet mode as the service reports it (a
# refusal comes as a balloon), each choice of "Quiet mode during experiments" is stored per user
# and sent with an experiment started from the menu (the run's stored plan says it), "What do my
# background programs cost?" starts the preset background where the service has it, and a stopped
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

# The menu is driven where the tray logged its items (menu_open, menu_hover, menu_click).
# Whether the menu shows the tray's latest "menu |" line's state: its count before opening.
menu_opened() { # COUNT-BEFORE
  menu_open || return 1
  for i in $(seq 1 10); do
    [ "$(grep -c '^menu |' "$log")" -gt "$1" ] && return 0
    sleep 0.5
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
  menu_opened "$(grep -c '^menu |' "$log")" || fail "the menu did not open"
  want=unchecked
  [ "$quiet" = on ] && want=checked
  grep '^menu |' "$log" | tail -n 1 | grep -q "| quiet-now $want |" ||
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
menu_click 'Quiet mode now'
wait_log '^balloon error \| Quiet mode was not turned on \| .+|^state .*/Quiet mode: ' ||
  fail "Quiet mode now: no balloon said why it was not turned on, and it did not turn on"
echo "Quiet mode now -> $(grep -E '^(balloon|state) ' "$log" | tail -n 1)"
menu_shows_quiet

menu_close

# --- Quiet mode during experiments: each choice stored per user and sent with the run -------------
"$wine_run" "$exe" stop --socket "$pipe" >"$out/stop.txt" 2>&1 || fail "threadsoup stop failed"
wait_state '^state idle \| ' || fail "the tray did not return to idle after the load stopped"
# Each choice (label:the plan's word) is picked in the submenu, stored in the registry, marked in
# the next menu, and an experiment started from the menu then runs with `quiet = WORD` in its
# stored plan, which the service's report gives back. The run is stopped at once (WINE.md).
for choice in 'Pause Windows Update only:updates' 'Defender only:defender' 'Both:on' 'Off:off'; do
  label=${choice%:*} word=${choice#*:}
  menu_open || fail "the menu did not open for Quiet mode during experiments"
  menu_hover 'Quiet mode during experiments' || fail "Quiet mode during experiments opened no submenu"
  [ "$word" = updates ] && import -window root "$shots/tray-state-quiet-choices.png" 2>/dev/null
  menu_click "$label"
  wait_log "^setting QuietDuringExperiments $word\$" 20 || fail "$label: the choice was not stored"
  "$wine_run" reg query 'HKCU\Software\ThreadSoup\Tray' /v QuietDuringExperiments \
    >"$out/reg.raw" 2>&1
  tr -d '\r' <"$out/reg.raw" >"$out/reg.txt"
  grep -Eq "QuietDuringExperiments +REG_SZ +$word\$" "$out/reg.txt" ||
    fail "$label: QuietDuringExperiments is not $word in HKCU\\Software\\ThreadSoup\\Tray"
  # A busy machine may open the submenu late: a click that started no run is tried again.
  before=$(grep -c '^request run-start ' "$log")
  for attempt in 1 2 3; do
    menu_opened "$(grep -c '^menu |' "$log")" || fail "the menu did not open for Run experiment"
    grep '^menu |' "$log" | tail -n 1 | grep -q "| quiet-during-experiments $word\$" ||
      fail "$label: the menu does not mark the choice $word"
    menu_hover 'Run experiment' || fail "Run experiment opened no submenu"
    [ "$word" = updates ] && import -window root "$shots/tray-state-plans.png" 2>/dev/null
    menu_click quick
    wait_state '^state run \| ThreadSoup: Run [0-9]+: ' 30 && break
    echo "Run experiment: no run after attempt $attempt; the menu is opened again"
    menu_close
  done
  last_state | grep -Eq '^state run ' || fail "$label: Run experiment > quick started no run"
  sent=$(grep '^request run-start ' "$log" | tail -n 1)
  run=$(last_state | sed 's/.*Run \([0-9]*\):.*/\1/')
  # The plan the service stored for the run, in its JSON report.
  cli report report "$run" --service --socket "$pipe" --format json
  "$wine_run" "$exe" stop --run --socket "$pipe" >"$out/stop-run.txt" 2>&1
  wait_state '^state idle \| ' || fail "the tray did not return to idle after run $run stopped"
  grep -q "quiet = $word\\\\n" "$out/report.txt" ||
    fail "$label: run $run's stored plan has no 'quiet = $word' (the tray sent: $sent)"
  echo "$label -> $sent -> run $run stored quiet = $word"
done

# --- What do my background programs cost? -----------------------------------------------------
# It starts the service's preset "background" as Run experiment starts "quick", when the service
# offers it (its catalog), and is greyed when it does not.
menu_opened "$(grep -c '^menu |' "$log")" || fail "the menu did not open for the background item"
if grep '^catalog presets' "$log" | tail -n 1 | grep -Eq ' background( |$)'; then
  grep '^menu background ' "$log" | tail -n 1 | grep -q '^menu background offered$' ||
    fail "the service offers the preset background but the menu does not: $(grep '^menu background' "$log" | tail -n 1)"
  menu_click 'What do my background programs cost?'
  wait_log '^request run-start \| plan background' 30 ||
    fail "What do my background programs cost? sent no run-start of plan background"
  # The service runs it, or (a Wine prefix runs few programs, and the freeze rules refuse those)
  # refuses it in words the tray shows: "freeze:background: no program woke up ...".
  for i in $(seq 1 120); do
    last_state | grep -Eq '^state run \| ThreadSoup: Run [0-9]+: ' && break
    grep -q '^balloon error | What do my background programs cost? failed | .*freeze:background: ' \
      "$log" && break
    sleep 0.5
  done
  if last_state | grep -Eq '^state run \| ThreadSoup: Run [0-9]+: '; then
    run=$(last_state | sed 's/.*Run \([0-9]*\):.*/\1/')
    "$wine_run" "$exe" stop --run --socket "$pipe" >"$out/stop-run.txt" 2>&1
    wait_state '^state idle \| ' || fail "the tray did not return to idle after run $run stopped"
    cli history history --service --socket "$pipe"
    grep -Eq "^ *$run( [IS])? +[^ ]+ +[^ ]+ +background " "$out/history.txt" ||
      fail "run $run, started by What do my background programs cost?, is not of plan background"
    echo "What do my background programs cost? -> run $run of plan background"
  else
    grep -q '^balloon error | What do my background programs cost? failed | .*freeze:background: ' \
      "$log" || fail "What do my background programs cost? started no run and showed no refusal"
    echo "What do my background programs cost? -> $(grep '^balloon error | What do my' "$log" | tail -n 1 | cut -c1-160)"
  fi
else
  grep '^menu background ' "$log" | tail -n 1 |
    grep -q '^menu background unavailable (the service has no preset background)$' ||
    fail "the service has no preset background but the menu offers it"
  menu_close
  echo "What do my background programs cost?: greyed (this service has no preset background)"
fi

# --- the service goes away: unreachable ----------------------------------------------------------
for p in $(prefix_pids 'threadsoup\.exe service run'); do kill "$p" 2>/dev/null; done
wait_state '^state unreachable \| ' || fail "the tray did not turn unreachable after the service stopped"
echo "service stopped -> $(last_state) at $(now_ms) ms"
echo "tray state test passed; total $(now_ms) ms"
