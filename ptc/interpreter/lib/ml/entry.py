"""How the `ml` functions are declared, and how scikit-learn's refusals become PTC errors.

Every `ml/` function is a builtin of the `ml` namespace that needs numpy and a scikit-learn
module, imported when a program naming it is analyzed (registry.prepare), before the run's
clock starts. This module imports neither: the library registers itself without loading them.
"""

from __future__ import annotations

import contextlib
import re
import warnings
from typing import Any, Callable, Iterator

from ...errors import PTCError, runtime_error
from ...registry import builtin
from ..stats.threads import one_thread

CATEGORY = "machine learning"
MODELS = ("numpy", "sklearn.base", "sklearn.ensemble", "sklearn.tree", "sklearn.linear_model", "sklearn.neighbors",
          "sklearn.cluster", "sklearn.preprocessing", "sklearn.metrics")
SPLIT = ("numpy", "sklearn.model_selection")
METRICS = ("numpy", "sklearn.metrics")


def ml(name: str, *, args: str | tuple[str, ...], doc: str, ex: Any = (),
       needs: tuple[str, ...] = MODELS) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a function of the ml namespace (pure: its value or an error, nothing else; a
    fit's seed, when the program gives none, is drawn from the run's seeded generator)."""
    return builtin(name, ns="ml", args=args, doc=doc, category=CATEGORY, ex=ex, pure=True, needs=needs,
                   extra="stats")


def kebab(param: str) -> str:
    """scikit-learn's parameter name as a PTC option: n_estimators -> n-estimators."""
    return param.replace("_", "-")


_PARAMETER = re.compile(r"The '(\w+)' parameter of (\w+) must be (.*?)\.? Got (.*) instead\.?$", re.S)


_NUMPY_SCALAR = re.compile(r"np\.(?:int|float|str_|bool)\w*\(([^()]*)\)")


def _spelled(message: str) -> str:
    """scikit-learn's message with a parameter named as the PTC option it came from, and numpy's
    scalars (np.int64(1)) as the values they are."""
    message = _NUMPY_SCALAR.sub(r"\1", message)
    m = _PARAMETER.match(message)
    if m:
        return f":{kebab(m.group(1))} must be {m.group(3)}, got {m.group(4)}"
    return message


@contextlib.contextmanager
def calling(who: str, hint: str | None = None) -> Iterator[None]:
    """Around every scikit-learn call: one thread (stats/threads.py: a fit then gives the same
    bits inline and in an isolated child, and no thread outlives it); its warnings (convergence,
    ill-defined metrics) silenced, since a run's output is the program's and the value is
    scikit-learn's either way; its refusals of its inputs (ValueError, its InvalidParameterError)
    as PTC errors of `who`."""
    with one_thread(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            yield
        except PTCError:
            raise
        except ValueError as e:
            raise runtime_error(f"{who}: {_spelled(str(e))}", hint=hint) from None
