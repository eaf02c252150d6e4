#!/bin/sh
# service_daemon.sh - the Linux daemon as users meet it through the CLI: privileges (an ordinary
# user reads status but may not create load), SIGTERM mid-run checkpoints the run and the next
# start resumes it, and a schedule one minute ahead runs on time.
# Usage: service_daemon.sh PATH-TO-threadsoup WORK-FOLDER
set -u
exe=$1
work=$2/daemon
rm -rf "$work"
mkdir -p "$work"
chmod 755 "$work"
sock=$work/control.sock
db=$work/threadsoup.db
log=$work/daemon.log
fail() { echo "service_daemon: $*" >&2; echo "--- daemon log" >&2; cat "$log" >&2; kill -9 $daemon 2>/dev/null; exit 1; }
start_daemon() {
  "$exe" service run --socket "$sock" --db "$db" >>"$log" 2>&1 &
  daemon=$!
  for _ in $(seq 100); do "$exe" status --socket "$sock" >/dev/null 2>&1 && return; sleep 0.1; done
  fail "the daemon did not answer"
}
start_daemon

# 0. Idle, the service wakes up for no timer: its threads make no context switch in 3 s.
switches() {
  cat /proc/$daemon/task/*/status 2>/dev/null |
    awk '/^(voluntary|nonvoluntary)_ctxt_switches/ {n += $2} END {print n}'
}
sleep 1
before=$(switches)
sleep 3
after=$(switches)
[ "$after" -eq "$before" ] || fail "the idle service woke up $((after - before)) times in 3 s"
echo "idle: 0 wake-ups in 3 s across $(ls /proc/$daemon/task | wc -l) threads"

# 1. Privileges: status is open to any local user, load is not.
chmod 666 "$sock" # let an ordinary user reach it at all; the service itself decides the rest
if command -v setpriv >/dev/null; then
  out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$exe" status --socket "$sock" 2>&1) ||
    fail "an ordinary user could not read status: $out"
  out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$exe" start sleep --count 5 --socket "$sock" 2>&1) &&
    fail "an ordinary user created load: $out"
  echo "$out" | grep -q "needs an administrator" || fail "refusal does not say why: $out"
  echo "privileges: status open, load refused with: $out"
fi

# Quiet mode: Linux has no Defender or Windows Update; the service says so and changes nothing.
"$exe" quiet status --socket "$sock" | grep -q "available *no" || fail "quiet status does not say it is unavailable"
out=$("$exe" quiet on --socket "$sock" 2>&1) && fail "quiet on succeeded on Linux: $out"
echo "$out" | grep -q "Windows-only" || fail "quiet on does not say why: $out"
echo "quiet mode: $out"

# 2. SIGTERM mid-run: the run is checkpointed and resumes at the next start.
"$exe" run --service --socket "$sock" --conditions baseline,sleep:100 --reps 15 --warmup 0 \
  --settle 100ms --work-scale 0.05 --quiet-cpu off >/dev/null || fail "run --service failed"
for _ in $(seq 100); do
  "$exe" history --service --socket "$sock" | grep -Eq " running +[1-9]" && break
  sleep 0.1
done
kill -TERM $daemon
wait $daemon || fail "the daemon did not exit 0 on SIGTERM"
sqlite3 "$db" "SELECT status, status_detail FROM run WHERE id=1" | grep -q "^interrupted|service stopped (signal SIGTERM)" ||
  fail "run 1 was not checkpointed: $(sqlite3 "$db" 'SELECT status, status_detail FROM run')"
start_daemon
for _ in $(seq 300); do
  [ "$(sqlite3 "$db" 'SELECT status FROM run WHERE id=1')" = finished ] && break
  sleep 0.1
done
[ "$(sqlite3 "$db" "SELECT count(*) FROM trial WHERE run_id=1 AND status='done'")" = 30 ] ||
  fail "run 1 did not resume to all 30 trials"
echo "SIGTERM mid-run: checkpointed, resumed at restart, 30 of 30 trials done"

# 3. A schedule one minute ahead runs on time.
now=$(date +%s)
due=$(( (now / 60 + 1) * 60 ))
[ $((due - now)) -lt 15 ] && due=$((due + 60))
when=$(date -d "@$due" "+%Y-%m-%d %H:%M")
"$exe" schedule add once $when --plan quick --socket "$sock" >/dev/null || fail "schedule add failed"
"$exe" schedule list --socket "$sock" | grep -q "once $when" || fail "schedule list does not show it"
# Waiting for a due time is one timed wait, not polling: still no wake-up before it is due.
before=$(switches)
sleep 3
after=$(switches)
[ "$after" -eq "$before" ] || fail "waiting for a schedule, the service woke up $((after - before)) times in 3 s"
started=""
while [ "$(date +%s)" -lt $((due + 30)) ]; do
  started=$(sqlite3 "$db" "SELECT strftime('%s', started_at) FROM run WHERE plan_name='quick' LIMIT 1")
  [ -n "$started" ] && break
  sleep 0.5
done
[ -n "$started" ] || fail "the schedule due at $when did not start a run"
late=$((started - due))
[ $late -ge 0 ] && [ $late -le 10 ] || fail "the scheduled run started ${late}s after its due time"
echo "schedule: due $when, started ${late}s after it"
"$exe" stop --run --socket "$sock" >/dev/null
kill -TERM $daemon
wait $daemon || fail "the daemon did not exit 0"
echo "daemon: all checks passed"
