"""Shared by the library tests: run a program and get its value or its printed value."""

from typing import Any

import ptc
from ptc.interpreter.printer import pr_str


def run(src: str, **kw: Any) -> Any:
    return ptc.run(src, **kw).value


def show(src: str) -> str:
    return pr_str(run(src))
