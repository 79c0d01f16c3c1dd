"""Options and helpers shared by the commands that run programs (eval, run, repl) and agents."""

from __future__ import annotations

import functools
import importlib
import json
import math
import sys
from pathlib import Path
from typing import Any, Callable, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


class FileError(click.ClickException):
    """A file the command cannot read: one line naming the file, exit status 2 (like a usage error)."""

    exit_code = 2


def data_option(f: F) -> F:
    return click.option(
        "--data",
        "data_specs",
        multiple=True,
        metavar="[NAME=]FILE",
        help="Data the program reads as data/NAME (repeatable). A JSON object gives one name per key "
             "('-' reads one from stdin); a table file (.csv .tsv .jsonl .parquet .arrow .xlsx) is data/<stem> "
             "or data/NAME; a database (.sqlite .db .duckdb) gives one name per table. FILE#PART picks a "
             "sheet, a table or a query: 'shop.db#SELECT ...'.",
    )(f)


def compression_option(f: F) -> F:
    """`--compression [none|coalesced|append]`; the flag alone means coalesced."""
    return click.option(
        "--compression",
        type=click.Choice(["none", "coalesced", "append"]),
        default="none",
        is_flag=False,
        flag_value="coalesced",
        show_default=True,
        help="History strategy: none (full history), coalesced (SingleUserCoalesced, the smallest prompts; "
             "what --compression alone means) or append (AppendOnlySummaries, the cheapest under prompt caching).",
    )(f)


def server_options(f: F) -> F:
    """`--api-base URL` and `--api-key KEY`: where a litellm model name is served."""
    f = click.option("--api-key", metavar="KEY", default=None,
                     help="The server's API key (default: the provider's environment variable; "
                          "a local openai/ server needs none).")(f)
    return click.option("--api-base", metavar="URL", default=None,
                        help="Where the model is served: a local or self-hosted server (Ollama, vLLM, "
                             "llama.cpp, LM Studio) or a proxy.")(f)


def model_llm(model: str, api_base: str | None, api_key: str | None) -> Any:
    """The LLM for `--model` (with `--api-base` / `--api-key`), through litellm."""
    from ptc.llm.choose import as_llm
    from ptc.llm.litellm_client import missing_key

    missing = missing_key(model, api_base, api_key)
    if missing is not None:
        raise click.ClickException(missing)
    try:
        return as_llm(model, api_base=api_base, api_key=api_key)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--model") from e


def prompt_option(f: F) -> F:
    return click.option(
        "--prompt",
        "prompt_profile",
        type=click.Choice(["default", "compact"]),
        default="default",
        show_default=True,
        help="System prompt profile: default (every function listed) or compact (Clojure minus what differs).",
    )(f)


def run_limits(f: Callable[..., Any]) -> Callable[..., Any]:
    """`--timeout SECONDS` and `--limits NAME=VALUE,...` (any ptc.Limits field), given to the
    command as one `limits` argument (None: the defaults). Every command that runs programs
    takes both, so a limit a program meets can be raised where it runs."""

    @functools.wraps(f)
    def command(*args: Any, timeout: float | None = None, limits_text: str | None = None, **kwargs: Any) -> Any:
        return f(*args, limits=make_limits(timeout, limits_text), **kwargs)

    command = click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
                           default=None, help="Wall-clock limit of each program (the same as --limits timeout=...; "
                                              "default 2).")(command)
    return limits_option(command)


def json_option(f: F) -> F:
    return click.option(
        "--json",
        "as_json",
        is_flag=True,
        help='Print {"value": ..., "prints": [...]} as JSON instead of Clojure text.',
    )(f)


