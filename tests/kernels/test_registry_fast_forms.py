"""Every fast form a builtin's registry entry declares gives its row form's result, driven from
the registry (issue 32: a builtin is one entry): a new `column_op` or `pure=True` is tested
here without a line added.

- `column_op`: the builtin called in a fn over a table's rows runs as a column kernel; over
  every choice of arguments from a pool of columns and constants, the table (kernels) and the
  same rows as plain maps (the row path) print the same value or raise the same error.
- `pure`: a lazy seq mapping a pure fn may be computed ahead of what is asked (lazy.Ahead);
  taking any prefix of it gives what the same fn gives when the compiler cannot see it.
- `stage`, `consumes`, `shapes`: fused, eager and generated calls give what the builtin gives.
- `boolean`, `int_result`, `comparison`, `step`: what the compiler assumes of a call's value
  holds over a pool of arguments.
"""

from __future__ import annotations

import datetime
import itertools
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")

import ptc  # noqa: E402
from tests.outcome import outcome  # noqa: E402
from ptc.interpreter.columnar.explain import explain  # noqa: E402
from ptc.interpreter.registry import REGISTRY, load_library  # noqa: E402

load_library()

ROWS = [
    {"i": 3, "j": 0, "f": 2.5, "s": "Paid", "d": datetime.date(2024, 2, 29), "e": datetime.date(2024, 1, 1)},
    {"i": -4, "j": 7, "f": -0.0, "s": "open", "d": datetime.date(2023, 12, 31), "e": datetime.date(2024, 1, 1)},
    {"i": 0, "j": 2, "f": 10.0, "s": "é", "d": datetime.date(2024, 1, 1), "e": datetime.date(2023, 6, 1)},
    {"i": 9, "j": -3, "f": 0.1, "s": "", "d": datetime.date(2024, 3, 14), "e": datetime.date(2024, 3, 14)},
]
# the same without the texts some kernels leave to the row path (beyond ASCII, empty), and with
# each date also as its ISO text (what LocalDate/parse reads)
CLEAN = [dict(r, s=t, t=r["d"].isoformat()) for r, t in zip(ROWS, ["Paid", "open", "Void", "ok"])]
DATASETS = [(ROWS, pa.Table.from_pylist(ROWS)), (CLEAN, pa.Table.from_pylist(CLEAN))]
# a column op that runs only inside another's (a DayOfWeek is a column only as its number)
WHERE_IT_RUNS = {".getDayOfWeek": "(mapv #(.getValue (.getDayOfWeek (:d %))) data/t)",
                 "LocalDate/parse": "(mapv #(LocalDate/parse (:t %)) data/t)",
                 "clojure.string/join": '(mapv #(str/join "-" [(:s %) (:i %) :k]) data/t)',
                 "re-find": '(mapv #(re-find #"[a-z]+" (:s %)) data/t)', "re-matches": '(mapv #(re-matches #"\\w+" (:s %)) data/t)'}
# what an operand may be: columns of each kind, a day of the week, constants
POOL = ["(:i %)", "(:j %)", "(:f %)", "(:s %)", "(:d %)", "(:e %)", "(.getDayOfWeek (:d %))", "2", "1.5", '"a"']

COLUMN_OPS = sorted(q for q, b in REGISTRY.items() if b.column_op is not None)
PURE = sorted(q for q, b in REGISTRY.items() if b.pure)


def _arities(q: str) -> list[int]:
    """The argument counts of 1 and 2 the entry's arglists take (a third argument of a variadic
    one is computed as the second is)."""
    out = set()
    for arglist in REGISTRY[q].arglists:
        names = arglist.strip("[]").split()
        if "&" in names:
            fixed = names.index("&")
            out.update(k for k in range(max(fixed, 1), 3))
        else:
            out.add(len(names))
    return sorted(k for k in out if 1 <= k <= 2)



def _outcome(src: str, data: Any) -> str:
    return outcome(src, data, message=False)


def _call(q: str, args: tuple[str, ...]) -> str:
    return f"({q} {' '.join(args)})"


@pytest.mark.parametrize("q", COLUMN_OPS)
def test_a_column_op_gives_the_row_forms_result(q: str) -> None:
    ran = 0
    for k in _arities(q):
        for args in itertools.product(POOL, repeat=k):
            if all(not a.startswith("(") for a in args):
                continue  # constants only: nothing of the rows
            src = f"(mapv #{_call(q, args)} data/t)"
            for rows, table in DATASETS:
                assert _outcome(src, table) == _outcome(src, rows), src
                if not ran:
                    ran += "kernel  map" in str(explain(src, data={"t": table}))
    if q in WHERE_IT_RUNS:
        ran += "kernel  map" in str(explain(WHERE_IT_RUNS[q], data={"t": DATASETS[1][1]}))
    assert ran, f"{q}'s column op never ran as a kernel over the pool"


XS = [1, 2.5, 0, -3, "a", None, 7, [1, 2], {"k": 1}]


@pytest.mark.parametrize("q", PURE)
def test_a_pure_builtin_in_a_lazy_seq_gives_what_a_hidden_fn_gives(q: str) -> None:
    for k in _arities(q):
        args = ["%"] + ["2"] * (k - 1) if q not in ("get", "get-in") else (["%", "0"] if q == "get" else ["%", "[0]"])
        fn = f"#{_call(q, tuple(args))}"
        for n in (1, 3, len(XS)):
            seen = f"(vec (take {n} (map {fn} data/t)))"
            hidden = f"(let [g (first [{fn}])] (vec (take {n} (map g data/t))))"
            assert _outcome(seen, XS) == _outcome(hidden, XS), seen


