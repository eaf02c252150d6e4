#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# compare_report.sh - three tiny real runs given the identities of three machines (as imported
# runs would have them), compared with report --compare-all-machines and --compare in every format;
# the HTML page rendered by headless Chromium must hold a chart per benchmark with a row per
# machine and condition, and its screenshot (1200x1600, kept in the work folder) must not be blank.
# usage: compare_report.sh THREADSOUP WORKDIR
set -eu
exe=$1
work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }

# shellcheck source=tests/e2e/chromium.sh
. "$(dirname "$0")/chromium.sh"

rm -rf "$work"
mkdir -p "$work"
db="$work/runs.db"
# Runs 1 and 2 with one plan, run 3 with another condition and another work scale.
for conditions in baseline,sleep:200 baseline,sleep:200 baseline,sleep:200,sleep:1000; do
  scale=0.05
  [ "$conditions" = baseline,sleep:200,sleep:1000 ] && scale=0.04
  "$exe" run --conditions "$conditions" --bench builtin-st,builtin-mt:2 --reps 3 --warmup 0 \
    --settle 100ms --work-scale "$scale" --quiet-cpu off --db "$db" >>"$work/run.txt" ||
    fail "a run failed: $(tail -5 "$work/run.txt")"
done
# The three runs come from this one machine: give them three machines' identities, as runs
# imported from other PCs have (the names need escaping in HTML).
python3 - "$db" <<'EOF' || fail "cannot set the runs' machines"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
machines = [(1, "a" * 32, "office-pc", "Intel Core i7-8700", 17179869184),
            (2, "b" * 32, "gaming <rig> & co", "AMD Ryzen 7 5800X", 34359738368),
            (3, "c" * 32, "old-laptop", "Intel Core i5-4210U", 8589934592)]
for run, machine_id, host, cpu, memory in machines:
    db.execute("UPDATE run SET machine_id=?, host=?, cpu=?, memory_bytes=? WHERE id=?",
               (machine_id, host, cpu, memory, run))
db.commit()
EOF

printed=$("$exe" report --compare-all-machines --format html --output "$work/compare.html" \
  --db "$db")
[ "$printed" = "$work/compare.html" ] || fail "--output printed '$printed'"
"$exe" report --compare 1,2,3 --db "$db" >"$work/compare.txt"
grep -q "Comparison of 3 runs" "$work/compare.txt" || fail "text: $(head -3 "$work/compare.txt")"
grep -q "conditions: sleep:1000@500ms measured in run 3; not measured in runs 1, 2" \
  "$work/compare.txt" || fail "text: the plans' difference in conditions is not named"
grep -q "work scale: 0.05 in runs 1, 2; 0.04 in run 3" "$work/compare.txt" ||
  fail "text: the plans' difference in work scale is not named"
[ "$(grep -Ec '\(run [12]\) +not measured$' "$work/compare.txt")" -eq 4 ] ||
  fail "text: sleep:1000 is not 'not measured' for runs 1 and 2 in both benchmarks"
"$exe" report --compare 3,1,2 --format json --db "$db" >"$work/compare.json"
python3 - "$work/compare.json" <<'EOF' || fail "the JSON comparison is not what was asked"
import json, sys
c = json.load(open(sys.argv[1]))["comparison"]
assert [r["id"] for r in c["runs"]] == [3, 1, 2], c["runs"]
assert [b["name"] for b in c["benchmarks"]] == ["builtin-st", "builtin-mt:2"], c["benchmarks"]
for b in c["benchmarks"]:
    assert len(b["machines"]) == 3
    for m in b["machines"]:
        assert m["baseline_n"] == 3 and m["baseline_cv"] is not None, m
        for cell in m["conditions"]:
            if cell["measured"]:
                assert cell["percent"] is not None and len(cell["ci"]) == 2 and cell["p_holm"] is not None, cell
EOF
# latest is the newest run, 3.
"$exe" report --compare 1,latest --format json --db "$db" >"$work/latest.json"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["comparison"]["runs"]
assert [x["id"] for x in r] == [1, 3], r' "$work/latest.json" || fail "1,latest is not runs 1 and 3"
"$exe" report --compare 1,2 --format csv --db "$db" >"$work/compare.csv"
# A header, 2 runs x 2 benchmarks x 2 conditions, a blank line, the differences' header only.
[ "$(grep -c . "$work/compare.csv")" -eq 10 ] || fail "csv: $(cat "$work/compare.csv")"
if "$exe" report --compare 1,1 --db "$db" 2>"$work/twice.txt"; then
  fail "a run listed twice was taken"
else
  [ $? -eq 2 ] || fail "a run listed twice: not exit code 2"
fi
grep -q "run 1 is listed twice (accepted: each run once" "$work/twice.txt" ||
  fail "twice: $(cat "$work/twice.txt")"
# Spaces around ids are taken on either side, latest's too.
"$exe" report --compare "1 , 2" --db "$db" >/dev/null || fail "--compare '1 , 2' was refused"
"$exe" report --compare " latest ,1" --db "$db" >/dev/null || fail "--compare ' latest ,1' was refused"

url="file://$work/compare.html"
chromium_dom "$url" "$work/dom.html" "$work"
charts=$(grep -o 'class="compare-chart"' "$work/dom.html" | wc -l)
[ "$charts" -eq 2 ] || fail "the rendered page has $charts charts, not one per benchmark (2)"
# Per benchmark, per condition shown (sleep:200, sleep:1000), a row per machine.
rows=$(grep -o 'class="machine-row"' "$work/dom.html" | wc -l)
[ "$rows" -eq 12 ] || fail "the charts have $rows machine rows, not 2 x 2 x 3"
machines=$(grep -o '<tr class="machine">' "$work/dom.html" | wc -l)
[ "$machines" -eq 3 ] || fail "the machines table has $machines rows, not 3"
for want in "office-pc" "gaming &lt;rig&gt; &amp; co" "old-laptop" "not measured" \
  "Intel Core i5-4210U" "16.0 GiB" "The plans differ"; do
  grep -q "$want" "$work/dom.html" || fail "the rendered page lacks '$want'"
done
python3 -c "open('$work/compare.html', encoding='utf-8').read()" ||
  fail "the page is not valid UTF-8"

chromium_screenshot "$url" "$work/compare.png" "$work"
echo "compare report rendered; screenshot $work/compare.png ($shot_size bytes)"
echo "1 passed, 0 failed"
