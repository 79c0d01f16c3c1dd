"""Reading data files into tables: `ptc.table(path)` and the CLI's `--data [NAME=]FILE[#PART]`.

With pyarrow installed a tabular file becomes a `pyarrow.Table` (Parquet and Arrow files
without a copy of each row); without it JSON, JSONL, CSV and SQLite still work and give
lists of dicts. Either way a program reads a vector of row maps.

The `#PART` suffix picks a sheet of a workbook (`book.xlsx#Q3`), a table of a database
(`shop.db#orders`) or runs a query on it (`shop.db#SELECT region, sum(total) ...`; a part
with a space is a query). Every failure is a `DataFileError` whose message names the file.
"""

from __future__ import annotations

import csv
import io
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

from ptc.interpreter.table import Scan, Table

from .arrow import DataFileError, has_pyarrow, require, table_or_rows
from .jsonparse import parse_json, parse_json_lines
from .limits import Load, LoadLimits, current, loading

NAME = re.compile(r"^[A-Za-z_][\w?!*+<>=-]*$")  # what data/NAME can read
SQLITE_MAGIC = b"SQLite format 3\x00"


def table(path: str | os.PathLike[str], limits: LoadLimits | None = None) -> Any:
    """One table from a file: a pyarrow Table (a list of dicts without pyarrow).

    `path` may end in `#PART` (a sheet, a database table or a query). A database with
    several tables needs one; a JSON object (several data values) is refused: pass its
    keys as data with `read_data`. Reading is bounded by `limits` (time, decompressed
    size, columns, cell size: `ptc.LoadLimits`)."""
    file, part = split_part(os.fspath(path))
    value = _read(Path(file), part, limits)
    if isinstance(value, _Tables):
        if len(value) != 1:
            raise DataFileError(f"{file} holds {len(value)} tables ({', '.join(value) or 'none'}): pick one "
                                f"with {file}#TABLE or run a query with {file}#SELECT ...")
        return next(iter(value.values()))
    if not _is_rows(value):
        raise DataFileError(f"{file} holds a JSON {type(value).__name__}, not one table (a top-level array of "
                            f"objects): pass a JSON object's keys as data with ptc.read_data")
    return value


def read_data(spec: str, base_dir: str | os.PathLike[str] | None = None,
              limits: LoadLimits | None = None) -> dict[str, Any]:
    """`[NAME=]FILE[#PART]` -> {name: value}, the data/NAME a program reads.

    The name defaults to the file's stem (a picked database table or sheet keeps its own). A JSON
    object gives one entry per key (and takes no name); a database gives one entry per
    table unless a table or query is picked. A relative FILE is found under `base_dir`."""
    name, file, part = parse_spec(spec)
    if file == "-":
        import sys

        raw = sys.stdin.buffer.read()
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise DataFileError(f"stdin is not UTF-8 text (byte {e.start})") from None
        return _as_mapping(parse_json(text, "stdin"), "stdin", name)
    value = _read(_resolve(file, base_dir), part, limits)
    if isinstance(value, (_Tables, dict)):
        return _as_mapping(value, file, name)
    if not _is_rows(value):
        raise DataFileError(f"{file} must hold a JSON object (its keys are read as data/<key>) or an array of "
                            f"objects (one table), not a {type(value).__name__}")
    from .databases import is_query

    # one rule: a picked table or sheet names the data (shop.db#orders, iris.xlsx#flowers), when
    # its name is one a program can read; otherwise (no pick, a query, "Sheet 1") the file's stem
    suffix = Path(file).suffix.lower()
    picked = part is not None and (suffix in DATABASES and not is_query(part) or suffix == ".xlsx")
    name = name or (part if picked and NAME.match(part) else Path(file).stem)
    if not NAME.match(name):
        raise DataFileError(f"{file}: {name!r} is not a data name a program can read; "
                            f"name it: --data NAME={file}")
    return {name: value}


def read_file(spec: str, base_dir: str | os.PathLike[str] | None = None, limits: LoadLimits | None = None) -> Any:
    """`FILE[#PART]` -> its whole value: a JSON file's value, a table, or a database's {table: table}."""
    file, part = split_part(spec)
    value = _read(_resolve(file, base_dir), part, limits)
    return dict(value) if isinstance(value, _Tables) else value


