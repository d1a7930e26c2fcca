"""The one place every model call goes through.

``ChatModel.achat`` builds the backend's request, answers it from the cache when it can, calls
the backend under the endpoint's concurrency limit, parses and validates JSON when a schema is
given (retrying once with the validation error shown to the model), and records the call in the
run store. Backends only turn messages into a request and a request into text and token counts.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import time
from dataclasses import dataclass, replace
from typing import Any

from ..errors import ModelError, ModelOutputError, VidsleuthError
from ..store import CallRecord, RunStore
from .cache import ResponseCache
from .config import Endpoint
from .jsonout import parse, repair_prompt
from .types import ImagePart, Message, Reply, normalise_messages


@dataclass(frozen=True)
class Completion:
    text: str
    tokens_in: int
    tokens_out: int


class _LoopState:
    """Asyncio objects belong to one event loop; sync callers make a new loop per call."""

    def __init__(self):
        self.loop = None
        self.semaphore: asyncio.Semaphore | None = None
        self.resources: dict[str, Any] = {}

    def get(self, limit: int) -> "_LoopState":
        loop = asyncio.get_running_loop()
        if self.loop is not loop:
            self.loop = loop
            self.semaphore = asyncio.Semaphore(max(1, limit))
            self.resources = {}
        return self


class ChatModel:
    """A chat endpoint; subclasses implement ``build`` and ``complete``."""

    backend = "base"

    def __init__(self, endpoint: Endpoint, *, cache: ResponseCache | None = None,
                 store: RunStore | None = None, run_id: int | None = None, role: str = "default"):
        self.endpoint = endpoint
        self.cache = cache
        self.store = store
        self.run_id = run_id
        self.role = role
        self._state = _LoopState()

    # -- backend hooks
    def build(self, messages: list[Message], params: dict) -> dict:
        """The request body as it will be sent (its hash is the cache key)."""
        raise NotImplementedError

    async def complete(self, body: dict) -> Completion:
        raise NotImplementedError

    def sent_images(self, messages: list[Message], body: dict) -> list[tuple[Any, bytes, str]]:
        """(image part, the bytes this backend sends for it, "jpeg" | "text") for the frame manifest."""
        return []

    def frames_sent(self, messages: list[Message], body: dict) -> tuple:
        """The frame manifest records of one request (empty when it carries no image)."""
        if not any(isinstance(p, ImagePart) for m in messages for p in m.content):
            return ()
        from ..manifest import image_record, note

        records = tuple(image_record(p, data, sent, self.role, self.endpoint.model)
                        for p, data, sent in self.sent_images(messages, body))
        note(records)
        return records

    # -- pipeline
    def request_key(self, body: dict) -> str:
        canonical = json.dumps({"backend": self.backend, "url": self.endpoint.base_url,
                                "model": self.endpoint.model, "body": body},
                               sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    async def _one(self, messages: list[Message], params: dict, use_cache: bool) -> tuple[Reply, str]:
        body = self.build(messages, params)
        key = self.request_key(body)
        extra = {"frames": self.frames_sent(messages, body)}
        if use_cache and self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                return Reply(text=hit[0], tokens_in=hit[1], tokens_out=hit[2], cached=True,
                             model=self.endpoint.model, endpoint=self.endpoint.name, extra=extra), key
        from .limits import aslot

        async with aslot(self.endpoint.name, self.endpoint.max_concurrency):  # holds across threads and processes
            t0 = time.perf_counter()
            try:
                done = await asyncio.wait_for(self.complete(body), timeout=self.endpoint.timeout * (self.endpoint.max_retries + 1) + 60)
            except asyncio.TimeoutError:
                raise ModelError(f"endpoint {self.endpoint.describe()}: no answer in time") from None
            seconds = time.perf_counter() - t0
        from ..errors import redact_known

        done = replace(done, text=redact_known(done.text))  # a key a server echoes back goes no further
        if self.cache is not None:
            self.cache.put(key, self.endpoint.name, self.endpoint.model, done.text, done.tokens_in, done.tokens_out)
        return Reply(text=done.text, tokens_in=done.tokens_in, tokens_out=done.tokens_out, seconds=seconds,
                     model=self.endpoint.model, endpoint=self.endpoint.name, extra=extra), key

    def _record(self, reply: Reply, key: str, parse_failures: int = 0, error: str = "") -> None:
        if self.store is None:
            return
        cost = 0.0 if reply.cached else self.endpoint.cost(reply.tokens_in, reply.tokens_out)
        self.store.record(self.run_id, CallRecord(
            role=self.role, endpoint=self.endpoint.name, model=self.endpoint.model, request_hash=key,
            tokens_in=reply.tokens_in, tokens_out=reply.tokens_out, seconds=round(reply.seconds, 4),
            cached=reply.cached, parse_failures=parse_failures, error=error, cost=cost))

    async def achat(self, messages: Any, *, schema: dict | None = None, max_tokens: int = 1024,
                    temperature: float = 0.0, seed: int | None = None, use_cache: bool = True) -> Reply:
        msgs = normalise_messages(messages)
        params = {"max_tokens": max_tokens, "temperature": temperature, "seed": seed, "schema": schema}
        try:
            reply, key = await self._one(msgs, params, use_cache)
        except VidsleuthError as exc:
            self._record(Reply(text="", model=self.endpoint.model, endpoint=self.endpoint.name), "", error=str(exc))
            raise
        if schema is None:
            self._record(reply, key)
            return reply
        try:
            data = parse(reply.text, schema)
            self._record(reply, key)
            return replace(reply, data=data)
        except ModelOutputError as first:
            self._record(reply, key, parse_failures=1)
            retry_msgs = msgs + [Message.of("assistant", reply.text), Message.of("user", repair_prompt(first, schema))]
            second, key2 = await self._one(retry_msgs, params, use_cache)
            try:
                data = parse(second.text, schema)
            except ModelOutputError as again:
                self._record(second, key2, parse_failures=1, error="unparseable output")
                raise ModelOutputError(
                    f"endpoint {self.endpoint.name}: {again} (after one repair attempt)", raw=second.text) from None
            self._record(second, key2)
            second.extra["frames"] = reply.extra.get("frames", ()) + second.extra.get("frames", ())
            return replace(second, data=data, repaired=True, tokens_in=reply.tokens_in + second.tokens_in,
                           tokens_out=reply.tokens_out + second.tokens_out, seconds=reply.seconds + second.seconds)

    async def aclose(self) -> None:
        """Close per-loop resources (HTTP connections)."""
        for res in list(self._state.resources.values()):
            close = getattr(res, "aclose", None)
            if close is not None:
                await close()
        self._state.resources.clear()

    def chat(self, messages: Any, **kw) -> Reply:
        """Synchronous ``achat`` for scripts and threads (inside async code, await ``achat``).
        Runs on this process's one background event loop, so connections are reused."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return run_sync(self, self.achat(messages, **kw))
        raise VidsleuthError("chat() was called inside a running event loop", hint="use `await model.achat(...)`")


_LOOP: asyncio.AbstractEventLoop | None = None
_LOOP_PID = 0
_LOOP_LOCK = threading.Lock()


def process_loop() -> asyncio.AbstractEventLoop:
    """The process's event loop for synchronous callers, on a daemon thread (one per process,
    made again after a fork)."""
    global _LOOP, _LOOP_PID
    import os
    import threading

    with _LOOP_LOCK:
        if _LOOP is None or _LOOP_PID != os.getpid() or _LOOP.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="vidsleuth-models", daemon=True).start()
            _LOOP, _LOOP_PID = loop, os.getpid()
        return _LOOP


def run_sync(model: ChatModel, coro):
    return asyncio.run_coroutine_threadsafe(coro, process_loop()).result()
