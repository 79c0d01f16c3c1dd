"""`ptc bench tokens`: prompt tokens per LLM call under each way of keeping history.

Runs the bundled scenarios (`ptc.scenarios.bench`) once each with a scripted model,
renders the prompt of every LLM call as classic JSON tool calling, PTC with FullHistory and
PTC with SingleUserCoalesced (`ptc.bench.tokens.run_scenario`), counts the tokens
and checks each prompt for the facts the model needs at that point. Everything is
deterministic: token counts, not timings.

`bench/tokens.py` is the same command as a script.
"""

from __future__ import annotations

import json
import math
import os
from typing import TYPE_CHECKING, Any, Sequence

import click

if TYPE_CHECKING:
    from rich.console import Console

    from ptc.bench.tokens import ScenarioResult

JSON_TC, FULL, SUC = "json-tool-calling", "full-history", "single-user-coalesced"
STRATEGIES = (JSON_TC, FULL, SUC)
LABELS = {JSON_TC: "JSON tool calling", FULL: "PTC full history", SUC: "PTC single-user-coalesced"}
TARGET_COALESCED_VS_FULL = 0.50
TARGET_FACTS = 1.0
TARGET_PTC_VS_JSON = 0.15

TOKENS_EPILOG = """\b
Examples:
  ptc bench tokens
  ptc bench tokens --scenario sales-analysis --scenario support-outreach
  ptc bench tokens --json > tokens.json
  ptc bench tokens --plot tokens.png        (needs matplotlib: pip install 'ptc[plot]')
  ptc bench tokens --encoding cl100k_base
"""


@click.group("bench", context_settings={"help_option_names": ["-h", "--help"]},
             epilog="\b\nExamples:\n  ptc bench tokens\n  ptc bench tokens --json\n")
def bench() -> None:
    """Deterministic benchmarks of ptc itself (no LLM needed)."""


@bench.command("tokens", epilog=TOKENS_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--encoding", default="o200k_base", show_default=True, metavar="NAME",
              help="tiktoken encoding to count with (falls back to a chars/4 estimate when unavailable).")
@click.option("--scenario", "scenario_names", multiple=True, metavar="NAME",
              help="Run only this scenario (repeatable). Default: all bundled scenarios.")
@click.option("--json", "as_json", is_flag=True, help="Print every number (per call too) as JSON.")
@click.option("--plot", "plot_path", metavar="FILE.png", type=click.Path(dir_okay=False, writable=True),
              help="Also write a chart of cumulative prompt tokens per call (needs matplotlib).")
def tokens_cmd(encoding: str, scenario_names: tuple[str, ...], as_json: bool, plot_path: str | None) -> None:
    """Compare the prompt tokens of each way of keeping history.

    Runs the bundled multi-turn scenarios and counts the prompt tokens of every LLM call
    under JSON tool calling, PTC with full history and PTC single-user-coalesced.

    The table shows per scenario the number of LLM calls, the cumulative prompt tokens of
    each strategy, the ratios, and the share of needed facts (mission, tool calls made,
    names defined, printed lines, the last error) present in each prompt. The summary
    states the headline ratios against their targets.
    """
    if plot_path is not None:
        _require_matplotlib()
    results = run(scenario_names, encoding)
    if plot_path is not None:
        try:
            write_plot(results, plot_path)
        except OSError as e:
            raise click.ClickException(f"cannot write {plot_path}: {e.strerror or e}") from e
    if as_json:
        click.echo(json.dumps(to_json(results, encoding), indent=2))
        return
    from rich.console import Console

    console = Console()
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(width=100)  # piped: room for the whole table rather than rich's 80
    print_report(results, encoding, console)
    if plot_path is not None:
        console.print(f"\nplot written to {plot_path}")


# -- running -------------------------------------------------------------------------------


def run(scenario_names: Sequence[str], encoding: str) -> list["ScenarioResult"]:
    """Run the named scenarios (all when none are named), in the bundled order."""
    from ptc.bench.tokens import run_scenario
    from ptc.scenarios import bench as scenarios

    unknown = [n for n in scenario_names if n not in scenarios.names()]
    if unknown:
        raise click.BadParameter(f"unknown scenario {', '.join(map(repr, unknown))}; "
                                 f"choose from: {', '.join(scenarios.names())}", param_hint="--scenario")
    chosen = [s for s in scenarios.SCENARIOS if not scenario_names or s.name in scenario_names]
    return [run_scenario(s, encoding=encoding) for s in chosen]


def ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def outcome_ok(result: "ScenarioResult") -> bool:
    """The scenario ended as intended: every reply used, ok or deliberately failed."""
    return result.ok == result.scenario.expect_ok and len(result.turns) == len(result.scenario.replies)


