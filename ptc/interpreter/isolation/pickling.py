"""What crosses the process boundary: PTC values and plain data pickled through the `_r_*`
rebuilders only (the host unpickles a child's messages with that allow-list), functions as
`IsolatedFn` placeholders, a record (a fitted model) as its fields alone."""


from __future__ import annotations

import contextlib
import datetime as dt
import io
import pickle
from typing import Any

from .. import context, dates
from .. import values as v
from ..lazy import OPEN_ENDED_PREFIX
from ..errors import PTCError
from ..lazy import Cut, NotInRun
from ..sorted import SortedMap, SortedSet
from ..table import Row, Table
from ..limits import Limits

_PLAIN = (type(None), bool, int, float, str)

# -- placeholders ---------------------------------------------------------------------------


class IsolatedFn:
    """A PTC function that stayed behind in the child process of an isolated run.

    It prints like the original (`#fn[name]`) and is a function for `fn?`, but calling it
    is a runtime error: functions cannot be sent between processes.
    """

    __slots__ = ("name", "__qualname__")

    def __init__(self, name: str) -> None:
        self.name = name
        self.__qualname__ = "ptc:" + name

    def __call__(self, *args: Any) -> Any:
        raise PTCError(
            "runtime",
            f"{self.name}: this function was defined by an earlier program run in process isolation "
            "and cannot cross the process boundary",
            hint=f"define {self.name} again in this program (functions kept in memory are not "
                 "carried between isolated runs; data values are)",
        )

    def __repr__(self) -> str:
        return f"#fn[{self.name}]"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, IsolatedFn) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("IsolatedFn", self.name))


def _fn_name(f: Any) -> str:
    q = getattr(f, "__qualname__", "") or ""
    return q[4:] if isinstance(q, str) and q.startswith("ptc:") else "fn"


# -- pickling: PTC values reduce to the _r_* rebuilders, nothing else is trusted --------------


def _r_kw(name: str) -> v.Keyword:
    _want(name, str)
    return v.Keyword(name)


def _r_sym(name: str) -> v.Symbol:
    _want(name, str)
    return v.Symbol(name)


def _r_list(items: tuple) -> v.PList:
    _want(items, tuple)
    return v.PList(items)


def _r_queue(items: list) -> v.PQueue:
    _want(items, list)
    return v.PQueue(items)


def _r_entry(k: Any, val: Any) -> v.MapEntry:
    return v.MapEntry((k, val))


def _r_vec(items: list) -> Any:
    _want(items, list)
    return v.pvector(items)


def _r_fmap(d: dict) -> v.FMap:
    _want(d, dict)
    return v.FMap(d)


def _r_hmap(d: dict) -> v.HMap:
    _want(d, dict)
    return v.HMap(d)


def _r_fset(items: list) -> v.FSet:
    _want(items, list)
    return v.FSet(items)


def _r_hset(items: list) -> v.HSet:
    _want(items, list)
    return v.HSet(items)


def _r_lazy(items: list, cut: bool = False) -> v.LazySeq:
    """A lazy sequence arrives realized (it was realized, under the run's limits, to be sent);
    an infinite one as the prefix realized so far (its rest cannot cross: see lazy.Cut)."""
    _want(items, list)
    return v.LazySeq.of_items(items, Cut() if cut else None)


def _r_sorted(keys: list, vals: list | None, comparator: Any) -> Any:
    """A sorted map or set arrives as its keys in order (and values); a comparator that is a
    function arrives as an IsolatedFn, so a later lookup in the other process says so."""
    from ..lib.core_sorted import sorted_in_order

    _want(keys, list)
    if vals is not None and (type(vals) is not list or len(vals) != len(keys)):
        raise pickle.UnpicklingError("malformed sorted map")
    return sorted_in_order(tuple(keys), None if vals is None else tuple(vals), comparator)


def _lazy_state(x: v.LazySeq) -> tuple[Any, ...]:
    if not x._cache and type(x._src).__name__ == "SelectionSource":  # a kernel's rows (a filter, a sort,
        # a take of a table), sized by the result check: they cross as a table, not a Row object each
        # (500,000 rows: more than a second, past the run's clock, before)
        return (_r_rows, _table_state(Table(x._src.sel.table()))[1])
    if not x.infinite:
        try:
            x.fill(OPEN_ENDED_PREFIX if x.open_ended else -1)
        except NotInRun:
            pass
    return (_r_lazy, (list(x._cache), not x.realized))


def _r_regex(source: str) -> v.Regex:
    """A regex value arrives as its source. It was checked against max_regex when the program
    made it (maybe in an earlier run, under other limits): rebuilding it is not a new check."""
    _want(source, str)
    from ..lib.regex import compile_regex

    if len(source) <= context.CURRENT.limits.max_regex:
        return compile_regex(source)
    with _run_state(Limits(max_regex=len(source))):
        return compile_regex(source)


def _r_fn(name: str) -> IsolatedFn:
    _want(name, str)
    return IsolatedFn(name)


