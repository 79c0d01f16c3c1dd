"""The message forest: compaction nodes over a session's log, and its three renderings.

A session's log (``ptc.store``) is flat: messages by seq. The forest groups them under
*compaction nodes* (stored with ``Store.add_compaction_node``):

- ``tool_execution``: one tool call and its result. Children: the assistant message that
  made the call and the tool message answering it. Its summary is the tool's
  ``summarize(args, result)`` line when the tool is known (``search({:q "x"}) -> list[12]``),
  a generic one-liner otherwise.
- ``tool_loop``: two or more consecutive executions (the calls of one program, or
  back-to-back tool-calling exchanges). Children: the execution nodes. A pure grouping; its
  summary is the children's lines.
- ``broad``: a summary written when messages were compressed. Children: the items it stands
  for (messages, or the nodes grouping them), in seq order, followed by the summary
  message(s) the compression appended (priority 1). The *last* message child is the primary
  summary message; a compression split over several seq ranges has one stub summary
  message per earlier range before it.

Three renderings, each a pure function of the messages (``Store.full``: every status) and
the nodes:

- ``context(...)``: what the model sees. Active messages only (compressed, rolled-back and
  invalid ones are left out); every tool exchange collapses to its node's summary lines;
  a summary stands where the range it replaced stood. Entries carry the seqs they stand for,
  which is how ``numbering`` and ``history_tools`` address them.
- ``display(...)``: what people see. The same entries, without numbers; tool loops show their
  child summaries collapsed, a summary says how many messages it hides.
- ``full(...)``: everything, for debugging: every message whatever its status, by seq, with
  the nodes it belongs to opened as headers above it.

Nothing here needs persisted nodes: an exchange without nodes is summarised on the fly
(generic one-liners), so rendering a log written by a plain ``Recorder`` works. ``build_nodes``
persists the nodes a log is missing (idempotent).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from ..store.messages import CompactionNode, Message
from ..store.schema import ACTIVE, COMPRESSED, INVALID, STATUS_NAMES

TOOL_EXECUTION, TOOL_LOOP, BROAD = "tool_execution", "tool_loop", "broad"
APPLIED = 0  # compression record status

STUB_SUMMARY = "(compressed together with the entries of the summary that follows)"


# -- reading tool exchanges out of the log ----------------------------------------------------


@dataclass(frozen=True)
class Execution:
    """One tool call found in the log, with its result message (if any)."""

    call_id: str
    name: str
    args: Any
    call_message: Message | None
    result_message: Message | None
    result: Any = None
    error: str | None = None
    artifact: str | None = None  # the file holding the full result, when it was externalized
    size: int | None = None  # characters of the full result, when externalized
    summary: str | None = None  # recorded with the result (block data "summary"), if any

    @property
    def message_ids(self) -> tuple[int, ...]:
        return tuple(m.id for m in (self.call_message, self.result_message) if m is not None)


def is_exchange(message: Message) -> bool:
    """A tool-calling assistant message or a tool result."""
    return message.role == "tool" or (message.role == "assistant" and bool(message.tool_calls))


def _parse_json(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return text


def _result_block(message: Message) -> tuple[str | None, dict[str, Any]]:
    for block in message.blocks:
        if block.type == "tool_result":
            return block.content, dict(block.data or {})
    return message.content, {}


def _calls_of(message: Message) -> list[tuple[str, str, Any]]:
    out = []
    for call in message.tool_calls or ():
        fn = call.get("function") or {}
        out.append((str(call.get("id")), str(fn.get("name") or call.get("name") or "?"),
                    _parse_json(fn.get("arguments"))))
    return out


def executions(messages: Sequence[Message]) -> list[Execution]:
    """Every tool call in the log (invalid messages left out), in call order."""
    live = [m for m in messages if m.status != INVALID]
    results = {m.tool_call_id: m for m in live if m.role == "tool" and m.tool_call_id}
    out: list[Execution] = []
    seen: set[str] = set()
    for m in live:
        if m.role == "assistant" and m.tool_calls:
            for call_id, name, args in _calls_of(m):
                seen.add(call_id)
                out.append(_execution(call_id, name, args, m, results.get(call_id)))
        elif m.role == "tool" and m.tool_call_id and m.tool_call_id not in seen:  # an orphan result
            seen.add(m.tool_call_id)
            _content, data = _result_block(m)
            out.append(_execution(m.tool_call_id, str(data.get("name") or "?"), None, None, m))
    return out


def _execution(call_id: str, name: str, args: Any, call: Message | None, result: Message | None) -> Execution:
    if result is None:
        return Execution(call_id, name, args, call, None)
    content, data = _result_block(result)
    error = data.get("error")
    if error is None and isinstance(content, str) and content.startswith("error: ") and not data.get("artifact"):
        error = content[len("error: "):]
    value = None if error else (content if data.get("artifact") else _parse_json(content))
    return Execution(call_id, str(data.get("name") or name), args, call, result, result=value,
                     error=str(error) if error else None, artifact=data.get("artifact"),
                     size=data.get("size"), summary=data.get("summary"))


def summarize_execution(execution: Execution, tools: Mapping[str, Any] | None = None) -> str:
    """The one-line record of a call: the tool's `summarize()` when the tool is known."""
    from ..tools.summarize import default_summary, format_args, one_line

    if execution.summary:
        saved = f" (full result saved as {execution.artifact})" if execution.artifact else ""
        return one_line(execution.summary + saved)
    name = execution.name
    if execution.result_message is None:
        return one_line(f"{name}({format_args(execution.args)}) -> (no result)")
    if execution.error:
        first = execution.error.strip().splitlines()[0] if execution.error.strip() else "failed"
        return one_line(f"{name}({format_args(execution.args)}) -> error: {first}")
    if execution.artifact:
        return one_line(f"{name}({format_args(execution.args)}) -> {execution.size or '?'} characters, "
                        f"saved to {execution.artifact}")
    tool = (tools or {}).get(name)
    summarize = getattr(tool, "summarize", None)
    if callable(summarize):
        try:
            return one_line(str(summarize(execution.args, execution.result)))
        except Exception:  # noqa: BLE001 - a broken summarizer falls back to the generic line
            pass
    return default_summary(name, execution.args, execution.result)


