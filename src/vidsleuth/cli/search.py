"""Verbs over corpora, indexes and the Translation Memory: corpus add/check, index build, search,
search eval, memory build/query/show."""

from __future__ import annotations

import json
from pathlib import Path

from ..limits import arg, nonempty
from ..models import Models
from ..search.analysis import Analyzer
from ..search.content import build_content_index
from ..search.corpus import corpus_add, read_corpus
from ..search.evaluate import evaluate_index
from ..search.index import SearchIndex, build_index
from ..search.memory import MemoryBank, build_memory, render_block
from . import verb


def _corpus_args(p, videos: str = "*"):
    p.add_argument("videos", nargs=videos, type=Path, metavar="VIDEO")
    p.add_argument("--corpus", type=Path, required=True, help="corpus.jsonl to create or extend")


@verb("corpus add", "add local videos to a corpus.jsonl (title, duration from the file)",
      args=lambda p: _corpus_args(p, "+"), text=lambda rows, a: f"added {len(rows)} record(s) to {a.corpus}")
def _corpus_add(args):
    return [r.to_dict() for r in corpus_add(args.videos, args.corpus)]


@verb("corpus check", "check a corpus.jsonl: every record valid, paths resolved",
      args=_corpus_args, text=lambda rows, a: f"{a.corpus}: {len(rows)} valid records")
def _corpus_check(args):
    return [r.to_dict() for r in read_corpus(args.corpus)]


def _index_args(p):
    p.add_argument("corpus", type=Path, metavar="CORPUS")
    p.add_argument("-o", "--out", type=Path, required=True, help="index folder")
    p.add_argument("--kind", choices=["bm25", "dense", "hybrid"], default="bm25")
    p.add_argument("--k1", type=arg("k1"), help="0..10 (default 1.5, the seed's)")
    p.add_argument("--b", type=arg("b"), help="0..1 (default 0.75, the seed's)")
    p.add_argument("--method", help="okapi (default), robertson, lucene, atire, bm25l, bm25+")
    p.add_argument("--stemmer", default="english", help="PyStemmer language, or none")
    p.add_argument("--stopwords", default="en", help="en (default), en+zh, or none")
    p.add_argument("--chinese", default="jieba", choices=["jieba", "chars"], help="Chinese segmentation")
    p.add_argument("--no-lowercase", dest="lowercase", action="store_false")
    p.add_argument("--id-field", help="id field of a generic JSONL corpus")
    p.add_argument("--text-field", dest="text_fields", action="append", help="text field to index (repeatable)")
    p.add_argument("--config", type=Path, help="model config (for a configured embedder)")
    p.add_argument("--embedder", help="embedding endpoint name (default: local e5)")
    p.add_argument("--content", type=Path, metavar="LIBRARY",
                   help="also index what is said and shown in every video (speech and on-screen text from this "
                        "ingest library; BM25 + e5 hybrid, or e5 only with --kind dense)")


@verb("index build", "build a BM25, dense or hybrid search index from a corpus", args=_index_args,
      text=lambda m, a: f"{m['kind']} index of {m['n_docs']} documents in {a.out} ({m['build_seconds']:.2f} s)")
def _index_build(args):
    embedder = Models(args.config, cache=False).embedder(args.embedder) if args.kind != "bm25" and args.embedder else None
    analyzer = Analyzer(lowercase=args.lowercase, stemmer=args.stemmer, stopwords=args.stopwords, chinese=args.chinese)
    given = {k: v for k, v in (("k1", args.k1), ("b", args.b), ("method", args.method)) if v is not None}
    if args.content is not None:
        kind = "hybrid" if args.kind == "bm25" else args.kind  # --kind's default: the content index is hybrid
        return build_content_index(args.corpus, args.content, args.out, kind=kind, embedder=embedder,
                                   method=args.method or "lucene").meta
    return build_index(args.corpus, args.out, kind=args.kind, analyzer=analyzer, id_field=args.id_field,
                       text_fields=args.text_fields, embedder=embedder, **given).meta


def _search_args(p):
    p.add_argument("query")
    p.add_argument("-i", "--index", type=Path, required=True)
    p.add_argument("-k", type=arg("k", "-k"), default=10)


def _search_text(found: dict, args) -> str:
    return "\n".join([f"{h['rank']:3d}. {h['score']:8.4f}  {h['video_id']}  {h['title']}" for h in found["hits"]]
                     or ["no results"])


def _search_status(found: dict) -> tuple[int, str]:
    return 0, ("vidsleuth: note: the query's words occur in half or more of the documents, where Okapi idf is 0; "
               "an index built with --method lucene keeps them") if found["zero_idf"] else ""


