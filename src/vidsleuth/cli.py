"""The ``vidsleuth`` command: thin verbs over the public functions of the same name.

Each verb is registered with the arguments it takes and a function that calls the library and
prints. Errors print as one line naming the file and the problem, with a non-zero exit; ``--debug``
shows the traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import __version__
from .errors import DataFileError, VidsleuthError
from .limits import arg, int_list
from .timecode import seconds_label


@dataclass(frozen=True)
class Verb:
    name: str
    help: str
    add_args: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


VERBS: dict[str, Verb] = {}


def verb(name: str, help: str):
    def register(add_args):
        def bind(run):
            VERBS[name] = Verb(name, help, add_args, run)
            return run

        return bind

    return register


def _print_json(data) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


# --------------------------------------------------------------------------- probe


def _probe_args(p):
    p.add_argument("files", nargs="+", type=Path, metavar="FILE")
    p.add_argument("--json", action="store_true", help="print JSON")


@verb("probe", "duration, frame rate, size, rotation and streams of media files")(_probe_args)
def _probe(args) -> int:
    from .media import probe
    from .types import format_seconds

    infos = [probe(f) for f in args.files]
    if args.json:
        _print_json([i.to_dict() for i in infos] if len(infos) > 1 else infos[0].to_dict())
        return 0
    for i in infos:
        video = (f"{i.codec} {i.width}x{i.height} @ {i.fps:g} fps" + (f", rotated {i.rotation}°" if i.rotation else "")
                 if i.has_video else "no video")
        audio = i.audio_codec if i.has_audio else "no audio"
        print(f"{i.path}: {format_seconds(i.duration)} ({i.duration:.3f} s, from {i.duration_source}); "
              f"{video}; {audio}; subtitles: {i.subtitle_streams}; id {i.content_id[:12]}")
    return 0


# --------------------------------------------------------------------------- frames, grid


def _frames_args(p):
    p.add_argument("file", type=Path, metavar="FILE")
    g = p.add_mutually_exclusive_group()
    g.add_argument("-n", type=arg("frames", "-n"), help="number of uniformly sampled frames, 1..4096 (default 16)")
    g.add_argument("--fps", type=arg("fps"), help="sample every 1/FPS seconds instead")
    p.add_argument("--start", type=float, help="window start, seconds")
    p.add_argument("--end", type=float, help="window end, seconds")
    p.add_argument("--max-side", type=arg("max_side"), help="resize so the long edge is at most this many px (16..8192)")
    p.add_argument("--out", type=Path, required=True, help="folder for the JPEG files")
    p.add_argument("--quality", type=int, choices=range(1, 101), metavar="1..100", default=90, help="JPEG quality (default 90)")
    p.add_argument("--json", action="store_true", help="print JSON")


@verb("frames", "save uniformly sampled frames with their timestamps")(_frames_args)
def _frames(args) -> int:
    from .media import DEFAULT_FRAMES, iter_frames, probe
    from .progress import task

    probe(args.file, with_content_id=False)  # the input is checked before the output folder exists
    n = args.n if args.n is not None or args.fps is not None else DEFAULT_FRAMES
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    with task("frames", total=n if args.fps is None else None) as bar:
        for k, frame in enumerate(iter_frames(args.file, n=n, fps=args.fps, start=args.start, end=args.end,
                                              max_side=args.max_side)):
            name = f"frame_{k:04d}_{frame.t:010.3f}s.jpg"
            frame.image.save(args.out / name, quality=args.quality)
            rows.append({"index": k, "t": frame.t, "file": str(args.out / name)})
            bar.advance()
    (args.out / "frames.json").write_text(json.dumps({"video": str(args.file), "frames": rows}, indent=1))
    if args.json:
        _print_json(rows)
    else:
        print(f"{len(rows)} frames in {args.out} (times in {args.out / 'frames.json'})")
    return 0


def _grid_args(p):
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument("--out", type=Path, required=True, help="image file (.jpg/.png); several grids get -1, -2")
    p.add_argument("--grids", type=arg("grids"), default=1, help="number of grids, 1..16 (the Watcher uses 2)")
    p.add_argument("--rows", type=arg("rows"), help="1..10 (default 3)")
    p.add_argument("--cols", type=arg("cols"), help="1..10 (default 3)")
    p.add_argument("--cell", type=arg("cell"), help="long edge of a cell in px, 16..1024 (default 256)")
    p.add_argument("--json", action="store_true", help="print JSON")


@verb("grid", "tile uniformly sampled, timestamp-labelled frames into grid images")(_grid_args)
def _grid(args) -> int:
    from PIL import Image

    from .media import frame_grids

    Image.init()
    if args.out.suffix.lower() not in Image.EXTENSION:
        raise VidsleuthError(f"--out {args.out}: '{args.out.suffix or '(no suffix)'}' is not an image format",
                             hint="end the name with .jpg or .png")
    kw = {k: v for k, v in (("rows", args.rows), ("cols", args.cols), ("cell", args.cell)) if v is not None}
    grids = frame_grids(args.file, n_grids=args.grids, **kw)
    outs = []
    for k, grid in enumerate(grids, 1):
        out = args.out if len(grids) == 1 else args.out.with_name(f"{args.out.stem}-{k}{args.out.suffix}")
        out.parent.mkdir(parents=True, exist_ok=True)
        grid.image.save(out)
        outs.append({"file": str(out), "times": list(grid.times), "size": list(grid.image.size)})
    if args.json:
        _print_json(outs)
    else:
        for o in outs:
            print(f"{o['file']}: {o['size'][0]}x{o['size'][1]}, frames at " + ", ".join(seconds_label(t) for t in o["times"]))
    return 0


# --------------------------------------------------------------------------- ingest, timeline


def _ingest_option_args(p):
    p.add_argument("--library", type=Path, help="library folder (default: the user cache dir)")
    p.add_argument("--subtitles", type=Path, help="subtitle file to use instead of NAME.srt/.vtt or ASR")
    p.add_argument("--language", default="en", help="speech language: en (default), zh, … or auto")
    p.add_argument("--asr-model", choices=["tiny.en", "base"], help="ASR model (default from --language)")
    p.add_argument("--no-asr", action="store_true", help="no speech recognition")
    p.add_argument("--no-ocr", action="store_true", help="no on-screen text")
    p.add_argument("--no-shots", action="store_true", help="no shot detection")
    p.add_argument("--ocr-fps", type=arg("ocr_fps"), help="frames per second read by OCR (default 1)")


def _options(args):
    from .library import IngestOptions

    given = {"ocr_fps": args.ocr_fps}
    return IngestOptions(
        subtitles=str(args.subtitles) if args.subtitles else None, asr=not args.no_asr,
        language=None if args.language == "auto" else args.language, asr_model=args.asr_model,
        ocr=not args.no_ocr, shots=not args.no_shots, **{k: v for k, v in given.items() if v is not None},
    )


def _ingest_args(p):
    p.add_argument("files", nargs="+", type=Path, metavar="FILE_OR_DIR")
    p.add_argument("--recursive", action="store_true", help="include media files in subfolders of folders given")
    p.add_argument("--executor", choices=["threads", "local", "ray"],
                   help="several files: local (a process pool, default), ray (Ray tasks; extra vidsleuth[ray]) or threads")
    p.add_argument("--address", help="Ray cluster address (with --executor ray; default: a local instance)")
    p.add_argument("--workers", type=arg("concurrency", "--workers"), help="parallel files (default: one per core)")
    _ingest_option_args(p)
    p.add_argument("--json", action="store_true", help="print JSON")


@verb("ingest", "transcribe, read on-screen text and find shots; cached in a library (files or whole folders)")(_ingest_args)
def _ingest(args) -> int:
    from .library import collect_media, default_library, ingest, ingest_many, timeline_summary

    options = _options(args)
    files = collect_media(args.files, recursive=args.recursive)
    if len(files) == 1 and not files[0].is_dir():  # one file: its errors are the command's error
        out, failures, seconds = [timeline_summary(ingest(files[0], args.library, options))], [], None
    else:
        result = ingest_many(files, args.library, options, executor=args.executor or "local", workers=args.workers,
                             address=args.address)
        out = [result.done[str(f.resolve())] for f in files if str(f.resolve()) in result.done]
        failures, seconds = result.errors(), result.seconds
    root = Path(args.library) if args.library else default_library()
    hours = sum(o["duration"] for o in out) / 3600
    if args.json:
        _print_json({"library": str(root), "videos": out, "failures": failures,
                     "seconds": seconds, "video_hours": round(hours, 4)})
    else:
        for o in out:
            kinds = ", ".join(f"{v} {k}" for k, v in sorted(o["segments"].items())) or "no segments"
            print(f"{o['path']}: {o['duration']:.1f} s; {kinds}")
        if seconds:
            print(f"{len(out)} of {len(files)} files, {hours * 60:.1f} min of video in {seconds:.1f} s: "
                  f"{hours / (seconds / 3600):.1f} hours of video per hour")
        if failures:
            print(f"{len(failures)} failed:")
            for f in failures:
                print(f"  {f['id']}: {f['error']}")
        print(f"library: {root}")
    return 1 if failures else 0


def _timeline_args(p):
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--json", action="store_true", help="same as --format json")
    p.add_argument("--max-chars", type=arg("max_chars"), help="cap of the text rendering (default 25000, as the seeds)")
    p.add_argument("--kind", action="append", help="only these segment kinds (repeatable)")
    _ingest_option_args(p)


@verb("timeline", "print a video's timeline (ingesting it first when needed)")(_timeline_args)
def _timeline(args) -> int:
    from .library import ingest

    tl = ingest(args.file, args.library, _options(args))
    if args.json or args.format == "json":
        data = tl.to_dict()
        if args.kind:
            data["segments"] = [s for s in data["segments"] if s["kind"] in args.kind]
        _print_json(data)
    else:
        print(tl.to_text(kinds=args.kind, **({"max_chars": args.max_chars} if args.max_chars else {})))
    return 0


# --------------------------------------------------------------------------- models, chat


def _models_args(p):
    p.add_argument("--config", type=Path, help="model config TOML (default: $VIDSLEUTH_CONFIG or ~/.config/vidsleuth/config.toml)")
    p.add_argument("--json", action="store_true", help="print JSON")


@verb("models", "list the configured and built-in model endpoints and the roles that use them")(_models_args)
def _models(args) -> int:
    from .models import load_config
    from .models.config import BUILTIN

    cfg = load_config(args.config)
    rows = []
    for name, ep in sorted(cfg.endpoints.items()):
        roles = sorted(r for r, n in cfg.roles.items() if n == name)
        rows.append({"name": name, "backend": ep.backend, "model": ep.model, "base_url": ep.base_url,
                     "api_key_env": ep.api_key_env, "key_set": bool(ep.api_key()) if ep.api_key_env else None,
                     "builtin": name in BUILTIN and cfg.endpoints[name] == BUILTIN[name], "roles": roles})
    if args.json:
        _print_json({"config": cfg.source or None, "endpoints": rows, "roles": cfg.roles})
        return 0
    print(f"config: {cfg.source or '(none: built-in endpoints only)'}")
    for r in rows:
        key = "" if r["key_set"] is None else f"  key ${r['api_key_env']}: {'set' if r['key_set'] else 'NOT SET'}"
        roles = f"  roles: {', '.join(r['roles'])}" if r["roles"] else ""
        print(f"{r['name']:16s} {r['backend']:7s} {r['model'] or '-'}  {r['base_url'] or '(in-process)'}{key}{roles}")
    return 0


def _chat_args(p):
    p.add_argument("prompt")
    p.add_argument("--model", default="local", help="endpoint name (see `vidsleuth models`; default local)")
    p.add_argument("--image", type=Path, action="append", default=[], help="attach an image (repeatable)")
    p.add_argument("--audio", type=Path, action="append", default=[], help="attach audio (omni models)")
    p.add_argument("--system", help="system prompt")
    p.add_argument("--max-tokens", type=arg("max_tokens"), default=512)
    p.add_argument("--temperature", type=float, default=0.0)
    p.add_argument("--seed", type=int)
    p.add_argument("--timeout", type=arg("timeout"), help="per-attempt timeout in seconds (overrides the config)")
    p.add_argument("--retries", type=arg("retries"), help="retries after a failed attempt, 0..100 (overrides the config)")
    p.add_argument("--no-cache", action="store_true", help="always call the model")
    _models_args(p)


@verb("chat", "send one message to an endpoint and print the reply (check that an endpoint works)")(_chat_args)
def _chat(args) -> int:
    from dataclasses import replace

    from .models import AudioPart, ImagePart, Message, Models

    models = Models(args.config)
    model = models.get(args.model, role="chat")
    changes = {k: v for k, v in (("timeout", args.timeout), ("max_retries", args.retries)) if v is not None}
    if changes:
        model.endpoint = replace(model.endpoint, **changes)
    for f in args.image + args.audio:
        if not f.exists():
            raise VidsleuthError("file not found", path=f)
    messages = ([Message.of("system", args.system)] if args.system else []) + [
        Message.of("user", args.prompt, *[ImagePart(f) for f in args.image], *[AudioPart(f) for f in args.audio])]
    reply = model.chat(messages, max_tokens=args.max_tokens, temperature=args.temperature, seed=args.seed,
                       use_cache=not args.no_cache)
    if args.json:
        _print_json({"endpoint": reply.endpoint, "model": reply.model, "text": reply.text,
                     "tokens_in": reply.tokens_in, "tokens_out": reply.tokens_out,
                     "seconds": round(reply.seconds, 3), "cached": reply.cached})
    else:
        print(reply.text)
    return 0


# --------------------------------------------------------------------------- corpus, index, search


def _corpus_args(p):
    p.add_argument("action", choices=["add", "check"])
    p.add_argument("videos", nargs="*", type=Path, metavar="VIDEO")
    p.add_argument("--corpus", type=Path, required=True, help="corpus.jsonl to create or extend")
    p.add_argument("--json", action="store_true")


@verb("corpus", "add local videos to a corpus.jsonl (title, duration from the file), or check one")(_corpus_args)
def _corpus(args) -> int:
    from .search.corpus import corpus_add, read_corpus

    if args.action == "add":
        if not args.videos:
            raise VidsleuthError("corpus add needs at least one VIDEO")
        added = corpus_add(args.videos, args.corpus)
        rows = [r.to_dict() for r in added]
        msg = f"added {len(rows)} record(s) to {args.corpus}"
    else:
        rows = [r.to_dict() for r in read_corpus(args.corpus)]
        msg = f"{args.corpus}: {len(rows)} valid records"
    _print_json(rows) if args.json else print(msg)
    return 0


def _index_args(p):
    p.add_argument("action", choices=["build"])
    p.add_argument("corpus", type=Path, metavar="CORPUS")
    p.add_argument("-o", "--out", type=Path, required=True, help="index folder")
    p.add_argument("--kind", choices=["bm25", "dense", "hybrid"], default="bm25")
    p.add_argument("--k1", type=arg("k1"), help="0..10 (default 1.5, the seed's)")
    p.add_argument("--b", type=arg("b"), help="0..1 (default 0.75, the seed's)")
    p.add_argument("--method", help="okapi (default), robertson, lucene, atire, bm25l, bm25+")
    p.add_argument("--stemmer", default="english", help="PyStemmer language, or none")
    p.add_argument("--stopwords", default="en", help="en (default), en+zh, or none")
    p.add_argument("--chinese", default="jieba", choices=["jieba", "chars"], help="Chinese segmentation")
    p.add_argument("--no-lowercase", action="store_true")
    p.add_argument("--id-field", help="id field of a generic JSONL corpus")
    p.add_argument("--text-field", action="append", help="text field to index (repeatable)")
    p.add_argument("--config", type=Path, help="model config (for a configured embedder)")
    p.add_argument("--embedder", help="embedding endpoint name (default: local e5)")
    p.add_argument("--json", action="store_true")


@verb("index", "build a BM25, dense or hybrid search index from a corpus")(_index_args)
def _index(args) -> int:
    from .search.analysis import Analyzer
    from .search.index import build_index

    embedder = None
    if args.kind != "bm25" and args.embedder:
        from .models import Models

        embedder = Models(args.config, cache=False).embedder(args.embedder)
    analyzer = Analyzer(lowercase=not args.no_lowercase, stemmer=args.stemmer, stopwords=args.stopwords,
                        chinese=args.chinese)
    given = {k: v for k, v in (("k1", args.k1), ("b", args.b), ("method", args.method)) if v is not None}
    idx = build_index(args.corpus, args.out, kind=args.kind, analyzer=analyzer, id_field=args.id_field,
                      text_fields=args.text_field, embedder=embedder, **given)
    if args.json:
        _print_json(idx.meta)
    else:
        print(f"{idx.kind} index of {idx.meta['n_docs']} documents in {args.out} "
              f"({idx.meta['build_seconds']:.2f} s)")
    return 0


def _search_args(p):
    p.add_argument("query")
    p.add_argument("-i", "--index", type=Path, required=True)
    p.add_argument("-k", type=arg("k", "-k"), default=10)
    p.add_argument("--json", action="store_true")


@verb("search", "search an index (`vidsleuth search eval …` scores queries or a run)")(_search_args)
def _search(args) -> int:
    from .search.index import SearchIndex

    index = SearchIndex.load(args.index)
    hits = index.search(args.query, k=args.k)
    if not hits and index.bm25 is not None and index.meta["bm25"]["method"] == "okapi":
        vocab = index.bm25.retriever.vocab_dict
        if any(t in vocab for t in index.bm25.analyzer.tokens(args.query)):
            print("vidsleuth: note: the query's words occur in half or more of the documents, where Okapi idf "
                  "is 0; an index built with --method lucene keeps them", file=sys.stderr)
    if args.json:
        _print_json([{"rank": h.rank, "video_id": h.video_id, "score": h.score, "title": h.title} for h in hits])
    else:
        for h in hits:
            print(f"{h.rank:3d}. {h.score:8.4f}  {h.video_id}  {h.title}")
        if not hits:
            print("no results")
    return 0


def _search_eval_args(p):
    p.add_argument("-i", "--index", type=Path, help="index to run the queries on")
    p.add_argument("--queries", type=Path, help='JSONL lines {"id", "query", "relevant": [ids]}')
    p.add_argument("--qrels", type=Path, help="TREC qrels (instead of the queries' relevant lists)")
    p.add_argument("--run", type=Path, help="score this TREC run instead of running queries")
    p.add_argument("--run-out", type=Path, help="write the TREC run of the queries here")
    p.add_argument("-k", type=arg("k", "-k"), action="append", help="cut-off (repeatable; 10 is always reported)")
    p.add_argument("--per-query", action="store_true", help="include per-query values in --json")
    p.add_argument("--json", action="store_true")


@verb("search-eval", "Recall@K, MRR@K, nDCG@10 and Top-1 of queries on an index, or of a TREC run")(_search_eval_args)
def _search_eval(args) -> int:
    from .search.corpus import iter_jsonl
    from .search.evaluate import evaluate, qrels_from_queries, read_qrels, read_run, write_run

    ks = args.k or [10]
    if args.run:
        if not args.qrels:
            raise VidsleuthError("--run needs --qrels")
        run = read_run(args.run)
        qrels = read_qrels(args.qrels)
        if not run:
            raise DataFileError(args.run, None, "holds no lines: nothing to score")
    else:
        if not (args.index and args.queries):
            raise VidsleuthError("give -i INDEX and --queries FILE, or --run RUN --qrels QRELS")
        from .search.index import SearchIndex

        rows = []
        for n, row in iter_jsonl(args.queries):
            if not isinstance(row, dict) or "id" not in row or not isinstance(row.get("query"), str):
                raise DataFileError(args.queries, n, "needs 'id' and a string 'query'")
            rows.append(row)
        if not rows:
            raise DataFileError(args.queries, None, "holds no queries: nothing to score")
        qrels = read_qrels(args.qrels) if args.qrels else qrels_from_queries(rows)
        hits = SearchIndex.load(args.index).search_many([r["query"] for r in rows], k=max(ks + [10]))
        run = {str(r["id"]): [(h.video_id, h.score) for h in hs] for r, hs in zip(rows, hits)}
        if args.run_out:
            write_run(args.run_out, run)
    result = evaluate(run, qrels, ks)
    if args.json:
        _print_json(result if args.per_query else result["metrics"])
    else:
        for key, v in result["metrics"].items():
            print(f"{key:24s} {v:.4f}" if isinstance(v, float) else f"{key:24s} {v}")
    return 0


def _memory_args(p):
    p.add_argument("action", choices=["build", "query", "show"])
    p.add_argument("target", nargs="?", help="build: training JSONL; query: the question")
    p.add_argument("-m", "--memory", type=Path, required=True, help="memory bank folder")
    p.add_argument("-i", "--index", type=Path, help="BM25 index (build)")
    p.add_argument("--corpus", type=Path, help="corpus for seed-video metadata (default: the index's)")
    p.add_argument("--model", help="endpoint for distillation (default: role 'memory', else local)")
    p.add_argument("--config", type=Path)
    p.add_argument("--no-cache", action="store_true")
    p.add_argument("--top", type=arg("k", "--top"), default=3)
    p.add_argument("--pool", type=arg("k", "--pool"), default=20)
    p.add_argument("--json", action="store_true")


@verb("memory", "Translation Memory: build a bank from a training split, query it, show it")(_memory_args)
def _memory(args) -> int:
    from .search.memory import MemoryBank, build_memory, render_block

    if args.action == "build":
        from .models import Models
        from .search.index import SearchIndex

        if not args.target or not args.index:
            raise VidsleuthError("memory build needs TRAIN.jsonl and -i INDEX")
        models = Models(args.config, cache=not args.no_cache, overrides={"memory": args.model} if args.model else None)
        stats = build_memory(args.target, SearchIndex.load(args.index), args.memory, models, corpus=args.corpus)
        if args.json:
            _print_json(stats)
        else:
            rc = stats["rank_counts"]
            print(f"{stats['cards']} cards in {args.memory}: {stats['verified']} verified "
                  f"({stats['verified_share']:.1%}; ok {stats['ok']}, retry_ok {stats['retry_ok']}), "
                  f"{stats['failure']} anchors-only; seed rank 1/2/3: {rc['1']}/{rc['2']}/{rc['3']}; "
                  f"parse failures {stats['parse_failures']}")
        return 0
    bank = MemoryBank(args.memory)
    if args.action == "query":
        if not args.target:
            raise VidsleuthError("memory query needs a question")
        picked = bank.query(args.target, top=args.top, pool=args.pool)
        if args.json:
            _print_json([{"score": s, **c.to_dict()} for c, s in picked])
        else:
            print(render_block([c for c, _ in picked]))
        return 0
    if args.json:
        _print_json({"meta": bank.meta, "cards": [c.to_dict() for c in bank.cards]})
    else:
        print(json.dumps(bank.meta, indent=2, ensure_ascii=False))
        for c in bank.cards:
            print(f"[{c.status}] {c.index_text}\n    {c.payload_text().replace(chr(10), chr(10) + '    ')}")
    return 0


# --------------------------------------------------------------------------- metrics, bench


def _metrics_common(p, gt: bool = True):
    p.add_argument("--pred", type=Path, required=True, help="predictions file")
    if gt:
        p.add_argument("--gt", type=Path, required=True, help="ground truth file")
    p.add_argument("--json", action="store_true")


def _metrics_grounding_args(p):
    _metrics_common(p)
    p.add_argument("--format", default="native", choices=["native", "qvhighlights", "charades", "activitynet"],
                   help="grounding file format (default native)")
    p.add_argument("--durations", type=Path, help="Charades_v1_test.csv-style video lengths (charades, for --clip)")
    p.add_argument("--clip", action="store_true", help="clip intervals to [0, duration] (official scripts do not)")


def _print_metrics(m: dict, as_json: bool) -> int:
    if as_json:
        _print_json(m)
        return 0
    for key, v in m.items():
        if key == "Average":
            v = " / ".join(f"{s} {x:.4f}" for s, x in v.items() if x is not None)
        if not isinstance(v, dict):
            print(f"{key:32s} {v:.4f}" if isinstance(v, float) else f"{key:32s} {v}")
    return 0


@verb("metrics grounding", "temporal grounding: R1@0.3/0.5/0.7 and mIoU (native, QVHighlights, Charades-STA, ActivityNet)")(
    _metrics_grounding_args)
def _metrics_grounding(args) -> int:
    from .bench.datasets import load_gt, load_predictions
    from .bench.grounding import score_grounding

    gt = load_gt(args.gt, args.format, args.durations)
    preds, _ = load_predictions(args.pred, args.format)
    items = [{"gt": g["gt"], "pred": preds.get(k), "duration": g.get("duration")} for k, g in gt.items()]
    m = score_grounding(items, clip=args.clip).metrics()
    m["missing"] = sum(k not in preds for k in gt)
    m["extra"] = sum(k not in gt for k in preds)
    return _print_metrics(m, args.json)


def _pairs_file(path: Path, key: str, check=None) -> dict:
    """id -> value of ``key`` for each line; ``check(value)`` returns a problem ('' when fine),
    which is an error naming the line (ground truth) or None = unparsed (``check`` None)."""
    from .search.corpus import iter_jsonl

    out = {}
    for n, d in iter_jsonl(path):
        if not isinstance(d, dict) or "id" not in d:
            raise DataFileError(path, n, "needs 'id'")
        value = d.get(key)
        if check is not None:
            problem = check(value)
            if problem:
                raise DataFileError(path, n, f"{key}: {problem}")
        out[str(d["id"])] = value
    if not out:
        raise DataFileError(path, None, "holds no rows: nothing to score")
    return out


def _box_pair_problem(v) -> str:
    import math

    ok = (isinstance(v, list) and len(v) == 2 and all(isinstance(b, list) and len(b) == 4 and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in b) for b in v))
    return "" if ok else "expected [[x1, y1, x2, y2] at the start, [x1, y1, x2, y2] at the end] of finite numbers"


@verb("metrics boxes", "spatial grounding: AP@0.5 and mIoU over start/end boxes")(_metrics_common)
def _metrics_boxes(args) -> int:
    from .bench.grounding import score_boxes

    gt = _pairs_file(args.gt, "gt", _box_pair_problem)
    pred = {k: (v if not _box_pair_problem(v) else None) for k, v in _pairs_file(args.pred, "pred").items()}  # bad: unparsed
    return _print_metrics(score_boxes([{"gt": g, "pred": pred.get(k)} for k, g in gt.items()]), args.json)


@verb("metrics qa", "multiple-choice accuracy (answers parsed by the seed's priority rules)")(_metrics_common)
def _metrics_qa(args) -> int:
    from .bench.grounding import score_qa
    from .bench.parse import parse_option

    letter = lambda v: "" if isinstance(v, str) and v.strip().upper() in "ABCDEFGHIJ" and v.strip() else "expected one option letter"
    gt = {k: v.strip().upper() for k, v in _pairs_file(args.gt, "answer", letter).items()}
    # predictions are parsed as free text (["A"] or 42 is not an answer: unparsed)
    pred = {k: (parse_option(v) if isinstance(v, str) else None) for k, v in _pairs_file(args.pred, "pred").items()}
    return _print_metrics(score_qa([{"gt": g, "pred": pred.get(k)} for k, g in gt.items()]), args.json)


def _metrics_compass_args(p):
    _metrics_common(p, gt=False)
    p.add_argument("--data", type=Path, required=True, help="instances JSONL")
    p.add_argument("--box-format", default="auto", choices=["auto", "pixel", "norm1", "norm1000"])


@verb("metrics compass", "OmniCompass scores of a predictions file: per setting, CS_TG/SG/QA, CS_Avg, Average")(
    _metrics_compass_args)
def _metrics_compass(args) -> int:
    from .bench.compass import score_file

    m = score_file(args.data, args.pred, args.box_format)
    flat = {f"{s}.{task}.{k}": v for s, tasks in m["settings"].items() for task, vals in tasks.items()
            if isinstance(vals, dict) for k, v in vals.items()}
    average = {s: tasks.get("Average") for s, tasks in m["settings"].items()}
    out = {**m["consistency"], "Average": average, **flat, "consistency_pairs": m["consistency_pairs"],
           "counts": m["counts"], "breakdowns": m["breakdowns"]}
    return _print_metrics(out, args.json)


def _bench_compass_args(p):
    p.add_argument("--data", type=Path, help="instances JSONL (default: the generated demo set)")
    p.add_argument("--model", help="endpoint to evaluate (default local)")
    p.add_argument("--config", type=Path, help="model config TOML")
    p.add_argument("--track", choices=["VL", "AV"])
    p.add_argument("--frames", type=int_list("frames"), help="frame budget K, or a sweep: 8,16,32,64,128 (default: the seed's table)")
    p.add_argument("--no-timestamps", action="store_true", help="frames without their timestamps (ablation)")
    p.add_argument("--modality", choices=["text", "vision", "vision+audio"], help="input modality (ablation)")
    p.add_argument("--box-format", default="auto", choices=["auto", "pixel", "norm1", "norm1000"])
    p.add_argument("--concurrency", type=arg("concurrency"), default=4)
    p.add_argument("--out", type=Path, default=Path("bench-output") / "compass", help="output folder")
    p.add_argument("--no-cache", action="store_true")
    p.add_argument("--json", action="store_true")


@verb("bench compass", "OmniCompass-style TG/SG/QA with Text vs Text+Image pairs and CS scores")(_bench_compass_args)
def _bench_compass(args) -> int:
    from .bench.compass import run_compass_sweep

    results, errors, missing = run_compass_sweep(
        args.data, args.config, args.model or "local", args.out, frames=args.frames, track=args.track,
        timestamps=not args.no_timestamps, modality=args.modality, concurrency=args.concurrency,
        box_format=args.box_format, cache=not args.no_cache)
    if args.json:
        _print_json(results)
    else:
        for r in results.values():
            print(Path(r["out"], "summary.md").read_text())
            print(f"outputs: {Path(r['out']).resolve()}")
    return _report_run_errors(errors, missing, "instance settings")


# --------------------------------------------------------------------------- agents


def _agent_args(p, index_required: bool = True):
    p.add_argument("-i", "--index", type=Path, required=index_required, help="search index folder")
    p.add_argument("--corpus", type=Path, help="corpus.jsonl (default: the one the index was built from)")
    p.add_argument("--memory", type=Path, help="Translation Memory bank folder")
    p.add_argument("--model", help="endpoint for every agent role (default: config roles, else local)")
    p.add_argument("--config", type=Path, help="model config TOML")
    p.add_argument("--library", type=Path, help="ingest library for transcripts and on-screen text")
    p.add_argument("--allow-download", action="store_true", help="fetch videos that have a url but no local path (yt-dlp)")
    p.add_argument("--t-max", type=arg("t_max"), help="browsing loops (default 3; or [browse] t_max in the config)")
    p.add_argument("--search-k", type=arg("search_k"), help="candidates per search (default 10)")
    p.add_argument("--analyst-frames", type=arg("analyst_frames"), help="frames per selected video (default 128)")
    p.add_argument("--watcher", choices=["auto", "llm", "embed"], help="Watcher kind (default auto: by the endpoint's vision)")
    p.add_argument("--no-cache", action="store_true")


def _agent_spec(args, judge: str | None = None) -> dict:
    """``open_browse``'s arguments as plain data (worker processes and Ray tasks rebuild from it)."""
    text = lambda p: str(p) if p is not None else None  # noqa: E731
    return {"index": text(args.index), "corpus": text(args.corpus), "config": text(args.config), "model": args.model,
            "judge": judge, "library": text(args.library), "memory": text(args.memory),
            "allow_download": args.allow_download, "cache": not args.no_cache, "t_max": args.t_max,
            "search_k": args.search_k, "analyst_frames": args.analyst_frames, "watcher": args.watcher}


