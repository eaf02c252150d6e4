#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# export_service.sh - export RUN --service through the service's Unix socket: a tiny run's export
# read from the service (in pages of the `export` request) is byte-identical to export RUN --db on
# the service's database, to a file and into a folder; a bad run id and a bad offset are refused.
# Usage: export_service.sh PATH-TO-threadsoup WORK-FOLDER. Run by anyone but root or group
# threadsoup (who may not start runs), it is skipped (exit 77).
set -u
exe=$1
work=$2/export-service
. "$(dirname "$0")/lib/service_run.sh"
service_tiny_run export_service
mkdir -p "$work/folder"
"$exe" export 1 --db "$work/threadsoup.db" --output "$work/db.jsonl" >/dev/null ||
  fail "export --db of the service's database failed"
out=$("$exe" export 1 --socket "$sock" --output "$work/service.jsonl" 2>&1) ||
  fail "export --socket failed: $out"
[ "$out" = "$work/service.jsonl" ] || fail "export --socket --output printed: $out"
cmp "$work/db.jsonl" "$work/service.jsonl" || fail "export --service differs from export --db"
"$exe" export 1 --socket "$sock" >"$work/stdout.jsonl" || fail "export --socket to stdout failed"
cmp "$work/db.jsonl" "$work/stdout.jsonl" || fail "export --service to stdout differs"
# Into a folder: named by the run's uid, and the same bytes again are left as they are.
for _ in 1 2; do
  "$exe" export 1 --socket "$sock" --output "$work/folder" >"$work/folder.txt" ||
    fail "export --socket --output FOLDER failed"
done
file=$(sed -n 's/.*"uid":"\([^"]*\)".*/threadsoup-run-\1.jsonl/p' "$work/db.jsonl" | head -n 1)
grep -qx "$work/folder/$file" "$work/folder.txt" || fail "the folder export printed: $(cat "$work/folder.txt")"
[ "$(ls "$work/folder")" = "$file" ] || fail "the folder holds: $(ls -a "$work/folder")"
cmp "$work/db.jsonl" "$work/folder/$file" || fail "the folder's export differs"
# A run the service does not have is refused in words, and nothing is written.
out=$("$exe" export 99 --socket "$sock" --output "$work/none.jsonl" 2>&1)
[ $? -eq 1 ] || fail "export 99 --service was not refused: $out"
echo "$out" | grep -q "99" || fail "export 99 --service said: $out"
[ ! -e "$work/none.jsonl" ] || fail "export 99 --service wrote a file"
"$exe" export 1 --service --socket "$sock" --db "$work/threadsoup.db" >/dev/null 2>&1
[ $? -eq 2 ] || fail "export --service --db was not refused as a usage error"
# The request itself: pages of 100 bytes make the same file; an offset past the end is refused.
PYTHONPATH="$(dirname "$0")/lib" python3 - "$sock" "$work/db.jsonl" <<'PY' || fail "the paged export request is wrong"
import functools, sys
from proto_call import call, first

call = functools.partial(call, sys.argv[1])
doc, off, total, pages = "", 0, None, 0
while total is None or off < total:
    head, f = call("export", [("run", "1"), ("offset", off), ("size", 100)])
    assert head == "TS1 ok export", (head, f)
    doc += first(f, "text")
    total, nxt = int(first(f, "total")), int(first(f, "next"))
    assert off < nxt <= off + 100, (off, nxt)
    off, pages = nxt, pages + 1
assert doc.encode() == open(sys.argv[2], "rb").read(), "pages differ from export --db"
assert pages > 1, pages
head, f = call("export", [("run", "1"), ("offset", total + 1)])
assert head == "TS1 error usage" and "past the export's end" in first(f, "message"), f
head, f = call("export", [("run", "1"), ("offset", "-1")])
assert head == "TS1 error usage" and "offset" in first(f, "message"), f
head, f = call("export", [("run", "first")])
assert head == "TS1 error usage" and "run" in first(f, "message"), f
head, f = call("export", [("run", "99")])
assert head.startswith("TS1 error"), (head, f)
print("export_service: %d pages, %d bytes" % (pages, total))
PY
echo "export_service: export --service is byte-identical to export --db"
