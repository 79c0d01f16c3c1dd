"""A small local LLM server for tests: real HTTP on 127.0.0.1, scripted replies.

It speaks the wire formats ptc's providers use through litellm:

- OpenAI chat completions (``POST .../chat/completions``): the reply's usage carries
  ``prompt_tokens_details.cached_tokens``;
- Anthropic messages (``POST .../v1/messages``): usage with ``input_tokens`` (uncached),
  ``cache_read_input_tokens`` and ``cache_creation_input_tokens``;
- Ollama chat (``POST /api/chat``, litellm's ``ollama_chat/``): ``prompt_eval_count`` and
  ``eval_count``.

A reply with ``tool_calls`` is a function call: OpenAI ``tool_calls`` (arguments as JSON
text) or Anthropic ``tool_use`` blocks, with ids unique within the server's conversation.

Every request is recorded (path, headers, JSON body) so tests can assert on what was sent.
Tests reach it through ptc's LiteLLM client with ``api_base=server.openai_base`` (or
``server.url`` for Anthropic): litellm's own HTTP client, no mocks.

    with LLMServer([ServedReply("```clojure\\n(return 1)\\n```", cached_tokens=64)]) as server:
        LiteLLM("openai/x", api_base=server.openai_base, api_key="k").complete(messages)
        server.requests[0].body["messages"]
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Sequence


@dataclass(frozen=True)
class ServedReply:
    """One scripted answer and the usage the server reports for it."""

    text: str
    prompt_tokens: int = 1200  # the whole prompt, cached part included (OpenAI's meaning)
    completion_tokens: int = 40
    cached_tokens: int = 0  # read from the cache (OpenAI cached_tokens / Anthropic cache_read_input_tokens)
    cache_write_tokens: int = 0  # Anthropic cache_creation_input_tokens
    tool_calls: tuple[tuple[str, dict[str, Any]], ...] = ()  # (name, arguments): a function-calling reply


@dataclass(frozen=True)
class Recorded:
    """A request the server received."""

    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: Any


@dataclass
class LLMServer:
    """Answers with `replies` in order; past the end it answers HTTP 400 (not retried)."""

    replies: Sequence[ServedReply | str]
    model: str = "local-model"
    requests: list[Recorded] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._replies = [r if isinstance(r, ServedReply) else ServedReply(r) for r in self.replies]
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
                                        name="llm-server", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def openai_base(self) -> str:
        return self.url + "/v1"

    def __enter__(self) -> "LLMServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _next(self) -> tuple[int, ServedReply | None]:
        with self._lock:
            answered = sum(1 for r in self.requests if r.method == "POST")
            return answered, self._replies[answered - 1] if answered <= len(self._replies) else None

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_: Any) -> None:  # keep test output clean
                pass

            def _send(self, status: int, payload: Any) -> None:
                body = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                server.requests.append(Recorded("GET", self.path, _headers(self.headers), None))
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [{"id": server.model, "object": "model"}]})
                else:
                    self._send(404, {"error": {"message": f"no route {self.path}"}})

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"null")
                except json.JSONDecodeError:
                    body = raw.decode("utf-8", "replace")
                with server._lock:
                    server.requests.append(Recorded("POST", self.path, _headers(self.headers), body))
                number, reply = server._next()
                path = self.path.split("?", 1)[0].rstrip("/")
                if reply is None:
                    self._send(400, {"error": {"message": "the test server has no more scripted replies",
                                               "type": "invalid_request_error"}})
                elif path.endswith("/chat/completions"):
                    self._send(200, _openai(reply, server.model, number))
                elif path.endswith("/messages"):
                    self._send(200, _anthropic(reply, str((body or {}).get("model", server.model)), number))
                elif path == "/api/chat":
                    self._send(200, _ollama(reply, str((body or {}).get("model", server.model))))
                else:
                    self._send(404, {"error": {"message": f"no route {self.path}"}})

        return Handler


def _openai(reply: ServedReply, model: str, number: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if reply.tool_calls:
        message["tool_calls"] = [{"id": f"call_{number}_{i}", "type": "function",
                                  "function": {"name": name, "arguments": json.dumps(args)}}
                                 for i, (name, args) in enumerate(reply.tool_calls)]
    return {
        "id": "chatcmpl-test", "object": "chat.completion", "created": 1_700_000_000, "model": model,
        "choices": [{"index": 0, "finish_reason": "tool_calls" if reply.tool_calls else "stop", "message": message}],
        "usage": {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens,
                  "total_tokens": reply.prompt_tokens + reply.completion_tokens,
                  "prompt_tokens_details": {"cached_tokens": reply.cached_tokens}},
    }


def _anthropic(reply: ServedReply, model: str, number: int) -> dict[str, Any]:
    uncached = reply.prompt_tokens - reply.cached_tokens - reply.cache_write_tokens
    content: list[dict[str, Any]] = [{"type": "text", "text": reply.text}] if reply.text else []
    content += [{"type": "tool_use", "id": f"toolu_{number}_{i}", "name": name, "input": args}
                for i, (name, args) in enumerate(reply.tool_calls)]
    return {
        "id": "msg_test", "type": "message", "role": "assistant", "model": model, "content": content,
        "stop_reason": "tool_use" if reply.tool_calls else "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": uncached, "output_tokens": reply.completion_tokens,
                  "cache_read_input_tokens": reply.cached_tokens,
                  "cache_creation_input_tokens": reply.cache_write_tokens},
    }


def _ollama(reply: ServedReply, model: str) -> dict[str, Any]:
    return {"model": model, "created_at": "2026-01-01T00:00:00Z", "done": True, "done_reason": "stop",
            "message": {"role": "assistant", "content": reply.text},
            "prompt_eval_count": reply.prompt_tokens, "eval_count": reply.completion_tokens}


def _headers(message: Any) -> dict[str, str]:
    return {name.lower(): value for name, value in message.items()}
