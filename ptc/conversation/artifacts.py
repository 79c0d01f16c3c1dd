"""Big tool results: saved in full to a file, a preview plus the path in the context.

    artifacts = ArtifactStore.for_session(store, session_id)   # $PTC_HOME/artifacts/<session>/
    text, path = artifacts.externalize(call_id, result, threshold_chars=4000)
    # text: the first characters of the result, then a note naming the file and how to read it
    read = read_artifact_tool(artifacts)     # (tool/read-artifact {:path ... :offset 0 :limit 4000})

Where: ``ArtifactStore.for_session`` puts a session's files in ``artifacts/<session id>/``
next to the store's SQLite file (``$PTC_HOME/artifacts/...`` for the default store); for an
in-memory or PostgreSQL store, under the ptc data directory (``ptc.store.paths.data_dir()``).

The context refers to a file by an alias, ``artifacts/<file name>``, never by an absolute
path. ``read-artifact`` resolves it inside the session's directory and refuses anything that
would leave it (``..``, absolute paths elsewhere, symbolic links pointing out).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

ALIAS = "artifacts/"
DEFAULT_THRESHOLD = 4000  # characters of a tool result above which it goes to a file
PREVIEW_CHARS = 600
DEFAULT_READ = 4000  # characters read-artifact returns by default
MAX_READ = 20_000

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class ArtifactError(ValueError):
    """An artifact path that is not allowed or does not exist."""


def as_text(result: Any) -> str:
    """A tool result as the text saved to a file: strings as they are, anything else as JSON."""
    if isinstance(result, str):
        return result
    try:
        return json.dumps(result, ensure_ascii=False, default=repr)
    except (TypeError, ValueError):
        return repr(result)


def safe_name(text: str) -> str:
    name = _UNSAFE.sub("_", text).strip("._") or "result"
    return name[:120]


class ArtifactStore:
    """The files of one session's big tool results, under `root`."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root).expanduser().absolute()

    @classmethod
    def default_root(cls, store: Any = None) -> Path:
        """``<dir of the SQLite file>/artifacts``, else ``<ptc data dir>/artifacts``."""
        from ..store import paths

        url = getattr(store, "url", None)
        db = paths.sqlite_file(url) if isinstance(url, str) else None
        base = db.parent if db is not None else paths.data_dir()
        return base / "artifacts"

    @classmethod
    def for_session(cls, store: Any, session_id: str, root: str | os.PathLike[str] | None = None) -> "ArtifactStore":
        base = Path(root) if root is not None else cls.default_root(store)
        return cls(base / safe_name(session_id))

    def __repr__(self) -> str:
        return f"ArtifactStore({str(self.root)!r})"

    # -- writing --------------------------------------------------------------------------

    def save(self, name: str, text: str) -> str:
        """Write `text` to a file named after `name`; returns its alias (``artifacts/<file>``)."""
        self.root.mkdir(parents=True, exist_ok=True)
        base = safe_name(name)
        path = self.root / f"{base}.txt"
        n = 1
        while path.exists() and path.read_text(encoding="utf-8", errors="replace") != text:
            n += 1
            path = self.root / f"{base}-{n}.txt"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
        return ALIAS + path.name

    def externalize(self, tool_call_id: str, result: Any, threshold_chars: int = DEFAULT_THRESHOLD, *,
                    preview_chars: int = PREVIEW_CHARS, tool: str | None = None) -> tuple[str, str | None]:
        """(text for the context, alias of the file or None).

        A result whose text is at most `threshold_chars` long comes back whole (no file).
        A longer one is saved in full; the text is its first `preview_chars` characters and a
        note with the size, the alias and the call that reads more.
        """
        text = as_text(result)
        if len(text) <= threshold_chars:
            return text, None
        alias = self.save(tool_call_id, text)
        head = text[:preview_chars]
        note = (f"[{len(text)} characters{f' from {tool}' if tool else ''}; showing the first {len(head)}. "
                f"The full result is saved as {alias}: read it with "
                f'(tool/read-artifact {{:path "{alias}" :offset {len(head)} :limit {DEFAULT_READ}}})]')
        return f"{head}\n... {note}", alias

    # -- reading --------------------------------------------------------------------------

    def resolve(self, path: str) -> Path:
        """The file an alias (or a name, or an absolute path) designates, confined to the root."""
        if not isinstance(path, str) or not path.strip():
            raise ArtifactError("path must be a non-empty string such as \"artifacts/<name>.txt\"")
        if "\x00" in path:
            raise ArtifactError("path contains a NUL character")
        text = path.strip()
        rel = text[len(ALIAS):] if text.startswith(ALIAS) else text
        candidate = Path(rel)
        target = candidate if candidate.is_absolute() else self.root / candidate
        root = self.root.resolve()
        try:
            resolved = target.resolve()
        except (OSError, RuntimeError) as e:
            raise ArtifactError(f"cannot resolve {path!r}: {e}") from None
        if resolved != root and root not in resolved.parents:
            raise ArtifactError(f"{path!r} is outside the session's artifacts; give a path like \"artifacts/<name>\"")
        if not resolved.is_file():
            known = ", ".join(self.list()[:5]) or "none"
            raise ArtifactError(f"no artifact {path!r} (this session has: {known})")
        return resolved

    def read(self, path: str, offset: int = 0, limit: int = DEFAULT_READ) -> dict[str, Any]:
        """A slice of an artifact: {path, offset, text, total, next-offset (None at the end)}."""
        if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
            raise ArtifactError(f"offset must be a non-negative integer, got {offset!r}")
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_READ:
            raise ArtifactError(f"limit must be between 1 and {MAX_READ}, got {limit!r}")
        file = self.resolve(path)
        text = file.read_text(encoding="utf-8", errors="replace")
        chunk = text[offset:offset + limit]
        end = offset + len(chunk)
        return {"path": ALIAS + file.relative_to(self.root.resolve()).as_posix(), "offset": offset, "text": chunk,
                "total": len(text), "next-offset": end if end < len(text) else None}

    def list(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(ALIAS + p.name for p in self.root.iterdir() if p.is_file() and p.suffix == ".txt")


def read_artifact_tool(artifacts: ArtifactStore) -> Any:
    """The `read-artifact` tool bound to a session's artifacts."""
    from ..interpreter.errors import PTCError
    from ..tools import Tool

    def read_artifact(path: str, offset: int = 0, limit: int = DEFAULT_READ) -> dict:
        """Read part of a saved tool result (a big result is shown as a preview plus its path).

        Args:
            path: the alias shown in the preview, e.g. "artifacts/run-1-0.txt"
            offset: the character to start at (0 = the beginning)
            limit: how many characters to return (at most 20000)
        """
        try:
            return artifacts.read(path, offset, limit)
        except ArtifactError as e:
            raise PTCError("tool", f"read-artifact: {e}",
                           hint='pass the path shown in the preview: {:path "artifacts/<name>.txt"}') from None

    def summarize(args: Any, result: Any) -> str:
        if isinstance(result, dict):
            return (f"read-artifact({result.get('path')} @{result.get('offset')}) -> "
                    f"{len(result.get('text') or '')} of {result.get('total')} characters")
        return f"read-artifact({args}) -> {result}"

    return Tool(read_artifact, name="read-artifact", summarize=summarize)


__all__ = ["ArtifactStore", "ArtifactError", "read_artifact_tool", "as_text", "ALIAS", "DEFAULT_THRESHOLD",
           "PREVIEW_CHARS"]
