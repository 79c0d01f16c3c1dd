"""The chart check against the run's limits (issue 43): a spec of 12,000 invalid views made
the schema check run 27 s and take 1 GB at timeout=1, reading no deadline. Now a spec past
its size bound is refused before the check, and a spec within it whose check outlasts the
run ends with the timeout error by the deadline, inline and isolated, its memory bounded."""

from __future__ import annotations

import time

import pytest

from ptc import Limits
from ptc.charts.spec import MAX_NODES, check_spec

from ._forkrun import run_forked

pytestmark = pytest.mark.timing  # wall time against the deadline: run apart (see README)

pytest.importorskip("jsonschema")
pytest.importorskip("altair")

LATE = 0.5  # how late after the deadline the limit error may arrive
GROWTH = 64 << 20  # resident growth the check may cost at most

VIEW = '{:mark "bar" :encoding {:x {:field "a" :type "%s"}}}'
# six values a view: a spec just within the size bound, whose check takes about a second
WITHIN = MAX_NODES // 6 - 4


def layers(n: int, kind: str) -> str:
    return f'(chart/spec {{:data {{:values [{{:a 1}}]}} :layer (vec (repeat {n} {VIEW % kind}))}})'


@pytest.mark.parametrize("isolation", ["inline", "process"])
def test_twelve_thousand_invalid_views_are_refused_at_once(isolation: str) -> None:
    out = run_forked(layers(12_000, "nominall"), hard_timeout=30, limits=Limits(timeout=1, isolation=isolation))
    assert out.status == "error" and f"more than {MAX_NODES} values" in out.message, out.describe()
    assert out.elapsed < LATE, out.describe()
    if isolation == "inline":
        assert out.peak_growth < GROWTH, f"{out.peak_growth >> 20} MB: {out.describe()}"


@pytest.mark.parametrize("isolation", ["inline", "process"])
def test_a_check_that_outlasts_the_run_ends_at_its_deadline(isolation: str) -> None:
    timeout = 0.2
    out = run_forked(layers(WITHIN, "nominal"), hard_timeout=30, limits=Limits(timeout=timeout, isolation=isolation))
    assert out.status == "error" and out.kind == "limit" and "timeout" in out.message, out.describe()
    assert out.elapsed <= timeout + LATE, out.describe()
    if isolation == "inline":
        assert out.peak_growth < GROWTH, f"{out.peak_growth >> 20} MB: {out.describe()}"


@pytest.mark.parametrize("isolation", ["inline", "process"])
def test_invalid_views_within_the_bound_are_refused_at_the_first(isolation: str) -> None:
    """The schema's alternatives stop at their first error: 830 invalid views cost what one
    does (isolated, the child's first chart also imports the schema check: 0.1-0.3 s)."""
    out = run_forked(layers(WITHIN, "nominall"), hard_timeout=30, limits=Limits(timeout=1, isolation=isolation))
    assert out.status == "error" and "'nominall' is not one of" in out.message, out.describe()
    assert out.elapsed < (0.1 if isolation == "inline" else LATE), out.describe()
    if isolation == "inline":
        assert out.peak_growth < GROWTH, f"{out.peak_growth >> 20} MB: {out.describe()}"


def test_a_spec_at_the_bound_is_checked_within_two_seconds_on_the_host() -> None:
    """Outside a run (a host's own Chart(spec)) no deadline applies: the size bound alone keeps
    the check short (0.6 s on an idle machine)."""
    view = {"mark": "bar", "encoding": {"x": {"field": "a", "type": "nominal"}}}
    start = time.perf_counter()
    check_spec({"data": {"values": [{"a": 1}]}, "layer": [view] * WITHIN})
    assert time.perf_counter() - start < 2.0
