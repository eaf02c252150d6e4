#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# census_cost_service.sh - census --cost --service reads the costs from the service's own
# database through its socket (the `program-costs` request): a service started on a copy of
# test_report_freeze's database (a cost run, and a run that froze a program named busy) gives a
# running program named busy the same predicted and measured cost as census --cost --db on that
# file, with the cost run's line above the table; a `program` field not of the form SWITCHES
# THREADS NAME is refused as a usage error.
# Usage: census_cost_service.sh PATH-TO-threadsoup WORK-FOLDER. Run by anyone but root or group
# threadsoup (who alone may connect to the socket), it is skipped (exit 77).
set -u
exe=$1
work=$2/census-cost-service
if [ "$(id -u)" -ne 0 ] && ! id -nG | tr ' ' '\n' | grep -qx threadsoup; then
  echo "census_cost_service: skipped: only root or group threadsoup may connect to the service"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
sockdir=$(mktemp -d /tmp/threadsoup-census.XXXXXX) || exit 1
sock=$sockdir/control.sock
daemon=
busy=
cleanup() {
  [ -n "$daemon" ] && kill -9 "$daemon" 2>/dev/null
  [ -n "$busy" ] && kill -9 "$busy" 2>/dev/null
  rm -rf "$sockdir"
}
trap cleanup EXIT
fail() { echo "census_cost_service: $*" >&2; cat "$work/daemon.log" >&2; exit 1; }
cp "$2/test_report_freeze.db" "$work/threadsoup.db" || fail "no test_report_freeze.db (run test_report_freeze first)"
# A running program named busy (a copy of sleep): the census lists it, the databases know it.
cp "$(command -v sleep)" "$work/busy" || exit 1
"$work/busy" 300 &
busy=$!
"$exe" service run --socket "$sock" --db "$work/threadsoup.db" >"$work/daemon.log" 2>&1 &
daemon=$!
for _ in $(seq 200); do "$exe" status --socket "$sock" >/dev/null 2>&1 && break; sleep 0.1; done

"$exe" census --top 1000 --interval 200ms --cost --socket "$sock" >"$work/service.txt" 2>&1 ||
  fail "census --cost --socket failed: $(cat "$work/service.txt")"
"$exe" census --top 1000 --interval 200ms --cost --db "$work/threadsoup.db" >"$work/file.txt" 2>&1 ||
  fail "census --cost --db failed: $(cat "$work/file.txt")"
for f in service file; do
  grep -q "^cost on builtin-st in % .*: predicted by cost run 1's model" "$work/$f.txt" ||
    fail "census --cost ($f) names no cost run: $(cat "$work/$f.txt")"
done
# The columns after switches/s, pid, threads and CPU %: predicted, measured and the name.
columns() { grep " busy\$" "$1" | head -n 1 | sed -E 's/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ +//'; }
by_service=$(columns "$work/service.txt")
by_file=$(columns "$work/file.txt")
echo "census_cost_service: service: $by_service"
echo "census_cost_service: file:    $by_file"
case $by_service in
*" costs, run "*) ;;
*) fail "no measured cost of busy from the service: $(cat "$work/service.txt")" ;;
esac
[ "$by_service" = "$by_file" ] || fail "the service's columns differ from the file's"

PYTHONPATH="$(dirname "$0")/lib" python3 - "$sock" <<'PY' || fail "a bad program field was not refused"
import sys
from proto_call import call

head, fields = call(sys.argv[1], "program-costs", [("program", "many busy")])
assert head == "TS1 error usage", (head, fields)
assert any("is not SWITCHES THREADS NAME" in v for _, v in fields), fields
PY
echo "census_cost_service: the service's costs are the database's, a bad field refused"