STAGES = sorted(name for name, b in REGISTRY.items() if b.stage is not None and b.stage != "reduce")
CONSUMERS = sorted(name for name, b in REGISTRY.items() if b.consumes is not None)
STAGE_FNS = {"map": "#(* 2 %)", "filter": "odd?", "remove": "odd?", "keep": "#(when (odd? %) (* 3 %))"}


@pytest.mark.parametrize("name", STAGES)
@pytest.mark.parametrize("coll", ["[1 2 3 4 5]", "(range 7)", "(map inc (range 40))", "'(9 8 7)", "[]"])
def test_every_stage_fused_gives_what_its_builtin_gives(name: str, coll: str) -> None:
    """`stage`/`vector_result`: chains of stages compile to one loop (compiler.fused); the same
    calls through a local the compiler cannot see give the same value, of the same type."""
    f = STAGE_FNS[REGISTRY[name].stage]  # type: ignore[index]
    fused = f"(let [xs ({name} {f} ({name} {f} {coll}))] [xs (vector? xs) (seq? xs) (count xs) (take 2 xs)])"
    hidden = f"(let [g {name} xs (g {f} (g {f} {coll}))] [xs (vector? xs) (seq? xs) (count xs) (take 2 xs)])"
    assert ptc.pr_str(ptc.run(fused).value) == ptc.pr_str(ptc.run(hidden).value)


@pytest.mark.parametrize("name", CONSUMERS)
def test_every_consumer_reads_an_eagerly_made_argument_as_a_lazy_one(name: str) -> None:
    """`consumes`: the argument a consumer reads whole is made eagerly (one loop over all of it);
    the call's value is the one a lazy argument gives, and an infinite one still stops at the limits."""
    i = REGISTRY[name].consumes
    args = {"count": [], "vec": [], "set": [], "frequencies": [], "last": [], "reverse": [], "group-by": ["odd?"],
            "sort": [], "sort-by": ["-"], "into": ["[]"], "sum-by": ["identity"], "avg-by": ["identity"],
            "min-by": ["identity"], "max-by": ["identity"], "clojure.string/join": ['","'], "reduce": ["+"],
            "apply": ["+"]}[name]
    assert i == len(args) or i == -1
    eager = f"({name} {' '.join(args)} (map inc (filter odd? (range 30))))"
    lazy = f"(let [m map] ({name} {' '.join(args)} (m inc (filter odd? (range 30)))))"
    assert ptc.pr_str(ptc.run(eager).value) == ptc.pr_str(ptc.run(lazy).value)
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(f"({name} {' '.join(args)} (map inc (range)))", limits=ptc.Limits(timeout=1))
    assert e.value.kind == "limit", e.value


def test_every_call_shape_an_entry_names_is_one_the_compiler_generates() -> None:
    """`shapes`: each names a code generator of compiler.SHAPES (a typo would silently never match)."""
    from ptc.interpreter.compiler import SHAPES

    named = {s for b in REGISTRY.values() for s in b.shapes}
    assert named and named <= set(SHAPES), named - set(SHAPES)
    assert set(SHAPES) <= named, f"shapes no builtin names: {set(SHAPES) - named}"


# -- what the compiler may assume of a call's value -------------------------------------------

VALUES = ["0", "1", "-1.5", "7", '"a"', "nil", "[1]", "{:a 1}", ":k", "#{1}", "true"]
_OPS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b, "=": lambda a, b: type(a) is type(b) and a == b}


def _called(name: str, args: tuple[str, ...]) -> Any:
    """(apply f args), or the error's kind ("error") when the call raises."""
    try:
        return ptc.run(f"(apply {name} [{' '.join(args)}])").value
    except ptc.PTCError:
        return "error"


@pytest.mark.parametrize("name", sorted(q for q, b in REGISTRY.items() if b.boolean))
def test_a_boolean_builtin_gives_true_or_false(name: str) -> None:
    """`boolean`: whatever it is given, a call gives true or false (or an error), so the compiler
    tests its value with no truthiness check."""
    for k in _arities(name):
        for args in itertools.product(VALUES, repeat=k):
            got = _called(name, args)
            assert got == "error" or type(got) is bool, (name, args, got)


@pytest.mark.parametrize("name", sorted(q for q, b in REGISTRY.items() if b.int_result or b.step or b.comparison))
def test_what_an_entry_says_of_numbers_holds(name: str) -> None:
    """`int_result` (integers in, an integer out), `step` ((f i) is i + step) and `comparison`
    ((f a b) is that comparison, "= 0": of a and zero): counted loops are compiled from them."""
    b = REGISTRY[name]
    ints, nums = [0, 7, -3, 2**70], [0, 7, -3, 2.5, -0.0]
    if b.int_result:
        for args in itertools.product(ints, repeat=1 if b.step is not None else 2):
            got = _called(name, tuple(map(str, args)))
            assert got == "error" or type(got) is int, (name, args, got)
    if b.step is not None:
        for i in ints:
            assert _called(name, (str(i),)) == i + b.step
    if b.comparison is not None:
        op, _, zero = b.comparison.partition(" ")
        for args in itertools.product(nums, repeat=1 if zero else 2):
            want = (args[0] == 0 if op == "=" else _OPS[op](args[0], 0)) if zero else _OPS[op](*args)
            assert _called(name, tuple(map(str, args))) == want, (name, args)


def test_every_group_reading_an_entry_names_is_one_the_table_engine_has() -> None:
    """`group_read`: each names a reading of columnar/folds.GROUP_READS, and each is named."""
    from ptc.interpreter.columnar.folds import GROUP_READS

    named = {b.group_read for b in REGISTRY.values() if b.group_read is not None}
    assert named == set(GROUP_READS), named ^ set(GROUP_READS)
