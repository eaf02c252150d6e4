#!/usr/bin/env python3
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# dimension_reference.py - reference values for test_stats_dimension (stats/dimension.h): the
# pooled variance of paired log ratios by runs per trial, and the count that gives the narrowest
# 95 % interval in a plan's time, by NumPy and SciPy. Run: python3 dimension_reference.py
import math

import numpy as np
from scipy import stats

# Earlier runs' paired log ratios (one condition each here) and their runs per trial.
runs = [([0.031, -0.012, 0.044, 0.008, -0.020, 0.015], 1),
        ([0.052, -0.031, 0.007, 0.061, -0.044, 0.018, 0.025], 1),
        ([0.011, 0.024, -0.006, 0.019, 0.002], 2),
        ([-0.004, 0.017, 0.030, 0.009, 0.012, -0.008], 2)]
ss = {}
df = {}
for values, k in runs:
    v = np.array(values)
    s = ((v - v.mean()) ** 2).sum()
    print("run: ss %.17g df %d runs %d" % (s, len(v) - 1, k))
    ss[k] = ss.get(k, 0) + s
    df[k] = df.get(k, 0) + len(v) - 1
for k in sorted(ss):
    print("V_%d %.17g on %d df" % (k, ss[k] / df[k], df[k]))


def cost(v, k, o, b, per_block, fill, min_blocks):
    trial = o + k * b
    if fill <= 0:
        return v * trial
    n = math.floor(fill / (per_block * trial))
    if n < max(min_blocks, 2):
        return math.inf
    return stats.t.ppf(0.975, n - 1) ** 2 * v / n


# quick (4 trials a block, 78 s, at least 5 blocks) and a plan with a count of blocks
for name, v1, v2, args in [("quick idle", 0.0060, 0.0030, (1.02, 0.98, 4, 78.0, 5)),
                           ("quick busy", 0.0050, 0.0062, (1.12, 1.09, 4, 78.0, 5)),
                           ("count of blocks", 0.0050, 0.0030, (1.0, 1.0, 4, 0.0, 0))]:
    c1, c2 = cost(v1, 1, *args), cost(v2, 2, *args)
    print("%s: cost k=1 %.17g k=2 %.17g -> k=%d" % (name, c1, c2, 1 if c1 <= c2 else 2))
