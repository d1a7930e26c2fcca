"""Prompt templates as package data, rendered with Jinja2 (the seeds' templates are Jinja).

Every prompt's SHA-256 goes into run protocols, so a number can be traced to the exact text."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib.resources import files


@lru_cache(maxsize=None)
def source(name: str) -> str:
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


def prompt_hash(name: str) -> str:
    return hashlib.sha256(source(name).encode("utf-8")).hexdigest()[:16]


def render(name: str, **values) -> str:
    import jinja2

    env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=False, autoescape=False)
    return env.from_string(source(name)).render(**values).strip() + "\n"
