#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# unicode_paths.sh - names in any language through the real CLI: a database, a plan file (saved
# with Notepad's UTF-8 mark), a run's export folder (export-to), an export, a report and an import
# under a folder named "Résultats Jörg 結果"; on the host the files carry exactly those UTF-8
# bytes (Wine hands a Windows program's UTF-16 names to the host's file system as a real Windows
# keeps them, so a name the program mangled would show here). Under Wine also: a database in a
# OneDrive folder (the folder OneDrive names in the environment) is refused as cloud-synced.
# usage: unicode_paths.sh WORKDIR THREADSOUP [RUNNER]   (RUNNER: wine-run for the Windows build)
set -eu
work=$1
exe=$2
runner=${3:-}
fail() { echo "FAIL: $*" >&2; exit 1; }
ts() { $runner "$exe" "$@"; }
. "$(dirname "$0")/lib/tiny_plan.sh"

rm -rf "$work"
mkdir -p "$work"
dir="$work/Résultats Jörg 結果"
mkdir -p "$dir/exports"
printf '\357\273\277' >"$dir/plan ü.plan"
tiny_plan "$dir/plan ü.plan" "$dir/exports"

ts run "$dir/plan ü.plan" --db "$dir/base é.db" >"$work/run.txt" 2>&1 ||
  fail "the run failed: $(tail -5 "$work/run.txt")"
[ -f "$dir/base é.db" ] || fail "no database named 'base é.db': $(ls "$dir")"
[ "$(ls "$dir/exports" | grep -c '^threadsoup-run-[0-9a-f]\{32\}\.jsonl$')" -eq 1 ] ||
  fail "export-to wrote no file into the folder: $(ls -a "$dir/exports")"

ts export 1 --db "$dir/base é.db" --output "$dir/export 結果.jsonl" >"$work/export.txt" 2>&1 ||
  fail "export: $(cat "$work/export.txt")"
[ -s "$dir/export 結果.jsonl" ] || fail "no export named 'export 結果.jsonl': $(ls "$dir")"

ts report 1 --format html --db "$dir/base é.db" --output "$dir/rapport ü.html" \
  >"$work/report.txt" 2>&1 || fail "report: $(cat "$work/report.txt")"
grep -q '<html' "$dir/rapport ü.html" || fail "no report named 'rapport ü.html': $(ls "$dir")"

ts import "$dir/exports" --db "$dir/copie ö.db" >"$work/import.txt" 2>&1 ||
  fail "import: $(cat "$work/import.txt")"
grep -q 'imported as run 1' "$work/import.txt" || fail "import said: $(cat "$work/import.txt")"
# The plan's file name names the run (an unnamed plan is called after its file).
ts history --db "$dir/copie ö.db" >"$work/history.txt" 2>&1 || fail "history: $(cat "$work/history.txt")"
grep -q 'plan ü.plan' "$work/history.txt" || fail "history said: $(cat "$work/history.txt")"

# Nothing written under another name (a mangled "R?sultats" beside the folder): the work folder
# holds the one folder and the commands' outputs, the folder exactly what the commands wrote.
[ "$(ls "$work" | grep -vc '\.txt$')" -eq 1 ] || fail "other files beside the folder: $(ls "$work")"
python3 - "$dir" <<'PY' || fail "the folder's names are not the expected UTF-8 bytes"
import os, sys
names = sorted(n for n in os.listdir(os.fsencode(sys.argv[1])) if not n.startswith(b'.'))
want = sorted(n.encode('utf-8') for n in ['base é.db', 'copie ö.db', 'export 結果.jsonl',
                                           'exports', 'plan ü.plan', 'rapport ü.html'])
extra = [n for n in names if n not in want and not n.endswith((b'-wal', b'-shm', b'-journal'))]
sys.exit(1 if extra or any(w not in names for w in want) else 0)
PY

if [ -n "$runner" ]; then
  # OneDrive sets OneDrive (and OneDriveConsumer, OneDriveCommercial) to its folder as a Windows
  # path; here the host's folder as Wine's drive Z: shows it.
  mkdir -p "$work/OneDrive - Jörg/Documents"
  onedrive="Z:$(printf '%s' "$work/OneDrive - Jörg" | tr / '\\')"
  if env OneDriveCommercial="$onedrive" $runner "$exe" history \
    --db "$work/OneDrive - Jörg/Documents/t.db" >"$work/onedrive.txt" 2>&1; then
    fail "a database in OneDrive's folder was accepted: $(cat "$work/onedrive.txt")"
  fi
  grep -q 'is in a cloud-synced folder: use a local one' "$work/onedrive.txt" ||
    fail "the refusal said: $(cat "$work/onedrive.txt")"
  # Beside it, outside OneDrive's folder: no such refusal.
  mkdir -p "$work/Local"
  env OneDriveCommercial="$onedrive" $runner "$exe" history --db "$work/Local/t.db" \
    >"$work/local.txt" 2>&1 || true
  ! grep -q 'cloud-synced' "$work/local.txt" || fail "a local folder was called cloud-synced"
fi
echo "ok"
