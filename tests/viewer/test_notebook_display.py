"""Rich display of ptc's objects in Jupyter, and the %%ptc cell magic, in a real IPython shell."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

import ptc
from ptc.notebook import references

HOSTILE = "<script>alert(1)</script>"


def tags(html: str) -> list[str]:
    found: list[str] = []

    class P(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list) -> None:
            found.append(tag)

    P().feed(html)
    return found


def test_results_turns_and_steps_display_as_escaped_html() -> None:
    @ptc.tool
    def echo(text: str) -> str:
        """Echo."""
        return text

    r = ptc.run(f'(println "{HOSTILE}") (def x 1) (tool/echo {{:text "{HOSTILE}"}})', tools=[echo])
    html = r._repr_html_()
    assert "script" not in tags(html) and "&lt;script&gt;" in html
    assert "tool/echo" in html and "defined: x" in html
    step = ptc.Agent("m", llm=ptc.ScriptedLLM([f'```clojure\n(println "{HOSTILE}")\n```',
                                               "```clojure\n(return 42)\n```"])).run()
    html = step._repr_html_()
    assert "script" not in tags(html) and "Turn 2" in html and "<svg" in html and "42" in html
    assert "Turn 1" in step.turns[0]._repr_html_() and "script" not in tags(step.turns[0]._repr_html_())


@pytest.fixture
def shell():
    interactive = pytest.importorskip("IPython.core.interactiveshell")
    ip = interactive.InteractiveShell.instance()
    ip.run_line_magic("load_ext", "ptc")
    yield ip
    interactive.InteractiveShell.clear_instance()


def test_cell_magic_reads_notebook_variables_and_keeps_definitions(shell, capsys) -> None:
    @ptc.tool
    def price_of(item: str) -> float:
        """The price of an item."""
        return {"tea": 2.5}.get(item, 0.0)

    shell.user_ns.update(top_items=["tea", "tea"], price_of=price_of)
    r = shell.run_cell_magic("ptc", "--out total", "(def n (count data/top-items))\n"
                                                   "(* n (tool/price-of {:item \"tea\"}))")
    assert r.value == 5.0 and shell.user_ns["total"] is r and r.tool_calls[0].name == "price-of"
    assert shell.run_cell_magic("ptc", "", "(inc n)").value == 3  # definitions stay between cells
    assert shell.run_cell_magic("ptc", "--reset", "(inc n)") is None
    assert "Unable to resolve symbol: n" in capsys.readouterr().err


def test_cell_magic_errors_are_messages_not_tracebacks(shell, capsys) -> None:
    assert shell.run_cell_magic("ptc", "", "(count data/missing)") is None
    assert "data/missing: the notebook has no variable named 'missing'" in capsys.readouterr().err
    assert shell.run_cell_magic("ptc", "--bogus", "1") is None
    assert "unknown option --bogus" in capsys.readouterr().err
    assert shell.run_cell_magic("ptc", "", "(map-indexd vector [1])") is None
    err = capsys.readouterr().err
    assert "error[analysis] 1:2" in err and "hint: did you mean map-indexed?" in err and "Traceback" not in err


def test_references_skip_strings_and_comments() -> None:
    assert references('(tool/a data/x) "data/y" ; tool/b\n(get data/x-y :k)') == (["x", "x-y"], ["a"])
