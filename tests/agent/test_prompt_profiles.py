"""The compact system prompt: every builtin covered by what it says, at most 700 tokens of language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import ptc
from ptc.agent.prompt import COMPACT_INTRO, JAVA_INTEROP, UNAVAILABLE, system_prompt
from ptc.interpreter.registry import REGISTRY, SPECIAL_FORMS, load_library
from ptc.llm.tokens import count_tokens

PUBLICS = json.loads((Path(__file__).resolve().parents[1] / "conformance" / "clojure_publics.json").read_text())
CLOJURE_SPECIAL_FORMS = {"def", "if", "do", "quote", "var", "recur", "throw", "try", "catch", "finally", "new",
                         "set!", ".", "monitor-enter", "monitor-exit"}
CORE = set(PUBLICS["clojure.core"]) | CLOJURE_SPECIAL_FORMS
COMPACT = system_prompt(tools={}, data=None, profile="compact")
UNAVAILABLE_NAMES = {name for _, names in UNAVAILABLE for name in names}


def named(name: str, text: str) -> bool:
    """`name` appears in `text` as a whole symbol."""
    return re.search(rf"(?<![\w\-!?*/]){re.escape(name)}(?![\w\-!?*])", text) is not None


def test_compact_prompt_covers_every_builtin() -> None:
    """The prompt says "Clojure (clojure.core, clojure.string, clojure.set) with these differences":
    every builtin is such a Clojure name, not listed as unavailable, or is named in the prompt."""
    load_library()
    uncovered = []
    for b in REGISTRY.values():
        if b.ns == "core" and b.name.startswith("."):  # a Java method: covered by the interop rule
            ok = JAVA_INTEROP in COMPACT and b.category in ("interop", "dates")
        elif b.ns == "core":
            ok = (b.name in CORE and b.name not in UNAVAILABLE_NAMES) or named(b.name, COMPACT)
        elif b.ns in ("clojure.string", "clojure.set", "clojure.math", "clojure.walk"):
            ok = b.name in PUBLICS[b.ns] and b.ns in COMPACT_INTRO
        elif b.ns == "chart":
            ok = named(f"chart/{b.name}", COMPACT)
        elif b.ns in ("stats", "ml"):  # a library named in the prompt with the way to list it
            ok = named(f"{b.ns}/", COMPACT) and "(dir stats)" in COMPACT
        else:  # a Java static: its class is named by the interop rule
            ok = named(b.ns, JAVA_INTEROP) and JAVA_INTEROP in COMPACT
        if not ok:
            uncovered.append(b.qualified)
    uncovered += [n for n in SPECIAL_FORMS if n not in CORE and not named(n, COMPACT)]
    assert not uncovered


def test_compact_prompt_never_says_an_available_function_is_missing() -> None:
    load_library()
    assert UNAVAILABLE_NAMES <= CORE  # real Clojure names
    assert not UNAVAILABLE_NAMES & (set(REGISTRY) | set(SPECIAL_FORMS))
    for name in UNAVAILABLE_NAMES:
        with pytest.raises(ptc.PTCError):
            ptc.run(f"({name} 1)")


def test_namespaces_the_compact_prompt_offers_whole_are_whole() -> None:
    load_library()
    for ns in ("clojure.string", "clojure.set"):
        assert {b.name for b in REGISTRY.values() if b.ns == ns} == set(PUBLICS[ns]), ns


def test_compact_prompt_is_at_most_700_tokens_before_tools_and_data() -> None:
    """Tools and data are described the same way under both profiles; the default one, which lists
    every core function, is shorter than its 1,568 tokens before the analyst's library came, which
    it names in a line per library (taught on demand: (doc f), (dir ns), (find-doc "text"))."""
    default = system_prompt(tools={}, data=None)
    assert count_tokens(COMPACT) <= 700 < 1200 < count_tokens(default) < 1568


def test_agent_prompt_option() -> None:
    orders = [{"id": 1, "total": 9.5}]
    agent = ptc.Agent("Sum the totals", data={"orders": orders}, prompt="compact", llm=lambda m: "")
    assert agent.system_prompt.startswith(COMPACT_INTRO) and "data/orders: list[1]" in agent.system_prompt
    assert ptc.Agent("x", llm=lambda m: "").system_prompt == system_prompt(tools={}, data=None)
    with pytest.raises(ValueError, match="unknown prompt profile 'short'; choose from: default, compact"):
        ptc.Agent("x", prompt="short", llm=lambda m: "")
    llm = ptc.ScriptedLLM(["```clojure\n(return (sum-by :total data/orders))\n```"])
    step = ptc.Agent("Sum the totals", data={"orders": orders}, prompt="compact", llm=llm).run()
    assert step.ok and step.value == 9.5 and llm.requests[0][0]["content"].startswith(COMPACT_INTRO)
