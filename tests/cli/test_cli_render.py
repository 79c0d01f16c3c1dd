"""Error rendering: header, source line, caret under the column, hint; colours only on a tty."""

from __future__ import annotations

import io

from ptc.cli.errors import print_error, render_error, source_excerpt, use_colour
from ptc.interpreter.errors import PTCError


def test_render_with_position_and_hint():
    src = "(def x 1)\n(+ x \"a\")\n"
    err = PTCError(
        "runtime", '+: expected a number, got string "a"', line=2, column=6, hint="convert with parse-long"
    )
    assert render_error(err, src).splitlines() == [
        'error[runtime] 2:6: +: expected a number, got string "a"',
        '  (+ x "a")',
        "       ^",
        "  hint: convert with parse-long",
    ]


def test_render_without_position():
    err = PTCError("limit", "program ran too long: limit timeout=0.1 exceeded")
    assert render_error(err, "(loop [] (recur))") == "error[limit]: program ran too long: limit timeout=0.1 exceeded"


def test_render_without_source():
    err = PTCError("parse", "unexpected )", line=1, column=3)
    assert render_error(err) == "error[parse] 1:3: unexpected )"


def test_caret_keeps_tabs_aligned():
    text, caret = source_excerpt("\t(foo\t1)", 1, 7)
    assert text == "\t(foo\t1)"
    assert caret == "\t    \t^"


def test_caret_clamped_to_line_end():
    text, caret = source_excerpt("(+ 1", 1, 99)
    assert caret == "    ^"


def test_position_outside_source_is_skipped():
    assert source_excerpt("(+ 1 2)", 5, 1) is None
    assert source_excerpt("(+ 1 2)", None, None) is None


def test_long_line_windowed():
    line = "(+ " + " ".join(["1"] * 200) + " x)"
    col = line.index("x") + 1
    text, caret = source_excerpt(line, 1, col)
    assert len(text) <= 110
    assert text[caret.index("^")] == "x"


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_when_not_a_terminal(monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    out = io.StringIO()
    print_error(PTCError("parse", "boom", line=1, column=1, hint="h"), "(", out)
    assert "\x1b[" not in out.getvalue()
    assert out.getvalue() == "error[parse] 1:1: boom\n  (\n  ^\n  hint: h\n"


def test_colour_on_a_terminal(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    out = _Tty()
    assert use_colour(out)
    print_error(PTCError("parse", "boom", line=1, column=1, hint="h"), "(", out)
    text = out.getvalue()
    assert "\x1b[" in text
    assert "boom" in text and "hint:" in text and "^" in text


def test_no_color_env_wins(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(_Tty())
