"""The ``relations`` check reads a relation's cue as the relater does: a step of the video's
procedure cited as *applies* is not an unsupported label, while a bare statement still is."""

from __future__ import annotations

from vidsleuth.report.relate import relate_rules
from vidsleuth.report.relation_check import _excerpt_problem
from vidsleuth.report.types import Anchor, Evidence, Moment, Source

ANCHOR = Anchor("A1", "procedure", "Then rinse the kettle twice with clean water.", "rinse kettle water",
                moments=(Moment(10.0, 13.0, "speech", "Then rinse the kettle twice with clean water."),))
SOURCE = Source("S1", "document", "Descaling your kettle", "kettle.html", link="sources/kettle.html")


def _problem(excerpt: str, relation: str) -> str:
    ev = Evidence("E1", "A1", "S1", "text", excerpt, relation=relation)
    return _excerpt_problem(ANCHOR, ev, SOURCE, {"kettle"})


def test_a_procedure_step_the_relater_calls_applies_passes_the_check():
    step = "Empty the kettle and rinse it with fresh water before the next boil."
    assert relate_rules(ANCHOR, step)[0] == "applies"
    assert _problem(step, "applies") == ""


def test_a_statement_without_a_cue_cited_as_applies_still_fails():
    bare = "The kettle holds water and has a lid."
    assert "neither a value" in _problem(bare, "applies")


def test_an_off_subject_excerpt_fails_naming_the_words_that_would_count():
    off = "Garden hoses should be drained before the first frost."
    ev = Evidence("E1", "A1", "S2", "text", off, relation="supports")
    problem = _excerpt_problem(ANCHOR, ev, Source("S2", "document", "Winter garden jobs", "garden.html"), {"kettle"})
    assert "not about" in problem and "kettle" in problem and "rinse" in problem  # the anchor's words, as written


def test_a_why_pages_sentence_cited_as_explains_passes_as_the_relater_reads_it():
    excerpt = "Minerals left on the kettle's element keep coming back with every boil."
    ev = Evidence("E1", "A1", "S3", "text", excerpt, relation="explains")
    why = Source("S3", "document", "Why rinse a kettle after descaling?", "why.html")
    assert _excerpt_problem(ANCHOR, ev, why, {"kettle"}) == ""
    assert "neither a value" in _excerpt_problem(ANCHOR, ev, SOURCE, {"kettle"})  # on another page, the cue is wanted


def test_words_a_harness_adds_to_the_subject_count_as_written():
    excerpt = "Descaled elements should be flushed before the next boil."
    ev = Evidence("E1", "A1", "S2", "text", excerpt, relation="applies")
    other = Source("S2", "document", "Care notes", "care.html")
    assert "not about" in _excerpt_problem(ANCHOR, ev, other, set())
    flushed = Anchor("A1", "procedure", ANCHOR.text, "rinse kettle water flushing", moments=ANCHOR.moments)
    assert "not about" not in _excerpt_problem(flushed, ev, other, set())  # "flushing" meets "flushed"
