"""questions build (seed 001 App. A.3) -> memory build -> the Planner's memory block, over real HTTP."""

from __future__ import annotations

import json

from vidsleuth.browse.questions import build_questions, checks, distinct, usable_queries
from vidsleuth.models import Models
from vidsleuth.search.corpus import read_corpus
from vidsleuth.search.index import SearchIndex
from vidsleuth.search.memory import MemoryBank, build_memory
from vidsleuth.testing import ScriptedServer

from .conftest import scripted_models

# records only (no clip): each video's text is its metadata, so nothing is ingested
VIDEOS = [
    {"video_id": "rye", "title": "Rossi Bakery rye loaf", "channel": "Bread Notes",
     "description": "The rye loaf at Rossi Bakery costs four euros fifty."},
    {"video_id": "bridge", "title": "Old stone bridge walk", "channel": "Local Lens",
     "description": "The stone bridge over the Tweed was finished in 1887."},
    {"video_id": "kayak", "title": "Blue kayak review", "channel": "Paddle Lab",
     "description": "The blue kayak weighs 12 kg."},
]


def test_placeholders_template_echoes_and_example_copies_are_not_the_models_queries():
    assert usable_queries(["a BM25 query that would find this video", "another", "query1", "",
                           "Yard Works garden pond build", "rossi bakery rye", "Rossi Bakery rye "]) == ["rossi bakery rye"]


def test_each_filter_on_its_own():
    d = {"question": "How much is the rye loaf at Rossi Bakery?", "answer": "four euros fifty",
         "paraphrase": "What does a rye loaf cost at the Rossi shop?"}
    text = VIDEOS[0]["description"]
    assert checks(d, "4.50 euros", [2], text, 3) == {"grounded": True, "no_leak": True, "paraphrase": False,
                                                      "bm25": True}
    assert checks(d, "four euros fifty", [None, 4], text, 3)["bm25"] is False  # found, but not in the top 3
    assert checks(d, "the short answer", [1], text, 3)["paraphrase"] is False  # the template's placeholder echoed
    leak = {**d, "paraphrase": "The rye loaf costs four euros fifty, so what does it cost?"}
    assert checks(leak, "four euros fifty", [1], text, 3)["no_leak"] is False
    made_up = {**d, "answer": "three euros"}
    assert checks(made_up, "three euros", [1], text, 3)["grounded"] is False


def test_a_question_kept_for_two_videos_is_kept_once():
    rows = [{"question": "What is the score of the Pelham Cup final?", "kept": True, "why": "kept"},
            {"question": "what is the score of the Pelham Cup final", "kept": True, "why": "kept"},
            {"question": "What is the score of the Pelham Cup final?", "kept": False, "why": "the paraphrase's answer differs"},
            {"question": "Who won the Pelham Cup final?", "kept": True, "why": "kept"}]
    assert [r["kept"] for r in distinct(rows)] == [True, False, False, True]
    assert distinct(rows)[1]["why"] == "the same question was kept for another video"
    assert rows[1]["kept"]  # the stored rows are not changed in place


def _step(body, n):
    """The scripted model: the rye video's question passes; the bridge one copies the template's
    queries; the kayak one leaks its answer into the paraphrase. Distillation: five queries."""
    text = json.dumps(body["messages"])
    if "You are designing BM25 search queries" in text:
        return json.dumps({"queries": ["rossi bakery rye loaf", "bread notes rye", "rye loaf price", "rossi bakery",
                                       "bakery bread"], "anchors": {"entities": ["Rossi Bakery"],
                                                                    "salient_terms": ["rye loaf"]}})
    if "You write one training question" in text:
        if "Title: Rossi Bakery rye loaf" in text:
            return json.dumps({"question": "In Bread Notes' video, how much is the rye loaf?", "answer": "four euros fifty",
                               "paraphrase": "What does Rossi Bakery charge for rye bread?",
                               "queries": ["another", "rossi bakery rye loaf"]})
        if "Title: Old stone bridge walk" in text:
            return json.dumps({"question": "When was the Tweed bridge finished?", "answer": "1887",
                               "paraphrase": "In which year was the stone bridge completed?",
                               "queries": ["a BM25 query that would find this video", "garden pond build"]})
        return json.dumps({"question": "How heavy is Paddle Lab's blue kayak?", "answer": "12 kg",
                           "paraphrase": "The kayak weighs 12 kg: how heavy is it?", "queries": ["blue kayak review"]})
    question = text.split("Question: ")[1]
    return json.dumps({"Answer": "1887" if "year" in question else "12 kilograms" if "kayak" in question
                       else "four euros fifty"})


def test_questions_build_then_memory_build_then_the_planners_memory_block(tmp_path):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in VIDEOS))
    with ScriptedServer(_step) as srv:
        models = scripted_models(srv, roles={"default": "fake"})
        m = build_questions(corpus, tmp_path / "lib", models, tmp_path / "qs")
        kept = [json.loads(x) for x in (tmp_path / "qs" / "questions.jsonl").read_text().splitlines()]
        rows = {json.loads(x)["seed_video_id"]: json.loads(x)
                for x in (tmp_path / "qs" / "candidates.jsonl").read_text().splitlines()}
        stats = build_memory(tmp_path / "qs" / "questions.jsonl", SearchIndex.load(tmp_path / "qs" / "index"),
                             tmp_path / "mem", models, corpus=corpus)
    assert m["filters"] == {"candidates": 3, "parsed": 3, "passed_grounded": 3, "passed_no_leak": 2,
                            "passed_paraphrase": 3, "passed_bm25": 2, "duplicates": 0, "kept": 1}
    assert [r["seed_video_id"] for r in kept] == ["rye"] and kept[0]["queries"] == ["rossi bakery rye loaf"]
    assert rows["bridge"]["queries"] == [] and rows["bridge"]["why"] == "no query finds the seed video in the top 3"
    assert rows["kayak"]["why"] == "the question or its paraphrase gives the answer away"
    assert stats["cards"] == 1 and stats["verified"] == 1
    bank = MemoryBank(tmp_path / "mem", Models(cache=False).embedder())
    assert bank.cards[0].verified_query == "rossi bakery rye loaf"
    block = bank.block("How much does a loaf of rye cost at Rossi Bakery?")
    assert 'Past question: "In Bread Notes\' video, how much is the rye loaf?"' in block
    assert "Verified BM25 query: rossi bakery rye loaf" in block
    assert {r.video_id for r in read_corpus(corpus)} >= {r["seed_video_id"] for r in kept}
