"""The embedded local LLM: Qwen2.5-Coder 0.5B instruct (GGUF, inside pip wheels) on xllamacpp.

Text only. Images reach it as what perception read from them (an ImagePart's ``note``, else the
on-screen text OCR finds), audio as its transcript. JSON schemas become llama.cpp grammars, so the
small model's JSON is well-formed by construction. Loaded once per process, on first use.
"""

from __future__ import annotations

import asyncio
import os
import threading

from ..errors import ModelError, require
from .base import ChatModel, Completion
from .types import AudioPart, ImagePart, Message

_SERVERS: dict[str, object] = {}
_LOAD_LOCK = threading.Lock()
_CALL_LOCKS: dict[str, threading.Lock] = {}


_PALETTE = {"black": (0, 0, 0), "white": (255, 255, 255), "grey": (128, 128, 128), "red": (220, 30, 30),
            "green": (30, 170, 60), "blue": (30, 60, 220), "yellow": (230, 210, 30), "orange": (240, 140, 20),
            "purple": (130, 40, 160), "brown": (120, 70, 30), "pink": (240, 130, 180), "cyan": (30, 200, 210)}
_SEEN: dict[str, str] = {}


def _colour(image) -> str:
    import numpy as np

    r, g, b = np.asarray(image.convert("RGB").resize((32, 32)), dtype=float).reshape(-1, 3).mean(axis=0)
    return min(_PALETTE, key=lambda n: sum((x - y) ** 2 for x, y in zip(_PALETTE[n], (r, g, b))))


def describe_image(part: ImagePart) -> str:
    """What the text-only model is told about an image: the caller's note (e.g. its timestamp),
    the on-screen text OCR reads and the average colour. Cached by pixel content."""
    import hashlib

    if not part.read:
        return f"[image: {part.note}]"
    image = part.pil()
    key = hashlib.sha256(image.tobytes()).hexdigest()
    if key not in _SEEN:
        from ..perception.ocr import read_image

        lines = [b.text for b in read_image(image)]
        text = f"on-screen text: {' | '.join(lines)}" if lines else "no readable text"
        _SEEN[key] = f"{text}; average colour: {_colour(image)}"
    return f"[image: {part.note + '; ' if part.note else ''}{_SEEN[key]}]"


def describe_audio(part: AudioPart) -> str:
    from ..perception.asr import transcribe

    text = " ".join(s.text for s in transcribe(part.path))
    return f"[audio; transcript: {text}]" if text else "[audio; no speech]"


def default_threads() -> int:
    """llama.cpp threads: the endpoint's ``threads``, else ``$VIDSLEUTH_THREADS``, else one core
    fewer than the machine has (at least 1, at most 4). llama.cpp busy-waits: on 2 cores the 0.5B
    model made 44 tokens/s with 2 threads and 26 with 1 on an idle machine, but 14 against 26 with
    one core busy (perception, a second question) — the usual state of an agent run."""
    return int(os.environ.get("VIDSLEUTH_THREADS", "0")) or max(1, min(4, (os.cpu_count() or 2) - 1))


def load_server(asset: str, threads: int = 0):
    """The xllamacpp server for ``asset``, loaded once per process (the first caller's thread count wins)."""
    with _LOAD_LOCK:
        if asset not in _SERVERS:
            xl = require("xllamacpp", "local")
            from ..assets import asset_file

            params = xl.CommonParams()
            params.model.path = str(asset_file(asset))  # joined and sha256-checked
            params.n_ctx = int(os.environ.get("VIDSLEUTH_LOCAL_CTX", "8192"))
            params.cpuparams.n_threads = threads or default_threads()
            params.verbosity = -1
            _SERVERS[asset] = xl.Server(params)
            _CALL_LOCKS[asset] = threading.Lock()
        return _SERVERS[asset]


class LocalChat(ChatModel):
    backend = "local"

    def build(self, messages: list[Message], params: dict) -> dict:
        out = []
        for m in messages:
            pieces = []
            for p in m.content:
                if isinstance(p, str):
                    pieces.append(p)
                elif isinstance(p, ImagePart):
                    pieces.append(describe_image(p))
                elif isinstance(p, AudioPart):
                    pieces.append(describe_audio(p))
            out.append({"role": m.role, "content": "\n".join(pieces)})
        body = {"messages": out, "max_tokens": params["max_tokens"], "temperature": params["temperature"],
                "seed": params["seed"] if params.get("seed") is not None else 0}
        if params.get("schema") is not None:
            body["response_format"] = {"type": "json_schema", "json_schema": {"name": "answer", "schema": params["schema"]}}
        return body

    def sent_images(self, messages: list[Message], body: dict) -> list[tuple[ImagePart, bytes, str]]:
        """The model is shown each image's description (cached by ``describe_image``)."""
        return [(p, describe_image(p).encode("utf-8"), "text") for m in messages for p in m.content
                if isinstance(p, ImagePart)]

    def _call(self, body: dict) -> Completion:
        server = load_server(self.endpoint.model, self.endpoint.threads)
        with _CALL_LOCKS[self.endpoint.model]:
            result = server.handle_chat_completions(dict(body))
        if not isinstance(result, dict) or "choices" not in result:
            detail = result.get("error") if isinstance(result, dict) else result
            raise ModelError(f"local model {self.endpoint.model} failed: {detail}")
        usage = result.get("usage") or {}
        return Completion(text=result["choices"][0]["message"].get("content") or "",
                          tokens_in=int(usage.get("prompt_tokens") or 0),
                          tokens_out=int(usage.get("completion_tokens") or 0))

    async def complete(self, body: dict) -> Completion:
        return await asyncio.to_thread(self._call, body)