def _resolve(file: str, base_dir: str | os.PathLike[str] | None) -> Path:
    path = Path(file).expanduser()
    return path if base_dir is None or path.is_absolute() else Path(base_dir) / path


def _is_rows(value: Any) -> bool:
    """A table: a pyarrow Table, a scanned file (a ptc Table) or a list of dicts."""
    if isinstance(value, list):
        return all(isinstance(row, dict) for row in value)
    return type(value).__module__.startswith("pyarrow") or isinstance(value, Table)


def parse_spec(spec: str) -> tuple[str | None, str, str | None]:
    """`[NAME=]FILE[#PART]` -> (name or None, file, part or None). A file that exists as spelled is never split."""
    name, sep, rest = spec.partition("=")
    if not sep or not NAME.match(name) or not rest or os.path.exists(spec):
        return (None, *split_part(spec))
    return (name, *split_part(rest))


def split_part(spec: str) -> tuple[str, str | None]:
    """`FILE#PART` -> (FILE, PART); a file whose own name holds a `#` is kept whole."""
    if "#" not in spec or os.path.exists(spec):
        return spec, None
    file, _, part = spec.partition("#")
    return file, part.strip() or None


class _Tables(dict):  # type: ignore[type-arg]
    """The tables of a database, by name (as opposed to a JSON object's values)."""