def _agent_setup(args, judge: str | None = None):
    from .browse.setup import open_browse

    return open_browse(**_agent_spec(args, judge))


def _ask_args(p):
    p.add_argument("question")
    p.add_argument("--agent", choices=["video-browser", "react"], default="video-browser")
    p.add_argument("--trace", type=Path, help="write the trajectory JSON here")
    _agent_args(p)
    p.add_argument("--json", action="store_true")


@verb("ask", "answer a question from the videos of an index (Video-Browser or ReAct)")(_ask_args)
def _ask(args) -> int:
    from .store import RunStore

    setup = _agent_setup(args)
    store = RunStore(Path(args.trace).with_suffix(".runs.sqlite")) if args.trace else None
    run_id = store.start_run("ask", {"question": args.question}) if store is not None else None
    ans = setup.agent(args.agent, setup.models.bind(store, run_id)).run(args.question)
    if args.trace:
        ans.save(args.trace)
    cost = store.summary(run_id)["total"] if store is not None else None
    if args.json:
        _print_json({**ans.to_dict(), "cost": cost})
    else:
        conf = "unknown" if ans.confidence is None else f"{ans.confidence:.0%}"
        print(f"Answer: {ans.answer if ans.answer is not None else '(no parseable answer)'}  (confidence {conf})")
        print(f"Why: {ans.explanation}")
        for vid, a, b, what in ans.evidence:
            print(f"Answer's words found at: {vid} @ {seconds_label(a)}-{seconds_label(b)}  {what}")
        if ans.selected:
            print("Videos used: " + ", ".join(ans.selected))
        for vid, why in ans.unavailable:
            print(f"Unavailable: {vid}: {why}")
        t = ans.tokens()
        print(f"Tokens: browse {t['browse']}, verify {t['verify']}" + (f"; model calls {cost['model_calls']}, cost {cost['cost']:.4f}" if cost else ""))
    return 0


