"""06 - A chat session over a dataset, kept in the store.

`ChatSession` is an assistant a person talks to: each message runs in the session's mode
(`chat`: the model answers; `agent`: the request becomes a PTC-Lisp mission over the
data and tools). Every message goes to the session store; before each model call the
context is rebuilt within a token budget, compacting older history when it grows.
`ptc chat` is the same thing in a terminal.

    python examples/06_chat_session.py
"""

import tempfile
from pathlib import Path

import ptc
from ptc.conversation import ChatSession
from ptc.examples.datasets import load
from ptc.store import Store

REPLIES = [
    "Hi! I can analyse the orders dataset. Switch me to agent mode and ask a question.",
    "Counting by status.\n```clojure\n(return (frequencies (map :status data/orders)))\n```",
    "Delivered orders are the largest group.",
]


def main() -> ChatSession:
    store = Store(str(Path(tempfile.mkdtemp()) / "chat.db"))
    chat = ChatSession(store, llm=ptc.ScriptedLLM(REPLIES), data={"orders": load("orders")}, mode="chat",
                       title="orders questions")
    print("you> hello")
    print("ptc>", chat.send("hello").text)

    chat.set_mode("agent")
    reply = chat.send("How many orders are there per status?")
    print("you> How many orders are there per status?")
    print("ptc>", reply.value)

    chat.set_mode("chat")
    print("ptc>", chat.send("Which status is most common?").text)

    usage = chat.usage()
    print(f"\ncontext: {usage.percent:.0f}% of the budget ({usage.status})")
    print("\nthe session as people see it:\n")
    print(chat.view_text("display"))
    return chat


if __name__ == "__main__":
    main()
