#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# msi.sh - installs threadsoup.msi with Wine's msiexec: the files land in Program Files, the
# service is registered and started (and has configured itself: 60 s to stop at shutdown) and
# answers through its pipe, the step for the group ThreadSoup Users ran, the Start menu has the
# tray and a "ThreadSoup command prompt", every logon starts the tray (HKLM Run), the install folder
# ends the system PATH, a silent install does not start the tray; README's "On Windows" steps in
# new consoles (threadsoup by name, a tiny run by the service, history --service, report N
# --service, export); the service's start and stop are
# waited for by threadsoup.exe itself (deferred steps), not Windows Installer's 30 s. An upgrade
# from an older MSI (built here with wixl from the same .wxs, version 0.0.1) keeps the database and
# its schedules. Then uninstalls and checks that the files, the service and the PATH entry are
# gone. Usage: msi.sh WINE-RUN MSI WINEPREFIX [WXS WIXL | interactive]
set -u
wine_run=$1 msi=$2 prefix=$3 wxs=${4:-} wixl=${5:-}
older="$(dirname "$msi")/threadsoup-older.msi"
. "$(dirname "$0")/msi-common.sh"
# shellcheck source=tests/e2e/lib/tiny_plan.sh
. "$(dirname "$0")/../e2e/lib/tiny_plan.sh"

# `msi.sh WINE-RUN MSI WINEPREFIX interactive` (in a display): an install with reduced UI (/qr,
# UILevel 4) starts the tray for the user who installed.
if [ "$wxs" = interactive ]; then
  "$wine_run" msiexec /i "$msi" /qr || fail "msiexec /i /qr failed with exit code $?"
  tray=""
  for _ in $(seq 50); do
    tray=$(in_prefix 'ThreadSoup.threadsoup-tray\.exe')
    [ -n "$tray" ] && break
    sleep 0.2
  done
  [ -n "$tray" ] || fail "an interactive install did not start the tray"
  echo "an interactive install (/qr) started the tray (process $tray)"
  exit 0
fi

# --- an older version first, with a schedule in its database --------------------------------------
if [ -n "$wxs" ] && [ -n "$wixl" ]; then
  (cd "$(dirname "$msi")" && "$wixl" -a x64 -D BuildDir=. -D Version=0.0.1 -o "$older" "$wxs") ||
    fail "wixl could not build the older MSI"
  "$wine_run" msiexec /i "$older" /qn || fail "msiexec /i of the older MSI failed with exit code $?"
  wait_answer || fail "the older version's service does not answer on its pipe"
  "$wine_run" "$exe" schedule add daily 03:17 --plan quick >/dev/null 2>&1 ||
    fail "schedule add failed: $("$wine_run" "$exe" schedule add daily 03:17 --plan quick 2>&1)"
  "$wine_run" "$exe" schedule list 2>&1 | tr -d '\r' | grep -q "daily 03:17" ||
    fail "schedule list does not show the new schedule"
  db_before=$(ls -l "$prefix/drive_c/ProgramData/ThreadSoup/threadsoup.db" 2>/dev/null)
  [ -n "$db_before" ] || fail "the older version made no database in ProgramData"
  echo "older version 0.0.1 installed, a schedule added"
fi

"$wine_run" msiexec /i "$msi" /qn /l*v 'C:\threadsoup-install.log' ||
  fail "msiexec /i failed with exit code $?"
# The step that puts the installing user in ThreadSoup Users ran (as LocalSystem on Windows; Wine
# keeps no local groups, so there it can only run, and its failure fails no install).
install_log="$prefix/drive_c/threadsoup-install.log"
grep -a -q "Action ended.*AddInstallerToUsersGroup" "$install_log" ||
  fail "the installer did not run its step for the group ThreadSoup Users"
# The start is waited for by `threadsoup service start` (ServiceRunning), not StartServices' 30 s.
grep -a -q "Action ended.*ServiceRunning" "$install_log" ||
  fail "the installer did not wait for the service's start with threadsoup service start"
for f in threadsoup.exe threadsoup-idle.exe threadsoup-tray.exe; do
  [ -f "$folder/$f" ] || fail "$f was not installed in $folder"
