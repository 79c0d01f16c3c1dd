"""Every clojure.core name PTC-Lisp lacks has a stated reason, and docs/deviations.md shows that table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import ptc
from ptc.interpreter.registry import REGISTRY, SPECIAL_FORMS, load_library
from ptc.interpreter.unsupported import MISSING, markdown

ROOT = Path(__file__).resolve().parents[2]
PUBLICS = json.loads((ROOT / "tests" / "conformance" / "clojure_publics.json").read_text())
HOST_PROVIDED = {"*1", "*2", "*3"}  # earlier results, bound when the host keeps them


def test_every_missing_clojure_core_name_has_a_reason_and_no_present_one_does():
    load_library()
    present = set(REGISTRY) | set(SPECIAL_FORMS) | HOST_PROVIDED
    assert set(MISSING) == set(PUBLICS["clojure.core"]) - present


def test_deviations_doc_lists_the_table():
    text = (ROOT / "docs" / "deviations.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- missing-names:start -->\n(.*?)\n<!-- missing-names:end -->", text, re.S)
    assert m and m.group(1) == markdown(), "regenerate the list: python -c 'from ptc.interpreter.unsupported " \
                                           "import markdown; print(markdown())'"


@pytest.mark.parametrize("name", ["atom", "replicate", "hash", "with-out-str", "defrecord", "*out*"])
def test_using_one_says_why(name: str):
    with pytest.raises(ptc.PTCError) as e:
        ptc.run(f"({name} 1)")
    assert e.value.kind == "analysis" and f"{name} is not supported in PTC-Lisp (" in e.value.message
    assert e.value.hint == MISSING[name].why
