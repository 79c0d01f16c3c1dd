"""Suite files: missions, their inputs and the checks on their results (YAML or JSON).

A suite file is validated with pydantic; every problem is reported with the mission id and
the field, all at once (`SuiteError`). Besides the shape, loading checks what can be checked
without running anything: tools import, datasets and data files exist, signatures and
PTC-Lisp predicates parse, limits are valid.

    name: my-suite
    api_base: http://localhost:11434    # optional: where the models are served (a local server)
    defaults: {max_turns: 6, tools: ["ptc.examples.tools:analysis_tools"]}
    missions:
      - id: top-category
        prompt: Which product category ...?
        data: orders                    # a bundled dataset, a JSON file, or inline values
        signature: "{category :string, revenue :float}"
        checks:
          - {path: category, equals: home}
          - {path: revenue, between: [8000, 8200]}
          - "(> (:revenue result) 0)"    # a predicate (PTC-Lisp), `result` bound
        script: ["...```clojure ...```", ...]   # replies of the `scripted` model

See docs/suites.md for every field.
"""

from __future__ import annotations

import importlib
import json
import os
import re
from pathlib import Path
from typing import Any, Iterable, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..tools.mcp_connection import MCPServerSpec

MISSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
IMPORT_REF = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")
CHECK_KINDS = ("equals", "between", "has_keys", "length", "predicate")


