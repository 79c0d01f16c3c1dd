"""`Tool`: a Python function made callable from PTC-Lisp as `(tool/name {...})`.

A Tool knows its program-facing name (kebab case), its description (docstring), a pydantic
model of its parameters built from the type hints, and how to render itself for a prompt
(`signature()`), for classic JSON tool calling (`to_schema()`) and for a conversation log
(`summarize()`). `invoke(args)` is what `ptc.run` calls with the PTC arguments.

How program arguments reach the function:

- `(tool/x {:a 1 :max-results 5})`: keyword arguments; keyword or string keys, kebab-case
  keys find snake_case parameters (so do the exact Python names), also inside nested
  records (pydantic models, dataclasses, TypedDicts).
- `(tool/x 1 2)`: positional arguments in parameter order (extra ones go to `*args`).
- `(tool/x)`: no arguments.
- nil for a parameter that has a default and does not accept None means "use the default".
- A tool whose only parameter is a record or a dict also takes the record's map directly:
  `(tool/create-user {:name "Ann"})` for `create_user(user: User)`.
- Values are validated by pydantic in its default (lax) mode: 3 is a fine float, keywords
  arrive as strings (`:positive` matches `Literal["positive"]`), a vector fills a set.
  Failures are PTCError kind "tool" naming the tool, the parameter (with a path inside
  nested data), what was expected and what came; the hint shows the call form.
- Parameters the program left out are not passed, so the function's defaults apply.

Results come back as JSON-like Python. A result whose return annotation names types that
are not JSON-like (pydantic models, dataclasses, enums, dates, UUIDs, Decimals...) is
converted (model_dump(mode="json") and so on; generators are realized within the collection
limit). A result annotated as JSON-like data (`list[dict]`, `dict[str, Any]`, `str`...) or
not annotated is returned as it is, so the program reads it without a copy; a value inside
it that is not JSON-like is refused where the program first uses it. An async tool's
`invoke` returns a coroutine, which `ptc.run` awaits (in a worker thread when an event loop
is already running).
"""

from __future__ import annotations

import dataclasses
import decimal
import enum
import functools
import inspect
import itertools
import sys
import types
from collections import abc
from typing import Any, Callable, Iterable, Mapping, overload

from pydantic import BaseModel, ValidationError

from ptc.interpreter import values as v
from ptc.data.sources import as_arrow, is_columnar
from ptc.interpreter.errors import PTCError, suggest

from . import schema as sc
from .lifetime import RunScope
from .naming import check_tool_name, clean_doc, first_paragraph, param_docs, tool_name_for
from .summarize import call_summarizer, default_summary, one_line

_P = inspect.Parameter
_POSITIONAL = (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD)
_UNSET: Any = object()


