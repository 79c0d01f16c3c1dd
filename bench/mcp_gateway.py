"""Tokens an MCP client's model reads with 50 upstream tools: directly, and through `ptc mcp serve`.

    python bench/mcp_gateway.py

Both servers are real processes reached with the official MCP client: the synthetic
50-tool server in bench/mcp_upstream.py, and `ptc mcp serve --mcp "python bench/mcp_upstream.py"`
in front of it. Counted with ptc's token counter (o200k_base when tiktoken has it offline):

1. The tool definitions: the JSON of each server's tools/list result (what a client puts
   in every request).
2. One task in a scripted session (the model's messages are written here, the tool results
   are the servers' real answers): "Which three regions have the most open orders over $500,
   by total amount?". Directly, the model calls list_orders and reads every open order, then
   answers; through ptc it asks ptc_tool_doc for list-orders' parameters, runs one program
   and reads its result, then answers; with tool search (the gateway's default above 30 tools,
   `--tool-search off` lists every signature) it searches in its first program instead. The
   session's input tokens are the sum of its
   requests' prompts (each request re-sends the tools and the conversation so far); a tool
   call counts as the JSON of its name and arguments.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ptc.llm.tokens import count_message_tokens, count_tokens, tokenizer_name
from ptc.tools.mcp_connection import MCPConnection, MCPServerSpec

ROOT = Path(__file__).resolve().parents[1]
UPSTREAM = [sys.executable, str(ROOT / "bench" / "mcp_upstream.py")]
SYSTEM = "You are a helpful assistant. Use the tools to answer."
TASK = "Which three regions have the most open orders over $500, by total amount? Give each one's count and total."
PROGRAM = """(->> (tool/list-orders {:status "open" :limit 500})
     (filter #(> (:amount %) 500))
     (group-by :region)
     (map (fn [[region orders]] {:region region :orders (count orders)
                                 :total (reduce + (map :amount orders))}))
     (sort-by :total >)
     (take 3))"""


def connect(command: list[str]) -> MCPConnection:
    connection = MCPConnection(MCPServerSpec(command=tuple(command), env={"PYTHONPATH": str(ROOT)}),
                               connect_timeout=120)
    connection.acquire()
    return connection


def listed(connection: MCPConnection) -> list[dict[str, Any]]:
    """The tools as tools/list returns them on the wire (JSON field names, no empty fields)."""
    return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in connection.list_tools()]


def call(connection: MCPConnection, name: str, arguments: dict[str, Any]) -> str:
    result = connection.request_sync(lambda s: s.call_tool(name, arguments), 120)
    return "\n".join(b.text for b in result.content if b.type == "text")


def session_tokens(tools: list[dict[str, Any]], turns: list[tuple[dict[str, Any], str]], answer: str) -> dict[str, int]:
    """Input tokens summed over the session's requests (one per model message), and output tokens."""
    tools_tokens = count_tokens(json.dumps({"tools": tools}))
    messages: list[dict[str, str]] = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": TASK}]
    total_in = out = 0
    for tool_call, result in turns:
        total_in += tools_tokens + count_message_tokens(messages)
        call_text = json.dumps(tool_call)
        out += count_tokens(call_text)
        messages += [{"role": "assistant", "content": call_text}, {"role": "tool", "content": result}]
    total_in += tools_tokens + count_message_tokens(messages)
    out += count_tokens(answer)
    return {"requests": len(turns) + 1, "input": total_in, "output": out,
            "largest result": max(count_tokens(r) for _, r in turns)}


def top_regions(orders: list[dict[str, Any]]) -> list[tuple[str, int, float]]:
    """The task's answer computed from the orders the direct session read (the scripted model's answer)."""
    by: dict[str, list[float]] = {}
    for o in orders:
        if o["amount"] > 500:
            by.setdefault(o["region"], []).append(o["amount"])
    return sorted(((r, len(a), round(sum(a), 2)) for r, a in by.items()), key=lambda x: -x[2])[:3]


SEARCH = '(println (tool/search-tools "open orders of a region with amount"))'


def main() -> None:
    upstream = connect(UPSTREAM)
    gateway = connect([sys.executable, "-m", "ptc", "mcp", "serve", "--mcp", " ".join(UPSTREAM),
                       "--limits", "timeout=30", "--tool-search", "off"])  # every signature listed
    searched = connect([sys.executable, "-m", "ptc", "mcp", "serve", "--mcp", " ".join(UPSTREAM),
                        "--limits", "timeout=30"])  # 50 tools: above the default threshold (30), tool search
    try:
        direct_tools, ptc_tools = listed(upstream), listed(gateway)
        code_tool = next(t for t in ptc_tools if t["name"] == "run_ptc_lisp")
        rows = [
            ("upstream tools/list (%d tools)" % len(direct_tools), count_tokens(json.dumps({"tools": direct_tools}))),
            ("ptc mcp serve tools/list (%d tools)" % len(ptc_tools), count_tokens(json.dumps({"tools": ptc_tools}))),
            ("  of which run_ptc_lisp's description", count_tokens(code_tool["description"])),
            ("  of which the 50 signature lines", count_tokens(code_tool["description"].split("for one tool's "
                                                                                          "parameters, notes and "
                                                                                          "defaults):\n")[1]
                                                               .split("\n\nData:")[0])),
        ]
        search_tools = listed(searched)
        search_code_tool = next(t for t in search_tools if t["name"] == "run_ptc_lisp")
        rows += [
            ("with tool search, tools/list (%d tools)" % len(search_tools),
             count_tokens(json.dumps({"tools": search_tools}))),
            ("  of which run_ptc_lisp's description", count_tokens(search_code_tool["description"])),
        ]
        print(f"Tokens ({tokenizer_name()}):")
        for label, n in rows:
            print(f"  {label:<44} {n:>7,}")

        args = {"status": "open", "limit": 500}
        orders_text = call(upstream, "list_orders", args)
        answer = top_regions(json.loads(orders_text))
        answer_text = "; ".join(f"{r}: {n} orders, ${t:,.2f}" for r, n, t in answer)
        direct = session_tokens(direct_tools, [({"name": "list_orders", "arguments": args}, orders_text)],
                                answer_text)
        doc = call(gateway, "ptc_tool_doc", {"name": "list-orders"})
        result = call(gateway, "run_ptc_lisp", {"program": PROGRAM})
        gateway_session = session_tokens(ptc_tools, [({"name": "ptc_tool_doc", "arguments": {"name": "list-orders"}},
                                                      doc),
                                                     ({"name": "run_ptc_lisp", "arguments": {"program": PROGRAM}},
                                                      result)], answer_text)
        found = call(searched, "run_ptc_lisp", {"program": SEARCH})
        assert "(tool/list-orders" in found, found
        searched_result = call(searched, "run_ptc_lisp", {"program": PROGRAM})
        assert searched_result == result, (searched_result, result)
        search_session = session_tokens(search_tools, [({"name": "run_ptc_lisp", "arguments": {"program": SEARCH}},
                                                        found),
                                                       ({"name": "run_ptc_lisp", "arguments": {"program": PROGRAM}},
                                                        searched_result)], answer_text)
        print(f"\nOne task, scripted session: {TASK}")
        print(f"  answer: {answer_text}")
        print(f"  ptc's program result: {result.splitlines()[0][:160]}")
        print(f"  {'':<22} {'requests':>8} {'input':>8} {'output':>7} {'largest result':>15}")
        for label, s in (("upstream tools direct", direct), ("through ptc mcp serve", gateway_session),
                         ("  with tool search", search_session)):
            print(f"  {label:<22} {s['requests']:>8} {s['input']:>8,} {s['output']:>7,} {s['largest result']:>15,}")
        print(f"  input tokens: {direct['input'] / gateway_session['input']:.1f}x fewer through ptc, "
              f"{direct['input'] / search_session['input']:.1f}x with tool search")
    finally:
        searched.close()
        gateway.close()
        upstream.close()


if __name__ == "__main__":
    main()