class SuiteError(ValueError):
    """A suite file that cannot be used; `problems` lists every problem found."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        head = f"{source}: {len(problems)} problem(s)" if len(problems) > 1 else f"{source}:"
        super().__init__(head + ("\n  " if len(problems) > 1 else " ") + "\n  ".join(problems))


def mcp_servers(value: Any) -> Any:
    """`mcp:` entries: a command line or URL string, or {command, url, headers, env, cwd}."""
    if value is None:
        return None
    return [MCPServerSpec.of(v) for v in (value if isinstance(value, list) else [value])]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Range(_Strict):
    """A count between min and max (both inclusive, both optional)."""

    min: int | None = Field(None, ge=0)
    max: int | None = Field(None, ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> "Range":
        if self.min is None and self.max is None:
            raise ValueError("give min, max or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self


Count = Union[int, Range]


class Check(_Strict):
    """One check on the result (or on the value at `path` inside it); exactly one kind.

    - equals: the value equals this (numbers within `tolerance`, default 1e-6 relative / 0.005 absolute)
    - between: [lo, hi], a number within the bounds (inclusive)
    - has_keys: [k, ...], a map with all these keys (kebab-case and snake_case match each other)
    - length: n or {min, max}, a collection (or string) of that many items
    - predicate: PTC-Lisp; `(fn [r] ...)` is called with the value, anything else is evaluated
      with `result` bound to it (and the mission's data as data/NAME). Passes when truthy.
    """

    path: str | int | list[str | int] | None = None
    equals: Any = None
    tolerance: float | None = Field(None, ge=0)
    between: tuple[float, float] | None = None
    has_keys: list[str] | None = None
    length: Count | None = None
    predicate: str | None = None
    message: str | None = None  # shown instead of the generated description when the check fails

    @model_validator(mode="after")
    def _one_kind(self) -> "Check":
        kinds = [k for k in CHECK_KINDS if k in self.model_fields_set]
        if len(kinds) != 1:
            found = ", ".join(kinds) if kinds else "none"
            raise ValueError(f"a check has exactly one of {', '.join(CHECK_KINDS)} (found: {found})")
        if self.between is not None and self.between[0] > self.between[1]:
            raise ValueError(f"between: the low bound {self.between[0]} is above the high bound {self.between[1]}")
        if self.tolerance is not None and self.kind != "equals":
            raise ValueError("tolerance only applies to equals")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in CHECK_KINDS if k in self.model_fields_set)

    @property
    def path_parts(self) -> tuple[str | int, ...]:
        if self.path is None:
            return ()
        if isinstance(self.path, int):
            return (self.path,)
        if isinstance(self.path, list):
            return tuple(self.path)
        return tuple(int(p) if p.isdigit() else p for p in self.path.split(".") if p != "")


class OutboxExpect(_Strict):
    """What the action tools (`ptc.examples.tools.action_tools`) must have done.

    emails / meetings: a count or {min, max}; email_to: the set of recipients, exactly;
    predicate: PTC-Lisp over `outbox` = {:emails [{:to :subject :body}], :meetings
    [{:attendees :title :day}]} (or `(fn [o] ...)`).
    """

    emails: Count | None = None
    meetings: Count | None = None
    email_to: list[str] | None = None
    predicate: str | None = None


class _Tooled(_Strict):
    """What a mission gets, by itself or from the defaults: tool names (one name as a list of
    one) and MCP servers (written as mcp_servers reads them)."""

    tools: list[str] | None = None
    mcp: list[MCPServerSpec] | None = None  # MCP servers whose tools the mission gets (besides `tools`)

    @field_validator("tools", mode="before")
    @classmethod
    def _tools_list(cls, v: Any) -> Any:
        return [v] if isinstance(v, str) else v

    @field_validator("mcp", mode="before")
    @classmethod
    def _mcp_list(cls, v: Any) -> Any:
        return mcp_servers(v)


class Defaults(_Tooled):
    """Values every mission gets unless it sets its own."""

    max_turns: int = Field(6, ge=1, le=50)
    system_prompt: Literal["default", "compact"] = "default"  # the prompt profile (ptc.Agent(prompt=...))
    limits: dict[str, Any] | None = None
    data: Union[str, list[str], dict[str, Any], None] = None
    signature: str | None = None


class Mission(_Tooled):
    """One mission: the prompt, what the agent gets, and how its result is judged."""

    id: str
    prompt: str = Field(min_length=1)
    description: str = ""
    tags: list[str] = Field(default_factory=list)
    data: Union[str, list[str], dict[str, Any], None] = None
    signature: str | None = None
    max_turns: int | None = Field(None, ge=1, le=50)
    system_prompt: Literal["default", "compact"] | None = None
    limits: dict[str, Any] | None = None
    checks: list[Union[str, Check]] = Field(default_factory=list)
    outbox: OutboxExpect | None = None
    script: list[str] | None = None  # the replies of the `scripted` model

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        if not MISSION_ID.match(v) or "__" in v:
            raise ValueError("use letters, digits, '-', '_' and '.' (no '__': ids name cassette files)")
        return v

    @property
    def all_checks(self) -> list[Check]:
        return [Check(predicate=c) if isinstance(c, str) else c for c in self.checks]


class Suite(_Strict):
    """A named list of missions with shared defaults; `base_dir` resolves relative data files."""

    name: str = Field(min_length=1)
    description: str = ""
    api_base: str | None = None  # where the litellm model names are served (`ptc suite run --api-base` wins)
    defaults: Defaults = Field(default_factory=Defaults)
    missions: list[Mission]
    base_dir: str = "."
    source: str = "<suite>"

    def mission(self, mission_id: str) -> Mission:
        for m in self.missions:
            if m.id == mission_id:
                return m
        raise KeyError(f"no mission {mission_id!r} in suite {self.name!r}")

    # -- what a mission gets, defaults applied ---------------------------------------------

    def tools_of(self, m: Mission) -> list[str]:
        return list(m.tools if m.tools is not None else self.defaults.tools or [])

    def mcp_of(self, m: Mission) -> list[MCPServerSpec]:
        """The mission's MCP servers; a command line starts in the suite file's directory."""
        servers = m.mcp if m.mcp is not None else self.defaults.mcp or []
        return [s if s.url is not None or s.cwd is not None else s.model_copy(update={"cwd": self.base_dir})
                for s in servers]

    def data_of(self, m: Mission) -> Any:
        return m.data if m.data is not None else self.defaults.data

    def signature_of(self, m: Mission) -> str | None:
        return m.signature if m.signature is not None else self.defaults.signature

    def max_turns_of(self, m: Mission) -> int:
        return m.max_turns if m.max_turns is not None else self.defaults.max_turns

    def system_prompt_of(self, m: Mission) -> str:
        return m.system_prompt if m.system_prompt is not None else self.defaults.system_prompt

    def limits_of(self, m: Mission) -> dict[str, Any]:
        return {**(self.defaults.limits or {}), **(m.limits or {})}


# -- loading --------------------------------------------------------------------------------


def _parse_text(text: str, source: str) -> Any:
    if source.endswith(".json"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise SuiteError(source, [f"not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"]) from None
    try:
        import yaml
    except ImportError:
        if source.endswith((".yaml", ".yml")):
            raise SuiteError(source, ["YAML suites need PyYAML: pip install 'ptc-lisp[yaml]' (or write the suite as "
                                      "JSON)"]) from None
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise SuiteError(source, [f"not valid JSON (line {e.lineno}: {e.msg})"]) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        raise SuiteError(source, [f"not valid YAML{where}: {getattr(e, 'problem', None) or e}"]) from None


def _loc(loc: Iterable[Any]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


_BRANCH_NAMES = {"str", "int", "float", "bool", "dict", "list", "none"}


def _is_branch(part: Any) -> bool:
    """A pydantic union-branch tag in an error location (not a field name)."""
    return isinstance(part, str) and (part in _BRANCH_NAMES or "[" in part or part.startswith("function-")
                                      or part[:1].isupper())


def _errors(e: ValidationError, prefix: str) -> list[str]:
    """Readable lines from a ValidationError: union branches that did not apply are dropped
    (a check given as a map is not reported as 'not a string'), type errors at one place merged."""
    items = []
    for err in e.errors():
        loc = tuple(p for p in err.get("loc", ()) if not _is_branch(p))
        typ = str(err.get("type", ""))
        msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        items.append((loc, typ.endswith(("_type", "_parsing")), msg))
    kept: list[tuple[tuple[Any, ...], bool, str]] = []
    for loc, is_type, msg in items:
        if is_type and any((len(l2) > len(loc) or not t2) and l2[: len(loc)] == loc and (l2, t2, m2) != (loc, is_type, msg)
                           for l2, t2, m2 in items):
            continue
        kept.append((loc, is_type, msg))
    merged: dict[tuple[Any, ...], list[str]] = {}
    lines: dict[str, None] = {}
    for loc, is_type, msg in kept:
        if is_type:
            msg = msg.removeprefix("Input should be ")
            msg = re.sub(r"a valid dictionary or instance of \w+", "a mapping", msg)
            msg = re.sub(r"^a valid (integer|number), unable to parse.*$", r"a valid \1", msg)
            merged.setdefault(loc, []).append(msg)
        else:
            lines.setdefault(f"{prefix}{_loc(loc)}: {msg}", None)
    for loc, msgs in merged.items():
        lines.setdefault(f"{prefix}{_loc(loc)}: expected {' or '.join(dict.fromkeys(msgs))}", None)
    return list(lines)


def _dedupe(items: list[str]) -> list[str]:
    seen: dict[str, None] = {}
    for i in items:
        seen.setdefault(i, None)
    return list(seen)


def load_suite(path: str | os.PathLike[str], *, check: bool = True) -> Suite:
    """Read and validate a suite file (.yaml/.yml or .json). `check=False` skips the
    resolution checks (imports, datasets, files, PTC-Lisp parsing)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise SuiteError(str(p), [f"cannot read the suite file: {e.strerror or e}"]) from None
    except UnicodeDecodeError as e:
        raise SuiteError(str(p), [f"not UTF-8 text (byte {e.start}): a suite is a YAML or JSON text file"]) from None
    try:
        raw = _parse_text(text, str(p))
    except RecursionError:
        raise SuiteError(str(p), ["nested too deeply to read"]) from None
    return parse_suite(raw, base_dir=p.resolve().parent, source=str(p), check=check)


def parse_suite(raw: Any, *, base_dir: str | os.PathLike[str] = ".", source: str = "<suite>",
                check: bool = True) -> Suite:
    """Validate an already-parsed suite (a dict); see `load_suite`."""
    if not isinstance(raw, dict):
        raise SuiteError(source, [f"a suite is a mapping with name, defaults and missions, not "
                                  f"{type(raw).__name__}"])
    problems: list[str] = []
    unknown = sorted(set(raw) - {"name", "description", "api_base", "defaults", "missions"})
    if unknown:
        problems.append(f"unknown top-level field(s): {', '.join(unknown)} (expected name, description, api_base, "
                        f"defaults, missions)")
    api_base = raw.get("api_base")
    if api_base is not None and not (isinstance(api_base, str) and api_base.startswith(("http://", "https://"))):
        problems.append(f"api_base: the URL of a model server (http:// or https://), not {api_base!r}")
        api_base = None
    if not isinstance(raw.get("name"), str) or not raw.get("name"):
        problems.append("name: a suite needs a name (a non-empty string)")
    defaults = Defaults()
    try:
        defaults = Defaults.model_validate(raw.get("defaults") or {})
    except ValidationError as e:
        problems += _errors(e, "defaults.")
    missions_raw = raw.get("missions")
    missions: list[Mission] = []
    if not isinstance(missions_raw, list) or not missions_raw:
        problems.append("missions: a suite needs a non-empty list of missions")
        missions_raw = []
    seen: dict[str, int] = {}
    for i, m in enumerate(missions_raw):
        mid = m.get("id") if isinstance(m, dict) else None
        label = f"mission {mid!r} (#{i + 1})" if isinstance(mid, str) else f"mission #{i + 1}"
        if not isinstance(m, dict):
            problems.append(f"{label}: a mission is a mapping with id, prompt, checks...")
            continue
        try:
            mission = Mission.model_validate(m)
        except ValidationError as e:
            problems += _errors(e, f"{label}: ")
            continue
        if mission.id in seen:
            problems.append(f"{label}: id: duplicate id (also mission #{seen[mission.id] + 1})")
        seen.setdefault(mission.id, i)
        missions.append(mission)
    if problems:
        raise SuiteError(source, problems)
    suite = Suite(name=raw["name"], description=raw.get("description") or "", api_base=api_base,
                  defaults=defaults, missions=missions,
                  base_dir=str(Path(base_dir).resolve()), source=source)
    if check:
        problems = []
        if defaults.limits:
            problems += [f"defaults.{p}" for p in _limit_problems(defaults.limits)]
        for m in suite.missions:
            problems += [f"mission {m.id!r}: {p}" for p in mission_problems(suite, m)]
        if problems:
            raise SuiteError(source, problems)
    return suite


# -- resolution -----------------------------------------------------------------------------


def import_ref(ref: str) -> Any:
    """`"package.module:attr"` -> the attribute (dots after ':' walk nested attributes)."""
    if not IMPORT_REF.match(ref):
        raise ValueError(f"{ref!r} is not a 'module:attribute' reference")
    module_name, attr = ref.split(":", 1)
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as e:
        raise ValueError(f"cannot import {module_name!r} ({ref}): {e}") from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"{module_name} has no attribute {attr!r} ({ref})") from None
    return obj