# -- JSON ----------------------------------------------------------------------------------


def to_json(results: Sequence["ScenarioResult"], encoding: str) -> dict[str, Any]:
    from ptc.bench.tokens import summary
    from ptc.llm.tokens import tokenizer_name

    scenarios_out = []
    for r in results:
        strategies = {}
        for name, s in r.strategies.items():
            cumulative, running = [], 0
            for n in s.tokens_per_call:
                running += n
                cumulative.append(running)
            strategies[name] = {
                "tokens_per_call": s.tokens_per_call,
                "cumulative_per_call": cumulative,
                "total": s.total,
                "system_tokens": s.system_tokens,
                "history_total": s.history_total,
                "facts_present": s.facts_present,
                "facts_total": s.facts_total,
                "fact_share": s.fact_share,
                "facts_per_call": [{"present": p, "total": t} for p, t in s.facts_per_call],
                "missing_facts": r.missing.get(name, []),
            }
        totals = {name: r.strategies[name].total for name in STRATEGIES}
        scenarios_out.append({
            "name": r.scenario.name,
            "description": r.scenario.description,
            "calls": len(r.turns),
            "data_heavy": r.scenario.data_heavy,
            "ok": r.ok,
            "expect_ok": r.scenario.expect_ok,
            "outcome_as_intended": outcome_ok(r),
            "failed_turns": [t.number for t in r.turns if not t.success],
            "coalesced_vs_full": ratio(totals[SUC], totals[FULL]),
            "coalesced_vs_json": ratio(totals[SUC], totals[JSON_TC]),
            "full_vs_json": ratio(totals[FULL], totals[JSON_TC]),
            "strategies": strategies,
        })
    return {
        "encoding": encoding,
        "tokenizer": tokenizer_name(encoding),
        "scenarios": scenarios_out,
        "summary": summary(results),
        "targets": {"coalesced_vs_full_5plus": TARGET_COALESCED_VS_FULL,
                    "coalesced_facts_5plus": TARGET_FACTS,
                    "ptc_vs_json_data_heavy": TARGET_PTC_VS_JSON},
    }


# -- table ---------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _share(x: float) -> str:
    """A whole percentage, rounded down: 100 only when nothing is missing."""
    return str(math.floor(100 * x + 1e-9))


def _facts(result: "ScenarioResult") -> str:
    """Fact shares as json/full/coal percentages, a missed fact in yellow."""
    parts = []
    for name in STRATEGIES:
        s = result.strategies[name]
        text = _share(s.fact_share)
        parts.append(text if s.facts_present == s.facts_total else f"[yellow]{text}[/yellow]")
    return "/".join(parts)


def summary_lines(results: Sequence["ScenarioResult"]) -> list[tuple[str, bool | None]]:
    """The headline lines, each with whether its target is met (None: nothing to measure)."""
    from ptc.bench.tokens import summary

    s = summary(results)
    cvf, facts, pvj = s["coalesced_vs_full_5plus"], s["coalesced_facts_5plus"], s["ptc_vs_json_data_heavy"]
    lines: list[tuple[str, bool | None]] = []
    if cvf is None:
        lines.append(("SingleUserCoalesced / FullHistory over 5+ turn scenarios: n/a (none selected)", None))
    else:
        met = cvf <= TARGET_COALESCED_VS_FULL and facts >= TARGET_FACTS
        lines.append((f"SingleUserCoalesced / FullHistory over 5+ turn scenarios: {_pct(cvf)} (target <= 50%), "
                      f"facts kept: {_pct(facts)} (target 100%)", met))
        lines.append((f"  without the system prompt (history only): {_pct(s['coalesced_vs_full_5plus_history'])}; "
                      f"facts: worst of {len(s['scenarios_5plus'])} scenarios", None))
    if pvj is None:
        lines.append(("PTC / JSON tool calling on data-heavy scenarios: n/a (none selected)", None))
    else:
        lines.append((f"PTC / JSON tool calling on data-heavy scenarios: {_pct(pvj)} (target <= 15%)",
                      pvj <= TARGET_PTC_VS_JSON))
        lines.append((f"  PTC full history / JSON tool calling: {_pct(s['full_vs_json_data_heavy'])} "
                      f"over {len(s['scenarios_data_heavy'])} data-heavy scenarios", None))
    return lines


