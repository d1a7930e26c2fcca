"""Retrieval metrics with trec_eval's semantics, and TREC run/qrels files.

Semantics (as trec_eval computes them, so numbers compare with published ones):
- A run is ranked by score, descending; ties are broken by document id, descending (trec_eval
  ignores the rank column).
- Relevant means a qrels grade > 0. nDCG uses the grade as a linear gain and log2(rank + 1)
  discounting, the ideal ranking being all judged documents sorted by grade (trec_eval ndcg_cut).
- Recall@K = relevant in the top K / all relevant; MRR@K = 1 / rank of the first relevant
  document within the top K, else 0 (no cut-off unless K is given); Top-1 = the first document
  is relevant.
- Queries with no relevant document in the qrels are left out of every average and counted in
  ``n_skipped_no_relevant``. Judged queries missing from the run score 0 on every metric (as
  ``trec_eval -c``), counted in ``n_missing_from_run``.
"""

from __future__ import annotations

import io
import math
from collections import defaultdict
from pathlib import Path
from typing import Iterable

from ..errors import ArgumentError, DataFileError
from ..files import read_text, write_atomic
from .corpus import iter_jsonl
from .index import SearchIndex

Run = dict[str, list[tuple[str, float]]]  # qid -> [(docid, score)]
Qrels = dict[str, dict[str, int]]  # qid -> {docid: grade}


def ranked(docs: Iterable[tuple[str, float]]) -> list[str]:
    """trec_eval order: score descending, then document id descending."""
    return [d for d, _ in sorted(docs, key=lambda x: (x[1], x[0]), reverse=True)]


def recall_at(ranking: list[str], rel: dict[str, int], k: int) -> float:
    relevant = {d for d, g in rel.items() if g > 0}
    return len(relevant.intersection(ranking[:k])) / len(relevant)


def mrr_at(ranking: list[str], rel: dict[str, int], k: int | None) -> float:
    for i, d in enumerate(ranking[:k] if k else ranking, 1):
        if rel.get(d, 0) > 0:
            return 1.0 / i
    return 0.0


def ndcg_at(ranking: list[str], rel: dict[str, int], k: int) -> float:
    dcg = sum(rel.get(d, 0) / math.log2(i + 1) for i, d in enumerate(ranking[:k], 1) if rel.get(d, 0) > 0)
    ideal = sorted((g for g in rel.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 1) for i, g in enumerate(ideal, 1))
    return dcg / idcg if idcg > 0 else 0.0


def evaluate(run: Run, qrels: Qrels, ks: Iterable[int] = (10,)) -> dict:
    """``recall@K``, ``mrr@K``, ``ndcg@10`` (and ``ndcg@K``), ``top1``, ``n_queries`` …"""
    ks = sorted(set(ks) | {10})
    judged = {q: r for q, r in qrels.items() if any(g > 0 for g in r.values())}
    sums: dict[str, float] = defaultdict(float)
    per_query = {}
    missing = 0
    for qid, rel in judged.items():
        if qid not in run:
            missing += 1
        ranking = ranked(run.get(qid, []))
        row = {"top1": float(bool(ranking) and rel.get(ranking[0], 0) > 0)}
        for k in ks:
            row[f"recall@{k}"] = recall_at(ranking, rel, k)
            row[f"mrr@{k}"] = mrr_at(ranking, rel, k)
            row[f"ndcg@{k}"] = ndcg_at(ranking, rel, k)
        per_query[qid] = row
        for key, v in row.items():
            sums[key] += v
    n = len(judged)
    out = {key: (sums[key] / n if n else 0.0) for key in sorted(sums)}
    out.update({"n_queries": n, "n_skipped_no_relevant": len(set(qrels) - set(judged)) + len(set(run) - set(qrels)),
                "n_missing_from_run": missing})
    return {"metrics": out, "per_query": per_query}


# --------------------------------------------------------------------------- files


