"""Model endpoints, named in one TOML file, and which endpoint each role uses.

```toml
[models.qwen-vl]
backend = "openai"
base_url = "http://127.0.0.1:8000/v1"
model = "Qwen3-VL-8B-Instruct"
api_key_env = "VLLM_API_KEY"      # the key itself never goes in the file
max_concurrency = 8
price_in = 0.0                    # per million tokens, for cost accounting
price_out = 0.0

[roles]
planner = "qwen-vl"
judge = "gpt-judge"
```

The config is found at ``--config FILE``, else ``$VIDSLEUTH_CONFIG``, else
``~/.config/vidsleuth/config.toml`` when it exists. Built-in endpoints need no file.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ..errors import ConfigError, find_secret, looks_like_key, redact, register_secret

ROLES = ("planner", "watcher", "checker", "analyst", "judge", "writer", "memory", "default")
# The backends by name, and what each accepts unless an endpoint declares otherwise (``vision =
# false`` for a text-only model behind an OpenAI-compatible server; the embedded model reads no
# pixels). Data, so a config is checked without importing the backends; ``registry`` maps each
# name to its class (a new backend is a row here and a class there).
BACKEND_CAPABILITIES: dict[str, tuple[str, ...]] = {"openai": ("vision", "audio", "judge"), "local": ()}


@dataclass(frozen=True)
class Endpoint:
    """One named model endpoint. Unknown keys are kept in ``options``."""

    name: str
    backend: str
    model: str = ""
    base_url: str = ""
    api_key_env: str = ""
    max_concurrency: int = 4
    timeout: float = 120.0
    max_retries: int = 4
    image_max_side: int = 512
    image_quality: int = 70
    price_in: float = 0.0
    price_out: float = 0.0
    json_mode: bool = False
    embedding_model: str = ""
    vision: bool | None = None  # accepts images; None: the backend's default (openai yes, local no)
    audio: bool | None = None  # accepts input_audio; None: the backend's default (openai yes, local no)
    judge: bool | None = None  # trusted with the seed's judge prompt; None: the backend's default (openai yes, local no)
    threads: int = 0  # local backend: llama.cpp threads (0: one per core, at most 4)
    options: dict = field(default_factory=dict, compare=False)

    def accepts(self, kind: str) -> bool:
        """Whether the endpoint takes ``vision`` or ``audio`` input, or is trusted as a ``judge``:
        callers ask this, never the backend name."""
        declared = getattr(self, kind)
        if declared is not None:
            return bool(declared)
        return kind in BACKEND_CAPABILITIES.get(self.backend, ())

    def api_key(self) -> str | None:
        """Read at call time from the environment; never stored on the object. The value is
        registered with ``redact``, so it is masked in every message and file."""
        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        register_secret(key)
        return key

    def describe(self) -> str:
        where = redact(self.base_url) if self.base_url else "in-process"
        return f"{self.name} ({self.backend}: {self.model or '-'} @ {where})"

    def public(self) -> dict:
        """What may be shown or recorded about the endpoint (redacted; never the key)."""
        return {"name": self.name, "backend": self.backend, "model": self.model,
                "base_url": redact(self.base_url), "api_key_env": self.api_key_env}

    def cost(self, tokens_in: int, tokens_out: int) -> float:
        return (tokens_in * self.price_in + tokens_out * self.price_out) / 1e6


BUILTIN: dict[str, Endpoint] = {
    "local": Endpoint(name="local", backend="local", model="qwen2.5-coder-0.5b-instruct-q4km",
                      max_concurrency=1, timeout=600.0),
    "local-1.5b": Endpoint(name="local-1.5b", backend="local", model="qwen2.5-coder-1.5b-instruct",
                           max_concurrency=1, timeout=900.0),
}


@dataclass(frozen=True)
class ModelConfig:
    endpoints: dict[str, Endpoint]
    roles: dict[str, str]
    source: str = ""

    def endpoint(self, name: str) -> Endpoint:
        try:
            return self.endpoints[name]
        except KeyError:
            raise ConfigError(f"no model endpoint named '{name}'" + did_you_mean(name, self.endpoints),
                              hint=f"configured: {', '.join(sorted(self.endpoints))}"
                              + (f" (config: {self.source})" if self.source else "")) from None

    def for_role(self, role: str) -> Endpoint:
        name = self.roles.get(role) or self.roles.get("default") or "local"
        return self.endpoint(name)


from ..config import did_you_mean, read_config_file  # noqa: E402

_FIELDS = {f.name for f in fields(Endpoint)} - {"name", "options"}
OPTION_KEYS = {"frames"}  # backend-specific options kept in ``Endpoint.options``
_SECRET = re.compile(r"(?i)(api[_-]?key|apikey|token|secret|password|authorization|^key$|headers)")


def _check_field(key: str, value: Any) -> str:
    """'' when ``value`` fits the field's type and documented range, else what is wrong."""
    kind = {f.name: f.type for f in fields(Endpoint)}[key]
    if "bool" in kind:
        return "" if isinstance(value, bool) or (value is None and "None" in kind) else "must be true or false"
    if kind in ("int", "float"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind == "int" and not isinstance(value, int)):
            return f"must be {'an integer' if kind == 'int' else 'a number'}"
        from ..limits import RANGES  # the one table of documented ranges

        r = RANGES.get(key)
        return "" if r is None or r.lo <= value <= r.hi else f"must be between {r.lo:g} and {r.hi:g}"
    return "" if isinstance(value, str) else "must be a string"