class Tool:
    """A host function exposed to PTC-Lisp programs. Immutable; see `replace` for variants.

    Attributes: `name` (program-facing, kebab case), `description` (first paragraph of the
    docstring), `doc` (the whole docstring), `parameters` (pydantic model of the arguments),
    `returns` (the return annotation, `typing.Any` when absent), `fn`, `is_async`, `scope`
    (a resource the runs using the tool hold open, see ptc.tools.lifetime; None for most tools),
    `approval` (True, or a policy `args -> bool`: a call waits for the host's approval, the
    run pausing there; see `needs_approval` and docs/approvals.md).
    """

    name: str
    description: str
    doc: str
    parameters: type[BaseModel]
    returns: Any
    fn: Callable[..., Any]
    is_async: bool
    summarizer: Callable[..., Any] | None
    params: tuple[sc.Param, ...]
    scope: RunScope | None
    approval: bool | Callable[[dict[str, Any]], bool]

    def __init__(
        self,
        fn: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        summarize: Callable[..., Any] | None = None,
        signature: str | inspect.Signature | None = None,
        scope: RunScope | None = None,
        approval: bool | Callable[[dict[str, Any]], bool] | None = None,
        _localns: dict[str, Any] | None = None,
    ) -> None:
        if isinstance(fn, Tool):  # re-wrapping a tool keeps its options unless overridden
            base = fn
            fn = base.fn
            name = base.name if name is None else name
            description = base._description_option if description is None else description
            summarize = base.summarizer if summarize is None else summarize
            signature = base._signature_option if signature is None else signature
            scope = base.scope if scope is None else scope
            approval = base.approval if approval is None else approval
            _localns = base._localns if _localns is None else _localns
        if not callable(fn):
            raise TypeError(f"a tool must be callable, not {type(fn).__name__}")
        if summarize is not None and not callable(summarize):
            raise TypeError("summarize= must be a function (args, result) -> str")
        if approval is not None and not isinstance(approval, bool) and not callable(approval):
            raise TypeError("approval= must be True, False or a function (args) -> bool")
        set_ = functools.partial(object.__setattr__, self)
        tool_name = check_tool_name(name) if name is not None else tool_name_for(fn)
        doc = clean_doc(fn)
        localns = _localns if _localns is not None else _caller_locals()
        sig = signature if isinstance(signature, inspect.Signature) else _signature_of(fn, localns)
        set_("fn", fn)
        set_("name", tool_name)
        set_("doc", doc)
        set_("description", " ".join(description.split()) if description is not None else first_paragraph(doc))
        set_("_description_option", description)
        set_("_signature_option", signature)
        set_("_localns", localns)
        set_("summarizer", summarize)
        set_("scope", scope)
        set_("approval", approval or False)
        set_("is_async", _is_async(fn))
        set_("returns", _return_annotation(fn, sig, localns))
        set_("_convert_result", not sc.is_json_data(self.returns))
        params = sc.build_params(fn, sig, param_docs(doc), localns)
        set_("params", params)
        set_("_by_name", {p.name: p for p in params if p.kind not in (_P.VAR_POSITIONAL, _P.VAR_KEYWORD)})
        set_("_by_field", {p.field: p for p in params})
        set_("_keys", {k: p for p in params if p.kind is not _P.VAR_KEYWORD for k in (p.name, p.key)})
        set_("_required", tuple(p for p in params if p.required))
        set_("_positional", tuple(p for p in params if p.kind in _POSITIONAL))
        set_("_var_positional", next((p for p in params if p.kind is _P.VAR_POSITIONAL), None))
        set_("_var_keyword", next((p for p in params if p.kind is _P.VAR_KEYWORD), None))
        simple = all(p.kind in (_P.POSITIONAL_OR_KEYWORD, _P.KEYWORD_ONLY) for p in params)
        set_("_simple", tuple((p.field, p.name) for p in params) if simple and params else ())
        set_("_single", self._single_map_param())
        model_name = "".join(part.capitalize() for part in tool_name.replace("_", "-").split("-")) + "Params"
        set_("parameters", sc.build_model(model_name, params))
        set_("_extras", sc.extras_model(params))
        # introspection: a decorated function still looks like itself
        for attr in ("__module__", "__qualname__", "__name__"):
            val = getattr(fn, attr, None)
            if isinstance(val, str):
                set_(attr, val)
        set_("__doc__", getattr(fn, "__doc__", None))
        set_("__wrapped__", fn)

    # -- immutability, Python-side use ---------------------------------------------------

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"Tool is immutable (tried to set {key}); use tool.replace({key}=...)")

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"Tool is immutable (tried to delete {key})")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Calling a tool from Python calls the function itself, unchanged."""
        return self.fn(*args, **kwargs)

    def __get__(self, obj: Any, objtype: Any = None) -> "Tool":
        """`@ptc.tool` on a method: `instance.method` is a tool bound to the instance."""
        if obj is None:
            return self
        return self.replace(fn=types.MethodType(self.fn, obj))

    def __repr__(self) -> str:
        return f"<Tool tool/{self.name}>"

    def __reduce__(self) -> Any:
        module = __import__("sys").modules.get(getattr(self, "__module__", ""), None)
        qualname = getattr(self, "__qualname__", None)
        if module is not None and qualname and "<" not in qualname:
            obj: Any = module
            for part in qualname.split("."):
                obj = getattr(obj, part, None)
            if obj is self:  # a decorated module-level function: pickled by reference
                return qualname
        return (_rebuild, (self.fn, self.name, self._description_option, self.summarizer,
                           self._signature_option if isinstance(self._signature_option, str) else None,
                           self.approval))

    def replace(self, **changes: Any) -> "Tool":
        """A copy with some of fn/name/description/summarize/signature/scope/approval changed."""
        unknown = set(changes) - {"fn", "name", "description", "summarize", "signature", "scope", "approval"}
        if unknown:
            raise TypeError(f"Tool.replace() got unexpected options: {', '.join(sorted(unknown))}")
        return Tool(
            changes.get("fn", self.fn),
            name=changes.get("name", self.name),
            description=changes.get("description", self._description_option),
            summarize=changes.get("summarize", self.summarizer),
            signature=changes.get("signature", self._signature_option),
            scope=changes.get("scope", self.scope),
            approval=changes.get("approval", self.approval),
            _localns=self._localns,
        )

    def needs_approval(self, args: Any = None) -> bool:
        """Whether a call with these (PTC) arguments waits for approval: `approval=True`, or
        the policy's verdict on the arguments by parameter name (`bind`). A policy that raises
        asks (the safe side); arguments that do not bind ask nothing: the call fails on them."""
        policy = self.approval
        if not callable(policy):
            return bool(policy)
        try:
            bound = self.bind(args)
        except PTCError:
            return False
        try:
            return bool(policy(bound))
        except Exception:  # noqa: BLE001 - a broken policy must not let a call through
            return True

    # -- calling from programs -----------------------------------------------------------

    def invoke(self, args: Any = None) -> Any:
        """Call the tool with PTC arguments: a map (keyword arguments), a vector (positional
        arguments) or nil/empty (no arguments). Plain Python dicts and lists work too, so
        classic JSON tool calling can use the same entry point.

        Validates the arguments (raising PTCError kind "tool" that names the parameter,
        what was expected and what came) and returns the result as plain Python: when the
        return annotation names pydantic models, dataclasses, enums, dates... they are
        converted to JSON-like data; JSON-like results are returned as they are (no copy).
        For an async function the result is a coroutine (ptc.run awaits it; see `ainvoke`).
        """
        pos, kw = self._bind_call(args)
        result = self.fn(*pos, **kw)
        if inspect.isawaitable(result):
            return _finish(result, f"tool/{self.name} result", self._convert_result)
        return json_result(result, f"tool/{self.name} result", self._convert_result)

    async def ainvoke(self, args: Any = None) -> Any:
        """`invoke` for async code: awaits the tool when it is async."""
        result = self.invoke(args)
        if inspect.isawaitable(result):
            result = await result
        return result

    def bind(self, args: Any = None) -> dict[str, Any]:
        """Validated arguments by Python parameter name (what `invoke` would pass)."""
        pos, kw = self._bind_call(args)
        out: dict[str, Any] = {}
        for p, val in zip(self._positional, pos):
            out[p.name] = val
        if self._var_positional is not None and len(pos) > len(self._positional):
            out[self._var_positional.name] = list(pos[len(self._positional):])
        out.update(kw)
        return out

    def _bind_call(self, args: Any) -> tuple[list[Any], dict[str, Any]]:
        given, extras = self._collect(args)
        if None in given.values():
            for name in [n for n, val in given.items() if val is None]:
                p = self._by_name.get(name)
                if p is not None and p.default is not sc.EMPTY and not p.accepts_none:
                    del given[name]  # nil for a parameter with a default means "use the default"
        missing = [p for p in self._required if p.name not in given]
        if missing:
            names = ", ".join(p.key for p in missing)
            raise self._error(f"missing required parameter{'s' if len(missing) > 1 else ''} {names}")
        data: dict[str, Any] = {}
        for name, raw in given.items():
            p = self._by_name.get(name) or self._var_positional
            assert p is not None
            val = v.to_python(raw)
            if p.fix_keys:
                val = sc.fix_keys(val, p.annotation)
            data[p.field] = val
        try:
            model = self.parameters.model_validate(data)
        except ValidationError as e:
            raise self._validation_error(e, given) from None
        extra_values: dict[str, Any] = {}
        for key, raw in extras.items():
            val = v.to_python(raw)
            if self._extras is not None:
                try:
                    val = self._extras.model_validate({"value": val}).value  # type: ignore[attr-defined]
                except ValidationError as e:
                    raise self._validation_error(e, {key: raw}, top=key) from None
            extra_values[key] = val
        return self._arrange(model, extra_values)

    def _arrange(self, model: BaseModel, extra_values: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        """Validated model -> (positional, keyword) arguments for fn. Parameters the program
        left out are not passed, so the function's own defaults apply."""
        fs = model.model_fields_set
        if self._simple:  # no positional-only or variadic parameters: keywords only
            d = model.__dict__
            return [], {name: d[field] for field, name in self._simple if field in fs}
        va = self._var_positional
        rest = list(getattr(model, va.field)) if va is not None and va.field in fs else []
        # positional-only parameters go positionally; with extra *args, all the ones before them do
        head = list(self._positional) if rest else [p for p in self._positional if p.kind is _P.POSITIONAL_ONLY]
        last = len(head) - 1 if rest else max((i for i, p in enumerate(head) if p.field in fs), default=-1)
        head = head[: last + 1]
        in_head = {id(p) for p in head}
        pos = [getattr(model, p.field) if p.field in fs else p.default for p in head]
        pos.extend(rest)
        kw: dict[str, Any] = {}
        for p in self.params:
            if id(p) in in_head or p.kind in (_P.VAR_POSITIONAL, _P.VAR_KEYWORD):
                continue
            if p.field in fs:
                kw[p.name] = getattr(model, p.field)
        kw.update(extra_values)
        return pos, kw

    def _collect(self, args: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """PTC arguments -> ({python name: raw value}, {extra key: raw value})."""
        given: dict[str, Any] = {}
        extras: dict[str, Any] = {}
        if args is None:
            return given, extras
        if type(args) in v.MAP_TYPES or isinstance(args, Mapping):
            items = list(args.items())
            single = self._single
            if single is not None and items and not (
                    len(items) == 1 and isinstance(items[0][0], (str, v.Keyword))
                    and self._key_name(items[0][0]) == single.name):
                return {single.name: args}, extras  # (tool/create-user {:name "a"}) for create_user(user: User)
            for k, val in items:
                name = self._key_name(k)
                if name is None:
                    if self._var_keyword is not None and isinstance(k, (str, v.Keyword)):
                        extras[k.name if isinstance(k, v.Keyword) else k] = val
                        continue
                    raise self._unknown(k)
                if name in given:
                    raise self._error(f"parameter {self._keys[name].key} given twice")
                given[name] = val
            return given, extras
        if type(args) in v.SEQUENTIAL_TYPES or isinstance(args, (list, tuple)):
            items = list(args)
        else:
            items = [args]
        positional = self._positional
        if len(items) > len(positional) and self._var_positional is None:
            names = ", ".join(p.key for p in positional) or "none"
            n = len(positional)
            raise self._error(f"too many arguments: takes {n} positional argument{'s' if n != 1 else ''} "
                              f"({names}), got {len(items)}")
        for p, val in zip(positional, items):
            given[p.name] = val
        if len(items) > len(positional):
            given[self._var_positional.name] = v.vec(items[len(positional):])  # type: ignore[union-attr]
        return given, extras

    def _key_name(self, k: Any) -> str | None:
        if type(k) is v.Keyword:
            k = k.name
        elif not isinstance(k, str):
            raise self._error(f"parameter names must be keywords, got {sc.describe_value(k)}")
        p = self._keys.get(k) or self._keys.get(k.replace("-", "_"))
        return p.name if p is not None else None

    def _single_map_param(self) -> sc.Param | None:
        ps = [p for p in self.params if p.kind is not _P.VAR_KEYWORD]
        if len(ps) == 1 and ps[0].kind is not _P.VAR_POSITIONAL and self._var_keyword is None \
                and sc.is_map_like(ps[0].annotation):
            return ps[0]
        return None

    # -- errors --------------------------------------------------------------------------

    def _error(self, message: str, hint: str | None = None) -> PTCError:
        return PTCError("tool", f"tool/{self.name}: {message}",
                        hint=hint or f"call it as {self.signature(description=False)}")

    def _unknown(self, k: Any) -> PTCError:
        shown = k.name if type(k) is v.Keyword else str(k)
        valid = [p.key for p in self.params if p.kind is not _P.VAR_KEYWORD]
        close = suggest(shown, valid + [p.name for p in self.params])
        close = list(dict.fromkeys(self._keys[c].key for c in close if c in self._keys))
        msg = f"unknown parameter {shown}"
        if close:
            msg += f" (did you mean {close[0]}?)"
        msg += f"; valid parameters: {', '.join(valid) if valid else 'none (call it with no arguments)'}"
        return self._error(msg)

    def _validation_error(self, e: ValidationError, given: dict[str, Any], top: str | None = None) -> PTCError:
        problems: dict[str, list[str]] = {}
        got: dict[str, str] = {}
        for err in e.errors(include_url=False):
            loc = tuple(err.get("loc", ()))
            if top is not None:  # an extra **kwargs argument, validated as the field "value"
                loc = (top,) + loc[1:]
            if not loc:
                problems.setdefault("", []).append(str(err.get("msg", "invalid")))
                continue
            p = self._by_field.get(str(loc[0])) or self._by_name.get(str(loc[0]))
            if p is not None:
                key, raw = p.key, given.get(p.name, sc.MISSING)
            else:
                key, raw = str(loc[0]), given.get(loc[0], sc.MISSING)
            sub, found = sc.lookup_path(raw, loc[1:])
            path = key + sub
            etype = err.get("type", "")
            if etype == "missing":
                problems.setdefault(path, []).append("missing")
                continue
            if etype == "extra_forbidden":
                problems.setdefault(path, []).append("unknown key")
                continue
            if found is sc.MISSING:
                found = sc_from_python(err.get("input"))
            exp = sc.expected_of(err)
            text = f"expected {exp}" if exp else _lower_first(str(err.get("msg", "invalid value")))
            problems.setdefault(path, []).append(text)
            got[path] = sc.describe_value(found)
        parts = []
        for path, texts in problems.items():
            texts = list(dict.fromkeys(texts))
            if all(t.startswith("expected ") for t in texts) and len(texts) > 1:
                text = "expected " + " or ".join(t[len("expected "):] for t in texts)
            else:
                text = "; ".join(texts)
            if path in got:
                text += f", got {got[path]}"
            if text == "missing":
                text = "missing required key"
            parts.append(f"parameter {path}: {text}" if path else text)
        shown = parts[:3]
        if len(parts) > 3:
            shown.append(f"and {len(parts) - 3} more problem{'s' if len(parts) > 4 else ''}")
        return self._error("; ".join(shown))

    # -- rendering -----------------------------------------------------------------------

    def signature(self, *, description: bool = True) -> str:
        """The tool as the model sees it in its system prompt, e.g.

            (tool/search-reviews {:category :string, :limit :int?}) -> [{:id :int, :text :string}]
              Search product reviews by category.
              :limit - how many reviews to return (default 10)

        First line: the call form (a map of kebab-case keys; `?` marks a parameter that may
        be omitted) and the return type, in the notation of `ptc.tools.schema`. Then, when
        asked for, the description and one line per documented or defaulted parameter.
        """
        opt = self._signature_option
        line = opt if isinstance(opt, str) else self._call_form()
        if not description:
            return line
        lines = [line]
        if self.description:
            lines.append("  " + self.description)
        for p in self.params:
            notes = p.description
            if p.default is not sc.EMPTY and p.default is not None and p.kind not in (_P.VAR_POSITIONAL,
                                                                                     _P.VAR_KEYWORD):
                notes = (notes + " " if notes else "") + f"(default {sc.literal(p.default)})"
            if notes:
                lines.append(f"  :{p.key} - {notes}")
        return "\n".join(lines)

    def _call_form(self) -> str:
        ret = sc.render(self.returns, output=True)
        ps = [p for p in self.params]
        if not ps:
            return f"(tool/{self.name}) -> {ret}"
        if self._var_positional is not None and not any(p.kind is _P.KEYWORD_ONLY for p in ps):
            parts = []
            for p in ps:
                if p.kind is _P.VAR_POSITIONAL:
                    elem = typing_args_first(p.annotation)
                    parts.append(f"& {p.key} {sc.render(elem)}")
                elif p.kind in _POSITIONAL:
                    t = sc.render(p.annotation)
                    parts.append(f"{p.key} {t if p.required else sc.optional(t)}")
            return f"(tool/{self.name} {' '.join(parts)}) -> {ret}"
        fields = []
        for p in ps:
            if p.kind is _P.VAR_KEYWORD:
                continue
            t = sc.render(p.annotation)  # *args appear as a vector: {:nums [:int]?}
            fields.append(f":{p.key} {t if p.required else sc.optional(t)}")
        if self._var_keyword is not None:
            fields.append("...")
        return f"(tool/{self.name} {{{', '.join(fields)}}}) -> {ret}"

    def to_schema(self) -> dict[str, Any]:
        """OpenAI function-calling style: {"name", "description", "parameters": JSON schema}."""
        return {"name": self.name, "description": self.description,
                "parameters": sc.json_schema(self.parameters, self.params)}

    def summarize(self, args: Any, result: Any) -> str:
        """A one-line record of a call. With a user `summarize` function it gets the
        arguments (by Python parameter name when they validate) and the result as plain
        Python; otherwise `name({:arg "value"}) -> list[12]`."""
        if self.summarizer is not None:
            try:
                try:
                    plain_args: Any = self.bind(args)
                except Exception:  # noqa: BLE001 - invalid args: hand over what came
                    plain_args = v.to_python(args)
                return one_line(call_summarizer(self.summarizer, plain(plain_args), result))
            except Exception:  # noqa: BLE001 - a broken summarizer must not break the agent
                pass
        return default_summary(self.name, args, result)


def sc_from_python(x: Any) -> Any:
    try:
        return v.from_python(x)
    except Exception:  # noqa: BLE001
        return x


def _lower_first(s: str) -> str:
    return s[:1].lower() + s[1:]


def typing_args_first(ann: Any) -> Any:
    import typing

    args = typing.get_args(ann)
    return args[0] if args else Any


def _rebuild(fn: Any, name: str, description: str | None, summarize: Any, signature: str | None,
             approval: Any = False) -> Tool:
    return Tool(fn, name=name, description=description, summarize=summarize, signature=signature, approval=approval)


def _signature_of(fn: Any, localns: dict[str, Any] | None) -> inspect.Signature:
    try:
        return inspect.signature(fn, eval_str=True, globals=sc.namespace(fn, localns))
    except Exception:  # noqa: BLE001 - unresolvable names: resolved one by one (else Any)
        pass
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):  # some builtins: accept anything positionally
        return inspect.Signature([_P("args", _P.VAR_POSITIONAL)])


