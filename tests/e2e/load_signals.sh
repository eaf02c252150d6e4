#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# load_signals.sh - `threadsoup load` stopped by SIGTERM and by SIGINT (Ctrl+C) exits 0 and leaves
# no child process behind, as the OS process table shows (the idle children are counted by name:
# the load may also hold a sleep inhibitor, systemd-inhibit, while the machine has logind). Usage:
# load_signals.sh PATH-TO-threadsoup
set -u
exe=$1
owner=""
# A failing check ends the load it started (its idle children end with it): nothing outlives the test.
fail() {
  echo "load_signals: $*" >&2
  [ -n "$owner" ] && kill -KILL "$owner" 2>/dev/null
  exit 1
}
for sig in TERM INT; do
  out=$(mktemp)
  "$exe" load procs --count 50 + sleep --count 500 --quiet >"$out" 2>&1 &
  owner=$!
  children=""
  for _ in $(seq 100); do
    children=$(pgrep -P "$owner" threadsoup-idle | tr '\n' ' ')
    [ "$(echo $children | wc -w)" -ge 50 ] && break
    sleep 0.1
  done
  [ "$(echo $children | wc -w)" -eq 50 ] || fail "SIG$sig: expected 50 children, saw: $children"
  # The sleepers start after the children: wait for them too (a busy machine is slow at it).
  for _ in $(seq 100); do
    threads=$(awk '/^Threads:/ {print $2}' /proc/$owner/status)
    [ "$threads" -ge 501 ] && break
    sleep 0.1
  done
  [ "$threads" -eq 501 ] || fail "SIG$sig: expected 501 threads, saw $threads"
  kill -s "$sig" "$owner"
  wait "$owner"
  rc=$?
  [ "$rc" -eq 0 ] || { cat "$out"; fail "SIG$sig: exit code $rc, expected 0"; }
  grep -q "threads of this process: 1 before, 1 after; child processes left: 0" "$out" ||
    { cat "$out"; fail "SIG$sig: the load did not report a clean stop"; }
  for child in $children; do
    [ ! -e "/proc/$child" ] || [ "$(awk '{print $3}' /proc/$child/stat 2>/dev/null)" = Z ] ||
      fail "SIG$sig: child $child is still alive"
  done
  echo "SIG$sig: stopped cleanly, 50 children and 500 threads gone"
  rm -f "$out"
done
