#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# exchange.sh - runs carried between machines through the real CLI: a tiny run, exported (to
# stdout, a file and a folder), imported into another database, whose reports are the same byte
# for byte but for the mark of an imported run; never resumed; imported again (already there); a
# forged twin a conflict, a misnamed file and a cut file refused, and nothing changed.
# usage: exchange.sh THREADSOUP WORKDIR
set -eu
exe=$1
work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
. "$(dirname "$0")/lib/tiny_plan.sh"

rm -rf "$work"
mkdir -p "$work/out" "$work/plans"
a="$work/a.db"
b="$work/b.db"
# A plan with export-to: the run's file appears in the folder by itself when it finishes.
: >"$work/plans/tiny.plan"
tiny_plan "$work/plans/tiny.plan" "$work/out"
"$exe" run "$work/plans/tiny.plan" --db "$a" >"$work/run.txt" 2>&1 ||
  fail "the run failed: $(tail -5 "$work/run.txt")"
[ "$(ls "$work/out" | grep -c '^threadsoup-run-[0-9a-f]\{32\}\.jsonl$')" -eq 1 ] ||
  fail "export-to wrote no file: $(ls -a "$work/out")"

# export to stdout, to a file, to a folder: the same bytes.
"$exe" export latest --db "$a" >"$work/stdout.jsonl"
printed=$("$exe" export 1 --output "$work/one.jsonl" --db "$a")
[ "$printed" = "$work/one.jsonl" ] || fail "--output FILE printed '$printed'"
cmp -s "$work/stdout.jsonl" "$work/one.jsonl" || fail "stdout and --output FILE differ"
cmp -s "$work/stdout.jsonl" "$work"/out/threadsoup-run-*.jsonl || fail "export-to's file differs"
head -1 "$work/one.jsonl" | grep -q '^{"format":"threadsoup-run","version":1,' ||
  fail "no header: $(head -1 "$work/one.jsonl")"
tail -1 "$work/one.jsonl" | grep -q '^{"end":true,"trials":2,' ||
  fail "no trailer: $(tail -1 "$work/one.jsonl")"
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$work/one.jsonl" ||
  fail "a line is not JSON"

# import into another database: the reports are the same (both are run 1 of their database) but
# for the imported run's mark in the text and HTML headers.
"$exe" import "$work/out" --db "$b" >"$work/import1.txt" || fail "import: $(cat "$work/import1.txt")"
grep -q 'imported as run 1 (uid [0-9a-f]*, 2 trials)' "$work/import1.txt" ||
  fail "import said: $(cat "$work/import1.txt")"
file=$(ls "$work"/out/threadsoup-run-*.jsonl)
for format in text json csv html; do
  "$exe" report 1 --format $format --db "$a" >"$work/a.$format"
  "$exe" report 1 --format $format --db "$b" >"$work/b.$format"
  grep -v -e '^imported from ' -e '^<dt>imported</dt>' "$work/b.$format" >"$work/b-unmarked.$format"
  cmp -s "$work/a.$format" "$work/b-unmarked.$format" || fail "the $format reports differ"
done
grep -q "^imported from $file on [0-9-]*T" "$work/b.text" ||
  fail "the report does not say where the run came from: $(head -5 "$work/b.text")"
"$exe" history --db "$b" >"$work/history.txt"
grep -q 'finished' "$work/history.txt" || fail "history of the import lacks the run"
grep -q "^ *imported from $file on " "$work/history.txt" ||
  fail "history does not mark the imported run: $(cat "$work/history.txt")"

# history is newest first by start time: a run imported after a newer one (so with the higher id)
# is listed below it, marked I, with the mark explained under the table; every run shows its host.
ordered="$work/order.db"
"$exe" record --run new --bench cpuz-single --condition baseline --score 1 --db "$ordered" >/dev/null ||
  fail "record into a fresh database failed"
"$exe" import "$file" --db "$ordered" >/dev/null || fail "import into the database with a run failed"
"$exe" history --db "$ordered" >"$work/history-d.txt"
rows=$(grep -E '^ +[0-9]+ ' "$work/history-d.txt" |
  awk '{ if ($2 == "I" || $2 == "S") print $1 $2; else print $1 }' | tr '\n' ' ')
[ "$rows" = "1 2I " ] ||
  fail "history is not newest first by start time, or lacks the I mark: $(cat "$work/history-d.txt")"
head -1 "$work/history-d.txt" | grep -q ' host ' || fail "history has no host column"
grep -q "^I: imported from an export file" "$work/history-d.txt" ||
  fail "history does not explain its I mark: $(cat "$work/history-d.txt")"

# An imported run is data: even interrupted, and with a plan that runs a program, it is never
# resumed here; the refusal names its file, and the program never runs.
marker=$work/resumed-marker
# On a copy of the database: the run is changed to be resumable, and the import below must find
# the original unchanged.
r=$work/resume.db
cp "$b" "$r"
sqlite3 "$r" "UPDATE run SET status='interrupted', plan_text='name = t
conditions = baseline
bench = command
command = touch $marker
reps = 1
warmup = 0
' WHERE id=1; UPDATE trial SET status='pending' WHERE run_id=1" ||
  fail "cannot make the imported run interrupted"
