#!/bin/sh
# msi.sh - installs threadsoup.msi with Wine's msiexec, runs the installed program, uninstalls it,
# and checks that the files came and went. Usage: msi.sh WINE-RUN MSI WINEPREFIX
set -eu
wine_run=$1 msi=$2 prefix=$3
folder="$prefix/drive_c/Program Files/ThreadSoup"
fail() { echo "msi: $*" >&2; exit 1; }

"$wine_run" msiexec /i "$msi" /qn || fail "msiexec /i failed with exit code $?"
for f in threadsoup.exe threadsoup-idle.exe threadsoup-tray.exe; do
  [ -f "$folder/$f" ] || fail "$f was not installed in $folder"
done
version=$("$wine_run" 'C:\Program Files\ThreadSoup\threadsoup.exe' --version | tr -d '\r')
echo "installed: $version"
case "$version" in "threadsoup "[0-9]*) ;; *) fail "installed threadsoup.exe printed '$version'" ;; esac
"$wine_run" msiexec /x "$msi" /qn || fail "msiexec /x failed with exit code $?"
[ ! -e "$folder/threadsoup.exe" ] || fail "threadsoup.exe is still there after uninstall"
echo "installed, ran and uninstalled"
