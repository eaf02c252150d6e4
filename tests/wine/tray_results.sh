#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# tray_results.sh - the tray's results under Wine and Xvfb: a tiny experiment started by the
# command-line client ends in a "Run N finished" balloon with the run's headline; "Open latest
# report" writes the run's HTML report under %LOCALAPPDATA%\ThreadSoup\reports and opens it (with
# a recording batch file named by THREADSOUP_TRAY_OPEN_WITH instead of a browser), and headless
# Chromium renders it; History… lists the run. The tray's --log file says what it shows.
# Usage: tray_results.sh WINE-RUN THREADSOUP-EXE THREADSOUP-TRAY-EXE WINEPREFIX
set -u
wine_run=$1 exe=$2 tray=$3 prefix=$4

if [ -z "${TRAY_TEST_IN_X:-}" ]; then
  TRAY_TEST_IN_X=1 exec xvfb-run -a -s "-screen 0 1024x768x24" sh "$0" "$@"
fi

# pipe, out, shots, log, fail, wait_log, control_at, click_control; status, prefix_pids,
# start_desktop_and_service
. "$(dirname "$0")/tray-common.sh"
tray_test_begin tray-results
balloon_shot=$shots/tray-results-balloon.png
history_shot=$shots/tray-results-history.png
colours() { identify -format %k "$1" 2>/dev/null || echo 0; }

# The menu is driven where the tray logged its items (tray-common.sh).
pick() { # LABEL
  menu_open || fail "the menu did not open"
  menu_click "$1"
}

rm -f "$log" "$balloon_shot" "$history_shot"
start_desktop_and_service tray-results
# The opener: a batch file that records the path it was given.
printf '@echo %%~1> C:\\opened.txt\r\n' >"$prefix/drive_c/open-report.bat"
rm -f "$prefix/drive_c/opened.txt"
export THREADSOUP_TRAY_OPEN_WITH='C:\open-report.bat'
tray_win="Z:$(echo "$tray" | tr / '\\')"
log_win="Z:$(echo "$log" | tr / '\\')"
"$wine_run" explorer /desktop=shell,1024x768 "$tray_win" --pipe "$pipe" --log "$log_win" \
  >"$out/tray.txt" 2>&1 &
wait_log '^state idle' 120 || fail "the tray did not show the idle state"

# --- a tiny experiment: the balloon with the headline ---------------------------------------
"$wine_run" "$exe" run --service --socket "$pipe" --conditions baseline,sleep:100 --reps 3 \
  --warmup 0 --settle 0s --work-scale 0.02 --quiet-cpu off >"$out/run.txt" 2>&1 ||
  fail "threadsoup run --service failed"
wait_log '^balloon info \| ThreadSoup experiment \| Run [0-9]+ finished/.+' 600 ||
  fail "no balloon with the run's headline"
run=$(grep '^balloon info | ThreadSoup experiment | Run' "$log" | tail -n 1 | sed 's/.*| Run \([0-9]*\) .*/\1/')
echo "balloon: $(grep '^balloon info | ThreadSoup experiment' "$log" | tail -n 1)"
import -window root "$balloon_shot"
[ "$(colours "$balloon_shot")" -gt 8 ] || fail "the balloon's screenshot is blank"

# --- Open latest report ---------------------------------------------------------------------
for attempt in 1 2 3; do
  pick 'Open latest report'
  wait_log "^results report run $run written to .* and opened" 60 && break
  xdotool key Escape
  xdotool mousemove 300 200 click 1
done
wait_log "^results report run $run written to" 5 || fail "Open latest report wrote no report"
html=$(find "$prefix/drive_c/users" -name "run-$run.html" | head -n 1)
[ -s "$html" ] || fail "no run-$run.html under the prefix's users"
for i in $(seq 1 60); do [ -s "$prefix/drive_c/opened.txt" ] && break; sleep 0.5; done
grep -q "run-$run.html" "$prefix/drive_c/opened.txt" || fail "the report was not opened"
# Chromium is required (scripts/bootstrap.sh installs it), as for tests/e2e/html_report.sh.
chrome=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chrome" ] || fail "chromium is not installed (run scripts/bootstrap.sh)"
timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --user-data-dir="$out/profile" --dump-dom "file://$html" >"$out/dom.html" 2>"$out/chromium.log"
grep -q "<title>ThreadSoup run $run: " "$out/dom.html" ||
  fail "Chromium did not render the report of run $run (no title ThreadSoup run $run)"
echo "Chromium rendered $html: $(grep -o '<title>ThreadSoup run [^<]*' "$out/dom.html")"

# --- History… -------------------------------------------------------------------------------
for attempt in 1 2 3; do
  pick 'History'
  wait_log '^dialog history rows [0-9]+' 60 && break
  xdotool key Escape
  xdotool mousemove 300 200 click 1
done
wait_log "^dialog history row $run \\|" 5 || fail "History did not list run $run"
# At 96 dpi (100 %) the columns have the widths they are given for it.
grep -q '^dialog history columns 40 150 70 400 at 96 dpi$' "$log" ||
  fail "History's columns at 96 dpi: $(grep '^dialog history columns' "$log")"
grep "^dialog history row $run " "$log"
sleep 1
import -window root "$history_shot"
[ "$(colours "$history_shot")" -gt 8 ] || fail "the History dialog's screenshot is blank"
echo "tray results: balloon, report and history of run $run"