@verb("search", "search an index (`vidsleuth search eval …` scores queries or a run)", args=_search_args,
      text=_search_text, view=lambda found, a: found["hits"], status=_search_status)
def _search(args):
    nonempty(args.query, option="QUERY", what="query")  # an empty query is a mistake, not "no results"
    index = SearchIndex.load(args.index)
    hits = [{"rank": h.rank, "video_id": h.video_id, "score": h.score, "title": h.title}
            for h in index.search(args.query, k=args.k)]
    return {"hits": hits, "zero_idf": not hits and index.zero_idf(args.query)}


def _search_eval_args(p):
    p.add_argument("-i", "--index", type=Path, help="index to run the queries on")
    p.add_argument("--queries", type=Path, help='JSONL lines {"id", "query", "relevant": [ids]}')
    p.add_argument("--qrels", type=Path, help="TREC qrels (instead of the queries' relevant lists)")
    p.add_argument("--run", type=Path, help="score this TREC run instead of running queries")
    p.add_argument("--run-out", type=Path, help="write the TREC run of the queries here")
    p.add_argument("-k", dest="ks", type=arg("k", "-k"), action="append", help="cut-off (repeatable; 10 is always reported)")
    p.add_argument("--per-query", action="store_true", help="include per-query values in --json")


def _metrics_text(result: dict, args) -> str:
    return "\n".join(f"{key:24s} {v:.4f}" if isinstance(v, float) else f"{key:24s} {v}"
                     for key, v in result["metrics"].items())


@verb("search eval", "Recall@K, MRR@K, nDCG@10 and Top-1 of queries on an index, or of a TREC run",
      args=_search_eval_args, text=_metrics_text, view=lambda r, a: r if a.per_query else r["metrics"])
def _search_eval(args):
    return evaluate_index(args.index, args.queries, qrels=args.qrels, run=args.run, run_out=args.run_out,
                          ks=args.ks or [10])


def _memory_args(p, target: str | None):
    if target:
        p.add_argument("target", help=target)
    p.add_argument("-m", "--memory", type=Path, required=True, help="memory bank folder")


def _memory_build_args(p):
    _memory_args(p, "training JSONL")
    p.add_argument("-i", "--index", type=Path, required=True, help="BM25 index")
    p.add_argument("--corpus", type=Path, help="corpus for seed-video metadata (default: the index's)")
    p.add_argument("--model", help="endpoint for distillation (default: role 'memory', else local)")
    p.add_argument("--config", type=Path)
    p.add_argument("--no-cache", dest="cache", action="store_false")


def _memory_build_text(stats: dict, args) -> str:
    rc = stats["rank_counts"]
    return (f"{stats['cards']} cards in {args.memory}: {stats['verified']} verified "
            f"({stats['verified_share']:.1%}; ok {stats['ok']}, retry_ok {stats['retry_ok']}), "
            f"{stats['failure']} anchors-only; seed rank 1/2/3: {rc['1']}/{rc['2']}/{rc['3']}; "
            f"parse failures {stats['parse_failures']}")


@verb("memory build", "Translation Memory: build a bank from a training split", args=_memory_build_args,
      text=_memory_build_text)
def _memory_build(args):
    models = Models(args.config, cache=args.cache, overrides={"memory": args.model} if args.model else None)
    return build_memory(args.target, SearchIndex.load(args.index), args.memory, models, corpus=args.corpus)


def _memory_query_args(p):
    _memory_args(p, "the question")
    p.add_argument("--top", type=arg("k", "--top"), default=3)
    p.add_argument("--pool", type=arg("k", "--pool"), default=20)


@verb("memory query", "Translation Memory: the cards a question retrieves", args=_memory_query_args,
      text=lambda picked, a: render_block([c for c, _ in picked]),
      view=lambda picked, a: [{"score": s, **c.to_dict()} for c, s in picked])
def _memory_query(args):
    return MemoryBank(args.memory).query(args.target, top=args.top, pool=args.pool)


def _memory_show_text(bank: MemoryBank, args) -> str:
    cards = [f"[{c.status}] {c.index_text}\n    " + c.payload_text().replace("\n", "\n    ") for c in bank.cards]
    return "\n".join([json.dumps(bank.meta, indent=2, ensure_ascii=False), *cards])


@verb("memory show", "Translation Memory: its build protocol and every card", args=lambda p: _memory_args(p, None),
      text=_memory_show_text, view=lambda bank, a: {"meta": bank.meta, "cards": [c.to_dict() for c in bank.cards]})
def _memory_show(args):
    return MemoryBank(args.memory)
