"""Backends by name, so configs and CLIs pick them without if/elif chains."""

from __future__ import annotations

from ..errors import ConfigError
from .base import ChatModel
from .embed import Embedder, LocalEmbedder, OpenAIEmbedder
from .local_backend import LocalChat
from .openai_backend import OpenAIChat

BACKENDS: dict[str, type[ChatModel]] = {"openai": OpenAIChat, "local": LocalChat}
# What each backend accepts unless an endpoint declares otherwise (``vision = false`` for a
# text-only model behind an OpenAI-compatible server; the embedded model reads no pixels).
BACKEND_CAPABILITIES: dict[str, tuple[str, ...]] = {"openai": ("vision", "audio", "judge"), "local": ()}


def backend(name: str) -> type[ChatModel]:
    from .config import did_you_mean

    try:
        return BACKENDS[name]
    except KeyError:
        raise ConfigError(f"unknown backend '{name}'" + did_you_mean(name, BACKENDS),
                          hint=f"choose one of {', '.join(sorted(BACKENDS))}") from None


EMBEDDERS = {"local": lambda endpoint: LocalEmbedder(), "openai": OpenAIEmbedder}


def embedder_for(endpoint) -> Embedder:
    """The embedder of an endpoint's backend (the local e5 model without one)."""
    return EMBEDDERS["local" if endpoint is None else endpoint.backend](endpoint)
