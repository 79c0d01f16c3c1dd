"""ptc demo, ptc agent and ptc trace show through click's runner."""

import json

from click.testing import CliRunner

from ptc.cli.main import main


def test_demo_replays_offline_and_is_correct() -> None:
    for scenario in ("data-analysis", "acting", "recovering"):
        result = CliRunner().invoke(main, ["demo", scenario])
        assert result.exit_code == 0, result.output
        assert "answer: correct" in result.output and "turn 1" in result.output


def test_demo_compression_needs_a_model() -> None:
    result = CliRunner().invoke(main, ["demo", "--compression"])
    assert result.exit_code != 0 and "needs --model" in result.output


def test_agent_with_replay_and_trace(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from ptc.llm.cassette import RecordingLLM
    from ptc.llm.scripted import ScriptedLLM
    import ptc

    cassette = tmp_path / "c.jsonl"
    data = tmp_path / "d.json"
    data.write_text(json.dumps({"xs": [1, 2, 3]}))
    mission = "Sum xs"
    replies = ["```clojure\n(println (count data/xs))\n```", "```clojure\n(return (reduce + data/xs))\n```"]
    ptc.Agent(mission, data={"xs": [1, 2, 3]}, llm=RecordingLLM(ScriptedLLM(replies), cassette)).run()
    trace = tmp_path / "t.jsonl"
    result = CliRunner().invoke(main, ["agent", mission, "--data", str(data), "--replay", str(cassette),
                                       "--trace", str(trace)])
    assert result.exit_code == 0, result.output
    assert "ok after 2 turn(s): 6" in result.output
    shown = CliRunner().invoke(main, ["trace", "show", str(trace)])
    assert shown.exit_code == 0 and "turn 2" in shown.output and "(reduce + data/xs)" in shown.output
    compressed = CliRunner().invoke(main, ["trace", "show", str(trace), "--view", "compressed"])
    assert compressed.exit_code == 0 and "; Output:\n3" in compressed.output and "Turns left" in compressed.output
    full = CliRunner().invoke(main, ["trace", "show", str(trace), "--view", "full"])
    assert full.exit_code == 0 and full.output.count("ASSISTANT") == 2


def test_agent_tools_option_loads_a_factory(tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = CliRunner().invoke(main, ["agent", "x", "--tools", "ptc.examples.tools:nope"])
    assert result.exit_code != 0 and "cannot load" in result.output


def test_agent_compression_and_prompt_options_reach_the_agent(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A cassette recorded with append-only summaries and the compact prompt replays only when
    the command sends exactly those prompts."""
    from ptc.llm.cassette import RecordingLLM
    from ptc.llm.scripted import ScriptedLLM
    import ptc

    cassette, data = tmp_path / "c.jsonl", tmp_path / "d.json"
    data.write_text(json.dumps({"xs": [1, 2, 3]}))
    replies = ["```clojure\n(println (count data/xs))\n```", "```clojure\n(return (reduce + data/xs))\n```"]
    ptc.Agent("Sum xs", data={"xs": [1, 2, 3]}, compression="append", prompt="compact",
              llm=RecordingLLM(ScriptedLLM(replies), cassette)).run()
    base = ["agent", "Sum xs", "--data", str(data), "--replay", str(cassette)]
    assert CliRunner().invoke(main, [*base, "--compression", "append", "--prompt", "compact"]).exit_code == 0
    assert CliRunner().invoke(main, [*base, "--compression", "--prompt", "compact"]).exit_code != 0  # coalesced
    assert CliRunner().invoke(main, [*base, "--compression", "append"]).exit_code != 0  # default prompt


def test_agent_without_a_providers_key_says_which_variable_to_set(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Checked before litellm loads (it failed after 8 s with litellm's own messages)."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    for args, var in ((["agent", "What is 1+1?"], "OPENAI_API_KEY"),
                      (["agent", "x", "--model", "anthropic/claude-sonnet-4-5"], "ANTHROPIC_API_KEY")):
        out = CliRunner().invoke(main, args)
        assert out.exit_code == 1 and var in out.output and "--api-base" in out.output, out.output
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    from ptc.llm.litellm_client import missing_key

    assert missing_key("openai/gpt-4o-mini") is None
    assert missing_key("ollama_chat/llama3.1") is None and missing_key("openai/x", api_base="http://localhost:1") is None
