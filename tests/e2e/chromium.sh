# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# shellcheck shell=sh
# chromium.sh - headless Chromium for the end-to-end tests that render an HTML report, sourced by
# them (they define fail): the rendered DOM of a page, and a screenshot that must not be blank.

# Chromium is required (scripts/bootstrap.sh installs Debian's package): a report that was never
# rendered by a browser is not tested.
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || fail "chromium is not installed (run scripts/bootstrap.sh)"

# The flags keep Chromium off the (closed) network, and a new profile keeps runs independent.
chromium_flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
--disable-background-networking --disable-component-update --disable-sync"

# chromium_dom URL OUT WORKDIR: the DOM of URL after rendering, written to OUT.
chromium_dom() {
  # shellcheck disable=SC2086
  timeout 120 "$browser" $chromium_flags --user-data-dir="$3/profile-dom" --dump-dom "$1" \
    >"$2" 2>"$3/chromium-dom.log" || fail "chromium --dump-dom failed"
}

# chromium_screenshot URL PNG WORKDIR: a 1200x1600 screenshot of URL; its size is in $shot_size.
chromium_screenshot() {
  # shellcheck disable=SC2086
  timeout 120 "$browser" $chromium_flags --user-data-dir="$3/profile-shot" --window-size=1200,1600 \
    --hide-scrollbars --screenshot="$2" "$1" >"$3/chromium-shot.log" 2>&1 ||
    fail "chromium --screenshot failed"
  [ -f "$2" ] || fail "no screenshot"
  shot_size=$(wc -c <"$2")
  # A blank 1200x1600 page compresses to a few KB; a report's text and charts make far more.
  [ "$shot_size" -gt 30000 ] || fail "the screenshot is only $shot_size bytes: the page looks empty"
}

# chromium_layout HTML WIDTH WORKDIR: HTML (a file) laid out in a window WIDTH px wide must fit it:
# layout_check.js, appended to a copy, measures the page in the browser; each thing that does not
# fit is printed and fails the test.
chromium_layout() {
  { cat "$1" && printf '<script>\n' && cat "$(dirname "$0")/layout_check.js" &&
    printf '</script>\n'; } >"$3/layout.html"
  # shellcheck disable=SC2086
  timeout 120 "$browser" $chromium_flags --user-data-dir="$3/profile-layout" \
    --window-size="$2,1600" --dump-dom "file://$3/layout.html" >"$3/layout-dom.html" \
    2>"$3/chromium-layout.log" || fail "chromium --dump-dom of the layout check failed"
  sed -n '/<pre id="layout-check">/,/<\/pre>/p' "$3/layout-dom.html" |
    sed -e 's/<[^>]*>//g' -e 's/&quot;/"/g' -e "s/&#39;/'/g" -e 's/&amp;/\&/g' >"$3/layout.txt"
  grep -qx "LAYOUT OK" "$3/layout.txt" && return 0
  [ -s "$3/layout.txt" ] || fail "the layout check did not run (see $3/layout-dom.html)"
  cat "$3/layout.txt" >&2
  fail "the page does not fit a $2 px window"
}