def _trace_args(p):
    p.add_argument("file", type=Path)


@verb("trace", "print a saved agent trajectory readably")(_trace_args)
def _trace(args) -> int:
    from .browse.trace import load_trace, render

    print(render(load_trace(args.file)))
    return 0


def _bench_browse_args(p):
    p.add_argument("--questions", type=Path, required=True,
                   help="questions JSONL (id, question, answer, level, genre, seed_video_ids)")
    p.add_argument("--agent", choices=["video-browser", "react"], default="video-browser")
    _agent_args(p)
    p.add_argument("--judge", help="endpoint for the judge role")
    p.add_argument("--judge-method", choices=["auto", "llm", "contains"], default="auto",
                   help="llm: the seed's judge prompt; contains: value containment; auto: contains for text-only endpoints")
    p.add_argument("--concurrency", type=arg("concurrency"), default=4)
    p.add_argument("--retries", type=arg("retries"), default=0, help="retries per question after an endpoint error")
    p.add_argument("--executor", choices=["threads", "local", "ray"], default="threads",
                   help="threads (remote endpoints: the default), local (a process pool: embedded CPU-bound models), ray")
    p.add_argument("--address", help="Ray cluster address (with --executor ray)")
    p.add_argument("--out", type=Path, default=Path("bench-output") / "browse", help="output folder")
    p.add_argument("--json", action="store_true")


