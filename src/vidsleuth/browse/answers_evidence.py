"""What the answer rests on: the evidence lines a text-only Analyst was shown, the grounding guard
over them, and the moments where the answer's words occur."""

from __future__ import annotations

import re

from .answers import ground_answer
from .videos import Videos


def answer_evidence(answer: str | None, videos: Videos, selected: list[str]) -> tuple:
    """Moments in the selected videos where the answer's words occur, found *after* answering by
    matching its words in the speech and on-screen text: every number in the answer appears
    there, or (for answers without numbers) most of its words do. A lookup, not the model's
    citation: ``ask`` prints them as "Answer's words found at"."""
    if not answer:
        return ()
    words = [w for w in re.findall(r"\w+", answer.lower())]
    numbers = [w for w in words if any(ch.isdigit() for ch in w)]
    content = [w for w in words if len(w) > 3 or not w.isascii()]
    found = []
    for vid in selected:
        tl = videos.timeline(vid)
        for s in tl.segments:
            if s.kind not in ("speech", "subtitle", "ocr"):
                continue
            text = s.text.lower()
            hit = all(n in text for n in numbers) if numbers else (
                bool(content) and sum(w in text for w in content) >= max(1, (len(content) + 1) // 2))
            if hit:
                found.append((vid, s.start, s.end, f"{s.kind}: {s.text}"))
    return tuple(found[:5])


def evidence_lines(videos: Videos, selected) -> list[str]:
    """What a text-only Analyst was shown: on-screen text and speech lines, videos in order."""
    return [seg.text for v in selected for seg in videos.timeline(v).segments if seg.kind in ("ocr", "speech", "subtitle")]


def ground(question: str, answer: str | None, confidence: float | None, lines: list[str]) -> tuple:
    """(answer, confidence, note): a replaced answer keeps at most half its stated confidence."""
    grounded, fired = ground_answer(answer, question, lines)
    if fired and "took" in fired and confidence is not None:
        confidence = min(confidence, 0.5)
    return grounded, confidence, fired
