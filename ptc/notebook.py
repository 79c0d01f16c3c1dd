"""`%load_ext ptc`: the `%%ptc` cell magic runs a cell of PTC-Lisp over the notebook's variables.

    %%ptc
    (def by-region (group-by :region data/orders))   ; data/orders is the variable `orders`
    (tool/lookup {:id 3})                             ; tool/lookup is the function `lookup`

A name the cell uses as `data/x` or `tool/x` is the notebook variable `x` (a dash in the name
may be written `_` in Python: `data/top-items` reads `top_items`). Definitions (`def`, `defn`)
stay from one `%%ptc` cell to the next, like the REPL; `--reset` forgets them. The cell's
result displays itself (prints, tool calls, value, charts); `--out NAME` also keeps it in the
variable NAME. An error shows as ptc shows it (kind, line:column, hint), never a traceback.
Needs IPython (`pip install 'ptc-lisp[notebook]'`).
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from typing import Any, Mapping

_REFERENCE = re.compile(r"(?<![\w\-!?*<>=/.])(data|tool)/([A-Za-z_][\w\-!?*<>=]*)")


class CellError(ValueError):
    """A %%ptc cell that cannot run: bad options, or a name with no notebook variable."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="%%ptc", add_help=False, exit_on_error=False)
    p.add_argument("--out", metavar="NAME", help="also keep the result (a ptc.RunResult) in this variable")
    p.add_argument("--reset", action="store_true", help="forget the definitions of earlier %%ptc cells")
    p.add_argument("--timeout", type=float, default=None, help="seconds the program may run")
    return p


def references(source: str) -> tuple[list[str], list[str]]:
    """The data and tool names a program uses, in order of first use."""
    data: dict[str, None] = {}
    tools: dict[str, None] = {}
    for kind, name in _REFERENCE.findall(_without_strings_and_comments(source)):
        (data if kind == "data" else tools)[name] = None
    return list(data), list(tools)


def _without_strings_and_comments(source: str) -> str:
    return re.sub(r'"(?:[^"\\]|\\.)*"|;[^\n]*', " ", source)


def _variable(namespace: Mapping[str, Any], name: str, kind: str) -> Any:
    for candidate in (name, name.replace("-", "_")):
        if candidate in namespace:
            return namespace[candidate]
    python = name.replace("-", "_")
    raise CellError(f"{kind}/{name}: the notebook has no variable named {python!r}; "
                    f"define it in a Python cell first ({python} = ...)")


class PtcCells:
    """The state of `%%ptc` cells in one kernel: the definitions kept between cells."""

    def __init__(self) -> None:
        self.memory: dict[str, Any] = {}

    def run(self, line: str, cell: str, namespace: dict[str, Any]) -> Any:
        """Run one cell; returns the RunResult (displayed by Jupyter) or None after an error."""
        from ptc.interpreter.api import run
        from ptc.interpreter.errors import PTCError
        from ptc.interpreter.limits import Limits
        from ptc.tools import as_tools

        try:
            args, unknown = _parser().parse_known_args(shlex.split(line))
            if unknown:
                raise CellError(f"unknown option {' '.join(unknown)}")
        except (argparse.ArgumentError, ValueError) as e:
            print(f"%%ptc: {e}\n{_parser().format_usage()}", file=sys.stderr)
            return None
        if args.reset:
            self.memory = {}
        try:
            data_names, tool_names = references(cell)
            data = {n: _variable(namespace, n, "data") for n in data_names}
            tools = as_tools({n: _variable(namespace, n, "tool") for n in tool_names}) if tool_names else None
            limits = Limits(timeout=args.timeout) if args.timeout else None
            result = run(cell, data=data, tools=tools, memory=self.memory, limits=limits)
        except PTCError as e:
            print(e.format(), file=sys.stderr)
            return None
        except (CellError, TypeError, ValueError) as e:
            print(f"%%ptc: {e}", file=sys.stderr)
            return None
        self.memory = dict(result.memory)
        if args.out:
            namespace[args.out] = result
        return result


def load_ipython_extension(ipython: Any) -> None:
    """Register `%%ptc` (called by `%load_ext ptc`)."""
    cells = PtcCells()

    def ptc_cell(line: str, cell: str) -> Any:
        return cells.run(line, cell, ipython.user_ns)

    ptc_cell.__doc__ = __doc__
    ipython.register_magic_function(ptc_cell, magic_kind="cell", magic_name="ptc")
