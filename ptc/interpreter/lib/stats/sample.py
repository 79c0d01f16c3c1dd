"""What a statistic reads: a collection of numbers as a float array, within the run's limits.

A column of a table (`(map :v t)` over a table is a lazy seq over an Arrow column) is read as
the column's values, with no per-row conversion; any other collection is realized and its
items checked to be numbers. Descriptive statistics leave nil and NaN out, as pandas'
`skipna` does (pandas treats NaN as missing); a test refuses them (`strict`), saying how many
and how to drop them, as scipy's `nan_policy="raise"` would.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ... import context
from ...columnar import dispatch
from ...errors import runtime_error
from ...values import MAP_TYPES, iter_all, short, type_name

_EXACT = float(1 << 53)  # integers up to this are exact as floats


@dataclass
class Sample:
    """A collection's numbers as floats (nil and NaN left out), and what was left out."""

    values: np.ndarray
    nils: int = 0
    nans: int = 0
    integral: bool = False  # every value is an integer (exact as a float)

    @property
    def missing(self) -> int:
        return self.nils + self.nans

    def __len__(self) -> int:
        return len(self.values)


def _not_numbers(who: str, x: Any, what: str) -> Exception:
    if type(x) in MAP_TYPES or type(x).__name__ == "Row":
        return runtime_error(f"{who}: expected {what} of numbers, got a map {short(x)}",
                             hint=f"take one field of each row: ({who} (map :price rows))")
    return runtime_error(f"{who}: expected {what} of numbers, got {type_name(x)} {short(x)}",
                         hint="values must be numbers (nil and NaN values are left out)")


def items(coll: Any, who: str, what: str = "a collection") -> list[Any]:
    """coll's items as a list (realized within the limits), or an error for a non-collection."""
    if coll is None:
        return []
    if type(coll) in (int, float, str, bool) or type(coll) in MAP_TYPES:
        raise runtime_error(f"{who}: expected {what} of numbers, got {type_name(coll)} {short(coll)}",
                            hint=f"pass a vector or seq of numbers: ({who} [1 2 3]) or ({who} (map :k rows))")
    out = list(iter_all(coll, who))
    context.check_size(len(out), f"{who}'s input")
    return out


def read(coll: Any, who: str, what: str = "a collection") -> Sample:
    """coll's numbers, nil and NaN left out (and counted); an error for anything not a number."""
    array = dispatch.column_of(coll)
    if array is not None:
        return _from_arrow(array, who, what)
    return of_items(items(coll, who, what), who, what)


def of_items(xs: list[Any], who: str, what: str = "a collection") -> Sample:
    """A list of PTC values as a Sample (see read)."""
    types = set(map(type, xs))
    nils = 0
    if type(None) in types:
        kept = [x for x in xs if x is not None]
        nils = len(xs) - len(kept)
        xs = kept
        types.discard(type(None))
    if not types <= {int, float}:
        for x in xs:
            if type(x) is not int and type(x) is not float:
                raise _not_numbers(who, x, what)
    try:
        values = np.array(xs, dtype=np.float64) if xs else np.empty(0)
    except OverflowError:
        raise runtime_error(f"{who}: an integer too large for a floating-point statistic") from None
    return _finish(values, nils, types == {int})


def _from_arrow(array: Any, who: str, what: str) -> Sample:
    import pyarrow as pa

    t = array.type
    context.check_size(len(array), f"{who}'s input")
    if pa.types.is_null(t):
        return Sample(np.empty(0), len(array))
    if not (pa.types.is_integer(t) or pa.types.is_floating(t)):
        first = next((x for x in dispatch.column_seq(array.drop_null().slice(0, 1))), None)
        raise _not_numbers(who, first, what)
    nils = array.null_count
    if nils:
        array = array.drop_null()
    values = array.to_numpy(zero_copy_only=False).astype(np.float64, copy=False)
    return _finish(values, nils, pa.types.is_integer(t))


def _finish(values: np.ndarray, nils: int, ints: bool) -> Sample:
    nan = np.isnan(values)
    nans = int(nan.sum())
    if nans:
        values = values[~nan]
    integral = ints and (not len(values) or float(np.abs(values).max()) <= _EXACT)
    return Sample(values, nils, nans, integral)


def strict(coll: Any, who: str, what: str = "the sample") -> np.ndarray:
    """coll's numbers for a test, which must hold no nil or NaN (an error says how many, and the fix)."""
    s = read(coll, who)
    if s.missing:
        parts = [f"{n} {w}" for n, w in ((s.nils, "nil"), (s.nans, "NaN")) if n]
        raise runtime_error(f"{who}: {what} holds {' and '.join(parts)} (of {len(s) + s.missing} values)",
                            hint="a test reads every value: drop the missing ones first, e.g. "
                                 "(remove nil? xs), or (remove #(or (nil? %) (NaN? %)) xs)")
    return s.values