if "$exe" run --resume 1 --db "$r" >"$work/resume.txt" 2>"$work/resume.err"; then
  fail "an imported run was resumed: $(cat "$work/resume.txt")"
fi
grep -q "run 1 was imported from $file: it belongs to the machine that measured it" \
  "$work/resume.err" || fail "the refused resume said: $(cat "$work/resume.err")"
[ ! -e "$marker" ] || fail "resuming an imported run ran its command"
[ "$(sqlite3 "$r" "SELECT status FROM run WHERE id=1")" = interrupted ] ||
  fail "the refused resume changed the run"
# Nor does a score typed in here join it.
if "$exe" record --run 1 --bench cpuz --condition baseline --score 5 --db "$r" >"$work/record.txt" 2>&1; then
  fail "a score was recorded into an imported run: $(cat "$work/record.txt")"
fi
grep -q "run 1 was imported from an export file" "$work/record.txt" ||
  fail "the refused record said: $(cat "$work/record.txt")"

# again: already there, nothing new.
"$exe" import "$work/one.jsonl" --db "$b" >"$work/import2.txt" || fail "second import failed"
grep -q 'already there (run 1); skipped' "$work/import2.txt" ||
  fail "second import said: $(cat "$work/import2.txt")"
grep -q '^0 imported, 1 already there, 0 in conflict, 0 refused$' "$work/import2.txt" || fail "no totals"

# a share folder with a forged twin (the run's uid, another score) sorted before the genuine
# file: the twin comes in, the genuine file is a conflict naming both files, exit code 1, and the
# stored run is not overwritten; a file named for one run that carries another is refused.
mkdir -p "$work/share"
genuine=$(ls "$work/out")
cp "$work/out/$genuine" "$work/share/$genuine"
sed '0,/"score":[0-9]/s/"score":\([0-9]\)/"score":9\1/' "$work/out/$genuine" >"$work/share/0-forged.jsonl"
cmp -s "$work/share/0-forged.jsonl" "$work/share/$genuine" && fail "the twin is not forged"
if "$exe" import "$work/share" --db "$work/d.db" >"$work/import4.txt" 2>"$work/import4.err"; then
  fail "a conflict ended with exit code 0"
fi
grep -q "$genuine: CONFLICT: run [0-9a-f]* is already here as run 1 (imported from .*0-forged.jsonl)" \
  "$work/import4.err" || fail "conflict: $(cat "$work/import4.err")"
grep -q '^1 imported, 0 already there, 1 in conflict, 0 refused$' "$work/import4.txt" ||
  fail "conflict totals: $(cat "$work/import4.txt")"
[ "$(sqlite3 "$work/d.db" "SELECT count(*) FROM run")" = 1 ] || fail "the conflict stored a run"
sqlite3 "$work/d.db" "SELECT imported_from FROM run" | grep -q '0-forged.jsonl$' ||
  fail "the first import was overwritten"
mv "$work/share/$genuine" "$work/share/threadsoup-run-0123456789abcdef0123456789abcdef.jsonl"
rm "$work/share/0-forged.jsonl"
if "$exe" import "$work/share" --db "$work/e.db" >"$work/import5.txt" 2>"$work/import5.err"; then
  fail "a misnamed file was imported"
fi
uid=${genuine#threadsoup-run-}
grep -q "0123456789abcdef0123456789abcdef.jsonl:1: the file's name says run 0123456789abcdef0123456789abcdef and its header says run ${uid%.jsonl}" \
  "$work/import5.err" ||
  fail "misnamed: $(cat "$work/import5.err")"

# a cut file: refused with its line, exit code 1, the other database unchanged.
head -3 "$work/one.jsonl" >"$work/cut.jsonl"
if "$exe" import "$work/cut.jsonl" --db "$work/c.db" >"$work/import3.txt" 2>"$work/import3.err"; then
  fail "a cut file was imported"
fi
grep -q 'cut.jsonl:4: the file ends without its trailer line' "$work/import3.err" ||
  fail "cut file: $(cat "$work/import3.err")"
"$exe" history --db "$work/c.db" | grep -q 'finished' && fail "the cut file left a run"

# export all into a folder: one file per run, named by uid; again: the same files, nothing new.
mkdir -p "$work/all"
"$exe" export all --output "$work/all" --db "$b" >"$work/all1.txt"
"$exe" export all --output "$work/all" --db "$b" >"$work/all2.txt"
[ "$(ls "$work/all" | wc -l)" -eq 1 ] || fail "export all twice made $(ls "$work/all")"
cmp -s "$work/all1.txt" "$work/all2.txt" || fail "export all printed different paths"
echo "exchange: export, import, reports equal, already there, forged twin in conflict, misnamed file refused, cut file refused"
echo "1 passed, 0 failed"