def _return_annotation(fn: Any, sig: inspect.Signature, localns: dict[str, Any] | None) -> Any:
    ann = sig.return_annotation
    if ann is inspect.Signature.empty:
        return Any
    return sc.resolve(ann, fn, localns)


def _caller_locals() -> dict[str, Any] | None:
    """The local scope that created a tool (for annotations naming local classes under
    `from __future__ import annotations`); None at module level."""
    f = sys._getframe(1)
    while f is not None and str(f.f_globals.get("__name__", "")).startswith("ptc.tools"):
        f = f.f_back  # type: ignore[assignment]
    if f is None or f.f_locals is f.f_globals:
        return None
    return dict(f.f_locals)


def _is_async(fn: Any) -> bool:
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(fn, "__call__", None)
    return call is not None and not inspect.isroutine(fn) and inspect.iscoroutinefunction(call)


async def _finish(awaitable: Any, where: str, convert: bool) -> Any:
    return json_result(await awaitable, where, convert)


# -- results --------------------------------------------------------------------------------

_PTC_TYPES = (v.Keyword, v.Symbol, v.PList, v.MapEntry, v.PVector, v.FMap, v.HMap, v.FSet, v.HSet,
              v.LazySeq, v.Regex, v.Table, v.Row)
_AS_IS = frozenset({str, int, float, bool, type(None), *_PTC_TYPES})
_SAMPLE = 64  # values of a map looked at by looks_plain


