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


def read_text(path: str | Path, what: str = "file") -> str:
    """A user's text file as str, or one clear error: missing, a folder, or not UTF-8 text
    (naming the byte offset, where a binary file is the usual cause). A UTF-8 BOM is dropped."""
    from .errors import DataFileError

    p = Path(path)
    if not p.exists():
        raise DataFileError(p, None, f"{what} not found")
    if p.is_dir():
        raise DataFileError(p, None, f"is a folder, not a {what}")
    data = p.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DataFileError(p, line, f"not UTF-8 text (byte {exc.start}: {data[exc.start:exc.start + 1]!r}); "
                                     f"is it a binary file?", hint=f"give a UTF-8 {what}") from None
    return text[1:] if text.startswith("\ufeff") else text


def text_lines(path: str | Path, what: str = "file"):
    """(line number, line) of a text file read by ``read_text``."""
    return enumerate(read_text(path, what).splitlines(), 1)