def _as_mapping(value: Any, file: str, name: str | None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DataFileError(f"{file} must hold a JSON object (its keys are read as data/<key>), "
                            f"not a {type(value).__name__}")
    if name is not None and isinstance(value, _Tables):
        raise DataFileError(f"{file} is a database: each of its tables is already a data name, so it takes "
                            f"no NAME= (pick a table with {file}#TABLE, or {name}={file}#SELECT ...)")
    if name is not None:
        raise DataFileError(f"{file} holds a JSON object: each of its keys is already a data name, so it "
                            f"takes no NAME= (a top-level array of objects is one table)")
    bad = [key for key in value if isinstance(value, _Tables) and not NAME.match(key)]
    if bad:
        raise DataFileError(f"{file}: table {bad[0]!r} is not a data name a program can read; pick it as "
                            f"--data NAME='{file}#SELECT * FROM \"{bad[0]}\"'")
    return dict(value)


def _read(path: Path, part: str | None, limits: LoadLimits | None = None) -> Any:
    """Dispatch on the suffix, under the load limits; every failure becomes a DataFileError naming the file."""
    if path.is_dir():
        raise DataFileError(f"{path} is a directory, not a data file")
    suffix = path.suffix.lower()
    reader = READERS.get(suffix)
    if reader is None:
        raise DataFileError(f"{path}: unknown data file type {suffix or '(no suffix)'!r}; "
                            f"give one of {', '.join(READERS)}")
    if part is not None and suffix not in PARTED:
        raise DataFileError(f"{path}: a #{part} suffix picks a sheet (.xlsx) or a table or query (.sqlite, .db, "
                            f".duckdb); a {suffix} file has none")
    try:
        size = path.stat().st_size
        if size == 0:
            raise DataFileError(f"{path} is empty")
        with loading(str(path), limits) as load:
            load.check_bytes(size, "it is")
            value = reader(path, part)
            for table in value.values() if isinstance(value, _Tables) else [value]:
                if type(table).__module__.startswith("pyarrow"):
                    load.check_cells(table)  # max_cell for every format, measured on what the cells became
            return value
    except DataFileError:
        raise
    except FileNotFoundError:
        raise DataFileError(f"{path}: no such file") from None
    except OSError as e:
        raise DataFileError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise DataFileError(f"{path} is not UTF-8 text (byte {e.start}); save it as UTF-8") from None
    except RecursionError:
        raise DataFileError(f"{path} is nested too deeply to read") from None
    except MemoryError:
        raise DataFileError(f"{path} is too large to read into memory") from None
    except Exception as e:  # the libraries' own errors (pyarrow, openpyxl, sqlite3, duckdb)
        message = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise DataFileError(f"{path}: cannot read it as {KINDS[suffix]} ({message})") from None


def _refuse_binary(path: Path, kind: str) -> None:
    """A binary file is refused by the NUL bytes of its first 64 KB."""
    with path.open("rb") as fh:
        if b"\x00" in fh.read(65536):
            raise DataFileError(f"{path} is a binary file, not {kind} text")


def _text(path: Path, kind: str) -> str:
    """A text file's content (charged: it is held while it is parsed)."""
    _refuse_binary(path, kind)
    text = path.read_text(encoding="utf-8-sig")
    current().charge(sys.getsizeof(text), "its text holds")
    return text


def _read_json(path: Path, part: str | None) -> Any:
    """A JSON object keeps its meaning (keys are data names); a top-level array of objects is a table."""
    value = parse_json(_text(path, "JSON"), str(path))
    if isinstance(value, list) and all(isinstance(row, dict) for row in value):
        return table_or_rows(value)
    return value


def _read_jsonl(path: Path, part: str | None) -> Any:
    """One JSON object per line (blank lines skipped): a table.

    Parsed by the stdlib's scanner within the load limits (pyarrow's JSON reader crashes the
    process on deeply nested input)."""
    _refuse_binary(path, "JSON Lines")
    rows = []
    with path.open(encoding="utf-8-sig") as lines:  # a block of lines at a time: the text is not held whole
        for n, row in parse_json_lines(lines, str(path)):
            if not isinstance(row, dict):
                raise DataFileError(f"{path} line {n} holds a {type(row).__name__}, not a JSON object (a row)")
            rows.append(row)
    return table_or_rows(rows)


# The CSV column rule (pyarrow and stdlib alike): a column whose cells are all integers is
# integers, all numbers floats, all true/false booleans, anything else strings; an empty cell
# is nil, and so is a null marker (NA, N/A, NULL... as R, pandas and databases write them) in
# a column of numbers or booleans (in a column of text, "NA" may be Namibia: it stays text).
# Dates stay strings (CSV has no date type; the text is what the file says).
# pandas' missing markers (its default na_values) that R, spreadsheets and databases write; NaN
# among them: pandas reads it as missing, and a NaN kept as a number sorts nowhere (Clojure's
# sort leaves [3.0 NaN 1.0] as it is) and poisons sums and medians
NULL_MARKERS = ("NA", "N/A", "n/a", "NULL", "null", "#N/A", "NaN", "nan", "-NaN", "-nan", "<NA>")
TRUE = ("true", "True", "TRUE")
FALSE = ("false", "False", "FALSE")
# The stdlib reader follows pyarrow's inference: blanks around a number are ignored, an integer
# has no "+" but may be hexadecimal (0x1F), one outside int64 makes the column floats, and
# inf / nan (any case) are floats.
INT = re.compile(r"[ \t]*(-?\d+|0[xX][0-9a-fA-F]+)[ \t]*\Z")
FLOAT = re.compile(r"[ \t]*[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf|infinity|nan)[ \t]*\Z", re.IGNORECASE)
INT64 = range(-(2**63), 2**63)


def _read_csv(path: Path, part: str | None) -> Any:
    delimiter = "\t" if path.suffix.lower() == ".tsv" else ","
    _refuse_binary(path, "CSV")
    if has_pyarrow():
        return _read_csv_arrow(path, delimiter)
    return _read_csv_stdlib(path, delimiter)


CSV_PIECE = 4 << 20  # bytes of rows one pyarrow call reads: the clock and the bytes read between pieces


def _read_csv_arrow(path: Path, delimiter: str) -> Any:
    """The file in pieces of rows (one pyarrow call each, on the load's clock and charged as it
    is read), each piece typed by pyarrow and the pieces' types then unified as pyarrow's own
    inference loosens a column over a whole file."""
    import pyarrow as pa

    read = _CSVPieces(path, delimiter)
    result = read.all({})
    current().check_columns(result.num_columns)
    if any(pa.types.is_binary(f.type) or pa.types.is_large_binary(f.type) for f in result.schema):
        raise DataFileError(f"{path} is not UTF-8 text; save it as UTF-8")  # pyarrow reads such cells as bytes
    result = _empty_text_is_nil(result)
    temporal = {f.name: pa.string() for f in result.schema if pa.types.is_temporal(f.type)}
    if temporal and all(pa.types.is_date32(f.type) for f in result.schema if f.name in temporal):
        import pyarrow.compute as compute  # YYYY-MM-DD cells print back as they were (bar blanks around them)

        for i, f in enumerate(result.schema):
            if f.name in temporal:
                result = result.set_column(i, f.name, compute.cast(result.column(i), pa.string()))
        return result
    if not temporal:
        return result
    current().release(result.nbytes)  # read again: times as the file spells them
    return _empty_text_is_nil(read.all(temporal))


def _csv_ranges(path: Path, start: int, fields: int) -> Iterator[tuple[int, int]]:
    """The byte ranges of the rows from `start` on (at least one), each about CSV_PIECE bytes
    and ending at a newline outside quotes. A row so long that it must hold a cell past
    max_cell (longer than its fields times max_cell) is refused before it is read."""
    load = current()
    longest = fields * (load.limits.max_cell + 3)
    with path.open("rb") as fh:
        fh.seek(start)
        offset, quotes, found = start, 0, False
        while block := fh.read(CSV_PIECE):
            end = block.rfind(b"\n")
            while end >= 0 and (quotes + block.count(b'"', 0, end)) % 2:
                end = block.rfind(b"\n", 0, end)  # inside a quoted cell: an earlier newline
            if end >= 0:
                yield start, offset + end + 1
                start, quotes, found = offset + end + 1, block.count(b'"', end + 1), True
            else:
                quotes += block.count(b'"')
                if offset + len(block) - start > longest + CSV_PIECE:
                    raise load.cell_error(f"a row of more than {longest:,} bytes must hold a cell of")
            offset += len(block)
        if offset > start or not found:
            yield start, offset


def _refuse_open_quote(path: Path, start: int, end: int, delimiter: str) -> None:
    """Refuse a file whose quoted cell in the rows from byte start to end never closes (pandas'
    "EOF inside string"): pyarrow and the stdlib's reader put the rest of the file in that
    cell. Only rows holding an odd count of quotes are read again, by the stdlib's strict
    reader, which tells an open cell from a quote inside an unquoted one (`12" pipe`, read as
    text by pandas and pyarrow alike); the error names the line where the open cell's row starts."""
    with path.open("rb") as fh:
        fh.seek(start)
        data = fh.read(end - start)
    if data.count(b'"') % 2 == 0:
        return
    records = csv.reader(io.StringIO(data.decode("utf-8-sig", "replace"), newline=""), delimiter=delimiter,
                         strict=True)
    first = 0
    try:
        while True:
            first = records.line_num + 1
            next(records)
    except StopIteration:
        return
    except csv.Error as e:
        if "end of data" not in str(e):
            return  # a quote pandas and pyarrow read as text ("x"y)
    before = 0  # the lines before start
    with path.open("rb") as fh:
        while fh.tell() < start and (block := fh.read(min(start - fh.tell(), 1 << 20))):
            before += block.count(b"\n")
    raise DataFileError(f"{path} line {before + first}: a quoted cell has no closing quote (the file ends "
                        "inside it); close the quote, or double the quotes inside a quoted cell")


class _CSVPieces:
    """A CSV file's pieces (its header, then each range of rows), read with given column types;
    the first reading finds the ranges as it goes."""

    def __init__(self, path: Path, delimiter: str) -> None:
        self.path, self.delimiter = path, delimiter
        with path.open("rb") as fh:
            self.header = fh.readline()
            start = fh.tell()
        cells = next(csv.reader([self.header.decode("utf-8-sig", "replace")], delimiter=delimiter), [])
        # a repeated name (a,a,b) is pandas' a, a.1, b: the header is read here, not by pyarrow, then
        self.names = unique_names(cells) if len(set(cells)) != len(cells) else None
        self.unread = _csv_ranges(path, start, self.header.count(delimiter.encode()) + 1)
        self.ranges: list[tuple[int, int]] = []

    def all(self, column_types: dict[str, Any]) -> Any:
        """Every piece, as one table: a column typed differently by two pieces is read again in
        the loosest type, as pyarrow's inference over the whole file would (integers and floats:
        floats; otherwise text)."""
        import pyarrow as pa

        pieces = [self.piece(k, column_types) for k in range(len(self.ranges))]
        for bounds in self.unread:
            self.ranges.append(bounds)
            pieces.append(self.piece(len(self.ranges) - 1, column_types))
        if not column_types:  # the first reading: a quoted cell open at the end of the file swallowed the rest
            self.check_closed()
        settled = dict(column_types)
        for name in pieces[0].column_names:
            kinds = {p.schema.field(name).type for p in pieces}
            solid = kinds - {pa.null()}
            if len(solid) > 1:
                kind = pa.float64() if solid == {pa.int64(), pa.float64()} else pa.string()
            elif solid == {pa.string()} and len(kinds) > 1:
                kind = pa.string()  # a piece of null markers only: in a column of text they are text
            else:
                continue
            settled[name] = kind
            try:
                self.retype(pieces, name, settled)
            except pa.ArrowInvalid:  # an integer a float cannot spell (0x1F): the column is text
                settled[name] = pa.string()
                self.retype(pieces, name, settled)
        return pa.concat_tables(pieces, promote_options="default")

    def check_closed(self) -> None:
        """Refuse a file whose last quoted cell never closes (see _refuse_open_quote)."""
        if self.ranges:
            _refuse_open_quote(self.path, *self.ranges[-1], self.delimiter)

    def retype(self, pieces: list[Any], name: str, types: dict[str, Any]) -> None:
        """Read again the pieces whose column `name` is not of types[name] (a piece of nils
        only is, unless the column is text)."""
        import pyarrow as pa

        kind = types[name]
        for k, piece in enumerate(pieces):
            got = piece.schema.field(name).type
            if got != kind and (got != pa.null() or kind == pa.string()):
                pieces[k] = self.piece(k, types)
                current().release(piece.nbytes)

    def piece(self, k: int, column_types: dict[str, Any]) -> Any:
        """The header and the k-th range of rows as a table, charged and its cells measured."""
        import pyarrow as pa
        import pyarrow.csv as pacsv

        load = current()
        with self.path.open("rb") as fh:
            start, end = self.ranges[k]
            fh.seek(start)
            data = (self.header if self.names is None else b"") + fh.read(end - start)
        convert = pacsv.ConvertOptions(null_values=["", *NULL_MARKERS], strings_can_be_null=False,
                                       true_values=list(TRUE), false_values=list(FALSE), column_types=column_types)
        parse = pacsv.ParseOptions(delimiter=self.delimiter)
        names = pacsv.ReadOptions(column_names=self.names) if self.names is not None else None
        try:
            table = pacsv.read_csv(pa.py_buffer(data), read_options=names, parse_options=parse, convert_options=convert)
        except pa.ArrowInvalid as e:
            if "invalid UTF8" in str(e):
                raise DataFileError(f"{self.path} is not UTF-8 text; save it as UTF-8") from None
            if "straddl" not in str(e):
                raise
            block = pacsv.ReadOptions(block_size=min(len(data) + 1, 2**31 - 1),  # a row longer than a block
                                      column_names=self.names or [])
            table = pacsv.read_csv(pa.py_buffer(data), read_options=block, parse_options=parse, convert_options=convert)
        load.charge(table.nbytes, "its rows hold")
        load.check_cells(table)
        return table


def _empty_text_is_nil(table: Any) -> Any:
    """Text columns are read with no null values (a marker in text is text); their empty cells are nil."""
    import pyarrow as pa
    import pyarrow.compute as compute

    for i, f in enumerate(table.schema):
        if pa.types.is_string(f.type) or pa.types.is_large_string(f.type):
            col = table.column(i)
            # no Python scalar (compute.equal(col, "")): pyarrow converts one by asking pandas, a 0.2 s import
            empty = compute.invert(compute.cast(compute.binary_length(col), pa.bool_()))
            if compute.any(empty).as_py():
                table = table.set_column(i, f.name, compute.if_else(empty, pa.nulls(1, f.type)[0], col))
    return table


def _read_csv_stdlib(path: Path, delimiter: str) -> list[dict[str, Any]]:
    """Without pyarrow: each record charged (and its cells held to max_cell) as it is read."""
    load = current()
    _refuse_open_quote(path, 0, path.stat().st_size, delimiter)
    with path.open(encoding="utf-8-sig", newline="") as fh:
        records = csv.reader(fh, delimiter=delimiter)
        header = unique_names(next(records, []))
        load.check_columns(len(header))
        body = []
        for record in records:
            load.charge_row(record, header)
            if record:
                body.append(record)
    for n, record in enumerate(body, start=2):
        if len(record) != len(header):
            raise DataFileError(f"{path} row {n}: expected {len(header)} fields, got {len(record)}")
    columns = [_typed_column([r[i] for r in body]) for i in range(len(header))]
    return [dict(zip(header, cells)) for cells in zip(*columns)] if header else []


def _typed_column(cells: list[str]) -> list[Any]:
    """One column's cells by the CSV rule (each cell parsed once for its type, once for its value)."""
    present = [c for c in cells if c != "" and c not in NULL_MARKERS]
    if not present:
        return [None] * len(cells)
    values: list[Any] | None = None
    if all(map(INT.match, present)):
        values = list(map(_int, present))
        if min(values) < INT64.start or max(values) >= INT64.stop:
            values = None  # beyond int64: floats, as pyarrow reads them
    if values is None and all(map(FLOAT.match, present)):
        values = list(map(float, present))
    if values is None and all(c in TRUE or c in FALSE for c in present):
        values = [c in TRUE for c in present]
    if values is None:  # text: a null marker is text, an empty cell nil
        return [None if c == "" else c for c in cells]
    if len(values) == len(cells):
        return values
    it = iter(values)
    return [None if c == "" or c in NULL_MARKERS else next(it) for c in cells]


def _int(cell: str) -> int:
    return int(cell, 16) if "x" in cell or "X" in cell else int(cell)  # INT matched: digits or 0x.., blanks


def _read_parquet(path: Path, part: str | None) -> Any:
    """The file's footer is checked first (its schema's size, before its metadata is parsed),
    then its metadata: its columns, what it decompresses to, and the average cell of each
    column chunk (one 300 MB cell compresses to a few kilobytes). Then it is read with its
    dictionary-encoded text columns kept encoded, whose decoded size is counted exactly before
    they are decoded (one 1 KB string in a million rows is 100 KB on disk and 1 GB decoded)."""
    pq = require("pyarrow.parquet", "reading Parquet")
    import pyarrow as pa

    load = current()
    _check_footer(path, load)
    file = pq.ParquetFile(path)
    meta = file.metadata
    load.check_columns(meta.num_columns)
    total = 0
    for r in range(meta.num_row_groups):
        group = meta.row_group(r)
        for c in range(group.num_columns):
            chunk = group.column(c)
            total += chunk.total_uncompressed_size
            load.check_cell(chunk.total_uncompressed_size / max(1, chunk.num_values), chunk.path_in_schema)
        load.check_time()
    if total > load.limits.scan_bytes:
        return Table.scanned(ParquetScan(path, meta, total, load.limits))
    load.check_bytes(total, "it decompresses to")
    encoded = _dictionary_text(file)
    reader = pq.ParquetFile(path, read_dictionary=encoded) if encoded else file
    groups = []
    for r in range(meta.num_row_groups):  # one call per row group: the clock read between them
        groups.append(reader.read_row_group(r))
        load.charge(groups[-1].nbytes, "it decompresses to")
    table = pa.concat_tables(groups) if groups else reader.read()
    return _decoded(table, file.schema_arrow, encoded, load)


# What parsing a Parquet footer takes in memory per byte of it (a 20,000-column footer of 2.9 MB
# parsed into 64 MB): the metadata is bounded before it is parsed.
FOOTER_EXPANSION = 32


def _check_footer(path: Path, load: Load) -> None:
    """The footer's length and the number of schema elements it declares (the first bytes of its
    Thrift FileMetaData: field 1 the version, field 2 the schema's list header), checked before
    pyarrow parses it; a footer that does not start so is left to pyarrow."""
    with path.open("rb") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        fh.seek(max(0, size - 8))
        tail = fh.read(8)
        if len(tail) < 8 or tail[4:] != b"PAR1" or not 0 < (length := int.from_bytes(tail[:4], "little")) <= size - 12:
            return
        load.check_bytes(length * FOOTER_EXPANSION, "its metadata parses to about")
        fh.seek(size - 8 - length)
        head = fh.read(min(length, 16))
    if len(head) < 4 or head[0] != 0x15:  # field 1, an i32
        return
    i = _varint(head, 1)[1]
    if i + 1 >= len(head) or head[i] != 0x19:  # field 2, a list
        return
    elements = head[i + 1] >> 4
    if elements == 15:  # a longer list: its size follows as a varint
        elements, _ = _varint(head, i + 2)
    if elements > 2 * load.limits.max_columns + 1:  # columns, and at most as many groups of them
        raise load.columns_error(f"its schema has {elements:,} elements (columns and groups), more than "
                                 f"twice")


def _varint(data: bytes, i: int) -> tuple[int, int]:
    """The unsigned varint at data[i] (Thrift compact) and the index after it."""
    value = shift = 0
    while i < len(data):
        value |= (data[i] & 0x7F) << shift
        shift += 7
        i += 1
        if not data[i - 1] & 0x80:
            break
    return value, i


def _dictionary_text(file: Any) -> list[str]:
    """The top-level text columns whose every chunk is dictionary-encoded and that the file
    does not itself say to read as dictionaries: read encoded, sized, then decoded."""
    meta, schema = file.metadata, file.schema_arrow
    leaves = [meta.schema.column(c).path for c in range(meta.num_columns)]
    out = []
    for c, name in enumerate(leaves):
        if name not in schema.names or "." in name or not _text_type(schema.field(name).type):
            continue
        if all(meta.row_group(r).column(c).has_dictionary_page for r in range(meta.num_row_groups)):
            out.append(name)
    return out


def _text_type(kind: Any) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_binary(kind)
                or pa.types.is_large_binary(kind))


