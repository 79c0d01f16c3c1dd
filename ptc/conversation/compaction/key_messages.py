"""Key-message extraction: compaction without an LLM.

1. **Mandatory** messages are never dropped: summaries, the latest user message and the
   latest user request, the last ``settings.mandatory_rounds`` rounds, and every message of
   a tool group one of whose members is mandatory.
2. Every other message gets an **explainable score**, a breakdown such as
   ``{"instructions": 2, "numbers": 1, "recency": 0.84, "large_tool_output": -2}``
   (weights in `WEIGHTS`): instructions in a user message (must, should, need, always...),
   file paths, code, numbers, a user request, a final answer, recency (halving every
   `half_life_rounds` rounds), and penalties for errors and large tool output. A tool group
   scores the mean of its messages.
3. **Greedy selection under budget**: groups by descending score are kept while they fit in
   ``target_ratio * prompt budget`` minus the system prompt, the mandatory messages and
   `summary_reserve` tokens for the notes; the rest is dropped.
4. Dropped messages form contiguous seq **ranges**, each replaced by a rule-based note
   (`notes.rule_note`) when persisted. A summary next to a dropped range is folded into it
   (its text is carried into the new note), so summaries do not pile up. At most
   `max_ranges` ranges: the kept messages between the closest ranges are dropped too
   (cheapest first). A range under `min_range_tokens` is not worth a note and is kept.
5. **Fallbacks** when what is kept is still over the target (`fallbacks.fit`, request-only):
   tool results to previews, long texts shortened, finally only the last K rounds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from ..builder import log_tokens, prepare_log
from ..log import Message, atoms, is_feedback, is_summary, rounds, starts_round, text_of_message
from ..usage import REPLY_PRIMING_TOKENS, ContextSettings, ContextUsage, message_tokens
from .base import CompactionResult, RangePlan, over_trigger
from .fallbacks import fit
from .notes import has_instruction, is_error_result, has_llm_error, rule_note

WEIGHTS: dict[str, float] = {
    "instructions": 2.0,       # the user says must / should / always / never ...
    "file_paths": 1.5,         # /data/q3/orders.csv, @state/..., report.xlsx
    "code": 1.5,               # a ``` block or a program
    "numbers": 1.0,            # figures in a user or assistant text
    "user_request": 1.0,       # a user request (intent)
    "answer": 1.0,             # an assistant's final answer (an outcome)
    "recency": 2.0,            # times 0.5 ** (rounds ago / half life)
    "error": -0.5,             # an old failure (tool error, LLM_ERROR)
    "large_tool_output": -2.0,  # a tool result over 4 previews (half of it over 1 preview)
}

PATH = re.compile(r"(?:(?<![\w/])(?:[A-Za-z]:)?[\\/](?:[\w.-]+[\\/])+[\w.-]*\w"
                  r"|@(?:state|project)/\S+"
                  r"|\b[\w-]+\.(?:csv|tsv|json|jsonl|py|sql|md|txt|xlsx|xls|parquet|ya?ml|toml|clj|log|pdf|html)\b)")
NUMBER = re.compile(r"(?<![\w.])(?:[$€£]\s?)?\d[\d,]*(?:\.\d+)?\s?(?:%|k|m|bn)?(?![\w])", re.IGNORECASE)


def _significant_numbers(text: str) -> int:
    return sum(1 for n in NUMBER.findall(text) if len(re.sub(r"\D", "", n)) >= 2 or "." in n or "%" in n)


@dataclass
class KeyMessageExtraction:
    name: str = "key_messages"
    weights: dict[str, float] = field(default_factory=lambda: dict(WEIGHTS))
    half_life_rounds: float = 4.0
    summary_reserve: int = 150     # tokens kept free for the notes that replace the ranges
    max_ranges: int = 3            # summaries written per compaction at most
    min_range_tokens: int = 60     # a smaller range is kept instead (its note would save little)
    note_chars: int = 900          # cap of a rule-based note
    fold_summaries: bool = True

    def should_compact(self, usage: ContextUsage, settings: ContextSettings) -> bool:
        return over_trigger(usage, settings)

    # -- explanation -------------------------------------------------------------------

    def mandatory(self, items: Sequence[Message], settings: ContextSettings) -> dict[int, str]:
        """id -> why the message must be kept (on a repaired, context-ordered list)."""
        out: dict[int, str] = {}
        for m in items:
            if is_summary(m):
                out[m.id] = "summary"
        regular = [m for m in items if not is_summary(m)]
        for r in rounds(regular)[-settings.mandatory_rounds:]:
            for m in r.messages:
                out.setdefault(m.id, f"recent round (last {settings.mandatory_rounds})")
        users = [m for m in regular if m.role == "user"]
        if users:
            out[users[-1].id] = "latest user message"
        requests = [m for m in regular if starts_round(m)]
        if requests:
            out.setdefault(requests[-1].id, "latest user request")
        for unit in atoms(regular):
            anchor = next((m for m in unit if m.id in out), None)
            if anchor is not None and len(unit) > 1:
                for m in unit:
                    out.setdefault(m.id, f"tool group with #{anchor.seq}")
        return out

    def score(self, m: Message, *, rounds_ago: int, tokens: int, settings: ContextSettings) -> dict[str, float]:
        """The score breakdown of one message (only the non-zero parts)."""
        w = self.weights
        text = text_of_message(m)
        parts: dict[str, float] = {}
        if m.role == "user" and not is_feedback(m) and has_instruction(text):
            parts["instructions"] = w["instructions"]
        if m.role != "tool":
            probe = text + " " + " ".join(str((c.get("function") or {}).get("arguments", ""))
                                          for c in (m.tool_calls or ()) if isinstance(c, dict))
            if PATH.search(probe):
                parts["file_paths"] = w["file_paths"]
            if "```" in text or any(b.type == "code" for b in m.blocks):
                parts["code"] = w["code"]
            if _significant_numbers(text):
                parts["numbers"] = w["numbers"]
        if starts_round(m):
            parts["user_request"] = w["user_request"]
        if m.role == "assistant" and not m.tool_calls and text.strip() and not has_llm_error(m):
            parts["answer"] = w["answer"]
        recency = round(w["recency"] * 0.5 ** (rounds_ago / self.half_life_rounds), 2)
        if recency:
            parts["recency"] = recency
        if is_error_result(m) or has_llm_error(m):
            parts["error"] = w["error"]
        if m.role == "tool":
            preview = max(1, settings.tool_preview_chars // 4)
            if tokens > 4 * preview:
                parts["large_tool_output"] = w["large_tool_output"]
            elif tokens > preview:
                parts["large_tool_output"] = w["large_tool_output"] / 2
        return parts

    # -- the strategy ------------------------------------------------------------------

    def compact(self, log: Sequence[Message], settings: ContextSettings, usage: ContextUsage) -> CompactionResult:
        items, _dropped, _notes = prepare_log(log, settings)
        costs = log_tokens(items, settings)
        fixed = usage.system + REPLY_PRIMING_TOKENS
        before = fixed + sum(costs.values())
        result = CompactionResult(strategy=self.name, tokens_before=before)
        mandatory = self.mandatory(items, settings)
        result.mandatory = {i: r for i, r in mandatory.items() if i > 0}
        regular = [m for m in items if not is_summary(m)]
        round_of = {m.id: r.index for r in rounds(regular) for m in r.messages}
        last_round = max(round_of.values(), default=0)
        units = atoms(regular)
        target = int(settings.target_ratio * usage.budget)

        mandatory_cost = sum(costs[m.id] for m in items if m.id in mandatory)
        candidates: list[tuple[float, int, tuple[Message, ...]]] = []
        for unit in units:
            if any(m.id in mandatory for m in unit):
                continue
            totals = []
            for m in unit:
                parts = self.score(m, rounds_ago=last_round - round_of.get(m.id, last_round), tokens=costs[m.id],
                                   settings=settings)
                if m.id > 0:
                    result.scores[m.id] = parts
                totals.append(sum(parts.values()))
            candidates.append((round(sum(totals) / len(totals), 3), unit[0].seq, unit))
        available = target - fixed - mandatory_cost - self.summary_reserve
        remaining = available
        dropped: dict[int, str] = {}
        ranked = sorted(candidates, key=lambda c: (-c[0], -c[1]))
        for rank, (score, _seq, unit) in enumerate(ranked, 1):
            cost = sum(costs[m.id] for m in unit)
            if cost <= remaining:
                remaining -= cost
                continue
            why = (f"score {score:g} (rank {rank} of {len(ranked)}) did not fit: {max(remaining, 0):,} of "
                   f"{max(available, 0):,} tokens left after the mandatory messages")
            for m in unit:
                dropped[m.id] = why
        plans: list[RangePlan] = []
        final: dict[int, str] = {}
        notes: list[str] = []
        sticky: set[int] = set()
        by_score = sorted(candidates, key=lambda c: (c[0], c[1]))   # lowest first, then oldest
        for _ in range(len(candidates) + 1):
            if not dropped:
                break
            plans, final, notes, sticky = self._plan_ranges(items, dict(dropped), mandatory, costs, units)
            kept_now = [m for m in items if m.id not in final]
            note_cost = sum(message_tokens({"role": "system", "content": p.text}, settings.encoding) for p in plans)
            deficit = fixed + note_cost + sum(costs[m.id] for m in kept_now) - target
            if deficit <= 0:
                break
            more = 0
            for score, _seq, unit in by_score:   # the notes took more room than reserved: drop more, by score
                if more >= deficit:
                    break
                if any(m.id in final or m.id in sticky for m in unit):
                    continue
                for m in unit:
                    dropped[m.id] = f"score {score:g}: dropped to make room for the summary notes"
                more += sum(costs[m.id] for m in unit)
            if not more:
                break
        if not dropped:
            result.notes.append("nothing to drop: every non-mandatory message fits the target")
        else:
            in_ranges = {i for p in plans for i in p.ids}
            result.ranges = plans
            result.dropped = {i: r for i, r in final.items() if i in in_ranges}
            result.notes.extend(notes)
        kept_items = [m for m in items if m.id not in result.dropped]
        result.kept = [m.id for m in kept_items if m.id > 0]
        note_cost = sum(message_tokens({"role": "system", "content": r.text}, settings.encoding) for r in result.ranges)
        after = fixed + note_cost + sum(costs[m.id] for m in kept_items)
        if after > target:
            trim = fit(kept_items, target, settings, fixed=fixed + note_cost, limit=usage.budget)
            result.rewrites = {i: rw for i, rw in trim.rewrites.items() if i > 0}
            result.excluded = {i: r for i, r in trim.excluded.items() if i > 0}
            result.notes.extend(f"fallback {s}" for s in trim.steps)
            after = trim.tokens
        result.tokens_after = after
        return result

    def _plan_ranges(self, items: Sequence[Message], dropped: dict[int, str], mandatory: dict[int, str],
                     costs: dict[int, int], units: Sequence[tuple[Message, ...]]
                     ) -> tuple[list[RangePlan], dict[int, str], list[str], set[int]]:
        """Contiguous ranges for `dropped` (which it extends with folded summaries and merged
        gaps): the plans, the final drops, notes, and the ids kept back (not worth a note, or
        a tool group reaching outside a range)."""
        notes: list[str] = []
        sticky: set[int] = set()
        line = sorted((m for m in items if m.id > 0), key=lambda m: m.seq)
        index = {m.id: i for i, m in enumerate(line)}
        unit_of = {m.id: unit for unit in units for m in unit}
        folded: set[int] = set()

        def contiguous(i: int, j: int) -> bool:
            return 0 <= i < len(line) and 0 <= j < len(line) and line[j].seq == line[i].seq + (j - i)

        if self.fold_summaries:
            changed = True
            while changed:
                changed = False
                for i, m in enumerate(line):
                    if not is_summary(m) or m.id in dropped:
                        continue
                    left = contiguous(i - 1, i) and line[i - 1].id in dropped
                    right = contiguous(i, i + 1) and line[i + 1].id in dropped
                    if left or right:
                        dropped[m.id] = "summary folded into the note of its neighbours"
                        folded.add(m.id)
                        changed = True

        def runs() -> list[list[Message]]:
            out: list[list[Message]] = []
            for i, m in enumerate(line):
                if m.id not in dropped:
                    continue
                if out and index[out[-1][-1].id] == i - 1 and contiguous(i - 1, i):
                    out[-1].append(m)
                else:
                    out.append([m])
            return out

        ranges = runs()
        while len(ranges) > self.max_ranges:
            best: tuple[int, list[Message]] | None = None
            for a, b in zip(ranges, ranges[1:]):
                i, j = index[a[-1].id], index[b[0].id]
                gap = line[i + 1:j]
                if not contiguous(i, j) or any(m.id in mandatory and not is_summary(m) for m in gap):
                    continue
                gap_ids = {m.id for m in gap}
                if any(x.id > 0 and x.id not in gap_ids and x.id not in dropped
                       for m in gap for x in unit_of.get(m.id, (m,))):
                    continue  # the gap would cut a tool group
                cost = sum(costs[m.id] for m in gap)
                if best is None or cost < best[0]:
                    best = (cost, gap)
            if best is None:
                notes.append(f"{len(ranges)} ranges: the messages between them are mandatory")
                break
            for m in best[1]:
                if is_summary(m):
                    dropped[m.id] = "summary folded into the note of its neighbours"
                    folded.add(m.id)
                else:
                    dropped[m.id] = f"merged into a neighbouring range (at most {self.max_ranges} summaries)"
            ranges = runs()
        plans = []
        for run in ranges:
            members = {m.id for m in run}
            if any(x.id > 0 and x.id not in members for m in run for x in unit_of.get(m.id, (m,))):
                for m in run:
                    dropped.pop(m.id, None)
                    sticky.add(m.id)
                notes.append(f"kept #{run[0].seq}-#{run[-1].seq}: a tool group reaches outside it")
                continue
            tokens = sum(costs[m.id] for m in run)
            if tokens < self.min_range_tokens and not any(m.id in folded for m in run):
                for m in run:
                    dropped.pop(m.id, None)
                    sticky.add(m.id)
                notes.append(f"kept #{run[0].seq}-#{run[-1].seq}: {tokens} tokens, too small to condense")
                continue
            plans.append(RangePlan(first_seq=run[0].seq, last_seq=run[-1].seq, ids=[m.id for m in run], tokens=tokens,
                                   text=rule_note(run, max_chars=self.note_chars),
                                   folded=[m.id for m in run if m.id in folded]))
        in_ranges = {i for p in plans for i in p.ids}
        final = {i: r for i, r in dropped.items() if i in in_ranges}
        if plans:
            n_folded = sum(len(p.folded) for p in plans)
            notes.append(f"dropped {len(final)} messages in {len(plans)} ranges ({sum(p.tokens for p in plans):,} tokens)"
                         + (f"; {n_folded} summaries folded" if n_folded else ""))
        return plans, final, notes, sticky