def paired(xs: Any, ys: Any, who: str, drop: bool) -> tuple[np.ndarray, np.ndarray]:
    """Two equally long collections of numbers as arrays; with drop, the pairs where either is
    nil or NaN left out (pandas' pairwise-complete rule), else such a pair is an error."""
    a, b = _positional(xs, who), _positional(ys, who)
    if len(a) != len(b):
        raise runtime_error(f"{who}: the two collections differ in length ({len(a)} and {len(b)})",
                            hint="pair each x with its y: both must have one value per observation")
    ok = ~(np.isnan(a) | np.isnan(b))
    if not ok.all():
        if not drop:
            raise runtime_error(f"{who}: {int((~ok).sum())} of {len(a)} pairs hold nil or NaN",
                                hint="a test reads every pair: keep the complete ones first, e.g. "
                                     "(filter (fn [[x y]] (and x y)) (map vector xs ys))")
        a, b = a[ok], b[ok]
    return a, b


def _positional(coll: Any, who: str) -> np.ndarray:
    """coll's numbers in place, nil as NaN (so two collections stay aligned)."""
    array = dispatch.column_of(coll)
    if array is not None:
        import pyarrow as pa

        t = array.type
        context.check_size(len(array), f"{who}'s input")
        if pa.types.is_null(t):
            return np.full(len(array), np.nan)
        if not (pa.types.is_integer(t) or pa.types.is_floating(t)):
            raise _not_numbers(who, next(iter(dispatch.column_seq(array.drop_null().slice(0, 1))), None),
                               "a collection")
        return array.cast(pa.float64()).fill_null(np.nan).to_numpy(zero_copy_only=False)
    return of_column(items(coll, who), who)


def aligned(coll: Any, who: str) -> tuple[np.ndarray, np.ndarray]:
    """coll's numbers in place (nil and NaN as NaN) and the mask of those present: for the
    statistics that give one value per item (z-scores, ranks), nil where the item is missing."""
    x = _positional(coll, who)
    return x, ~np.isnan(x)


def number(x: Any, who: str, what: str) -> float:
    """A numeric argument (a quantile, a mean to test against)."""
    if type(x) is int or type(x) is float:
        return float(x)
    raise runtime_error(f"{who}: {what} must be a number, got {type_name(x) if x is not None else 'nil'}")


def matrix(rows: Any, who: str, what: str = "the predictors") -> tuple[np.ndarray, list[Any] | None]:
    """A design matrix (n x p floats) and its column names: from a vector of numbers (one
    column), a vector of rows (each a vector of numbers), or a map of name -> column. A nil or
    NaN is an error saying how many rows hold one."""
    if type(rows) in MAP_TYPES:
        from ...values import map_items

        pairs = list(map_items(rows))
        columns = [_positional(col, who) for _, col in pairs]
        if len({len(c) for c in columns}) > 1:
            raise runtime_error(f"{who}: the columns of {what} differ in length ({sorted({len(c) for c in columns})})")
        names = [k for k, _ in pairs]
        x = np.column_stack(columns) if columns else np.empty((0, 0))
    else:
        xs = items(rows, who, what)
        names = None
        if xs and all(type(r) is int or type(r) is float or r is None for r in xs):
            x = of_column(xs, who)[:, None]
        else:
            width = None
            out = []
            for i, r in enumerate(xs):
                if (i & 4095) == 4095:
                    context.check_deadline()
                row = items(r, who, f"row {i + 1} of {what}")
                if width is None:
                    width = len(row)
                elif len(row) != width:
                    raise runtime_error(f"{who}: row {i + 1} of {what} has {len(row)} values, the first has {width}",
                                        hint="every row needs one value per predictor")
                out.append(row)
            context.check_size(len(out) * (width or 0), f"{who}'s {what}")
            flat = [v for row in out for v in row]
            if not set(map(type, flat)) <= {int, float, type(None)}:
                i, bad = next((i, v) for i, v in enumerate(flat) if type(v) not in (int, float, type(None)))
                raise runtime_error(f"{who}: row {i // width + 1} of {what} holds {type_name(bad)} {short(bad)}",
                                    hint=f"every value of {what} is a number: make a category one first, "
                                         'e.g. (if (= (:sex r) "male") 1 0)')
            x = of_column(flat, who).reshape(len(out), width or 0)
    bad = np.isnan(x).any(axis=1)
    if bad.any():
        raise runtime_error(f"{who}: {int(bad.sum())} of {len(x)} rows of {what} hold nil or NaN",
                            hint="drop incomplete rows first, e.g. (filter #(every? some? %) rows)")
    return x, names


def of_column(xs: list[Any], who: str) -> np.ndarray:
    """Numbers (nil as NaN) as a float array, anything else an error."""
    if not set(map(type, xs)) <= {int, float, type(None)}:
        for x in xs:
            if x is not None and type(x) is not int and type(x) is not float:
                raise _not_numbers(who, x, "a collection")
    try:
        return np.array([np.nan if x is None else x for x in xs], dtype=np.float64) if xs else np.empty(0)
    except OverflowError:
        raise runtime_error(f"{who}: an integer too large for a floating-point statistic") from None