@verb("bench browse", "the browsing benchmark: accuracy, calibration, recall, watched rate, tokens (seed 001)")(
    _bench_browse_args)
def _bench_browse(args) -> int:
    from .bench.browse import read_questions, run_browse
    from .browse.setup import browse_protocol

    read_questions(args.questions)  # a bad file fails before the index, models or outputs are touched
    setup = _agent_setup(args, judge=args.judge)
    metrics = run_browse(args.questions, lambda m: setup.agent(args.agent, m), setup.models, args.out,
                         protocol=browse_protocol(setup, args.agent), concurrency=args.concurrency,
                         judge_with=args.judge_method, retries=args.retries, executor=args.executor,
                         address=args.address, spec={"open": _agent_spec(args, args.judge), "agent": args.agent})
    if args.json:
        _print_json({k: v for k, v in metrics.items() if k not in ("calibration",)})
    else:
        print((args.out / "summary.md").read_text(encoding="utf-8"))
        print(f"outputs: {args.out.resolve()}")
    return _report_run_errors(metrics["run_errors"], metrics["missing"], "questions")


def _report_run_errors(errors: list[dict], missing: int, what: str) -> int:
    """A run with failed items still writes its outputs, but exits 1 and says how to resume."""
    if not missing:
        return 0
    first = errors[0]["error"] if errors else "unknown error"
    print(f"vidsleuth: error: {missing} {what} got no answer (first: {first}); "
          f"fix the cause and rerun the same command to resume", file=sys.stderr)
    return 1


