"""The system prompt: language reference, rules, tools, data and the expected result.

Composed fresh from its inputs (a pure function), never stored. Two profiles say the same
things about the language: `default` lists every function by category (~1,000 tokens);
`compact` says "Clojure, with these differences" and lists only what differs: what is not
available, the Java statics, and the PTC-only forms and functions (~400 tokens).
"""

from __future__ import annotations

from typing import Any, Iterable, Literal, Mapping

from ..interpreter.printer import pr_str, sample_text, type_label
from ..interpreter.values import MAP_TYPES
from ..interpreter.table import Table
from ..interpreter.reference import PTC_AGGREGATES, prompt_reference

PromptProfile = Literal["default", "compact"]
PROFILES: tuple[str, ...] = ("default", "compact")

INTRO = """\
You solve the user's mission by writing PTC-Lisp programs. PTC-Lisp is a safe subset of
Clojure that runs in a sandbox: no atoms, no eval, no I/O except println; Java interop only
for the common String, Math and java.time methods."""

CALL_RULE = "- Call tools as (tool/name {:arg value}) or (tool/name arg1 arg2); read input data as data/name."
STRING_VALUES = '  String values stay strings: compare with "paid", not :paid.'
DATA_RULE = f"""\
- Data and tool results are Clojure data: JSON keys are keywords, as the samples show
  ({{:price 3}} is read with (:price p)); a key that is not a keyword name stays a string.
{STRING_VALUES}"""

# What models bring from other languages, said once (docs/mistakes.md: the errors name these fixes too).
HABITS_RULE = ("- Not Python/JS: (count xs) not len, nil not None, (:k m) not m.k. ->> threads last\n"
               "  (map, filter), -> first (assoc, update-vals).")

CHART_RULE = """\
- A chart answer: (return (chart/bar rows :x-key :y-key {:title "..."})); also chart/line chart/area
  chart/scatter (chart/histogram rows :key) chart/spec (Vega-Lite)."""

RULE_LIST = f"""\
Rules:
{CALL_RULE}
- (def name value) and (defn name [args] ...) keep values for your next programs (use the names
  directly); let-bindings end with the program.
- See values with (prn x) (strings keep quotes) or println: you are shown the output.
{DATA_RULE}
{HABITS_RULE}
- When you have the answer, call (return value). If the mission is impossible, call (fail "why").
{CHART_RULE}
- Work in small steps: explore first, then compute. Do not repeat tool calls that act (send, book)."""

RULES = f"{INTRO}\n\n{RULE_LIST}"

COMPACT_INTRO = """\
You solve the user's mission by writing PTC-Lisp programs: Clojure 1.11 (clojure.core, clojure.string
as str/, clojure.set as set/, clojure.walk, clojure.math) in a sandbox, with the differences below."""

# Clojure names PTC-Lisp does not have, by kind (a program using one gets an error saying so).
# The commonest only: a program using any other gets an error giving the reason (unsupported.py).
UNAVAILABLE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("state", ("atom", "swap!", "reset!", "future", "delay")),
    ("types", ("new", "defrecord", "defprotocol", "defmulti")),
    ("code, I/O", ("defmacro", "eval", "slurp", "spit")),
    ("others", ("while", "doto")),
)
JAVA_INTEROP = """\
Java interop: common methods and statics of String, Character, Math, Integer, Long, Double, Boolean,
System, LocalDate, LocalDateTime, LocalTime, Instant, Duration, ChronoUnit, DateTimeFormatter, Locale:
(.toUpperCase s) (.format d (DateTimeFormatter/ofPattern "MM/dd/yyyy"))."""
PTC_ONLY = PTC_AGGREGATES


def compact_reference() -> str:
    """The language as differences from Clojure. A test checks that every builtin is a Clojure
    name, named here, or a Java method or static of a class JAVA_INTEROP names."""
    from ..interpreter.registry import load_library

    load_library()
    return "\n".join([
        "Not available: " + "; ".join(f"{kind}: {' '.join(names)}" for kind, names in UNAVAILABLE) + ".",
        "Numbers: no ratios, (/ 10 4) is 2.5; (round x 2) to 2 digits. A character is a one-character string.",
        JAVA_INTEROP,
        PTC_ONLY,
        "Libraries: stats/ (statistics) ml/ (scikit-learn models); (dir stats) lists one, (doc f) explains, "
        "(find-doc \"text\") searches.",
    ])