def _decoded(table: Any, schema: Any, encoded: list[str], load: Load) -> Any:
    """The dictionary-encoded columns decoded to the file's types, after their decoded size (each
    entry's length times the rows that reference it) is charged and their cells checked."""
    import pyarrow as pa
    import pyarrow.compute as pc

    for name in encoded:
        column = table.column(name)
        for chunk in column.chunks:
            counts = pc.value_counts(chunk.indices.drop_null())
            if not len(counts):
                continue
            lengths = pc.take(pc.binary_length(chunk.dictionary), counts.field("values"))
            load.check_cell(pc.max(lengths).as_py() or 0, name)
            load.charge(pc.sum(pc.multiply(lengths.cast(pa.int64()), counts.field("counts"))).as_py() or 0,
                        "it decodes to")
        load.charge(8 * len(column), "it decodes to")
        i = table.schema.get_field_index(name)
        table = table.set_column(i, schema.field(name), pc.cast(column, schema.field(name).type))
        load.release(column.nbytes)
    return table


class ParquetScan(Scan):
    """A Parquet file larger than LoadLimits.scan_bytes: its schema and row count from the
    metadata; its rows read when a program first needs them (batch by batch, within the load
    limits and the run's deadline), or streamed by the engine for a group-by it folds."""

    def __init__(self, path: Path, meta: Any, size: int, limits: LoadLimits) -> None:
        self.parquet_path = str(path.resolve())
        self.schema = meta.schema.to_arrow_schema()
        self.num_rows = meta.num_rows
        self._meta, self._size, self._limits = meta, size, limits

    def null_counts(self) -> list[int | None]:
        counts: list[int | None] = []
        for c in range(self._meta.num_columns):
            n: int | None = 0
            for r in range(self._meta.num_row_groups):
                stats = self._meta.row_group(r).column(c).statistics
                if stats is None or not stats.has_null_count or n is None:
                    n = None
                else:
                    n += stats.null_count
            counts.append(n)
        return counts

    def read(self) -> Any:
        import pyarrow.parquet as pq

        from ptc.interpreter import context

        with loading(self.parquet_path, self._limits) as load, context.reading_data():
            load.check_bytes(self._size, "it decompresses to")

            def batches() -> Any:
                for batch in pq.ParquetFile(self.parquet_path).iter_batches(batch_size=1 << 16):
                    context.check_deadline()
                    yield batch

            return load.table_of(self.schema, batches(), "it decompresses to")