def _calibration_args(p):
    p.add_argument("--input", type=Path, required=True, help='JSONL lines {"correct": bool, "confidence": number|null}')
    p.add_argument("--bins", type=arg("bins"), default=5)
    p.add_argument("--json", action="store_true")


@verb("metrics calibration", "calibration error (seed 001 App. A.6.2) of a file of answers")(_calibration_args)
def _calibration(args) -> int:
    from .bench.browse import calibration, read_calibration_rows

    m = calibration(read_calibration_rows(args.input), bins=args.bins)
    if args.json:
        _print_json(m)
    else:
        print(f"n {m['n']}  accuracy {m['accuracy']:.4f}  calibration error {m['calibration_error']:.4f}")
    return 0


# --------------------------------------------------------------------------- demo


def _demo_args(p):
    p.add_argument("--out", type=Path, default=Path("demo-output"), help="output folder (default ./demo-output)")
    p.add_argument("--skip-agent", action="store_true", help="no browsing demo")
    p.add_argument("--skip-report", action="store_true", help="no report demo (nor its rubric calibration)")


@verb("demo", "generate demo clips, ingest them offline and print their timelines")(_demo_args)
def _demo(args) -> int:
    from .demo import run_demo

    run_demo(args.out, agent=not args.skip_agent, reports=not args.skip_report)
    return 0