def _trec_rows(path: str | Path, form: str):
    """(line number, fields) of a whitespace-separated TREC file whose lines look like ``form``."""
    width = len(form.split())
    with io.StringIO(read_text(path, "TREC file")) as fh:
        for n, line in enumerate(fh, 1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != width:
                raise DataFileError(path, n, f"expected '{form}', got {len(parts)} fields")
            yield n, parts


def read_qrels(path: str | Path) -> Qrels:
    """TREC qrels: ``qid iter docid grade`` per line."""
    qrels: Qrels = defaultdict(dict)
    for n, (qid, _, doc, grade) in _trec_rows(path, "qid iter docid grade"):
        try:
            qrels[qid][doc] = int(grade)
        except ValueError:
            raise DataFileError(path, n, f"grade {grade!r} is not an integer") from None
    if not qrels:
        raise DataFileError(path, None, "holds no judgements: nothing to score against")
    return dict(qrels)


def read_run(path: str | Path) -> Run:
    """TREC run: ``qid Q0 docid rank score tag`` per line."""
    run: Run = defaultdict(list)
    for n, (qid, _, doc, _rank, score, _tag) in _trec_rows(path, "qid Q0 docid rank score tag"):
        try:
            value = float(score)
        except ValueError:
            raise DataFileError(path, n, f"score {score!r} is not a number") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise DataFileError(path, n, f"score {score!r} is not a finite number")
        run[qid].append((doc, value))
    return dict(run)


def write_run(path: str | Path, run: Run, tag: str = "vidsleuth") -> None:
    write_atomic(path, "".join(f"{qid} Q0 {doc} {rank} {score:.6f} {tag}\n"
                               for qid, docs in run.items() for rank, (doc, score) in enumerate(docs, 1)))


def qrels_from_queries(rows: list[dict]) -> Qrels:
    return {str(r["id"]): {str(d): 1 for d in r.get("relevant") or []} for r in rows}


def read_queries(path: str | Path) -> list[dict]:
    """Query rows ``{"id", "query", "relevant": [ids]}`` of a JSONL file; a row without an id or a
    string query is an error naming its line, and a file with no rows is an error."""
    rows = []
    for n, row in iter_jsonl(path):
        if not isinstance(row, dict) or "id" not in row or not isinstance(row.get("query"), str):
            raise DataFileError(path, n, "needs 'id' and a string 'query'")
        rows.append(row)
    if not rows:
        raise DataFileError(path, None, "holds no queries: nothing to score")
    return rows


def evaluate_index(index: str | Path | None = None, queries: str | Path | None = None, *,
                   qrels: str | Path | None = None, run: str | Path | None = None,
                   run_out: str | Path | None = None, ks: Iterable[int] = (10,)) -> dict:
    """Score the ``queries`` run on ``index`` (their ``relevant`` lists, or ``qrels``), writing
    their TREC run to ``run_out`` when given; or score an existing TREC ``run`` against ``qrels``.
    Returns ``evaluate``'s result (metrics and per-query values)."""
    ks = list(ks) or [10]
    if run is not None:
        if qrels is None:
            raise ArgumentError("--run needs --qrels")
        scored, truth = read_run(run), read_qrels(qrels)
        if not scored:
            raise DataFileError(run, None, "holds no lines: nothing to score")
        return evaluate(scored, truth, ks)
    if index is None or queries is None:
        raise ArgumentError("give -i INDEX and --queries FILE, or --run RUN --qrels QRELS")
    rows = read_queries(queries)
    truth = read_qrels(qrels) if qrels else qrels_from_queries(rows)
    hits = SearchIndex.load(index).search_many([r["query"] for r in rows], k=max(ks + [10]))
    scored = {str(r["id"]): [(h.video_id, h.score) for h in hs] for r, hs in zip(rows, hits)}
    if run_out is not None:
        write_run(run_out, scored)
    return evaluate(scored, truth, ks)
