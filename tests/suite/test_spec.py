"""Suite files: validation errors name the mission and the field; data and tools resolve."""

from __future__ import annotations

import json

import pytest

from ptc.suite.spec import SuiteError, load_suite, parse_suite, resolve_data, resolve_tools

from .conftest import tiny_suite_dict, write_suite


def problems(raw, **kw) -> list[str]:
    with pytest.raises(SuiteError) as info:
        parse_suite(raw, **kw)
    return info.value.problems


def mission(**fields):
    return {"name": "s", "missions": [{"id": "m1", "prompt": "p", **fields}]}


def test_valid_suite_loads(tiny):
    assert tiny.name == "tiny"
    assert [m.id for m in tiny.missions] == ["count", "sum", "wrong"]
    assert tiny.max_turns_of(tiny.mission("count")) == 4
    assert tiny.tools_of(tiny.mission("sum")) == []
    assert tiny.tools_of(tiny.mission("count")) == ["ptc.examples.tools:analysis_tools"]


def test_yaml_and_json_give_the_same_suite(tmp_path):
    yaml = pytest.importorskip("yaml")
    raw = tiny_suite_dict()
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
    a = load_suite(tmp_path / "s.yaml")
    b = load_suite(write_suite(tmp_path, raw))
    assert a.missions == b.missions and a.defaults == b.defaults


def test_top_level_problems_all_reported():
    found = problems({"missions": [], "extra": 1})
    assert any("unknown top-level field(s): extra" in p for p in found)
    assert any(p.startswith("name:") for p in found)
    assert any(p.startswith("missions:") for p in found)


def test_mission_field_errors_name_mission_and_field():
    raw = {"name": "s", "missions": [
        {"id": "ok", "prompt": "p"},
        {"id": "bad", "prompt": "p", "max_turns": 0, "bogus": 1},
        {"prompt": "no id"},
    ]}
    found = problems(raw)
    assert any(p.startswith("mission 'bad' (#2): max_turns:") for p in found), found
    assert any(p.startswith("mission 'bad' (#2): bogus: Extra inputs") for p in found), found
    assert any(p.startswith("mission #3: id: Field required") for p in found), found


def test_mission_id_rules_and_duplicates():
    assert any("id: use letters" in p for p in problems(mission(id="a b")))
    assert any("no '__'" in p for p in problems({"name": "s", "missions": [{"id": "a__b", "prompt": "p"}]}))
    dup = {"name": "s", "missions": [{"id": "x", "prompt": "p"}, {"id": "x", "prompt": "q"}]}
    assert any("duplicate id" in p and "mission 'x' (#2)" in p for p in problems(dup))


@pytest.mark.parametrize("check, expected", [
    ({"equals": 1, "between": [0, 2]}, "exactly one of"),
    ({}, "exactly one of"),
    ({"between": [3, 1]}, "low bound"),
    ({"length": "x"}, "checks[0].length: expected a valid integer or a mapping"),
    ({"length": {"min": 3, "max": 1}}, "min (3) is greater than max (1)"),
    ({"path": {"a": 1}, "equals": 1}, "checks[0].path: expected"),
    ({"equals": 1, "tolerance": -1}, "tolerance"),
    ({"has_keys": ["a"], "tolerance": 0.1}, "tolerance only applies to equals"),
    (5, "checks[0]: expected a valid string or a mapping"),
    ({"predicate": "(fn [r] (> r 1)"}, "checks[0].predicate: does not parse"),
])
def test_check_errors(check, expected):
    found = problems(mission(checks=[check]))
    assert any(expected in p and p.startswith("mission 'm1'") for p in found), found


def test_resolution_errors():
    assert any("tools: cannot import 'no_such_module'" in p
               for p in problems(mission(tools=["no_such_module:tools"])))
    assert any("has no attribute 'nope'" in p for p in problems(mission(tools=["ptc.examples.tools:nope"])))
    assert any("not a 'module:attribute' reference" in p for p in problems(mission(tools=["analysis_tools"])))
    assert any("data: 'ordrs' is neither a dataset" in p for p in problems(mission(data="ordrs")))
    assert any("data: " in p and "missing.json: no such file" in p for p in problems(mission(data="missing.json")))
    assert any(p.startswith("mission 'm1': signature:") for p in problems(mission(signature="{a :integr}")))
    assert any("limits.timeout" in p for p in problems(mission(limits={"timeout": -1})))
    assert any("limits.nope" in p for p in problems(mission(limits={"nope": 1})))
    assert any("outbox: an outbox expectation needs action tools" in p
               for p in problems(mission(tools=["ptc.examples.tools:analysis_tools"], outbox={"emails": 1})))
    assert any("outbox.predicate: does not parse" in p
               for p in problems(mission(tools=["ptc.examples.tools:action_tools"], outbox={"predicate": "(("})))


def test_check_false_skips_resolution():
    suite = parse_suite(mission(tools=["no_such_module:tools"]), check=False)
    assert suite.missions[0].tools == ["no_such_module:tools"]


def test_syntax_errors_in_files(tmp_path):
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(SuiteError, match="not valid JSON"):
        load_suite(tmp_path / "bad.json")
    pytest.importorskip("yaml")
    (tmp_path / "bad.yaml").write_text("name: [unclosed\n", encoding="utf-8")
    with pytest.raises(SuiteError, match="not valid YAML"):
        load_suite(tmp_path / "bad.yaml")
    with pytest.raises(SuiteError, match="cannot read"):
        load_suite(tmp_path / "missing.yaml")


def test_data_forms(tmp_path):
    (tmp_path / "extra.json").write_text(json.dumps({"a": [1, 2], "b": "x"}), encoding="utf-8")
    (tmp_path / "list.json").write_text(json.dumps([5, 6]), encoding="utf-8")
    assert len(resolve_data("orders", str(tmp_path))["orders"]) == 400
    both = resolve_data(["orders", "extra.json"], str(tmp_path))
    assert set(both) == {"orders", "a", "b"}
    mixed = resolve_data({"rows": "dataset:products", "nums": "file:list.json", "inline": {"k": [1]},
                          "text": "just a string"}, str(tmp_path))
    assert len(mixed["rows"]) == 60 and mixed["nums"] == [5, 6]
    assert mixed["inline"] == {"k": [1]} and mixed["text"] == "just a string"
    with pytest.raises(ValueError, match="must hold a JSON object"):
        resolve_data("list.json", str(tmp_path))
    with pytest.raises(ValueError, match="not a valid PTC-Lisp name"):
        resolve_data({"bad name": 1}, str(tmp_path))


def test_tools_and_outbox_factories():
    tools, outbox = resolve_tools(["ptc.examples.tools:analysis_tools"])
    assert outbox is None and len(tools) == 7
    tools, outbox = resolve_tools(["ptc.examples.tools:analysis_tools", "ptc.examples.tools:action_tools"])
    assert outbox is not None and {t.name for t in tools} >= {"send-email", "book-meeting"}
    tools, _ = resolve_tools(["ptc.examples.tools:search_products"])  # a plain function becomes a tool
    assert [t.name for t in tools] == ["search-products"]
    with pytest.raises(ValueError, match="two tools are named"):
        resolve_tools(["ptc.examples.tools:analysis_tools", "ptc.examples.tools:search_products"])
