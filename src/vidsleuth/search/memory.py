"""Translation Memory (Video-Browser, seed 001 §4.2 and App. B.2).

For each training question the LLM proposes exactly five BM25 queries and an anchor block (the
seed's distillation prompt, verbatim, ``prompts/memory_distill.j2``). Queries that break the hard
constraints are dropped; the rest run on the BM25 index and the seed video's rank is recorded.
The best query is kept when the seed video ranks within the top K (K = 3): status ``ok``; else one
retry with the seed's feedback text (``retry_ok``); else an anchors-only ``failure`` card.

The bank is a folder: ``cards.jsonl`` (index_text = the past question, payload), the embedding
matrix of index_text (``embeddings.npy``) and ``meta.json`` with build statistics. Builds run
through ``vidsleuth.runner`` and are resumable: each card is stored in ``runs.sqlite`` as it is made.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import DataFileError, ModelOutputError, VidsleuthError
from ..files import writes_output
from ..prompts import prompt_hash, render, source
from .corpus import iter_jsonl
from .index import SearchIndex

DISTILL_SCHEMA = {
    "type": "object",
    "properties": {
        "queries": {"type": "array", "items": {"type": "string"}, "minItems": 5, "maxItems": 5},
        "anchors": {
            "type": "object",
            "properties": {
                "entities": {"type": "array", "items": {"type": "string"}, "maxItems": 4},
                "channel_signal": {"type": "string"},
                "salient_terms": {"type": "array", "items": {"type": "string"}, "maxItems": 4},
            },
            "required": ["entities", "salient_terms"],
        },
    },
    "required": ["queries", "anchors"],
}
MAX_WORDS = 12
# "0:24", "161s", "12.5 seconds"; not decades ("1990s") or years
_TIMESTAMP = re.compile(r"\b\d{1,2}:\d{2}\b|\b\d{1,3}(?:\.\d+)?\s?(?:s|sec|secs|seconds)\b", re.I)
# quotes around a phrase and Boolean operators; not an apostrophe inside a word ("nolan's")
_OPERATOR = re.compile(r"[\"“”`]|(?<!\w)['‘’]|['‘’](?!\w)|\b(?:AND|OR|NOT)\b|(?:^|\s)[+\-](?=\w)")


@dataclass(frozen=True)
class MemoryCard:
    index_text: str
    status: str  # ok | retry_ok | failure
    verified_query: str = ""
    seed_rank: int | None = None
    anchors: dict = field(default_factory=dict)
    row_id: str = ""
    queries_tried: tuple = ()

    @property
    def verified(self) -> bool:
        return self.status in ("ok", "retry_ok")

    def anchor_terms(self) -> list[str]:
        a = self.anchors or {}
        terms = list(a.get("entities") or []) + list(a.get("salient_terms") or [])
        if a.get("channel_signal"):
            terms.append(a["channel_signal"])
        return [t for t in terms if t]

    def payload_text(self) -> str:
        if self.verified:
            return f"Verified BM25 query: {self.verified_query}\nKey anchors: {' · '.join(self.anchor_terms())}"
        entities = (self.anchors or {}).get("entities") or self.anchor_terms()
        return f"BM25 verification failed; suggested search terms: {' · '.join(entities)}"

    def to_dict(self) -> dict:
        d = asdict(self)
        d["queries_tried"] = list(self.queries_tried)
        d["payload_text"] = self.payload_text()
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "MemoryCard":
        return cls(**{k: (tuple(v) if k == "queries_tried" else v) for k, v in d.items() if k in cls.__dataclass_fields__})


def check_query(query: str, answer: str) -> str | None:
    """The prompt's hard constraint a query breaks, or None. In the seed (App. B.2) these rules
    are the model's silent self-check inside the prompt; the verification is the BM25 top-3.
    So a broken rule is recorded on the card (``self_check``), and only an empty query is not
    searched."""
    if not query.strip():
        return "empty"
    if len(query.split()) > MAX_WORDS:
        return f"more than {MAX_WORDS} words"
    if _OPERATOR.search(query):
        return "quotes or operators"
    if _TIMESTAMP.search(query):
        return "numeric timestamp"
    ans = re.sub(r"\W+", " ", str(answer or "").lower()).strip()
    if ans and re.search(rf"(?<!\w){re.escape(ans)}(?!\w)", re.sub(r"\W+", " ", query.lower())):
        return "answer leak"
    return None


def render_block(cards: list[MemoryCard]) -> str:
    """The memory block of the seed's Figure 8, prepended to the Planner's system prompt."""
    if not cards:
        return ""
    lines = ["[Past Experience] The following lessons were learned from previous similar tasks. "
             "Use them to guide your strategy, not as hard rules:"]
    for i, c in enumerate(cards, 1):
        lines.append(f'{i}. Past question: "{c.index_text}"')
        lines.extend("   " + ln for ln in c.payload_text().splitlines())
    n, k = len(cards), sum(c.verified for c in cards)
    lines.append(f"(From {n} past episode{'s' if n != 1 else ''}: {k} correct, {n - k} incorrect)")
    return "\n".join(lines)


# --------------------------------------------------------------------------- building


def _row_fields(row: dict, n: int, records: dict, path) -> dict:
    if not isinstance(row, dict) or not row.get("question"):
        raise DataFileError(path, n, "needs a 'question'")
    seed = row.get("seed_video_id") or (row.get("seed_video_ids") or [None])[0]
    rec = records.get(seed)
    meta = {"title": row.get("title") or (rec.title if rec else ""),
            "channel": row.get("channel") or (rec.channel if rec else ""),
            "tags": row.get("tags") or (list(rec.tags) if rec else []),
            "description": (row.get("description") or (rec.description if rec else ""))[:1500],
            "transcript_snippet": (row.get("transcript_snippet") or row.get("transcript") or "(none)")[:800]}
    if not seed:
        raise DataFileError(path, n, "needs 'seed_video_id'")
    return {"id": str(row.get("id", n)), "question": row["question"], "answer": str(row.get("answer", "")),
            "seed": seed, **meta}


def _attempt(model, index: SearchIndex, row: dict, feedback: str, k_verify: int, search_k: int):
    prompt = render("memory_distill.j2", question=row["question"], title=row["title"], channel=row["channel"],
                    tags=row["tags"], description=row["description"], transcript_snippet=row["transcript_snippet"],
                    feedback=feedback)
    try:
        data = model.chat(prompt, schema=DISTILL_SCHEMA, max_tokens=512).data
    except ModelOutputError:
        return None, {}, [], True
    tried = []
    for q in data["queries"]:
        problem = check_query(q, row["answer"])
        rank = None
        if q.strip():
            ids = [h.video_id for h in index.search(q, k=search_k)]
            rank = ids.index(row["seed"]) + 1 if row["seed"] in ids else None
        tried.append({"query": q, "self_check": problem, "seed_rank": rank})
    ranked = [t for t in tried if t["seed_rank"] is not None]
    best = min(ranked, key=lambda t: t["seed_rank"]) if ranked else None
    ok = best if best is not None and best["seed_rank"] <= k_verify else None
    return ok, data["anchors"], tried, False


def build_card(model, index: SearchIndex, row: dict, *, k_verify: int = 3, search_k: int = 10) -> tuple[MemoryCard, int]:
    """One card for one training row; also returns how many model outputs failed to parse."""
    failures = 0
    best, anchors, tried, failed = _attempt(model, index, row, "", k_verify, search_k)
    failures += failed
    status = "ok"
    if best is None:
        best, anchors2, tried2, failed = _attempt(model, index, row, source("memory_feedback.txt").strip(),
                                                  k_verify, search_k)
        failures += failed
        anchors, tried, status = anchors2 or anchors, tried + tried2, "retry_ok"
    if best is None:
        return MemoryCard(row["question"], "failure", anchors=anchors or {}, row_id=row["id"],
                          queries_tried=tuple(tried)), failures
    return MemoryCard(row["question"], status, best["query"], best["seed_rank"], anchors or {}, row["id"],
                      tuple(tried)), failures


@writes_output("memory build")
def build_memory(train: str | Path, index: SearchIndex, out: str | Path, models, *, corpus: str | Path | None = None,
                 k_verify: int = 3) -> dict:
    """Build (or resume building) a bank in folder ``out``; returns its statistics."""
    from .corpus import read_corpus

    out = Path(out)
    records = {r.video_id: r for r in read_corpus(corpus or index.meta["corpus"])}
    rows = [_row_fields(row, n, records, train) for n, row in iter_jsonl(train)]  # checked before anything is made
    if not rows:
        from ..errors import DataFileError

        raise DataFileError(train, None, "holds no training rows: nothing to distil")
    out.mkdir(parents=True, exist_ok=True)
    from ..runner import map_items
    from ..store import RunStore

    model = models.for_role("memory")
    # One card per training row through the runner: each card is stored as it is made, so a killed
    # build resumes without asking the model again about finished rows; a row whose model calls
    # fail is retried once, then reported (rerun to retry only those rows).
    store = RunStore(out / "runs.sqlite")
    run_id = store.find_or_start("memory", {"train": str(Path(train).resolve()), "index": str(index.root),
                                            "k_verify": k_verify, "prompt": prompt_hash("memory_distill.j2"),
                                            "endpoint": model.endpoint.name, "model": model.endpoint.model})

    def make(row: dict) -> dict:
        card, failed = build_card(model, index, row, k_verify=k_verify)
        return {"card": card.to_dict(), "parse_failures": failed}

    res = map_items(make, [(r["id"], r) for r in rows], store=store, run_id=run_id, retries=1, label="memory cards")
    if res.failures:
        from ..errors import ModelError

        first = res.failures[0]
        raise ModelError(f"{len(res.failures)} of {len(rows)} training rows failed (first: {first.item_id}: {first.error})",
                         hint="rerun the same command: finished cards are kept and only these rows are asked again")
    done = {i: MemoryCard.from_dict(r["card"]) for i, r in res.done.items()}
    parse_failures = sum(r["parse_failures"] for r in res.done.values())
    cards = [done[r["id"]] for r in rows]
    emb = models.embedder()
    matrix = emb.embed([c.index_text for c in cards], kind="query") if cards else np.zeros((0, 0), np.float32)
    stats = bank_stats(cards)
    stats.update({"parse_failures": parse_failures, "embedder": emb.name, "k_verify": k_verify,
                  "prompt_sha256": prompt_hash("memory_distill.j2"), "index": str(index.root),
                  "model": model.endpoint.name})
    tmp = out / ".final"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    with open(tmp / "cards.jsonl", "w", encoding="utf-8") as fh:
        for c in cards:
            fh.write(json.dumps(c.to_dict(), ensure_ascii=False) + "\n")
    np.save(tmp / "embeddings.npy", matrix.astype(np.float32), allow_pickle=False)
    (tmp / "meta.json").write_text(json.dumps(stats, indent=2, ensure_ascii=False))
    for name in ("cards.jsonl", "embeddings.npy", "meta.json"):
        os.replace(tmp / name, out / name)
    tmp.rmdir()
    return stats


def bank_stats(cards: list[MemoryCard]) -> dict:
    verified = [c for c in cards if c.verified]
    n = len(cards)
    return {"cards": n, "verified": len(verified), "verified_share": len(verified) / n if n else 0.0,
            "ok": sum(c.status == "ok" for c in cards), "retry_ok": sum(c.status == "retry_ok" for c in cards),
            "failure": n - len(verified),
            "rank_counts": {str(r): sum(c.seed_rank == r for c in verified) for r in (1, 2, 3)}}


# --------------------------------------------------------------------------- retrieval


class MemoryBank:
    def __init__(self, folder: str | Path, embedder=None):
        self.root = Path(folder)
        if not (self.root / "cards.jsonl").exists():
            raise VidsleuthError("not a memory bank (no cards.jsonl)", path=self.root,
                                 hint="build one with `vidsleuth memory build`")
        from ..schemas import MemoryCardRow, read_json, read_jsonl

        # through the schemas: garbage, a wrong shape or a misspelt key is one line naming file and line
        rows = read_jsonl(self.root / "cards.jsonl", MemoryCardRow, what="memory cards file", allow_empty=True)
        self.cards = [MemoryCard.from_dict(row.model_dump()) for _, row in rows]
        meta = read_json(self.root / "meta.json", what="memory meta.json")
        if not isinstance(meta, dict):
            raise DataFileError(self.root / "meta.json", None, "must be a JSON object", hint="rebuild the bank")
        self.meta: dict[str, Any] = meta
        try:
            self.matrix = np.load(self.root / "embeddings.npy", allow_pickle=False)
        except (OSError, ValueError, EOFError) as exc:
            raise DataFileError(self.root / "embeddings.npy", None, f"damaged embeddings ({exc})",
                                hint="rebuild the bank with `vidsleuth memory build`") from None
        if self.matrix.ndim != 2 or self.matrix.shape[0] != len(self.cards):
            raise DataFileError(self.root / "embeddings.npy", None,
                                f"holds {self.matrix.shape[0] if self.matrix.ndim else 0} vectors for {len(self.cards)} cards",
                                hint="rebuild the bank with `vidsleuth memory build`")
        self._embedder = embedder

    def embedder(self):
        if self._embedder is None:
            from ..models import Models

            self._embedder = Models(cache=False).embedder()
        return self._embedder

    def query(self, question: str, top: int = 3, pool: int = 20) -> list[tuple[MemoryCard, float]]:
        """Cosine top-``pool`` proposals, then the best ``top`` distinct past questions."""
        if not self.cards:
            return []
        q = self.embedder().embed([question], kind="query")[0]
        sims = self.matrix @ q
        order = np.argsort(-sims, kind="stable")[:pool]
        picked, seen = [], set()
        for i in order:
            card = self.cards[int(i)]
            if card.index_text in seen:
                continue
            seen.add(card.index_text)
            picked.append((card, float(sims[i])))
            if len(picked) == top:
                break
        return picked

    def block(self, question: str, top: int = 3, pool: int = 20) -> str:
        return render_block([c for c, _ in self.query(question, top, pool)])
