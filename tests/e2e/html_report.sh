#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# html_report.sh - a tiny real experiment, its report as CSV, JSON and HTML, and the HTML page
# rendered by headless Chromium: the DOM must hold the tables, charts, verdicts and census, and a
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
"$exe" run --conditions baseline,sleep:200 --reps 3 --warmup 0 --settle 100ms --work-scale 0.05 \
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
[ "$(sed '1,/^$/d' "$work/report.csv" | grep -c '^sleep:200@500ms,3,3,')" -eq 1 ] ||
  fail "the CSV report's census has no row of sleep:200@500ms's 3 trials"
if "$exe" report latest --format pdf --db "$db" 2>"$work/bad.txt"; then
  fail "--format pdf taken"
fi
grep -q "accepted: text, csv, json, html" "$work/bad.txt" ||
  fail "bad format: $(cat "$work/bad.txt")"

url="file://$work/report.html"
chromium_dom "$url" "$work/dom.html" "$work"
for want in "<table>" "<svg " "<circle " "baseline" "sleep:200@500ms" "reference" \
  "Difference from the baseline" "run order" "<h2>Census</h2>" "threads by OS state"; do
  grep -q "$want" "$work/dom.html" || fail "the rendered page lacks '$want'"
done
grep -Eq "(slower|faster|no measurable effect|inconclusive)" "$work/dom.html" ||
  fail "the rendered page has no verdict"

chromium_screenshot "$url" "$work/report.png" "$work"
echo "html report rendered; screenshot $work/report.png ($shot_size bytes)"
echo "1 passed, 0 failed"
