"""What a statistic's numpy or scipy call is estimated to take, checked before it starts.

Such a call cannot be stopped once it runs, so one that could not end within the run's time
left is refused first (context.check_time), naming the limit. The rates are seconds per value,
measured on a 2-core machine (docs/stats.md, "Limits") with a margin: a sort or a moment over a
million values takes milliseconds; ranks (Spearman, Kendall, Mann-Whitney, Kruskal-Wallis)
0.3-0.45 s.
"""

from __future__ import annotations

from ... import context

LINEAR = 2e-8  # a pass of moments over the values
SORT = 1e-7  # a sort (order statistics, modes, histograms)
RANK = 6e-7  # ranks and rank tests (scipy: about 4e-7 per value at a million)


def fits(n: int, who: str, per_value: float) -> None:
    """Refuse `who` over n values when it is estimated to take longer than the time left."""
    context.check_time(n * per_value, f"{who} over {n:,} values")
