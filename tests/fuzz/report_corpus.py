#!/usr/bin/env python3
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# report_corpus.py - writes the seed corpus of fuzz_report (corpus/report): two runs a file, in the
# byte order fuzz_report.c reads its choices, each a case a report once failed on or must hold:
# an effect near the largest double, NaN and infinities, the most metrics a trial holds, a census
# and where the time went, burns for the calibration, hostile names. Run it after changing the
# order fuzz_report.c reads in: python3 tests/fuzz/report_corpus.py
import os
import struct

# Indices into fuzz_report.c's tables.
EXTREME = {"max": 0, "-max": 1, "5.6e-292": 2, "5e-292": 3, "1e-300": 4, "1e15": 5, "1e-9": 6,
           "1": 7, "0": 8, "-1": 9, "nan": 10, "inf": 11, "-inf": 12, "min": 13, "true-min": 14,
           "1e308": 15, "3.5": 16, "100": 17, "1e-320": 18, "15 nines": 19, "0.5": 20, "2": 21,
           "1e6": 22, "-0": 23}
CONDITION = {"baseline": 0, "sleep:1500": 1, "sleep:5000": 2, "sleep:15000": 3, "burn:10%": 4,
             "burn:50%": 5, "yield:4": 6, "procs:10": 7, "wait:100": 8, "long": 9, "osc52": 10,
             "bidi": 11, "newline": 12, "bad utf-8": 13, "empty": 14}
BENCH = {"builtin-st": 0, "builtin-mt": 1, "by-hand": 2, "7zip": 3, "escape": 4, "long": 5}
METRIC = {"compress": 0, "float": 1, "integer": 2, "memory": 3, "load.switches_per_s": 4,
          "timer.overshoot_us": 5, "load.cpu_percent": 6, "load.child_processes": 7,
          "census.cpu_ms": 8, "state.S": 9, "state.R": 10, "state.D": 11, "time.trial_s": 12,
          "time.bench_s": 13, "time.settle_s": 14, "time.load_start_s": 15,
          "time.load_stop_s": 16, "time.census_s": 17, "outside.cpu_percent": 18,
          "iterations": 19, "escape": 20, "bidi": 21}


def number(value):
    """A number: one of the table's by name, or any double (8 raw bytes after 0xff)."""
    if isinstance(value, str):
        return bytes([EXTREME[value]])
    return b"\xff" + struct.pack("<d", value)


def run(conditions, benches, blocks, score, metrics=lambda c, b, k: [], host=0, timer=False):
    """One run: every trial done with score(condition, block) and metrics(condition, block,
    bench) as (name, value) pairs, or [] (the 256 distinct ones when "many")."""
    out = bytes([len(conditions) - 1, len(benches) - 1, blocks - 1, 0])
    for i, c in enumerate(conditions):
        out += bytes([1]) if i == 0 and c == "baseline" else (
            bytes([0, CONDITION[c]]) if i == 0 else bytes([CONDITION[c]]))
    out += bytes(BENCH[b] for b in benches)
    out += bytes([7, 0, host, 0, 1, 1])  # seed, started_at, host, 8 CPUs, machine id, memory
    for block in range(1, blocks + 1):
        for c in conditions:
            for b in benches:
                m = metrics(c, block, b)
                if m == "many":
                    out += bytes([2]) + number("1e15") * 256
                else:
                    out += bytes([3, len(m)])
                    for name, value in m:
                        out += bytes([METRIC[name]]) + number(value)
                out += bytes([0, 1]) + number(score(c, block)) + number("0.5")
                out += bytes([3, 100, 9, 0])
                out += bytes([1, 1, 0]) + number("100") if timer else bytes([0])
    return out + bytes([1, 0, 1])


def write(name, data):
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "report")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


SLEEPS = ["baseline", "sleep:1500", "sleep:5000"]


def extreme_effect(base, other):
    return lambda c, block: base if c == "baseline" else other


write("html-axis-overflow", run(SLEEPS, ["builtin-st"], 3, extreme_effect("5.6e-292", "1e15"))
      + run(SLEEPS, ["builtin-st"], 3, extreme_effect("1e15", "5.6e-292"), host=1))
write("largest-double", run(SLEEPS, ["builtin-st"], 3, extreme_effect("max", "true-min"))
      + run(SLEEPS, ["builtin-st"], 3, extreme_effect("-max", "1e308"), host=1))
write("not-finite", run(SLEEPS, ["builtin-st", "by-hand"], 2, extreme_effect("nan", "inf"))
      + run(SLEEPS, ["builtin-st"], 4, lambda c, block: "-inf" if block == 2 else "1e-320",
            host=1))
write("most-metrics", run(["baseline", "sleep:1500"], ["builtin-st"], 2,
                          extreme_effect("100", "3.5"), metrics=lambda c, block, b: "many")
      + run(["baseline", "sleep:1500"], ["builtin-st"], 2, extreme_effect("3.5", "100"), host=1))
KERNELS = lambda c, block, b: [("compress", "max"), ("float", "5.6e-292"), ("integer", "nan"),
                               ("memory", 1e15 if block % 2 else 5.6e-292)]
CENSUS = lambda c, block, b: [("state.S", "1e308"), ("state.R", "-1"), ("census.cpu_ms", "max"),
                              ("load.switches_per_s", "inf"), ("load.child_processes", "1e15"),
                              ("time.trial_s", "max"), ("time.bench_s", "1e308"),
                              ("time.settle_s", "-max"), ("outside.cpu_percent", "1e15"),
                              ("timer.overshoot_us", "nan"), ("iterations", "1e-320")]
write("kernels-census-time",
      run(SLEEPS, ["builtin-st"], 3, extreme_effect("1", "1e15"), metrics=KERNELS, timer=True)
      + run(SLEEPS, ["builtin-st"], 3, extreme_effect("1e-9", "2"), metrics=CENSUS, host=1))
BURNS = ["baseline", "burn:10%", "burn:50%"]
write("calibration", run(BURNS, ["builtin-st"], 3, extreme_effect("1e15", "1e-9"),
                         metrics=lambda c, block, b: [("load.cpu_percent", "1e308")])
      + run(BURNS, ["builtin-st"], 3, extreme_effect("100", "nan"),
            metrics=lambda c, block, b: [("load.cpu_percent", "-inf")], host=1))
write("hostile-names", run(["osc52", "bidi", "newline", "bad utf-8", "long"], ["escape", "long"],
                           2, extreme_effect("1", "2"), metrics=lambda c, block, b: [
                               ("escape", "1"), ("bidi", "2")], host=2)
      + run(["empty", "yield:4", "procs:10"], ["7zip"], 2, extreme_effect("1", "1"), host=3))
