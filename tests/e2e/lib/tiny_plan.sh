# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# tiny_plan.sh - the smallest real run the end-to-end scripts share: two conditions, one trial
# each, a short built-in benchmark and no quiet gate, whose finished run is exported into a
# folder by itself. Sourced; appends to the file, so a caller may first write a byte order mark.
# usage: tiny_plan FILE EXPORT_FOLDER
tiny_plan() {
  cat >>"$1" <<PLAN
conditions = baseline, sleep:50
bench = builtin-st
reps = 1
warmup = 0
settle = 100ms
work-scale = 0.05
quiet-cpu = off
export-to = $2
PLAN
}
