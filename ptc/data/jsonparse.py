"""JSON parsed within the load limits: what the text becomes is charged as it is made.

`json.loads` is one C call: a 200 MB file of small objects became 4.8 GB of Python objects
before anything could look, and took its 21 s whatever the timeout. Here the stdlib's own C
scanner parses one value at a time, in a window of text (`raw_decode` on a slice): a value
that fits is charged by its text (its values, keys and characters, `charge`) and the clock is
read; a value longer than the window is opened, its items or members parsed the same way. A
run of an array's items is parsed in one call (the items between two of its commas, in
brackets of their own), so a million small rows cost a few thousand calls, not a million.
The values are json.loads' own: the same scanner makes them.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterator, TextIO

from .arrow import DataFileError
from .limits import VALUE_BYTES, Load, current, row_copies

WINDOW = 1 << 18  # characters one C call may parse: a few MB of objects at worst
_FIRST = 256  # the first window a value is tried in
_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")
_WORDS = ("-Infinity", "Infinity", "NaN", "false", "true", "null")  # the scanner's words, longest first
_LONGEST_WORD = _WORDS[0]  # a decode error this near a window's end may be a word the window cut
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")  # json.scanner's, for a number past a window


def parse_json(text: str, where: str) -> Any:
    """The JSON value of text, or a DataFileError naming where it came from (invalid, nested too deeply)."""
    parser = _Parser(text, where, current())
    try:
        if len(text) > WINDOW:
            return parser.document()
        value = _DECODER.decode(text)  # one C call of a few MB at worst (a JSON Lines row)
        parser.charge(text, len(text))
        return value
    except json.JSONDecodeError as e:
        raise parser.error(e.msg, e.pos) from None
    except RecursionError:
        raise DataFileError(f"{where} is nested too deeply to read") from None


def parse_json_lines(lines: TextIO, where: str) -> Iterator[tuple[int, Any]]:
    """(line number, value) of each non-blank line of a JSON Lines file. A block of lines of
    at most WINDOW characters is parsed in one call, as the items of one array; a block that
    does not parse as one value per line is parsed line by line (to name the line at fault)."""
    load, first = current(), 1
    while block := lines.readlines(WINDOW):
        numbered = [(n, line) for n, line in enumerate(block, start=first) if line.strip()]
        first += len(block)
        joined = "[" + ",".join(line for _, line in numbered) + "]"
        try:
            values = _DECODER.decode(joined) if len(numbered) > 1 else None
        except (json.JSONDecodeError, RecursionError):
            values = None
        if values is not None and len(values) == len(numbered):
            _Parser(joined, where, load).charge(joined, len(joined))
            yield from zip((n for n, _ in numbered), values)
        else:
            yield from ((n, parse_json(line.rstrip("\n"), f"{where} line {n}")) for n, line in numbered)


class _Parser:
    def __init__(self, text: str, where: str, load: Load) -> None:
        self.text, self.where, self.load = text, where, load
        self.width = 1 if text.isascii() else 4  # bytes a character may take (in Python and in Arrow)

    def document(self) -> Any:
        value, end = self.value(self.skip(0))
        end = self.skip(end)
        if end != len(self.text):
            raise self.error("Extra data", end)
        return value

    def skip(self, i: int) -> int:
        return _WS.match(self.text, i).end()  # type: ignore[union-attr]

    def error(self, message: str, pos: int) -> DataFileError:
        column = pos - self.text.rfind("\n", 0, pos)
        line = f"line {self.text.count(chr(10), 0, pos) + 1}, " if "\n" in self.text else ""
        return DataFileError(f"{self.where} is not valid JSON ({line}column {column}: {message})")

    def charge(self, chunk: str, end: int) -> None:
        """The Python objects chunk[:end] parses to, counted from its text: one value per comma
        and colon (and one more), and its characters (once more for the table they may become)."""
        count = chunk.count
        values = count(",", 0, end) + count(":", 0, end) + 1
        self.load.charge(values * VALUE_BYTES + end * self.width * row_copies(), "its values hold")

    def parsed(self, chunk: str, at: int) -> tuple[Any, int] | None:
        """chunk's first value and its length, or None when the chunk may have cut it (more text
        follows it in the file); a real error raises."""
        try:
            value, end = _DECODER.raw_decode(chunk)
        except json.JSONDecodeError as e:
            cut = e.msg.startswith("Unterminated string") or e.pos >= len(chunk) - len(_LONGEST_WORD)
            if cut and at + len(chunk) < len(self.text):
                return None
            raise self.error(e.msg, at + e.pos) from None
        if end >= len(chunk) - 2 and at + len(chunk) < len(self.text):
            return None  # a number may go on past the window ("1" of "1.5", "1" of "1e-3")
        return value, end

    def value(self, i: int) -> tuple[Any, int]:
        size = _FIRST
        while size <= WINDOW:
            self.load.check_time()
            chunk = self.text[i:i + size]
            got = self.parsed(chunk, i)
            if got is not None:
                self.charge(chunk, got[1])
                return got[0], i + got[1]
            size *= 4
        return self.opened(i)

    def opened(self, i: int) -> tuple[Any, int]:
        """A value longer than WINDOW: an array or object parsed by parts, a string or a number."""
        first = self.text[i]
        if first == "[":
            return self.items(i)
        if first == "{":
            return self.members(i)
        if first == '"':
            return self.string(i)
        for word in _WORDS:  # Python's json writes NaN and the infinities; a window shorter than them opens them
            if self.text.startswith(word, i):
                return _DECODER.decode(word), i + len(word)
        number = _NUMBER.match(self.text, i)
        if number is None:
            raise self.error("Expecting value", i)
        chunk = self.text[i:number.end()]
        self.charge(chunk, len(chunk))
        return _DECODER.decode(chunk), number.end()

    def items(self, i: int) -> tuple[Any, int]:
        text, out = self.text, []
        self.load.charge(VALUE_BYTES)
        j = self.skip(i + 1)
        if text.startswith("]", j):
            return out, j + 1
        run = _FIRST
        while True:
            value, end = self.value(j)
            out.append(value)
            j = self.skip(end)
            if text.startswith("]", j):
                return out, j + 1
            if not text.startswith(",", j):
                raise self.error("Expecting ',' delimiter", j)
            j, run = self.run_of_items(self.skip(j + 1), run, text[end - 1], out)

    def run_of_items(self, j: int, run: int, closer: str, out: list[Any]) -> tuple[int, int]:
        """Parse the items from j up to one of the array's commas about `run` characters on, in
        one call, appending them to out: the next item's start and the next run's length. A cut
        is a comma after the character that ended the last item (a row's "}"); it grows while
        cuts land between items, and shrinks when one lands inside an item (the parse fails:
        "[" + a run + "]" parses whole only when the run is whole items of this array)."""
        text, mark = self.text, closer + ","
        while True:
            cut = text.rfind(mark, j, j + run)
            if cut < 0:
                return j, max(_FIRST, run // 4)
            chunk = "[" + text[j:cut + 1] + "]"
            try:
                values, end = _DECODER.raw_decode(chunk)
            except json.JSONDecodeError:
                return j, max(_FIRST, run // 4)
            if end != len(chunk):
                return j, max(_FIRST, run // 4)
            self.charge(chunk, end)
            out.extend(values)
            j, run = self.skip(cut + 2), min(WINDOW, run * 2)

    def members(self, i: int) -> tuple[Any, int]:
        text, out = self.text, {}
        self.load.charge(VALUE_BYTES)
        j = self.skip(i + 1)
        if text.startswith("}", j):
            return out, j + 1
        while True:
            if not text.startswith('"', j):
                raise self.error("Expecting property name enclosed in double quotes", j)
            key, j = self.value(j)
            j = self.skip(j)
            if not text.startswith(":", j):
                raise self.error("Expecting ':' delimiter", j)
            out[key], j = self.value(self.skip(j + 1))
            j = self.skip(j)
            if text.startswith("}", j):
                return out, j + 1
            if not text.startswith(",", j):
                raise self.error("Expecting ',' delimiter", j)
            j = self.skip(j + 1)

    def string(self, i: int) -> tuple[str, int]:
        """A string longer than WINDOW: its end found first (C-speed finds of its quotes), so it
        is held to max_cell and charged before it is decoded."""
        text, j = self.text, i + 1
        while True:
            end = text.find('"', j)
            if end < 0:
                raise self.error("Unterminated string starting at", i)
            slashes = end - 1
            while text[slashes] == "\\":
                slashes -= 1
            if (end - 1 - slashes) % 2 == 0:
                break
            j = end + 1
        size = (end - i) * self.width
        self.load.check_cell(size, "a JSON string")
        self.load.charge(VALUE_BYTES + size * row_copies(), "its values hold")
        try:
            return json.decoder.scanstring(text, i + 1)  # type: ignore[no-any-return]
        except json.JSONDecodeError as e:
            raise self.error(e.msg, e.pos) from None