def _chart_suffix(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not value.lower().endswith((".png", ".svg", ".html")):
        raise click.BadParameter("the chart's file must end in .png, .svg or .html")
    return value


def chart_option(f: F) -> F:
    return click.option(
        "--chart", "chart_path", type=click.Path(dir_okay=False), default=None, callback=_chart_suffix,
        help="Render the chart the result holds to this file (.png, .svg or .html; needs ptc-lisp[charts]).",
    )(f)


def save_chart(value: Any, path: str) -> int:
    """Render the first chart `value` holds to path; the exit status (1 when there is none)."""
    from ptc.charts import ChartError, charts_in

    from .errors import print_message

    try:
        charts = charts_in(value)
        if not charts:
            print_message("--chart: the result holds no chart; return one built with chart/bar, chart/line... "
                          "(docs/charts.md)")
            return 1
        charts[0].save(path)
    except (ChartError, OSError) as e:
        print_message(f"--chart: {e}")
        return 1
    click.echo(f"chart written to {path}", err=True)
    return 0


def load_data(specs: tuple[str, ...]) -> dict[str, Any] | None:
    """Every `--data [NAME=]FILE[#PART]` merged into one {name: value}, or None when none is given."""
    if not specs:
        return None
    from ptc.data.files import DataFileError, read_data

    data: dict[str, Any] = {}
    origin: dict[str, str] = {}
    for spec in specs:
        try:
            entries = read_data(spec)
        except DataFileError as e:
            raise FileError(f"--data {e}") from None
        for name, value in entries.items():
            if name in data:
                raise FileError(f"--data: data/{name} is given twice ({origin[name]} and {spec}); "
                                f"rename one with --data NAME=FILE")
            data[name], origin[name] = value, spec
    return data


def history_file(name: str, default: str) -> Path:
    """Where an interactive prompt keeps its history: $PTC_HOME/NAME, else ~/DEFAULT."""
    import os

    home = os.environ.get("PTC_HOME")
    return Path(home).expanduser() / name if home else Path("~/" + default).expanduser()


def prompt_history(path: Path) -> Any:
    """prompt_toolkit's history in the file at path, or in memory where the file cannot be made."""
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(exist_ok=True)
        return FileHistory(str(path))
    except OSError:
        return InMemoryHistory()


def read_text_file(path: str, what: str) -> str:
    """A UTF-8 text file ('-' reads stdin); a missing, binary or non-UTF-8 file is a FileError naming it."""
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as e:
        raise FileError(f"cannot read {path}: {e.strerror or e}") from None
    if b"\x00" in data:
        raise FileError(f"{path} is a binary file, not {what}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise FileError(f"{path} is not UTF-8 text (byte {e.start}); save it as UTF-8") from None


def read_json_file(path: str, what: str) -> Any:
    """The JSON value in a file, or a FileError naming it (binary, not UTF-8, invalid, nested too deeply)."""
    from ptc.data.files import DataFileError, parse_json

    text = read_text_file(path, what)
    try:
        return parse_json(text, path)
    except DataFileError as e:
        raise FileError(str(e)) from None


def open_replay(path: str, *, strict: bool = True) -> Any:
    """A ReplayLLM over the cassette at `path`, or a FileError naming it (unreadable, damaged or empty)."""
    import ptc

    if Path(path).is_dir():
        raise FileError(f"{path} is a directory, not a cassette (a .jsonl file)")
    read_text_file(path, "a cassette (JSON Lines)")
    try:
        llm = ptc.ReplayLLM(path, strict=strict)
    except ptc.LLMError as e:
        raise FileError(e.message) from None
    if not llm.records:
        raise FileError(f"{path} holds no cassette records (one JSON object per line, written by --record)")
    return llm


def read_source(path: str) -> str:
    """Program text from a file ('-' reads stdin)."""
    return read_text_file(path, "a PTC-Lisp program")


def make_limits(timeout: float | None, limits_text: str | None = None) -> Any:
    """A Limits object for `--limits` and `--timeout` (which wins), or None for the defaults."""
    limits = parse_limits(limits_text)
    if timeout is None:
        return limits
    import ptc

    return (limits or ptc.Limits()).model_copy(update={"timeout": timeout})


def output_option(f: F) -> F:
    """`--output FILE`: write a result that is a vector of maps as .csv, .jsonl or .parquet."""
    return click.option("--output", "output", metavar="FILE", default=None, callback=_check_output,
                        help="Write the value, a vector of maps, to FILE: .csv, .jsonl or .parquet.")(f)


def _check_output(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse an unknown suffix before the program runs."""
    from ptc.data.results import WRITERS

    if value is not None and not value.lower().endswith(WRITERS):
        raise FileError(f"--output {value}: give a {', '.join(WRITERS)} file (the format follows the suffix)")
    return value


def write_output(value: Any, path: str) -> None:
    """Write the result to `path`, or fail with a FileError naming it."""
    from ptc.data.arrow import DataFileError
    from ptc.data.results import write_table

    from .errors import print_message

    try:
        rows = write_table(value, path)
    except DataFileError as e:
        raise FileError(f"--output {path}: {e}") from None
    print_message(f"wrote {rows} row{'s' if rows != 1 else ''} to {path}", style="green")


def run_and_report(source: str, *, data: Any, limits: Any, as_json: bool, output: str | None = None,
                   chart_path: str | None = None) -> int:
    """Run one program, write its prints and value to stdout; returns the exit status.

    Prints come first (one line per println), then the value: a vector of maps as a table,
    anything else as its pr-str (with --json, the JSON form); an empty value's note (why it
    is empty, ptc.interpreter.diagnose) goes to stderr; `output` also writes the rows to a
    file and `chart_path` renders the chart the value holds. A program that
    ends with `(fail v)` exits 1. Errors go to stderr with the source excerpt, exit 1
    (lines printed before the error still go to stdout); with --json the error is written
    to stdout as {"error": {...}, "prints": [...]}.
    """
    import ptc

    from .errors import print_error, print_message

    try:
        result = ptc.run(source, data=data, limits=limits)
    except ptc.PTCError as err:
        prints = partial_prints(err)
        if as_json:
            click.echo(json_text({"error": err.to_dict(), "prints": prints}))
        else:
            for line in prints:
                click.echo(line)
        print_error(err, source)
        return 1
    except Exception as exc:  # a bug in ptc itself, not in the program
        report_internal_error(exc)
        return 1
    failed = bool(getattr(result, "failed", False))
    if as_json:
        try:  # bounded by its own budget (twice the default max_collection items), not the run's
            plain = ptc.to_python(result.value)
        except ptc.PTCError as err:
            err = ptc.PTCError("limit", f"the value is too large to print as JSON: {err.message.split(':')[0]} "
                               f"(the JSON form holds at most {2 * ptc.Limits().max_collection:,} items)",
                               hint="write its rows to a file with --output FILE (.csv, .jsonl, .parquet), "
                                    "or return less (take, an aggregate)")
            click.echo(json_text({"error": err.to_dict(), "prints": list(result.prints)}))
            print_error(err)
            return 1
        out: dict[str, Any] = {"value": plain, "prints": list(result.prints)}
        if failed:
            out["failed"] = True
        if result.note is not None:
            out["note"] = result.note
        click.echo(json_text(out))
    else:
        for line in result.prints:
            click.echo(line)
        if failed:
            print_message(f"failed: {ptc.pr_str(result.value)}")
        else:
            show_value(result.value)
        if result.note is not None:
            click.echo(result.note, err=True)
    if output is not None and not failed:
        write_output(result.value, output)
    if chart_path and not failed:
        return save_chart(result.value, chart_path)
    return 1 if failed else 0


def json_text(value: Any) -> str:
    """`value` as JSON, its integers whole: Python refuses one conversion past 4,300 digits (a
    raised max_int_bits makes such results; the run's max_result bounds their size), so the
    limit is lifted while this command, a process of its own, writes its one answer."""
    saved = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.dumps(_finite(value), ensure_ascii=False, allow_nan=False)
    finally:
        sys.set_int_max_str_digits(saved)


def _finite(x: Any) -> Any:
    """x with NaN and the infinities as null, as pandas' to_json writes them: JSON has no
    NaN or Infinity, and Python's json writes them as bare words no JSON reader accepts."""
    if type(x) is float:
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def show_value(value: Any) -> None:
    """A vector of maps as a table, any other value as its pr-str."""
    import ptc

    from .table_view import head_rows, print_table

    rows = head_rows(value)
    if rows is None:
        click.echo(ptc.pr_str(value))
    else:
        print_table(*rows)


def partial_prints(err: BaseException) -> list[str]:
    """What the program printed before it failed (ptc.run attaches it as `err.partial`)."""
    partial = getattr(err, "partial", None)
    return list(getattr(partial, "prints", None) or ())


def report_internal_error(exc: BaseException) -> None:
    """A failure of ptc itself: one line on stderr (the traceback too when PTC_DEBUG is set)."""
    import os
    import traceback

    from .errors import print_message

    if os.environ.get("PTC_DEBUG"):
        traceback.print_exception(exc, file=sys.stderr)
    print_message(
        f"internal error: {type(exc).__name__}: {exc} (this is a bug in ptc; set PTC_DEBUG=1 for the traceback)"
    )


def tools_option(purpose: str) -> Callable[[F], F]:
    """`--tools MODULE:ATTR` (repeatable), read by `load_tools`."""
    return click.option("--tools", "tool_specs", multiple=True, metavar="MODULE:ATTR",
                        help=f"{purpose} (repeatable): a tool, a function, a list, or a *_tools() factory.")


def load_tools(specs: tuple[str, ...]) -> list[Any]:
    """`module:attr` -> tools: a Tool, a function, a list of them, or a factory returning one."""
    out: list[Any] = []
    for spec in specs:
        module_name, _, attr = spec.partition(":")
        if not attr:
            raise click.BadParameter(f"{spec!r} must be module:attr", param_hint="--tools")
        try:
            obj = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as e:
            raise FileError(f"--tools: cannot load {spec}: {e}") from None
        except SyntaxError as e:  # a broken file: binary, not UTF-8, not Python
            where = f"{e.filename}, line {e.lineno}" if e.lineno else e.filename
            raise FileError(f"--tools: cannot load {spec}: {where}: {e.msg}") from None
        except Exception as e:  # the module raised while it was imported
            raise FileError(f"--tools: cannot load {spec}: importing {module_name} raised {type(e).__name__}: {e}") from None
        if callable(obj) and not hasattr(obj, "invoke") and getattr(obj, "__name__", "").endswith("_tools"):
            obj = obj()
        out.extend(obj if isinstance(obj, (list, tuple)) else [obj])
    return out


def limits_option(f: F) -> F:
    """`--limits timeout=5,max_tool_calls=20`: any ptc.Limits field, read by `parse_limits`."""
    return click.option(
        "--limits", "limits_text", metavar="NAME=VALUE,...", default=None,
        help="Limits of every program, as ptc.Limits fields, e.g. 'timeout=10,max_tool_calls=50' "
             "(isolation=process runs each program in a child process with OS limits).",
    )(f)


def _number_text(value: str) -> str:
    """`1e9` as `1000000000`, so an integer limit takes the short form too."""
    try:
        number = float(value)
    except ValueError:
        return value
    return str(int(number)) if "e" in value.lower() and number.is_integer() else value


def parse_limits(text: str | None) -> Any:
    """'timeout=10,max_steps=1e6' -> ptc.Limits (None when not given); a bad name or value is a
    usage error naming the fields."""
    if text is None:
        return None
    import pydantic

    import ptc

    fields: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in ptc.Limits.model_fields:
            raise click.BadParameter(f"{part!r} is not NAME=VALUE with NAME one of: "
                                     f"{', '.join(ptc.Limits.model_fields)}", param_hint="--limits")
        fields[name] = _number_text(value.strip())
    try:
        return ptc.Limits(**fields)  # type: ignore[arg-type]
    except pydantic.ValidationError as e:
        problems = "; ".join(f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors())
        raise click.BadParameter(problems, param_hint="--limits") from None
