"""Any OpenAI-compatible server: vLLM, SGLang, Ollama, LM Studio, OpenAI, Gemini's compatible
endpoint. Images go as base64 JPEG data URLs, audio as ``input_audio``.

Retries use exponential backoff with full jitter on 429, 5xx, timeouts and dropped connections,
and honour ``Retry-After``. Each attempt has a hard timeout. The API key is read from the
environment at call time and scrubbed from every error message.
"""

from __future__ import annotations

import asyncio
import base64
import email.utils
import random
import time
import weakref
from typing import Any

import httpx

from ..errors import ModelError
from .base import ChatModel, Completion
from .types import AudioPart, ImagePart, Message, data_url

_CLIENTS: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict]" = weakref.WeakKeyDictionary()
RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}
MAX_BACKOFF = 30.0


def retry_after_seconds(value: str | None) -> float | None:
    """``Retry-After`` as seconds (a number or an HTTP date)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
        return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def backoff(attempt: int, base: float = 0.5) -> float:
    """Full jitter: uniform in [0, base * 2**attempt], capped."""
    return random.uniform(0, min(MAX_BACKOFF, base * (2 ** attempt)))


class OpenAIChat(ChatModel):
    backend = "openai"

    def _part(self, part) -> dict:
        ep = self.endpoint
        if isinstance(part, str):
            return {"type": "text", "text": part}
        if isinstance(part, ImagePart):
            jpeg = part.jpeg(part.max_side or ep.image_max_side, ep.image_quality)
            return {"type": "image_url", "image_url": {"url": data_url("image/jpeg", jpeg)}}
        if isinstance(part, AudioPart):
            fmt, data = part.payload()
            return {"type": "input_audio", "input_audio": {"data": base64.b64encode(data).decode("ascii"), "format": fmt}}
        raise TypeError(type(part))

    def sent_images(self, messages: list[Message], body: dict) -> list[tuple[ImagePart, bytes, str]]:
        """Image parts in message order pair with the body's image_url parts in the same order."""
        parts = [p for m in messages for p in m.content if isinstance(p, ImagePart)]
        urls = [c["image_url"]["url"] for m in body["messages"] if isinstance(m["content"], list)
                for c in m["content"] if c.get("type") == "image_url"]
        return [(p, base64.b64decode(u.split(",", 1)[1]), "jpeg") for p, u in zip(parts, urls)]

    def build(self, messages: list[Message], params: dict) -> dict:
        out = []
        for m in messages:
            if all(isinstance(p, str) for p in m.content):
                out.append({"role": m.role, "content": "\n".join(m.content)})
            else:
                out.append({"role": m.role, "content": [self._part(p) for p in m.content]})
        body: dict[str, Any] = {"model": self.endpoint.model, "messages": out,
                                "max_tokens": params["max_tokens"], "temperature": params["temperature"]}
        if params.get("seed") is not None:
            body["seed"] = params["seed"]
        if params.get("schema") is not None and self.endpoint.json_mode:
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "answer", "schema": params["schema"]}}
        return body

    def _client(self) -> httpx.AsyncClient:
        """One client per event loop and endpoint, shared by every model object of the endpoint."""
        per_loop = _CLIENTS.setdefault(asyncio.get_running_loop(), {})
        key = (self.endpoint.name, self.endpoint.base_url)
        client = per_loop.get(key)
        if client is None or client.is_closed:
            limits = httpx.Limits(max_connections=max(1, self.endpoint.max_concurrency))
            client = httpx.AsyncClient(timeout=self.endpoint.timeout, limits=limits)
            per_loop[key] = client
            self._state.get(self.endpoint.max_concurrency).resources["client"] = client
        return client

    def _scrub(self, text: str) -> str:
        key = self.endpoint.api_key()
        return text.replace(key, "***") if key else text

    async def complete(self, body: dict) -> Completion:
        ep = self.endpoint
        url = ep.base_url.rstrip("/") + "/chat/completions"
        headers = {"Content-Type": "application/json"}
        key = ep.api_key()
        if ep.api_key_env and not key:
            raise ModelError(f"endpoint {ep.describe()}: the environment variable {ep.api_key_env} is not set",
                             hint=f"export {ep.api_key_env}=... (the key is read from there, never from a file)")
        if key:
            headers["Authorization"] = f"Bearer {key}"
        attempts = ep.max_retries + 1
        last = ""
        for attempt in range(attempts):
            wait = None
            try:
                resp = await asyncio.wait_for(self._client().post(url, json=body, headers=headers), timeout=ep.timeout)
            except (asyncio.TimeoutError, httpx.TimeoutException):
                last = f"timed out after {ep.timeout:g} s"
            except httpx.TransportError as exc:
                last = f"connection failed ({type(exc).__name__}: {self._scrub(str(exc)) or 'no detail'})"
            else:
                if resp.status_code == 200:
                    return self._parse(resp)
                snippet = self._scrub(resp.text[:300].strip())
                last = f"HTTP {resp.status_code}: {snippet}"
                if resp.status_code not in RETRY_STATUS:
                    hint = ("check api_key_env and the key" if resp.status_code in (401, 403)
                            else "check base_url and the model name" if resp.status_code == 404 else None)
                    raise ModelError(f"endpoint {ep.describe()} answered {last}", hint=hint)
                wait = retry_after_seconds(resp.headers.get("retry-after"))
            if attempt + 1 < attempts:
                await asyncio.sleep(min(MAX_BACKOFF * 2, wait) if wait is not None else backoff(attempt))
        raise ModelError(f"endpoint {ep.describe()} failed after {attempts} attempts; last: {last}",
                         hint="is the server running and reachable? see `vidsleuth models`")

    def _parse(self, resp: httpx.Response) -> Completion:
        try:
            data = resp.json()
            message = data["choices"][0]["message"]
            content = message.get("content") or ""
            if isinstance(content, list):  # some servers return content parts
                content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
            usage = data.get("usage") or {}
            return Completion(text=content, tokens_in=int(usage.get("prompt_tokens") or 0),
                              tokens_out=int(usage.get("completion_tokens") or 0))
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
            raise ModelError(f"endpoint {self.endpoint.describe()} sent an unexpected response "
                             f"({type(exc).__name__}): {self._scrub(resp.text[:200])}") from None
