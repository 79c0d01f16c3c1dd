"""stats/ tests, correlations, distributions and lm against scipy.stats and statsmodels on
generated samples: statistics and p-values to 1e-9 relative."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.stats
import statsmodels.api as sm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .data import close, run

SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def samples(draw: Any, least: int = 3, most: int = 2000) -> np.ndarray:
    n = draw(st.integers(least, most))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    kind = draw(st.sampled_from(["normal", "ties", "skewed"]))
    if kind == "ties":
        return rng.integers(0, 8, n).astype(np.float64)
    if kind == "skewed":
        return rng.exponential(3.0, n)
    return rng.normal(draw(st.floats(-100, 100)), draw(st.floats(0.1, 50)), n)


def _same(got: dict[str, Any], r: Any, *pairs: tuple[str, str]) -> None:
    for ours, theirs in pairs:
        want = getattr(r, theirs)
        assert close(got[ours], float(want), 1e-300), (ours, got[ours], want)


@SLOW
@given(samples(), st.floats(-5, 5), st.sampled_from(["two-sided", "greater", "less"]))
def test_t_test_one_sample(x: np.ndarray, mu: float, side: str) -> None:
    got = run(f"(stats/t-test-one-sample data/x {{:mu {mu!r} :sides :{side}}})", x=x.tolist())
    r = scipy.stats.ttest_1samp(x, mu, alternative=side)
    if np.ptp(x) == 0:
        return
    _same(got, r, ("t", "statistic"), ("p-value", "pvalue"), ("df", "df"))
    ci = r.confidence_interval(0.95)
    assert close(got["confidence-interval"], [ci.low, ci.high], abs(x.mean()) + 1)


@SLOW
@given(samples(), samples(), st.booleans(), st.sampled_from(["two-sided", "greater", "less"]))
def test_t_test_two_samples_pooled_and_welch(x: np.ndarray, y: np.ndarray, equal: bool, side: str) -> None:
    got = run(f"(stats/t-test-two-samples data/x data/y {{:equal-variances? {str(equal).lower()} :sides :{side}}})",
              x=x.tolist(), y=y.tolist())
    r = scipy.stats.ttest_ind(x, y, equal_var=equal, alternative=side)
    if np.ptp(x) == 0 and np.ptp(y) == 0:
        return
    _same(got, r, ("t", "statistic"), ("p-value", "pvalue"), ("df", "df"))


@SLOW
@given(samples(least=3, most=500))
def test_paired_t_test_is_ttest_rel(x: np.ndarray) -> None:
    y = x * 0.9 + np.random.default_rng(len(x)).normal(0, 1, len(x))
    got = run("(stats/t-test-two-samples data/x data/y {:paired? true})", x=x.tolist(), y=y.tolist())
    _same(got, scipy.stats.ttest_rel(x, y), ("t", "statistic"), ("p-value", "pvalue"))


@SLOW
@given(st.lists(st.lists(st.integers(1, 60), min_size=2, max_size=4), min_size=2, max_size=4)
       .filter(lambda rows: len({len(r) for r in rows}) == 1), st.booleans())
def test_chisq_test_of_a_table_is_chi2_contingency(table: list[list[int]], correction: bool) -> None:
    got = run(f"(stats/chisq-test data/t {{:correction? {str(correction).lower()}}})", t=table)
    r = scipy.stats.chi2_contingency(np.array(table), correction=correction)
    _same(got, r, ("stat", "statistic"), ("p-value", "pvalue"))
    assert got["df"] == r.dof
    assert close(got["expected"], r.expected_freq.tolist(), 1.0)


def test_chisq_yates_at_one_degree_of_freedom_and_goodness_of_fit() -> None:
    got = run("(stats/chisq-test [[10 20] [30 25]])")
    assert close(got["stat"], 2.7060, 1, 1e-4) and close(got["p-value"], 0.0999616438735349)
    plain = run("(stats/chisq-test [[10 20] [30 25]] {:correction? false})")
    assert close(plain["stat"], scipy.stats.chi2_contingency([[10, 20], [30, 25]], correction=False).statistic)
    fit = run("(stats/chisq-test [16 18 16 14 12 12] {:expected [16 16 16 16 16 8]})")
    assert close(fit["p-value"], scipy.stats.chisquare([16, 18, 16, 14, 12, 12], [16, 16, 16, 16, 16, 8]).pvalue)
    table = run("(stats/chisq-test (stats/contingency-table [:a :a :b :b :a] [1 2 1 1 1]))")
    assert close(table["p-value"], scipy.stats.chi2_contingency([[2, 1], [2, 0]]).pvalue)


@SLOW
@given(st.lists(samples(least=2, most=300), min_size=2, max_size=5))
def test_anova_kruskal_levene(groups: list[np.ndarray]) -> None:
    src = "{:anova (stats/one-way-anova-test data/g) :kruskal (stats/kruskal-test data/g) :levene (stats/levene-test data/g) :levene-mean (stats/levene-test data/g {:center :mean})}"
    if all(np.ptp(g) == 0 for g in groups) or np.ptp(np.concatenate(groups)) == 0:
        return
    got = run(src, g=[g.tolist() for g in groups])
    _same(got["anova"], scipy.stats.f_oneway(*groups), ("stat", "statistic"), ("p-value", "pvalue"))
    _same(got["kruskal"], scipy.stats.kruskal(*groups), ("stat", "statistic"), ("p-value", "pvalue"))
    _same(got["levene"], scipy.stats.levene(*groups), ("stat", "statistic"), ("p-value", "pvalue"))
    _same(got["levene-mean"], scipy.stats.levene(*groups, center="mean"), ("stat", "statistic"), ("p-value", "pvalue"))


@SLOW
@given(samples(least=8, most=5000))
def test_normality_tests(x: np.ndarray) -> None:
    if np.ptp(x) == 0:
        return
    got = run("{:sw (stats/shapiro-wilk-test data/x) :k2 (stats/normality-test data/x) "
              ":ks (stats/ks-test-one-sample data/x) :ks-fit (stats/ks-test-one-sample data/x "
              "{:distribution :normal :mu 10 :sd 3})}", x=x.tolist())
    _same(got["sw"], scipy.stats.shapiro(x), ("W", "statistic"), ("p-value", "pvalue"))
    _same(got["k2"], scipy.stats.normaltest(x), ("stat", "statistic"), ("p-value", "pvalue"))
    _same(got["ks"], scipy.stats.kstest(x, "norm"), ("D", "statistic"), ("p-value", "pvalue"))
    _same(got["ks-fit"], scipy.stats.kstest(x, "norm", args=(10, 3)), ("D", "statistic"), ("p-value", "pvalue"))


@SLOW
@given(samples(least=1, most=800), samples(least=1, most=800))
def test_two_sample_rank_tests(x: np.ndarray, y: np.ndarray) -> None:
    got = run("{:ks (stats/ks-test-two-samples data/x data/y) :mw (stats/mann-whitney-u-test data/x data/y)}",
              x=x.tolist(), y=y.tolist())
    _same(got["ks"], scipy.stats.ks_2samp(x, y), ("D", "statistic"), ("p-value", "pvalue"))
    _same(got["mw"], scipy.stats.mannwhitneyu(x, y), ("U", "statistic"), ("p-value", "pvalue"))


@SLOW
@given(samples(least=5, most=600))
def test_wilcoxon(x: np.ndarray) -> None:
    d = x - np.median(x) + 0.25
    if not d.any():
        return
    _same(run("(stats/wilcoxon-test data/d)", d=d.tolist()), scipy.stats.wilcoxon(d), ("stat", "statistic"),
          ("p-value", "pvalue"))


@SLOW
@given(samples(least=3, most=3000), st.floats(-2, 2), st.sampled_from(["pearson", "spearman", "kendall"]))
def test_correlation_test_and_coefficients(x: np.ndarray, slope: float, method: str) -> None:
    y = slope * x + np.random.default_rng(len(x)).normal(0, np.std(x) + 1, len(x))
    got = run(f"{{:test (stats/correlation-test data/x data/y {{:method :{method}}}) "
              f":r (stats/{'correlation' if method == 'pearson' else method + '-correlation'} data/x data/y)}}",
              x=x.tolist(), y=y.tolist())
    if np.ptp(x) == 0:
        assert got["r"] is None
        return
    fn = {"pearson": scipy.stats.pearsonr, "spearman": scipy.stats.spearmanr, "kendall": scipy.stats.kendalltau}[method]
    r = fn(x, y)
    _same(got["test"], r, ("stat", "statistic"), ("p-value", "pvalue"))
    assert close(got["r"], float(r.statistic), 1e-12)
    if method == "pearson":
        ci = r.confidence_interval(0.95)
        assert close(got["test"]["confidence-interval"], [ci.low, ci.high], 1e-12)


def test_correlation_matrix_is_pandas_corr_pairwise() -> None:
    import pandas as pd

    rng = np.random.default_rng(5)
    a = rng.normal(size=200)
    cols = {"a": a.tolist(), "b": (a + rng.normal(size=200)).tolist(), "c": rng.normal(size=200).tolist()}
    cols["b"][3] = None
    df = pd.DataFrame(cols, dtype=float)
    for method in ("pearson", "spearman", "kendall"):
        got = run(f"(stats/correlation-matrix data/c :{method})", c=cols)
        want = df.corr(method=method)
        for i in "abc":
            for j in "abc":
                assert close(got[i][j], want.loc[i, j], 1e-12), (method, i, j)
    cov = run("(stats/covariance-matrix [(:a data/c) (:c data/c)])", c=cols)
    assert close(cov, np.cov(cols["a"], cols["c"]).tolist(), 1.0)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([
    ("normal", {}, scipy.stats.norm()), ("normal", {"mu": 2, "sd": 3}, scipy.stats.norm(2, 3)),
    ("t", {"df": 7}, scipy.stats.t(7)), ("chi-squared", {"df": 3}, scipy.stats.chi2(3)),
    ("f", {"df1": 4, "df2": 9}, scipy.stats.f(4, 9)), ("exponential", {"lambda": 2}, scipy.stats.expon(scale=0.5)),
    ("uniform", {"lo": -1, "hi": 3}, scipy.stats.uniform(-1, 4)),
    ("binomial", {"n": 12, "p": 0.3}, scipy.stats.binom(12, 0.3)), ("poisson", {"lambda": 4}, scipy.stats.poisson(4)),
]), st.floats(-5, 20), st.floats(0.001, 0.999))
def test_distributions_are_scipys(spec: Any, x: float, p: float) -> None:
    name, params, d = spec
    m = "{" + " ".join(f":{k} {v}" for k, v in params.items()) + "}"
    got = run(f"[(stats/cdf :{name} {x!r} {m}) (stats/sf :{name} {x!r} {m}) (stats/icdf :{name} {p!r} {m}) "
              f"(stats/pdf :{name} {x!r} {m}) (stats/cdf (stats/distribution :{name} {m}) {x!r})]")
    discrete = name in ("binomial", "poisson")
    want = [d.cdf(x), d.sf(x), d.ppf(p), d.pmf(x) if discrete else d.pdf(x), d.cdf(x)]
    assert close(got, [float(w) for w in want], 1e-300)


@SLOW
@given(st.integers(10, 3000), st.integers(1, 6), st.integers(0, 2**32 - 1), st.booleans())
def test_lm_is_statsmodels_ols(n: int, p: int, seed: int, named: bool) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 1, (n, p)) * rng.uniform(0.5, 20, p)
    y = x @ rng.normal(0, 2, p) + 3.0 + rng.normal(0, 1.5, n)
    if named:
        cols = {f"x{i}": x[:, i].tolist() for i in range(p)}
        got = run("(stats/lm data/y data/x)", y=y.tolist(), x=cols)
    else:
        got = run("(stats/lm data/y data/x)", y=y.tolist(), x=x.tolist())
    fit = sm.OLS(y, sm.add_constant(x)).fit()
    assert close([c["estimate"] for c in got["coefficients"]], fit.params.tolist(), 1.0)
    assert close([c["stderr"] for c in got["coefficients"]], fit.bse.tolist(), 1e-300)
    assert close([c["t-value"] for c in got["coefficients"]], fit.tvalues.tolist(), 1.0)
    assert close([c["p-value"] for c in got["coefficients"]], fit.pvalues.tolist(), 1e-300)
    ci = fit.conf_int()
    assert close([c["confidence-interval"] for c in got["coefficients"]], ci.tolist(), 1.0)
    for ours, theirs in (("r-squared", "rsquared"), ("adjusted-r-squared", "rsquared_adj"), ("f-statistic", "fvalue"),
                         ("log-likelihood", "llf"), ("aic", "aic"), ("bic", "bic")):
        assert close(got[ours], float(getattr(fit, theirs)), 1.0), ours
    assert close(got["p-value"], float(fit.f_pvalue), 1e-300)
    assert got["df"] == [int(fit.df_model), int(fit.df_resid)]
    assert close(got["intercept"], fit.params[0], 1.0) and close(got["beta"], fit.params[1:].tolist(), 1.0)


def test_metrics_are_scikit_learns() -> None:
    from sklearn import metrics

    rng = np.random.default_rng(2)
    y = rng.normal(size=300)
    yhat = y + rng.normal(0, 0.3, 300)
    got = run("[(stats/r2 data/y data/p) (stats/mse data/y data/p) (stats/rmse data/y data/p) (stats/mae data/y data/p)]",
              y=y.tolist(), p=yhat.tolist())
    want = [metrics.r2_score(y, yhat), metrics.mean_squared_error(y, yhat),
            metrics.root_mean_squared_error(y, yhat), metrics.mean_absolute_error(y, yhat)]
    assert close(got, want)
    assert run("(stats/r2 [1 1 1] [1 1 1])") == metrics.r2_score([1, 1, 1], [1, 1, 1])
    assert run("(stats/r2 [1 1 1] [1 2 1])") == metrics.r2_score([1, 1, 1], [1, 2, 1])


def test_exact_tests() -> None:
    got = run("[(stats/binomial-test 7 20 {:p 0.3}) (stats/fisher-exact-test [[8 2] [1 5]] {:sides :greater})]")
    b = scipy.stats.binomtest(7, 20, 0.3)
    assert close(got[0]["p-value"], b.pvalue) and close(got[0]["confidence-interval"], list(b.proportion_ci()))
    f = scipy.stats.fisher_exact([[8, 2], [1, 5]], alternative="greater")
    assert close(got[1]["p-value"], f.pvalue) and close(got[1]["odds-ratio"], f.statistic)


@pytest.mark.parametrize("src", [
    "(stats/t-test-one-sample [1.0 nil 3.0 4.0])", "(stats/t-test-two-samples [1 2 ##NaN] [3 4 5])",
    "(stats/shapiro-wilk-test [1 2 nil nil 5 6])", "(stats/correlation-test [1 2 3 4] [1 nil 3 4])",
])
def test_a_test_given_nil_or_nan_says_which_and_how_many(src: str) -> None:
    import ptc

    with pytest.raises(ptc.PTCError) as e:
        ptc.run(src)
    err = e.value
    assert err.kind == "runtime" and ("nil" in err.message or "NaN" in err.message)
    assert any(ch.isdigit() for ch in err.message)
    assert err.hint is not None and ("remove" in err.hint or "filter" in err.hint)


def test_tests_models_and_distributions_isolated_give_the_inline_answers() -> None:
    rng = np.random.default_rng(11)
    x, y = rng.normal(5, 2, 300), rng.normal(5.5, 2, 300)
    src = ("{:t (stats/t-test-two-samples data/x data/y {:equal-variances? false}) :sw (stats/shapiro-wilk-test data/x) "
           ":chi (stats/chisq-test [[10 20] [30 25]]) :ks (stats/ks-test-two-samples data/x data/y) "
           ":r (stats/correlation-test data/x data/y {:method :spearman}) :lm (stats/lm data/y data/x) "
           ":q (stats/icdf :t 0.975 {:df 12}) :anova (stats/one-way-anova-test [data/x data/y])}")
    inline = run(src, x=x.tolist(), y=y.tolist())
    assert run(src, isolated=True, x=x.tolist(), y=y.tolist()) == inline
    assert close(inline["t"]["p-value"], scipy.stats.ttest_ind(x, y, equal_var=False).pvalue)
