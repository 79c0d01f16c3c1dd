"""stats/: hypothesis tests, each scipy.stats' test with scipy's defaults (two-sided; pooled
t-test; Yates' correction at one degree of freedom; Shapiro-Wilk; exact or asymptotic KS as
scipy's method='auto' picks).

A test gives a map with fastmath's keys (`:stat` `:p-value` `:df`...) and scipy's name for the
statistic (`:statistic`). Its samples must be complete: a nil or NaN is an error saying how
many, since scipy would give NaN or leave them out only if asked.
"""

from __future__ import annotations

from typing import Any

from ...errors import runtime_error
from ...values import MAP_TYPES, Keyword, map_items, vec
from .budget import RANK, SORT, fits
from .entry import SCIPY, alpha_of, keyword_map, options, sides, stat, value


def _sample(xs: Any, who: str, what: str = "the sample", least: int = 2) -> Any:
    from . import sample

    x = sample.strict(xs, who, what)
    if len(x) < least:
        raise runtime_error(f"{who}: {what} needs at least {least} values, got {len(x)}")
    return x


def _interval(ci: Any) -> Any:
    return vec((value(ci.low), value(ci.high)))


def _common(stat_: Any, p: Any, *rest: tuple[str, Any]) -> Any:
    s = value(stat_)
    return keyword_map([("stat", s), ("statistic", s), ("p-value", value(p)), *rest])


@stat("t-test-one-sample", args=("[xs]", "[xs opts]"), needs=SCIPY,
      doc="Student's t-test that the mean is :mu (default 0) (scipy.stats.ttest_1samp): {:t :stat :p-value :df "
          ":n :estimate :mu :stderr :confidence-interval :sides}; opts :mu, :sides (:two-sided :greater :less), "
          ":alpha (0.05).",
      ex=(("(:p-value (stats/t-test-one-sample [5.1 4.9 5.6 5.8 6.0] {:mu 5}))", "0.08256829674577398"),))
def t_test_one_sample(xs: Any, opts: Any = None) -> Any:
    import scipy.stats

    from . import sample

    who = "stats/t-test-one-sample"
    o = options(opts, who, ("mu", "sides", "alternative", "alpha"))
    mu = sample.number(o.get("mu", 0), who, ":mu")
    x = _sample(xs, who)
    side, alpha = sides(o, who), alpha_of(o, who)
    r = scipy.stats.ttest_1samp(x, mu, alternative=side)
    return _t(r, side, alpha, x.std(ddof=1) / len(x) ** 0.5, ("n", len(x)), ("estimate", value(x.mean())),
              ("mu", mu))


def _t(r: Any, side: str, alpha: float, stderr: float, *rest: tuple[str, Any]) -> Any:
    t = value(r.statistic)
    return keyword_map([("t", t), ("stat", t), ("statistic", t), ("p-value", value(r.pvalue)), ("df", value(r.df)),
                        *rest, ("stderr", value(stderr)),
                        ("confidence-interval", _interval(r.confidence_interval(1 - alpha))),
                        ("sides", Keyword(side))])


@stat("t-test-two-samples", args=("[xs ys]", "[xs ys opts]"), needs=SCIPY,
      doc="The two-sample t-test, pooled by default (scipy.stats.ttest_ind, equal_var=True); "
          "{:equal-variances? false} for Welch's, {:paired? true} for the paired test (ttest_rel). Gives "
          "{:t :stat :p-value :df :nx :ny :estimate :stderr :confidence-interval :sides}; opts :sides, :alpha, "
          "and for the paired test :mu (the mean difference tested, default 0).",
      ex=(("(:p-value (stats/t-test-two-samples [1 2 3 4 5 6] [2 4 4 8 9 12 14]))", "0.06255312154747152"),
          ("(:df (stats/t-test-two-samples [1 2 3 4 5 6] [2 4 4 8 9 12 14] {:equal-variances? false}))",
           "8.290468689981966")))