def _needs_outbox(factory: Any) -> bool:
    import inspect

    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False
    return "outbox" in params


def is_factory(obj: Any) -> bool:
    """A tool factory: a function whose name ends in `_tools` (called to get the tools)."""
    import inspect

    return inspect.isfunction(obj) and obj.__name__.endswith("_tools")


def resolve_tools(refs: list[str], outbox: Any = None) -> tuple[list[Any], Any]:
    """The tools named by refs, and the Outbox the action tools record into (or None).

    A ref names a Tool, a function (becomes a tool), a list/tuple/dict of them, or a factory
    (`*_tools`) called with no argument -- or with `outbox` when it takes one (a fresh
    `ptc.examples.tools.Outbox` per execution unless given).
    """
    tools: list[Any] = []
    for ref in refs:
        obj = import_ref(ref)
        if is_factory(obj):
            if _needs_outbox(obj):
                if outbox is None:
                    from ptc.examples.tools import Outbox

                    outbox = Outbox()
                obj = obj(outbox)
            else:
                obj = obj()
        if isinstance(obj, dict):
            tools.append(obj)
        elif isinstance(obj, (list, tuple)):
            tools.extend(obj)
        else:
            tools.append(obj)
    merged: dict[str, Any] = {}
    from ptc.tools import as_tools

    for group in tools:
        for name, t in as_tools(group).items():
            if name in merged:
                raise ValueError(f"two tools are named {name!r}")
            merged[name] = t
    return list(merged.values()), outbox