def _r_record(tag: str, fields: dict, shown: list) -> v.Record:
    """A record (a fitted model) arrives as its public fields, a plain Record: what it was made
    from (a scikit-learn estimator, arbitrary Python) never crosses, so using it to predict in
    the other process says to fit it again (lib/ml/value.py)."""
    _want(tag, str)
    _want(fields, dict)
    _want(shown, list)
    if not all(type(k) is v.Keyword for k in (*fields, *shown)):
        raise pickle.UnpicklingError("malformed record")
    return v.Record(tag, v.make_map(fields), tuple(shown))


def _table_state(x: Table) -> tuple[Any, ...]:
    """A table crosses as one Arrow IPC stream (its column buffers, copied once): no per-row
    pickling, whatever its size. The stream is a pickle buffer: in the run's request it is sent
    out of band (`_dumps_parts`), not copied again into the pickle."""
    import pyarrow as pa

    arrow = x.arrow
    size = pa.MockOutputStream()  # the stream's size first: one buffer of it, never grown (a growing
    with pa.ipc.new_stream(size, arrow.schema) as writer:  # one held up to twice the table)
        writer.write_table(arrow)
    buf = pa.allocate_buffer(size.size())
    with pa.ipc.new_stream(pa.FixedSizeBufferWriter(buf), arrow.schema) as writer:
        writer.write_table(arrow)
    return (_r_table, (pickle.PickleBuffer(buf),))


def _r_table(stream: bytes) -> Table:
    """A table from an Arrow IPC stream; fully validated, since the child is not trusted."""
    if type(stream) is not bytearray:  # out of band (the host's request): the buffer as received
        _want(stream, bytes)
    import pyarrow as pa

    try:
        arrow = pa.ipc.open_stream(stream).read_all()
        arrow.validate(full=True)
    except (pa.ArrowException, ValueError) as e:
        raise pickle.UnpicklingError(f"malformed table: {e}") from None
    return Table(arrow)


def _r_rows(stream: bytes) -> v.LazySeq:
    """A seq of a table's rows (what a filter or a sort over a table gives), from its Arrow stream."""
    from ..columnar.dispatch import rows_seq

    return rows_seq(_r_table(stream).arrow)


def _r_date(ordinal: int) -> dt.date:
    _want(ordinal, int)
    return dt.date.fromordinal(ordinal)


def _r_datetime(ordinal: int, micros: int, utc: bool) -> dt.datetime:
    """A LocalDateTime (utc False) or an Instant, as its day and microsecond of the day."""
    _want(ordinal, int)
    _want(micros, int)
    day = dt.datetime.combine(dt.date.fromordinal(ordinal), dt.time(), dates.UTC if utc is True else None)
    return day + dt.timedelta(microseconds=micros)


def _r_duration(micros: int) -> dt.timedelta:
    _want(micros, int)
    return dt.timedelta(microseconds=micros)