def t_test_two_samples(xs: Any, ys: Any, opts: Any = None) -> Any:
    import scipy.stats

    from . import sample

    who = "stats/t-test-two-samples"
    o = options(opts, who, ("equal-variances?", "equal-var", "paired?", "sides", "alternative", "alpha", "mu"))
    side, alpha = sides(o, who), alpha_of(o, who)
    mu = sample.number(o.get("mu", 0), who, ":mu")
    if o.get("paired?") not in (None, False):
        x, y = sample.paired(xs, ys, who, drop=False)
        if len(x) < 2:
            raise runtime_error(f"{who}: a paired test needs at least 2 pairs, got {len(x)}")
        d = x - y
        r = scipy.stats.ttest_1samp(d, mu, alternative=side)
        return _t(r, side, alpha, d.std(ddof=1) / len(d) ** 0.5, ("n", len(d)), ("estimate", value(d.mean())),
                  ("paired?", True))
    if mu != 0:
        raise runtime_error(f"{who}: :mu (the mean difference tested) is for the paired test only",
                            hint="add {:paired? true}, or test (map - xs ys) with stats/t-test-one-sample")
    x, y = _sample(xs, who, "the first sample"), _sample(ys, who, "the second sample")
    equal = o.get("equal-variances?", o.get("equal-var", True)) not in (False, None)
    r = scipy.stats.ttest_ind(x, y, equal_var=equal, alternative=side)
    nx, ny, vx, vy = len(x), len(y), x.var(ddof=1), y.var(ddof=1)
    if equal:
        stderr = (((nx - 1) * vx + (ny - 1) * vy) / (nx + ny - 2) * (1 / nx + 1 / ny)) ** 0.5
    else:
        stderr = (vx / nx + vy / ny) ** 0.5
    return _t(r, side, alpha, stderr, ("nx", nx), ("ny", ny), ("estimate", value(x.mean() - y.mean())),
              ("equal-variances?", equal))


def _table(obs: Any, who: str) -> Any:
    """A contingency table as a 2-d array: a vector of rows, or a map {[row col] count}
    (stats/contingency-table's, rows and columns in their first-seen order)."""
    import numpy as np

    from ... import context
    from . import sample

    if type(obs) in MAP_TYPES:
        pairs = list(map_items(obs))
        context.check_size(len(pairs), f"{who}'s table")
        rows: dict[Any, int] = {}
        cols: dict[Any, int] = {}
        for k, _ in pairs:
            if not (hasattr(k, "__len__") and len(k) == 2):
                raise runtime_error(f"{who}: a table given as a map must be keyed by [row column] pairs",
                                    hint="build one with (stats/contingency-table xs ys)")
            rows.setdefault(k[0], len(rows))
            cols.setdefault(k[1], len(cols))
        context.check_size(len(rows) * len(cols), f"{who}'s table")
        table = np.zeros((len(rows), len(cols)))
        for (r, c), n in pairs:
            table[rows[r], cols[c]] = sample.number(n, who, "a count")
        return table
    rows_ = [sample.strict(r, who, "a row of the table") for r in sample.items(obs, who, "a table")]
    if not rows_ or len({len(r) for r in rows_}) != 1:
        raise runtime_error(f"{who}: a table must be rows of equal length, e.g. [[10 20] [30 25]]")
    return np.array(rows_)


@stat("chisq-test", args=("[table]", "[counts opts]"), needs=SCIPY,
      doc="Pearson's chi-squared test. Of a contingency table (a vector of rows, or a map {[row col] count}): "
          "independence, with Yates' correction at one degree of freedom (scipy.stats.chi2_contingency; "
          "{:correction? false} without it), giving {:stat :chi2 :p-value :df :expected}. Of a vector of counts: "
          "goodness of fit to {:p probabilities} or {:expected counts}, equal by default (scipy.stats.chisquare).",
      ex=(("(:p-value (stats/chisq-test [[10 20] [30 25]]))", "0.0999616438735349"),
          ("(:p-value (stats/chisq-test [16 18 16 10] {:p [0.25 0.25 0.25 0.25]}))", "0.49363462271172787")))
def chisq_test(obs: Any, opts: Any = None) -> Any:
    import numpy as np
    import scipy.stats

    from . import sample

    who = "stats/chisq-test"
    o = options(opts, who, ("p", "expected", "correction?", "correction"))
    items = None if type(obs) in MAP_TYPES else sample.items(obs, who, "counts or a table")
    if items is not None and items and all(type(x) in (int, float) or x is None for x in items):
        f_obs = sample.strict(items, who, "the counts")
        if "p" in o:
            p = sample.strict(o["p"], who, "the probabilities")
            if len(p) != len(f_obs) or abs(p.sum() - 1) > 1e-8:
                raise runtime_error(f"{who}: :p must be {len(f_obs)} probabilities summing to 1")
            f_exp = p * f_obs.sum()
        elif "expected" in o:
            f_exp = sample.strict(o["expected"], who, "the expected counts")
        else:
            f_exp = None
        r = scipy.stats.chisquare(f_obs, f_exp)
        return _common(r.statistic, r.pvalue, ("chi2", value(r.statistic)), ("df", len(f_obs) - 1))
    table = _table(obs, who)
    correction = o.get("correction?", o.get("correction", True)) not in (False, None)
    if (table.sum(axis=1) == 0).any() or (table.sum(axis=0) == 0).any():
        raise runtime_error(f"{who}: a row or column of the table sums to zero",
                            hint="drop the empty rows and columns first")
    r = scipy.stats.chi2_contingency(table, correction=correction)
    expected = vec(vec(value(x) for x in row) for row in np.asarray(r.expected_freq))
    return _common(r.statistic, r.pvalue, ("chi2", value(r.statistic)), ("df", int(r.dof)),
                   ("expected", expected))


