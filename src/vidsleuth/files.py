"""Writing files so that a killed process leaves the old version or the new one, never half."""

from __future__ import annotations

import os
from pathlib import Path


def write_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to a temporary sibling, then rename it over ``path``."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, p)
    return p


def safe_filename(item_id: str, suffix: str = "") -> str:
    """A file name for an item id that is readable and injective: a slug of the id plus a short
    hash of the exact id (``a/b`` and ``a_b`` get different names; no ``..`` or separators)."""
    import hashlib
    import re

    slug = re.sub(r"[^\w.-]+", "_", str(item_id), flags=re.UNICODE).strip("._")[:60] or "item"
    digest = hashlib.sha256(str(item_id).encode("utf-8")).hexdigest()[:8]
    return f"{slug}-{digest}{suffix}"
