#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# hostile_names.sh - names any user controls never reach a terminal as escapes or bidi controls:
# real processes named with OSC 52 (clipboard write), ESC[2J, an OSC 8 link and U+202E, read
# back through `threadsoup census` and `load sleep --like PID --print-only`; and a database whose
# conditions, benchmark, host, OS, plan, detail and times hold them, through `history`, `report`
# in all four formats, its headline and `report --compare`. Text and CSV hold no control, bidi or
# other format character and no stray byte; JSON parses and keeps them escaped; HTML escapes
# them. Usage: hostile_names.sh PATH-TO-threadsoup WORK-DIR
set -u
exe=$1
work=$2
fail() { echo "hostile_names: $*" >&2; exit 1; }
mkdir -p "$work" || fail "cannot make $work"

# Whether file $1 ($2 names it) is UTF-8 with no control character but line breaks, and no
# format character (Unicode Cf, which holds the bidi controls) or line/paragraph separator.
clean() {
  python3 - "$1" "$2" <<'EOF' || fail "$2 lets something through (above)"
import sys, unicodedata
data = open(sys.argv[1], 'rb').read()
try:
    text = data.decode('utf-8')
except UnicodeDecodeError as e:
    sys.exit("%s: not UTF-8: %s" % (sys.argv[2], e))
for i, ch in enumerate(text):
    cp = ord(ch)
    if (cp < 0x20 and ch != '\n') or 0x7f <= cp <= 0x9f or cp in (0x2028, 0x2029) \
            or unicodedata.category(ch) == 'Cf':
        sys.exit("%s: U+%04X at character %d: ...%r..." % (sys.argv[2], cp, i, text[max(0, i - 30):i + 30]))
EOF
}
# Whether file $1 holds the text $2 ($3 says what it shows).
holds() { grep -qF -- "$2" "$1" || fail "$3: '$2' not in $1: $(head -c 3000 "$1")"; }

osc52=$(printf '\033]52;c;aGk=\007')
clear=$(printf '\033[2J')
link=$(printf '\033]8;;x:y\033\\L')
rlo=$(printf 'a\342\200\256b')

# ---- processes: a copy of sleep under each name (the kernel keeps the first 15 bytes) ----------
pids=""
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null; done
}
trap cleanup EXIT
sleep_path=$(command -v sleep) || fail "no sleep program"
mkdir -p "$work/bin"
for name in "$osc52" "$clear" "$link" "$rlo"; do
  ln -sf "$sleep_path" "$work/bin/$name" || fail "cannot link $sleep_path"
  "$work/bin/$name" 300 &
  pids="$pids $!"
done
sleep 0.5
last=$!

"$exe" census --interval 200ms --top 1000 >"$work/census.out" 2>&1 || fail "census failed"
clean "$work/census.out" "census"
holds "$work/census.out" '\x1B]52;c;aGk=\x07' "census shows the OSC 52 name escaped"
holds "$work/census.out" '\x1B[2J' "census shows the ESC[2J name escaped"
holds "$work/census.out" '\x1B]8;;x:y\x1B\L' "census shows the OSC 8 name escaped"
holds "$work/census.out" 'a<U+202E>b' "census names U+202E"

for pid in $pids; do
  "$exe" load sleep --like "$pid" --window 1s --print-only >"$work/like.out" 2>&1 ||
    fail "--like $pid failed: $(cat "$work/like.out")"
  clean "$work/like.out" "load sleep --like $pid"
  holds "$work/like.out" "process $pid (" "--like $pid describes it"
done
holds "$work/like.out" 'a<U+202E>b' "--like names U+202E"

# ---- a database holding the same names ----------------------------------------------------------
db="$work/hostile.db"
rm -f "$db" "$db-wal" "$db-shm"
# Run 1: eight blocks of baseline and sleep:10 (scores typed in, blocked by the SQL below, so the
# headline compares the two); run 2: one of each, for --compare.
record() { # run condition score
  "$exe" record --run "$1" --bench b1 --condition "$2" --score "$3" --db "$db" >/dev/null ||
    fail "record $* failed"
}
record new baseline 100
record 1 sleep:10 80
for i in 1 2 3 4 5 6 7; do
  record 1 baseline $((100 + i % 3))
  record 1 sleep:10 $((80 + i % 2))
done
record new baseline 100
record 2 sleep:10 90
esc="char(27)"
sqlite3 "$db" "
UPDATE trial SET block = (seq + 1) / 2;
UPDATE trial SET condition = 'sleep:10' || $esc || ']52;c;aGk=' || char(7) || char(8238)
  WHERE condition LIKE 'sleep:10%';
