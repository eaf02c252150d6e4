#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# msi_fleet.sh - a fleet's silent install under Wine's msiexec: SCHEDULE, PLAN and EXPORTTO add a
# schedule with its export folder once the service runs (schedule list through the installed
# service's pipe shows both); an upgrade with the same properties and a second install of the same
# MSI add no second schedule; bad values fail the install and leave nothing installed; the
# uninstall removes the service. Usage: msi_fleet.sh WINE-RUN MSI WINEPREFIX WXS WIXL
set -u
wine_run=$1 msi=$2 prefix=$3 wxs=$4 wixl=$5
# Its own name: msi.sh builds threadsoup-older.msi in the same folder, maybe at the same time.
older="$(dirname "$msi")/threadsoup-fleet-older.msi"
. "$(dirname "$0")/msi-common.sh"
log="$prefix/drive_c/threadsoup-fleet.log"
share='\\server\share\thread soup'

installed() { [ -e "$folder/threadsoup.exe" ]; }
registered() { "$wine_run" sc query ThreadSoup 2>&1 | tr -d '\r' | grep -q "SERVICE_NAME: ThreadSoup"; }
# The rows of schedule list for `daily 03:00`, and the export-to lines.
listing() { "$wine_run" "$exe" schedule list 2>&1 | tr -d '\r'; }

# --- bad values fail the install, before or after the files are in place -----------------------
# Each fails with 1603 (ERROR_INSTALL_FAILURE; a Unix exit status keeps its low byte, 67). A launch condition's message goes into Windows's
# log; Wine's msi does not log it, so here its LaunchConditions step is seen to fail.
refused_early() { # $1: what was given
  rc=$?
  [ "$rc" = 67 ] || fail "$1: msiexec's exit status is $rc, not 67 (1603)"
  grep -a -q "Action ended.*LaunchConditions\. Return value [^1]" "$log" ||
    fail "$1: the launch conditions did not refuse it: $(grep -a LaunchConditions "$log")"
  installed && fail "$1 left threadsoup.exe installed"
}
t0=$(date +%s)
"$wine_run" msiexec /i "$msi" /qn /l*v 'C:\threadsoup-fleet.log' SCHEDULE="every full moon"
refused_early 'SCHEDULE="every full moon"'
"$wine_run" msiexec /i "$msi" /qn /l*v 'C:\threadsoup-fleet.log' EXPORTTO="$share"
refused_early "EXPORTTO without SCHEDULE"
"$wine_run" msiexec /i "$msi" /qn /l*v 'C:\threadsoup-fleet.log' PLAN=seed
refused_early "PLAN without SCHEDULE"
echo "refused before installing: SCHEDULE=\"every full moon\", EXPORTTO or PLAN without SCHEDULE ($(($(date +%s) - t0)) s)"

# What only the CLI can tell (25:00 is no time): the step fails, the install is rolled back.
t0=$(date +%s)
"$wine_run" msiexec /i "$msi" /qn /l*v 'C:\threadsoup-fleet.log' SCHEDULE="daily 25:00"
rc=$?
# Windows says 1603; Wine's msiexec passes on its 1627 (ERROR_FUNCTION_FAILED, low byte 91).
[ "$rc" = 67 ] || [ "$rc" = 91 ] ||
  fail "SCHEDULE=\"daily 25:00\": msiexec's exit status is $rc, not 67 (1603) or 91 (1627)"
grep -a -q "FleetSchedule" "$log" || fail "the log does not name the step FleetSchedule"
installed && fail "SCHEDULE=\"daily 25:00\" failed but left threadsoup.exe installed"
registered && fail "SCHEDULE=\"daily 25:00\" failed but left the service registered"
echo "SCHEDULE=\"daily 25:00\": the step failed, the install rolled back ($(($(date +%s) - t0)) s)"

# --- an older version with the fleet's properties, then this one with the same -------------------
(cd "$(dirname "$msi")" && "$wixl" -a x64 -D BuildDir=. -D Version=0.0.1 -o "$older" "$wxs") ||
  fail "wixl could not build the older MSI"
t0=$(date +%s)
"$wine_run" msiexec /i "$older" /qn /l*v 'C:\threadsoup-fleet.log' SCHEDULE="daily 03:00" PLAN=quick \
  EXPORTTO="$share" || fail "msiexec /i of the older MSI with SCHEDULE failed with exit code $?"
grep -a -q "Action ended.*FleetScheduleExport\." "$log" || fail "the step FleetScheduleExport did not run"
wait_answer || fail "the installed service does not answer on its pipe"
list=$(listing)
printf "%s\n" "$list" | grep -Eq '^ +1  daily 03:00 .* quick +enabled' ||
  fail "schedule list does not show the fleet's schedule: $list"
printf "%s\n" "$list" | grep -qF "export to: $share" ||
  fail "schedule list does not show the export folder: $list"
echo "installed 0.0.1 with SCHEDULE, PLAN, EXPORTTO in $(($(date +%s) - t0)) s; schedule list:"
printf "%s\n" "$list" | sed 's/^/  /'

t0=$(date +%s)
"$wine_run" msiexec /i "$msi" /qn /l*v 'C:\threadsoup-fleet.log' SCHEDULE="daily 03:00" PLAN=quick \
  EXPORTTO="$share" || fail "the upgrade with the same properties failed with exit code $?"
grep -a -q "Action ended.*FleetScheduleExport\." "$log" ||
  fail "the upgrade did not run FleetScheduleExport (the check it proves would not be tried)"
wait_answer || fail "the upgraded service does not answer on its pipe"
"$wine_run" msiexec /i "$msi" /qn SCHEDULE="daily 03:00" PLAN=quick EXPORTTO="$share" ||
  fail "installing the same MSI again failed with exit code $?"
list=$(listing)
[ "$(printf "%s\n" "$list" | grep -cE '^ +[0-9]+  ')" = 1 ] ||
  fail "after an upgrade and a second install with the same properties: $list"
echo "upgrade and a second install with the same properties: still one schedule ($(($(date +%s) - t0)) s)"

# --- a folder ending in \ (its quoting differs), as a second schedule ----------------------------
# Without a space: Wine passes an argument with a space to msiexec quoted, its last \ doubled, and
# Wine's msiexec keeps both (Windows's msiexec reads EXPORTTO="C:\a b\" as C:\a b\).
"$wine_run" msiexec /x "$msi" /qn || fail "msiexec /x failed with exit code $?"
t0=$(date +%s)
"$wine_run" msiexec /i "$msi" /qn /l*v 'C:\threadsoup-fleet.log' SCHEDULE="weekly sun 04:30" \
  PLAN=quick 'EXPORTTO=C:\fleet-exports\' || fail "msiexec /i with EXPORTTO ending in \\ failed"
grep -a -q "Action ended.*FleetScheduleExportSlash\." "$log" ||
  fail "the step FleetScheduleExportSlash did not run"
wait_answer || fail "the installed service does not answer on its pipe"
list=$(listing)
printf "%s\n" "$list" | grep -Eq '^ +2  weekly sun 04:30 ' || fail "no second schedule: $list"
printf "%s\n" "$list" | grep -q 'export to: C:\\fleet-exports\\$' ||
  fail "schedule list does not show the folder ending in \\: $list"
echo "EXPORTTO ending in \\ kept it ($(($(date +%s) - t0)) s)"

"$wine_run" msiexec /x "$msi" /qn || fail "msiexec /x failed with exit code $?"
installed && fail "threadsoup.exe is still there after uninstall"
registered && fail "the service is still registered after uninstall"
echo "uninstalled: the files and the service are gone"
