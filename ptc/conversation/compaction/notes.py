"""Texts that stand for dropped messages: rule-based notes and transcripts for a summarizer."""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable, Sequence

from ..log import Message, SUMMARY_HEADER, call_names, is_feedback, is_summary, starts_round, text_of_message
from .fallbacks import tool_name

INSTRUCTION_WORDS = ("must", "should", "need", "needs", "always", "never", "don't", "do not", "make sure",
                     "important", "required", "remember", "prefer", "only use", "必须", "需要", "务必")
IMPERATIVES = ("use", "keep", "avoid", "exclude", "include", "treat", "stick to", "report", "assume")
_INSTRUCTION = re.compile("|".join([r"\b" + re.escape(w) + r"\b" if w.isascii() else re.escape(w)
                                    for w in INSTRUCTION_WORDS]
                                   + [r"(?:^|[.!?]\s+)" + re.escape(w) + r"\b" for w in IMPERATIVES]),
                          re.IGNORECASE)
_SPACE = re.compile(r"\s+")


def has_instruction(text: str) -> bool:
    return bool(_INSTRUCTION.search(text))


def quote(text: str, n: int) -> str:
    one = _SPACE.sub(" ", text).strip()
    return '"' + (one if len(one) <= n else one[: n - 1].rstrip() + "…") + '"'


def is_error_result(m: Message) -> bool:
    if m.role != "tool":
        return False
    if any(b.data and b.data.get("error") for b in m.blocks):
        return True
    return (m.content or "").lstrip().lower().startswith("error")


def has_llm_error(m: Message) -> bool:
    return any(b.type == "llm_error" for b in m.blocks)


def summary_body(text: str) -> str:
    """A summary's text without its CONVERSATION_SUMMARY header line."""
    lines = text.strip().splitlines()
    if lines and lines[0].upper().startswith(SUMMARY_HEADER):
        lines = lines[1:]
    return "\n".join(lines).strip()


def span(messages: Iterable[Message]) -> str:
    seqs = sorted(m.seq for m in messages)
    if not seqs:
        return "none"
    return f"#{seqs[0]}" if seqs[0] == seqs[-1] else f"#{seqs[0]}-#{seqs[-1]}"


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
INSTRUCTIONS_LINE = "- instructions: "


def instruction_sentences(text: str) -> list[str]:
    """The sentences of `text` that state an instruction (must, always, never, ...)."""
    return [s.strip() for s in _SENTENCE.split(text) if s.strip() and has_instruction(s)]


_LABEL = re.compile(r"^(?:-\s*)?(?:earlier:\s*)*", re.IGNORECASE)


def _carried(summary_text: str) -> tuple[list[str], str]:
    """A folded summary's instructions (its ``- instructions:`` line) and the rest of its body
    as one flat line (nested "earlier:" labels removed)."""
    found: list[str] = []
    rest = []
    for line in summary_body(summary_text).splitlines():
        if line.startswith(INSTRUCTIONS_LINE):
            found.extend(x.strip() for x in line[len(INSTRUCTIONS_LINE):].split(" | ") if x.strip())
        elif line.strip():
            rest.append(_LABEL.sub("", line.strip()))
    if not found:  # a summary written by a model: keep the instruction sentences it states
        found = instruction_sentences(" ".join(rest))
    return found, "; ".join(r for r in rest if r)


def rule_note(messages: Sequence[Message], *, max_chars: int = 900, label: str = "rule-based",
              max_instructions: int = 8) -> str:
    """A short extractive note for dropped messages: the user's standing instructions (carried
    over from the summaries it absorbs), requests, tools, answers, errors, and the absorbed
    summaries' other content, condensed."""
    regular = [m for m in messages if not is_summary(m) and m.id > 0]
    folded = [m for m in messages if is_summary(m)]
    lines = [f"{SUMMARY_HEADER} ({label}) of messages {span(messages)}: {len(regular)} message{'s' if len(regular) != 1 else ''} condensed."]
    instructions: list[str] = []
    earlier = []
    for m in folded:
        found, rest = _carried(text_of_message(m))
        instructions.extend(found)
        if rest.strip():
            earlier.append(rest)
    for m in regular:
        if m.role == "user" and not is_feedback(m):
            instructions.extend(instruction_sentences(m.content or ""))
    unique = list(dict.fromkeys(i if len(i) <= 160 else i[:159] + "…" for i in instructions))[-max_instructions:]
    if unique:
        lines.append(INSTRUCTIONS_LINE + " | ".join(unique))
    if earlier:
        flat = _SPACE.sub(" ", "; ".join(earlier)).strip()
        lines.append("- earlier: " + (flat if len(flat) <= 240 else "…" + flat[-239:].lstrip()))
    requests = [m for m in regular if starts_round(m)]
    meaningful = [m for m in requests if len((m.content or "").split()) > 2]
    if requests:
        chosen = (meaningful or requests)[-3:]
        more = f" (+{len(requests) - len(chosen)} more)" if len(requests) > len(chosen) else ""
        lines.append("- user asked: " + "; ".join(quote(m.content or "", 110) for m in chosen) + more)
    feedback = sum(1 for m in regular if is_feedback(m))
    calls: Counter[str] = Counter()
    for m in regular:
        calls.update(call_names(m))
    failed: Counter[str] = Counter(tool_name(m) or "?" for m in regular if is_error_result(m))
    if calls:
        parts = []
        for name, n in calls.most_common(6):
            part = name + (f" x{n}" if n > 1 else "")
            if failed.get(name):
                part += f" ({failed[name]} failed)"
            parts.append(part)
        lines.append("- tools called: " + ", ".join(parts))
    if feedback:
        lines.append(f"- {feedback} agent turns")
    answers = [m for m in regular if m.role == "assistant" and not m.tool_calls and not has_llm_error(m)
               and (m.content or "").strip()]
    if answers:
        lines.append("- last answer: " + quote(answers[-1].content or "", 200))
    llm_errors = [m for m in regular if has_llm_error(m)]
    if llm_errors:
        lines.append(f"- {len(llm_errors)} replies failed (LLM_ERROR)")
    out = "\n".join(lines)
    if len(out) > max_chars:
        out = out[: max_chars - 1].rstrip() + "…"
    return out


def pointer_note(messages: Sequence[Message], main: Sequence[Message]) -> str:
    """A note for a range whose content the summary of another range covers."""
    return (f"{SUMMARY_HEADER} of messages {span(messages)}: condensed; covered by the summary of messages "
            f"{span(main)}.")


def transcript(messages: Sequence[Message], *, max_chars: int = 24_000, tool_chars: int = 400,
               text_chars: int = 1_500) -> str:
    """The dropped messages as plain text for a summarizing model (tool results cut short)."""
    lines = []
    for m in messages:
        text = text_of_message(m)
        if is_summary(m):
            lines.append(f"[earlier summary]\n{summary_body(text)}")
            continue
        if m.role == "tool":
            name = tool_name(m)
            body = text if len(text) <= tool_chars else text[:tool_chars].rstrip() + f" … [{len(text):,} chars]"
            lines.append(f"#{m.seq} tool{f' {name}' if name else ''}: {body}")
            continue
        if len(text) > text_chars:
            text = text[:text_chars].rstrip() + f" … [{len(text):,} chars]"
        calls = call_names(m)
        suffix = f" [calls: {', '.join(calls)}]" if calls else ""
        lines.append(f"#{m.seq} {m.role}: {text}{suffix}")
    out = "\n".join(lines)
    if len(out) > max_chars:
        half = max_chars // 2
        out = out[:half] + "\n…[middle of the transcript left out]…\n" + out[-half:]
    return out
