"""Backends by name, so configs and CLIs pick them without if/elif chains."""

from __future__ import annotations

from ..errors import ConfigError, did_you_mean
from .base import ChatModel
from .config import BACKEND_CAPABILITIES  # noqa: F401  (the names and capabilities, as data)
from .embed import Embedder, LocalEmbedder, OpenAIEmbedder
from .local_backend import LocalChat
from .openai_backend import OpenAIChat

# The class of each backend named in ``config.BACKEND_CAPABILITIES``.
BACKENDS: dict[str, type[ChatModel]] = {"openai": OpenAIChat, "local": LocalChat}


def backend(name: str) -> type[ChatModel]:
    try:
        return BACKENDS[name]
    except KeyError:
        raise ConfigError(f"unknown backend '{name}'" + did_you_mean(name, BACKENDS),
                          hint=f"choose one of {', '.join(sorted(BACKENDS))}") from None


EMBEDDERS = {"local": lambda endpoint: LocalEmbedder(), "openai": OpenAIEmbedder}


def embedder_for(endpoint) -> Embedder:
    """The embedder of an endpoint's backend (the local e5 model without one)."""
    return EMBEDDERS["local" if endpoint is None else endpoint.backend](endpoint)
