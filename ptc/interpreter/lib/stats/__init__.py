"""The analyst's library, `stats/`: fastmath.stats' names with pandas', numpy's, scipy's,
statsmodels' and scikit-learn's definitions and defaults (docs/stats.md). Its functions
register themselves here; numpy and scipy load only when a program names one of them."""

from . import descriptive, correlation, tests, distributions, regression  # noqa: F401  (the order of docs/stats.md)