def summarize_call(name: str, args: Any, result: Any, error: str | None = None,
                   tools: Mapping[str, Any] | None = None) -> str:
    """`summarize_execution` for a call known by its parts (used when recording)."""
    fake = Message(id=0, session_id="", seq=0, role="tool", content=None)
    return summarize_execution(Execution("", name, args, None, fake, result=result, error=error), tools)


# -- the node index -----------------------------------------------------------------------------


class _Nodes:
    """Compaction nodes indexed for rendering: by id, parents, flattened messages."""

    def __init__(self, nodes: Iterable[CompactionNode]) -> None:
        self.by_id: dict[int, CompactionNode] = {n.id: n for n in nodes}
        self.execution_of: dict[int, CompactionNode] = {}  # tool message id -> execution node
        self.loop_of: dict[int, CompactionNode] = {}  # execution node id -> loop node
        self.broad_of: dict[int, CompactionNode] = {}  # summary message id -> broad node (direct child)
        for n in self.by_id.values():
            if n.type == TOOL_EXECUTION:
                for ref in n.children:
                    if "message" in ref:
                        self.execution_of.setdefault(ref["message"], n)
            elif n.type == TOOL_LOOP:
                for ref in n.children:
                    if "node" in ref:
                        self.loop_of.setdefault(ref["node"], n)

    def index_broad(self, messages: Mapping[int, Message]) -> None:
        for n in self.by_id.values():
            if n.type != BROAD:
                continue
            for mid in summary_message_ids(n, messages):
                self.broad_of.setdefault(mid, n)

    def flatten(self, node: CompactionNode, _seen: set[int] | None = None) -> list[int]:
        """Every message id under a node (depth first, children order)."""
        seen = _seen if _seen is not None else set()
        if node.id in seen:
            return []
        seen.add(node.id)
        out: list[int] = []
        for ref in node.children:
            if "message" in ref:
                out.append(ref["message"])
            elif ref.get("node") in self.by_id:
                out.extend(self.flatten(self.by_id[ref["node"]], seen))
        return out