def _dataset_names() -> tuple[str, ...]:
    from ptc.examples import datasets

    return datasets.NAMES


def _is_file(text: str) -> bool:
    """A data file reference: `file:PATH` or a path with a data file suffix (`orders.csv`, `shop.db#orders`)."""
    from ptc.data.files import READERS, parse_spec

    return text.startswith("file:") or Path(parse_spec(text)[1]).suffix.lower() in READERS


def _reference(base_dir: str, text: str) -> tuple[str | None, Any]:
    """A data reference string -> (a dataset's name and rows) or (None, {name: value} of a data file)."""
    from ptc.data.files import read_data
    from ptc.examples import datasets

    if text.startswith("dataset:"):
        text = text[len("dataset:"):]
        if text not in datasets.NAMES:
            raise ValueError(f"no dataset {text!r}; datasets: {', '.join(datasets.NAMES)}")
    if text in datasets.NAMES:
        return text, datasets.load(text)
    if _is_file(text):
        return None, read_data(text.removeprefix("file:"), base_dir=base_dir)
    raise ValueError(f"{text!r} is neither a dataset ({', '.join(datasets.NAMES)}) nor a data file "
                     f"(.json, .csv, .parquet, ...)")


def resolve_data(spec: Any, base_dir: str) -> dict[str, Any]:
    """A mission's `data` -> {name: value}.

    - "orders" (a bundled dataset) -> {"orders": [...]}; "file.json" -> the file's top-level
      object (its keys become data/NAME); "sales.csv" (any data file, `[NAME=]FILE[#PART]` as
      on the CLI's --data) -> {"sales": table}; a list of such strings merges them.
    - a mapping name -> value: "dataset:NAME" and "file:PATH[#PART]" values are loaded (a file's
      whole value: its JSON, its table), every other value is inline JSON.
    """
    if spec is None:
        return {}
    out: dict[str, Any] = {}
    if isinstance(spec, str):
        spec = [spec]
    if isinstance(spec, list):
        for text in spec:
            if not isinstance(text, str):
                raise ValueError("a data list holds dataset names or data file paths")
            name, value = _reference(base_dir, text)
            if name is None:
                out.update(value)
            else:
                out[name] = value
        return out
    for name, value in spec.items():
        if not isinstance(name, str) or not re.match(r"^[A-Za-z_][\w?!*+<>=-]*$", name):
            raise ValueError(f"data name {name!r} is not a valid PTC-Lisp name")
        if isinstance(value, str) and value.startswith("file:"):
            from ptc.data.files import read_file

            out[name] = read_file(value.removeprefix("file:"), base_dir=base_dir)
        elif isinstance(value, str) and value.startswith("dataset:"):
            out[name] = _reference(base_dir, value)[1]
        else:
            out[name] = value
    return out