_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _check_secret(key: str, value: Any) -> str:
    """'' unless a string field carries a credential or a URL vidsleuth must not call."""
    if not isinstance(value, str):
        return ""
    if key == "api_key_env" and value:
        if looks_like_key(value) or not _ENV_NAME.fullmatch(value):
            return ("must name an environment variable (such as OPENAI_API_KEY), not hold the key itself"
                    if looks_like_key(value) else "must be an environment variable name (letters, digits, _)")
        return ""
    if key == "base_url" and value:
        from urllib.parse import urlsplit

        try:
            parts = urlsplit(value)
        except ValueError:
            return "is not a URL"
        if parts.scheme not in ("http", "https"):
            return f"must be an http:// or https:// URL, not {parts.scheme or 'a bare'}:"
        if "@" in parts.netloc:
            return "holds a user name or password: keys and passwords never go in the file"
    found = find_secret(value, key)
    return "holds what looks like a key: keys never go in the file" if found else ""


def _endpoint(name: str, table: Any, source: Path) -> Endpoint:
    if not isinstance(table, dict):
        raise ConfigError(f"[models.{name}] must be a table", path=source)
    backend = table.get("backend")
    if backend not in BACKEND_CAPABILITIES:
        raise ConfigError(f"[models.{name}] backend {backend!r} is unknown" + did_you_mean(str(backend), BACKEND_CAPABILITIES),
                          path=source, hint=f"choose one of {', '.join(sorted(BACKEND_CAPABILITIES))}")
    known = {k: v for k, v in table.items() if k in _FIELDS}
    secret = [k for k in table if _SECRET.search(k) and k != "api_key_env"]
    if secret:
        raise ConfigError(f"[models.{name}] holds {secret[0]!r}, which looks like a secret: keep keys out of files",
                          path=source, hint="keys belong in the environment: set api_key_env = \"NAME\" and export NAME=... instead")
    for key, value in known.items():
        problem = _check_field(key, value) or _check_secret(key, value)
        if problem:
            raise ConfigError(f"[models.{name}] {key} = {redact(repr(value))}: {problem}", path=source,
                              hint="keys belong in the environment: set api_key_env = \"NAME\" and export NAME=..."
                              if "key" in problem or "password" in problem else None)
    extra = {k: v for k, v in table.items() if k not in _FIELDS}
    for key in extra:
        if key not in OPTION_KEYS and key != "backend":
            raise ConfigError(f"[models.{name}] has an unknown key {key!r}" + did_you_mean(key, _FIELDS | OPTION_KEYS),
                              path=source, hint=f"known keys: {', '.join(sorted(_FIELDS | OPTION_KEYS))}")
    extra.pop("backend", None)
    if backend == "openai" and not known.get("base_url"):
        raise ConfigError(f"[models.{name}] needs base_url", path=source)
    try:
        return Endpoint(name=name, options=extra, **known)
    except TypeError as exc:
        raise ConfigError(f"[models.{name}]: {exc}", path=source) from exc


def load_config(path: str | Path | None = None) -> ModelConfig:
    """Built-in endpoints plus those of the TOML file (which may override them)."""
    data, source = read_config_file(path)
    endpoints = dict(BUILTIN)
    roles: dict[str, str] = {}
    if source is not None:
        for name, table in (data.get("models") or {}).items():
            endpoints[name] = _endpoint(name, table, source)
        roles = {str(k): str(v) for k, v in (data.get("roles") or {}).items()}
        for role, name in roles.items():
            if role not in ROLES:
                raise ConfigError(f"[roles] has an unknown role {role!r}" + did_you_mean(role, ROLES), path=source,
                                  hint=f"roles: {', '.join(ROLES)}")
            if name not in endpoints:
                raise ConfigError(f"[roles] {role} = '{name}' names no endpoint" + did_you_mean(name, endpoints),
                                  path=source)
    return ModelConfig(endpoints=endpoints, roles=roles, source=str(source or ""))
