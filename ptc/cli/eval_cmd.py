"""`ptc eval EXPR` and `ptc run FILE`: run one program and print its result."""

from __future__ import annotations

import sys
from typing import Any

import click

from .common import (chart_option, data_option, json_option, load_data, output_option, read_source,
                     run_and_report, run_limits)

EVAL_EPILOG = """\b
Examples:
  ptc eval '(+ 1 2)'
      3
  ptc eval '(println "hi") (count data/orders)' --data orders.json
      hi
      30
  ptc eval --json '{:a [1 2]}'
      {"value": {"a": [1, 2]}, "prints": []}
  ptc eval '(filter #(> (:amount %) 100) data/sales)' --data sales.csv --output big.parquet
  ptc eval '(count data/orders)' --data shop.db --data q=book.xlsx#Q3
"""

RUN_EPILOG = """\b
Examples:
  ptc run examples/cli/orders.clj --data examples/cli/orders.json
  echo '(* 6 7)' | ptc run -
  ptc run prog.clj --data data.json --json --timeout 5
  ptc run report.clj --data sales=exports/2026.parquet --output report.csv
  ptc run examples/cli/chart.clj --data examples/cli/orders.json --chart revenue.png
  ptc run prog.clj --data orders.parquet --explain
"""


@click.command("eval", epilog=EVAL_EPILOG)
@click.argument("expression")
@data_option
@json_option
@output_option
@run_limits
def eval_cmd(expression: str, data_specs: tuple[str, ...], as_json: bool, output: str | None, limits: Any) -> None:
    """Evaluate a PTC-Lisp EXPRESSION and print its value (pr-str).

    Output of println comes first, one line each, then the value. Errors are written
    to stderr with the offending line and a hint, and the exit status is 1.
    """
    data = load_data(data_specs)
    sys.exit(run_and_report(expression, data=data, limits=limits, as_json=as_json, output=output))


@click.command("run", epilog=RUN_EPILOG)
@click.argument("program", metavar="PROGRAM")
@data_option
@json_option
@output_option
@run_limits
@chart_option
@click.option("--explain", "explain", is_flag=True,
              help="Then write to stderr which calls over tables ran as columnar kernels and which fell back to rows (and why).")
def run_cmd(program: str, data_specs: tuple[str, ...], as_json: bool, output: str | None, limits: Any,
            chart_path: str | None, explain: bool) -> None:
    """Run the PTC-Lisp file PROGRAM ('-' reads it from stdin) and print its value.

    Output of println comes first, one line each, then the pr-str of the value of the
    last form. Errors are written to stderr and the exit status is 1.
    """
    if program == "-" and "-" in data_specs:
        raise click.UsageError("PROGRAM and --data cannot both be read from stdin")
    source = read_source(program)
    data = load_data(data_specs)
    if explain:
        from ptc.interpreter.columnar.explain import explanation, recording

        with recording() as steps:
            status = run_and_report(source, data=data, limits=limits, as_json=as_json, output=output,
                                    chart_path=chart_path)
        click.echo(f"explain: {explanation(steps)}", err=True)
        sys.exit(status)
    sys.exit(run_and_report(source, data=data, limits=limits, as_json=as_json, output=output,
                            chart_path=chart_path))
