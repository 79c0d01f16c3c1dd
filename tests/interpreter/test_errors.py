"""Errors: kinds, positions, hints, suggestions; never a bare Python exception."""

import pytest

import ptc


def err(source: str, **kw) -> ptc.PTCError:  # type: ignore[no-untyped-def]
    with pytest.raises(ptc.PTCError) as info:
        ptc.run(source, **kw)
    return info.value


def test_unknown_symbol_suggests_close_names() -> None:
    e = err("(map-indexd vector [1])")
    assert e.kind == "analysis" and "map-indexd" in e.message
    assert "map-indexed" in (e.hint or "")
    assert (e.line, e.column) == (1, 2)


def test_snake_case_suggests_kebab_case() -> None:
    e = err("(group_by :a [])")
    assert "group-by" in (e.hint or "")


def test_runtime_error_points_at_the_inner_form() -> None:
    e = err('(let [x 1]\n  (str x\n       (+ x "a")))')
    assert e.kind == "runtime"
    assert (e.line, e.column) == (3, 8)
    assert "+" in e.message and "string" in e.message


def test_arity_errors_name_the_function() -> None:
    e = err("(let [f (fn [x] x)] (f 1 2))")
    assert e.kind == "runtime" and "Wrong number of args (2)" in e.message
    e2 = err("(do (defn g ([a] a) ([a b] b)) (g 1 2 3))")
    assert "g" in e2.message and "1 or 2" in (e2.hint or "")
    e3 = err("(inc 1 2)")
    assert "inc" in e3.message


@pytest.mark.parametrize("source, message", [
    ("((merge {:a 1} {:b 3}) / -7 2)", "Wrong number of args (3) passed to: map"),  # fuzz F-13
    ("(let [m (zipmap (range 40) (range 40))] (m 1 2 3))", "Wrong number of args (3) passed to: map"),
    ("(let [v [1]] (v 0 1))", "Wrong number of args (2) passed to: vector"),
    ("(#{1} 1 2 3)", "Wrong number of args (3) passed to: set"),
])
def test_collections_called_with_too_many_args(source: str, message: str) -> None:
    e = err(source)
    assert e.kind == "runtime" and e.message == message and "__call__" not in (e.hint or "")


def test_calling_a_non_function() -> None:
    assert "integer" in err("(let [x 1] (x 2))").message
    assert err("(1 2)").kind == "analysis"


def test_interop_is_refused_with_a_hint() -> None:
    e = err('(.toUpperCas "x")')  # only the curated methods exist: a close one is suggested
    assert e.kind == "analysis" and "not supported" in e.message and ".toUpperCase" in (e.hint or "")
    assert "not supported" in err("(System/exit 0)").message
    assert "not supported" in err("(eval '(+ 1 2))").message
    assert "not supported" in err("(atom 1)").message


def test_recur_outside_tail_position() -> None:
    e = err("(loop [i 0] (inc (recur i)))")
    assert e.kind == "analysis" and "tail position" in e.message


def test_deep_recursion_is_a_limit_error() -> None:
    e = err("(do (defn deep [n] (if (zero? n) 0 (inc (deep (dec n))))) (deep 100000))")
    assert e.kind == "limit" and "max_depth" in e.message


def test_error_keeps_partial_prints_and_tool_calls() -> None:
    e = err('(println "before") (tool/t) (nth [] 3)', tools={"t": lambda: 1})
    partial = e.partial  # type: ignore[attr-defined]
    assert partial.prints == ("before",) and len(partial.tool_calls) == 1


def test_failing_tool_is_a_tool_error() -> None:
    def boom() -> None:
        raise ValueError("backend down")

    e = err("(tool/boom)", tools={"boom": boom})
    assert e.kind == "tool" and "backend down" in e.message


def test_tool_returning_a_python_object_is_refused() -> None:
    e = err("(tool/t)", tools={"t": lambda: object()})
    assert e.kind == "tool" and "cannot convert" in e.message


def test_format_has_kind_position_and_hint() -> None:
    text = err("(foo_bar 1)").format()
    assert text.startswith("error[analysis] 1:2: ")
