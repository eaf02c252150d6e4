# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# service_run.sh - a service of its own on a Unix socket and one tiny run of it, finished, which
# the end-to-end scripts of the service's read requests read back. Sourced.
# usage: service_tiny_run NAME, with exe (the program) and work (a folder, made anew) set: skips
# (exit 77) for anyone but root or group threadsoup (who alone may start runs); sets sock; the
# service is killed and its socket's folder removed at exit; fail says NAME and the service's log.
fail() { echo "$name: $*" >&2; cat "$work/daemon.log" >&2; exit 1; }
service_cleanup() {
  [ -n "$daemon" ] && kill -9 "$daemon" 2>/dev/null
  rm -rf "$sockdir"
}
service_tiny_run() {
  name=$1
  if [ "$(id -u)" -ne 0 ] && ! id -nG | tr ' ' '\n' | grep -qx threadsoup; then
    echo "$name: skipped: only root or group threadsoup may start runs"
    exit 77
  fi
  rm -rf "$work"
  mkdir -p "$work"
  sockdir=$(mktemp -d "/tmp/threadsoup-$name.XXXXXX") || exit 1
  sock=$sockdir/control.sock
  daemon=
  trap service_cleanup EXIT
  "$exe" service run --socket "$sock" --db "$work/threadsoup.db" >"$work/daemon.log" 2>&1 &
  daemon=$!
  for _ in $(seq 200); do "$exe" status --socket "$sock" >/dev/null 2>&1 && break; sleep 0.1; done
  "$exe" run --service --socket "$sock" --conditions baseline,sleep:100 --reps 3 --warmup 0 \
    --settle 0s --work-scale 0.02 --quiet-cpu off >"$work/run.txt" 2>&1 ||
    fail "run --service failed"
  # Generous: a loaded machine runs the six tiny trials slowly.
  for _ in $(seq 600); do
    "$exe" history --service --socket "$sock" 2>/dev/null | grep -q ' finished ' && break
    sleep 0.5
  done
}
