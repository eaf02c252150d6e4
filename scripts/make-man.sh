#!/bin/sh
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# make-man.sh - writes the manual page threadsoup(1) to standard output, made from the program's
# own help texts (`threadsoup --help`, and `threadsoup COMMAND --help` for each command it lists),
# so the page says exactly what the program says. POSIX sh and awk; no help2man, whose one-command
# model fits a program with twelve commands badly.
#   sh scripts/make-man.sh build/linux/threadsoup > threadsoup.1
# SOURCE_DATE_EPOCH, when set, dates the page (reproducible builds); otherwise it is undated.
set -eu
program=${1:?usage: make-man.sh PATH/TO/threadsoup}

main_help=$("$program" --help)
version=$("$program" --version | sed 's/^threadsoup //')
commands=$(printf '%s\n' "$main_help" | awk '/^commands:$/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
[ -n "$commands" ] || { echo "make-man.sh: '$program --help' lists no commands" >&2; exit 1; }
date=""
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
  date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
fi

# Text as roff takes it: a backslash printed as \e, hyphens as \- (options stay copyable),
# and a line that starts with . or ' protected by \& so it is not read as a request.
ROFF_ESCAPE='
function esc(s) {
  gsub(/\\/, "\\e", s)
  gsub(/-/, "\\-", s)
  if (s ~ /^[.\047]/)
    s = "\\&" s
  return s
}
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }'

# The body of one command's help: paragraphs (lines at the margin; one ending in ":" introduces
# what follows), and table rows indented by two spaces whose term and description are separated
# by two spaces or more; deeper-indented lines continue the row above.
BODY='
/^$/ { prev = ""; next }
/^[^ ]/ {
  if (prev != "para")
    print ".PP"
  print esc($0)
  prev = ($0 ~ /:$/) ? "heading" : "para"
  next
}
/^  [^ ]/ {
  line = substr($0, 3)
  gap = match(line, /   *[^ ]/)
  print ".TP"
  if (gap && substr(line, gap + RLENGTH - 1, 1) != "|") {
    print esc(substr(line, 1, gap - 1))
    print esc(trim(substr(line, gap)))
  } else {
    print esc(trim(line)) # no term of its own, as "daily HH:MM  |  weekly ..."
  }
  prev = "row"
  next
}
{ print esc(trim($0)) }'

tagline=$(printf '%s\n' "$main_help" | sed -n '1s/^[^-]* - //p')
exit_codes=$(printf '%s\n' "$main_help" | sed -n 's/^Exit codes: //p')

{
  printf '%s\n' '.\" -*- coding: UTF-8 -*-'
  printf '%s\n' ".\\\" threadsoup.1 - made by scripts/make-man.sh from the program's help texts; edit those."
  printf '.TH THREADSOUP 1 "%s" "ThreadSoup %s" "User Commands"\n' "$date" "$version"
  printf '.nh\n.ad l\n'
  printf '.SH NAME\nthreadsoup \\- %s\n' "$(printf '%s' "$tagline" | awk "$ROFF_ESCAPE"'{ printf "%s", esc($0) }')"

  printf '.SH SYNOPSIS\n'
  for c in $commands; do
    "$program" "$c" --help | awk "$ROFF_ESCAPE"'
      NR == 1 { sub(/^usage: /, ""); print ".PP"; print esc($0); next }
      /^$/ { exit }
      { print esc(trim($0)) }'
  done
  printf '.PP\n%s\n' 'threadsoup \-\-help | \-\-version | COMMAND \-\-help'

  printf '.SH DESCRIPTION\n%s\n' 'The commands, each described under COMMANDS below as \fBthreadsoup\fR \fICOMMAND\fR \-\-help prints it:'
  printf '%s\n' "$main_help" | awk "$ROFF_ESCAPE"'
    /^commands:$/ { on = 1; next }
    on && /^$/ { exit }
    on { name = $1; sub(/^ *[^ ]+ +/, ""); print ".TP"; print "\\fB" esc(name) "\\fR"; print esc($0) }'

  printf '.SH COMMANDS\n'
  for c in $commands; do
    printf '.SS %s\n' "$c"
    # Skip the usage (it is in the synopsis); the rest as paragraphs and tables.
    "$program" "$c" --help | awk "$ROFF_ESCAPE"'
      !started { if ($0 == "") started = 1; next }
      '"$BODY"
  done

  if [ -n "$exit_codes" ]; then
    printf '.SH "EXIT STATUS"\n%s\n' "$(printf '%s' "$exit_codes" | awk "$ROFF_ESCAPE"'{ printf "%s", esc($0) }')"
  fi
  # Where the program keeps things: the defaults the commands' help texts name.
  printf '.SH FILES\n'
  printf '.TP\n%s\n%s\n' '~/.local/share/threadsoup/threadsoup.db' \
    'your own database, of foreground runs ($XDG_DATA_HOME/threadsoup/ when set); \-\-db names another'
  printf '.TP\n%s\n%s\n' '/var/lib/threadsoup/threadsoup.db' \
    "the service's database (the runs of run \\-\\-service, of the tray and of schedules)"
  printf '.TP\n%s\n%s\n' '/var/lib/threadsoup/threadsoup.db\-service.lock' \
    'held by the service while it serves that database: one service per database'
  printf '.TP\n%s\n%s\n' '/run/threadsoup/control.sock' \
    "the service's socket (mode 0660, group threadsoup); \\-\\-socket names another"
  printf '.TP\n%s\n%s\n' '/lib/systemd/system/threadsoup.service' \
    'the systemd unit (installed by make install under PREFIX, or written by service install)'
  printf '.SH "SEE ALSO"\n'
  printf '%s\n' '.BR systemctl (1),' '.BR systemd.service (5);' \
    'the user guide, docs/user\-guide.md, in the ThreadSoup sources.'
}
