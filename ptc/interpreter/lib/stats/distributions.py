"""stats/: probability distributions, scipy.stats' own (cdf, survival, quantile, density).

A distribution is named by a keyword with its parameters in a map, `(stats/cdf :t 2.1 {:df 10})`,
or given as one map, `(stats/cdf {:distribution :t :df 10} 2.1)` (what stats/distribution
makes, fastmath.random's shape). Parameter names follow fastmath and the textbooks, with
scipy's where they differ accepted too.
"""

from __future__ import annotations

from typing import Any, Callable

from ...errors import runtime_error
from ...values import MAP_TYPES, Keyword, map_items, short
from .entry import SCIPY, keyword_map, stat, value


def _num(params: dict[str, Any], names: tuple[str, ...], default: Any, who: str, what: str) -> float:
    for n in names:
        if n in params:
            x = params[n]
            if type(x) is int or type(x) is float:
                return float(x)
            raise runtime_error(f"{who}: the {what} :{n} must be a number, got {short(x)}")
    if default is None:
        raise runtime_error(f"{who}: the distribution needs its {what} :{names[0]}",
                            hint=f"e.g. {{:{names[0]} ...}}")
    return float(default)


def _positive(x: float, who: str, what: str) -> float:
    if not x > 0:
        raise runtime_error(f"{who}: the {what} must be positive, got {x}")
    return x


# name -> (aliases, the scipy distribution frozen from the parameters, the parameter names)
def _normal(p: dict[str, Any], who: str) -> Any:
    import scipy.stats

    return scipy.stats.norm(_num(p, ("mu", "mean", "loc"), 0, who, "mean"),
                            _positive(_num(p, ("sd", "sigma", "scale"), 1, who, "standard deviation"), who, ":sd"))


def _t(p: dict[str, Any], who: str) -> Any:
    import scipy.stats

    return scipy.stats.t(_positive(_num(p, ("df", "degrees-of-freedom"), None, who, "degrees of freedom"), who, ":df"))


def _chi2(p: dict[str, Any], who: str) -> Any:
    import scipy.stats

    return scipy.stats.chi2(_positive(_num(p, ("df", "degrees-of-freedom"), None, who, "degrees of freedom"),
                                      who, ":df"))


def _f(p: dict[str, Any], who: str) -> Any:
    import scipy.stats

    return scipy.stats.f(_positive(_num(p, ("df1", "dfn", "numerator-degrees-of-freedom"), None, who,
                                        "numerator degrees of freedom"), who, ":df1"),
                         _positive(_num(p, ("df2", "dfd", "denominator-degrees-of-freedom"), None, who,
                                        "denominator degrees of freedom"), who, ":df2"))


def _binomial(p: dict[str, Any], who: str) -> Any:
    import scipy.stats

    n = _num(p, ("n", "trials"), None, who, "number of trials")
    prob = _num(p, ("p",), None, who, "probability of success")
    if n != int(n) or n < 0 or not 0 <= prob <= 1:
        raise runtime_error(f"{who}: a binomial needs an integer :n >= 0 and 0 <= :p <= 1")
    return scipy.stats.binom(int(n), prob)


def _poisson(p: dict[str, Any], who: str) -> Any:
    import scipy.stats

    return scipy.stats.poisson(_positive(_num(p, ("lambda", "mu", "rate"), None, who, "mean"), who, ":lambda"))


def _exponential(p: dict[str, Any], who: str) -> Any:
    import scipy.stats

    rate = _positive(_num(p, ("lambda", "rate"), 1, who, "rate"), who, ":lambda")
    return scipy.stats.expon(scale=1 / rate)


def _uniform(p: dict[str, Any], who: str) -> Any:
    import scipy.stats

    lo, hi = _num(p, ("lo", "min", "a"), 0, who, "lower bound"), _num(p, ("hi", "max", "b"), 1, who, "upper bound")
    if not hi > lo:
        raise runtime_error(f"{who}: a uniform distribution needs :lo < :hi, got {lo} and {hi}")
    return scipy.stats.uniform(lo, hi - lo)


_DISTRIBUTIONS: dict[str, Callable[[dict[str, Any], str], Any]] = {
    "normal": _normal, "gaussian": _normal, "t": _t, "student-t": _t, "chi-squared": _chi2, "chi2": _chi2,
    "f": _f, "binomial": _binomial, "poisson": _poisson, "exponential": _exponential, "uniform": _uniform,
}
_DISCRETE = frozenset({"binomial", "poisson"})
_NAMES = "normal t chi-squared f binomial poisson exponential uniform"