# --------------------------------------------------------------------------- report


def _report_args(p):
    p.add_argument("video", type=Path, metavar="VIDEO")
    p.add_argument("--request", required=True, help="what the report is for (the user's request)")
    p.add_argument("--docs", type=Path, help="a folder of documents to research (HTML, Markdown, text, PDF)")
    p.add_argument("-i", "--index", type=Path, help="a search index of related videos (`vidsleuth index build`)")
    p.add_argument("--web", action="store_true", help="also search the live web ([report] web_search_url); off by default")
    p.add_argument("--model", help="endpoint that relates evidence, writes and judges (default: the deterministic rules)")
    p.add_argument("--config", type=Path, help="config file ([models], [roles], [report])")
    p.add_argument("--library", type=Path, help="ingest library folder")
    p.add_argument("--date", help="the video's publication date (YYYY-MM-DD) when its file does not say")
    p.add_argument("--max-anchors", type=arg("anchors"), help="research anchors at most (default 8)")
    p.add_argument("--sources-per-anchor", type=arg("per_anchor"), help="evidence records per anchor at most (default 3)")
    p.add_argument("--min-sources", type=arg("budget"), help="budget: external sources at least (default 3)")
    p.add_argument("--min-documents", type=arg("budget"), help="budget: documents at least (default 1)")
    p.add_argument("--min-related-videos", type=arg("budget"), help="budget: related videos at least (default 0)")
    p.add_argument("--min-sources-per-anchor", type=arg("budget"), help="budget: cited sources per anchor at least (default 1)")
    p.add_argument("--repair-rounds", type=arg("budget"), help="check-and-repair rounds (default 2)")
    p.add_argument("--no-browser", action="store_true", help="skip the Chromium check (it runs by default)")
    p.add_argument("--out", type=Path, required=True, help="output folder (new, empty, or an earlier report)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")


