"""The run store: one SQLite file recording runs, every model call and per-item results.

Every model call goes through one place (the chat pipeline) that records endpoint, model, role,
request hash, tokens, seconds, cache hit and parse failures here, so any run can report its cost
and a killed benchmark can see which items are done. Protocols, errors and results are redacted
before they are stored: no credential reaches the file.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import LibraryError, redact, redact_obj

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, kind TEXT, started REAL, protocol TEXT);
CREATE TABLE IF NOT EXISTS calls (
    id INTEGER PRIMARY KEY, run_id INTEGER, role TEXT, endpoint TEXT, model TEXT, request_hash TEXT,
    tokens_in INTEGER, tokens_out INTEGER, seconds REAL, cached INTEGER, parse_failures INTEGER,
    error TEXT, cost REAL, at REAL);
CREATE TABLE IF NOT EXISTS items (
    run_id INTEGER, item_id TEXT, status TEXT, result TEXT, at REAL, PRIMARY KEY (run_id, item_id));
"""


@dataclass(frozen=True)
class CallRecord:
    role: str
    endpoint: str
    model: str
    request_hash: str
    tokens_in: int
    tokens_out: int
    seconds: float
    cached: bool
    parse_failures: int = 0
    error: str = ""
    cost: float = 0.0


class RunStore:
    """Thread-safe; each process opens its own connection."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self.db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL: durable at checkpoints, no fsync per call
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise LibraryError(f"cannot open the run store: {exc}", path=self.path,
                               hint="move the damaged file away or choose another output folder") from exc

    def close(self) -> None:
        self.db.close()

    @staticmethod
    def _protocol_text(protocol: dict[str, Any] | None) -> str:
        return redact(json.dumps(protocol or {}, default=str, sort_keys=True))  # credentials never stored

    def start_run(self, kind: str, protocol: dict[str, Any] | None = None) -> int:
        with self._lock, self.db:
            cur = self.db.execute("INSERT INTO runs (kind, started, protocol) VALUES (?, ?, ?)",
                                  (kind, time.time(), self._protocol_text(protocol)))
            return int(cur.lastrowid)

    def find_or_start(self, kind: str, protocol: dict[str, Any]) -> int:
        """The run with this exact protocol (to resume it), else a new one."""
        row = self.db.execute("SELECT id FROM runs WHERE kind = ? AND protocol = ? ORDER BY id DESC LIMIT 1",
                              (kind, self._protocol_text(protocol))).fetchone()
        return int(row[0]) if row else self.start_run(kind, protocol)

    def record(self, run_id: int | None, call: CallRecord) -> None:
        with self._lock, self.db:
            self.db.execute(
                "INSERT INTO calls (run_id, role, endpoint, model, request_hash, tokens_in, tokens_out, seconds,"
                " cached, parse_failures, error, cost, at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (run_id, call.role, call.endpoint, call.model, call.request_hash, call.tokens_in, call.tokens_out,
                 call.seconds, int(call.cached), call.parse_failures, redact(call.error), call.cost, time.time()),
            )

    # -- per-item results (resumable runs)
    def save_item(self, run_id: int, item_id: str, result: Any, status: str = "done") -> None:
        with self._lock, self.db:
            self.db.execute("INSERT OR REPLACE INTO items VALUES (?, ?, ?, ?, ?)",
                            (run_id, item_id, status, json.dumps(redact_obj(result), ensure_ascii=False, default=str),
                             time.time()))

    def items(self, run_id: int) -> dict[str, Any]:
        rows = self.db.execute("SELECT item_id, result FROM items WHERE run_id = ? AND status = 'done'", (run_id,))
        return {item: json.loads(result) for item, result in rows}

    def summary(self, run_id: int | None = None) -> dict[str, Any]:
        """Totals and a per-role breakdown of model calls (for one run, or all)."""
        where, args = ("WHERE run_id = ?", (run_id,)) if run_id is not None else ("", ())
        q = (f"SELECT role, count(*), sum(cached), sum(tokens_in), sum(tokens_out), sum(seconds),"
             f" sum(parse_failures), sum(error != ''), sum(cost) FROM calls {where} GROUP BY role ORDER BY role")
        keys = ("calls", "cache_hits", "tokens_in", "tokens_out", "seconds", "parse_failures", "errors", "cost")
        per_role = {}
        for row in self.db.execute(q, args):
            per_role[row[0]] = {k: (round(v, 6) if isinstance(v, float) else int(v or 0)) for k, v in zip(keys, row[1:])}
        total = {k: sum(r[k] for r in per_role.values()) for k in keys}
        total["model_calls"] = total["calls"] - total["cache_hits"]
        return {"total": total, "per_role": per_role}