UPDATE trial SET bench = 'b1' || $esc || '[2J' || char(8294) || CAST(X'FF' AS TEXT);
UPDATE run SET host = 'host' || $esc || ']8;;x:y' || $esc || '\\L' || char(8233),
  os = 'os' || char(8207) || char(1564), cpu = 'cpu' || char(917505),
  plan_name = 'plan' || char(8238), status_detail = 'detail' || char(13) || char(8232),
  started_at = '2026-01-01T00:00:00Z' || $esc || '[2J' || char(8238),
  finished_at = '2026-01-01T01:00:00Z' || char(155) || '31m', status = 'finished';
UPDATE run SET memory_bytes = -1, logical_cpus = 9223372036854775807 WHERE id = 2;
" || fail "cannot write the hostile names"

"$exe" history --db "$db" >"$work/history.out" 2>&1 || fail "history failed"
clean "$work/history.out" "history"
holds "$work/history.out" '2026-01-01T00:00:00Z\x1B[2J<U+202E>' "history shows the time escaped"
holds "$work/history.out" 'plan<U+202E>' "history shows the plan escaped"

for format in text csv json html; do
  "$exe" report 1 --db "$db" --format "$format" >"$work/report.$format" 2>&1 ||
    fail "report --format $format failed: $(cat "$work/report.$format")"
done
clean "$work/report.text" "the text report"
holds "$work/report.text" 'Headline: sleep:10\x1B]52;c;aGk=\x07<U+202E>: b1\x1B[2J<U+2066>\xFF' \
  "the headline names the condition and the benchmark escaped"
holds "$work/report.text" 'host\x1B]8;;x:y\x1B\L<U+2029>' "the header shows the host escaped"
holds "$work/report.text" 'started 2026-01-01T00:00:00Z\x1B[2J<U+202E>, ended 2026-01-01T01:00:00Z\xC2\x9B31m' \
  "the header shows the times escaped"
clean "$work/report.csv" "the CSV report"
holds "$work/report.csv" 'sleep:10\x1B]52;c;aGk=\x07<U+202E>' "the CSV shows the condition escaped"
python3 - "$work/report.json" <<'EOF' || fail "the JSON report (above)"
import json, sys
text = open(sys.argv[1], encoding='utf-8').read()
doc = json.loads(text)
for raw in ('\x1b', '\x07', '\u202e', '\u2066', '\u2029', '\u2028', '\u200f', '\u061c'):
    if raw in text:
        sys.exit("a raw U+%04X in the JSON text" % ord(raw))
for escaped in ('\\u001b]52;c;aGk=\\u0007\\u202e', '\\u2066', '\\u2029', '\\u2028',
                '\\u200f\\u061c', '\\udb40\\udc01'):
    if escaped not in text:
        sys.exit("%s not escaped in the JSON" % escaped)
if doc['run']['host'] != 'host\x1b]8;;x:y\x1b\\L\u2029':
    sys.exit("the host does not read back: %r" % doc['run']['host'])
EOF
python3 - "$work/report.html" <<'EOF' || fail "the HTML report (above)"
import sys
text = open(sys.argv[1], encoding='utf-8').read()
for raw in ('\x1b', '\x07', '\u202e', '\u2066', '\u2029', '\u2028', '\u200f', '\u061c', '\x9b'):
    if raw in text:
        sys.exit("a raw U+%04X in the HTML" % ord(raw))
for shown in ('<bdi>sleep:10&#xFFFD;]52;c;aGk=&#xFFFD;&lt;U+202E&gt;</bdi>',
              '<bdi>host&#xFFFD;]8;;x:y&#xFFFD;\\L&lt;U+2029&gt;</bdi>'):
    if shown not in text:
        sys.exit("%s not in the HTML" % shown)
EOF

for format in text csv; do
  "$exe" report --compare 1,2 --db "$db" --format "$format" >"$work/compare.$format" 2>&1 ||
    fail "report --compare --format $format failed: $(cat "$work/compare.$format")"
  clean "$work/compare.$format" "report --compare --format $format"
done
holds "$work/compare.text" '2026-01-01T00:00:00Z\x1B[2J<U+202E>' "--compare shows the time escaped"
# An imported memory_bytes -1 and logical_cpus 2^63-1 are not known, not 16 EiB and -1 CPUs.
grep -E '^  2 .* unknown +unknown  plan' "$work/compare.text" >/dev/null ||
  fail "run 2's CPUs and memory are not 'unknown': $(cat "$work/compare.text")"
if grep -qE '17179869184|GiB.*-1| -1 ' "$work/compare.text"; then
  fail "--compare shows a forged number: $(cat "$work/compare.text")"
fi
"$exe" report --compare 1,2 --db "$db" --format json >"$work/compare.json" 2>&1 ||
  fail "report --compare --format json failed"
python3 - "$work/compare.json" <<'EOF' || fail "the --compare JSON (above)"
import json, sys
doc = json.load(open(sys.argv[1], encoding='utf-8'))
text = json.dumps(doc)
if '"logical_cpus": null, "memory_bytes": null' not in text:
    sys.exit("run 2's CPUs and memory are not null: " + text[:2000])
EOF
echo "hostile_names: ok"
