#!/usr/bin/python3
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# fit_reference.py - prints the reference values tests/unit/test_fit.c checks the cost model's
# fits against, computed independently with NumPy (least squares on the weighted system, not the
# normal equations) and SciPy's t, F and chi-squared distributions. Run with /usr/bin/python3
# (Debian: python3-numpy, python3-scipy); the test itself needs neither.
import numpy as np
from scipy import stats

np.set_printoptions(precision=17)


def wls(y, columns, se, intercept):
    """Weighted least squares as fit.h describes it: covariance max(1, RSS/df) (X'WX)^-1."""
    y = np.asarray(y, float)
    w = 1 / np.asarray(se, float) ** 2
    x = np.column_stack(([np.ones(len(y))] if intercept else []) + [np.asarray(c, float) for c in columns])
    sw = np.sqrt(w)
    coef, *_ = np.linalg.lstsq(x * sw[:, None], y * sw, rcond=None)
    resid = y - x @ coef
    rss = float(np.sum(w * resid**2))
    df = len(y) - x.shape[1]
    scale = max(1.0, rss / df)
    cov = scale * np.linalg.inv((x * w[:, None]).T @ x)
    se_coef = np.sqrt(np.diag(cov))
    t = stats.t.ppf(0.975, df)
    centre = np.sum(w * y) / np.sum(w) if intercept else 0.0
    r2 = 1 - rss / float(np.sum(w * (y - centre) ** 2))
    return coef, se_coef, coef - t * se_coef, coef + t * se_coef, rss, r2, stats.chi2.sf(rss, df)


def hinge(x, y, se):
    """Profile least squares over knots at observed x with two points above; F-test; knot range."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    w = 1 / np.asarray(se, float) ** 2
    n = len(x)

    def fit(knot):
        h = np.maximum(0, x - knot)
        b = np.sum(w * h * y) / np.sum(w * h * h)
        return b, float(np.sum(w * (y - b * h) ** 2)), float(np.sum(w * h * h))

    line_b, line_rss, line_shh = fit(0.0)
    knots = sorted(k for k in set(x) if np.sum(x > k) >= 2)
    fits = [(fit(k), k) for k in knots]
    (b, rss, shh), knot = min(fits, key=lambda f: (f[0][1], f[1]))
    df = n - 2
    f = (line_rss - rss) / (rss / df)
    p = stats.f.sf(f, 1, df)
    bound = rss * (1 + stats.f.ppf(0.95, 1, df) / df)
    inside = [k for (fb, k) in fits if fb[1] <= bound]
    return dict(knot=knot, slope=b, slope_se=np.sqrt(max(1, rss / df) / shh), rss=rss,
                line_slope=line_b, line_se=np.sqrt(max(1, line_rss / (n - 1)) / line_shh),
                line_rss=line_rss, f=f, p=p, knot_low=min(inside), knot_high=max(inside))


def show(name, values):
    print(f"{name}: " + ", ".join(repr(float(v)) for v in np.atleast_1d(values)))


# The cost preset's conditions: wake-ups per second and threads, in thousands; slowdowns in %.
WAKE = [3, 3, 3, 30, 0, 0.3]
THREADS = [15, 1.5, 0.15, 15, 15, 1.5]
SLOW = [-1.3, -1.1, -1.4, -12.9, -0.2, 0.1]
SE = [0.4, 0.35, 0.5, 0.6, 0.3, 0.45]
for intercept in (0, 1):
    coef, se, lo, hi, rss, r2, chi2p = wls(SLOW, [WAKE, THREADS], SE, intercept)
    print(f"# cost, intercept {intercept}")
    for name, v in (("coef", coef), ("se", se), ("ci_low", lo), ("ci_high", hi),
                    ("rss", rss), ("r2", r2), ("chi2_p", chi2p)):
        show(name, v)

# Points that scatter more than their errors: the scale s^2 = RSS/df > 1 widens the errors.
SCATTER = [-0.3, -2.5, 0.8, -10.0, 1.5, -1.2]
coef, se, lo, hi, rss, r2, chi2p = wls(SCATTER, [WAKE, THREADS], SE, 0)
print("# scatter, intercept 0")
for name, v in (("coef", coef), ("se", se), ("ci_low", lo), ("ci_high", hi), ("rss", rss),
                ("r2", r2), ("chi2_p", chi2p)):
    show(name, v)

# A dose series with a knee at 5,000 threads, and one that is a straight line plus noise.
DOSE_X = [0.5, 1, 2, 5, 10, 15, 20, 30]
KNEE_Y = [0.1, -0.1, 0.05, -0.05, -2.4, -5.1, -7.4, -12.6]
LINE_Y = [-0.2, -0.35, -0.9, -2.1, -4.0, -6.2, -7.9, -12.1]
# A knee the data place less exactly: several knots within the bound.
SOFT_Y = [0.4, -0.5, 0.3, -1.2, -2.2, -5.0, -6.6, -12.5]
DOSE_SE = [0.3, 0.3, 0.35, 0.3, 0.4, 0.4, 0.5, 0.6]
for name, y in (("knee", KNEE_Y), ("line", LINE_Y), ("soft", SOFT_Y)):
    print(f"# hinge, {name}")
    for k, v in hinge(DOSE_X, y, DOSE_SE).items():
        show(k, v)

print("# chi2.sf(x, df)")
for x, df in ((3.1, 1), (3.1, 2), (3.1, 3), (7.5, 4), (7.5, 5), (20.0, 9), (0.2, 7)):
    show(f"chi2 {x} {df}", stats.chi2.sf(x, df))
print("# f.sf(f, d1, d2)")
for f, d1, d2 in ((4.2, 1, 6), (0.5, 1, 3), (12.0, 2, 5)):
    show(f"f {f} {d1} {d2}", stats.f.sf(f, d1, d2))