def _read_arrow(path: Path, part: str | None) -> Any:
    """An Arrow IPC file (memory-mapped: no copy), an IPC stream, or a Feather v1 file."""
    pa = require("pyarrow", "reading Arrow files")
    import pyarrow.ipc as ipc

    try:
        reader = ipc.open_file(pa.memory_map(str(path)))
        return _batches(reader.schema, (reader.get_batch(i) for i in range(reader.num_record_batches)))
    except pa.ArrowInvalid:
        pass
    try:
        with pa.OSFile(str(path)) as source:
            stream = ipc.open_stream(source)
            return _batches(stream.schema, stream)
    except pa.ArrowInvalid:
        import pyarrow.feather as feather

        return feather.read_table(str(path))


def _batches(schema: Any, batches: Any) -> Any:
    """A table from record batches, its size and the clock checked batch by batch (IPC buffers
    may be compressed: a small file can hold a large table)."""
    load = current()
    load.check_columns(len(schema))
    return load.table_of(schema, batches, "it decompresses to")


def _check_zip(path: Path) -> None:
    """An xlsx is a zip: what its entries unpack to is bounded before any is unpacked."""
    import zipfile

    load = current()
    try:
        with zipfile.ZipFile(path) as z:
            load.check_bytes(sum(info.file_size for info in z.infolist()), "it unzips to")
    except zipfile.BadZipFile:
        raise DataFileError(f"{path} is not an Excel workbook (not a zip file)") from None


