#!/usr/bin/python3
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# estimate_reference.py - prints the numbers tests/unit/test_estimate.c checks the estimate of a
# plan against, computed here with NumPy and SciPy from the same history, apart from the C code:
# the pooled sd of the paired log ratios (each load condition against its run's baseline, block by
# block), its 80 % chi-square interval, the detectable effect at 5 blocks (t(0.975) + t(0.80)) sd /
# sqrt(n) at each end, the blocks whose 95 % half-width meets the default precision target
# (0.62 x the 1 % margin) and the real time of a trial (the runs' mean wall time per trial: median,
# 25th and 75th percentile over runs). Run with /usr/bin/python3 (Debian: python3-numpy,
# python3-scipy); the test needs neither.
import numpy as np
from scipy import stats

# (baseline scores by block, [each load condition's scores by block], wall seconds of a trial)
RUNS = [
    ([100.0, 103.0, 98.0, 101.0], [[97.0, 101.0, 95.0, 99.0]], 6.9),
    ([200.0, 196.0, 205.0, 199.0, 203.0],
     [[194.0, 192.0, 196.0, 195.0, 199.0], [190.0, 189.0, 193.0, 188.0, 197.0]], 7.1),
    ([50.0, 51.0, 49.5], [[49.0, 50.2, 48.0]], 7.3),
    ([80.0, 81.0, 79.0], [], 7.6),  # the baseline alone: a time, no log ratios
]
BLOCKS = 5
TARGET = 0.62 * 1.0
CONFIDENCE = 0.80


def detectable(sd, n):
    delta = (stats.t.ppf(0.975, n - 1) + stats.t.ppf(0.80, n - 1)) * sd / np.sqrt(n)
    return -100 * np.expm1(-delta)


df = ss = 0.0
ratios = 0
for base, loads, _ in RUNS:
    for load in loads:
        d = np.log(np.array(load) / np.array(base))
        df += len(d) - 1
        ss += (len(d) - 1) * np.var(d, ddof=1)
        ratios += len(d)
sd = np.sqrt(ss / df)
tail = (1 - CONFIDENCE) / 2
sd_low = sd * np.sqrt(df / stats.chi2.ppf(1 - tail, df))
sd_high = sd * np.sqrt(df / stats.chi2.ppf(tail, df))
print(f"#define REF_RATIOS {ratios}")
print(f"#define REF_DF {df:.0f}")
print(f"#define REF_SD_LOG {sd:.12g}")
print(f"#define REF_SD_LOG_LOW {sd_low:.12g}")
print(f"#define REF_SD_LOG_HIGH {sd_high:.12g}")
print(f"#define REF_DETECTABLE_5 {detectable(sd, BLOCKS):.12g}")
print(f"#define REF_DETECTABLE_5_LOW {detectable(sd_low, BLOCKS):.12g}")
print(f"#define REF_DETECTABLE_5_HIGH {detectable(sd_high, BLOCKS):.12g}")

n = 3
while stats.t.ppf(0.975, n - 1) * sd / np.sqrt(n) > np.log1p(TARGET / 100):
    n += 1
print(f"#define REF_TARGET_BLOCKS {n}")
print(f"#define REF_TARGET_DETECTABLE {detectable(sd, n):.12g}")

walls = np.array([w for _, _, w in RUNS])
print(f"#define REF_TRIAL_SECONDS {np.median(walls):.12g}")
print(f"#define REF_TRIAL_SECONDS_LOW {np.percentile(walls, 25):.12g}")
print(f"#define REF_TRIAL_SECONDS_HIGH {np.percentile(walls, 75):.12g}")
