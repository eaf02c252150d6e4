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
if [ "$(id -u)" -ne 0 ] && ! id -nG | tr ' ' '\n' | grep -qx threadsoup; then
  echo "export_service: skipped: only root or group threadsoup may start runs"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work/folder"
sockdir=$(mktemp -d /tmp/threadsoup-export.XXXXXX) || exit 1
sock=$sockdir/control.sock
daemon=
cleanup() {
  [ -n "$daemon" ] && kill -9 "$daemon" 2>/dev/null
  rm -rf "$sockdir"
}
trap cleanup EXIT
fail() { echo "export_service: $*" >&2; cat "$work/daemon.log" >&2; exit 1; }
"$exe" service run --socket "$sock" --db "$work/threadsoup.db" >"$work/daemon.log" 2>&1 &
daemon=$!
for _ in $(seq 200); do "$exe" status --socket "$sock" >/dev/null 2>&1 && break; sleep 0.1; done
"$exe" run --service --socket "$sock" --conditions baseline,sleep:100 --reps 3 --warmup 0 \
  --settle 0s --work-scale 0.02 --quiet-cpu off >"$work/run.txt" 2>&1 || fail "run --service failed"
# Generous: a loaded machine runs the six tiny trials slowly.
for _ in $(seq 600); do
  "$exe" history --service --socket "$sock" 2>/dev/null | grep -q ' finished ' && break
  sleep 0.5
done
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
name=$(sed -n 's/.*"uid":"\([^"]*\)".*/threadsoup-run-\1.jsonl/p' "$work/db.jsonl" | head -n 1)
grep -qx "$work/folder/$name" "$work/folder.txt" || fail "the folder export printed: $(cat "$work/folder.txt")"
[ "$(ls "$work/folder")" = "$name" ] || fail "the folder holds: $(ls -a "$work/folder")"
cmp "$work/db.jsonl" "$work/folder/$name" || fail "the folder's export differs"
# A run the service does not have is refused in words, and nothing is written.
out=$("$exe" export 99 --socket "$sock" --output "$work/none.jsonl" 2>&1)
[ $? -eq 1 ] || fail "export 99 --service was not refused: $out"
echo "$out" | grep -q "99" || fail "export 99 --service said: $out"
[ ! -e "$work/none.jsonl" ] || fail "export 99 --service wrote a file"
"$exe" export 1 --service --socket "$sock" --db "$work/threadsoup.db" >/dev/null 2>&1
[ $? -eq 2 ] || fail "export --service --db was not refused as a usage error"
# The request itself: pages of 100 bytes make the same file; an offset past the end is refused.
python3 - "$sock" "$work/db.jsonl" <<'PY' || fail "the paged export request is wrong"
import socket, sys

def call(verb, fields):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(120)
    s.connect(sys.argv[1])
    body = "".join("%s: %s\n" % kv for kv in fields)
    s.sendall(("TS1 request hello\nversion: 1\n\nTS1 request %s\n%s\n" % (verb, body)).encode())
    data = b""
    while data.count(b"\n\n") < 2:
        d = s.recv(65536)
        if not d:
            break
        data += d
    s.close()
    lines = data.decode().split("\n\n")[1].split("\n")
    out = [(k, v) for k, _, v in (l.partition(": ") for l in lines[1:])]
    unescape = lambda v: v.replace("\\\\", "\0").replace("\\n", "\n").replace("\\r", "\r").replace("\\t", "\t").replace("\0", "\\")
    return lines[0], [(k, unescape(v)) for k, v in out]

first = lambda f, k: next(v for kk, v in f if kk == k)
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