def _read_excel(path: Path, part: str | None) -> Any:
    """The first sheet (or the sheet PART): the first row names the columns. Each row is
    charged as it is read, a shared string once per cell that references it (openpyxl holds
    it once; the table holds a copy per cell)."""
    openpyxl = require("openpyxl", "reading Excel files")
    require("pyarrow", "reading Excel files")
    _check_zip(path)
    load = current()
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        if part is not None and part not in book.sheetnames:
            raise DataFileError(f"{path} has no sheet {part!r}; sheets: {', '.join(book.sheetnames)}")
        sheet = book[part] if part is not None else book.worksheets[0]
        rows = sheet.iter_rows(values_only=True)
        first = next(rows, ())
        load.check_columns(len(first))
        header = _column_names(first)
        body = []
        for row in rows:
            load.charge_row(row, header)
            if any(cell is not None for cell in row):
                body.append(dict(zip(header, row)))
    finally:
        book.close()
    return table_or_rows(body, header)


def _column_names(cells: tuple[Any, ...]) -> list[str]:
    """A sheet's header cells as unique column names (an empty cell is column_N; repeats as
    unique_names makes them)."""
    return unique_names([f"column_{i}" if cell is None or str(cell).strip() == "" else str(cell).strip()
                         for i, cell in enumerate(cells, start=1)])


