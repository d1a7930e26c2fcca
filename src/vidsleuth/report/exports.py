"""Standards exports of a report, beside ``report.html``, so other players and annotation tools can
open what the report found without reading vidsleuth's formats:

- ``report.vtt``: the timeline notes as WebVTT cues (written with ``webvtt-py``); a player loads it
  as ``<track kind="chapters">`` (or ``kind="metadata"``). A note runs until the next note, the last
  one to the end of the video; cue text is one line with ``&``, ``<`` and ``>`` escaped as the WebVTT
  spec requires, so no text from the video can become a cue tag or break the cue syntax;
- ``annotations.jsonld``: the findings as W3C Web Annotations (an ``AnnotationCollection`` with
  ``@context`` http://www.w3.org/ns/anno.jsonld): each finding's text (and its relation as a
  tag) is the body, its sources are linked bodies, and each moment of its anchor is a target with a
  ``FragmentSelector`` conforming to the Media Fragments spec (``t=12.3,15``).
"""

from __future__ import annotations

import html

from .. import __version__
from ..timecode import fragment, quantize
from .contract import FINDING_ID, PAGE
from .types import ReportData

ANNO_CONTEXT = "http://www.w3.org/ns/anno.jsonld"
MEDIA_FRAGMENTS = "http://www.w3.org/TR/media-frags/"
VTT = "report.vtt"
ANNOTATIONS = "annotations.jsonld"


def _vtt_time(t: float) -> str:
    ms = int(round(quantize(t) * 1000))
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    return f"{h:02d}:{m:02d}:{rest // 1000:02d}.{rest % 1000:03d}"


def _cue_text(text: str) -> str:
    return html.escape(" ".join(str(text).split()), quote=False) or "(no text)"


def to_webvtt(data: ReportData) -> str:
    """The notes as WebVTT cues, identified ``anchor-A1`` (a note of an anchor) or ``note-3``."""
    from ..errors import require

    webvtt = require("webvtt", "report")
    Caption, WebVTT = webvtt.Caption, webvtt.WebVTT
    notes = sorted(data.notes, key=lambda n: n.t)
    duration = float(data.video.get("duration") or 0.0)
    captions, used = [], set()
    for k, n in enumerate(notes, 1):
        end = next((m.t for m in notes[k:] if quantize(m.t) > quantize(n.t)), duration)
        end = end if quantize(end) > quantize(n.t) else n.t + 1.0
        ident = f"anchor-{n.anchor_id}" if n.anchor_id and f"anchor-{n.anchor_id}" not in used else f"note-{k}"
        used.add(ident)
        captions.append(Caption(_vtt_time(n.t), _vtt_time(end), _cue_text(n.text), identifier=_cue_text(ident)))
    title = _cue_text(data.video.get("title", ""))
    return WebVTT(captions=captions, header_comments=[f"{title}: timeline notes of the research report "
                                                      f"(vidsleuth {__version__}); load as kind=chapters or metadata"]).content


def _selector(start: float, end: float) -> dict:
    value = fragment(start, end if quantize(end) > quantize(start) else None)[1:]
    return {"type": "FragmentSelector", "conformsTo": MEDIA_FRAGMENTS, "value": value}


def to_annotations(data: ReportData) -> dict:
    """The findings as a W3C Web Annotation collection (JSON-LD)."""
    video = data.video.get("file", "")
    items = []
    for f in data.findings:
        anchor = data.anchor(f.anchor_id)
        moments = anchor.moments if anchor else ()
        targets = [{"type": "SpecificResource", "source": video, "selector": _selector(m.start, m.end)} for m in moments]
        bodies = [{"type": "TextualBody", "value": f.text, "format": "text/plain", "purpose": "commenting"}]
        if f.relation:
            bodies.append({"type": "TextualBody", "value": f.relation, "purpose": "tagging"})
        for eid in f.evidence_ids:
            ev = data.evidence_of(eid)
            src = data.source(ev.source_id) if ev else None
            if src is not None and src.link:
                bodies.append({"type": "SpecificResource", "source": src.link, "purpose": "linking"})
        items.append({"id": f"{PAGE}#{FINDING_ID.format(f.id)}", "type": "Annotation", "motivation": "commenting",
                      "body": bodies, "target": targets or [video]})
    return {"@context": ANNO_CONTEXT, "id": ANNOTATIONS, "type": "AnnotationCollection",
            "label": f"{data.video.get('title', '')} — findings", "total": len(items),
            "generator": {"type": "Software", "name": f"vidsleuth {__version__}"},
            "first": {"id": f"{ANNOTATIONS}#page-1", "type": "AnnotationPage", "startIndex": 0, "items": items}}