class Unconvertible(Exception):
    """A value `plain` cannot turn into JSON-like data."""

    def __init__(self, value: Any) -> None:
        super().__init__(type(value).__name__)
        self.value = value


def json_result(x: Any, where: str, convert: bool = False) -> Any:
    """A tool result as JSON-like data. One that is most likely JSON-like already is returned
    as it is (programs read it without a copy); one that visibly is not (see looks_plain),
    or any when `convert`, is converted with `plain`. What cannot be converted is a tool error."""
    try:
        return plain(x) if convert or not looks_plain(x) else x
    except Unconvertible as e:
        raise PTCError("tool", f"{where}: cannot convert a Python {type(e.value).__name__} into a PTC value",
                       hint="tools must return JSON-like values: dict, list, str, int, float, bool, None "
                            "(or pydantic models, dataclasses, enums, dates)") from None


def looks_plain(x: Any, depth: int = 0) -> bool:
    """Whether x needs no conversion, judged from a sample: the first and last item of each
    list and up to 64 values of each map, along the first path down (rows of one shape are
    the common case, so a Decimal or date column shows in the first row). A value the sample
    misses is refused with a clear error where a program first uses it."""
    t = type(x)
    if t in _AS_IS:
        return True
    if depth > 8:
        return True
    if t is list or t is tuple:
        return not x or (looks_plain(x[0], depth + 1) and looks_plain(x[-1], depth + 1))
    if t is dict:
        return all(type(k) in _AS_IS and looks_plain(val, depth + 1)
                   for k, val in itertools.islice(x.items(), _SAMPLE))
    return False


