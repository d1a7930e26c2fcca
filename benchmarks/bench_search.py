"""BM25 at 100k generated video records: vidsleuth (bm25s) vs rank_bm25, side by side.

Records have Zipf-distributed words in title / description / channel / tags (seeded). Both
libraries index the same analysed tokens; queries are 2-6 words drawn from random records.
Prints build time, index size on disk, queries per second and the ratios; checks that both
return the same top-10 for the timed queries. Results: benchmarks/results/bench_search.json.

Usage: python benchmarks/bench_search.py [--docs 100000] [--queries 200] [--ref-queries 50]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results"


def make_corpus(path: Path, n: int, seed: int = 0) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    vocab = np.array([f"{a}{b}" for a in ("ka", "lo", "mi", "ru", "te", "sa", "vo", "ne", "pi", "da", "zu", "fe")
                      for b in range(2500)])  # 30k word types
    ranks = np.arange(1, len(vocab) + 1)
    cdf = np.cumsum(1.0 / ranks ** 1.05)
    cdf /= cdf[-1]
    docs = []
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            words = lambda k: " ".join(vocab[np.searchsorted(cdf, rng.random(k))])
            rec = {"video_id": f"v{i:06d}", "title": words(rng.integers(4, 12)), "description": words(rng.integers(10, 60)),
                   "channel": words(2), "tags": [words(1) for _ in range(rng.integers(0, 6))], "duration": float(rng.integers(30, 3600))}
            fh.write(json.dumps(rec) + "\n")
            docs.append(rec)
    return docs


def folder_size(p: Path) -> int:
    return sum(f.stat().st_size for f in p.rglob("*") if f.is_file())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--ref-queries", type=int, default=50, help="queries timed on rank_bm25 (it is slow)")
    args = ap.parse_args()

    import bm25s
    from rank_bm25 import BM25Okapi

    import vidsleuth
    from vidsleuth.search.index import SearchIndex, _doc_text, build_index, load_documents

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        corpus = tmp / "corpus.jsonl"
        t0 = time.perf_counter()
        docs = make_corpus(corpus, args.docs)
        print(f"generated {args.docs} records in {time.perf_counter() - t0:.1f} s", flush=True)
        rng = np.random.default_rng(1)
        queries = []
        for _ in range(args.queries):
            words = docs[int(rng.integers(len(docs)))]["title"].split()
            queries.append(" ".join(rng.choice(words, size=min(len(words), int(rng.integers(2, 7))), replace=False)))

        t0 = time.perf_counter()
        idx = build_index(corpus, tmp / "idx")
        build_s = time.perf_counter() - t0
        size = folder_size(tmp / "idx")
        idx = SearchIndex.load(tmp / "idx")
        idx.search_many(queries[:5], k=10)  # warm-up
        t0 = time.perf_counter()
        ours = idx.search_many(queries, k=10)
        ours_qps = len(queries) / (time.perf_counter() - t0)
        print(f"vidsleuth  build {build_s:6.2f} s (incl. reading + analysis), index {size / 1e6:6.1f} MB, "
              f"{ours_qps:8.1f} queries/s", flush=True)

        analyzer = idx.bm25.analyzer
        documents = load_documents(corpus)
        t0 = time.perf_counter()
        tokens = [analyzer.tokens(_doc_text(f)) for f in documents.fields]
        ref = BM25Okapi(tokens, k1=1.5, b=0.75, epsilon=0)
        ref_build = time.perf_counter() - t0
        sub = queries[: args.ref_queries]
        t0 = time.perf_counter()
        ref_top = []
        for q in sub:
            scores = ref.get_scores(analyzer.tokens(q))
            ref_top.append(np.sort(scores)[::-1][:10])
        ref_qps = len(sub) / (time.perf_counter() - t0)
        print(f"rank_bm25  build {ref_build:6.2f} s (incl. analysis), in memory only, {ref_qps:8.1f} queries/s", flush=True)
        # Ties at the 10th place may pick different documents: compare the top-10 scores.
        agree = np.mean([np.allclose(r[: len(o)], [h.score for h in o], atol=1e-4) for r, o in zip(ref_top, ours)])
        ratio = ours_qps / ref_qps
        print(f"\nquery throughput: {ratio:.0f}x rank_bm25 (target >= 50x); build {build_s:.1f} s at "
              f"{args.docs} docs (target < 30 s); same top-10 scores on {agree:.0%} of the compared queries")
        RESULTS.mkdir(exist_ok=True)
        out = RESULTS / "bench_search.json"
        out.write_text(json.dumps({
            "protocol": {"docs": args.docs, "queries": args.queries, "ref_queries": args.ref_queries,
                         "corpus": "seeded Zipf(1.05) words over 30k types; title/description/channel/tags",
                         "bm25": idx.meta["bm25"], "analyzer": idx.meta["analyzer"], "k": 10,
                         "versions": {"vidsleuth": vidsleuth.__version__, "bm25s": bm25s.__version__,
                                      "rank_bm25": "0.2.2", "python": platform.python_version()},
                         "machine": {"cpus": os.cpu_count(), "platform": platform.platform()}},
            "vidsleuth": {"build_s": build_s, "index_bytes": size, "queries_per_s": ours_qps},
            "rank_bm25": {"build_s": ref_build, "queries_per_s": ref_qps},
            "ratio_queries_per_s": ratio, "top10_agreement": agree}, indent=2))
        print(f"written: {out}")


if __name__ == "__main__":
    main()
