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
. "$(dirname "$0")/lib/service_run.sh"
service_tiny_run report_pages
PYTHONPATH="$(dirname "$0")/lib" python3 - "$sock" <<'PY' || fail "the paged report or the headlines are wrong"
import functools, sys
from proto_call import call, first

call = functools.partial(call, sys.argv[1])
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
PYTHONPATH="$(dirname "$0")/lib" python3 - "$sock" "$work/cli.html" <<'PY' || fail "report --service differs from the service's report"
import sys
from proto_call import call, first
head, f = call(sys.argv[1], "report", [("run", "1"), ("format", "html"), ("offset", 0), ("size", 16)])
total = int(first(f, "total"))
cli = open(sys.argv[2], "rb").read()
assert len(cli) == total and cli.startswith(b"<!DOCTYPE html"), (len(cli), total)
PY
"$exe" report 1 --service --socket "$sock" --db "$work/threadsoup.db" >/dev/null 2>&1
[ $? -eq 2 ] || fail "report --service --db was not refused as a usage error"
out=$("$exe" stop --socket "$sock" 2>&1) || fail "stop with nothing running failed: $out"
echo "$out" | grep -q "nothing to stop" || fail "stop with nothing running said: $out"
echo "report_pages: report --service and stop with nothing running as documented"
