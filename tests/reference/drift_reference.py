#!/usr/bin/python3
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# drift_reference.py - prints the reference values tests/unit/test_stats_drift.c checks the trend
# of a blocked run against: SciPy's linregress of the log scores (and of the log ratios) on the
# block number, with the change over the run and its t interval. Run with /usr/bin/python3
# (Debian: python3-numpy, python3-scipy); the test itself needs neither.
import numpy as np
from scipy import stats

nan = float("nan")


def tq(p, df):
    """SciPy's t quantile polished by two Newton steps (its inversion is good to about 1e-9)."""
    d = stats.t(df)
    x = d.ppf(p)
    for _ in range(2):
        x -= ((1 - p) - d.sf(x)) / d.pdf(x)
    return x


def trend(y):
    y = np.asarray(y, float)
    b = np.arange(len(y), dtype=float)
    ok = ~np.isnan(y)
    b, y = b[ok], np.log(y[ok])
    fit = stats.linregress(b, y)
    span = b[-1] - b[0]
    half = tq(0.975, len(y) - 2) * fit.stderr * span
    change = fit.slope * span
    print(f"slope = {fit.slope!r}")
    print(f"se = {fit.stderr!r}")
    print(f"change = {100 * np.expm1(change)!r}")
    print(f"change_ci = {(100 * np.expm1(change - half), 100 * np.expm1(change + half))!r}")


base = [100.0, 100.4, 99.1, 101.3, 100.9, nan, 101.8, 102.6, 101.9, 103.1]
cond = [97.2, 97.9, 96.0, 98.4, nan, 98.0, 98.6, 99.9, 98.8, 100.4]
print("# the baseline's scores (block 5 missing)")
trend(base)
print("# the effect: condition / baseline over complete blocks")
trend([c / b for b, c in zip(base, cond)])
