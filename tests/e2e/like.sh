#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# like.sh - `threadsoup load sleep --like` watches a real process (a load of 40 sleepers at 100 ms)
# and derives exactly 40 sleepers at a rate near 100 ms; by name it finds one copy, refuses two
# (listing both PIDs) and an unknown name; a process that ends in the window is an error; and
# without --print-only it runs the load it derived. Usage: like.sh PATH-TO-threadsoup WORK-DIR
set -u
exe=$1
work=$2
fail() { echo "like: $*" >&2; exit 1; }

# A copy under a name no other process has (15 bytes at most: all Linux keeps of a name).
name="tslike$$"
copy="$work/$name"
cp "$exe" "$copy" || fail "cannot copy $exe to $copy"
first="" second="" short=""
cleanup() {
  for p in $first $second $short; do kill "$p" 2>/dev/null; done
  rm -f "$copy"
}
trap cleanup EXIT

# Waits until process $1 has $2 threads (a loaded machine is slow to start 40 threads).
wait_threads() {
  for _ in $(seq 600); do
    n=$(awk '/^Threads:/ {print $2}' "/proc/$1/status" 2>/dev/null)
    [ "${n:-0}" -ge "$2" ] && return 0
    sleep 0.1
  done
  fail "process $1 has ${n:-no} threads, expected $2"
}

# The derived load's threads: the sum of sleepers whose interval is within [lo, hi] ms, and all.
sum_sleepers() { # spec lo hi
  echo "$1" | tr '+' '\n' | awk -F'[:@]' -v lo="$2" -v hi="$3" '
    $1 == "sleep" { v = $3
                    if (v ~ /ms$/) ms = v + 0; else if (v ~ /s$/) ms = (v + 0) * 1000
                    else if (v ~ /m$/) ms = (v + 0) * 60000; else ms = (v + 0) * 3600000
                    if (ms >= lo && ms <= hi) s += $2 }
    END { print s + 0 }'
}
all_threads() {
  echo "$1" | tr '+' '\n' | awk -F':' '{ split($2, c, "@"); s += c[1] } END { print s + 0 }'
}

"$copy" load sleep:40@100ms --quiet --for 300s >"$work/$name-1.out" 2>&1 &
first=$!
wait_threads "$first" 41
# Its timer probe's thread has come and gone once the timers line is out.
for _ in $(seq 600); do
  grep -q "^timers:" "$work/$name-1.out" && break
  sleep 0.1
done

# By PID: the 40 sleepers are one class, their rate generously near 100 ms; the quiet main thread
# makes 41 threads in all.
out=$("$exe" load sleep --like "$first" --window 2s --print-only) || fail "--like $first failed"
echo "$out"
spec=$(echo "$out" | sed -n 's/^like: //p')
[ -n "$spec" ] || fail "no 'like:' line"
echo "$out" | grep -q "^process $first ($name): 41 threads in 2s" || fail "wrong description"
[ "$(sum_sleepers "$spec" 50 400)" -eq 40 ] || fail "expected 40 sleepers at 50-400 ms in $spec"
[ "$(all_threads "$spec")" -eq 41 ] || fail "expected 41 threads in all in $spec"

# By name: the one copy running.
out=$("$exe" load sleep --like "$name" --window 1s --print-only) || fail "--like $name failed"
echo "$out" | grep -q "^process $first ($name): 41 threads" || fail "by name: $out"

# Without --print-only the derived load runs (and stops with nothing left).
out=$("$exe" load sleep --like "$first" --window 1s --for 1s --quiet) || fail "running failed"
echo "$out" | grep -q "^load sleep:" || fail "the load did not start: $out"
echo "$out" | grep -q "threads of this process: 1 before, 1 after" || fail "not stopped: $out"

# Two copies: the name is ambiguous and the error lists both PIDs.
"$copy" load sleep:2 --quiet --for 300s >"$work/$name-2.out" 2>&1 &
second=$!
wait_threads "$second" 3
err=$("$exe" load sleep --like "$name" --print-only 2>&1) && fail "two copies were not refused"
echo "$err"
echo "$err" | grep -q "2 processes have this name" || fail "ambiguity not named: $err"
echo "$err" | grep -q "$first" && echo "$err" | grep -q "$second" || fail "PIDs not listed: $err"

# A name nothing has.
err=$("$exe" load sleep --like "$name-none" --print-only 2>&1) && fail "unknown name accepted"
echo "$err" | grep -q "no running process has this name" || fail "unknown name: $err"

# A process that ends during the window (it stops after 8 s; the window is 60 s).
"$copy" load sleep:1 --quiet --for 8s >"$work/$name-3.out" 2>&1 &
short=$!
wait_threads "$short" 2
err=$("$exe" load sleep --like "$short" --window 60s --print-only 2>&1) && fail "gone not noticed"
echo "$err" | grep -q "process $short ($name) ended during the 1m window" || fail "gone: $err"
echo "like: all cases passed"
