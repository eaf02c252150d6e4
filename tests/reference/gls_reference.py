#!/usr/bin/python3
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# gls_reference.py - prints the reference values tests/unit/test_stats_gls.c and
# test_stats_calibration.c check against: generalized least squares with the shared-baseline
# covariance (NumPy's lstsq on the system whitened by NumPy's Cholesky, not the normal
# equations), the block model's residual variance (lstsq on a dummy-coded two-way design), TOST
# of a coefficient, the knee test's p values, and the calibration slope, with SciPy's t and
# normal distributions. Run with /usr/bin/python3 (Debian: python3-numpy, python3-scipy); the
# tests themselves need neither.
import numpy as np
from scipy import stats

np.set_printoptions(precision=17)


def tq(p, df):
    """SciPy's t quantile polished by two Newton steps (its inversion is good to about 1e-9)."""
    if np.isinf(df):
        return stats.norm.ppf(p)
    d = stats.t(df)
    x = d.ppf(p)
    for _ in range(2):
        x -= ((1 - p) - d.sf(x)) / d.pdf(x)
    return x


def tcdf(t, df):
    return stats.norm.cdf(t) if np.isinf(df) else stats.t.cdf(t, df)


def gls(y, x, v, df, conf=0.95):
    y = np.asarray(y, float)
    x = np.asarray(x, float).reshape(len(y), -1)
    l = np.linalg.cholesky(np.asarray(v, float))
    ys = np.linalg.solve(l, y)
    xs = np.linalg.solve(l, x)
    coef, *_ = np.linalg.lstsq(xs, ys, rcond=None)
    cov = np.linalg.inv(xs.T @ xs)
    se = np.sqrt(np.diag(cov))
    q = tq(1 - (1 - conf) / 2, df)
    chi2 = float(np.sum((ys - xs @ coef) ** 2))
    return coef, se, coef - q * se, coef + q * se, chi2


def shared(se_cond, se_base):
    se_cond = np.asarray(se_cond, float)
    return np.full((len(se_cond), len(se_cond)), se_base**2) + np.diag(se_cond**2)


def show(name, value):
    print(f"{name} = {value!r}")


print("# cost model: slowdown (log units) on wake-ups and threads, shared baseline")
wake = [3, 3, 3, 30, 0, 0.3]
threads = [15, 1.5, 0.15, 15, 15, 1.5]
y = [-0.013, -0.011, -0.014, -0.129, -0.002, 0.001]
se_cond = [0.004, 0.0035, 0.005, 0.006, 0.003, 0.0045]
se_base = 0.004
v = shared(se_cond, se_base)
x = np.column_stack([wake, threads])
for df in [np.inf, 7]:
    coef, se, lo, hi, chi2 = gls(y, x, v, df)
    show(f"coef df={df}", list(coef))
    show(f"se df={df}", list(se))
    show(f"ci_low df={df}", list(lo))
    show(f"ci_high df={df}", list(hi))
    show(f"chi2 df={df}", chi2)
    margin = 0.001
    b, s = coef[1], se[1]
    show(f"tost threads margin {margin} df={df}",
         max(1 - tcdf((b + margin) / s, df), tcdf((b - margin) / s, df)))
    show(f"p threads df={df}", 2 * tcdf(-abs(b / s), df))

print("# the block model: 3 conditions and the baseline over 6 blocks (block 4 incomplete)")
nan = float("nan")
base = [100.0, 98.2, 101.5, 99.0, 100.7, 97.9]
c1 = [98.1, 96.4, 99.2, 97.5, nan, 95.8]
c2 = [95.3, 93.0, 96.9, 94.1, 95.9, 93.2]
c3 = [90.2, 88.9, 91.8, 88.7, 90.8, 88.0]
groups = np.array([base, c1, c2, c3])
complete = ~np.isnan(groups).any(axis=0)
logs = np.log(groups[:, complete])
g, n = logs.shape
rows = []
for gi in range(g):
    for b in range(n):
        rows.append([1.0] + [1.0 * (gi == j) for j in range(1, g)] + [1.0 * (b == j) for j in range(1, n)])
design = np.array(rows)
resp = logs.reshape(-1)
coef, *_ = np.linalg.lstsq(design, resp, rcond=None)
rss = float(np.sum((resp - design @ coef) ** 2))
df = (g - 1) * (n - 1)
s2 = rss / df
effects = coef[1:g]
show("effects", list(effects))
show("s2", s2)
show("df", df)
vb = s2 / n * (np.ones((g - 1, g - 1)) + np.eye(g - 1))

print("# calibration: burns of 2, 5, 10 % against the slope 1")
burn = np.array([2.0, 5.0, 10.0])
xb = -np.log1p(-burn / 100)
yb = -effects
coef, se, lo, hi, chi2 = gls(yb, xb, vb, df)
show("slope", coef[0])
show("slope_se", se[0])
show("slope_ci", (lo[0], hi[0]))
half = tq(0.975, df) * np.sqrt(vb[2, 2])
show("largest_ci", (yb[2] - half, yb[2] + half))
show("largest_expected", xb[2])

print("# knee: doses 1..6 (thousands of sleepers), y bends after 3")
dose = np.array([1.0, 2, 3, 4, 5, 6])
yk = np.array([-0.010, -0.021, -0.029, -0.052, -0.069, -0.092])
sek = np.full(6, 0.003)
vk = shared(sek, 0.003)
line = gls(yk, dose, vk, np.inf)
show("line slope", line[0][0])
show("line se", line[1][0])
ps = {}
for k in dose:
    if (dose <= k).sum() >= 1 and (dose > k).sum() >= 2:
        xk = np.column_stack([dose, np.maximum(0, dose - k)])
        c, s, *_ = gls(yk, xk, vk, np.inf)
        ps[k] = (2 * stats.norm.cdf(-abs(c[1] / s[1])), c[1], s[1])
best = min(ps, key=lambda k: ps[k][0])
show("candidates", len(ps))
show("knot", best)
show("p_min", ps[best][0])
show("extra", (ps[best][1], ps[best][2]))
show("p", min(1.0, len(ps) * ps[best][0]))
