"""`ptc suite`: run mission suites against models and compression strategies, and report.

    ptc suite run SUITE --model M [--model M2] [--compression none,coalesced] [--runs N] ...
    ptc suite report RESULTS.jsonl [--html report.html] [--png report.png]
    ptc suite validate SUITE

`bundled` names the packaged suite (ptc/suite/bundled/suite.yaml) and, after --replay, its
committed cassettes. See docs/suites.md.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from .common import server_options

CONTEXT = {"help_option_names": ["-h", "--help"]}

GROUP_EPILOG = """\b
Examples:
  ptc suite run bundled --replay bundled --compression none,coalesced
  ptc suite run my-suite.yaml --model openai/gpt-4o-mini --runs 3 --concurrency 8
  ptc suite report my-suite-results.jsonl --html report.html
  ptc suite validate my-suite.yaml
"""

RUN_EPILOG = """\b
Examples:
  # the bundled suite, offline from its committed cassettes (what CI runs)
  ptc suite run bundled --replay bundled --compression none,coalesced
\b
  # two real models x both strategies x 3 runs, 8 at a time, recording cassettes
  ptc suite run my-suite.yaml --model openai/gpt-4o-mini --model anthropic/claude-3-5-haiku-latest \\
      --compression none,coalesced --runs 3 --concurrency 8 --record cassettes/
\b
  # replay those cassettes later (no model calls, same prompts checked)
  ptc suite run my-suite.yaml --model openai/gpt-4o-mini --replay cassettes/ --results replay.jsonl
\b
  # a model on a local server (Ollama here; or api_base: in the suite file)
  ptc suite run my-suite.yaml --model ollama_chat/llama3.1 --api-base http://localhost:11434
\b
  # interrupted? run the same command again: executions already in --results are skipped
  ptc suite run my-suite.yaml --model openai/gpt-4o-mini --results results.jsonl
\b
  # spread executions over a Ray cluster (pip install 'ptc-lisp[ray]')
  ptc suite run my-suite.yaml --model openai/gpt-4o-mini --runs 10 --executor ray \\
      --ray-address ray://head:10001 --concurrency 64
\b
The model "scripted" answers with each mission's `script` replies (no LLM needed).
Exit status: 0 when the pass rate is at least --fail-under (default: every execution passes).
"""

REPORT_EPILOG = """\b
Examples:
  ptc suite report results.jsonl
  ptc suite report results.jsonl --html report.html
  ptc suite report results.jsonl --png report.png     (needs matplotlib: pip install 'ptc-lisp[plot]')
  ptc suite report results.jsonl --json
"""

VALIDATE_EPILOG = """\b
Examples:
  ptc suite validate my-suite.yaml
  ptc suite validate bundled
