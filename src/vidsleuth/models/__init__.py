"""Model layer: chat (multimodal) and embeddings behind one interface, with cache, retries,
concurrency limits and cost accounting. ``Models`` hands out a model per role."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..store import RunStore
from .base import ChatModel, Completion
from .cache import ResponseCache
from .config import ROLES, Endpoint, ModelConfig, load_config
from .embed import Embedder
from .registry import BACKENDS, backend, embedder_for
from .types import AudioPart, ImagePart, Message, Reply


class Models:
    """Config + cache + run store: ``models.for_role("planner").chat(...)``."""

    def __init__(self, config: ModelConfig | str | Path | None = None, *, cache: bool | ResponseCache = True,
                 store: RunStore | None = None, run_id: int | None = None, overrides: dict[str, str] | None = None):
        self.config = config if isinstance(config, ModelConfig) else load_config(config)
        self.cache = cache if isinstance(cache, ResponseCache) else (ResponseCache() if cache else None)
        self.store = store
        self.run_id = run_id
        self.overrides = dict(overrides or {})

    def endpoint_for(self, role: str) -> Endpoint:
        name = self.overrides.get(role) or self.overrides.get("default")
        return self.config.endpoint(name) if name else self.config.for_role(role)

    def get(self, name: str, role: str = "default", **changes) -> ChatModel:
        """The endpoint ``name`` as a model; ``changes`` (e.g. ``timeout``, ``max_retries``) apply
        to this model only, never to the configured endpoint."""
        ep = self.config.endpoint(name)
        ep = replace(ep, **changes) if changes else ep
        return backend(ep.backend)(ep, cache=self.cache, store=self.store, run_id=self.run_id, role=role)

    def for_role(self, role: str) -> ChatModel:
        ep = self.endpoint_for(role)
        return backend(ep.backend)(ep, cache=self.cache, store=self.store, run_id=self.run_id, role=role)

    def bind(self, store: RunStore | None, run_id: int | None) -> "Models":
        """A view recording into ``store``/``run_id``; the shared object is left as it was."""
        view = Models.__new__(Models)
        view.config, view.cache, view.overrides = self.config, self.cache, self.overrides
        view.store, view.run_id = store, run_id
        return view

    def embedder(self, name: str | None = None) -> Embedder:
        return embedder_for(self.config.endpoint(name) if name and name != "local" else None)


__all__ = ["AudioPart", "BACKENDS", "ChatModel", "Completion", "Embedder", "Endpoint", "ImagePart", "Message",
           "ModelConfig", "Models", "ROLES", "Reply", "ResponseCache", "load_config"]
