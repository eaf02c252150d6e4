#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# make-icons.sh - draws the tray's five state icons (16, 20, 24, 32 and 48 px each) with ImageMagick.
# Each state has its own shape as well as its own colour, so that it reads without colour vision:
#   state-idle.ico         blue rounded square with a flat line (nothing runs)
#   state-load.ico         orange square with three upright bars (threads of a load)
#   state-run.ico          green circle with a "play" triangle (an experiment runs)
#   state-quiet.ico        purple circle with a crescent moon (quiet mode is on)
#   state-unreachable.ico  grey square with a cross (no service)
# Shapes only, no fonts: the same ImageMagick makes the same bytes. Run from anywhere:
#   sh tray/res/make-icons.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/threadsoup-icons.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Drawn once on a 192 px canvas, then scaled down to each size (smooth edges at every size).
draw() { # NAME DRAW-ARGUMENTS...
  name=$1
  shift
  convert -size 192x192 xc:none "$@" "$tmp/$name-192.png"
  files=""
  for s in 16 20 24 32 48; do
    convert "$tmp/$name-192.png" -filter Lanczos -resize ${s}x${s} -strip "PNG32:$tmp/$name-$s.png"
    files="$files $tmp/$name-$s.png"
  done
  # shellcheck disable=SC2086 # the list of files is meant to split
  convert $files -strip "$here/state-$name.ico"
}

draw idle -fill '#1f6feb' -draw 'roundrectangle 8,8 183,183 36,36' \
  -fill white -draw 'roundrectangle 40,84 151,107 10,10'
draw load -fill '#d9480f' -draw 'rectangle 8,8 183,183' \
  -fill white -draw 'rectangle 36,40 64,152' -draw 'rectangle 82,40 110,152' \
  -draw 'rectangle 128,40 156,152'
draw run -fill '#2b8a3e' -draw 'circle 96,96 96,6' \
  -fill white -draw 'polygon 70,48 70,144 150,96'
draw quiet -fill '#6741d9' -draw 'circle 96,96 96,6' \
  -fill white -draw 'circle 88,96 88,40' -fill '#6741d9' -draw 'circle 114,82 114,34'
draw unreachable -fill '#868e96' -draw 'rectangle 8,8 183,183' \
  -stroke white -strokewidth 26 -draw 'line 52,52 140,140' -draw 'line 140,52 52,140'
