# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# tray-common.sh - what the tray tests under Wine share, sourced by each tray_*.sh: the test's
# set-up and failure report, polling the tray's log, clicking dialog controls where the tray logged
# them, threadsoup.exe's output, the service's status, the processes of this prefix, and the
# desktop with the service running. Expects wine_run, exe and prefix to be set; tray_test_begin
# sets the rest.

# Runs threadsoup.exe with the arguments after $1, its output (CRs removed) into $out/$1.txt;
# returns its exit code.
cli() {
  cli_out=$out/$1
  shift
  "$wine_run" "$exe" "$@" >"$cli_out.raw" 2>&1
  rc=$?
  tr -d '\r' <"$cli_out.raw" >"$cli_out.txt"
  return $rc
}
# Asks the service for its status into $out/status.txt; fails when it does not answer.
status() { cli status status --fields --socket "$pipe"; }

# The Unix pids of this prefix's processes whose command line matches $1 (other builds may run
# the same test at the same time, in prefixes of their own).
prefix_pids() {
  for p in $(pgrep -f "$1"); do
    tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "WINEPREFIX=$prefix" && echo "$p"
  done
}

# Starts the 1024x768 Wine desktop and the service in its console on a fresh database C:\$1.db,
# and waits (up to ~30 s) until the service answers.
start_desktop_and_service() {
  "$wine_run" explorer /desktop=shell,1024x768 >"$out/desktop.log" 2>&1 &
  rm -f "$prefix/drive_c/$1.db" "$prefix/drive_c/$1.db-wal" "$prefix/drive_c/$1.db-shm"
  "$wine_run" "$exe" service run --console --socket "$pipe" --db "C:\\$1.db" \
    >"$out/service.txt" 2>&1 &
  for i in $(seq 1 60); do
    status && return 0
    sleep 0.5
  done
  fail "the service did not answer on $pipe"
}

# The set-up of a tray test named $1 (tray-state, tray-results, ...): exports the prefix, sets
# pipe, out (a temporary folder, removed at the end with this prefix's Wine processes), shots (the
# build folder beside the prefix, where the log and screenshots stay) and log ($shots/$1.log), and
# defines fail, which keeps a screenshot of the failure and prints the tray's log and the outputs.
tray_test_begin() {
  test_name=$1
  export WINEPREFIX="$prefix"
  export WINEDEBUG="${WINEDEBUG:--all}"
  pipe="\\\\.\\pipe\\threadsoup-$test_name-test"
  out="$(mktemp -d "${TMPDIR:-/tmp}/threadsoup-$test_name.XXXXXX")"
  shots=$(dirname "$prefix")
  log=$shots/$test_name.log
  trap 'wineserver -k 2>/dev/null; rm -rf "$out"' EXIT
}
fail() {
  echo "$test_name: $*" >&2
  import -window root "$shots/$test_name-failure.png" 2>/dev/null &&
    echo "$test_name: screen at the failure: $shots/$test_name-failure.png" >&2
  echo "--- tray log" >&2
  cat "$log" >&2 2>/dev/null
  for f in "$out"/*.txt; do [ -f "$f" ] && { echo "--- $(basename "$f")" >&2; cat "$f" >&2; }; done
  exit 1
}
# Polls the tray's log (every 0.5 s, up to $2 s, 90 unless given) for a line matching $1 (grep -E).
wait_log() {
  for i in $(seq 1 $((${2:-90} * 2))); do
    grep -Eq "$1" "$log" 2>/dev/null && return 0
    sleep 0.5
  done
  return 1
}
# Where the open dialog $1 logged its control $2 ("dialog NAME control LABEL at X,Y"): "X Y".
control_at() { grep "^dialog $1 control $2 at " "$log" | tail -n 1 | sed 's/.* at //; s/,/ /'; }
# Clicks dialog $1's control $2 where the tray logged it.
click_control() {
  at=$(control_at "$1" "$2")
  [ -n "$at" ] || fail "the tray logged no position of $1's $2"
  # shellcheck disable=SC2086
  xdotool mousemove $at
  sleep 0.5
  xdotool click 1
  sleep 0.5
}

# The tray's menu, driven by where the tray logged its items ("menu item LABEL at X,Y", once each
# menu is on the screen), so the clicks hold at any DPI and whatever rows are added above.
# The place of the last logged item whose label starts with $1 (a fixed string): "X Y".
menu_item_at() {
  grep '^menu item ' "$log" | grep -F "menu item $1" | tail -n 1 | sed 's/.* at //; s/,/ /'
}
# How many items' places are logged: 0 while a tray slowed by a busy machine has written no log.
menu_items_counted() {
  if [ -f "$log" ]; then grep -c '^menu item ' "$log"; else echo 0; fi
}
# Waits (up to 10 s) until more than $1 items' places are logged.
menu_items_logged() {
  for i in $(seq 1 20); do
    [ "$(menu_items_counted)" -gt "$1" ] && { sleep 0.3; return 0; }
    sleep 0.5
  done
  return 1
}
# Variables here are global (POSIX sh): the menu helpers use names of their own, menu_*, so a
# caller's own counts (a dialog's "before") survive them.
# Closes whatever menu is open.
menu_close() {
  xdotool key Escape
  xdotool mousemove 300 200 click 1
  sleep 1
}
# Opens the menu with a right click on the icon (the only one, at the bottom right of the
# 1024x768 desktop) until the tray logs its items; tried again on a busy machine.
menu_open() {
  for attempt in 1 2 3 4 5; do
    menu_items_before=$(menu_items_counted)
    xdotool mousemove 1014 757 click 3
    menu_items_logged "$menu_items_before" && return 0
    menu_close
  done
  return 1
}
# Hovers over the open menu's item $1 until its submenu's items are logged.
menu_hover() {
  menu_items_before=$(menu_items_counted)
  at=$(menu_item_at "$1")
  [ -n "$at" ] || fail "the tray logged no place of the menu item $1"
  # shellcheck disable=SC2086
  xdotool mousemove $at
  menu_items_logged "$menu_items_before"
}
# Clicks the open menu's item $1.
menu_click() {
  at=$(menu_item_at "$1")
  [ -n "$at" ] || fail "the tray logged no place of the menu item $1"
  # shellcheck disable=SC2086
  xdotool mousemove $at
  sleep 0.7
  xdotool click 1
}
