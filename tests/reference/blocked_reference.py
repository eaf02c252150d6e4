#!/usr/bin/python3
# SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors
# blocked_reference.py - prints the reference values tests/unit/test_stats_blocked.c and
# test_stats_multiplicity.c check the blocked statistics against: t, normal and F quantiles, a
# paired t interval and TOST on log ratios, Welch on log scores, the F interval of a variance
# ratio, the exact power at the detectable effect, and Holm's adjusted p values, all from SciPy's
# own distributions. Run with /usr/bin/python3 (Debian: python3-numpy, python3-scipy); the tests
# themselves need neither.
import numpy as np
from scipy import stats

nan = float("nan")


def polished(dist, p):
    """dist.ppf(p) refined by two Newton steps on the smaller tail: SciPy's t and F inversions are
    good to only about 1e-9, its distribution functions to about 1e-15."""
    x = dist.ppf(p)
    for _ in range(2):
        x -= (dist.cdf(x) - p if p < 0.5 else (1 - p) - dist.sf(x)) / dist.pdf(x)
    return x


def tq(p, df):
    return polished(stats.t(df), p)


def fq(p, d1, d2):
    return polished(stats.f(d1, d2), p)


def show(name, value):
    print(f"{name} = {value!r}")


print("# quantiles")
for p, df in [(0.975, 2), (0.975, 3), (0.975, 4), (0.975, 9), (0.95, 7), (0.8, 4),
              (0.995, 5.5), (0.99875, 9), (0.025, 19), (0.6, 200), (1 - 1e-9, 6)]:
    show(f"t({p}, {df})", tq(p, df))
for p in [0.6, 0.8, 0.975, 0.999, 1e-12, 0.02]:
    show(f"z({p})", stats.norm.ppf(p))
for p, d1, d2 in [(0.975, 7, 7), (0.025, 7, 7), (0.95, 3, 12), (0.05, 12.5, 3)]:
    show(f"F({p}, {d1}, {d2})", fq(p, d1, d2))
for p, df in [(0.9, 13), (0.1, 13), (0.5, 1), (0.001, 4), (0.999, 250.5)]:
    show(f"chi2({p}, {df})", stats.chi2.ppf(p, df))

# The blocked data set: 8 blocks, the condition ~3 % slower, block 6's condition trial missing.
base = np.array([101.2, 98.7, 103.5, 99.9, 97.1, 102.4, 100.3, 98.2])
cond = np.array([98.6, 95.1, 100.9, 97.4, 94.8, nan, 96.9, 95.7])
ok = ~np.isnan(cond)
d = np.log(cond[ok] / base[ok])
n = len(d)
m, s = d.mean(), d.std(ddof=1)
se = s / np.sqrt(n)
print("# paired on log ratios (7 complete blocks)")
show("mean_log", m)
show("sd_log", s)
show("percent", 100 * np.expm1(m))
res = stats.ttest_1samp(d, 0)
show("t", res.statistic)
show("p", res.pvalue)
for conf in [0.95, 1 - 0.05 / 3]:
    lo, hi = m - tq(1 - (1 - conf) / 2, n - 1) * se, m + tq(1 - (1 - conf) / 2, n - 1) * se
    show(f"ci{conf}", (100 * np.expm1(lo), 100 * np.expm1(hi)))
lo, hi = m - tq(0.95, n - 1) * se, m + tq(0.95, n - 1) * se
show("eq90", (100 * np.expm1(lo), 100 * np.expm1(hi)))
for margin in [1.0, 5.0]:
    band = np.log1p(margin / 100)
    p_low = stats.ttest_1samp(d, -band, alternative="greater").pvalue
    p_high = stats.ttest_1samp(d, band, alternative="less").pvalue
    show(f"tost_p margin {margin}", max(p_low, p_high))

print("# unpaired fallback: Welch on log scores (the same data, as if unpaired)")
lb, lc = np.log(base), np.log(cond[ok])
w = stats.ttest_ind(lc, lb, equal_var=False)
vb, vc = lb.var(ddof=1) / len(lb), lc.var(ddof=1) / len(lc)
df = (vb + vc) ** 2 / (vb**2 / (len(lb) - 1) + vc**2 / (len(lc) - 1))
show("welch_t", w.statistic)
show("welch_p", w.pvalue)
show("welch_df", df)
show("welch_ci95", tuple(100 * np.expm1(lc.mean() - lb.mean() + q * np.sqrt(vb + vc))
                         for q in (tq(0.025, df), tq(0.975, df))))

print("# variance ratio of log scores, F interval")
ratio = lc.var(ddof=1) / lb.var(ddof=1)
dc, db = len(lc) - 1, len(lb) - 1
show("ratio", ratio)
show("ratio_ci95", (ratio / fq(0.975, dc, db), ratio / fq(0.025, dc, db)))

print("# detectable effect and its exact power (noncentral t)")
for blocks in [5, 10]:
    sd = 0.02
    df = blocks - 1
    delta = (tq(0.975, df) + tq(0.8, df)) * sd / np.sqrt(blocks)
    show(f"detectable {blocks}", 100 * (1 - np.exp(-delta)))
    nc = delta / (sd / np.sqrt(blocks))
    q = tq(0.975, df)
    show(f"exact power {blocks}", stats.nct.sf(q, df, nc) + stats.nct.cdf(-q, df, nc))

print("# blocks until the detectable effect is at most a target (counting up from 3)")
for sd, target in [(0.02, 1.0), (0.01, 2.0), (0.005, 5.0)]:
    n = 3
    while 100 * (1 - np.exp(-(tq(0.975, n - 1) + tq(0.8, n - 1)) * sd / np.sqrt(n))) > target:
        n += 1
    show(f"blocks for detectable {target} % at sd {sd}", n)

print("# Holm adjusted p values")


def holm(p):
    p = np.asarray(p, float)
    k = len(p)
    order = np.argsort(p, kind="stable")
    adj = np.empty(k)
    running = 0.0
    for j, i in enumerate(order):
        running = max(running, min(1.0, (k - j) * p[i]))
        adj[i] = running
    return adj


for ps in [[0.01, 0.04, 0.03, 0.005], [0.2, 0.011, 0.6], [0.001, 0.0125, 0.02, 0.04, 0.3, 0.012]]:
    show(f"holm {ps}", list(holm(ps)))