def print_report(results: Sequence["ScenarioResult"], encoding: str, console: "Console") -> None:
    from rich import box
    from rich.table import Table

    from ptc.llm.tokens import tokenizer_name

    table = Table(title=f"Cumulative prompt tokens per scenario ({tokenizer_name(encoding)})",
                  title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1, 0, 0))
    table.add_column("scenario")  # on a narrow terminal the names wrap, the numbers stay whole
    for heading in ("calls", "json", "full", "coal", "c/full", "c/json", "facts%"):
        table.add_column(heading, justify="right", no_wrap=True)
    for r in results:
        t = {name: r.strategies[name].total for name in STRATEGIES}
        marks = ("*" if len(r.turns) >= 5 else "") + ("d" if r.scenario.data_heavy else "")
        name = r.scenario.name + (f" [dim]{marks}[/dim]" if marks else "")
        if not outcome_ok(r):
            name += " [red]![/red]"
        table.add_row(name, str(len(r.turns)), f"{t[JSON_TC]:,}", f"{t[FULL]:,}", f"{t[SUC]:,}",
                      _pct(ratio(t[SUC], t[FULL])), _pct(ratio(t[SUC], t[JSON_TC])), _facts(r))
    if len(results) > 1:
        t = {name: sum(r.strategies[name].total for r in results) for name in STRATEGIES}
        table.add_section()
        table.add_row("all", str(sum(len(r.turns) for r in results)), f"{t[JSON_TC]:,}", f"{t[FULL]:,}",
                      f"{t[SUC]:,}", _pct(ratio(t[SUC], t[FULL])), _pct(ratio(t[SUC], t[JSON_TC])), "")
    console.print(table)
    for note in ("json: JSON tool calling; full: PTC full history; coal: PTC single-user-coalesced",
                 "facts%: facts needed at each call found in its prompt, json/full/coal",
                 "        (for json only the mission and the tool calls count)",
                 "* 5+ LLM calls   d data-heavy   ! not the intended outcome"):
        console.print(f"[dim]{note}[/dim]", highlight=False)
    console.print()
    for line, met in summary_lines(results):
        mark = "" if met is None else (" [green]met[/green]" if met else " [red]NOT met[/red]")
        console.print(line + mark, highlight=False, soft_wrap=True)
    missing = [(r.scenario.name, m) for r in results for m in r.missing.get(SUC, [])]
    if missing:
        console.print(f"\n[yellow]single-user-coalesced missed {len(missing)} fact(s); first ones:[/yellow]")
        for name, m in missing[:5]:
            console.print(f"  {name}: {m}", highlight=False, markup=False)


# -- plot ----------------------------------------------------------------------------------


def _require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.ClickException(
            "--plot needs matplotlib, which is not installed: pip install 'ptc[plot]' "
            "(or pip install matplotlib)") from None


COLORS = {JSON_TC: "#d62728", FULL: "#1f77b4", SUC: "#2ca02c"}


def write_plot(results: Sequence["ScenarioResult"], path: str) -> None:
    """A grid of small charts, one per scenario: cumulative prompt tokens after each LLM
    call, one line per strategy (log scale: JSON tool calling is often 10x the others)."""
    _require_matplotlib()
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator

    n = len(results)
    cols = min(4, n)
    rows = math.ceil(n / cols)
    fig = Figure(figsize=(4.2 * cols, 3.2 * rows + 0.8), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    thousands = FuncFormatter(lambda y, _: f"{y / 1000:g}k" if y >= 1000 else f"{y:g}")
    for i, r in enumerate(results):
        ax = axes[i // cols][i % cols]
        calls = list(range(1, len(r.turns) + 1))
        for name in STRATEGIES:
            cumulative, running = [], 0
            for tokens in r.strategies[name].tokens_per_call:
                running += tokens
                cumulative.append(running)
            ax.plot(calls, cumulative, marker="o", markersize=3, color=COLORS[name], label=LABELS[name])
        t = {name: r.strategies[name].total for name in STRATEGIES}
        ax.set_title(f"{r.scenario.name}\ncoal/full {_pct(ratio(t[SUC], t[FULL]))}, "
                     f"coal/json {_pct(ratio(t[SUC], t[JSON_TC]))}", fontsize=9)
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(thousands)
        ax.yaxis.set_minor_formatter(FuncFormatter(lambda *_: ""))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.tick_params(labelsize=8)
        ax.grid(True, which="major", alpha=0.3)
        if i % cols == 0:
            ax.set_ylabel("cumulative prompt tokens", fontsize=8)
        if i // cols == rows - 1 or i + cols >= n:
            ax.set_xlabel("LLM call", fontsize=8)
    for j in range(n, rows * cols):
        axes[j // cols][j % cols].set_visible(False)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=3, fontsize=9, frameon=False)
    fig.suptitle("Cumulative prompt tokens per LLM call (log scale)", fontsize=11)
    fig.savefig(path, dpi=110)
