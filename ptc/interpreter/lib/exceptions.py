"""Errors as values: `ex-info` builds what `throw` raises and `catch` binds."""

from __future__ import annotations

from typing import Any

from .. import values as v
from ..errors import runtime_error
from ..registry import builtin

_MESSAGE = v.keyword("message")
_DATA = v.keyword("data")
_MARK = v.keyword("ptc/exception")


@builtin("ex-info", args=("[msg data]", "[msg data cause]"), category="functions",
         doc="An error value carrying a message and a data map, for throw.",
         ex=(("(ex-message (ex-info \"boom\" {:a 1}))", '"boom"'),))
def ex_info(msg: Any, data: Any, cause: Any = None) -> Any:
    if type(msg) is not str:
        raise runtime_error(f"ex-info: message must be a string, got {v.type_name(msg)}")
    if data is not None and type(data) not in v.MAP_TYPES:
        raise runtime_error(f"ex-info: data must be a map, got {v.type_name(data)}")
    return v.make_map([(_MESSAGE, msg), (_DATA, data if data is not None else v.EMPTY_MAP), (_MARK, True)])


@builtin("ex-message", args="[ex]", category="functions",
         doc="The message of an error value (from ex-info or a caught error); nil otherwise.",
         ex=(("(try (throw (ex-info \"bad\" {})) (catch Exception e (ex-message e)))", '"bad"'),))
def ex_message(e: Any) -> Any:
    if type(e) in v.MAP_TYPES and v.lookup(e, _MARK) is True:
        return v.lookup(e, _MESSAGE)
    return None


@builtin("ex-data", args="[ex]", category="functions",
         doc="The data map of an error value from ex-info; nil otherwise.",
         ex=(("(ex-data (ex-info \"bad\" {:id 7}))", "{:id 7}"),))
def ex_data(e: Any) -> Any:
    if type(e) in v.MAP_TYPES and v.lookup(e, _MARK) is True:
        return v.lookup(e, _DATA)
    return None
