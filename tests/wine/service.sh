#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# service.sh - ThreadSoup's Windows service end to end under Wine: install, start, status through
# the pipe, load run by the service, a run that survives a service restart, uninstall.
# Usage: service.sh WINE-RUN THREADSOUP-EXE WINEPREFIX (a prefix of its own: services and the
# registry belong to a prefix).
set -u
wine_run=$1 exe=$2 prefix=$3
export WINEPREFIX="$prefix"
export WINEDEBUG="${WINEDEBUG:--all}"
idle="$(dirname "$exe")/threadsoup-idle.exe"
out="$(mktemp -d "${TMPDIR:-/tmp}/threadsoup-service.XXXXXX")"
keeper=

cleanup() {
  # Leave nothing behind: the service, the keeper and the whole Wine session of this prefix.
  "$wine_run" "$exe" service uninstall >/dev/null 2>&1
  [ -n "$keeper" ] && kill "$keeper" 2>/dev/null
  wineserver -k 2>/dev/null
  rm -rf "$out"
}
trap cleanup EXIT
fail() {
  echo "service: $*" >&2
  for f in "$out"/*.txt; do [ -f "$f" ] && { echo "--- $(basename "$f")" >&2; cat "$f" >&2; }; done
  exit 1
}
# Runs threadsoup.exe; its output (CRs removed) goes to $out/$name.txt; fails the test on a
# non-zero exit.
ts() {
  name=$1
  shift
  "$wine_run" "$exe" "$@" >"$out/$name.raw" 2>&1
  rc=$?
  tr -d '\r' <"$out/$name.raw" >"$out/$name.txt"
  rm -f "$out/$name.raw"
  [ $rc -eq 0 ] || fail "threadsoup $* exited with $rc"
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# The value of a "key  value" line of `threadsoup status`.
field() { sed -n "s/^$1  *//p" "$out/$2.txt" | head -n 1; }

# shellcheck source=tests/wine/wine-keeper.sh
. "$(dirname "$0")/wine-keeper.sh"
start_wine_keeper "$wine_run" "$idle"
# Leftovers of an earlier test: the service, and its database (uninstall keeps the results).
"$wine_run" "$exe" service uninstall >/dev/null 2>&1
rm -rf "$prefix/drive_c/ProgramData/ThreadSoup"

# --- install ----------------------------------------------------------------------------------
ts install service install
grep -q "installed" "$out/install.txt" || fail "service install said nothing about it"
# The group ThreadSoup Users: Windows creates it and adds the installing administrator; Wine 8's
# NetLocalGroupAdd answers success and keeps nothing, which install reports as a warning and
# survives. Either way the output says what became of the group.
grep -q "ThreadSoup Users" "$out/install.txt" ||
  fail "service install said nothing about the group ThreadSoup Users"
grep "ThreadSoup Users" "$out/install.txt" | head -n 1
# Install reads the failure actions back: Wine's SCM takes them and keeps nothing (its
# QueryServiceConfig2W answers an error), so install must say restart on failure is unconfirmed.
grep -q "restart on failure cannot be read back\|restart on failure is not confirmed" \
  "$out/install.txt" || fail "service install did not report the failure actions' read-back"
grep "restart on failure" "$out/install.txt" | head -n 1
"$wine_run" sc query ThreadSoup 2>&1 | tr -d '\r' >"$out/sc_query.txt"
grep -q "SERVICE_NAME: ThreadSoup" "$out/sc_query.txt" || fail "sc query does not know ThreadSoup"
grep -q "STOPPED" "$out/sc_query.txt" || fail "a freshly installed service is not stopped"

# --- start, status through the pipe --------------------------------------------------------------
t0=$(now_ms)
ts start service start
echo "service start took $(($(now_ms) - t0)) ms"
ts query service status
grep -q "running" "$out/query.txt" || fail "service status does not say running"
# Windows waits 60 s at shutdown (PRESHUTDOWN) for the service, not its default 10 s. (Wine keeps
# this setting; it neither keeps delayed start nor reports failure actions: error 124.)
grep -q "60 s to stop at shutdown" "$out/query.txt" ||
  fail "the preshutdown timeout is not 60 s: $(cat "$out/query.txt")"
ts status status --fields
pid=$(field pid status)
db=$(field db status)
[ -n "$pid" ] && [ -n "$db" ] || fail "status did not answer with the service's pid and database"
grep -q "^load  *none" "$out/status.txt" || fail "a fresh service runs load already"
# The doctor finds the installed service behind its pipe (verified) and checks its data folder;
# its exit code agrees with its verdict.
"$wine_run" "$exe" doctor --quick >"$out/doctor.raw" 2>&1
rc=$?
tr -d '\r' <"$out/doctor.raw" >"$out/doctor.txt"
cat "$out/doctor.txt"
grep -q '^ok  *server  *\\\\\.\\pipe\\threadsoup is served by ThreadSoup.s service (verified)' \
  "$out/doctor.txt" || fail "doctor does not find the installed service behind its pipe"
# The restart check asks the SCM as the installed service's users would; Wine stores no failure
# actions, so it warns that restart on failure is unknown.
grep -q '^warn  *restart  *restart on failure unknown' "$out/doctor.txt" ||
  fail "doctor does not report the service's failure actions as unknown under Wine"
grep -q '^[a-z]*  *data  *C:.ProgramData.ThreadSoup' "$out/doctor.txt" ||
  fail "doctor does not check the service's data folder"
# and the folder the service runs from (installed from the build folder: Wine's one account owns it).
grep -q '^[a-z]*  *image-folder  *the service runs from ' "$out/doctor.txt" ||
  fail "doctor does not check the folder the service runs from"
if grep -q "^verdict: all hold (exit 0)" "$out/doctor.txt"; then [ $rc -eq 0 ]; else [ $rc -eq 1 ]; fi ||
  fail "doctor's exit code $rc disagrees with its verdict"

# --- load run by the service, counted by the OS in the service process ---------------------------
ts load_start start sleep --count 500
# Polled until the OS counts the 500 threads, for at most the 2 s this test used to wait.
t0=$(now_ms)
while :; do
  ts status_load status --fields
  threads=$(field threads status_load)
  [ "${threads:-0}" -ge 500 ] || [ $(($(now_ms) - t0)) -ge 2000 ] && break
  sleep 0.1
done
[ "$(field pid status_load)" = "$pid" ] || fail "the service's pid changed"
grep -q "^load  *sleep:500" "$out/status_load.txt" || fail "status does not show the load"
[ "${threads:-0}" -ge 500 ] || fail "the service process has ${threads:-?} threads, not 500+"
echo "service process: $threads threads with sleep:500"
ts load_stop stop
# Polled until the threads are gone, for at most the 1 s this test used to wait.
t0=$(now_ms)
while :; do
  ts status_after status --fields
  after=$(field threads status_after)
  [ "${after:-999}" -lt 100 ] || [ $(($(now_ms) - t0)) -ge 1000 ] && break
  sleep 0.1
done
[ "${after:-999}" -lt 100 ] || fail "the service still has ${after:-?} threads after stop"
ts history history --service

# --- a run that survives a service restart -------------------------------------------------------
# No warm-up and a short settle (as in the Linux daemon's test): 40 trials of about 0.3 s, not 41
# of over a second; the run is still stopped after its third trial, far from its end.
ts run run --service --conditions baseline,sleep:200 --reps 20 --warmup 0 --settle 100ms \
  --work-scale 0.05 --quiet-cpu off
run=$(sed -n 's/^run \([0-9][0-9]*\) .*by the service.*/\1/p' "$out/run.txt" | head -n 1)
[ -n "$run" ] || fail "run --service did not name its run"
# Stop the service mid-run: after a few trials, well before the end.
done_before=0
for i in $(seq 1 300); do
  ts progress status --fields
  progress=$(field run-progress progress)
  done_before=${progress%%/*}
  [ "${done_before:-0}" -ge 3 ] && break
  sleep 0.2
done
total=${progress#*/}
[ "${done_before:-0}" -ge 3 ] || fail "the run made no progress ($progress)"
[ "$done_before" -lt "$total" ] || fail "the run finished before it could be interrupted"
t0=$(now_ms)
ts stop_mid service stop
echo "service stop (mid-run, at $progress) took $(($(now_ms) - t0)) ms"
# The service is down: read its database directly.
ts history_stopped history --db "$db"
grep -Eq "^ *$run .*interrupted" "$out/history_stopped.txt" ||
  fail "after a stop mid-run, history does not show run $run interrupted"
t0=$(now_ms)
ts restart service start
echo "service start (with a run to resume) took $(($(now_ms) - t0)) ms"
for i in $(seq 1 600); do
  ts history_end history --service
  grep -Eq "^ *$run .*finished" "$out/history_end.txt" && break
  sleep 0.2
done
line=$(grep -E "^ *$run " "$out/history_end.txt")
echo "$line" | grep -q "finished" || fail "run $run did not finish after the restart"
counts=$(echo "$line" | grep -Eo "[0-9]+/[0-9]+" | head -n 1)
[ -n "$counts" ] && [ "${counts%/*}" = "${counts#*/}" ] ||
  fail "run $run finished with $counts trials done"
echo "run $run: interrupted at $progress, resumed, finished with $counts trials"

# --- stop and uninstall ---------------------------------------------------------------------------
t0=$(now_ms)
ts stop service stop
echo "service stop took $(($(now_ms) - t0)) ms"
ts uninstall service uninstall
"$wine_run" sc query ThreadSoup 2>&1 | tr -d '\r' >"$out/sc_gone.txt"
grep -q "SERVICE_NAME: ThreadSoup" "$out/sc_gone.txt" && fail "sc query still knows ThreadSoup"
"$wine_run" "$exe" status >"$out/status_gone.txt" 2>&1 && fail "status answered without a service"
grep -q "not running" "$out/status_gone.txt" || fail "status without a service does not say so"
echo "installed, started, served, resumed a run across a restart, and uninstalled"