"""


@click.group("suite", context_settings=CONTEXT, epilog=GROUP_EPILOG)
def suite_group() -> None:
    """Run mission suites (missions x models x strategies x runs) and report on them."""


def resolve_suite_path(text: str) -> Path:
    p = Path(text)
    if p.exists() or text != "bundled":
        return p
    from ptc.suite.bundled import SUITE_PATH

    return SUITE_PATH


def resolve_cassettes(text: str | None) -> Path | None:
    if text is None:
        return None
    p = Path(text)
    if text == "bundled" and not p.exists():
        from ptc.suite.bundled import CASSETTES

        return CASSETTES
    return p


def _load(path_text: str) -> Any:
    from ptc.suite.spec import SuiteError, load_suite

    try:
        return load_suite(resolve_suite_path(path_text))
    except SuiteError as e:
        from .common import FileError

        raise FileError(str(e)) from None


def _split(values: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for v in values:
        out += [x.strip() for x in v.split(",") if x.strip()]
    return list(dict.fromkeys(out))


@suite_group.command("run", context_settings=CONTEXT, epilog=RUN_EPILOG)
@click.argument("suite_path", metavar="SUITE")
@click.option("--model", "-m", "models", multiple=True, metavar="M",
              help="A litellm model name, or 'scripted' (the missions' scripts). Repeatable; "
                   "default: scripted.")
@server_options
@click.option("--compression", "-c", "compression", multiple=True, metavar="S[,S]",
              help="Strategies: none (full history), coalesced (single-user-coalesced), append "
                   "(append-only-summaries) or 'module:Class'. Comma-separated or repeated; default: none.")
@click.option("--runs", "-n", default=1, show_default=True, type=click.IntRange(min=1),
              help="Runs of every mission x model x strategy.")
@click.option("--concurrency", "-j", default=4, show_default=True, type=click.IntRange(min=1),
              help="Executions in flight at once.")
@click.option("--replay", metavar="DIR", help="Answer from cassettes DIR/<mission>__<model>__<strategy>.jsonl "
              "('bundled': the packaged ones).")
@click.option("--record", metavar="DIR", help="Record every execution's model calls into cassettes in DIR.")
@click.option("--results", metavar="FILE.jsonl",
              help="Results file (appended; executions already in it are skipped). "
                   "Default: <suite-name>-results.jsonl.")
@click.option("--fresh", is_flag=True, help="Empty the results file first instead of resuming.")
@click.option("--retry-errors", is_flag=True, help="Also re-run executions that ended in an LLM or crash error.")
@click.option("--mission", "missions", multiple=True, metavar="ID", help="Only this mission (repeatable).")
@click.option("--executor", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="local: asyncio in this process; ray: a Ray task per execution (pip install 'ptc-lisp[ray]').")
@click.option("--ray-address", metavar="ADDR", help="Ray cluster to use (e.g. ray://head:10001, auto); "
              "default: start a local Ray.")
@click.option("--ray-cpus", default=1.0, show_default=True, type=click.FloatRange(min=0, min_open=True),
              metavar="N", help="CPUs reserved per Ray task (e.g. 0.25 for latency-bound real-model runs).")
@click.option("--store", "store_url", metavar="URL",
              help="Store for the results (a session per suite run, a run per execution): a SQLAlchemy URL, "
                   "a SQLite path or :memory:. Default: $PTC_STORE_URL, else $PTC_HOME/ptc.db, else "
                   "~/.local/share/ptc/ptc.db.")
@click.option("--no-store", is_flag=True, help="Write the results file only.")
@click.option("--html", "html_path", metavar="FILE", help="Also write the HTML report of the results file.")
@click.option("--fail-under", default=1.0, show_default=True, type=click.FloatRange(0, 1), metavar="RATE",
              help="Exit 1 when the pass rate is below this fraction.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary rows as JSON instead of the table.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def run_cmd(suite_path: str, models: tuple[str, ...], api_base: str | None, api_key: str | None,
            compression: tuple[str, ...], runs: int, concurrency: int,
            replay: str | None, record: str | None, results: str | None, fresh: bool, retry_errors: bool,
            missions: tuple[str, ...], executor: str, ray_address: str | None, ray_cpus: float,
            store_url: str | None, no_store: bool, html_path: str | None, fail_under: float, as_json: bool,
            quiet: bool) -> None:
    """Run every mission x model x compression strategy x run of SUITE and judge the results."""
    from rich.console import Console

    from ptc.suite import report
    from ptc.suite.execute import record_key
    from ptc.suite.runner import PlanError, plan, read_results, run_suite

    if replay and record:
        raise click.UsageError("--replay and --record exclude each other")
    if executor == "local" and ray_address:
        raise click.UsageError("--ray-address needs --executor ray")
    suite = _load(suite_path)
    model_list = _split(models) or ["scripted"]
    strategies = _split(compression) or ["none"]
    replay_dir = resolve_cassettes(replay)
    if replay_dir is not None and not replay_dir.is_dir():
        raise click.BadParameter(f"no cassette directory {replay_dir}", param_hint="--replay")
    results_path = Path(results) if results else Path(f"{suite.name}-results.jsonl")
    err = Console(stderr=True)
    out = Console()
    try:
        specs = plan(suite, models=model_list, strategies=strategies, runs=runs, replay=replay_dir, record=record,
                     missions=list(missions) or None, executor=executor, api_base=api_base, api_key=api_key)
    except PlanError as e:
        raise click.ClickException(str(e)) from None
    if fresh and results_path.exists():
        results_path.write_text("", encoding="utf-8")

    store = None
    if not no_store:
        try:
            from ptc.suite.runner import open_store

            store = open_store(store_url)
        except Exception as e:  # noqa: BLE001 - the results file is enough to go on
            err.print(f"[yellow]warning:[/yellow] results go to {results_path} only; cannot open the store: {e}",
                      highlight=False)

    progress_cm = _progress(err, disable=quiet or not err.is_terminal)

    def start(total: int, skipped: int) -> Any:
        if skipped:
            err.print(f"{skipped} of {total} executions already in {results_path}; running the other "
                      f"{total - skipped}", highlight=False)
        task = progress_cm.add_task(suite.name, total=total, completed=skipped, passed=0, failed=0)
        counts = {"passed": 0, "failed": 0}

        def tick(record: dict[str, Any]) -> None:
            counts["passed" if record.get("passed") else "failed"] += 1
            progress_cm.update(task, advance=1, **counts)

        return tick

    ray_options = {"num_cpus": ray_cpus} if executor == "ray" else None
    try:
        with progress_cm:
            summary = run_suite(suite, models=model_list, strategies=strategies, runs=runs, concurrency=concurrency,
                                replay=replay_dir, record=record, results=results_path,
                                missions=list(missions) or None, executor=executor, ray_address=ray_address,
                                ray_options=ray_options, store=store, retry_errors=retry_errors, progress=start,
                                api_base=api_base, api_key=api_key)
    except KeyboardInterrupt:
        err.print(f"\ninterrupted; finished executions are in {results_path} -- run the same command to resume",
                  highlight=False)
        sys.exit(130)
    except (PlanError, RuntimeError) as e:
        raise click.ClickException(str(e)) from None
    finally:
        if store is not None:
            store.close()

    wanted = {s.key for s in specs}
    records = [r for r in report.latest(read_results(results_path)) if record_key(r) in wanted]
    rows = report.summarize(records)
    if as_json:
        click.echo(json.dumps({"suite": suite.name, "results": str(results_path), "ran": summary.ran,
                               "skipped": summary.skipped, "session": summary.session_id,
                               "rows": [r.to_dict() for r in rows]}, indent=2))
    else:
        report.print_table(rows, out, title=f"suite {suite.name}: {len(records)} executions "
                                             f"({summary.ran} run now, {summary.skipped} from {results_path})")
        from rich.markup import escape

        for line in report.failures(records, limit=10):
            mark = "" if line.startswith("...") else "[red]FAIL[/red] "
            out.print(f"  {mark}{escape(line)}", highlight=False, soft_wrap=True)
        where = f"results: {results_path}"
        if summary.session_id:
            where += f"; store session {summary.session_id}"
        out.print(f"[dim]{where}[/dim]", highlight=False)
    for problem in summary.store_errors[:3]:
        err.print(f"[yellow]store warning:[/yellow] {problem}", highlight=False)
    if html_path:
        report.write_html(records, html_path)
        if not as_json:
            out.print(f"[dim]HTML report: {html_path}[/dim]", highlight=False)
    passed = sum(1 for r in records if r.get("passed"))
    rate = passed / len(records) if records else 0.0
    sys.exit(0 if records and rate >= fail_under else 1)


def _progress(console: Any, *, disable: bool) -> Any:
    from rich.progress import (
        BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn,
    )

    return Progress(SpinnerColumn(), TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("[green]{task.fields[passed]} passed[/green] [red]{task.fields[failed]} failed[/red]"),
                    TimeElapsedColumn(), TimeRemainingColumn(), console=console, disable=disable)


@suite_group.command("report", context_settings=CONTEXT, epilog=REPORT_EPILOG)
@click.argument("results", type=click.Path(exists=True, dir_okay=False))
@click.option("--html", "html_path", metavar="FILE", help="Write a self-contained HTML report (inline SVG charts).")
@click.option("--png", "png_path", metavar="FILE", help="Write the charts as a PNG (needs matplotlib).")
@click.option("--suite", "suite_name", metavar="NAME", help="Only the results of this suite.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary rows as JSON.")
def report_cmd(results: str, html_path: str | None, png_path: str | None, suite_name: str | None,
               as_json: bool) -> None:
    """Summarize a results file: pass rate, turns, tokens, cost and duration per model and strategy."""
    from rich.console import Console

    from ptc.suite import report

    records = report.load(results)
    if suite_name:
        records = [r for r in records if r.get("suite") == suite_name]
    if not records:
        raise click.ClickException(f"no results in {results}" + (f" for suite {suite_name}" if suite_name else ""))
    if png_path and not report.matplotlib_available():
        raise click.ClickException("--png needs matplotlib, which is not installed: pip install 'ptc-lisp[plot]' "
                                   "(the --html report needs nothing)")
    rows = report.summarize(records)
    if as_json:
        click.echo(json.dumps([r.to_dict() for r in rows], indent=2))
    else:
        out = Console()
        report.print_table(rows, out, title=f"{len(records)} executions from {results}")
        for line in report.failures(records, limit=10):
            out.print(f"  {line}", highlight=False, markup=False, soft_wrap=True)
    if html_path:
        report.write_html(records, html_path)
        if not as_json:
            click.echo(f"HTML report: {html_path}")
    if png_path:
        report.write_png(records, png_path)
        if not as_json:
            click.echo(f"PNG report: {png_path}")


@suite_group.command("validate", context_settings=CONTEXT, epilog=VALIDATE_EPILOG)
@click.argument("suite_path", metavar="SUITE")
def validate_cmd(suite_path: str) -> None:
    """Check a suite file (shape, imports, datasets, signatures, predicates) and list its missions."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    suite = _load(suite_path)
    t = Table(title=f"suite {suite.name}: {len(suite.missions)} missions ({suite.source})", title_justify="left",
              box=box.SIMPLE_HEAD, pad_edge=False)
    t.add_column("mission", no_wrap=True)
    for heading in ("tools", "data", "checks", "script", "max turns"):
        t.add_column(heading)
    for m in suite.missions:
        tools = ", ".join(r.split(":")[-1] for r in suite.tools_of(m)) or "-"
        data = suite.data_of(m)
        data_text = "-" if data is None else data if isinstance(data, str) else \
            ", ".join(data) if isinstance(data, (list, dict)) else str(data)
        checks = len(m.all_checks) + (1 if m.outbox else 0)
        t.add_row(m.id, tools, data_text, str(checks), f"{len(m.script)} replies" if m.script else "-",
                  str(suite.max_turns_of(m)))
    Console().print(t)
    click.echo("ok")
