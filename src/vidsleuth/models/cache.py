"""Response cache: SQLite keyed by a hash of everything that was sent.

The key covers backend, endpoint URL, model, every message part (images and audio as the exact
bytes sent) and every sampling parameter; never headers, so API keys cannot reach it. A rerun of
a finished benchmark is answered entirely from here.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from ..assets import cache_root


def default_cache_path() -> Path:
    return cache_root() / "model-cache.sqlite"


class ResponseCache:
    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self.db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # WAL: durable at checkpoints, no fsync per call
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, endpoint TEXT, model TEXT,"
            " text TEXT, tokens_in INTEGER, tokens_out INTEGER, created REAL)"
        )
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> tuple[str, int, int] | None:
        with self._lock:
            row = self.db.execute("SELECT text, tokens_in, tokens_out FROM responses WHERE key = ?", (key,)).fetchone()
            if row is None:
                self.misses += 1
                return None
            self.hits += 1
            return row[0], int(row[1]), int(row[2])

    def put(self, key: str, endpoint: str, model: str, text: str, tokens_in: int, tokens_out: int) -> None:
        from ..errors import redact, redact_known

        with self._lock, self.db:  # a key echoed back by a server is never stored
            self.db.execute("INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (key, redact(endpoint), redact(model), redact_known(text), tokens_in, tokens_out, time.time()))

    def close(self) -> None:
        self.db.close()
