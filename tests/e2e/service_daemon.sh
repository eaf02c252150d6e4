#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# service_daemon.sh - the Linux daemon as users meet it through the CLI, in two parts that CTest
# runs side by side (each with a daemon of its own):
#   basics    the idle service wakes up for no timer; privileges (an ordinary user reads status
#             but may not create load, and is told whether a folder on the way, the socket's
#             mode or the service keeps them out); quiet mode; SIGTERM mid-run checkpoints the
#             run and the next start resumes it
#   schedule  a schedule for the next whole minute runs on time, its wake timer is armed for it,
#             and waiting for it the service wakes up for no timer
# Usage: service_daemon.sh PATH-TO-threadsoup WORK-FOLDER [basics|schedule] (both without one)
# The socket lives in a fresh folder below /tmp that every user can enter, so that the test does
# not depend on where the build is (a clone below a 0700 home cannot be reached by others).
# Steps that need root (acting as another user) or an administrator of the service are skipped
# with a note when the test runs as an ordinary user.
set -u
exe=$1
part=${3:-}
case "$part" in
basics | schedule) ;;
"") sh "$0" "$1" "$2" basics && exec sh "$0" "$1" "$2" schedule ;;
*) echo "usage: service_daemon.sh PATH-TO-threadsoup WORK-FOLDER [basics|schedule]" >&2; exit 2 ;;
esac
work=$2/daemon-$part
rm -rf "$work"
mkdir -p "$work"
db=$work/threadsoup.db
log=$work/daemon.log
: >"$log"
sockdir=$(mktemp -d /tmp/threadsoup-daemon.XXXXXX) || { echo "service_daemon: mktemp failed" >&2; exit 1; }
chmod 755 "$sockdir"
sock=$sockdir/control.sock
daemon=
cleanup() {
  [ -n "$daemon" ] && kill -9 "$daemon" 2>/dev/null
  rm -rf "$sockdir"
}
trap cleanup EXIT
trap 'exit 1' TERM INT HUP
fail() { echo "service_daemon: $*" >&2; echo "--- daemon log" >&2; cat "$log" >&2; exit 1; }
start_daemon() {
  "$exe" service run --socket "$sock" --db "$db" >>"$log" 2>&1 &
  daemon=$!
  for _ in $(seq 100); do "$exe" status --socket "$sock" >/dev/null 2>&1 && return; sleep 0.1; done
  fail "the daemon did not answer"
}
stop_daemon() {
  kill -TERM "$daemon"
  wait "$daemon" || fail "the daemon did not exit 0 on SIGTERM"
  daemon=
}
# The service's threads' context switches so far.
switches() {
  cat /proc/$daemon/task/*/status 2>/dev/null |
    awk '/^(voluntary|nonvoluntary)_ctxt_switches/ {n += $2} END {print n}'
}
# Whether this user may ask the service for load, runs and schedules (root or group threadsoup).
if [ "$(id -u)" -eq 0 ] || id -nG | tr ' ' '\n' | grep -qx threadsoup; then admin=1; else admin=0; fi
me=$(id -un 2>/dev/null || id -u)
start_daemon

# One service per database: a second one on the same database (another address) is refused,
# naming the first's pid, and leaves the first serving.
if [ "$part" = basics ]; then
  out=$("$exe" service run --socket "$sockdir/second.sock" --db "$db" 2>&1) &&
    fail "a second service on the same database started: $out"
  echo "$out" | grep -q "is served already: another ThreadSoup service (pid $daemon) holds" ||
    fail "the second service's refusal: $out"
  "$exe" status --socket "$sock" >/dev/null || fail "the first service stopped answering"
  echo "one service per database: the second was refused"
fi

# status is a few labelled lines a person reads; --fields gives the protocol's fields to scripts.
if [ "$part" = basics ]; then
  "$exe" status --socket "$sock" >"$sockdir/status.txt" || fail "status failed"
  for line in "^service +threadsoup [0-9.]+, pid $daemon, [0-9]+ threads\$" "^database +$db\$" \
    "^load +none\$" "^run +none\$" "^quiet mode +off\$" "^programs +"; do
    grep -Eq "$line" "$sockdir/status.txt" || fail "status lacks '$line': $(cat "$sockdir/status.txt")"
  done
  grep -q '|' "$sockdir/status.txt" && fail "status prints protocol rows: $(cat "$sockdir/status.txt")"
  "$exe" status --fields --socket "$sock" | grep -Eq "^pid +$daemon\$" || fail "status --fields lacks pid"
fi

# The doctor's server check: the address is served by the verified service, and it says so.
if [ "$part" = basics ]; then
  out=$("$exe" doctor --quick --socket "$sock")
  echo "$out" | grep -q "^ok  *server  *$sock is served by ThreadSoup's service (verified)" ||
    fail "doctor does not find the service at $sock: $out"
fi

if [ "$part" = schedule ]; then
  if [ $admin -eq 0 ]; then
    echo "schedule: skipped: adding a schedule needs root or group threadsoup, and $me is neither"
    stop_daemon
    exit 77 # CTest: skipped
  fi
  # The next whole minute at least 10 s ahead: time to add it and watch 4 s of waiting first.
  now=$(date +%s)
  due=$(((now / 60 + 1) * 60))
  [ $((due - now)) -lt 10 ] && due=$((due + 60))
  when=$(date -d "@$due" "+%Y-%m-%d %H:%M")
  "$exe" schedule add once $when --plan quick --socket "$sock" >/dev/null || fail "schedule add failed"
  "$exe" schedule list --socket "$sock" | grep -Eq "^ +[0-9]+  once $when +[0-9-]+ [0-9:]+ +quick +enabled +not run yet" ||
    fail "schedule list does not show it as a table row: $("$exe" schedule list --socket "$sock")"
  # The wake timer is armed for it (root may have an alarm timer; else it says n/a and why).
  "$exe" schedule list --socket "$sock" |
    grep -Eq "^wake timer: (armed: wakes this machine at $when:00 for the next schedule|n/a: .+)$" ||
    fail "schedule list does not say the wake timer is armed for $when: $("$exe" schedule list --socket "$sock")"
  # Waiting for a due time is one timed wait, not polling: no wake-up before it is due.
  sleep 1
  before=$(switches)
  sleep 3
  after=$(switches)
  [ "$(date +%s)" -lt "$due" ] || fail "the 3 s watch ran past the due time; it proves nothing"
  [ "$after" -eq "$before" ] || fail "waiting for a schedule, the service woke up $((after - before)) times in 3 s"
  echo "waiting for a schedule: 0 wake-ups in 3 s across $(ls /proc/$daemon/task | wc -l) threads"
  started=""
  while [ "$(date +%s)" -lt $((due + 30)) ]; do
    started=$(sqlite3 "$db" "SELECT strftime('%s', started_at) FROM run WHERE plan_name='quick' LIMIT 1")
    [ -n "$started" ] && break
    sleep 0.2
  done
  [ -n "$started" ] || fail "the schedule due at $when did not start a run"
  late=$((started - due))
  [ $late -ge 0 ] && [ $late -le 10 ] || fail "the scheduled run started ${late}s after its due time"
  echo "schedule: due $when, started ${late}s after it"
  "$exe" stop --run --socket "$sock" >/dev/null
  stop_daemon
  echo "daemon (schedule): all checks passed"
  exit 0
fi

# 0. Idle, the service wakes up for no timer: its threads make no context switch in 3 s.
sleep 1
before=$(switches)
sleep 3
after=$(switches)
[ "$after" -eq "$before" ] || fail "the idle service woke up $((after - before)) times in 3 s"
echo "idle: 0 wake-ups in 3 s across $(ls /proc/$daemon/task | wc -l) threads"

# 1. Privileges, as user nobody: what keeps a user out is named (a closed folder on the way, the
# socket's mode, the service's refusal); status is open to any local user, load is not.
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if [ "$(id -u)" -ne 0 ]; then
  echo "privileges: skipped: acting as another user needs root, and this test runs as $me"
elif ! command -v setpriv >/dev/null; then
  echo "privileges: skipped: setpriv (util-linux) is not installed"
elif ! as_nobody test -x "$sockdir"; then
  echo "privileges: skipped: user nobody cannot enter $sockdir (no folder here every user can reach)"
else
  # a. The socket as the service makes it, mode 0660 for root and group threadsoup: the OS turns
  # nobody away at the socket itself.
  out=$(as_nobody "$exe" status --socket "$sock" 2>&1) && fail "nobody reached a 0660 socket: $out"
  echo "$out" | grep -q "join group threadsoup" || fail "refusal by the socket's mode does not say why: $out"
  echo "$out" | grep -q "socket's folder" && fail "refusal by the socket's mode blames a folder: $out"
  echo "privileges: a 0660 socket: $out"
  # b. The same socket inside a folder closed to others (0700): the message names the folder.
  private=$sockdir/private
  mkdir -m 700 "$private" && ln "$sock" "$private/control.sock" || fail "cannot link the socket into $private"
  "$exe" status --socket "$private/control.sock" >/dev/null || fail "root cannot reach the linked socket"
  out=$(as_nobody "$exe" status --socket "$private/control.sock" 2>&1) &&
    fail "nobody reached a socket inside a 0700 folder: $out"
  echo "$out" | grep -q "cannot reach the socket's folder: $private cannot be entered" ||
    fail "refusal by a closed folder does not name the folder: $out"
  echo "$out" | grep -q "join group" && fail "refusal by a closed folder blames group membership: $out"
  echo "privileges: a 0700 folder: $out"
  rm -rf "$private"
  # c. Let nobody reach the socket at all; the service itself decides the rest.
  chmod 666 "$sock"
  out=$(as_nobody "$exe" status --socket "$sock" 2>&1) || fail "an ordinary user could not read status: $out"
  out=$(as_nobody "$exe" start sleep --count 5 --socket "$sock" 2>&1) && fail "an ordinary user created load: $out"
  echo "$out" | grep -q "the service refused (denied): .*needs an administrator" || fail "refusal does not say why: $out"
  echo "privileges: status open, load refused with: $out"
fi

# Quiet mode: Linux has no Defender or Windows Update; the service says so and changes nothing.
"$exe" quiet status --socket "$sock" | grep -q "available *no" || fail "quiet status does not say it is unavailable"
if [ $admin -eq 0 ]; then
  echo "quiet on, SIGTERM mid-run: skipped: they need root or group threadsoup, and $me is neither"
  stop_daemon
  echo "daemon (basics): all checks passed that $me can run"
  exit 0
fi
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
stop_daemon
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
stop_daemon
echo "daemon (basics): all checks passed"