@stat("contingency-table", args="[xs ys]",
      doc="The counts of each [x y] pair of two equally long collections, as a map {[x y] count} in first-seen "
          "order (what stats/chisq-test reads; pandas' crosstab).",
      ex=(('(stats/contingency-table [:a :a :b] [1 2 1])', "{[:a 1] 1, [:a 2] 1, [:b 1] 1}"),))
def contingency_table(xs: Any, ys: Any) -> Any:
    from ...values import make_map
    from . import sample

    who = "stats/contingency-table"
    a, b = sample.items(xs, who, "a collection"), sample.items(ys, who, "a collection")
    if len(a) != len(b):
        raise runtime_error(f"{who}: the two collections differ in length ({len(a)} and {len(b)})")
    counts: dict[Any, int] = {}
    for pair in zip(a, b):
        key = vec(pair)
        counts[key] = counts.get(key, 0) + 1
    return make_map(list(counts.items()))


def _groups(groups: Any, who: str, least: int = 2) -> list[Any]:
    from . import sample

    gs = sample.items(groups, who, "a collection of groups")
    if type(groups) in MAP_TYPES:
        gs = [g[1] for g in gs]
    if len(gs) < 2:
        raise runtime_error(f"{who}: needs at least 2 groups, got {len(gs)}",
                            hint=f"({who} [xs ys zs]), or a map of group name to values")
    return [_sample(g, who, f"group {i + 1}", least) for i, g in enumerate(gs)]


@stat("one-way-anova-test", args="[groups]", needs=SCIPY,
      doc="One-way ANOVA: whether the groups' means are equal (scipy.stats.f_oneway); groups: a vector of "
          "samples or a map of name to sample. Gives {:F :stat :p-value :df [between within]}.",
      ex=(("(:p-value (stats/one-way-anova-test [[1 2 3] [2 3 4] [5 6 7]]))", "0.006591796875"),))
def one_way_anova_test(groups: Any) -> Any:
    import scipy.stats

    who = "stats/one-way-anova-test"
    gs = _groups(groups, who, 1)
    n = sum(len(g) for g in gs)
    r = scipy.stats.f_oneway(*gs)
    return _common(r.statistic, r.pvalue, ("F", value(r.statistic)), ("df", vec((len(gs) - 1, n - len(gs)))))


@stat("shapiro-wilk-test", args="[xs]", needs=SCIPY,
      doc="The Shapiro-Wilk test of normality (scipy.stats.shapiro): {:W :stat :p-value :n}; 3 values at least.",
      ex=(("(:p-value (stats/shapiro-wilk-test [2.1 3.4 1.9 5.6 4.4 3.3 2.8 3.9]))", "0.8413204658052752"),))
def shapiro_wilk_test(xs: Any) -> Any:
    import scipy.stats

    who = "stats/shapiro-wilk-test"
    x = _sample(xs, who, least=3)
    fits(len(x), who, SORT)
    if x.min() == x.max():
        raise runtime_error(f"{who}: every value is the same: normality cannot be tested",
                            hint="the test needs values that vary")
    r = scipy.stats.shapiro(x)
    return _common(r.statistic, r.pvalue, ("W", value(r.statistic)), ("n", len(x)))


@stat("normality-test", args="[xs]", needs=SCIPY,
      doc="D'Agostino and Pearson's omnibus test of normality, from skewness and kurtosis "
          "(scipy.stats.normaltest): {:stat :p-value :df 2}; 8 values at least.",
      ex=(("(:p-value (stats/normality-test (range 20)))", "0.13586981489872588"),))
def normality_test(xs: Any) -> Any:
    import scipy.stats

    who = "stats/normality-test"
    x = _sample(xs, who, least=8)
    r = scipy.stats.normaltest(x)
    return _common(r.statistic, r.pvalue, ("df", 2), ("n", len(x)))


