"""Search indexes saved as folders of plain files (JSON + .npy, never pickle).

``bm25``: bm25s over the analysed text fields (the seed: title, description, channel, tags;
k1=1.5, b=0.75, top-10). ``dense``: the model layer's embedder, cosine over a normalised matrix.
``hybrid``: reciprocal-rank fusion of the two. One ``SearchIndex`` type loads any of them.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from .. import __version__
from ..errors import SearchIndexError, VidsleuthError, require
from .analysis import Analyzer
from .corpus import read_corpus, read_generic

INDEX_VERSION = 1
VIDEO_FIELDS = ["title", "description", "channel", "tags"]
# bm25s' method names, plus "okapi": textbook BM25 as rank_bm25.BM25Okapi computes it
# (tf saturation with (k1 + 1) in the numerator, Robertson idf floored at 0).
BM25_METHODS = {"okapi": ("atire", "robertson"), "robertson": ("robertson", None), "lucene": ("lucene", None),
                "atire": ("atire", None), "bm25l": ("bm25l", None), "bm25+": ("bm25+", None)}
RRF_K = 60




@dataclass(frozen=True)
class Hit:
    video_id: str
    score: float
    rank: int
    title: str = ""


@dataclass(frozen=True)
class Documents:
    ids: list[str]
    fields: list[dict[str, str]]  # per document: field -> text
    titles: list[str]


def load_documents(corpus: str | Path, id_field: str | None = None, text_fields: list[str] | None = None) -> Documents:
    if id_field or text_fields:
        rows = read_generic(corpus, id_field or "id", text_fields or ["contents"])
        return Documents([r[0] for r in rows], [r[1] for r in rows],
                         [next(iter(r[1].values()), "")[:80] for r in rows])
    recs = read_corpus(corpus)
    return Documents([r.video_id for r in recs], [r.search_text() for r in recs], [r.title for r in recs])


def _doc_text(fields: dict[str, str]) -> str:
    return "\n".join(v for v in fields.values() if v)


# --------------------------------------------------------------------------- BM25


class BM25:
    def __init__(self, retriever, analyzer: Analyzer):
        self.retriever = retriever
        self.analyzer = analyzer

    @classmethod
    def build(cls, texts: list[str], analyzer: Analyzer, k1: float, b: float, method: str) -> "BM25":
        bm25s = require("bm25s", "search")
        if method not in BM25_METHODS:
            raise VidsleuthError(f"unknown BM25 method '{method}'", hint=f"choose one of {', '.join(BM25_METHODS)}")
        m, idf = BM25_METHODS[method]
        retriever = bm25s.BM25(k1=k1, b=b, method=m, idf_method=idf, backend="numpy")
        tokens = [analyzer.tokens(t) for t in texts]
        retriever.index(tokens, show_progress=False)
        return cls(retriever, analyzer)

    def save(self, folder: Path) -> None:
        self.retriever.save(str(folder), allow_pickle=False)

    @classmethod
    def load(cls, folder: Path, analyzer: Analyzer) -> "BM25":
        bm25s = require("bm25s", "search")
        # Scoring is ours (see scores()); bm25s only holds the matrix, so its backend is moot.
        return cls(bm25s.BM25.load(str(folder), allow_pickle=False, mmap=False, show_progress=False,
                                   override_params={"backend": "numpy"}), analyzer)

    def scores(self, query: str) -> np.ndarray:
        """Score of every document: the sum of the query tokens' columns of bm25s' precomputed
        (document x token) score matrix, with one bincount (no JIT warm-up, ~4x bm25s' numpy path)."""
        sc = self.retriever.scores
        n = int(sc["num_docs"])
        vocab = self.retriever.vocab_dict
        cols = [vocab[t] for t in self.analyzer.tokens(query) if t in vocab]
        if not cols:
            return np.zeros(n, dtype=np.float32)
        indptr, indices, data = sc["indptr"], sc["indices"], sc["data"]
        spans = [slice(indptr[c], indptr[c + 1]) for c in cols]
        return np.bincount(np.concatenate([indices[s] for s in spans]),
                           weights=np.concatenate([data[s] for s in spans]), minlength=n).astype(np.float32)

    def search_many(self, queries: list[str], k: int) -> list[list[tuple[int, float]]]:
        out = []
        for q in queries:
            scores = self.scores(q)
            top = _top_k(scores, k)
            out.append([(int(d), float(scores[d])) for d in top if scores[d] > 0])
        return out


def _top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k best scores, best first (ties: lower document index first)."""
    if k < len(scores):
        part = np.argpartition(-scores, k - 1)[:k]
    else:
        part = np.arange(len(scores))
    return part[np.lexsort((part, -scores[part]))]


# --------------------------------------------------------------------------- dense


class Dense:
    def __init__(self, matrix: np.ndarray, embedder_name: str, embedder=None):
        self.matrix = matrix
        self.embedder_name = embedder_name
        self._embedder = embedder

    @classmethod
    def build(cls, texts: list[str], embedder) -> "Dense":
        from ..progress import task

        chunks = []
        with task("embedding", total=len(texts)) as bar:
            for i in range(0, len(texts), 64):
                chunks.append(embedder.embed(texts[i : i + 64], kind="passage"))
                bar.advance(len(texts[i : i + 64]))
        return cls(np.vstack(chunks).astype(np.float32), embedder.name, embedder)

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        np.save(folder / "embeddings.npy", self.matrix, allow_pickle=False)

    @classmethod
    def load(cls, folder: Path, embedder_name: str) -> "Dense":
        return cls(np.load(folder / "embeddings.npy", allow_pickle=False), embedder_name)

    def embedder(self):
        if self._embedder is None:
            from ..models import Models

            name = self.embedder_name.split(":", 1)[0]
            self._embedder = Models(cache=False).embedder(None if name == "local" else name)
            if self._embedder.name != self.embedder_name:
                raise SearchIndexError(f"index was embedded with {self.embedder_name}, but {self._embedder.name} is loaded")
        return self._embedder

    def search_many(self, queries: list[str], k: int) -> list[list[tuple[int, float]]]:
        q = self.embedder().embed(queries, kind="query")
        sims = q @ self.matrix.T
        return [[(int(i), float(row[i])) for i in _top_k(row, k)] for row in sims]


def rrf(rankings: list[list[tuple[int, float]]], k: int, rrf_k: int = RRF_K) -> list[tuple[int, float]]:
    """Reciprocal-rank fusion: score = sum 1 / (rrf_k + rank)."""
    fused: dict[int, float] = {}
    for ranking in rankings:
        for rank, (doc, _) in enumerate(ranking, 1):
            fused[doc] = fused.get(doc, 0.0) + 1.0 / (rrf_k + rank)
    return sorted(fused.items(), key=lambda x: (-x[1], x[0]))[:k]


# --------------------------------------------------------------------------- the index folder


class SearchIndex:
    """Load with ``SearchIndex.load(dir)``; ``search(query, k)`` gives ranked Hits."""

    def __init__(self, root: Path, meta: dict, ids: list[str], titles: list[str],
                 bm25: BM25 | None = None, dense: Dense | None = None):
        self.root, self.meta, self.ids, self.titles = root, meta, ids, titles
        self.bm25, self.dense = bm25, dense

    @property
    def kind(self) -> str:
        return self.meta["kind"]

    @classmethod
    def load(cls, folder: str | Path) -> "SearchIndex":
        root = Path(folder)
        meta_path = root / "meta.json"
        if not meta_path.exists():
            raise SearchIndexError("not a vidsleuth index (no meta.json)", path=root,
                              hint="build one with `vidsleuth index build CORPUS -o DIR`")
        from ..schemas import IndexDocs, IndexMeta, read_json

        try:  # through the schemas: a list, a wrong type or garbage is one line, not a traceback
            raw = read_json(meta_path, what="index meta.json")
            if isinstance(raw, dict) and raw.get("version") != INDEX_VERSION:
                raise SearchIndexError(f"index version {raw.get('version')} is not {INDEX_VERSION}", path=root,
                                       hint="rebuild it")
            meta = read_json(meta_path, IndexMeta, what="index meta.json").model_dump()
            meta.update({k: v for k, v in raw.items() if k not in meta})
            docs = read_json(root / "docs.json", IndexDocs, what="index docs.json")
        except VidsleuthError as exc:
            if isinstance(exc, SearchIndexError):
                raise
            raise SearchIndexError(f"damaged index: {exc}", path=root, hint="rebuild it") from None
        if len(docs.ids) != len(docs.titles):
            raise SearchIndexError("damaged index: docs.json has different numbers of ids and titles", path=root,
                                   hint="rebuild it")
        try:
            analyzer = Analyzer.from_dict(meta["analyzer"])
            bm25 = BM25.load(root / "bm25", analyzer) if meta["kind"] in ("bm25", "hybrid") else None
            dense = Dense.load(root / "dense", meta["embedder"]) if meta["kind"] in ("dense", "hybrid") else None
        except VidsleuthError:
            raise
        except Exception as exc:  # bm25s and numpy raise many types for damaged files
            raise SearchIndexError(f"damaged index files ({type(exc).__name__}: {str(exc)[:200]})", path=root,
                                   hint="rebuild it") from None
        if dense is not None and dense.matrix.shape[0] != len(docs.ids):
            raise SearchIndexError("damaged index: the embeddings do not match the documents", path=root,
                                   hint="rebuild it")
        return cls(root, meta, list(docs.ids), list(docs.titles), bm25, dense)

    def search_many(self, queries: list[str], k: int = 10) -> list[list[Hit]]:
        searchers: dict[str, Callable] = {
            "bm25": lambda: self.bm25.search_many(queries, k),
            "dense": lambda: self.dense.search_many(queries, k),
            "hybrid": lambda: [rrf([a, b], k) for a, b in zip(self.bm25.search_many(queries, max(k, 100)),
                                                               self.dense.search_many(queries, max(k, 100)))],
        }
        results = searchers[self.kind]()
        return [[Hit(self.ids[d], s, r, self.titles[d]) for r, (d, s) in enumerate(res, 1)] for res in results]

    def search(self, query: str, k: int = 10) -> list[Hit]:
        from ..limits import check

        return self.search_many([query], check("k", k, option="-k"))[0]

    def zero_idf(self, query: str) -> bool:
        """Whether the query's words are in the vocabulary but score nothing: Okapi idf is 0 for
        words in half or more of the documents (an index built with ``method="lucene"`` keeps them).
        Callers that got no hits use it to say why."""
        if self.bm25 is None or self.meta["bm25"]["method"] != "okapi":
            return False
        vocab = self.bm25.retriever.vocab_dict
        return any(t in vocab for t in self.bm25.analyzer.tokens(query))


def build_index(
    corpus: str | Path,
    out: str | Path,
    *,
    kind: str = "bm25",
    k1: float = 1.5,
    b: float = 0.75,
    method: str = "okapi",
    analyzer: Analyzer | None = None,
    id_field: str | None = None,
    text_fields: list[str] | None = None,
    embedder=None,
    overwrite: bool | None = None,
) -> SearchIndex:
    """Index a corpus into folder ``out`` (written to a temporary folder, then moved in place; a
    failed build leaves no temporary folder behind). ``out`` must be new, empty, or an index."""
    from ..files import MARKER, output_problem
    from ..limits import check

    out = Path(out)
    problem = "" if out.is_dir() and (out / "meta.json").is_file() else output_problem(out, "index build",
                                                                                       overwrite=overwrite)
    if problem:  # an earlier index (with or without the marker) may be replaced; nothing else is
        raise SearchIndexError(f"{problem}: refusing to overwrite it", path=out,
                               hint="choose a new or empty folder, or give --overwrite")
    k1, b = check("k1", k1), check("b", b)
    if kind not in ("bm25", "dense", "hybrid"):
        raise VidsleuthError(f"unknown index kind '{kind}'", hint="choose bm25, dense or hybrid")
    analyzer = analyzer or Analyzer()
    t0 = time.perf_counter()
    docs = load_documents(corpus, id_field, text_fields)
    texts = [_doc_text(f) for f in docs.fields]
    tmp = out.with_name(f".{out.name}.building-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        meta, bm25, dense = _build_into(tmp, corpus, docs, texts, kind, k1, b, method, analyzer, id_field, embedder, t0)
        (tmp / MARKER).write_text(json.dumps({"verb": "index build", "version": __version__}) + "\n", encoding="utf-8")
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)  # no hidden leftover
        raise
    if out.exists():
        backup = out.with_name(f".{out.name}.old-{os.getpid()}")
        os.replace(out, backup)
        os.replace(tmp, out)
        shutil.rmtree(backup, ignore_errors=True)
    else:
        os.replace(tmp, out)
    return SearchIndex(out, meta, docs.ids, docs.titles, bm25, dense)


def _build_into(tmp: Path, corpus, docs: Documents, texts: list[str], kind: str, k1: float, b: float, method: str,
                analyzer: Analyzer, id_field, embedder, t0: float):
    """Write the index files into ``tmp``; returns (meta, bm25, dense)."""
    bm25 = dense = None
    if kind in ("bm25", "hybrid"):
        bm25 = BM25.build(texts, analyzer, k1, b, method)
        bm25.save(tmp / "bm25")
    if kind in ("dense", "hybrid"):
        if embedder is None:
            from ..models import Models

            embedder = Models(cache=False).embedder()
        dense = Dense.build(texts, embedder)
        dense.save(tmp / "dense")
    meta = {"version": INDEX_VERSION, "kind": kind, "corpus": str(Path(corpus).resolve()),
            "fields": list(docs.fields[0].keys()) if docs.fields else [], "id_field": id_field or "video_id",
            "n_docs": len(docs.ids), "bm25": {"k1": k1, "b": b, "method": method} if bm25 else None,
            "analyzer": analyzer.to_dict(), "embedder": dense.embedder_name if dense else None,
            "rrf_k": RRF_K if kind == "hybrid" else None, "vidsleuth": __version__,
            "build_seconds": round(time.perf_counter() - t0, 3)}
    (tmp / "docs.json").write_text(json.dumps({"ids": docs.ids, "titles": docs.titles}, ensure_ascii=False))
    (tmp / "meta.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False))
    return meta, bm25, dense
