#!/usr/bin/python3
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# sequential_reference.py - prints the group-sequential boundaries tests/unit/test_stats_sequential.c
# checks against, computed without the recursion the C code uses: for looks at information
# fractions t_k the z statistics are multivariate normal with Corr(Z_i, Z_j) = sqrt(t_i / t_j),
# and each boundary c_k is found by bisection so that
#   P(|Z_1| < c_1, ..., |Z_{k-1}| < c_{k-1}) - P(|Z_1| < c_1, ..., |Z_k| < c_k)
# equals the alpha the Lan-DeMets O'Brien-Fleming-type function spends between t_{k-1} and t_k
# (each side spending its one-sided alpha/2), with SciPy's multivariate normal CDF (Genz's
# method). Run with /usr/bin/python3 (Debian: python3-numpy, python3-scipy); the test needs
# neither. The literature's values for five equal looks at alpha = 0.05 are 4.877, 3.357, 2.680,
# 2.290, 2.031 (Lan and DeMets' function as tabulated by DeMets and Lan 1994).
import numpy as np
from scipy import stats


def spent(t, alpha):
    return 2 * (2 - 2 * stats.norm.cdf(stats.norm.ppf(1 - alpha / 4) / np.sqrt(t)))


def inside(bounds, fractions):
    k = len(bounds)
    if k == 1:
        return 1 - 2 * stats.norm.sf(bounds[0])
    t = np.asarray(fractions[:k])
    corr = np.sqrt(np.minimum.outer(t, t) / np.maximum.outer(t, t))
    b = np.asarray(bounds)
    return stats.multivariate_normal.cdf(b, mean=np.zeros(k), cov=corr, lower_limit=-b,
                                         abseps=1e-12, releps=1e-10, maxpts=4_000_000)


def boundaries(fractions, alpha):
    bounds = []
    previous_inside, previous_spent = 1.0, 0.0
    for k, t in enumerate(fractions):
        target = spent(t, alpha) - previous_spent
        lo, hi = 0.5, 12.0
        for _ in range(45):
            mid = (lo + hi) / 2
            if previous_inside - inside(bounds + [mid], fractions) > target:
                lo = mid
            else:
                hi = mid
        bounds.append((lo + hi) / 2)
        previous_inside = inside(bounds, fractions)
        previous_spent = spent(t, alpha)
    return bounds


for fractions in [[0.2, 0.4, 0.6, 0.8, 1.0], [0.3, 0.7, 1.0], [0.25, 0.5, 1.0]]:
    print(f"looks {fractions}: {boundaries(fractions, 0.05)!r}")

# A long run's first look (3 blocks of 80, 2 comparisons: alpha 0.025 each) spends about 1e-37:
# its boundary comes from the lower tail, as the C code takes it.
first = 2 * 2 * stats.norm.cdf(-stats.norm.ppf(1 - 0.025 / 4) / np.sqrt(3 / 80))
print(f"first look of 80 blocks: {stats.norm.isf(first / 2)!r}")
print(f"z of p = 1e-20: {stats.norm.isf(0.5e-20)!r}")
