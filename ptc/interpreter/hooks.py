"""What the packages above the interpreter provide to it (docs/architecture.md, "Layers").

The interpreter is the lowest layer: it imports nothing from `data/`, `tools/`, `charts/` or
`viewer/`. Where a run needs them (a DataFrame passed as data, a tool given to `ptc.run`, a
chart returned, a result shown in a notebook) it calls a `Provided` function here, and the top
layer (`ptc/__init__.py`) says which module provides it. The module is imported on the first
call, so `import ptc` stays light and a run that needs none of them imports none.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable


class Provided:
    """A function a higher layer provides, named `module:attr`, looked up on its first call."""

    __slots__ = ("what", "_where", "_fn")

    def __init__(self, what: str) -> None:
        self.what = what  # what the interpreter asks for, for the error when nothing provides it
        self._where: str | None = None
        self._fn: Callable[..., Any] | None = None

    def provide(self, where: str) -> None:
        """Name the provider (`package.module:function`); replaces any earlier one."""
        self._where, self._fn = where, None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fn = self._fn
        if fn is None:
            if self._where is None:
                raise RuntimeError(f"nothing provides {self.what} (ptc/__init__.py wires it)")
            module, _, name = self._where.partition(":")
            fn = self._fn = getattr(importlib.import_module(module), name)
        return fn(*args, **kwargs)


# data/: a host object (DataFrame, Arrow, DuckDB relation) as a pyarrow Table, or None
as_arrow = Provided("a table adapter for DataFrames, Arrow and DuckDB objects")
to_arrow = Provided("a PTC value as a pyarrow Table")
to_pandas = Provided("a PTC value as a pandas DataFrame")
# charts/: a returned value's charts checked, and found
check_charts = Provided("a check of the charts a program returns")
charts_in = Provided("the charts a value holds")
# tools/: tools given to a run as a mapping, held for the run, started before its clock
as_tools = Provided("tools from a list or a Tool")
tools_scope = Provided("a scope holding tools' resources for a run")
wait_started = Provided("a wait for the servers of the tools a program names")
json_result = Provided("a plain tool's result checked as JSON")
# viewer/: rich display in a notebook (of a run's result, and of an agent's turn and step)
result_html = Provided("a run result as HTML")
turn_html = Provided("an agent's turn as HTML")
step_html = Provided("an agent's step as HTML")
