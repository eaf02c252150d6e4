#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# tray_dpi.sh - the tray's notification icon at each common display scale under Wine and Xvfb:
# at 96, 120, 144 and 192 dpi (100, 125, 150, 200 %) the tray loads its icons at 16, 20, 24 and
# 32 px (the small-icon size for the DPI, as its --log says), and every state icon holds an image
# drawn at exactly that size, so none is scaled; at each start it registers its restart after an
# upgrade (RegisterApplicationRestart) and decides whether to hint "sign out and in once" (not
# here: Wine keeps no local groups, so no ThreadSoup Users lists this user).
# Usage: tray_dpi.sh WINE-RUN THREADSOUP-TRAY-EXE WINEPREFIX ICON-FOLDER (a prefix of its own: the
# DPI is a setting of the prefix's user).
set -u
wine_run=$1 tray=$2 prefix=$3 icons=$4

if [ -z "${TRAY_TEST_IN_X:-}" ]; then
  TRAY_TEST_IN_X=1 exec xvfb-run -a -s "-screen 0 1024x768x24" sh "$0" "$@"
fi

export WINEPREFIX="$prefix"
export WINEDEBUG="${WINEDEBUG:--all}"
out="$(mktemp -d "${TMPDIR:-/tmp}/threadsoup-tray-dpi.XXXXXX")"
trap 'wineserver -k 2>/dev/null; rm -rf "$out"' EXIT
fail() {
  echo "tray-dpi: $*" >&2
  cat "$out/tray.log" >&2 2>/dev/null
  exit 1
}
log_win="Z:$(echo "$out/tray.log" | tr / '\\')"

for scale in 96:16 120:20 144:24 192:32; do
  dpi=${scale%:*} px=${scale#*:}
  # Every state icon has an image of exactly this size (ImageMagick lists each image's size).
  for ico in "$icons"/state-*.ico; do
    identify "$ico" | awk '{print $3}' | grep -qx "${px}x${px}" ||
      fail "$(basename "$ico") has no ${px}x${px} image"
  done
  # Wine's DPI is the user's LogPixels, read when a program starts.
  "$wine_run" reg add 'HKCU\Control Panel\Desktop' /v LogPixels /t REG_DWORD /d "$dpi" /f \
    >/dev/null 2>&1 || fail "could not set LogPixels $dpi"
  rm -f "$out/tray.log"
  "$wine_run" "$tray" --exit-after 2000 --log "$log_win" >"$out/tray.txt" 2>&1 ||
    fail "the tray exited with $? at $dpi dpi"
  last=$(grep '^icon ' "$out/tray.log" | tail -n 1 | tr -d '\r')
  [ "$last" = "icon $px px for $dpi dpi" ] ||
    fail "at $dpi dpi the tray's icon is '$last', not $px px"
  echo "$dpi dpi: $last"
  # The Restart Manager may start it again after an MSI upgrade closed it.
  grep -q '^restart after an upgrade: registered' "$out/tray.log" ||
    fail "the tray did not register its restart: $(grep '^restart' "$out/tray.log")"
  grep -q '^sign-in hint: not needed' "$out/tray.log" ||
    fail "the tray's start did not decide the sign-in hint: $(grep '^sign-in' "$out/tray.log")"
done
echo "tray dpi test passed"