def summary_message_ids(node: CompactionNode, messages: Mapping[int, Message]) -> list[int]:
    """The summary messages of a broad node: its trailing direct message children of priority 1."""
    out: list[int] = []
    for ref in reversed(node.children):
        mid = ref.get("message")
        m = messages.get(mid) if mid is not None else None
        if m is None or m.priority != 1:
            break
        out.append(m.id)
    out.reverse()
    return out


# -- renderings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One item of a rendering.

    kind: "message", "tool_execution" / "tool_loop" (a tool exchange), "summary" (a broad
    node or a summary message), or "node" (a node header, full view only).
    `seqs`: the active messages the entry stands for (what compressing it compresses).
    `number`: its stable number: a message's seq, an exchange's first seq, a summary's
    (primary) summary-message seq. `anchor`: where it sorts.
    """

    kind: str
    role: str
    text: str
    seqs: tuple[int, ...]
    number: int
    anchor: int
    message: Message | None = None
    node: CompactionNode | None = None
    children: tuple[str, ...] = ()
    hidden: int = 0
    status: str = "active"
    depth: int = 0
    error: bool = False

    @property
    def first_seq(self) -> int:
        return min(self.seqs) if self.seqs else self.number

    @property
    def last_seq(self) -> int:
        return max(self.seqs) if self.seqs else self.number

    def to_openai(self) -> dict[str, Any]:
        return {"role": self.role, "content": self.text}


EXCHANGE_HEADER = "Tool calls:"
SUMMARY_HEADER = "Summary of earlier messages:"


def _is_llm_error(m: Message) -> bool:
    return any(b.type == "llm_error" for b in m.blocks)


def _atoms(messages: Sequence[Message], index: _Nodes, by_id: Mapping[int, Message]) -> list[Any]:
    """Active messages and summaries in reading order: ("msg", m) / ("summary", node|None, [msgs])."""
    active = [m for m in messages if m.status == ACTIVE]
    atoms: list[tuple[int, int, Any]] = []
    grouped: dict[int, list[Message]] = {}
    for m in active:
        if m.priority == 1:
            node = index.broad_of.get(m.id)
            if node is not None:
                grouped.setdefault(node.id, []).append(m)
                continue
            atoms.append((m.seq, m.seq, ("summary", None, [m])))
        else:
            atoms.append((m.seq, m.seq, ("msg", m)))
    for node_id, msgs in grouped.items():
        node = index.by_id[node_id]
        own = set(summary_message_ids(node, by_id))
        covered = [by_id[i].seq for i in index.flatten(node) if i in by_id and i not in own]
        primary = max(m.seq for m in msgs)
        anchor = min(covered) if covered else primary
        atoms.append((anchor, primary, ("summary", node, sorted(msgs, key=lambda x: x.seq))))
    atoms.sort(key=lambda a: (a[0], a[1]))
    return [a[2] for a in atoms]


def _entries(messages: Sequence[Message], nodes: Iterable[CompactionNode], tools: Mapping[str, Any] | None,
             *, for_model: bool) -> list[Entry]:
    by_id = {m.id: m for m in messages}
    index = _Nodes(nodes)
    index.index_broad(by_id)
    by_call = {e.call_id: e for e in executions(messages)}
    out: list[Entry] = []
    run: list[Message] = []

    def flush() -> None:
        if run:
            out.append(_exchange_entry(run, index, by_call, tools, for_model=for_model))
            run.clear()

    for atom in _atoms(messages, index, by_id):
        if atom[0] == "msg" and is_exchange(atom[1]):
            run.append(atom[1])
            continue
        flush()
        if atom[0] == "msg":
            m = atom[1]
            out.append(Entry("message", m.role, m.content or "", (m.seq,), m.seq, m.seq, message=m,
                             error=_is_llm_error(m)))
        else:
            _, node, msgs = atom
            out.append(_summary_entry(node, msgs, index, by_id, for_model=for_model))
    flush()
    return out


def _exchange_entry(run: Sequence[Message], index: _Nodes, by_call: Mapping[str, Execution],
                    tools: Mapping[str, Any] | None, *, for_model: bool) -> Entry:
    lines: list[str] = []
    texts: list[str] = []
    node_ids: list[int] = []
    for m in run:
        if m.role == "assistant":
            if m.content:
                texts.append(m.content)
            for call_id, name, args in _calls_of(m):
                e = by_call.get(call_id) or Execution(call_id, name, args, m, None)
                node = index.execution_of.get(e.result_message.id) if e.result_message is not None else None
                if node is not None:
                    node_ids.append(node.id)
                lines.append(node.summary if node is not None else summarize_execution(e, tools))
        elif m.tool_call_id not in by_call or by_call[m.tool_call_id].call_message is None:  # an orphan result
            e = by_call.get(m.tool_call_id or "") or _execution(m.tool_call_id or "?", "?", None, None, m)
            node = index.execution_of.get(m.id)
            lines.append(node.summary if node is not None else summarize_execution(e, tools))
    loops = {index.loop_of[i].id: index.loop_of[i] for i in node_ids if i in index.loop_of}
    node = next(iter(loops.values())) if len(loops) == 1 else (
        index.by_id[node_ids[0]] if len(node_ids) == 1 and len(lines) == 1 else None)
    kind = TOOL_LOOP if len(lines) >= 2 else TOOL_EXECUTION
    seqs = tuple(m.seq for m in run)
    if for_model:
        body = "\n".join(f"- {line}" for line in lines) if len(lines) != 1 else lines[0]
        head = EXCHANGE_HEADER if len(lines) != 1 else "Tool call:"
        text = "\n\n".join([*texts, f"{head}\n{body}" if len(lines) != 1 else f"{head} {body}"])
    else:
        text = "\n\n".join([*texts, f"Tool loop ({len(lines)} tools)" if len(lines) >= 2 else
                            f"Tool call: {lines[0] if lines else '?'}"])
    return Entry(kind, "user" if for_model else "tool", text, seqs, seqs[0], seqs[0], node=node,
                 children=tuple(lines) if len(lines) >= 2 else ())


def _summary_entry(node: CompactionNode | None, msgs: Sequence[Message], index: _Nodes,
                   by_id: Mapping[int, Message], *, for_model: bool) -> Entry:
    primary = msgs[-1]
    if node is not None:
        text = node.summary or primary.content or ""
        own = set(summary_message_ids(node, by_id))
        hidden = len([i for i in index.flatten(node) if i not in own and i in by_id
                      and by_id[i].status != INVALID and by_id[i].priority == 0])
        covered = [by_id[i].seq for i in index.flatten(node) if i in by_id and i not in own]
        anchor = min(covered) if covered else primary.seq
    else:
        text, hidden, anchor = primary.content or "", 0, primary.seq
    seqs = tuple(m.seq for m in msgs)
    if for_model:
        labelled = text if text.lstrip().upper().startswith(("CONVERSATION_SUMMARY", "SUMMARY")) \
            else f"{SUMMARY_HEADER} {text}"
        return Entry("summary", "user", labelled, seqs, primary.seq, anchor, message=primary, node=node,
                     hidden=hidden)
    return Entry("summary", "summary", text, seqs, primary.seq, anchor, message=primary, node=node, hidden=hidden)


def context(messages: Sequence[Message], nodes: Iterable[CompactionNode] = (), *,
            tools: Mapping[str, Any] | None = None) -> list[Entry]:
    """What the model sees (no system prompt, no numbers: see `numbering`).

    Active messages in reading order; each tool exchange is one entry (role user) holding the
    summary lines of its calls; a summary (role user, "Summary of earlier messages: ...")
    stands where the range it replaced stood. `Entry.to_openai()` gives the chat form.
    """
    return _entries(messages, nodes, tools, for_model=True)


def context_messages(messages: Sequence[Message], nodes: Iterable[CompactionNode] = (), *,
                     tools: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """`context` as OpenAI chat messages."""
    return [e.to_openai() for e in context(messages, nodes, tools=tools)]


def display(messages: Sequence[Message], nodes: Iterable[CompactionNode] = (), *,
            tools: Mapping[str, Any] | None = None) -> list[Entry]:
    """What people see: the context's entries with their own wording and no numbers.

    A tool exchange is "Tool loop (N tools)" with the calls' lines as collapsed `children`
    (one call: "Tool call: <line>"); a summary carries `hidden`, how many messages it stands
    for. Roles: user, assistant, system, tool (an exchange), summary.
    """
    return _entries(messages, nodes, tools, for_model=False)


def full(messages: Sequence[Message], nodes: Iterable[CompactionNode] = (), *,
         tools: Mapping[str, Any] | None = None) -> list[Entry]:
    """Everything: every message (all statuses) by seq, each node opened as a header entry
    (kind "node", role = the node type) just before its first message; `depth` nests."""
    by_id = {m.id: m for m in messages}
    index = _Nodes(nodes)
    index.index_broad(by_id)
    parents: dict[tuple[str, int], list[int]] = {}
    for n in index.by_id.values():
        for ref in n.children:
            for kind, ident in ref.items():
                parents.setdefault((kind, int(ident)), []).append(n.id)

    def chain(kind: str, ident: int, seen: frozenset[int] = frozenset()) -> list[int]:
        ups = [p for p in parents.get((kind, ident), []) if p not in seen]
        if not ups:
            return []
        p = min(ups)  # the oldest parent (an assistant message with several calls: the first)
        return chain("node", p, seen | {p}) + [p]

    out: list[Entry] = []
    opened: set[int] = set()
    for m in sorted(messages, key=lambda x: x.seq):
        path = chain("message", m.id)
        for depth, nid in enumerate(path):
            if nid in opened:
                continue
            opened.add(nid)
            n = index.by_id[nid]
            label = n.summary if n.type != TOOL_LOOP else f"{len(n.children)} tools"
            out.append(Entry("node", n.type, label, (), m.seq, m.seq, node=n, depth=depth,
                             children=tuple(index.by_id[r["node"]].summary for r in n.children
                                            if r.get("node") in index.by_id)))
        text = m.content or ""
        if m.role == "assistant" and m.tool_calls:
            lines = []
            for call_id, name, args in _calls_of(m):
                lines.append(f"call {name} {json.dumps(args, ensure_ascii=False, default=repr)}  [{call_id}]")
            text = "\n".join(filter(None, [text, *lines]))
        out.append(Entry("message", m.role, text, (m.seq,), m.seq, m.seq, message=m,
                         status=STATUS_NAMES.get(m.status, str(m.status)), depth=len(path),
                         error=_is_llm_error(m)))
    return out


def render_text(entries: Sequence[Entry], *, width: int = 100) -> str:
    """A plain-text rendering of display or full entries (one block per entry)."""
    lines: list[str] = []
    for e in entries:
        pad = "  " * e.depth
        where = f"{e.first_seq}" if e.first_seq == e.last_seq else f"{e.first_seq}-{e.last_seq}"
        if e.kind == "node":
            lines.append(f"{pad}+ {e.role} #{e.node.id if e.node else '?'}: {_clip(e.text, width)}")
            continue
        status = "" if e.status == "active" else f" ({e.status})"
        if e.kind == "summary":
            head = f"{pad}#{where} summary of {e.hidden} message{'s' if e.hidden != 1 else ''}{status}:"
        else:
            head = f"{pad}#{where} {e.role}{status}:"
        body = e.text if e.kind != "message" or len(e.text) <= 4 * width else e.text[: 4 * width] + " ..."
        lines.append(head + (" " + body if "\n" not in body and len(head) + len(body) < width else
                             "\n" + "\n".join(pad + "  " + line for line in body.splitlines())))
        for child in e.children:
            lines.append(f"{pad}  | {_clip(child, width)}")
    return "\n".join(lines)


def _clip(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 3] + "..."


# -- building and persisting nodes --------------------------------------------------------------


@dataclass
class NodeSpec:
    """A node to create; children refer to messages, existing nodes, or earlier specs
    (("spec", index) into the same plan)."""

    type: str
    summary: str
    display_hint: str | None
    children: list[tuple[str, int]] = field(default_factory=list)


def plan_nodes(messages: Sequence[Message], nodes: Iterable[CompactionNode] = (), *,
               tools: Mapping[str, Any] | None = None, close_tail: bool = True) -> list[NodeSpec]:
    """The tool_execution and tool_loop nodes a log is missing (a pure function).

    One execution node per call that has a result; one loop node per run of two or more
    consecutive executions, once the run is over (a message other than a tool exchange
    follows it, or `close_tail`).
    """
    existing = list(nodes)
    index = _Nodes(existing)
    known_loops = {frozenset(r["node"] for r in n.children if "node" in r) for n in existing if n.type == TOOL_LOOP}
    specs: list[NodeSpec] = []
    live = sorted((m for m in messages if m.status != INVALID), key=lambda m: m.seq)
    by_call = {e.call_id: e for e in executions(messages)}
    runs: list[list[Message]] = []
    current: list[Message] = []
    for m in live:
        if is_exchange(m):
            current.append(m)
        else:
            if current:
                runs.append(current)
            current = []
    closed = len(runs)
    if current:
        runs.append(current)
    for i, run in enumerate(runs):
        refs: list[tuple[str, int]] = []
        for m in run:
            if m.role != "tool":
                continue
            e = by_call.get(m.tool_call_id or "")
            if e is None:
                continue
            node = index.execution_of.get(m.id)
            if node is not None:
                refs.append(("node", node.id))
                continue
            line = summarize_execution(e, tools)
            hint = f"{e.name} failed" if e.error else e.name
            specs.append(NodeSpec(TOOL_EXECUTION, line, hint, [("message", i) for i in e.message_ids]))
            refs.append(("spec", len(specs) - 1))
        done = i < closed or close_tail
        if len(refs) >= 2 and done:
            if all(k == "node" for k, _ in refs) and frozenset(x for _, x in refs) in known_loops:
                continue
            if any(k == "node" and x in index.loop_of for k, x in refs):
                continue  # (part of) this run is grouped already
            lines = [index.by_id[x].summary if k == "node" else specs[x].summary for k, x in refs]
            specs.append(NodeSpec(TOOL_LOOP, "\n".join(lines), f"Tool loop ({len(refs)} tools)", refs))
    return specs


def persist(store: Any, session_id: str, specs: Sequence[NodeSpec]) -> list[CompactionNode]:
    """Create planned nodes in order (children referring to earlier specs get their ids)."""
    made: list[CompactionNode] = []
    for spec in specs:
        children = [("node", made[x].id) if k == "spec" else (k, x) for k, x in spec.children]
        made.append(store.add_compaction_node(session_id, spec.type, spec.summary, children,
                                              display_hint=spec.display_hint))
    return made


def broad_children(messages: Sequence[Message], nodes: Iterable[CompactionNode],
                   ranges: Iterable[tuple[int, int]], summary_ids: Sequence[int]) -> list[tuple[str, int]]:
    """The children of a broad node over seq ranges: the covered messages (a message grouped by
    a tool node or an earlier broad node is replaced by that node's topmost ancestor), in seq
    order, then the summary messages."""
    by_id = {m.id: m for m in messages}
    index = _Nodes(nodes)
    index.index_broad(by_id)
    parent: dict[tuple[str, int], int] = {}
    for n in index.by_id.values():
        for ref in n.children:
            for kind, ident in ref.items():
                parent.setdefault((kind, int(ident)), n.id)
    for mid, n in index.broad_of.items():  # a summary message belongs to its broad node first
        parent[("message", mid)] = n.id
    summary_set = set(summary_ids)
    out: list[tuple[str, int]] = []
    seen: set[tuple[str, int]] = set()
    spans = list(ranges)
    for m in sorted(messages, key=lambda x: x.seq):
        if m.id in summary_set or m.status == INVALID:
            continue
        if not any(a <= m.seq <= b for a, b in spans):
            continue
        ref: tuple[str, int] = ("message", m.id)
        hops = 0
        while ref in parent and hops < 64:
            ref = ("node", parent[ref])
            hops += 1
        if ref not in seen:
            seen.add(ref)
            out.append(ref)
    out.extend(("message", i) for i in summary_ids)
    return out


def add_broad_node(store: Any, session_id: str, summary: str, records: Sequence[Any]) -> CompactionNode:
    """A broad node for one logical compression (one or more applied compression records,
    in the order they were made: the last one's summary message is the primary)."""
    messages = list(store.full(session_id).items)
    nodes = store.compaction_nodes(session_id)
    children = broad_children(messages, nodes, [(r.start_seq, r.end_seq) for r in records],
                              [r.summary_message_id for r in records])
    hidden = len([c for c in children if c[0] == "message"]) - len(records)
    return store.add_compaction_node(session_id, BROAD, summary, children,
                                     display_hint=f"summary of {max(hidden, 0)} messages")


def build_nodes(store: Any, session_id: str, tools: Mapping[str, Any] | None = None, *,
                close_tail: bool = True) -> list[CompactionNode]:
    """Persist the nodes a session is missing; returns the new ones (idempotent).

    Tool execution and loop nodes (see `plan_nodes`), then one broad node per applied
    compression record whose summary message no broad node holds yet.
    """
    messages = list(store.full(session_id).items)
    nodes = store.compaction_nodes(session_id)
    made = persist(store, session_id, plan_nodes(messages, nodes, tools=tools, close_tail=close_tail))
    by_id = {m.id: m for m in messages}
    held = {mid for n in [*nodes, *made] if n.type == BROAD for mid in summary_message_ids(n, by_id)}
    for record in store.compression_records(session_id):
        if record.status != APPLIED or record.summary_message_id is None or record.summary_message_id in held:
            continue
        summary = by_id.get(record.summary_message_id)
        made.append(add_broad_node(store, session_id, summary.content if summary is not None else "", [record]))
        held.add(record.summary_message_id)
    return made


class Forest:
    """A session's messages and nodes, loaded once, with the three renderings."""

    def __init__(self, messages: Sequence[Message], nodes: Sequence[CompactionNode] = (), *,
                 tools: Mapping[str, Any] | None = None) -> None:
        self.messages = list(messages)
        self.nodes = list(nodes)
        self.tools = tools

    @classmethod
    def load(cls, store: Any, session_id: str, *, tools: Mapping[str, Any] | None = None) -> "Forest":
        return cls(list(store.full(session_id).items), store.compaction_nodes(session_id), tools=tools)

    def context(self) -> list[Entry]:
        return context(self.messages, self.nodes, tools=self.tools)

    def display(self) -> list[Entry]:
        return display(self.messages, self.nodes, tools=self.tools)

    def full(self) -> list[Entry]:
        return full(self.messages, self.nodes, tools=self.tools)

    def render(self, kind: str) -> list[Entry]:
        if kind not in ("context", "display", "full"):
            raise ValueError(f"view must be context, display or full, not {kind!r}")
        return getattr(self, kind)()  # type: ignore[no-any-return]


__all__ = [
    "TOOL_EXECUTION", "TOOL_LOOP", "BROAD", "Execution", "Entry", "NodeSpec", "Forest", "executions",
    "is_exchange", "summarize_execution", "summarize_call", "summary_message_ids", "context", "context_messages",
    "display", "full", "render_text", "plan_nodes", "persist", "broad_children", "add_broad_node", "build_nodes",
    "COMPRESSED", "STUB_SUMMARY",
]