@stat("ks-test-one-sample", args=("[xs]", "[xs distribution]", "[xs distribution opts]"), needs=SCIPY,
      doc="The Kolmogorov-Smirnov test that xs come from a distribution, the standard normal by default "
          "(scipy.stats.kstest(xs, 'norm')); distribution: a keyword or map as stats/cdf takes, e.g. "
          "{:distribution :normal :mu 5 :sd 2}. Gives {:stat :D :p-value :n :sides}; opts :sides.",
      ex=(("(:p-value (stats/ks-test-one-sample [-1.2 0.3 0.5 -0.4 1.1 2.0 -0.8]))", "0.925466038727419"),))
def ks_test_one_sample(xs: Any, dist: Any = None, opts: Any = None) -> Any:
    import scipy.stats

    from .distributions import frozen

    who = "stats/ks-test-one-sample"
    o = options(opts, who, ("sides", "alternative"))
    x = _sample(xs, who, least=1)
    fits(len(x), who, SORT)
    d = frozen(Keyword("normal") if dist is None else dist, None, who)
    side = sides(o, who)
    r = scipy.stats.kstest(x, d.cdf, alternative=side)
    return _common(r.statistic, r.pvalue, ("D", value(r.statistic)), ("n", len(x)), ("sides", Keyword(side)))


@stat("ks-test-two-samples", args=("[xs ys]", "[xs ys opts]"), needs=SCIPY,
      doc="The two-sample Kolmogorov-Smirnov test (scipy.stats.ks_2samp, exact for small samples as "
          "method='auto' picks): {:stat :D :p-value :nx :ny :sides}; opts :sides.",
      ex=(("(:p-value (stats/ks-test-two-samples [1 2 3 4 5] [6 7 8 9 10]))", "0.007936507936507936"),))
def ks_test_two_samples(xs: Any, ys: Any, opts: Any = None) -> Any:
    import scipy.stats

    return _two_samples("stats/ks-test-two-samples", xs, ys, opts, scipy.stats.ks_2samp, SORT, "D")


@stat("mann-whitney-u-test", args=("[xs ys]", "[xs ys opts]"), needs=SCIPY,
      doc="The Mann-Whitney U test (scipy.stats.mannwhitneyu: two-sided, exact or asymptotic as its "
          "method='auto' picks, with the continuity correction): {:U :stat :p-value :nx :ny :sides}.",
      ex=(("(:p-value (stats/mann-whitney-u-test [1 2 3 4 5] [6 7 8 9 10]))", "0.007936507936507936"),))
def mann_whitney_u_test(xs: Any, ys: Any, opts: Any = None) -> Any:
    import scipy.stats

    return _two_samples("stats/mann-whitney-u-test", xs, ys, opts, scipy.stats.mannwhitneyu, RANK, "U")


def _two_samples(who: str, xs: Any, ys: Any, opts: Any, test: Any, per_value: float, name: str) -> Any:
    """A scipy test of two independent samples with only a side to choose."""
    o = options(opts, who, ("sides", "alternative"))
    x, y = _sample(xs, who, "the first sample", 1), _sample(ys, who, "the second sample", 1)
    fits(len(x) + len(y), who, per_value)
    side = sides(o, who)
    r = test(x, y, alternative=side)
    return _common(r.statistic, r.pvalue, (name, value(r.statistic)), ("nx", len(x)), ("ny", len(y)),
                   ("sides", Keyword(side)))


@stat("wilcoxon-test", args=("[xs]", "[xs ys]", "[xs ys opts]"), needs=SCIPY,
      doc="The Wilcoxon signed-rank test that xs (or the differences xs - ys) are symmetric about zero "
          "(scipy.stats.wilcoxon, its defaults): {:stat :p-value :n :sides}.",
      ex=(("(:p-value (stats/wilcoxon-test [1.2 -0.4 2.5 3.1 0.8 1.9]))", "0.0625"),))
def wilcoxon_test(xs: Any, ys: Any = None, opts: Any = None) -> Any:
    import scipy.stats

    from . import sample

    who = "stats/wilcoxon-test"
    o = options(opts, who, ("sides", "alternative"))
    if ys is None:
        d = _sample(xs, who, least=1)
    else:
        x, y = sample.paired(xs, ys, who, drop=False)
        d = x - y
    fits(len(d), who, RANK)
    if not d.any():
        raise runtime_error(f"{who}: every difference is zero: the test has nothing to rank")
    side = sides(o, who)
    r = scipy.stats.wilcoxon(d, alternative=side)
    return _common(r.statistic, r.pvalue, ("n", len(d)), ("sides", Keyword(side)))


