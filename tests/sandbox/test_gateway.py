"""ptc.sandbox.Gateway in process (the MCP server behind `ptc mcp serve`), and the command's
usage errors; tests/mcp_tools/test_mcp_serve.py drives it as a real server."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import ptc
from ptc.cli.main import main
from ptc.sandbox import Gateway, Reply
from ptc.sandbox.mcp_server import call_result, structured

pytest.importorskip("mcp")


def customer(name: str) -> dict:
    """Look up a customer by name. Cities come from the CRM.

    Args:
        name: the customer's name, as in the orders.
    """
    return {"name": name, "city": {"ada": "London"}.get(name, "?")}


class Session:
    """A client connection as the SDK has it: an object the gateway keys its sandboxes by (weakly)."""


def gateway() -> Gateway:
    return Gateway(tools=[customer], data={"orders": [{"id": 1, "customer": "ada"}]},
                   limits=ptc.Limits(timeout=1, max_steps=100_000))


def test_the_description_lists_one_line_per_tool_and_the_doc_tool_the_rest() -> None:
    gw = gateway()
    line = "(tool/customer {:name :string}) -> :map - Look up a customer by name."
    assert line in gw.description.splitlines() and "the customer's name, as in the orders" not in gw.description
    assert "data/orders: list[1], sample: {:id 1, :customer \"ada\"}" in gw.description
    assert [t.name for t in gw.mcp_tools()] == ["run_ptc_lisp", "ptc_tool_doc"]
    doc = gw.tool_doc({"name": "tool/customer"})
    assert not doc.error and doc.text.splitlines()[-1] == "  :name - the customer's name, as in the orders."
    assert gw.tool_doc({"name": "nobody"}).error and gw.tool_doc({}).error
    assert [t.name for t in Gateway().mcp_tools()] == ["run_ptc_lisp"]  # no tools: no doc tool


def test_each_session_has_its_own_definitions() -> None:
    gw = gateway()
    first, second = Session(), Session()
    assert gw.run_program(first, {"program": "(def city (:city (tool/customer \"ada\"))) city"}).value == "London"
    assert gw.run_program(first, {"program": "city"}).value == "London"
    assert gw.run_program(second, {"program": "city"}).error
    assert gw.session_count == 2
    del first
    assert gw.session_count == 1  # a session's sandbox goes with its connection


def test_structured_content_for_maps_and_sequences_only() -> None:
    gw = gateway()
    session = Session()
    run = lambda program: gw.run_program(session, {"program": program})  # noqa: E731
    assert structured(run("{:a 1 \"b\" [2 3]}")) == {"a": 1, "b": [2, 3]}
    assert structured(run("(map inc [1 2])")) == {"result": [2, 3]}
    assert structured(run("#{1}")) == {"result": [1]}
    assert structured(run("42")) is None and structured(run("nil")) is None
    assert structured(run("{:x (/ 0.0 0.0)}")) is None  # NaN: text only
    assert structured(run("(vec (range 5000))")) is None  # clipped in the text: not sent whole
    assert structured(Reply("x", value=[1], complete=True)) == {"result": [1]}
    failed = call_result(run("(fail :no)"))
    assert failed.is_error and failed.structured_content is None and "error[fail]" in failed.content[0].text
    ok = call_result(run("[1]"))
    assert not ok.is_error and ok.content[0].text == "Result: [1]" and ok.structured_content == {"result": [1]}


@pytest.mark.parametrize("args, message", [
    (["--limits", "speed=3"], "is not NAME=VALUE with NAME one of: timeout"),
    (["--limits", "timeout=-1"], "timeout: Input should be greater than 0"),
    (["--token", "t"], "--token is for --http"),
    (["--data", "-"], "--data - reads stdin"),
    (["--http", "localhost"], "is not HOST:PORT"),
])
def test_usage_errors_are_clear(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["mcp", "serve", *args])
    assert result.exit_code == 2 and message in result.output, result.output
    assert "Traceback" not in result.output


def test_idle_sessions_are_dropped_and_told_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from ptc.sandbox import mcp_server

    clock = [1000.0]
    monkeypatch.setattr(mcp_server.time, "monotonic", lambda: clock[0])
    gw = Gateway(session_idle=60)
    first, second = Session(), Session()
    gw.run_program(first, {"program": "(def x 1)"})
    clock[0] += 61
    gw.run_program(second, {"program": "(def y 2)"})  # a call of any session drops the idle ones
    assert gw.session_count == 1
    reply = gw.run_program(first, {"program": "(+ 1 2)"})
    assert reply.text.startswith("note: this session's earlier definitions were dropped (it was idle for more "
                                 "than 60 s)") and reply.value == 3
    assert "note:" not in gw.run_program(first, {"program": "1"}).text  # said once


def test_at_max_sessions_the_least_recently_used_is_dropped() -> None:
    gw = Gateway(max_sessions=2)
    a, b, c = Session(), Session(), Session()
    for s in (a, b):
        gw.run_program(s, {"program": "(def x 1)"})
    gw.run_program(a, {"program": "x"})  # b is now the least recently used
    gw.run_program(c, {"program": "(def x 3)"})
    assert gw.session_count == 2
    assert gw.run_program(a, {"program": "x"}).value == 1
    reply = gw.run_program(b, {"program": "x"})
    assert reply.error and "at most 2 sessions" in reply.text


def test_when_every_session_is_running_a_new_one_is_refused() -> None:
    import threading

    started, release = threading.Event(), threading.Event()

    def hold() -> int:
        started.set()
        release.wait(10)
        return 1

    gw = Gateway(tools={"hold": hold}, max_sessions=1, limits=ptc.Limits(timeout=20))
    a, b = Session(), Session()
    worker = threading.Thread(target=gw.run_program, args=(a, {"program": "(tool/hold)"}))
    worker.start()
    try:
        assert started.wait(10)
        reply = gw.run_program(b, {"program": "1"})
        assert reply.error and "max_sessions" in reply.text
    finally:
        release.set()
        worker.join(10)


def test_a_sessions_definitions_are_bounded_by_max_session_memory() -> None:
    gw = Gateway(limits=ptc.Limits(max_session_memory=100 << 20))
    session = Session()
    for i in range(3):
        assert not gw.run_program(session, {"program": f"(def blob{i} (vec (range 500000)))"}).error
    reply = gw.run_program(session, {"program": "(def blob3 (vec (range 500000))) :done"})
    assert reply.error and "max_session_memory=104857600" in reply.text and "not kept" in reply.text
    assert gw.run_program(session, {"program": "blob3"}).error  # not kept
    assert not gw.run_program(session, {"program": "(def blob0 nil) (def blob3 (vec (range 500000)))"}).error


def test_the_docs_say_when_the_doc_tool_is_listed() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "mcp-server.md").read_text()
    assert "with only `--data`, just the\nfirst" in doc
    assert [t.name for t in Gateway(data={"x": [1]}).mcp_tools()] == ["run_ptc_lisp"]
    assert [t.name for t in gateway().mcp_tools()] == ["run_ptc_lisp", "ptc_tool_doc"]