def describe_data(data: Mapping[str, Any] | None) -> str:
    """`data/name: type, sample: ...` lines (values must already be PTC values)."""
    if not data:
        return "No input data."
    lines = []
    for name, value in data.items():
        if type(value) is Table:
            lines.append(describe_table(f"data/{name}", value))
            continue
        label = type_label(value)
        t = type(value)
        first = None
        if label.startswith("list[") and len(value):
            first = next(iter(value))
        sample = sample_text(first if first is not None else value, limit=4, max_chars=160)
        lines.append(f"data/{name}: {label}, sample: {sample}")
        if t is str and len(value) > 160:
            lines[-1] += f" ({len(value)} characters)"
        spaced = spaced_keys_note(first.keys() if type(first) in MAP_TYPES else ())
        if spaced:
            lines.append(spaced)
    return "\n".join(lines)


def spaced_keys_note(keys: Iterable[Any], most: int = 5) -> str | None:
    """The line marking keys that begin or end with a space (`" WINDSPEED"` from a CSV header):
    quoted in the description they are easy to misread, and `:WINDSPEED` finds nothing."""
    spaced = [k for k in keys if type(k) is str and k != k.strip()]
    if not spaced:
        return None
    names = ", ".join(pr_str(k) for k in spaced[:most]) + (f" and {len(spaced) - most} more" if len(spaced) > most
                                                           else "")
    one = len(spaced) == 1
    return (f"  note: {names} {'begins or ends' if one else 'begin or end'} with a space, part of the name: "
            f"read {'it with' if one else 'them with get, e.g.'} (get row {pr_str(spaced[0])})")


LARGE = 100_000  # rows from which a table's description says what is fast over it


def describe_table(name: str, table: Table, sample_rows: int = 3) -> str:
    """A table as the model needs it: row count, columns with types, a few sample rows (never
    the whole table: a million rows cost the same prompt as ten)."""
    head = f"{name}: table of {len(table):,} rows (a vector of maps), columns: {table.schema_text()}"
    if len(table) > LARGE:
        head += (f"\n  ({len(table):,} rows: filter, remove, group-by with counts or sums, frequencies and sort-by on "
                 f"a key run over whole columns, as does map of keys, arithmetic or assoc/select-keys of them; "
                 f"a function called on every row that is more than that (a date parsed, a string built) takes seconds)")
    spaced = spaced_keys_note(table.keys)
    if spaced:
        head += "\n" + spaced
    if not len(table):
        return head
    rows = " ".join(sample_text(row, limit=12, max_chars=60) for row in table[:sample_rows])
    return f"{head}\n  sample rows: {rows}"


def describe_tools(tools: Mapping[str, Any]) -> str:
    """Every tool's signature; for a catalog given its search tool (ptc.tools.search, above
    the threshold of tools) its groups and how to search it instead."""
    if not tools:
        return "No tools."
    from ..tools.search import SEARCH_TOOL, catalog_text, is_search_tool

    if is_search_tool(tools.get(SEARCH_TOOL)):
        return catalog_text(tools)
    out = []
    for name, tool in tools.items():
        sig = getattr(tool, "signature", None)
        if callable(sig):
            out.append(sig())
        else:
            doc = (getattr(tool, "__doc__", None) or "").strip().splitlines()
            out.append(f"(tool/{name} ...)" + (f" - {doc[0]}" if doc else ""))
    return "\n".join(out)


def check_profile(profile: str) -> PromptProfile:
    """`profile` if it names a prompt profile, else ValueError listing them."""
    if profile not in PROFILES:
        raise ValueError(f"unknown prompt profile {profile!r}; choose from: {', '.join(PROFILES)}")
    return profile  # type: ignore[return-value]


def budget_line(limits: Any) -> str:
    """What one program may spend, said to the model (it cannot raise a limit, only fit in it)."""
    timeout = 2.0 if limits is None else limits.timeout
    return f"Each program has {timeout:g} s, tools included."


def system_prompt(*, tools: Mapping[str, Any], data: Mapping[str, Any] | None, signature: Any = None,
                  max_turns: int = 5, profile: PromptProfile = "default", limits: Any = None) -> str:
    turns = f"You have at most {max_turns} programs (turns). {budget_line(limits)}"
    if check_profile(profile) == "compact":
        language = [f"{COMPACT_INTRO}\n\n{compact_reference()}\n\n{RULE_LIST}", turns]
    else:
        language = [RULES, turns, "## PTC-Lisp functions\n" + prompt_reference(JAVA_INTEROP)]
    parts = [
        *language,
        "## Tools\n" + describe_tools(tools),
        "## Data\n" + describe_data(data),
    ]
    if signature is not None:
        shape = signature.describe()
        keys = " (write its keys as keywords: {:name ...})" if shape.startswith("{") else ""
        parts.append(f"## Result\nReturn a value of this shape with (return ...): {shape}{keys}")
    parts.append("## Output format\nReply with one ```clojure block containing the program, and nothing after it.")
    return "\n\n".join(parts)
