# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# estimate_reference.py - computes with SciPy the expected numbers test_estimate.c checks; the test
# embeds its output and does not run this (the build needs no SciPy). Usage, with Debian's
# python3-scipy installed: /usr/bin/python3 tests/unit/estimate_reference.py
import math

from scipy import stats

# The comparable history of test_estimate.c: the baseline scores of its two earlier runs.
RUNS = [[100.0, 103.0, 98.0, 101.0], [200.0, 196.0, 205.0, 199.0, 203.0]]
REPS = 5  # the estimated plan's blocks
TARGET = 1.0  # --precision, in %

df_sum = ss = 0.0
for scores in RUNS:
    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1))
    cv = 100 * sd / mean
    df_sum += n - 1
    ss += (n - 1) * cv * cv
pooled = math.sqrt(ss / df_sum)


def quantiles(n):
    # Welch's df with n scores and equal standard deviations in both groups is 2 (n - 1).
    df = 2 * (n - 1)
    return stats.t.ppf(0.975, df), stats.t.ppf(0.80, df)


def detectable(n):
    t975, t80 = quantiles(n)
    return (t975 + t80) * pooled * math.sqrt(2 / n)


def half_width(n):
    return quantiles(n)[0] * pooled * math.sqrt(2 / n)


need = 3
while half_width(need) > TARGET:
    need += 1
t975, t80 = quantiles(REPS)
print(f"pooled within-run sd   {pooled:.12g} %")
print(f"t(0.975, {2 * (REPS - 1)})          {t975:.12g}")
print(f"t(0.80, {2 * (REPS - 1)})           {t80:.12g}")
print(f"detectable, {REPS} blocks  {detectable(REPS):.12g} %")
print(f"blocks for +-{TARGET} % CI   {need}")
print(f"detectable, {need} blocks {detectable(need):.12g} %")
