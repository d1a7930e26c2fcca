"""Training questions from a user's own collection (seed 001 App. A.3, reverse construction).

For each drawn seed video: its ingested timeline (speech, on-screen text) and metadata go to the
model with ``question_build.j2``, which summarises highlights and on-screen entities and writes one
question answerable from that video alone, its answer, a paraphrase and BM25 queries. A question
is **kept** only if (i) the answer the model gives to the *paraphrase*, from the same timeline,
matches the first answer (``answers.matches``) and (ii) at least one proposed query retrieves the
seed video in the index's top ``k_verify``. Levels alternate L1/L2 over the drawn videos. Each
video is one runner item (``runner.map_items``), so a killed build resumes. The kept rows are the
``train.jsonl`` that ``memory build`` reads.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from ..errors import ModelOutputError
from ..prompts import prompt_hash, render
from .answers import matches

BUILD_SCHEMA = {"type": "object", "properties": {
    "highlights": {"type": "array", "items": {"type": "string", "maxLength": 120}, "maxItems": 4},
    "entities": {"type": "array", "items": {"type": "string", "maxLength": 60}, "maxItems": 6},
    "question": {"type": "string", "maxLength": 240}, "answer": {"type": "string", "maxLength": 60},
    "paraphrase": {"type": "string", "maxLength": 240},
    "queries": {"type": "array", "items": {"type": "string", "maxLength": 80}, "maxItems": 4}},
    "required": ["question", "answer", "paraphrase", "queries"]}
ANSWER_SCHEMA = {"type": "object", "properties": {"Answer": {"type": "string", "maxLength": 60}}, "required": ["Answer"]}
TEXT_CHARS = 3000  # per modality shown to the model


def _texts(videos, vid: str) -> tuple[str, str]:
    tl = videos.timeline(vid)
    speech = " ".join(s.text for s in tl.segments if s.kind in ("speech", "subtitle"))[:TEXT_CHARS]
    screen = " | ".join(dict.fromkeys(s.text for s in tl.segments if s.kind == "ocr"))[:TEXT_CHARS]
    return speech, screen


def make_question(model, index, videos, vid: str, level: str, k_verify: int = 3) -> dict:
    """One candidate question for seed video ``vid``, with why it was kept or dropped."""
    rec = videos.record(vid)
    speech, screen = _texts(videos, vid)
    row = {"id": f"{vid}-{level}", "seed_video_id": vid, "level": level, "kept": False}
    try:
        d = model.chat(render("question_build.j2", title=rec.title, channel=rec.channel, description=rec.description,
                              screen=screen or "(none)", speech=speech or "(none)", level=level).strip(),
                       schema=BUILD_SCHEMA, max_tokens=400).data
    except ModelOutputError:
        return {**row, "why": "unparseable model output"}
    row.update(question=d["question"], answer=d["answer"], paraphrase=d["paraphrase"], queries=d["queries"],
               highlights=d.get("highlights", []), entities=d.get("entities", []),
               transcript_snippet=(speech or screen)[:800])
    ask = (f"On-screen text: {screen or '(none)'}\nTranscript: {speech or '(none)'}\n\nQuestion: {d['paraphrase']}\n"
           'Answer with ONLY JSON {"Answer": "the short answer"}.')
    try:
        again = str(model.chat(ask, schema=ANSWER_SCHEMA, max_tokens=48).data["Answer"])
    except ModelOutputError:
        again = ""
    ranks = []
    for q in d["queries"]:
        ids = [h.video_id for h in index.search(q, k=10)] if q.strip() else []
        ranks.append(ids.index(vid) + 1 if vid in ids else None)
    row.update(paraphrase_answer=again, query_ranks=ranks)
    consistent = bool(again) and (matches(again, d["answer"]) or matches(d["answer"], again))
    found = any(r is not None and r <= k_verify for r in ranks)
    row["kept"] = consistent and found
    row["why"] = "kept" if row["kept"] else ("the paraphrase's answer differs" if not consistent else
                                             f"no query finds the seed video in the top {k_verify}")
    return row


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
                                               "prompt": prompt_hash("question_build.j2"), "endpoint": model.endpoint.name})
    items = [(v, (v, "L1" if i % 2 == 0 else "L2")) for i, v in enumerate(vids)]
    res = map_items(lambda p: make_question(model, index, videos, p[0], p[1], k_verify), items, store=store,
                    run_id=run_id, retries=1, label="questions")
    rows = [res.done[v] for v, _ in items if v in res.done]
    (out / "candidates.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    kept = [r for r in rows if r["kept"]]
    (out / "questions.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept), encoding="utf-8")
    by_level = {lv: sum(r["kept"] for r in rows if r["level"] == lv) for lv in ("L1", "L2")}
    return {"drawn": len(vids), "made": len(rows), "kept": len(kept), "kept_by_level": by_level,
            "missing": len(items) - len(rows), "dropped": {w: sum(r["why"] == w for r in rows) for w in
                                                           {r["why"] for r in rows if not r["kept"]}},
            "out": str(out)}