def plain(x: Any, depth: int = 0) -> Any:
    """A tool's result as JSON-like Python (PTC values pass through untouched)."""
    t = type(x)
    if x is None or t is str or t is int or t is float or t is bool or t in _PTC_TYPES:
        return x
    if depth > 200:
        return x
    if isinstance(x, BaseModel):
        return x.model_dump(mode="json")
    if t.__module__ == "numpy":  # np.int64(3), an array of numbers: as data gives them (values.from_python)
        return v.from_python(x, "tool result")
    if isinstance(x, dict):
        return {_plain_key(k): plain(val, depth + 1) for k, val in x.items()}
    if is_columnar(x):  # a DataFrame, Arrow table or DuckDB relation: a table, read in place
        return v.Table(as_arrow(x, "tool result"))
    if isinstance(x, (list, tuple)):
        return [plain(i, depth + 1) for i in x]
    if isinstance(x, (set, frozenset)):
        items = [plain(i, depth + 1) for i in x]
        try:
            return set(items)
        except TypeError:
            return items
    if isinstance(x, enum.Enum):
        return plain(x.value, depth + 1)
    if isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, decimal.Decimal):
        return int(x) if x == x.to_integral_value() and x.is_finite() and "." not in str(x) else float(x)
    if isinstance(x, (bytes, bytearray)):
        return bytes(x).decode("utf-8", "replace")
    if isinstance(x, abc.Mapping):
        return {_plain_key(k): plain(val, depth + 1) for k, val in x.items()}
    if isinstance(x, (abc.Sequence, abc.Set, abc.KeysView, abc.ValuesView)):
        return [plain(i, depth + 1) for i in x]
    if isinstance(x, abc.Iterator):  # a generator: realized, within the collection limit
        return [plain(i, depth + 1) for i in _bounded(x)]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: plain(getattr(x, f.name), depth + 1) for f in dataclasses.fields(x)}
    try:
        from pydantic_core import to_jsonable_python

        return to_jsonable_python(x)
    except Exception:  # noqa: BLE001 - not convertible: the caller says which tool
        raise Unconvertible(x) from None


