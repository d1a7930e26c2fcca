"""A scripted OpenAI-compatible HTTP server on loopback, for deterministic agent tests.

Real HTTP through the real client: each POST to ``/v1/chat/completions`` takes the next step of
the script (or asks a function), and every request is recorded so a test can inspect exactly what
the client sent. Steps can answer text, fail with a status and headers, stall, or drop the
connection. Use it for your own agents too:

    with ScriptedServer(["first answer", {"status": 429, "headers": {"Retry-After": "1"}}, "ok"]) as srv:
        endpoint = Endpoint(name="fake", backend="openai", base_url=srv.base_url, model="m")
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

Step = Any  # str (answer text) | dict (see _respond) | callable(request_json) -> str | dict


def completion(text: str, tokens_in: int = 10, tokens_out: int | None = None, model: str = "scripted") -> dict:
    return {
        "id": "chatcmpl-scripted", "object": "chat.completion", "created": int(time.time()), "model": model,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": tokens_in, "completion_tokens": tokens_out if tokens_out is not None else max(1, len(text.split())),
                  "total_tokens": tokens_in + (tokens_out or max(1, len(text.split())))},
    }


def _handler_for(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    """The request handler class bound to one ``ScriptedServer`` (its script, records and counters)."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go in two writes: no 40 ms stall

        def log_message(self, *args):  # keep test output clean
            pass

        def do_GET(self):
            if self.path.rstrip("/").endswith("/stats"):  # for a server run in another process
                self._send(200, {"calls": server.calls, "max_in_flight": server.max_in_flight})
            elif self.path.rstrip("/").endswith("/models"):
                self._send(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})
            else:
                self._send(404, {"error": {"message": "not found"}})

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                self._send(400, {"error": {"message": "invalid JSON body"}})
                return
            if self.path.rstrip("/").endswith("/embeddings"):
                self._send(200, server._embeddings(body))
                return
            with server._lock:
                n = server._n
                server._n += 1
                server.requests.append(body)
                server.headers.append(dict(self.headers))
                server.in_flight += 1
                server.max_in_flight = max(server.max_in_flight, server.in_flight)
            try:
                server._respond(self, server._step(body, n))
            finally:
                with server._lock:
                    server.in_flight -= 1

        def _send(self, status: int, payload: Any, headers: dict | None = None):
            data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, str(v))
            self.end_headers()
            try:
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

    return Handler


class ScriptedServer:
    """``steps``: a list consumed in order (the last step repeats when ``repeat_last``), or a
    function of (request_json, call_number) returning a step."""

    def __init__(self, steps: list[Step] | Callable[[dict, int], Step], *, repeat_last: bool = False):
        self.steps = steps
        self.repeat_last = repeat_last
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        self._n = 0
        Handler = _handler_for(self)
        self._handler = Handler
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    # -- script
    def _step(self, body: dict, n: int) -> Step:
        if callable(self.steps):
            return self.steps(body, n)
        if n < len(self.steps):
            step = self.steps[n]
        elif self.repeat_last and self.steps:
            step = self.steps[-1]
        else:
            return {"status": 500, "json": {"error": {"message": f"script exhausted at call {n}"}}}
        return step(body) if callable(step) else step

    def _respond(self, handler, step: Step) -> None:
        if isinstance(step, str):
            step = {"content": step}
        if step.get("delay"):
            time.sleep(step["delay"])
        if step.get("drop"):
            handler.close_connection = True
            handler.connection.shutdown(2)
            return
        status = step.get("status", 200)
        payload = step.get("json") or step.get("raw") or completion(step.get("content", ""), step.get("tokens_in", 10),
                                                                    step.get("tokens_out"))
        handler._send(status, payload, step.get("headers"))

    def _embeddings(self, body: dict) -> dict:
        texts = body.get("input") or []
        texts = [texts] if isinstance(texts, str) else texts
        data = []
        for i, t in enumerate(texts):  # deterministic bag-of-letters vectors
            vec = [0.0] * 26
            for ch in str(t).lower():
                if "a" <= ch <= "z":
                    vec[ord(ch) - 97] += 1.0
            data.append({"object": "embedding", "index": i, "embedding": vec})
        return {"object": "list", "data": data, "model": body.get("model", ""), "usage": {"prompt_tokens": 0}}

    # -- lifecycle
    @property
    def base_url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    @property
    def calls(self) -> int:
        return len(self.requests)

    def __enter__(self) -> "ScriptedServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def call_endpoint(payload: tuple[str, int, str]) -> dict:
    """Send one chat message to ``base_url`` through an endpoint with ``max_concurrency``; a
    module-level function, so tests can run it in worker processes and Ray tasks to check that
    per-endpoint limits hold across them."""
    from .models import Endpoint, ModelConfig, Models

    base_url, limit, text = payload
    cfg = ModelConfig({"scripted": Endpoint(name="scripted", backend="openai", base_url=base_url, model="m",
                                            max_concurrency=limit, max_retries=0)}, {"default": "scripted"})
    reply = Models(cfg, cache=False).for_role("default").chat(text)
    return {"text": reply.text}