@verb("report", "write an interactive, validated research report anchored on a video (`report check DIR` re-checks one)")(
    _report_args)
def _report(args) -> int:
    from .report import report

    result = report(args.video, args.request, out=args.out, docs=args.docs, index=args.index, web=args.web,
                    model=args.model, config=args.config, library=args.library, date=args.date,
                    browser=not args.no_browser, echo=lambda m: print(m, file=sys.stderr),
                    max_anchors=args.max_anchors, sources_per_anchor=args.sources_per_anchor,
                    min_sources=args.min_sources, min_documents=args.min_documents,
                    min_related_videos=args.min_related_videos, min_sources_per_anchor=args.min_sources_per_anchor,
                    repair_rounds=args.repair_rounds)
    if args.json:
        _print_json(result)
    else:
        failed = {k: v for k, v in result["checks"].items() if v}
        print(f"{result['anchors']} anchors, {result['evidence']} evidence records from {result['sources']} sources; "
              f"checks {'passed' if result['passed'] else 'FAILED: ' + ', '.join(f'{k} ({len(v)})' for k, v in failed.items())}")
        print(result["report"])
    return 0 if result["passed"] else 2


def _report_check_args(p):
    p.add_argument("folder", type=Path, metavar="DIR")
    p.add_argument("--model", help="judge endpoint for citation support (default: the deterministic relater)")
    p.add_argument("--config", type=Path, help="config file")
    p.add_argument("--no-browser", action="store_true", help="skip the Chromium check")
    p.add_argument("--repair", type=arg("budget"), metavar="ROUNDS",
                   help="repair what fails, up to ROUNDS rounds, and rewrite the report (default: only check)")
    p.add_argument("--json", action="store_true", help="print JSON")


@verb("report-check", "check a written report: timestamps, citations, support, assets, links, budgets, browser")(
    _report_check_args)