def _spec(dist: Any, params: Any, who: str) -> tuple[str, dict[str, Any]]:
    """(name, params) from a keyword and a map of parameters, or from one map with :distribution."""
    given: dict[str, Any] = {}
    for m in (dist if type(dist) in MAP_TYPES else None, params):
        if m is None:
            continue
        if type(m) not in MAP_TYPES:
            raise runtime_error(f"{who}: parameters must be a map such as {{:df 10}}, got {short(m)}")
        for k, v in map_items(m):
            given[k.name if type(k) is Keyword else str(k)] = v
    name = given.pop("distribution", None) if type(dist) in MAP_TYPES else dist
    key = name.name if type(name) is Keyword else name if type(name) is str else None
    if key not in _DISTRIBUTIONS:
        raise runtime_error(f"{who}: unknown distribution {short(name)}", hint=f"distributions: {_NAMES}")
    return key, given


def frozen(dist: Any, params: Any, who: str) -> Any:
    """The scipy distribution a PTC distribution (keyword and parameters, or a map) names."""
    name, given = _spec(dist, params, who)
    return _DISTRIBUTIONS[name](given, who)


@stat("distribution", args=("[name]", "[name params]"), needs=SCIPY,
      doc=f"A distribution as a map, {{:distribution name ...params}}, for stats/cdf, stats/sf, stats/icdf, "
          f"stats/pdf and stats/ks-test-one-sample. name: :{_NAMES.replace(' ', ' :')}; params: normal :mu :sd, t "
          f"and chi-squared :df, f :df1 :df2, binomial :n :p, poisson :lambda, exponential :lambda (rate), "
          f"uniform :lo :hi.",
      ex=(("(stats/distribution :t {:df 5})", "{:distribution :t, :df 5}"),))
def distribution(name: Any, params: Any = None) -> Any:
    key, given = _spec(name, params, "stats/distribution")
    _DISTRIBUTIONS[key](given, "stats/distribution")  # its parameters checked now
    return keyword_map([("distribution", Keyword(key)), *given.items()])


def _x(x: Any, who: str) -> float:
    if type(x) is int or type(x) is float:
        return float(x)
    raise runtime_error(f"{who}: expected a number, got {short(x)}",
                        hint=f"one value at a time: (map #({who} :normal %) xs)")


@stat("cdf", args=("[distribution x]", "[distribution x params]"), needs=SCIPY,
      doc="P(X <= x) (scipy's cdf): (stats/cdf :normal 1.96), (stats/cdf :t 2.1 {:df 10}).",
      ex=(("(stats/cdf :normal 1.96)", "0.9750021048517795"), ("(stats/cdf :binomial 3 {:n 10 :p 0.5})", "0.171875")))
def cdf(dist: Any, x: Any, params: Any = None) -> float | None:
    return value(frozen(dist, params, "stats/cdf").cdf(_x(x, "stats/cdf")))


@stat("sf", args=("[distribution x]", "[distribution x params]"), needs=SCIPY,
      doc="The survival function P(X > x), 1 - cdf computed without its cancellation (scipy's sf): a "
          "one-sided p-value. Also stats/ccdf.",
      ex=(("(stats/sf :chi-squared 3.84 {:df 1})", "0.05004352124870519"),))
def sf(dist: Any, x: Any, params: Any = None) -> float | None:
    return value(frozen(dist, params, "stats/sf").sf(_x(x, "stats/sf")))


@stat("ccdf", args=("[distribution x]", "[distribution x params]"), needs=SCIPY,
      doc="P(X > x): the same as stats/sf (fastmath.random's name).",
      ex=(("(stats/ccdf :normal 0)", "0.5"),))
def ccdf(dist: Any, x: Any, params: Any = None) -> float | None:
    return value(frozen(dist, params, "stats/ccdf").sf(_x(x, "stats/ccdf")))


@stat("icdf", args=("[distribution p]", "[distribution p params]"), needs=SCIPY,
      doc="The quantile function, the x with P(X <= x) = p (scipy's ppf): (stats/icdf :normal 0.975) is the "
          "critical value of a 95% interval.",
      ex=(("(stats/icdf :normal 0.975)", "1.959963984540054"), ("(stats/icdf :t 0.975 {:df 10})", "2.228138851986274")))
def icdf(dist: Any, p: Any, params: Any = None) -> float | None:
    q = _x(p, "stats/icdf")
    if not 0 <= q <= 1:
        raise runtime_error(f"stats/icdf: p must be between 0 and 1, got {p}")
    return value(frozen(dist, params, "stats/icdf").ppf(q))


@stat("pdf", args=("[distribution x]", "[distribution x params]"), needs=SCIPY,
      doc="The density at x (scipy's pdf), or for a discrete distribution (binomial, poisson) the probability "
          "P(X = x) (scipy's pmf).",
      ex=(("(stats/pdf :normal 0)", "0.3989422804014327"), ("(stats/pdf :poisson 2 {:lambda 3})", "0.22404180765538775")))
def pdf(dist: Any, x: Any, params: Any = None) -> float | None:
    name, _ = _spec(dist, params, "stats/pdf")
    d = frozen(dist, params, "stats/pdf")
    at = _x(x, "stats/pdf")
    return value(d.pmf(at) if name in _DISCRETE else d.pdf(at))