def _plain_key(k: Any) -> Any:
    if isinstance(k, enum.Enum):
        k = k.value
    if k is None or isinstance(k, (str, int, float, bool, tuple, frozenset, v.Keyword)):
        return k  # (tuples and frozensets become vector and set keys)
    return str(k)  # dates, UUIDs...


def _bounded(it: Iterable[Any]) -> list[Any]:
    from ptc.interpreter import context

    cap = context.CURRENT.limits.max_collection
    items = list(itertools.islice(it, cap + 1))
    if len(items) > cap:
        context.check_size(len(items), "tool result")
    return items


# -- decorator and normalization -------------------------------------------------------------


@overload
def tool(fn: Callable[..., Any], /) -> Tool: ...


@overload
def tool(
    *, name: str | None = None, description: str | None = None,
    summarize: Callable[..., Any] | None = None, signature: str | None = None,
    approval: bool | Callable[[dict[str, Any]], bool] = False,
) -> Callable[[Callable[..., Any]], Tool]: ...


def tool(
    fn: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    summarize: Callable[..., Any] | None = None,
    signature: str | None = None,
    approval: bool | Callable[[dict[str, Any]], bool] = False,
) -> Any:
    """Make a function a PTC tool: `@ptc.tool` or `@ptc.tool(name=..., description=...,
    summarize=..., signature=..., approval=...)`. The decorated name still calls the function.
    `approval`: True, or a policy (the call's arguments by parameter name -> bool): a call
    that needs it pauses the run until the host answers (docs/approvals.md)."""
    def wrap(f: Callable[..., Any]) -> Tool:
        return Tool(f, name=name, description=description, summarize=summarize, signature=signature,
                    approval=approval)

    if fn is not None:
        return wrap(fn)
    return wrap


