#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# html_report.sh - a tiny real experiment, its report as CSV, JSON and HTML, and the HTML page
# rendered by headless Chromium: the DOM must hold the headline, tables, charts, verdicts and census,
# the page laid out in a 1280 px window must fit it (nothing past the page, no text cut, no chart
# label outside its chart: the census bar of 1,000 threads has its total beside it), and a
# screenshot (1200x1600) is kept in the work folder for a person to look at.
# usage: html_report.sh THREADSOUP WORKDIR
set -eu
exe=$1
work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }

# shellcheck source=tests/e2e/chromium.sh
. "$(dirname "$0")/chromium.sh"

rm -rf "$work"
mkdir -p "$work"
db="$work/run.db"
"$exe" run --conditions baseline,sleep:1000 --reps 3 --warmup 0 --settle 100ms --work-scale 0.05 \
  --quiet-cpu off --db "$db" >"$work/run.txt" || fail "the run failed: $(tail -5 "$work/run.txt")"

# --output writes the file and prints its path.
printed=$("$exe" report latest --format html --output "$work/report.html" --db "$db")
[ "$printed" = "$work/report.html" ] || fail "--output printed '$printed'"
[ -s "$work/report.html" ] || fail "no report.html"
"$exe" report latest --format json --db "$db" >"$work/report.json"
python3 -m json.tool "$work/report.json" >/dev/null || fail "the JSON report does not parse"
"$exe" report latest --format csv --db "$db" >"$work/report.csv"
# The trial rows (a header and 6 trials), a blank line, then the census: a header and 2 conditions.
[ "$(sed '/^$/q' "$work/report.csv" | grep -c .)" -eq 7 ] ||
  fail "the CSV report's trial table has not 1 + 6 lines"
# (Of 3 trials 1 to 3 recorded: where a census costs over 100 ms of CPU, a busy machine's case,
# only every third trial takes one.)
[ "$(sed '1,/^$/d' "$work/report.csv" | grep -Ec '^sleep:1000@500ms,3,[123],')" -eq 1 ] ||
  fail "the CSV report's census has no row of sleep:1000@500ms's 3 trials"
if "$exe" report latest --format pdf --db "$db" 2>"$work/bad.txt"; then
  fail "--format pdf taken"
fi
grep -q "accepted: text, csv, json, html" "$work/bad.txt" ||
  fail "bad format: $(cat "$work/bad.txt")"

url="file://$work/report.html"
chromium_dom "$url" "$work/dom.html" "$work"
for want in "<table>" "<svg " "<circle " "baseline" "sleep:1000@500ms" "reference" \
  "Difference from the baseline" "run order" "<h2>Census</h2>" "threads by OS state"; do
  grep -q "$want" "$work/dom.html" || fail "the rendered page lacks '$want'"
done
grep -Eq "(slower|faster|no measurable effect|inconclusive)" "$work/dom.html" ||
  fail "the rendered page has no verdict"
grep -A1 '<h2>Headline</h2>' "$work/dom.html" | grep -q '<p class="headline">1,000 sleepers: builtin-st ' ||
  fail "the rendered page has no headline of the 1,000 sleepers"
# A state with none of the load's threads is not listed on every line ("R (running) 0").
if grep -E '</b>: .* 0(,|</li>)' "$work/dom.html"; then
  fail "the census lists a state with no threads"
fi
chromium_layout "$work/report.html" 1280 "$work"

chromium_screenshot "$url" "$work/report.png" "$work"
echo "html report rendered; screenshot $work/report.png ($shot_size bytes)"
echo "1 passed, 0 failed"
