#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# report_pages.sh - the service's run results for the tray, through its Unix socket: a tiny run's
# HTML report read in pages of 1,000 bytes (the `report` request's offset, size, total and next)
# is the same document as the one-message reply, a bad offset or size is refused, and `history`
# with `headlines: yes` gives the run's headline.
# Usage: report_pages.sh PATH-TO-threadsoup WORK-FOLDER. Run by anyone but root or group threadsoup
# (who may not start runs), it is skipped (exit 77).
set -u
exe=$1
work=$2/report-pages
if [ "$(id -u)" -ne 0 ] && ! id -nG | tr ' ' '\n' | grep -qx threadsoup; then
  echo "report_pages: skipped: only root or group threadsoup may start runs"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
sockdir=$(mktemp -d /tmp/threadsoup-pages.XXXXXX) || exit 1
sock=$sockdir/control.sock
daemon=
cleanup() {
  [ -n "$daemon" ] && kill -9 "$daemon" 2>/dev/null
  rm -rf "$sockdir"
}
trap cleanup EXIT
fail() { echo "report_pages: $*" >&2; cat "$work/daemon.log" >&2; exit 1; }
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
python3 - "$sock" <<'PY' || fail "the paged report or the headlines are wrong"
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
head, whole = call("report", [("run", "1"), ("format", "html")])
assert head == "TS1 ok report", head
doc, off, total, pages = "", 0, None, 0
while total is None or off < total:
    head, f = call("report", [("run", "1"), ("format", "html"), ("offset", off), ("size", 1000)])
    assert head == "TS1 ok report", (head, f)
    doc += first(f, "text")
    total, nxt = int(first(f, "total")), int(first(f, "next"))
    assert off < nxt <= off + 1000, (off, nxt)
    off, pages = nxt, pages + 1
assert doc == first(whole, "text"), "pages differ from the whole report"
assert len(doc.encode()) == total and pages > 1, (total, pages)
head, f = call("report", [("run", "1"), ("format", "html"), ("offset", total + 1)])
assert head == "TS1 error usage" and "past the report's end" in first(f, "message"), f
head, f = call("report", [("run", "1"), ("size", 5)])
assert head == "TS1 error usage" and "size" in first(f, "message"), f
head, f = call("history", [("headlines", "yes")])
h = first(f, "headline")
assert h.startswith("1|100 sleepers: builtin-st "), h
head, f = call("history", [("headlines", "maybe")])
assert head == "TS1 error usage" and "yes or no" in first(f, "message"), f
print("report_pages: %d pages, %d bytes, headline %s" % (pages, total, h))
PY
# The CLI reads the same report from the service (report --service), every hint of run --service
# names the service's database, and it refuses --db beside --service.
grep -q "threadsoup report 1 --socket '$sock'" "$work/run.txt" || fail "run --service's hint: $(cat "$work/run.txt")"
"$exe" report 1 --socket "$sock" --format html --output "$work/cli.html" >/dev/null ||
  fail "report --socket failed"
python3 - "$sock" "$work/cli.html" <<'PY' || fail "report --service differs from the service's report"
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"TS1 request hello\nversion: 1\n\nTS1 request report\nrun: 1\nformat: html\noffset: 0\nsize: 16\n\n")
data = b""
while data.count(b"\n\n") < 2:
    d = s.recv(65536)
    if not d:
        break
    data += d
total = int([l for l in data.decode().split("\n") if l.startswith("total: ")][0][7:])
cli = open(sys.argv[2], "rb").read()
assert len(cli) == total and cli.startswith(b"<!DOCTYPE html"), (len(cli), total)
PY
"$exe" report 1 --service --socket "$sock" --db "$work/threadsoup.db" >/dev/null 2>&1
[ $? -eq 2 ] || fail "report --service --db was not refused as a usage error"
out=$("$exe" stop --socket "$sock" 2>&1) || fail "stop with nothing running failed: $out"
echo "$out" | grep -q "nothing to stop" || fail "stop with nothing running said: $out"
echo "report_pages: report --service and stop with nothing running as documented"
