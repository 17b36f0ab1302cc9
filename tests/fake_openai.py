"""A fake OpenAI chat-completions server, so tests run the real ``openai`` client over real HTTP.

Start it with the ``fake_openai`` fixture (or ``FakeOpenAI().start()``), point a judge at ``server.base_url``
and script what it answers:

- ``server.queue(reply, ...)`` answers the next requests in order (then the default applies);
- ``server.default = fn`` answers every other request: ``fn(body) -> Reply``;
- ``Reply`` helpers: ``verdict("MATCH")``, ``status(429, retry_after=0)``, ``status(500)``, ``text("garbage")``,
  ``payload({...})`` (any JSON content), ``refusal("...")``; ``delay=`` makes a reply slow.

It counts requests (``server.requests``, the parsed bodies) and the largest number in flight at once
(``server.max_in_flight``). Benchmarks use it too, with ``latency=`` added to every reply.
"""

from __future__ import annotations

import collections
import itertools
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterator

import pytest


@dataclass
class Reply:
    """One scripted HTTP reply."""

    status: int = 200
    content: str | None = '{"verdict": "NO_MATCH", "reason": "fake default"}'
    """The assistant message content (for status 200)."""
    refusal: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    """Seconds to wait before answering (longer than the client timeout = a timeout)."""
    raw_body: bytes | None = None
    """Send these bytes as the whole HTTP body instead of a chat-completion object."""
    usage: tuple[int, int] = (50, 10)
    finish_reason: str = "stop"


def verdict(value: str, reason: str = "fake", **kw: Any) -> Reply:
    return Reply(content=json.dumps({"verdict": value, "reason": reason}), **kw)


def payload(obj: Any, **kw: Any) -> Reply:
    return Reply(content=json.dumps(obj), **kw)


def text(content: str, **kw: Any) -> Reply:
    return Reply(content=content, **kw)


def refusal(message: str = "I can't help with that.", **kw: Any) -> Reply:
    return Reply(content=None, refusal=message, **kw)


def status(code: int, retry_after: float | None = None, **kw: Any) -> Reply:
    headers = {"retry-after": str(retry_after)} if retry_after is not None else {}
    body = json.dumps({"error": {"message": f"fake error {code}", "type": "fake", "code": str(code)}}).encode()
    return Reply(status=code, headers=headers, raw_body=body, **kw)


class FakeOpenAI:
    """A threaded HTTP server on 127.0.0.1 speaking ``POST /v1/chat/completions``."""

    def __init__(self, latency: float = 0.0) -> None:
        self.latency = latency
        self.default: Callable[[dict[str, Any]], Reply] = lambda body: Reply()
        self.requests: list[dict[str, Any]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._queue: collections.deque[Reply] = collections.deque()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ids = itertools.count(1)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- scripting ---------------------------------------------------------------------------------
    def queue(self, *replies: Reply) -> None:
        """Answer the next requests with these replies, in order."""
        with self._lock:
            self._queue.extend(replies)

    def reset_counts(self) -> None:
        with self._lock:
            self.requests.clear()
            self.max_in_flight = 0

    @property
    def count(self) -> int:
        return len(self.requests)

    @property
    def base_url(self) -> str:
        assert self._server is not None, "server not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    # -- lifecycle ---------------------------------------------------------------------------------
    def start(self) -> "FakeOpenAI":
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # one buffered write per reply and no Nagle: otherwise headers and body go out in two
            # packets and delayed ACKs add ~40 ms to every call, which would distort benchmarks
            wbufsize = 64 * 1024
            disable_nagle_algorithm = True

            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server naming)
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, b'{"error": {"message": "not found"}}', {})
                    return
                try:
                    body = json.loads(raw)
                except ValueError:
                    self._send(400, b'{"error": {"message": "bad json"}}', {})
                    return
                reply = fake._next(body)
                try:
                    wait = reply.delay + fake.latency
                    if wait:
                        fake._stop.wait(wait)
                    data, code = fake._render(reply, body)
                    self._send(code, data, reply.headers)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout); nothing to answer
                finally:
                    with fake._lock:
                        fake.in_flight -= 1

            def _send(self, code: int, data: bytes, headers: dict[str, str]) -> None:
                self.send_response(code)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)
                self.wfile.flush()

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        # a short poll interval keeps shutdown (one per test) fast
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> "FakeOpenAI":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- internals ---------------------------------------------------------------------------------
    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            reply = self._queue.popleft() if self._queue else None
        return reply if reply is not None else self.default(body)

    def _render(self, reply: Reply, body: dict[str, Any]) -> tuple[bytes, int]:
        if reply.raw_body is not None:
            return reply.raw_body, reply.status
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.refusal is not None:
            message["refusal"] = reply.refusal
        completion = {
            "id": f"chatcmpl-fake-{next(self._ids)}",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason, "logprobs": None}],
            "usage": {
                "prompt_tokens": reply.usage[0],
                "completion_tokens": reply.usage[1],
                "total_tokens": sum(reply.usage),
            },
        }
        return json.dumps(completion).encode(), reply.status


def user_text(body: dict[str, Any]) -> str:
    """The user message of a request body (for responders that decide from the prompt)."""
    return "\n".join(m.get("content") or "" for m in body.get("messages", []) if m.get("role") == "user")


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A started fake server, stopped after the test."""
    server = FakeOpenAI().start()
    try:
        yield server
    finally:
        server.stop()