done
version=$("$wine_run" "$exe" --version | tr -d '\r')
case "$version" in "threadsoup "[0-9]*) ;; *) fail "installed threadsoup.exe printed '$version'" ;; esac
"$wine_run" sc query ThreadSoup | tr -d '\r' | grep -q "RUNNING" ||
  fail "the installer did not start the service: $("$wine_run" sc query ThreadSoup | tr -d '\r')"
wait_answer || fail "the installed service does not answer on its pipe"
echo "installed: $version; service running and answering ($answered)"

# The MSI sets no delayed start, failure actions or preshutdown timeout: the service does, at start.
"$wine_run" "$exe" service status 2>&1 | tr -d '\r' | grep -q "60 s to stop at shutdown" ||
  fail "the MSI-installed service did not configure itself: $("$wine_run" "$exe" service status 2>&1)"
# Per machine (ALLUSERS=1), Windows puts it in the all-users Start menu; Wine's msi puts it in the
# installing user's: either is the Start menu.
lnk=$(find "$prefix/drive_c/ProgramData/Microsoft/Windows/Start Menu/Programs" \
  "$prefix/drive_c/users"/*/AppData/Roaming/Microsoft/Windows/"Start Menu"/Programs \
  -maxdepth 1 -name ThreadSoup.lnk 2>/dev/null | head -n 1)
[ -n "$lnk" ] || fail "no Start-menu shortcut ThreadSoup.lnk"
"$wine_run" reg query 'HKLM\Software\Microsoft\Windows\CurrentVersion\Run' /v 'ThreadSoup tray' 2>&1 |
  tr -d '\r' | grep -q 'threadsoup-tray.exe' || fail "no logon entry (HKLM Run) for the tray"
# A silent install (/qn) starts no tray: only an interactive one does (UILevel 4 or more).
[ -z "$(in_prefix 'threadsoup-tray\.exe')" ] || fail "a silent install started the tray"
# The install folder at the end of the system PATH (Windows's per-machine environment), and a
# Start-menu command prompt in it.
system_path() {
  "$wine_run" reg query 'HKLM\System\CurrentControlSet\Control\Session Manager\Environment' /v Path \
    2>&1 | tr -d '\r' | grep -i 'Path.*REG_'
}
system_path | grep -qi ';C:\\Program Files\\ThreadSoup\\\{0,1\}$' ||
  fail "the system PATH does not end with the install folder: $(system_path)"
prompt=$(find "$(dirname "$lnk")" -maxdepth 1 -name 'ThreadSoup command prompt.lnk' | head -n 1)
[ -n "$prompt" ] || fail "no Start-menu shortcut 'ThreadSoup command prompt.lnk' beside $lnk"
echo "Start menu: ${lnk#"$prefix/drive_c/"} and the command prompt; HKLM Run: the tray; \
the install folder on the system PATH; the service set its own settings"

# README's "On Windows" walked as a user would, each step in a new console (a new process reads the
# system PATH): threadsoup found by name, the prompt's own command, a tiny run by the service
# listed by history --service and reported by report N --service, and exported from the service's
# database.
in_console() { "$wine_run" cmd /c "$@" 2>&1 | tr -d '\r'; }
in_console threadsoup --version | grep -q "^threadsoup [0-9]" ||
  fail "threadsoup is not found by name in a new console: $(in_console threadsoup --version)"
tr -d '\0' <"$prompt" | grep -a -q 'cmd\.exe' && tr -d '\0' <"$prompt" | grep -a -q '/k threadsoup --version' ||
  fail "the command prompt's shortcut does not run cmd.exe /k threadsoup --version"
tiny_plan "$prefix/drive_c/tiny.plan" 'C:\exported'
mkdir -p "$prefix/drive_c/exported"
started=$(in_console threadsoup run 'C:\tiny.plan' --service)
run=$(printf '%s\n' "$started" | sed -n 's/^run \([0-9]*\) started by the service.*/\1/p')
[ -n "$run" ] || fail "run --service did not start a run: $started"
printf '%s\n' "$started" | grep -q "threadsoup report $run --service" ||
  fail "run --service's hint does not name report $run --service: $started"
for _ in $(seq 120); do
  in_console threadsoup history --service >"$prefix/history.txt"
  grep -q "^ *$run .*tiny.plan *finished" "$prefix/history.txt" && break
  sleep 1
done
grep -q "^ *$run .*tiny.plan *finished" "$prefix/history.txt" ||
  fail "history --service does not list run $run finished: $(cat "$prefix/history.txt")"
in_console threadsoup report "$run" --service | grep -q "^run $run: plan tiny.plan, finished" ||
  fail "report $run --service does not show the run: $(in_console threadsoup report "$run" --service)"
in_console threadsoup history | grep -q "tiny.plan" &&
  fail "history without --service (the user's own database) lists the service's run"
ls "$prefix/drive_c/exported"/threadsoup-run-*.jsonl >/dev/null 2>&1 ||
  fail "the service's run was not exported to the plan's export-to folder"
in_console threadsoup export "$run" --service --output 'C:\run.jsonl' |
  grep -q 'run\.jsonl' || fail "export --service of the service's run failed"
in_console threadsoup import 'C:\run.jsonl' | grep -q "1 imported" ||
  fail "the exported run does not import into the user's own database"
echo "in new consoles: threadsoup by name; run $run of a tiny plan by the service, listed by \
history --service, reported by report $run --service, exported by its plan and by export --service"

if [ -n "$wxs" ] && [ -n "$wixl" ]; then
  "$wine_run" "$exe" schedule list 2>&1 | tr -d '\r' | grep -q "daily 03:17" ||
    fail "the upgrade lost the schedule: $("$wine_run" "$exe" schedule list 2>&1)"
  products=0
  uninstall='HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall'
  for key in $("$wine_run" reg query "$uninstall" 2>/dev/null | tr -d '\r' | grep -i '^HKEY.*Uninstall\\.'); do
    "$wine_run" reg query "$key" /v DisplayName 2>/dev/null | tr -d '\r' | grep -q 'ThreadSoup' &&
      products=$((products + 1))
  done
  [ "$products" = 1 ] || fail "after the upgrade $products ThreadSoup products are registered, not 1"
  echo "upgraded from 0.0.1: the schedule and the database stayed, one product registered"
fi

"$wine_run" msiexec /x "$msi" /qn /l*v 'C:\threadsoup-uninstall.log' ||
  fail "msiexec /x failed with exit code $?"
# The stop is waited for by `threadsoup service stop` (ServiceStopped), before StopServices.
grep -a -q "Action ended.*ServiceStopped" "$prefix/drive_c/threadsoup-uninstall.log" ||
  fail "the uninstall did not stop the service with threadsoup service stop"
# Wine's msiexec asks the service to stop but does not wait for it (ServiceControl Wait="yes"):
# a service still exiting holds its threadsoup.exe, which then cannot be removed. Said if seen.
still=""
for p in $(in_prefix 'ThreadSoup.threadsoup\.exe'); do
  still=" (the service's process $p still ran when msiexec /x returned)"
done
[ ! -e "$folder/threadsoup.exe" ] || fail "threadsoup.exe is still there after uninstall$still"
[ ! -e "$lnk" ] || fail "the Start-menu shortcut is still there after uninstall"
[ ! -e "$prompt" ] || fail "the command prompt's shortcut is still there after uninstall"
system_path | grep -qi 'ThreadSoup' && fail "the system PATH still names ThreadSoup: $(system_path)"
in_console threadsoup --version | grep -q "^threadsoup [0-9]" &&
  fail "a new console still finds threadsoup by name after uninstall"
[ -f "$prefix/drive_c/ProgramData/ThreadSoup/threadsoup.db" ] ||
  fail "uninstall removed the database, which holds the results"
"$wine_run" sc query ThreadSoup 2>&1 | tr -d '\r' | grep -q "SERVICE_NAME: ThreadSoup" &&
  fail "the service is still registered after uninstall"
echo "installed, started, answered and uninstalled"