def _r_time(micros: int) -> dt.time:
    """A LocalTime, as its microsecond of the day."""
    _want(micros, int)
    if not 0 <= micros < 86_400_000_000:
        raise pickle.UnpicklingError("malformed LocalTime")
    seconds, us = divmod(micros, 1_000_000)
    return dt.time(seconds // 3600, seconds // 60 % 60, seconds % 60, us)


def _r_formatter(pattern: str | None, iso: str | None, locale: str) -> dates.DateTimeFormatter:
    """A DateTimeFormatter arrives as what it was made of and is compiled again (its pattern was
    checked when the program made it; compiling it again checks it again)."""
    from ..lib.java_format import ISO, rebuilt

    if not ((type(pattern) is str and iso is None) or (pattern is None and type(iso) is str and iso in ISO)) \
            or locale not in ("ENGLISH", "UK", "ROOT"):
        raise pickle.UnpicklingError("malformed DateTimeFormatter")
    try:
        return rebuilt(pattern, iso, locale)
    except PTCError:
        raise pickle.UnpicklingError("malformed DateTimeFormatter") from None


def _r_enum(kind: str, name: str) -> dates.JavaEnum:
    table = {"ChronoUnit": dates.CHRONO_UNITS, "DayOfWeek": dates.DAYS_OF_WEEK, "Month": dates.MONTHS,
             "Locale": {e.name: e for e in dates.LOCALES.values()}}.get(kind)
    if table is None or name not in table:
        raise pickle.UnpicklingError("malformed java.time constant")
    return table[name]


def _datetime_state(x: dt.datetime) -> tuple[Any, ...]:
    u = x if x.tzinfo is None else x.astimezone(dates.UTC)
    micros = ((u.hour * 60 + u.minute) * 60 + u.second) * 1_000_000 + u.microsecond
    return (_r_datetime, (u.toordinal(), micros, x.tzinfo is not None))


def _want(x: Any, t: type) -> None:
    if type(x) is not t:
        raise pickle.UnpicklingError(f"expected {t.__name__}, got {type(x).__name__}")


_REBUILDERS = {f.__name__: f for f in (_r_kw, _r_sym, _r_list, _r_queue, _r_entry, _r_vec, _r_fmap, _r_hmap,
                                       _r_fset, _r_hset, _r_lazy, _r_regex, _r_fn, _r_record, _r_sorted, _r_table, _r_rows,
                                       _r_date, _r_datetime, _r_duration, _r_time, _r_formatter, _r_enum)}

_REBUILDER_SET = frozenset(_REBUILDERS.values())

_REDUCE = {
    v.Keyword: lambda x: (_r_kw, (x.name,)),
    v.Symbol: lambda x: (_r_sym, (x.name,)),
    v.PList: lambda x: (_r_list, (tuple(x),)),
    v.PQueue: lambda x: (_r_queue, (list(x),)),
    v.MapEntry: lambda x: (_r_entry, (x[0], x[1])),
    v.PVector: lambda x: (_r_vec, (list(x),)),
    v.FMap: lambda x: (_r_fmap, (dict(x),)),
    v.HMap: lambda x: (_r_hmap, (dict(x.items()),)),
    v.FSet: lambda x: (_r_fset, (list(x),)),
    v.HSet: lambda x: (_r_hset, (list(x),)),
    v.LazySeq: _lazy_state,
    SortedMap: lambda x: (_r_sorted, (list(x._keys), list(x._vals), x.comparator)),
    SortedSet: lambda x: (_r_sorted, (list(x._keys), None, x.comparator)),
    v.Regex: lambda x: (_r_regex, (x.source,)),
    IsolatedFn: lambda x: (_r_fn, (x.name,)),
    Table: _table_state,
    Row: lambda x: (_r_fmap, (x.as_dict(),)),


    dt.date: lambda x: (_r_date, (x.toordinal(),)),
    dt.datetime: _datetime_state,
    dt.timedelta: lambda x: (_r_duration, ((x.days * 86_400 + x.seconds) * 1_000_000 + x.microseconds,)),
    dt.time: lambda x: (_r_time, (((x.hour * 60 + x.minute) * 60 + x.second) * 1_000_000 + x.microsecond,)),
    dates.DateTimeFormatter: lambda x: (_r_formatter, (x.pattern, x.iso, x.locale)),
    dates.JavaEnum: lambda x: (_r_enum, (x.kind, x.name)),
}


class _Pickler(pickle.Pickler):
    """Pickles PTC values and plain data only. `functions=True` turns any other callable into an
    IsolatedFn placeholder; any other object is refused (PicklingError)."""

    def __init__(self, file: Any, functions: bool, buffer_callback: Any = None) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL, buffer_callback=buffer_callback)
        self.functions = functions

    def reducer_override(self, obj: Any) -> Any:
        t = type(obj)
        r = _REDUCE.get(t)
        if r is not None:
            return r(obj)
        if isinstance(obj, v.Record):
            return (_r_record, (obj.tag, dict(obj.fields.items()), list(obj.shown)))
        if t in (list, tuple, dict, set, frozenset, pickle.PickleBuffer) or t in _PLAIN or obj in _REBUILDER_SET:
            return NotImplemented
        if self.functions and callable(obj) and not isinstance(obj, type):
            return (_r_fn, (_fn_name(obj),))
        raise pickle.PicklingError(f"cannot send a Python {t.__name__} to the isolated process")


def _dumps(obj: Any, functions: bool = True) -> memoryview:
    """The pickled message, a view of the pickler's buffer: no copy of a large payload."""
    buf = io.BytesIO()
    _Pickler(buf, functions).dump(obj)
    return buf.getbuffer()


def _dumps_parts(obj: Any) -> tuple[memoryview, list[memoryview]]:
    """The pickled message and its out-of-band buffers (tables' Arrow streams), for `_send_parts`:
    a table is held once as its stream, never copied into the pickle."""
    buf = io.BytesIO()
    buffers: list[memoryview] = []
    pickler = _Pickler(buf, True, buffer_callback=lambda b: buffers.append(b.raw()))
    pickler.dump(obj)
    return buf.getbuffer(), buffers


class _Unpickler(pickle.Unpickler):
    """The host's view of child messages: only the `_r_*` rebuilders may be called."""

    def __init__(self, file: Any, limits: Limits, buffers: Any = ()) -> None:
        super().__init__(file, buffers=buffers)
        self.limits = limits

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name in _REBUILDERS:
            return _REBUILDERS[name]
        raise pickle.UnpicklingError(f"forbidden global {module}.{name} in a message from the child")


def _loads_untrusted(data: bytearray, limits: Limits, buffers: Any = ()) -> Any:
    return _Unpickler(io.BytesIO(data), limits, buffers).load()


@contextlib.contextmanager
def _run_state(limits: Limits) -> Any:
    """Make a run state with these limits current (limit checks in value code read it)."""
    with context.LOCK:
        prev = context.enter(context.RunState(limits))
        try:
            yield
        finally:
            context.leave(prev)