@stat("kruskal-test", args="[groups]", needs=SCIPY,
      doc="The Kruskal-Wallis H test that the groups come from one distribution (scipy.stats.kruskal): "
          "{:H :stat :p-value :df}; groups as for stats/one-way-anova-test.",
      ex=(("(:p-value (stats/kruskal-test [[1 2 3] [2 3 4] [5 6 7]]))", "0.0484003328812889"),))
def kruskal_test(groups: Any) -> Any:
    import scipy.stats

    who = "stats/kruskal-test"
    gs = _groups(groups, who, 1)
    fits(sum(len(g) for g in gs), who, RANK)
    r = scipy.stats.kruskal(*gs)
    return _common(r.statistic, r.pvalue, ("H", value(r.statistic)), ("df", len(gs) - 1))


_CENTERS = {"median": "median", "mean": "mean", "trimmed": "trimmed"}


@stat("levene-test", args=("[groups]", "[groups opts]"), needs=SCIPY,
      doc="Levene's test that the groups' variances are equal, centred on the median by default "
          "(scipy.stats.levene; {:center :mean} for Levene's original): {:W :stat :p-value :df [between within]}.",
      ex=(("(:p-value (stats/levene-test [[1 2 3 4] [2 4 6 8] [1 1 2 9]]))", "0.6960982360755756"),))
def levene_test(groups: Any, opts: Any = None) -> Any:
    import scipy.stats

    from .entry import choice

    who = "stats/levene-test"
    o = options(opts, who, ("center",))
    center = "median" if o.get("center") is None else choice(o["center"], who, "center", _CENTERS)
    gs = _groups(groups, who, 1)
    n = sum(len(g) for g in gs)
    fits(n, who, SORT)
    r = scipy.stats.levene(*gs, center=center)
    return _common(r.statistic, r.pvalue, ("W", value(r.statistic)), ("df", vec((len(gs) - 1, n - len(gs)))))


@stat("binomial-test", args=("[k n]", "[k n opts]"), needs=SCIPY,
      doc="The exact binomial test of k successes in n trials against :p (default 0.5) (scipy.stats.binomtest): "
          "{:p-value :estimate :k :n :confidence-interval :sides}.",
      ex=(("(:p-value (stats/binomial-test 7 10))", "0.34375"),))
def binomial_test(k: Any, n: Any, opts: Any = None) -> Any:
    import scipy.stats

    from . import sample

    who = "stats/binomial-test"
    o = options(opts, who, ("p", "sides", "alternative", "alpha"))
    if type(k) is not int or type(n) is not int or not 0 <= k <= n or n < 1:
        raise runtime_error(f"{who}: k and n must be integers with 0 <= k <= n and n >= 1, got {k} and {n}")
    p = sample.number(o.get("p", 0.5), who, ":p")
    if not 0 <= p <= 1:
        raise runtime_error(f"{who}: :p must be between 0 and 1, got {p}")
    side, alpha = sides(o, who), alpha_of(o, who)
    r = scipy.stats.binomtest(k, n, p, alternative=side)
    return keyword_map([("p-value", value(r.pvalue)), ("estimate", value(r.statistic)), ("k", k), ("n", n),
                        ("confidence-interval", _interval(r.proportion_ci(1 - alpha))), ("sides", Keyword(side))])


@stat("fisher-exact-test", args=("[table]", "[table opts]"), needs=SCIPY,
      doc="Fisher's exact test of a 2x2 table [[a b] [c d]] (scipy.stats.fisher_exact): {:odds-ratio :stat "
          ":p-value :sides}.",
      ex=(("(:p-value (stats/fisher-exact-test [[8 2] [1 5]]))", "0.034965034965034975"),))
def fisher_exact_test(table: Any, opts: Any = None) -> Any:
    import scipy.stats

    who = "stats/fisher-exact-test"
    o = options(opts, who, ("sides", "alternative"))
    t = _table(table, who)
    if t.shape != (2, 2):
        raise runtime_error(f"{who}: needs a 2x2 table [[a b] [c d]], got {t.shape[0]}x{t.shape[1]}")
    side = sides(o, who)
    r = scipy.stats.fisher_exact(t, alternative=side)
    return _common(r.statistic, r.pvalue, ("odds-ratio", value(r.statistic)), ("sides", Keyword(side)))
