"""Process isolation (ptc/interpreter/isolation/): same contract as inline, plus containment.

Also checks that docs/security.md documents every `ptc.Limits` field with its default.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import re
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

import ptc
from ptc import Limits, PTCError
from ptc.interpreter import isolation as iso
from ptc.interpreter.isolation import framing, host, pickling, zygote
from ptc.interpreter import values as v
from ptc.interpreter.printer import pr_str

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "win32",
                                reason="process isolation needs a POSIX host")

INLINE = Limits()
PROCESS = Limits(isolation="process")
DOC = Path(__file__).resolve().parent.parent / "docs" / "security.md"


def outcome(source, limits, **kw):
    """Everything observable about a run, in a comparable form."""
    try:
        r = ptc.run(source, limits=limits, **kw)
    except PTCError as e:
        p = getattr(e, "partial", None)
        return ("error", e.kind, e.message, e.line, e.column, e.hint,
                None if p is None else (p.prints, [(c.name, pr_str(c.args), c.error) for c in p.tool_calls]))
    return ("ok", pr_str(r.value), r.prints, [(c.name, pr_str(c.args), pr_str(c.result), c.error) for c in r.tool_calls],
            {k: pr_str(x) for k, x in r.memory.items()}, r.returned, r.failed, r.defined)


def search(query: str, limit: int = 2) -> list:
    return [{"id": i, "title": f"{query} #{i}", "score": 1.5 * i} for i in range(limit)]


def boom(**kw):
    raise ValueError(f"bad input {kw}")


def refuse(**kw):
    raise PTCError("runtime", "not allowed", hint="ask nicely")


async def fetch(url: str) -> dict:
    await asyncio.sleep(0.001)
    return {"url": url, "status": 200, "tags": ("a", "b")}


class Invoker:
    """A tool object with `invoke` receives the PTC arguments themselves."""

    def invoke(self, args):
        return {"seen": pr_str(args)}


class Opaque:
    pass


TOOLS = {"search": search, "boom": boom, "refuse": refuse, "fetch": fetch, "inv": Invoker(),
         "opaque": lambda: Opaque(), "echo": lambda *a: list(a)}

PARITY = [
    "(+ 1 2)",
    '(println "hello" [1 2.5 nil true] {:a #{:b}}) (prn "x") :done',
    '(def xs (map inc (range 5))) (defn sq [x] (* x x)) (def total (reduce + (map sq xs))) {:total total :xs xs}',
    '(let [hits (tool/search {:query "ptc" :limit 3})] (mapv :title hits))',
    '(tool/fetch "http://x")',
    '(tool/inv {:a [1 2] :b "s"})',
    '(tool/echo 1 "a" :k [1 2] #{3} nil 2.5 (range 3) #"x+" inc)',
    '(tool/boom {:x 1})',
    "(tool/refuse)",
    "(tool/opaque)",
    '(try (tool/boom) (catch Exception e (str "caught: " (ex-message e))))',
    "(dotimes [i 200] (tool/echo i))",
    '(println "before")\n(def y 2)\n  (/ y 0)',
    "(+ 1",
    "(undefined-fn 1)",
    '(return {:early true}) (println "not reached")',
    '(fail "gave up")',
    '(re-seq #"\\d+" "a1b22c333")',
    "(into (sorted-map) (map (fn [i] [i (str i)]) (range 20)))",
    "(group-by even? (range 40))",
    "(set (range 30))",
    "(count (range))",
    '(str/join ", " (map name [:a :b]))',
]


@pytest.mark.parametrize("source", PARITY)
def test_same_outcome_as_inline(source):
    data = {"rows": [{"n": 1}, {"n": 2}]}
    a = outcome(source, INLINE, tools=TOOLS, data=data)
    b = outcome(source, PROCESS, tools=TOOLS, data=data)
    if a[0] == "ok" and b[0] == "ok":  # functions stay in the child: compare their printed form
        assert a[:4] == b[:4] and a[5:] == b[5:]
        assert a[4] == b[4]
    else:
        assert a == b


def test_values_are_ptc_values():
    src = '{:v [1 2] :l (list 1 2) :m {:a 1} :s #{1} :kw :x :sym (quote y) :r #"a+" :e (first {:a 1})}'
    a = ptc.run(src).value
    b = ptc.run(src, limits=PROCESS).value
    for k in a:
        assert type(a[k]) is type(b[k]), k
    assert pr_str(a) == pr_str(b)
    assert b[v.Keyword("kw")] is v.Keyword("x")  # keywords stay interned across the pipe


def test_data_and_history():
    rows = [{"id": i, "tags": ["a", "b"], "w": i / 2} for i in range(50)]
    src = "[(count data/rows) (reduce + (map :w data/rows)) *1]"
    a = ptc.run(src, data={"rows": rows}, history=[42])
    b = ptc.run(src, data={"rows": rows}, history=[42], limits=PROCESS)
    assert pr_str(a.value) == pr_str(b.value)


def test_memory_chain_and_functions():
    r1 = ptc.run('(defn double [x] (* 2 x)) (def n 21) (def rx #"a+") (def s (map inc (range 3)))',
                 limits=PROCESS)
    assert list(r1.memory) == ["double", "n", "rx", "s"]
    assert r1.memory["n"] == 21 and pr_str(r1.memory["s"]) == "(1 2 3)"
    assert isinstance(r1.memory["double"], iso.IsolatedFn) and pr_str(r1.memory["double"]) == "#fn[double]"
    r2 = ptc.run('[n (re-find rx "caab") (fn? double) (count s)]', memory=r1.memory, limits=PROCESS)
    assert pr_str(r2.value) == '[21 "aa" true 3]'
    with pytest.raises(PTCError) as ei:
        ptc.run("(def m 1)\n(double n)", memory=r1.memory, limits=PROCESS)
    e = ei.value
    assert e.kind == "runtime" and (e.line, e.column) == (2, 1)
    assert "double" in e.message and "process" in e.message and "define" in e.hint
    assert "m" not in e.partial.memory  # all-or-nothing
    # an isolated placeholder behaves the same when the next run is inline
    with pytest.raises(PTCError, match="cannot cross the process boundary"):
        ptc.run("(double 1)", memory=r1.memory)


def test_lazy_sequences_and_regexes_in_memory():
    # an infinite sequence crosses as the prefix realized when its program ended (a chunk)
    r = ptc.run("(def nat (map inc (range))) (def fin (map inc (range 100))) 1", limits=PROCESS)
    assert ptc.run("(take 3 nat)", memory=r.memory, limits=PROCESS).value == (1, 2, 3)
    assert ptc.run("(last fin)", memory=r.memory, limits=PROCESS).value == 100
    with pytest.raises(PTCError, match="kept in memory only up to") as ei:
        ptc.run("(nth nat 100)", memory=r.memory, limits=PROCESS)
    assert "define it again" in ei.value.hint
    inline = ptc.run("(def nat (map inc (range))) 1")  # inline it stays lazy: no boundary to cross
    assert ptc.run("(nth nat 100)", memory=inline.memory).value == 101
    limits = Limits(isolation="process", max_regex=5000)  # longer than the host's default
    r = ptc.run('(def r (re-pattern (apply str (repeat 3000 "a")))) 1', limits=limits)
    assert len(r.memory["r"].source) == 3000
    assert ptc.run('(count (re-find r (apply str (repeat 3001 "a"))))', memory=r.memory, limits=limits).value == 3000


def test_memory_keeps_host_objects_it_did_not_change():
    inline = ptc.run("(defn g [x] (+ x 1)) (def k 1)")
    with pytest.raises(PTCError, match="g: this function was defined"):  # functions do not cross
        ptc.run("(def k 2) (g 1)", memory=inline.memory, limits=PROCESS)
    r = ptc.run("(def k 3) (fn? g)", memory=inline.memory, limits=PROCESS)
    assert r.memory["g"] is inline.memory["g"] and r.memory["k"] == 3
    assert ptc.run("(g 41)", memory=r.memory).value == 42  # still the real function inline


def test_errors_keep_kind_and_position():
    cases = {
        "(let [x 1]\n  (+ x \"a\"))": "runtime",
        "(defn f [x]\n  (f x))\n(f 1)": "limit",
        "[1 2\n 3": "parse",
        "(let [a 1]\n   (nope a))": "analysis",
        "(nth [1 2] 5)": "runtime",
        "(tool/boom)": "tool",
    }
    for src, kind in cases.items():
        with pytest.raises(PTCError) as a:
            ptc.run(src, tools=TOOLS)
        with pytest.raises(PTCError) as b:
            ptc.run(src, tools=TOOLS, limits=PROCESS)
        assert b.value.kind == kind == a.value.kind, src
        assert (b.value.message, b.value.line, b.value.column, b.value.hint) == \
               (a.value.message, a.value.line, a.value.column, a.value.hint), src


@pytest.mark.timing
def test_infinite_loop_stops_at_the_timeout():
    t = time.monotonic()
    with pytest.raises(PTCError) as ei:
        ptc.run('(println "start") (loop [i 0] (recur (inc i)))',
                limits=Limits(isolation="process", timeout=0.3, max_steps=10**12))
    assert ei.value.kind == "limit" and "timeout" in ei.value.message
    assert ei.value.partial.prints == ("start",)
    assert time.monotonic() - t < 3


@pytest.mark.timing
def test_stuck_in_c_code_is_killed_at_the_deadline():
    # Repeated squaring: each multiplication is one long C call the evaluator cannot interrupt
    # (inline, this run would last minutes). The host kills the child at timeout + grace.
    limits = Limits(isolation="process", timeout=0.3, max_int_bits=400_000_000)
    t = time.monotonic()
    with pytest.raises(PTCError) as ei:
        ptc.run("(loop [x 3 i 0] (if (< i 28) (recur (* x x) (inc i)) (count (str x))))", limits=limits)
    elapsed = time.monotonic() - t
    assert ei.value.kind == "limit" and "timeout=0.3" in ei.value.message and "killed" in ei.value.message
    assert elapsed < 0.3 + framing.GRACE_BASE + framing.GRACE_FACTOR * 0.3 + 1.5
    assert ptc.run("(+ 1 1)", limits=PROCESS).value == 2  # the host and the zygote are fine


@pytest.mark.timing
def test_memory_bomb_is_contained():
    # 100,000 distinct 10 KB integers (~1 GB) built by one builtin call: the max_memory
    # estimate charges 64 bytes per item, so what stops it is the resident memory measured
    # by the builtin's own limit checks, or else the child's address-space limit (2 *
    # max_memory + headroom): a MemoryError in the child, reported as `out of memory`; either
    # with its position.
    limits = Limits(isolation="process", max_memory=64 * 1024 * 1024, timeout=10, max_int_bits=100_000)
    src = "(let [b (reduce * (repeat 8000 1000))]\n  (count (mapv * (repeat 100000 b) (range 100000))))"
    t = time.monotonic()
    with pytest.raises(PTCError) as ei:
        ptc.run(src, limits=limits)
    e = ei.value
    assert e.kind == "limit" and "max_memory" in e.message, e
    assert "(measured)" in e.message or "out of memory" in e.message, e
    assert (e.line, e.column) == (2, 10)
    assert time.monotonic() - t < 8
    assert ptc.run("(count (range 1000))", limits=limits).value == 1000


def test_memory_growth_between_steps_is_caught_too():
    limits = Limits(isolation="process", max_memory=64 * 1024 * 1024, timeout=10)
    src = "(let [b (reduce * (repeat 800 1000))]\n  (count (mapv (fn [i] (+ b i)) (range 1000000))))"
    with pytest.raises(PTCError) as ei:
        ptc.run(src, limits=limits)
    assert ei.value.kind == "limit" and "max_memory" in ei.value.message


def test_tools_as_a_list_and_data_type_check():
    def add(a: int, b: int) -> int:
        return a + b

    for limits in (INLINE, PROCESS):
        assert ptc.run("(tool/add 1 2)", tools=[add], limits=limits).value == 3
    a = outcome("1", INLINE, data=[1, 2])
    assert a[0] == "error" and a == outcome("1", PROCESS, data=[1, 2])


def test_tool_time_counts_and_tools_run_in_the_host():
    seen = []

    def slow(x):
        seen.append(os.getpid())
        time.sleep(0.05)
        return x * 2

    r = ptc.run("(mapv #(tool/slow %) [1 2 3])", tools={"slow": slow}, limits=PROCESS)
    assert pr_str(r.value) == "[2 4 6]" and seen == [os.getpid()] * 3
    assert [c.result for c in r.tool_calls] == [2, 4, 6]

    def sleepy():
        time.sleep(0.5)
        return 1

    with pytest.raises(PTCError) as ei:
        ptc.run("(tool/sleepy) (tool/sleepy)", tools={"sleepy": sleepy},
                limits=Limits(isolation="process", timeout=0.3))
    assert ei.value.kind == "limit" and "timeout" in ei.value.message


@pytest.mark.timing
def test_async_tool_timeout_in_host():
    async def hang():
        await asyncio.sleep(10)

    t = time.monotonic()
    with pytest.raises(PTCError) as ei:
        ptc.run("(tool/hang)", tools={"hang": hang}, limits=Limits(isolation="process", timeout=0.3))
    assert ei.value.kind == "limit" and time.monotonic() - t < 3


def test_concurrent_runs_from_threads():
    results, errors = {}, []

    def work(i):
        try:
            r = ptc.run(f"(reduce + (range {i}))", tools={"search": search}, limits=PROCESS)
            results[i] = r.value
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(10, 18)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and results == {i: sum(range(i)) for i in range(10, 18)}


def test_zygote_restarts_after_being_killed():
    ptc.run("1", limits=PROCESS)
    server = zygote._SERVER
    assert server is not None
    os.kill(server.proc.pid, signal.SIGKILL)
    server.proc.wait(timeout=5)
    assert ptc.run("(+ 2 2)", limits=PROCESS).value == 4
    assert zygote._SERVER is not server


def test_dead_zygote_never_kills_the_host_with_sigpipe():
    # A host that restored SIGPIPE's default action must survive writing to a dead zygote.
    script = (
        "import os, signal, time, ptc\n"
        "from ptc.interpreter.isolation import zygote\n"
        "signal.signal(signal.SIGPIPE, signal.SIG_DFL)\n"
        "P = ptc.Limits(isolation='process')\n"
        "ptc.run('1', limits=P)\n"
        "os.kill(zygote._SERVER.proc.pid, signal.SIGKILL)\n"
        "zygote._SERVER.proc.wait()\n"
        "zygote._SERVER.alive = lambda: True  # make the host try the dead one first\n"
        "print(ptc.run('(+ 1 2)', limits=P).value)\n"
    )
    import subprocess

    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=root)
    assert out.returncode == 0 and out.stdout.strip() == "3", out.stderr


def test_unpicklable_memory_value_is_a_clear_error():
    with pytest.raises(PTCError, match="cannot be sent to the isolated process"):
        ptc.run("1", memory={"x": Opaque()}, limits=PROCESS)


def test_source_checks_happen_before_spawning():
    with pytest.raises(PTCError) as ei:
        ptc.run("(+ 1 2)" * 10, limits=Limits(isolation="process", max_source=10))
    assert ei.value.kind == "limit" and "max_source" in ei.value.message
    with pytest.raises(PTCError) as ei:
        ptc.run(b"(+ 1 2)", limits=PROCESS)  # type: ignore[arg-type]
    assert ei.value.kind == "parse"


# -- the host never trusts what the child sends ---------------------------------------------


def test_round_trip_of_every_value_type():
    src = ('{:v [1 2] :l (list 1 :a) :m {:a 1} :hm (zipmap (range 30) (range 30)) :s #{1 "x"} '
           ':hs (set (range 40)) :sym (quote y) :r #"a+" :e (first {:a 1}) :lz (take 3 (range)) '
           ':n nil :f 2.5 :big (reduce * (repeat 40 1000)) :str "é"}')
    value = ptc.run(src).value
    back = pickling._loads_untrusted(pickling._dumps(value), INLINE)
    assert pr_str(back) == pr_str(value)
    assert {k: type(x) for k, x in back.items()} == {k: type(x) for k, x in value.items()}


def test_unpickler_refuses_arbitrary_globals():
    class Evil:
        def __reduce__(self):
            return (os.system, ("echo pwned",))

    raw = pickle.dumps(("ok", Evil()))
    with pytest.raises(pickle.UnpicklingError, match="forbidden global"):
        pickling._loads_untrusted(raw, INLINE)
    with pytest.raises(host._BadMessage):
        host._parse(raw, INLINE)
    with pytest.raises(host._BadMessage):  # well-formed pickle, wrong shape (prints must be strings)
        host._parse(pickling._dumps(("ok", {"value": 1, "prints": [1]}, {})), INLINE)
    with pytest.raises(host._BadMessage):  # an allowed rebuilder called with the wrong argument type
        host._parse(pickle.dumps(("tool", "t", None))[:-1] + b"", INLINE)


def test_pickler_refuses_unknown_objects():
    with pytest.raises(pickle.PicklingError):
        pickling._dumps({"x": Opaque()})
    assert isinstance(pickling._loads_untrusted(pickling._dumps([len]), INLINE)[0], iso.IsolatedFn)
    with pytest.raises(pickle.PicklingError):
        pickling._dumps([len], functions=False)


def test_death_classification():
    class Fake:
        def __init__(self, code):
            self.code = code

        def exit_code(self, timeout):
            return self.code

        def kill(self):
            pass

    assert host._death_error(Fake(-signal.SIGKILL), INLINE, "").kind == "limit"
    assert "max_memory" in host._death_error(Fake(framing._EXIT_MEMORY), INLINE, "").message
    assert "timeout" in host._death_error(Fake(-signal.SIGXCPU), INLINE, "").message
    assert "SIGSEGV" in host._death_error(Fake(-signal.SIGSEGV), INLINE, "").message
    e = host._death_error(Fake(3), INLINE, "connection closed")
    assert e.kind == "runtime" and "exit code 3" in e.message


# -- docs/security.md documents every limit ------------------------------------------------


def _default_text(value) -> str:
    if isinstance(value, bool) or not isinstance(value, int):
        return repr(value) if not isinstance(value, str) else f'"{value}"'
    return f"{value:_}" if value >= 10_000 else str(value)


def limits_table() -> str:
    """The limits table of docs/security.md, generated from Limits.model_fields."""
    lines = ["| field | default | bounds |", "|---|---|---|"]
    for name, field in Limits.model_fields.items():
        lines.append(f"| `{name}` | `{_default_text(field.default)}` | {field.description} |")
    return "\n".join(lines)


def test_security_doc_lists_every_limit_with_its_default():
    text = DOC.read_text(encoding="utf-8")
    m = re.search(r"<!-- limits-table:start -->\n(.*?)\n<!-- limits-table:end -->", text, re.S)
    assert m, "docs/security.md lost its limits-table markers"
    assert m.group(1).strip() == limits_table(), (
        "the limits table in docs/security.md is stale; replace it with:\n" + limits_table())
    for name, field in Limits.model_fields.items():
        assert f"`{name}`" in text and f"`{_default_text(field.default)}`" in text


if __name__ == "__main__":  # python tests/test_isolation.py: print the table for the doc
    print(limits_table())