def unique_names(names: list[str]) -> list[str]:
    """Column names made unique as pandas' read_csv makes them: a repeat of `a` is `a.1`, then
    `a.2`, skipping any name the header holds elsewhere (`a,a,a.1` is `a, a.2, a.1`)."""
    taken = set(names)
    seen: set[str] = set()
    counts: dict[str, int] = {}
    out = []
    for name in names:
        if name in seen:
            k = counts.get(name, 1)
            while f"{name}.{k}" in taken or f"{name}.{k}" in seen:
                k += 1
            counts[name] = k + 1
            name = f"{name}.{k}"
        seen.add(name)
        out.append(name)
    return out


def _read_database(path: Path, part: str | None) -> Any:
    """.db and .sqlite: SQLite, or DuckDB when the file says so."""
    from . import databases

    with path.open("rb") as fh:
        head = fh.read(16)
    if path.suffix.lower() == ".duckdb" or (head != SQLITE_MAGIC and head[8:12] == b"DUCK"):
        value = databases.read_duckdb(path, part)
    elif head == SQLITE_MAGIC:
        value = databases.read_sqlite(path, part)
    else:
        raise DataFileError(f"{path} is not a SQLite database (nor a DuckDB one)")
    return _Tables(value) if isinstance(value, dict) else value  # every table, or the one picked

READERS: dict[str, Callable[[Path, str | None], Any]] = {
    ".json": _read_json, ".jsonl": _read_jsonl, ".ndjson": _read_jsonl, ".csv": _read_csv, ".tsv": _read_csv,
    ".parquet": _read_parquet, ".arrow": _read_arrow, ".feather": _read_arrow, ".arrows": _read_arrow,
    ".ipc": _read_arrow, ".xlsx": _read_excel, ".sqlite": _read_database, ".sqlite3": _read_database,
    ".db": _read_database, ".duckdb": _read_database,
}
DATABASES = {".sqlite", ".sqlite3", ".db", ".duckdb"}
PARTED = {".xlsx"} | DATABASES
KINDS = {".json": "JSON", ".jsonl": "JSON Lines", ".ndjson": "JSON Lines", ".csv": "CSV", ".tsv": "TSV",
         ".parquet": "Parquet", ".arrow": "Arrow", ".feather": "Feather", ".arrows": "an Arrow stream",
         ".ipc": "Arrow", ".xlsx": "an Excel workbook", ".sqlite": "a SQLite database",
         ".sqlite3": "a SQLite database", ".db": "a database", ".duckdb": "a DuckDB database"}
