"""stats/: regression and the errors of a fit: ordinary least squares as statsmodels reports it.

`(stats/lm ys xss)` fits y = b0 + b . x with an intercept, as statsmodels'
`OLS(y, add_constant(X)).fit()` does (its pseudo-inverse: a rank-deficient design still fits),
and gives what its summary shows: coefficients with standard errors, t values, p-values and
confidence intervals, R-squared and adjusted, the F statistic and its p-value, the residual
standard error, the log-likelihood, AIC and BIC.
"""

from __future__ import annotations

from typing import Any

from ... import context
from ...errors import runtime_error
from ...values import vec
from .entry import SCIPY, alpha_of, keyword_map, options, stat, value

_PER_CELL = 3e-9  # seconds per value of the design per predictor: the SVD of a pseudo-inverse


@stat("lm", args=("[ys xss]", "[ys xss opts]"), needs=SCIPY,
      doc="Ordinary least squares with an intercept (statsmodels' OLS(y, add_constant(X)).fit()): xss are the "
          "predictors, a vector of numbers (one), a vector of rows of numbers, or a map of name to column. Gives "
          "{:intercept :beta [b1 ...] :coefficients [{:name :estimate :stderr :t-value :p-value "
          ":confidence-interval} ...] (the intercept first) :r-squared :adjusted-r-squared :f-statistic :p-value "
          ":df [model residual] :n :sigma :log-likelihood :aic :bic}; opts :alpha (0.05) for the intervals, "
          ":intercept? false to fit without one.",
      ex=(("(mapv #(round % 6) (:beta (stats/lm [1 3 5 7] [0 1 2 3])))", "[2.0]"),
          ("(round (:r-squared (stats/lm [2 4 5 4 5] [1 2 3 4 5])) 6)", "0.6")))
def lm(ys: Any, xss: Any, opts: Any = None) -> Any:
    import numpy as np
    import scipy.stats

    from . import sample

    who = "stats/lm"
    o = options(opts, who, ("alpha", "intercept?"))
    alpha = alpha_of(o, who)
    x, names = sample.matrix(xss, who)
    y = sample.strict(ys, who, "the responses")
    n, p = x.shape
    if len(y) != n:
        raise runtime_error(f"{who}: {len(y)} responses but {n} rows of predictors",
                            hint="ys and xss need one entry per observation")
    intercept = o.get("intercept?", True) not in (False, None)
    design = np.column_stack([np.ones(n), x]) if intercept else x
    k = design.shape[1]
    context.check_time(n * k * k * _PER_CELL, f"{who} of {n:,} rows and {k} columns")
    if n <= k:
        raise runtime_error(f"{who}: {n} observations cannot fit {k} coefficients", hint="more rows than predictors")
    pinv = np.linalg.pinv(design)
    beta = pinv @ y
    rank = int(np.linalg.matrix_rank(design))
    fitted = design @ beta
    resid = y - fitted
    ssr = float(resid @ resid)
    df_resid = n - rank
    df_model = rank - (1 if intercept else 0)
    scale = ssr / df_resid
    bse = np.sqrt(np.diag(scale * (pinv @ pinv.T)))
    with np.errstate(invalid="ignore", divide="ignore"):
        t = beta / bse
    pvals = 2 * scipy.stats.t.sf(np.abs(t), df_resid)
    crit = scipy.stats.t.ppf(1 - alpha / 2, df_resid)
    centered = y - y.mean() if intercept else y
    tss = float(centered @ centered)
    r2 = 1 - ssr / tss if tss else float("nan")
    adj = 1 - (n - (1 if intercept else 0)) / df_resid * (1 - r2)
    with np.errstate(invalid="ignore", divide="ignore"):
        f = ((tss - ssr) / df_model) / scale if df_model else float("nan")
    f_p = scipy.stats.f.sf(f, df_model, df_resid) if df_model else float("nan")
    llf = -n / 2 * (np.log(2 * np.pi) + np.log(ssr / n) + 1)
    labels = (["intercept"] if intercept else []) + (names if names is not None else [f"x{i + 1}" for i in range(p)])
    coefficients = vec(keyword_map([
        ("name", labels[i]), ("estimate", value(beta[i])), ("stderr", value(bse[i])), ("t-value", value(t[i])),
        ("p-value", value(pvals[i])), ("confidence-interval", vec((value(beta[i] - crit * bse[i]),
                                                                   value(beta[i] + crit * bse[i])))),
    ]) for i in range(k))
    slopes = beta[1:] if intercept else beta
    return keyword_map([
        ("intercept", value(beta[0]) if intercept else 0.0), ("beta", vec(value(b) for b in slopes)),
        ("coefficients", coefficients), ("r-squared", value(r2)), ("adjusted-r-squared", value(adj)),
        ("f-statistic", value(f)), ("p-value", value(f_p)), ("df", vec((df_model, df_resid))), ("n", n),
        ("sigma", value(np.sqrt(scale))), ("log-likelihood", value(llf)),
        ("aic", value(-2 * llf + 2 * rank)), ("bic", value(-2 * llf + np.log(n) * rank)),
    ])


def _errors(observed: Any, predicted: Any, who: str) -> Any:
    from . import sample

    y, yhat = sample.paired(observed, predicted, who, drop=False)
    if not len(y):
        raise runtime_error(f"{who}: needs at least one pair of observed and predicted values")
    return y, yhat


@stat("r2", args="[observed predicted]",
      doc="The coefficient of determination 1 - SSres/SStot (scikit-learn's r2_score; 1.0 for a perfect fit of "
          "constant values, 0.0 for an imperfect one, as it gives).",
      ex=(("(stats/r2 [3 -0.5 2 7] [2.5 0.0 2 8])", "0.9486081370449679"),))
def r2(observed: Any, predicted: Any) -> float | None:
    y, yhat = _errors(observed, predicted, "stats/r2")
    ss_res = float(((y - yhat) ** 2).sum())
    ss_tot = float(((y - y.mean()) ** 2).sum())
    if ss_tot == 0:
        return 1.0 if ss_res == 0 else 0.0
    return value(1 - ss_res / ss_tot)


@stat("mse", args="[observed predicted]",
      doc="The mean squared error (scikit-learn's mean_squared_error).",
      ex=(("(stats/mse [3 -0.5 2 7] [2.5 0.0 2 8])", "0.375"),))
def mse(observed: Any, predicted: Any) -> float | None:
    y, yhat = _errors(observed, predicted, "stats/mse")
    return value(((y - yhat) ** 2).mean())


@stat("rmse", args="[observed predicted]",
      doc="The root mean squared error (scikit-learn's root_mean_squared_error).",
      ex=(("(stats/rmse [3 -0.5 2 7] [2.5 0.0 2 8])", "0.6123724356957945"),))
def rmse(observed: Any, predicted: Any) -> float | None:
    y, yhat = _errors(observed, predicted, "stats/rmse")
    return value(((y - yhat) ** 2).mean() ** 0.5)


@stat("mae", args="[observed predicted]",
      doc="The mean absolute error (scikit-learn's mean_absolute_error).",
      ex=(("(stats/mae [3 -0.5 2 7] [2.5 0.0 2 8])", "0.5"),))
def mae(observed: Any, predicted: Any) -> float | None:
    y, yhat = _errors(observed, predicted, "stats/mae")
    return value(abs(y - yhat).mean())
