"""Big tool results: saved to a file, a preview plus an alias in the context, read on demand."""

from __future__ import annotations

import json
import os

import pytest

import ptc
from ptc.conversation.artifacts import ArtifactError, ArtifactStore, read_artifact_tool
from ptc.store import Store


@pytest.fixture
def artifacts(tmp_path):
    return ArtifactStore(tmp_path / "artifacts" / "s1")


def test_small_results_stay_inline(artifacts):
    text, path = artifacts.externalize("run-1-0", {"a": 1}, threshold_chars=100)
    assert (text, path) == ('{"a": 1}', None)
    assert artifacts.list() == [] and not artifacts.root.exists()


def test_big_results_go_to_a_file_with_a_preview(artifacts):
    rows = [{"id": i, "text": "x" * 40} for i in range(200)]
    text, alias = artifacts.externalize("run-1-0", rows, threshold_chars=1000, preview_chars=300, tool="search")
    full = json.dumps(rows, ensure_ascii=False)
    assert alias == "artifacts/run-1-0.txt"
    assert (artifacts.root / "run-1-0.txt").read_text(encoding="utf-8") == full
    assert text.startswith(full[:300])
    assert f"[{len(full)} characters from search; showing the first 300." in text
    assert f'(tool/read-artifact {{:path "{alias}" :offset 300 :limit 4000}})' in text
    assert len(text) < 700
    assert artifacts.list() == [alias]


def test_reading_slices(artifacts):
    alias = artifacts.save("call", "0123456789" * 10)
    part = artifacts.read(alias, 95, 10)
    assert part == {"path": alias, "offset": 95, "text": "56789", "total": 100, "next-offset": None}
    assert artifacts.read(alias, 0, 10)["next-offset"] == 10
    assert artifacts.read("call.txt")["total"] == 100  # the bare name works too
    assert artifacts.read(str(artifacts.root / "call.txt"))["total"] == 100  # and the absolute path inside


def test_a_name_is_reused_only_for_the_same_text(artifacts):
    a = artifacts.save("c", "one")
    assert artifacts.save("c", "one") == a
    assert artifacts.save("c", "two") == "artifacts/c-2.txt"
    assert artifacts.save("../../etc/passwd", "x") == "artifacts/etc_passwd.txt"  # names are sanitized


@pytest.mark.parametrize("path", [
    "../s2/secret.txt", "artifacts/../../outside.txt", "/etc/passwd", "artifacts/../s2/secret.txt", "",
    "a\x00b", "sub/../../s2/secret.txt",
])
def test_paths_outside_the_directory_are_refused(artifacts, path):
    artifacts.save("mine", "ok")
    other = artifacts.root.parent / "s2"
    other.mkdir(parents=True)
    (other / "secret.txt").write_text("secret")
    (artifacts.root.parent / "outside.txt").write_text("secret")
    with pytest.raises(ArtifactError):
        artifacts.read(path)


def test_symlinks_pointing_out_are_refused(artifacts, tmp_path):
    artifacts.save("mine", "ok")
    (tmp_path / "secret.txt").write_text("secret")
    os.symlink(tmp_path / "secret.txt", artifacts.root / "link.txt")
    with pytest.raises(ArtifactError, match="outside"):
        artifacts.read("artifacts/link.txt")


def test_bad_offsets_and_limits(artifacts):
    alias = artifacts.save("c", "text")
    for offset, limit in [(-1, 10), (0, 0), (0, 10**6), ("0", 10)]:
        with pytest.raises(ArtifactError):
            artifacts.read(alias, offset, limit)  # type: ignore[arg-type]
    with pytest.raises(ArtifactError, match="no artifact"):
        artifacts.read("artifacts/missing.txt")


def test_the_read_artifact_tool_in_a_program(artifacts):
    alias = artifacts.save("run-1-0", "abcdefghij" * 50)
    tool = read_artifact_tool(artifacts)
    result = ptc.run(f'(let [r (tool/read-artifact {{:path "{alias}" :offset 10 :limit 5}})] [(:text r) (:total r)])',
                     tools={"read-artifact": tool})
    assert ptc.to_python(result.value) == ["abcde", 500]
    with pytest.raises(ptc.PTCError) as info:
        ptc.run('(tool/read-artifact {:path "../../etc/passwd"})', tools={"read-artifact": tool})
    assert info.value.kind == "tool" and "outside" in info.value.message and info.value.hint
    assert tool.summarize({"path": alias}, {"path": alias, "offset": 0, "text": "abc", "total": 500}) == \
        f"read-artifact({alias} @0) -> 3 of 500 characters"


def test_default_root_follows_the_store(tmp_path, monkeypatch):
    monkeypatch.setenv("PTC_HOME", str(tmp_path / "home"))
    file_store = Store(tmp_path / "db" / "chat.db")
    try:
        a = ArtifactStore.for_session(file_store, "abc")
        assert a.root == (tmp_path / "db" / "artifacts" / "abc").absolute()
    finally:
        file_store.close()
    memory = Store(":memory:")
    try:
        assert ArtifactStore.for_session(memory, "abc").root == (tmp_path / "home" / "artifacts" / "abc").absolute()
    finally:
        memory.close()