def as_tools(tools: Any) -> dict[str, Tool]:
    """Normalize what users pass as `tools=`: a list/tuple of Tools or functions, a dict
    name -> Tool/function (the key is the name programs use), a single tool, or None.
    Two tools with the same name are refused."""
    if tools is None:
        return {}
    out: dict[str, Tool] = {}
    origin: dict[str, Any] = {}

    def add(t: Tool, src: Any) -> None:
        if t.name in out:
            raise ValueError(
                f"duplicate tool name {t.name!r}: {_describe(origin[t.name])} and {_describe(src)}; "
                "give one of them another name (ptc.tool(fn, name=...) or a dict of name -> tool)"
            )
        out[t.name] = t
        origin[t.name] = src

    if isinstance(tools, Mapping):
        for key, obj in tools.items():
            if not isinstance(key, str):
                raise TypeError(f"tool names must be strings, not {type(key).__name__} ({key!r})")
            check_tool_name(key)
            if isinstance(obj, Tool):
                t = obj if obj.name == key else obj.replace(name=key)
            elif callable(obj):
                t = Tool(obj, name=key)
            else:
                raise TypeError(f"tool {key!r} must be a function or a ptc.Tool, not {type(obj).__name__}")
            add(t, obj)
        return out
    if isinstance(tools, Tool) or (callable(tools) and not isinstance(tools, type)):
        tools = [tools]
    if isinstance(tools, (str, bytes)) or not isinstance(tools, Iterable):
        raise TypeError(f"tools must be a list of functions/ptc.Tool or a dict of them, not {type(tools).__name__}")
    for obj in tools:
        if isinstance(obj, Tool):
            add(obj, obj)
        elif callable(obj):
            add(Tool(obj), obj)
        else:
            raise TypeError(f"a tool must be a function or a ptc.Tool, not {type(obj).__name__} ({obj!r})")
    return out


def _describe(obj: Any) -> str:
    fn = obj.fn if isinstance(obj, Tool) else obj
    mod = getattr(fn, "__module__", None)
    qual = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)
    return f"{mod}.{qual}" if mod else str(qual)


__all__ = ["Tool", "tool", "as_tools", "plain"]
