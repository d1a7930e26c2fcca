"""Training questions from a user's own collection (seed 001 App. A.3, reverse construction).

For each drawn seed video: its ingested timeline (speech, on-screen text) and metadata go to the
model with ``question_build.j2``, which summarises highlights and on-screen entities and writes one
question answerable from that video alone, its answer, a paraphrase and BM25 queries (the
prompt's example is of another video; placeholders and copies of the example are not counted as
the model's queries). A question is **kept** only if every filter passes (``checks``): the answer
is stated in the video's text; neither the question nor the paraphrase contains it; (i) the answer
the model gives to the *paraphrase* (``question_reanswer.j2``, same timeline) matches the first
answer (``answers.matches``); (ii) at least one proposed query retrieves the seed video in the
index's top ``k_verify``. Each candidate records every filter's verdict. Levels alternate L1/L2
over the drawn videos. Each video is one runner item (``runner.map_items``), so a killed build
resumes. The kept rows are the ``train.jsonl`` that ``memory build`` reads.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from ..errors import ModelOutputError
from ..prompts import prompt_hash, render
from .answers import matches
from .guards import PLACEHOLDER, tokens

BUILD_SCHEMA = {"type": "object", "properties": {
    "highlights": {"type": "array", "items": {"type": "string", "maxLength": 120}, "maxItems": 4},
    "entities": {"type": "array", "items": {"type": "string", "maxLength": 60}, "maxItems": 6},
    "question": {"type": "string", "maxLength": 240}, "answer": {"type": "string", "maxLength": 60},
    "paraphrase": {"type": "string", "maxLength": 240},
    "queries": {"type": "array", "items": {"type": "string", "maxLength": 80}, "maxItems": 4}},
    "required": ["question", "answer", "paraphrase", "queries"]}
ANSWER_SCHEMA = {"type": "object", "properties": {"Answer": {"type": "string", "maxLength": 60}}, "required": ["Answer"]}
TEXT_CHARS = 3000  # per modality shown to the model
# the prompt's example (another video): a small model copies it; copied queries are not its own proposals
EXAMPLE_QUERIES = frozenset({"yard works garden pond build", "garden pond build", "yard works pond"})
# the earlier prompt's schematic values, still seen in cached or old outputs
TEMPLATE_ECHOES = frozenset({"a bm25 query that would find this video", "another", "the short answer",
                             "the same question in other words"})
FILTERS = "grounded, no-leak, paraphrase, bm25 (v2)"  # in the run protocol: a filter change starts a new run
CHECKS = (("grounded", "the answer is not in the video's text"),
          ("no_leak", "the question or its paraphrase gives the answer away"),
          ("paraphrase", "the paraphrase's answer differs"),
          ("bm25", "no query finds the seed video in the top {k}"))


def usable_queries(queries) -> list[str]:
    """The model's own queries: placeholders, template echoes and the example's queries dropped."""
    out: dict[str, str] = {}  # by lower-cased words: a repeat in other case or spacing is the same query
    for q in queries or []:
        norm = " ".join(tokens(q))
        if norm and not PLACEHOLDER.match(q) and norm not in EXAMPLE_QUERIES | TEMPLATE_ECHOES:
            out.setdefault(norm, q.strip())
    return list(out.values())


def _placeholder(answer: str) -> bool:
    norm = " ".join(tokens(answer))
    return not norm or norm in TEMPLATE_ECHOES or bool(PLACEHOLDER.match(answer))


def _texts(videos, vid: str) -> tuple[str, str]:
    tl = videos.timeline(vid)
    speech = " ".join(s.text for s in tl.segments if s.kind in ("speech", "subtitle"))[:TEXT_CHARS]
    screen = " | ".join(dict.fromkeys(s.text for s in tl.segments if s.kind == "ocr"))[:TEXT_CHARS]
    return speech, screen


def checks(d: dict, again: str, ranks: list, video_text: str, k_verify: int) -> dict[str, bool]:
    """The filters of one candidate, each on its own: (grounded) the answer is stated in the video's
    text; (no_leak) neither the question nor the paraphrase contains it; (paraphrase, the seed's
    (i)) the answer re-derived under the paraphrase matches; (bm25, the seed's (ii)) a proposed
    query finds the seed video in the top ``k_verify``."""
    answer = str(d["answer"])
    return {"grounded": not _placeholder(answer) and matches(video_text, answer),
            "no_leak": not (matches(d["question"], answer) or matches(d["paraphrase"], answer)),
            "paraphrase": not _placeholder(again) and (matches(again, answer) or matches(answer, again)),
            "bm25": any(r is not None and r <= k_verify for r in ranks)}


def make_question(model, index, videos, vid: str, level: str, k_verify: int = 3) -> dict:
    """One candidate question for seed video ``vid``, with each filter's verdict and why it was
    kept or dropped."""
    rec = videos.record(vid)
    speech, screen = _texts(videos, vid)
    row = {"id": f"{vid}-{level}", "seed_video_id": vid, "level": level, "kept": False}
    try:
        d = model.chat(render("question_build.j2", title=rec.title, channel=rec.channel, description=rec.description,
                              screen=screen or "(none)", speech=speech or "(none)", level=level).strip(),
                       schema=BUILD_SCHEMA, max_tokens=400).data
    except ModelOutputError:
        return {**row, "why": "unparseable model output"}
    queries = usable_queries(d["queries"])
    row.update(question=d["question"], answer=d["answer"], paraphrase=d["paraphrase"], queries=queries,
               proposed_queries=d["queries"], highlights=d.get("highlights", []), entities=d.get("entities", []),
               transcript_snippet=(speech or screen)[:800])
    try:
        again = str(model.chat(render("question_reanswer.j2", screen=screen or "(none)", speech=speech or "(none)",
                                      question=d["paraphrase"]).strip(), schema=ANSWER_SCHEMA, max_tokens=48).data["Answer"])
    except ModelOutputError:
        again = ""
    ranks = []
    for q in queries:
        ids = [h.video_id for h in index.search(q, k=10)]
        ranks.append(ids.index(vid) + 1 if vid in ids else None)
    video_text = " ".join((rec.title, rec.description or "", screen, speech))
    verdicts = checks(d, again, ranks, video_text, k_verify)
    row.update(paraphrase_answer=again, query_ranks=ranks, checks=verdicts, kept=all(verdicts.values()))
    failed = [why.format(k=k_verify) for name, why in CHECKS if not verdicts[name]]
    row["why"] = "kept" if row["kept"] else failed[0]
    return row


def distinct(rows: list[dict]) -> list[dict]:
    """A kept question asked, word for word, of an earlier kept video does not single out its own
    video (two same-title videos give "What is the score of the X final?" two answers): dropped."""
    seen: set[str] = set()
    out = []
    for r in rows:
        key = " ".join(tokens(r.get("question", "")))
        if r["kept"] and key in seen:
            r = {**r, "kept": False, "why": "the same question was kept for another video"}
        elif r["kept"]:
            seen.add(key)
        out.append(r)
    return out


def filter_counts(rows: list[dict]) -> dict:
    """How many candidates each filter passes, alone, and how many pass all (kept)."""
    parsed = [r for r in rows if "checks" in r]
    out = {"candidates": len(rows), "parsed": len(parsed)}
    out.update({f"passed_{name}": sum(r["checks"][name] for r in parsed) for name, _ in CHECKS})
    out["duplicates"] = sum(r["why"] == "the same question was kept for another video" for r in rows)
    out["kept"] = sum(r["kept"] for r in rows)
    return out


def build_questions(corpus: str | Path, library: str | Path, models, out: str | Path, *, n: int | None = None,
                    seed: int = 0, k_verify: int = 3) -> dict:
    """Draw ``n`` seed videos of ``corpus`` (all by default), make one question each (L1/L2
    alternating) from their timelines in ``library``, verify them on a BM25 index of the corpus's
    metadata (``out/index``, the seed's search stack), and write ``candidates.jsonl`` (every row,
    with why) and ``questions.jsonl`` (the kept ones)."""
    from ..runner import map_items
    from ..search.corpus import read_corpus
    from ..search.index import SearchIndex, build_index
    from ..store import RunStore
    from .videos import Videos

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    records = {r.video_id: r for r in read_corpus(corpus)}
    index = SearchIndex.load(out / "index") if (out / "index" / "meta.json").exists() else build_index(
        corpus, out / "index", method="lucene")
    videos = Videos(records, library=library)
    vids = sorted(videos.records)
    random.Random(seed).shuffle(vids)
    vids = vids[:n] if n else vids
    model = models.for_role("questions")
    store = RunStore(out / "runs.sqlite")
    run_id = store.find_or_start("questions", {"index": str(index.root), "seed": seed, "n": n, "k_verify": k_verify,
                                               "prompt": prompt_hash("question_build.j2"), "reanswer": prompt_hash("question_reanswer.j2"),
                                               "filters": FILTERS, "endpoint": model.endpoint.name})
    items = [(v, (v, "L1" if i % 2 == 0 else "L2")) for i, v in enumerate(vids)]
    res = map_items(lambda p: make_question(model, index, videos, p[0], p[1], k_verify), items, store=store,
                    run_id=run_id, retries=1, label="questions")
    rows = distinct([res.done[v] for v, _ in items if v in res.done])
    (out / "candidates.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    kept = [r for r in rows if r["kept"]]
    (out / "questions.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept), encoding="utf-8")
    by_level = {lv: sum(r["kept"] for r in rows if r["level"] == lv) for lv in ("L1", "L2")}
    return {"drawn": len(vids), "made": len(rows), "kept": len(kept), "kept_by_level": by_level,
            "filters": filter_counts(rows),
            "missing": len(items) - len(rows), "dropped": {w: sum(r["why"] == w for r in rows) for w in
                                                           {r["why"] for r in rows if not r["kept"]}},
            "out": str(out)}