def resolve_signature(spec: str | None) -> Any:
    """A signature string, or a 'module:attr' reference to a pydantic model / type."""
    if spec is None:
        return None
    if IMPORT_REF.match(spec.strip()):
        return import_ref(spec.strip())
    return spec


def make_limits(spec: dict[str, Any]) -> Any:
    from ptc.interpreter.limits import Limits

    return Limits(**spec) if spec else None


def _limit_problems(spec: dict[str, Any]) -> list[str]:
    try:
        make_limits(spec)
    except ValidationError as e:
        return _errors(e, "limits.")
    return []


def _parse_problem(source: str) -> str | None:
    from ptc.interpreter.errors import PTCError
    from ptc.interpreter.reader import read

    try:
        forms = read(source)
    except PTCError as e:
        return e.message
    if not forms:
        return "empty program"
    return None


def mission_problems(suite: Suite, m: Mission) -> list[str]:
    """What would make the mission fail to start (empty when it is fine)."""
    problems: list[str] = []
    refs = suite.tools_of(m)
    for ref in refs:
        if not IMPORT_REF.match(ref):
            problems.append(f"tools: {ref!r} is not a 'module:attribute' reference "
                            f"(e.g. ptc.examples.tools:analysis_tools)")
    if not problems and refs:
        try:
            resolve_tools(refs)
        except Exception as e:  # noqa: BLE001 - any failure is reported
            problems.append(f"tools: {e}")
    try:
        resolve_data(suite.data_of(m), suite.base_dir)
    except Exception as e:  # noqa: BLE001
        problems.append(f"data: {e}")
    sig = suite.signature_of(m)
    if sig is not None:
        try:
            from ptc.agent.signature import Signature

            Signature(resolve_signature(sig))
        except Exception as e:  # noqa: BLE001
            problems.append(f"signature: {e}")
    problems += [p for p in _limit_problems(suite.limits_of(m))]
    for i, c in enumerate(m.all_checks):
        if c.predicate is not None:
            err = _parse_problem(c.predicate)
            if err:
                problems.append(f"checks[{i}].predicate: does not parse: {err}")
    if m.outbox is not None and m.outbox.predicate is not None:
        err = _parse_problem(m.outbox.predicate)
        if err:
            problems.append(f"outbox.predicate: does not parse: {err}")
    if m.outbox is not None and refs and not problems:
        _, outbox = resolve_tools(refs)
        if outbox is None:
            problems.append("outbox: an outbox expectation needs action tools (e.g. "
                            "ptc.examples.tools:action_tools)")
    return problems
