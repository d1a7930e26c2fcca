"""What the ``models`` and ``chat`` verbs (and MCP tools) do: list the endpoints and the roles
that use them, and send one message to an endpoint to see that it works."""

from __future__ import annotations

from pathlib import Path

from ..errors import VidsleuthError, redact
from ..limits import check
from . import Models
from .config import BUILTIN, load_config
from .types import AudioPart, ImagePart, Message


def list_endpoints(config: str | Path | None = None) -> dict:
    """The config file used, each endpoint (backend, model, URL, whether its key variable is set;
    never the key) with the roles that use it, and the role table."""
    cfg = load_config(config)
    rows = []
    for name, ep in sorted(cfg.endpoints.items()):
        rows.append({"name": name, "backend": ep.backend, "model": ep.model, "base_url": redact(ep.base_url),
                     "api_key_env": ep.api_key_env, "key_set": bool(ep.api_key()) if ep.api_key_env else None,
                     "builtin": name in BUILTIN and cfg.endpoints[name] == BUILTIN[name],
                     "roles": sorted(r for r, n in cfg.roles.items() if n == name)})
    return {"config": cfg.source or None, "endpoints": rows, "roles": cfg.roles}


def chat(prompt: str, *, model: str = "local", config: str | Path | None = None, images: list[Path] = (),
         audio: list[Path] = (), system: str | None = None, max_tokens: int = 512, temperature: float = 0.0,
         seed: int | None = None, timeout: float | None = None, retries: int | None = None,
         cache: bool = True) -> dict:
    """One message (with images or audio attached) to the endpoint ``model``; ``timeout`` and
    ``retries`` override the config for this call only. Returns the reply with its accounting."""
    temperature = check("temperature", temperature, option="--temperature")
    seed = check("seed", seed, option="--seed")
    for f in [*images, *audio]:
        if not Path(f).exists():
            raise VidsleuthError("file not found", path=f)
    changes = {k: v for k, v in (("timeout", timeout), ("max_retries", retries)) if v is not None}
    m = Models(config).get(model, role="chat", **changes)
    messages = ([Message.of("system", system)] if system else []) + [
        Message.of("user", prompt, *[ImagePart(Path(f)) for f in images], *[AudioPart(Path(f)) for f in audio])]
    reply = m.chat(messages, max_tokens=max_tokens, temperature=temperature, seed=seed, use_cache=cache)
    return {"endpoint": reply.endpoint, "model": reply.model, "text": reply.text, "tokens_in": reply.tokens_in,
            "tokens_out": reply.tokens_out, "seconds": round(reply.seconds, 3), "cached": reply.cached}
