"""The browsing benchmark (seed 001 §5, App. A.6-A.7): accuracy by the seed's judge prompt (with
a normalised exact-match short-cut recorded beside it), calibration error with B = 5 bins,
cumulative recall, watched rate, per-level and per-genre tables, tokens per phase, failures."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import numpy as np

from ..errors import DataFileError, ModelOutputError, VidsleuthError
from ..files import writes_output
from ..prompts import prompt_hash, render
from ..search.corpus import iter_jsonl
from .browse_figures import plot

BINS = 5
JUDGE_SCHEMA = {"type": "object", "properties": {"is_correct": {"type": "boolean"}}, "required": ["is_correct"]}


def calibration(rows: list[dict], bins: int = BINS) -> dict:
    """App. A.6.2: B equal bins [0, 1/B), …, [(B-1)/B, 1.0] (1.0 in the last); CE = sum_i n_i / N
    |acc(i) - conf(i)| with N the total number of samples. A question without an answer or a
    confidence stays in N with confidence 0 (and is incorrect when it has no answer); how many
    there were is reported as ``without_confidence``."""
    if bins < 1:
        raise VidsleuthError(f"bins must be at least 1, not {bins}")
    usable = [{**r, "confidence": 0.0 if r.get("confidence") is None else r["confidence"]} for r in rows]
    out_bins = []
    ce = 0.0
    n = len(usable)
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        inside = [r for r in usable if lo <= r["confidence"] < hi or (b == bins - 1 and r["confidence"] == 1.0)]
        if inside:
            acc = float(np.mean([bool(r["correct"]) for r in inside]))
            conf = float(np.mean([r["confidence"] for r in inside]))
            ce += len(inside) / n * abs(acc - conf)
        else:
            acc = conf = None
        out_bins.append({"lo": lo, "hi": hi, "n": len(inside), "accuracy": acc, "confidence": conf})
    return {"n": n, "accuracy": float(np.mean([bool(r["correct"]) for r in usable])) if usable else 0.0,
            "calibration_error": ce, "bins": out_bins,
            "without_confidence": sum(1 for r in rows if r.get("confidence") is None)}


def _plausible_confidence(raw) -> bool:
    """0..1, or a percentage 0..100 ("85%", 85): 1e308, -5 or NaN are errors, not clamped."""
    import math

    try:
        v = float(str(raw).strip().rstrip("%"))
    except ValueError:
        return True  # parse_confidence found a number inside text such as "about 80 percent"
    return math.isfinite(v) and 0.0 <= v <= 100.0


def read_calibration_rows(path: str | Path) -> list[dict]:
    from ..browse.trace import parse_confidence

    rows = []
    for n, d in iter_jsonl(path):
        if not isinstance(d, dict) or not isinstance(d.get("correct"), bool) or "confidence" not in d:
            raise DataFileError(path, n, 'expected {"correct": true|false, "confidence": number, percentage or null}')
        raw = d["confidence"]
        c = None if raw is None else parse_confidence(raw)
        if raw is not None and (c is None or not _plausible_confidence(raw)):
            raise DataFileError(path, n, f"confidence {raw!r} is not a number in [0, 1], a percentage in [0, 100] or null")
        rows.append({"correct": d["correct"], "confidence": c})
    if not rows:
        raise DataFileError(path, None, "holds no rows: nothing to score")
    return rows


def exact_match(pred: str | None, truth: str) -> bool:
    """The same value, read as a grader reads it (``browse.answers.value_tokens``): "8pm" = "8 PM"."""
    from ..browse.answers import value_tokens

    drop = lambda text: [t for t in value_tokens(text) if t not in ("a", "an", "the")]
    return bool(pred) and bool(drop(truth)) and drop(pred) == drop(truth)


def contains_match(prediction: str | None, truth: str) -> bool:
    """Lenient rule: the truth's value tokens occur contiguously in the prediction's
    (``browse.answers.matches``: numbers, number words and units normalised; by characters for
    Chinese/Japanese). Accepts "was 3 to 1." for "3-1" and "28 degrees" for "28 °C"; also accepts
    "1 hour and 30 minutes" for "30", which is why an LLM judge is preferred when one is available."""
    from ..browse.answers import matches

    return matches(prediction, truth)


def judge_method(models, requested: str = "auto") -> str:
    """``llm`` (the seed's judge prompt) or ``contains`` (the rule above). ``auto`` uses the rule
    unless the judge endpoint is trusted as a judge (``judge = true``; the OpenAI backend's
    default): the embedded 0.5B model accepted 10 of 10 demo answers including "$1.50" for
    "4 EUR" and "100" for "5元"."""
    if requested != "auto":
        return requested
    return "llm" if models.for_role("judge").endpoint.accepts("judge") else "contains"


def judge(models, question: str, truth: str, prediction: str | None, method: str = "llm") -> tuple[bool | None, dict]:
    """The seed's judge prompt; None when the judge's answer cannot be parsed (counted)."""
    if prediction is None:
        return False, {"skipped": "no parseable prediction"}
    if method == "contains":
        return contains_match(prediction, truth), {"method": "contains"}
    model = models.for_role("judge")
    try:
        reply = model.chat(render("judge.j2", question=question, ground_truth=truth, prediction=prediction).strip(),
                           schema=JUDGE_SCHEMA, max_tokens=32)
        return bool(reply.data["is_correct"]), {"tokens": reply.tokens_in + reply.tokens_out, "cached": reply.cached}
    except ModelOutputError as exc:
        return None, {"error": str(exc)}


# the field names of public question files (the seed's release) beside the project's own
ID_FIELDS, QUESTION_FIELDS, ANSWER_FIELDS = ("id", "row_id", "qid"), ("question", "query"), ("answer", "ground_truth")


def _first(d: dict, names: tuple[str, ...]):
    return next((d[k] for k in names if d.get(k) not in (None, "")), None)


def _level(value) -> str:
    """1, "1", "Level 1", "l1" -> "L1"; other labels as given."""
    import re

    m = re.fullmatch(r"\s*(?:l|level)?\s*([1-9])\s*", str(value), flags=re.I)
    return f"L{m.group(1)}" if m else str(value)


def read_questions(path: str | Path) -> list[dict]:
    """Questions with ``id`` (or ``row_id``), ``question``, ``answer``, optional ``level``, ``genre``
    and ``seed_video_ids`` (or one ``seed_video_id``)."""
    rows, seen = [], set()
    for n, d in iter_jsonl(path):
        qid = _first(d, ID_FIELDS) if isinstance(d, dict) else None
        answer = _first(d, ANSWER_FIELDS) if isinstance(d, dict) else None
        if qid is None or not _first(d, QUESTION_FIELDS) or answer is None:
            raise DataFileError(path, n, "needs 'id' (or 'row_id'), 'question' and 'answer'")
        if isinstance(qid, (dict, list, bool)) or isinstance(answer, (dict, list)):
            raise DataFileError(path, n, "'id' and 'answer' must be strings or numbers")
        if str(qid) in seen:
            raise DataFileError(path, n, f"duplicate id {qid!r}")
        seen.add(str(qid))
        seeds = d.get("seed_video_ids") or ([d["seed_video_id"]] if d.get("seed_video_id") else [])
        if not isinstance(seeds, list) or any(isinstance(v, (dict, list)) for v in seeds):
            raise DataFileError(path, n, "'seed_video_ids' must be a list of video ids")
        rows.append({"id": str(qid), "question": _first(d, QUESTION_FIELDS), "answer": str(answer),
                     "level": _level(d.get("level", "")) if d.get("level") not in (None, "") else "",
                     "genre": str(d.get("genre", "")), "seed_video_ids": [str(v) for v in seeds]})
    if not rows:
        raise DataFileError(path, None, "holds no questions: nothing to run")
    return rows


def _table(rows: list[dict], key: str) -> dict:
    groups = defaultdict(list)
    for r in rows:
        groups[r[key] or "(none)"].append(r)
    return {g: {"n": len(rs), "accuracy": float(np.mean([bool(r["correct"]) for r in rs])),
                "recall": float(np.mean([r["recalled"] for r in rs])), "watched": float(np.mean([r["watched"] for r in rs]))}
            for g, rs in sorted(groups.items())}


def summarise(rows: list[dict]) -> dict:
    n = len(rows)
    mean = lambda k: float(np.mean([r[k] for r in rows])) if rows else 0.0
    cal = calibration([{"correct": r["correct"], "confidence": r["confidence"]} for r in rows])
    return {
        "n": n, "accuracy": mean("correct"), "exact_match": mean("exact"),
        "judge_exact_disagreements": sum(r["judge"] is not None and r["judge"] != r["exact"] for r in rows),
        "judge_unparsed": sum(r["judge"] is None for r in rows),
        "calibration_error": cal["calibration_error"], "calibration": cal,
        "cumulative_recall": mean("recalled"), "watched_rate": mean("watched"),
        "tokens_per_question": {"browse": mean("tokens_browse"), "verify": mean("tokens_verify")},
        "parse_failures": sum(r["parse_failures"] for r in rows), "errors": sum(bool(r.get("error")) for r in rows),
        "videos_unavailable": len({u[0] for r in rows for u in r.get("unavailable", [])}),
        "questions_with_unavailable_videos": sum(bool(r.get("unavailable")) for r in rows),
        "questions_with_guards": sum(any(g.startswith(("planner", "searcher", "checker", "analyst", "react")) and "guard"
                                         in g for g in r.get("guards", [])) for r in rows),
        "by_level": _table(rows, "level"), "by_genre": _table(rows, "genre"),
    }


def answer_question(q: dict, agent, bound, out: Path, method: str, warn=None) -> dict:
    """One question: the agent's answer, its trace file, the judge's verdict; the stored row."""
    from ..files import safe_filename

    ans = agent.run(q["question"])
    if ans.unavailable and warn is not None:
        warn(ans.unavailable[0])
    ans.save(out / "traces" / safe_filename(q["id"], ".json"))
    verdict, info = judge(bound, q["question"], q["answer"], ans.answer, method)  # raises on endpoint errors
    exact = exact_match(ans.answer, q["answer"])
    tokens = ans.tokens()
    return {**q, "prediction": ans.answer, "explanation": ans.explanation, "confidence": ans.confidence,
            "judge": verdict, "exact": exact, "correct": bool(verdict) if verdict is not None else exact,
            "recalled": any(v in ans.candidates for v in q["seed_video_ids"]),
            "watched": any(v in ans.selected for v in q["seed_video_ids"]),
            "selected": list(ans.selected), "answer_matches": [list(e) for e in ans.evidence],
            "unavailable": [list(u) for u in ans.unavailable], "guards": ans.guards(),
            "tokens_browse": tokens["browse"], "tokens_verify": tokens["verify"],
            "parse_failures": ans.parse_failures, "judge_info": info,
            "trace": f"traces/{safe_filename(q['id'], '.json')}"}


_WORKER: dict = {}  # per worker process: the set-up built once from its spec


def _browse_job(payload: tuple) -> dict:
    """One question in a worker process or Ray task (module level: picklable). The worker opens
    the index, models and videos itself from the plain-data spec, once per process, and records
    its model calls into the run store file through its own connection."""
    spec, q, out, store_path, run_id, method = payload
    key = (json.dumps(spec, sort_keys=True), store_path)
    if key not in _WORKER:
        from ..browse.setup import open_browse
        from ..store import RunStore

        _WORKER[key] = (open_browse(**spec["open"]), RunStore(store_path))
    setup, store = _WORKER[key]
    bound = setup.models.bind(store, run_id)
    return answer_question(q, setup.agent(spec["agent"], bound), bound, Path(out), method)


def _open_spec(spec: dict, protocol: dict):
    """The agent factory, models and protocol of ``spec`` (``open_browse``'s plain-data keywords
    and the agent's name), for a caller that gives no objects."""
    from ..browse.setup import browse_protocol, open_browse

    setup = open_browse(**spec["open"])
    return (lambda m: setup.agent(spec["agent"], m)), setup.models, {**browse_protocol(setup, spec["agent"]), **protocol}


def _unavailable_warner(warn):
    """A callback that warns once, naming the first unreadable video (the rest are only counted)."""
    import warnings

    warned: list[str] = []

    def unavailable(first) -> None:
        if not warned:
            warned.append(first[1])
            (warn or (lambda m: warnings.warn(m, stacklevel=2)))(
                f"some corpus videos cannot be read (first: {first[0]}: {first[1]}); "
                "they are counted as 'videos unavailable' and their candidates are screened on metadata only")

    return unavailable


@writes_output("bench browse")
def run_browse(questions: str | Path, agent_factory, models, out: str | Path, *, protocol: dict, workers: int = 1,
               judge_with: str = "auto", retries: int = 0, warn=None, executor: str = "threads",
               address: str | None = None, spec: dict | None = None) -> dict:
    """Answer every question (resumable through ``runner.map_items``), judge, write the outputs.

    ``executor`` ``threads`` runs ``agent_factory`` here; ``local`` (a process pool) and ``ray``
    need ``spec`` — the plain-data arguments of ``open_browse`` and the agent's name — from which
    each worker builds its own set-up (the embedded LLM is CPU-bound: processes or machines, not
    threads, spread it). A question whose agent or judge call fails (an endpoint error) is not
    stored: it is counted in ``missing`` with its error, and rerunning the same command asks
    exactly those again."""
    from ..errors import ArgumentError
    from ..runner import map_items
    from ..store import RunStore

    qs = read_questions(questions)  # validated before anything is created
    if agent_factory is None and spec is not None:  # the set-up from plain data, opened once the questions are read
        agent_factory, models, protocol = _open_spec(spec, protocol)
    if executor != "threads" and spec is None:
        raise ArgumentError(f"executor {executor!r} needs the set-up as plain data (spec)",
                            hint="the CLI passes it; from Python use executor='threads' or give spec=")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "traces").mkdir(exist_ok=True)
    store = RunStore(out / "runs.sqlite")
    method = judge_method(models, judge_with)
    protocol = {**protocol, "questions": str(Path(questions).resolve()), "judge_method": method,
                "judge_prompt": prompt_hash("judge.j2") if method == "llm" else None}
    run_id = store.find_or_start("browse", protocol)
    bound = models.bind(store, run_id)
    unavailable = _unavailable_warner(warn)
    if executor == "threads":
        fn = lambda q: answer_question(q, agent_factory(bound), bound, out, method, unavailable)  # noqa: E731
        items = [(q["id"], q) for q in qs]
    else:
        fn = _browse_job
        items = [(q["id"], (spec, q, str(out), str(store.path), run_id, method)) for q in qs]
    result = map_items(fn, items, store=store, run_id=run_id, workers=max(1, workers), retries=retries,
                       label="questions", executor=executor, address=address)
    rows = [result.done[q["id"]] for q in qs if q["id"] in result.done]
    for r in rows:
        if r.get("unavailable"):
            unavailable(r["unavailable"][0])
            break
    metrics = summarise(rows)
    metrics["missing"] = len(qs) - len(rows)
    metrics["judge_method"] = method
    metrics["run_errors"] = result.errors()
    metrics["calls"] = store.summary(run_id)
    write_outputs(out, rows, metrics, protocol, result.seconds)
    return metrics


def write_outputs(out: Path, rows: list[dict], m: dict, protocol: dict, seconds: float) -> None:
    from ..browse.trace import load_trace
    from ..manifest import MANIFEST_FILE, manifest_rows, write_manifest
    from .output import WRITTEN, jsonl, write_run

    write_manifest(out / MANIFEST_FILE, [f for r in rows for f in manifest_rows(r["id"], load_trace(out / r["trace"]).frames())])
    plot(m, out)
    write_run(out, "browse", protocol, seconds=seconds, files={
        "predictions.jsonl": jsonl(rows), "metrics.json": json.dumps(m, indent=2, ensure_ascii=False),
        "summary.md": summary_md(m)}, figures={MANIFEST_FILE: WRITTEN, "reliability.png": WRITTEN, "genres.png": WRITTEN})


def summary_md(m: dict) -> str:
    """The run's ``summary.md``: the headline table, the counts of what went wrong, per level
    and genre, and the model calls (the CLI prints it)."""
    from ..markdown import table

    pct = lambda v: f"{100 * v:.1f}"
    lines = ["# Browsing benchmark", ""]
    lines += table(["n", f"OA ({m['judge_method']} judge)", "exact match", "CE", "cumulative recall", "watched",
                    "browse tok/q", "verify tok/q"],
                   [[m["n"], pct(m["accuracy"]), pct(m["exact_match"]), pct(m["calibration_error"]),
                     pct(m["cumulative_recall"]), pct(m["watched_rate"]), f"{m['tokens_per_question']['browse']:.0f}",
                     f"{m['tokens_per_question']['verify']:.0f}"]])
    cal = m["calibration"]
    lines += ["", f"Judge/exact disagreements: {m['judge_exact_disagreements']}; judge verdicts unparsed (scored by "
                  f"exact match instead): {m['judge_unparsed']}; agent parse failures: {m['parse_failures']}; "
                  f"questions missing (endpoint errors, rerun to resume): {m['missing']}; videos unavailable: "
                  f"{m['videos_unavailable']} (in {m['questions_with_unavailable_videos']} questions); questions where a "
                  f"guard fired: {m['questions_with_guards']}; calibration over N = {cal['n']} "
                  f"({cal['without_confidence']} without a confidence, counted at 0).", ""]
    for name in ("by_level", "by_genre"):
        lines += [f"## {name.replace('_', ' ')}", ""]
        lines += table(["group", "n", "OA", "recall", "watched"],
                       [[g, v["n"], pct(v["accuracy"]), pct(v["recall"]), pct(v["watched"])] for g, v in m[name].items()])
        lines.append("")
    calls = m["calls"]["total"]
    lines.append(f"Model calls {calls['model_calls']} (+{calls['cache_hits']} cached), cost {calls['cost']:.4f}.")
    return "\n".join(lines) + "\n"


def watcher_comparison(index, models, videos, questions: str | Path, config=None,
                       watchers: tuple[str, ...] = ("embed", "llm")) -> dict:
    """Seed Table 5's comparison on the hard negatives, each over the BM25 top-k of the question
    itself: top-1 hit of BM25, of a metadata-only reranker, and of each Watcher kind: ``llm``
    (seed-style: one model call over metadata and grids, or the grids' OCR notes for a text-only
    model) and ``embed`` (the fused ranking of metadata, on-screen text and speech)."""
    from ..browse.agent import VideoBrowser

    agent = VideoBrowser(index, models, videos, None, config)
    rows = []
    for q in read_questions(questions):
        hits = index.search(q["question"], k=agent.cfg.search_k)
        seeds = set(q["seed_video_ids"])
        steps: list = []
        row = {"id": q["id"], "modality": q.get("modality", ""), "bm25": bool(hits) and hits[0].video_id in seeds,
               "seed_in_candidates": any(h.video_id in seeds for h in hits)}
        meta = agent.watch(q["question"], hits, 0, steps, visual=False, kind="embed") if hits else []
        row["metadata_only"] = bool(meta) and meta[0] in seeds
        for kind in watchers:
            picked = agent.watch(q["question"], hits, 0, steps, kind=kind) if hits else []
            row[f"watcher_{kind}"] = bool(picked) and picked[0] in seeds
        row["notes"] = [s.note for s in steps if s.note]
        rows.append(row)
    n = len(rows)
    rate = lambda k: sum(r[k] for r in rows) / n if n else 0.0
    out = {"n": n, "bm25_top1": rate("bm25"), "metadata_only_top1": rate("metadata_only"),
           "seed_in_top_k": rate("seed_in_candidates"), "rows": rows}
    for kind in watchers:
        out[f"watcher_{kind}_top1"] = rate(f"watcher_{kind}")
    return out
