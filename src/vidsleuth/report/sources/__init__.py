"""Stage 3's sources: where evidence branches search. A registry: adding a source is one module
that defines a class with ``name`` and ``gather`` and registers it here.

- ``documents``: a local folder (HTML main text through trafilatura, Markdown, text, PDF through pypdf)
- ``videos``: related videos from a search index of the corpus, read through their timelines
- ``web``: live search and page fetching, only with ``--web`` (never in tests or by default)

Every source turns what it reads into ``Passage``s; the branches (``report.branches``) rank them
per anchor, so all sources are searched the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..types import Source


@dataclass(frozen=True)
class Passage:
    """A stretch of one source that can become an evidence excerpt (verbatim from the source)."""

    source: Source
    text: str
    modality: str  # text | video | web
    moment: float | None = None  # related videos: where in that video
    context: str = ""  # a table row's header line (the row's subject and units)
    heading: str = ""  # the section heading above a paragraph ("How hot should the oven be?"): its subject


@dataclass
class Gathered:
    passages: list[Passage] = field(default_factory=list)
    counts: dict = field(default_factory=dict)  # read, skipped, with reasons
    skipped: list[str] = field(default_factory=list)


def registry() -> dict[str, type]:
    from .documents import DocumentSource
    from .videos import VideoSource
    from .web import WebSource

    return {c.name: c for c in (DocumentSource, VideoSource, WebSource)}
