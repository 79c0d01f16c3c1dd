"""Python source text as the compiler writes it: what the compiler and the builtins' inline
templates (lib/inline.py) both need to tell about an expression's text or a node's constant."""

from __future__ import annotations

from typing import Any, Protocol

from . import nodes as n

MARK = "\x01"  # starts a position marker in generated source (see compiler)
FAST_INT = 1 << 62  # inline +/-/inc/dec results within this bound skip the integer-size check
NO_CONST = object()  # const_of's answer for a node that is not a constant


class Temps(Protocol):
    """A function being generated, as templates use it: fresh temporaries."""

    def tmp(self) -> str: ...


def is_number_literal(e: str) -> bool:
    try:
        float(e)
        return True
    except ValueError:
        return False


def is_simple_text(e: str) -> bool:
    """e is a name or a short literal: evaluating it twice costs nothing and has no effect."""
    return e.isidentifier() or e in ("None", "True", "False") or is_number_literal(e) or \
        (e.startswith("_K") and e[2:].isdigit()) or (e[:1] in "'\"" and "\n" not in e and len(e) < 200
                                                      and MARK not in e and e.count(e[0]) == 2)


def is_literal_text(e: str) -> bool:
    """e is a number or string literal (its node need not be a Const: (let [] 0) compiles to 0),
    which Python warns about when it is tested with `is`."""
    return is_number_literal(e) or e[:1] in "'\""


def bind_once(fn: Temps, e: str) -> tuple[str, str]:
    """(prefix-evaluating expression, name) so that e is evaluated exactly once."""
    if is_simple_text(e):
        return "", e
    t = fn.tmp()
    return f"({t} := {e})", t


def const_of(node: n.Node) -> Any:
    """The node's constant value, or NO_CONST."""
    return node.value if type(node) is n.Const else NO_CONST  # type: ignore[attr-defined]