def _report_check(args) -> int:
    from .models import Models
    from .report import check_report

    models = Models(args.config, overrides={"default": args.model}) if args.model else None
    judge = models.for_role("judge") if models else None
    if args.repair:
        from .report import validate

        result, _ = validate(args.folder, rounds=args.repair, browser=not args.no_browser, judge=judge,
                             writer=models.for_role("writer") if models else None)
    else:
        result = check_report(args.folder, browser=not args.no_browser, judge=judge)
    if args.json:
        _print_json(result)
    else:
        for name, failures in result["checks"].items():
            print(f"{'ok  ' if not failures else 'FAIL'} {name}" + (f" ({len(failures)})" if failures else ""))
            for f in failures[:10]:
                print(f"       {f['where']}: {f['message']}")
        print("passed" if result["passed"] else "failed")
    return 0 if result["passed"] else 2


# --------------------------------------------------------------------------- rubric, omnidr, trajectory


def _rubric_validate_args(p):
    p.add_argument("file", type=Path, metavar="FILE")


@verb("rubric validate", "check an Omni-ART rubric tree; every problem is named by its node path")(_rubric_validate_args)
def _rubric_validate(args) -> int:
    from .rubric.schema import from_dict, problems, read_rubric_json

    data = read_rubric_json(args.file)
    found = problems(data)
    for line in found:
        print(f"{args.file}: {line}", file=sys.stderr)
    if found:
        return 1
    rubric = from_dict(data)
    leaves = list(rubric.leaves())
    print(f"{args.file}: valid ({len(rubric.dimensions)} dimensions, "
          f"{sum(len(d.directions) for d in rubric.dimensions)} directions, {len(leaves)} leaves, "
          f"{sum(1 for _, _, leaf in leaves if leaf.gate)} gates)")
    return 0


def _bench_omnidr_args(p):
    p.add_argument("--tasks", type=Path, required=True, help="folder of task folders, each with rubric.json")
    p.add_argument("--reports", type=Path, required=True, help="folder of report folders named by task id")
    p.add_argument("--judge", default="rules", help="`rules` (offline, deterministic) or an endpoint name")
    p.add_argument("--against", type=Path, help="a second system's reports: paired bootstrap interval of the difference")
    p.add_argument("--browser", action="store_true", help="run the Chromium check for machine leaves that name it")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.add_argument("--concurrency", type=arg("concurrency"), default=2, help="tasks scored at once (default 2)")
    p.add_argument("--config", type=Path, help="config file")
    p.add_argument("--out", type=Path, required=True, help="output folder")


@verb("bench omnidr", "score reports against Omni-ART rubric trees (seed 000): all-task and successful means, bootstrap")(
    _bench_omnidr_args)
def _bench_omnidr(args) -> int:
    from .bench.omnidr import run_omnidr

    run_omnidr(args.tasks, args.reports, judge=args.judge, out=args.out, config=args.config, against=args.against,
               browser=args.browser, workers=args.concurrency, seed=args.seed)
    print(f"outputs: {args.out}")
    return 0


def _trajectory_args(p):
    p.add_argument("run", type=Path, metavar="RUN", help="a report folder, a browse trace (.json) or a JSONL of events")
    p.add_argument("--json", action="store_true", help="print JSON")


@verb("trajectory stats", "steps, tool errors, tokens, time and the interleaving rule (seed 000 App. F.7)")(_trajectory_args)
def _trajectory_stats(args) -> int:
    from .rubric.stats import events_of, trajectory_stats

    stats = trajectory_stats(events_of(args.run))
    if args.json:
        _print_json(stats)
    else:
        print("  ".join(f"{k} {v}" for k, v in stats.items()))
    return 0


# --------------------------------------------------------------------------- main


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line and exit 1, like every other error."""

    def error(self, message: str):  # noqa: D102
        self.exit(1, f"vidsleuth: error: {self.prog}: {message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    """Verbs whose names have two words (``bench browse``, ``metrics qa``) are subcommands of
    their first word, each with only its own options."""
    parser = _Parser(prog="vidsleuth", description="Agents that search, watch, ground and research video.")
    parser.add_argument("--version", action="version", version=f"vidsleuth {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    parser.add_argument("--no-progress", action="store_true", help="never draw progress bars")
    sub = parser.add_subparsers(dest="verb", metavar="VERB", required=True, parser_class=_Parser)
    groups: dict[str, argparse._SubParsersAction] = {}
    for v in VERBS.values():
        head, _, rest = v.name.partition(" ")
        if rest and head not in {w.name for w in VERBS.values()}:
            if head not in groups:
                gp = sub.add_parser(head, help=f"{head} …: " + ", ".join(w.name.split(" ", 1)[1] for w in VERBS.values()
                                                                      if w.name.startswith(head + " ")))
                groups[head] = gp.add_subparsers(dest="sub", metavar="WHAT", required=True, parser_class=_Parser)
            sp = groups[head].add_parser(rest, help=v.help, description=v.help)
        else:
            sp = sub.add_parser(v.name.replace(" ", "-") if rest else v.name, help=v.help, description=v.help)
        v.add_args(sp)
        sp.set_defaults(_run=v.run)
    return parser


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"vidsleuth: warning: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    for i, word in enumerate(argv):
        # `search QUERY` and `search eval …` (and `report VIDEO` and `report check DIR`) share a
        # first word, and argparse cannot give one parser both a free positional and subcommands:
        # these verbs are spelled `search-eval`/`report-check` inside, with a space outside.
        if not word.startswith("-"):
            if (word, tuple(argv[i + 1 : i + 2])) in (("search", ("eval",)), ("report", ("check",))):
                argv[i : i + 2] = [f"{word}-{argv[i + 1]}"]
            break
    args = build_parser().parse_args(argv)
    from . import progress

    progress.enable(not args.no_progress)  # drawn only when stderr is a terminal
    if not args.debug:
        warnings.showwarning = _show_warning
    try:
        return args._run(args)
    except VidsleuthError as exc:
        if args.debug:
            raise
        print(f"vidsleuth: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:  # e.g. an output folder that cannot be written
        if args.debug:
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"vidsleuth: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("vidsleuth: interrupted; finished work is kept and a rerun resumes", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
