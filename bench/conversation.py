"""Long-conversation benchmark: tokens per call with and without compaction.

A simulated 200-message conversation (a data analyst and an assistant: questions, tool
calls with large JSON results, tool errors and retries, a failed LLM reply and "continue",
programs, a summary of an earlier session at the start) is replayed into an in-memory
`Store`, message by message. Before every assistant message (the reply of one LLM call) the
request is prepared with a small budget (4,000 tokens: 3,500 for the prompt, 500 for the
reply), once per strategy:

- ``none``: `build_context` of the whole log, nothing trimmed: what the history costs;
- ``trim-only``: a `Compactor` without a strategy (request-only fallback ladder);
- ``key-messages``: `KeyMessageExtraction`;
- ``llm-summary``: `LlmSummary` with a deterministic local summarizer (no network);
- ``llm-summary (failing)``: the same with a model that always raises `LLMError`;
- ``broad``: `BroadSummary` with the same summarizer answering in a background thread after
  a short latency; soft/hard thresholds scaled to the budget (2,000 / 2,800 tokens).

Reported per strategy: mean and max prompt tokens per call and the mean against ``none``;
calls over the prompt budget; compactions (store writes), strategy runs, futile runs,
failures, trimmed requests, loops (a second compaction in one call: must be 0) and
back-to-back compactions; the share of mandatory items kept (the latest user message, the
messages of the last two rounds, the summaries present before the call -- a summary folded
into a newer one that is sent counts as kept), the share of those sent shortened (previews),
the share of tool groups sent intact (checked on the OpenAI messages), the share of the
user's standing instructions given so far ("Always report amounts in EUR...") still present
in the request (verbatim or quoted in a summary), active summaries at the end, and
milliseconds per `prepare`.

    python bench/conversation.py
    python bench/conversation.py --budget 6000 --messages 300 --mode agent --json
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ptc.conversation import ContextSettings, build_context  # noqa: E402
from ptc.conversation.compaction import BroadSummary, Compactor, KeyMessageExtraction, LlmSummary  # noqa: E402
from ptc.conversation.log import is_summary, rounds  # noqa: E402
from ptc.llm.base import CallableLLM, LLMError  # noqa: E402
from ptc.store import Block, Store  # noqa: E402

REGIONS = ["EMEA", "APAC", "North America", "LATAM"]
PRODUCTS = ["laptops", "monitors", "docks", "headsets", "keyboards", "tablets"]
CUSTOMERS = ["Acme GmbH", "Globex", "Initech", "Umbrella", "Hooli", "Stark Industries", "Wayne Corp", "Tyrell"]
TOOLS = ["sales_by_region", "orders", "top_customers", "inventory", "read_file"]
INSTRUCTIONS = [
    "Always report amounts in EUR, rounded to thousands.",
    "Never include cancelled orders in any total.",
    "Use /data/2024/orders.csv as the source of truth for order counts.",
    "Remember that Q4 starts in October for this company.",
    "You must flag any region whose growth is negative.",
]


# -- the simulated conversation ----------------------------------------------------------------

def _rows(rng: random.Random, n: int) -> list[dict[str, Any]]:
    return [{"order_id": 10_000 + rng.randrange(90_000), "region": rng.choice(REGIONS),
             "customer": rng.choice(CUSTOMERS), "product": rng.choice(PRODUCTS),
             "quantity": rng.randrange(1, 40), "amount_eur": round(rng.uniform(80, 9_000), 2),
             "status": rng.choice(["shipped", "shipped", "shipped", "cancelled", "pending"]),
             "date": f"2024-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"} for _ in range(n)]


def _question(rng: random.Random) -> str:
    region, product, q = rng.choice(REGIONS), rng.choice(PRODUCTS), rng.randrange(1, 5)
    return rng.choice([
        f"What were total {product} sales in {region} in Q{q}?",
        f"Which customers bought the most {product} in Q{q}?",
        f"How many orders were still pending in {region} at the end of Q{q}?",
        f"Compare Q{q} revenue for {product} across all regions.",
        f"Is the {product} inventory in {region} enough for next month?",
    ])


def _answer(rng: random.Random) -> str:
    region = rng.choice(REGIONS)
    return (f"{region} leads with EUR {rng.randrange(100, 900)}k ({rng.randrange(2, 30)}% of the total), followed by "
            f"{rng.choice(REGIONS)} at EUR {rng.randrange(50, 400)}k. {rng.randrange(3, 40)} orders were excluded "
            f"as cancelled. Growth versus the previous quarter: {rng.choice(['+', '-'])}{rng.randrange(1, 15)}%.")


class Script:
    """The conversation as a list of message specs (dicts for `Store.append`, or llm errors)."""

    def __init__(self, n: int = 200, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        self.items: list[dict[str, Any]] = []
        self.calls = 0
        self.items.append(dict(role="system", priority=1, content=(
            "CONVERSATION_SUMMARY (earlier session): the user prepares the 2024 sales review. Amounts in EUR. "
            "Sources: the orders tool and /data/2024/orders.csv. Open question: LATAM returns in Q2.")))
        while len(self.items) < n:
            kind = self.rng.choices(["qa", "tool", "tool_error", "llm_error", "code"], [25, 40, 15, 8, 12])[0]
            batch = getattr(self, "_" + kind)()
            if len(self.items) + len(batch) > n:
                batch = self._qa() if len(self.items) + 2 <= n else [dict(role="user", content=_question(self.rng))]
            self.items.extend(batch)

    def _user(self) -> dict[str, Any]:
        text = _question(self.rng)
        if self.rng.random() < 0.2:
            text = f"{self.rng.choice(INSTRUCTIONS)} {text}"
        return dict(role="user", content=text)

    def _call(self, name: str, args: dict[str, Any]) -> tuple[dict[str, Any], str]:
        self.calls += 1
        cid = f"call_{self.calls}"
        call = {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        return call, cid

    def _result(self, cid: str, name: str, rows: int | None = None, error: str | None = None) -> dict[str, Any]:
        if error:
            return dict(role="tool", tool_call_id=cid, blocks=[Block("tool_result", f"error: {error}",
                                                                     {"name": name, "error": error})])
        payload = json.dumps(_rows(self.rng, rows or 20), separators=(",", ":"))
        return dict(role="tool", tool_call_id=cid, blocks=[Block("tool_result", payload, {"name": name})])

    def _qa(self) -> list[dict[str, Any]]:
        return [self._user(), dict(role="assistant", content=_answer(self.rng))]

    def _tool(self) -> list[dict[str, Any]]:
        out = [self._user()]
        names = self.rng.sample(TOOLS[:4], self.rng.choice([1, 1, 2]))
        calls = [self._call(n, {"region": self.rng.choice(REGIONS), "quarter": self.rng.randrange(1, 5)}) for n in names]
        out.append(dict(role="assistant", tool_calls=[c for c, _ in calls]))
        for (c, cid), name in zip(calls, names):
            out.append(self._result(cid, name, rows=self.rng.randrange(6, 28)))
        out.append(dict(role="assistant", content=_answer(self.rng)))
        return out

    def _tool_error(self) -> list[dict[str, Any]]:
        name = self.rng.choice(TOOLS[:4])
        first, cid1 = self._call(name, {"region": self.rng.choice(REGIONS)})
        retry, cid2 = self._call(name, {"region": self.rng.choice(REGIONS), "timeout": 60})
        return [self._user(), dict(role="assistant", tool_calls=[first]),
                self._result(cid1, name, error="timeout after 30s"),
                dict(role="assistant", content="The query timed out; retrying with a longer timeout.",
                     tool_calls=[retry]),
                self._result(cid2, name, rows=self.rng.randrange(4, 16)),
                dict(role="assistant", content=_answer(self.rng))]

    def _llm_error(self) -> list[dict[str, Any]]:
        return [self._user(), dict(llm_error=True, partial="Looking at the figures, EMEA grew by",
                                   kind="timeout", message="the provider did not answer within 60 s"),
                dict(role="user", content="continue"), dict(role="assistant", content=_answer(self.rng))]

    def _code(self) -> list[dict[str, Any]]:
        path = f"/data/2024/{self.rng.choice(['orders', 'returns', 'stock'])}.csv"
        program = ("(let [rows (tool/orders {:quarter 3})]\n  (->> rows (filter #(= (:status %) \"shipped\"))\n"
                   "       (group-by :region) (map (fn [[r xs]] [r (reduce + (map :amount_eur xs))])) (into {})))")
        return [dict(role="user", content=f"Write a program that totals shipped orders by region from {path}."),
                dict(role="assistant", blocks=[Block("text", f"Here is the program:\n```clojure\n{program}\n```"),
                                               Block("code", program, {"language": "clojure"})])]


def append(store: Store, sid: str, spec: dict[str, Any]) -> None:
    spec = dict(spec)
    if spec.pop("llm_error", False):
        store.append_llm_error(sid, spec["partial"], spec["kind"], spec["message"], mode="chat")
        return
    store.append(sid, **spec)


def is_reply(spec: dict[str, Any]) -> bool:
    return spec.get("role") == "assistant" or bool(spec.get("llm_error"))


# -- summarizers -------------------------------------------------------------------------------

def local_summary(messages: list[dict[str, Any]]) -> str:
    """A deterministic stand-in for a cheap model following SUMMARY_PROMPT: the user's standing
    instructions, the last requests and the last figures of the transcript."""
    text = messages[-1]["content"]
    asked, figures, earlier = [], [], []
    for line in text.splitlines():
        if " user: " in line:
            asked.append(line.split(" user: ", 1)[1][:90])
        elif " assistant: " in line and "EUR" in line:
            figures.append(line.split(" assistant: ", 1)[1][:110])
        elif line.startswith("- ") and len(earlier) < 4:
            earlier.append(line[2:][:100])
    rules = [part.strip() for line in text.splitlines() for part in re.split(r" \| |(?<=[.?!]) ", line.split(": ", 1)[-1])
             if any(w in part for w in ("Always", "Never", "must", "Remember", "source of truth"))]
    kept_rules = list(dict.fromkeys(r[:120] for r in rules))
    parts = []
    if kept_rules:
        parts.append("- Standing instructions: " + " | ".join(kept_rules[-6:]))
    if earlier:
        parts.append("Earlier: " + "; ".join(earlier))
    if asked:
        parts.append("- The user asked: " + "; ".join(asked[-5:]))
    if figures:
        parts.append("- Findings: " + " | ".join(figures[-3:]))
    return "\n".join(parts) or "- (nothing notable)"


def failing(_messages: list[dict[str, Any]]) -> str:
    raise LLMError("timeout", "the summarizing model did not answer")


def slow(fn: Callable[[list[dict[str, Any]]], str], latency: float) -> Callable[[list[dict[str, Any]]], str]:
    def call(messages: list[dict[str, Any]]) -> str:
        time.sleep(latency)
        return fn(messages)
    return call


# -- measuring ---------------------------------------------------------------------------------

def mandatory_items(log: list[Any], settings: ContextSettings) -> dict[int, str]:
    out = {m.id: "summary" for m in log if is_summary(m)}
    regular = [m for m in log if not is_summary(m)]
    users = [m for m in regular if m.role == "user"]
    if users:
        out[users[-1].id] = "latest user message"
    for r in rounds(regular)[-settings.mandatory_rounds:]:
        for m in r.messages:
            out.setdefault(m.id, "recent round")
    return out


def groups_intact(messages: list[dict[str, Any]]) -> tuple[int, int]:
    """(intact, total) tool groups in an OpenAI request; orphan results count as broken groups."""
    intact = total = 0
    i = 0
    while i < len(messages):
        m = messages[i]
        if m.get("role") == "assistant" and m.get("tool_calls"):
            total += 1
            ids = [c["id"] for c in m["tool_calls"]]
            j = i + 1
            got = []
            while j < len(messages) and messages[j].get("role") == "tool":
                got.append(messages[j].get("tool_call_id"))
                j += 1
            intact += sorted(got) == sorted(ids)
            i = j
            continue
        if m.get("role") == "tool":
            total += 1  # an orphan result
        i += 1
    return intact, total


def run(name: str, script: Script, settings: ContextSettings, mode: str,
        make: Callable[[Store, str], Compactor] | None) -> dict[str, Any]:
    store = Store(":memory:")
    sid = store.create_session(f"bench {name}", mode=mode).id
    compactor = make(store, sid) if make is not None else None
    tokens: list[int] = []
    times: list[float] = []
    kept = total = shortened = 0
    g_ok = g_all = 0
    over = 0
    given: list[str] = []
    retained = asked = 0
    for spec in script.items:
        for rule in INSTRUCTIONS:
            if rule in (spec.get("content") or "") and spec.get("role") == "user" and rule not in given:
                given.append(rule)
        if is_reply(spec):
            log = list(store.context(sid, include_compressed=False).items)
            mandatory = mandatory_items(log, settings)
            t0 = time.perf_counter()
            if compactor is None:
                messages, report = build_context(log, mode, settings, enforce_budget=False)
                sent, rewritten, folded_into = set(report.kept), report.rewritten, {}
            else:
                messages, prep = compactor.prepare(mode)
                report = prep.build
                sent, rewritten = set(report.kept), report.rewritten
                folded_into = {}
                if prep.compaction is not None:
                    for plan, rec in zip([p for p in prep.compaction.ranges], prep.records):
                        for i in plan.folded:
                            folded_into[i] = rec.summary_message_id
            times.append(time.perf_counter() - t0)
            tokens.append(report.usage.used)
            over += report.usage.used > settings.prompt_budget
            for i in mandatory:
                total += 1
                if i in sent or folded_into.get(i) in sent:
                    kept += 1
                    shortened += i in rewritten
            sent_text = "\n".join(str(m.get("content") or "") for m in messages[1:])
            for rule in given:
                asked += 1
                retained += rule[:40] in sent_text
            ok, n = groups_intact(messages)
            g_ok += ok
            g_all += n
        append(store, sid, spec)
    counters = compactor.counters.to_dict() if compactor else {}
    if compactor is not None and isinstance(compactor.strategy, BroadSummary):
        compactor.strategy.close()
    summaries = sum(1 for m in store.context(sid, include_compressed=False).items if is_summary(m))
    return {
        "strategy": name, "calls": len(tokens), "mean_tokens": statistics.mean(tokens), "max_tokens": max(tokens),
        "over_budget": over, "counters": counters, "mandatory_kept": kept / total if total else 1.0,
        "mandatory_shortened": shortened / kept if kept else 0.0, "groups_intact": g_ok / g_all if g_all else 1.0,
        "summaries_at_end": summaries, "instructions_retained": retained / asked if asked else 1.0, "ms_per_call": 1000 * statistics.mean(times),
        "stats": store.stats(sid).to_dict(),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=200)
    ap.add_argument("--budget", type=int, default=4_000)
    ap.add_argument("--reserve", type=int, default=500)
    ap.add_argument("--mode", choices=["chat", "agent"], default="chat")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--latency", type=float, default=0.05, help="seconds the background summarizer takes")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    settings = ContextSettings(budget=args.budget, reserve_for_reply=args.reserve,
                               soft_threshold=int(0.57 * (args.budget - args.reserve)),
                               hard_threshold=int(0.8 * (args.budget - args.reserve)))
    script = Script(args.messages, args.seed)
    llm = CallableLLM(local_summary)
    strategies: list[tuple[str, Callable[[Store, str], Compactor] | None]] = [
        ("none", None),
        ("trim-only", lambda st, sid: Compactor(st, sid, None, settings)),
        ("key-messages", lambda st, sid: Compactor(st, sid, KeyMessageExtraction(), settings)),
        ("llm-summary", lambda st, sid: Compactor(st, sid, LlmSummary(llm), settings)),
        ("llm-summary (failing)", lambda st, sid: Compactor(st, sid, LlmSummary(CallableLLM(failing)), settings)),
        ("broad", lambda st, sid: Compactor(st, sid, BroadSummary(CallableLLM(slow(local_summary, args.latency))),
                                            settings)),
    ]
    results = [run(name, script, settings, args.mode, make) for name, make in strategies]
    base = results[0]["mean_tokens"]
    if args.json:
        print(json.dumps({"settings": settings.model_dump(), "messages": len(script.items), "results": results},
                         indent=2, default=str))
        return 0
    print(f"{len(script.items)} messages, {results[0]['calls']} LLM calls, mode {args.mode}, budget {args.budget:,} "
          f"(prompt {settings.prompt_budget:,}: trigger {settings.trigger_tokens:,}, target "
          f"{settings.target_tokens:,}; broad soft {settings.soft_threshold:,} / hard {settings.hard_threshold:,})")
    head = (f"{'strategy':<22} {'mean':>6} {'max':>6} {'vs none':>8} {'over':>5} {'compact':>7} {'runs':>5} "
            f"{'futile':>6} {'fail':>5} {'trims':>5} {'loops':>5} {'b2b':>4} {'mand.':>6} {'short':>6} "
            f"{'groups':>6} {'instr':>6} {'summ':>5} {'ms':>6}")
    print(head)
    print("-" * len(head))
    for r in results:
        c = r["counters"]
        print(f"{r['strategy']:<22} {r['mean_tokens']:>6,.0f} {r['max_tokens']:>6,} "
              f"{100 * r['mean_tokens'] / base:>7.0f}% {r['over_budget']:>5} {c.get('compactions', 0):>7} "
              f"{c.get('attempts', 0):>5} {c.get('futile', 0):>6} {c.get('failures', 0):>5} {c.get('trims', 0):>5} "
              f"{c.get('loops', 0):>5} {c.get('back_to_back', 0):>4} {100 * r['mandatory_kept']:>5.1f}% "
              f"{100 * r['mandatory_shortened']:>5.1f}% {100 * r['groups_intact']:>5.1f}% "
              f"{100 * r['instructions_retained']:>5.1f}% {r['summaries_at_end']:>5} "
              f"{r['ms_per_call']:>6.1f}")
    return 0


if __name__ == "__main__":
    threading.excepthook = lambda a: print(f"thread error: {a.exc_value}", file=sys.stderr)
    raise SystemExit(main())
