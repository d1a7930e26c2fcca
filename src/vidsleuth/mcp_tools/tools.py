"""The tools: each one a thin call of the public library function of the same name (``media``,
``library.ingest``, ``search``, ``browse``, ``report.steps``, ``report.check_report``, the rubric),
with every path passed through the roots first. Arguments are the JSON schema a harness sees, so
they carry their ranges and descriptions; results are ``results.*`` models."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from ..errors import VidsleuthError
from . import arguments as A
from . import results as R
from .guard import Guard, ok_result

Seconds = Annotated[float | None, Field(ge=0, description="seconds from the start of the video")]
Language = Annotated[Literal["en", "zh", "auto"] | None,
                     Field(description="the speech's language for ASR: en, zh or auto (detected with the multilingual "
                                       "model); default: the server's --language. English ASR on Chinese speech invents English")]
Kinds = Annotated[list[Literal["speech", "subtitle", "ocr", "shot"]] | None,
                  Field(description="only these segment kinds (default all)")]


@dataclass(frozen=True)
class Options:
    """Server-wide settings (``vidsleuth mcp`` options)."""

    library: str | None = None  # ingest cache folder (default: the user cache dir)
    config: str | None = None  # model config TOML
    model: str | None = None  # endpoint for agent roles, relations and the writer
    asr: bool = True
    ocr: bool = True
    language: str = "en"  # the speech's language for ASR: en, zh or auto
    web_search_url: str = ""  # web evidence only when set ([report] web_search_url)


class TokenTally:
    """A run store that only adds up the tokens of the calls recorded into it, so that a tool's
    model calls count against the session's token budget."""

    def __init__(self):
        self.tokens = 0

    def record(self, run_id, call) -> None:
        self.tokens += int(call.tokens_in) + int(call.tokens_out)


def _jpeg(image, quality: int = 85):
    from mcp.types import ImageContent

    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="JPEG", quality=quality)
    return ImageContent(type="image", data=base64.b64encode(buf.getvalue()).decode(), mime_type="image/jpeg")


IMAGE_BUDGET = 700_000  # base64 characters of images in one reply: MCP clients cap a message at about 1 MiB


def _images(images, text: str) -> tuple[list, str]:
    """The images as JPEG contents, scaled down together until they fit ``IMAGE_BUDGET`` (eight 640-px frames
    overran a client's 1 MiB message limit), and ``text`` saying so when they were."""
    out, scale = [_jpeg(im) for im in images], 1.0
    for _ in range(4):
        total = sum(len(c.data) for c in out)
        if total <= IMAGE_BUDGET:
            break
        scale *= 0.9 * (IMAGE_BUDGET / total) ** 0.5
        out = [_jpeg(im.resize((max(16, int(im.width * scale)), max(16, int(im.height * scale))))) for im in images]
    if scale < 1.0:
        side = max(max(int(im.width * scale), int(im.height * scale)) for im in images)
        text += (f"\n(images scaled to {side} px on their longer side so the reply fits a client's 1 MiB message limit;"
                 " ask for fewer frames or a shorter span for more detail)")
    return out, text


def _window(segments, start, end, kinds):
    lo, hi = start or 0.0, end if end is not None else float("inf")
    if hi < lo:
        raise VidsleuthError(f"the window ends ({hi:g} s) before it starts ({lo:g} s)")
    return [s for s in segments if s.end >= lo and s.start <= hi and (not kinds or s.kind in kinds)]


class Tools:
    """The tool functions over one server's roots and options."""

    def __init__(self, guard: Guard, options: Options = Options()):
        self.guard, self.opt, self.roots = guard, options, guard.roots
        self.written: dict[str, Path] = {}  # report folders written or checked in this server (resources)
        self.checks: dict[str, dict] = {}  # the last check of each, by folder name
        self.languages: dict[str, str] = {}  # per video, the speech language a call last named: later calls keep it

    def _ingest(self, path: str, subtitles: str | None = None, language: str | None = None):
        from ..library import IngestOptions, ingest

        video = self.roots.path(path, "video")
        sub = self.roots.maybe(subtitles, "subtitles")
        if language:
            self.languages[str(video)] = language
        lang = self._language(path, language)
        opts = IngestOptions(subtitles=str(sub) if sub else None, asr=self.opt.asr, ocr=self.opt.ocr,
                             language=None if lang == "auto" else lang)
        return ingest(video, self.opt.library, opts)

    def _language(self, path: str, language: str | None) -> str:
        """The speech language for a video: the call's, else the one a call last named for it, else the server's."""
        return language or self.languages.get(str(self.roots.path(path, "video"))) or self.opt.language

    # -- media
    def probe(self, path: Annotated[str, Field(description="a media file inside the roots")]):
        """Duration, frame rate, size, rotation and streams of a media file."""
        from ..media import probe

        info = probe(self.roots.path(path, "media file"))
        return ok_result(info.to_dict())

    def timeline(self, path: Annotated[str, Field(description="a video inside the roots")], start: Seconds = None,
                 end: Seconds = None, kinds: Kinds = None,
                 max_chars: Annotated[int, Field(ge=100, le=200_000)] = 25_000,
                 subtitles: Annotated[str | None, Field(description="subtitle file to use instead of ASR")] = None,
                 language: Language = None):
        """The video's timestamped timeline (speech, subtitles, on-screen text, shots) in a time
        window; the video is ingested on first use and cached by content."""
        tl = self._ingest(path, subtitles, language)
        segs = _window(tl.segments, start, end, kinds)
        text = replace(tl, segments=tuple(segs)).to_text(max_chars=max_chars)
        kept = sum(1 for line in text.splitlines() if not line.startswith("[... ")) if text else 0
        data = {"video": tl.video.path, "duration": tl.video.duration, "start": start or 0.0,
                "end": end if end is not None else tl.video.duration, "kinds": sorted({s.kind for s in segs}),
                "segments": [{"start": s.start, "end": s.end, "kind": s.kind, "text": s.text} for s in segs[:kept]],
                "cut": len(segs) - kept, "text": text,  # segments stop where max_chars cut the text
                "language": self._language(path, language)}  # what ASR was told the speech is
        return ok_result(data, text=text or "(no segment in this window)")

    def frames(self, path: Annotated[str, Field(description="a video inside the roots")],
               n: Annotated[int, Field(ge=1, le=64)] = 8, start: Seconds = None, end: Seconds = None,
               max_side: Annotated[int, Field(ge=16, le=2048)] = 512):
        """Uniformly sampled frames of a window, as images, with their presentation times."""
        from ..media import iter_frames

        frames = list(iter_frames(self.roots.path(path, "video"), n=n, start=start, end=end, max_side=max_side))
        times = [round(f.t, 3) for f in frames]
        text = "frames at " + ", ".join(f"{t:.2f}s" for t in times) + " (one image each, in this order)"
        return ok_result({"video": str(path), "times": times}, *_images([f.image for f in frames], text))

    def grid(self, path: Annotated[str, Field(description="a video inside the roots")],
             grids: Annotated[int, Field(ge=1, le=8)] = 1, rows: Annotated[int, Field(ge=1, le=10)] = 3,
             cols: Annotated[int, Field(ge=1, le=10)] = 3, cell: Annotated[int, Field(ge=16, le=1024)] = 256):
        """The Watcher's preview: grids of uniformly sampled, timestamp-labelled frames."""
        from ..media import frame_grids

        out = frame_grids(self.roots.path(path, "video"), n_grids=grids, rows=rows, cols=cols, cell=cell)
        times = [[round(t, 3) for t in g.times] for g in out]
        text = "; ".join(f"grid {k}: cells at " + ", ".join(f"{t:.2f}s" for t in ts) for k, ts in enumerate(times, 1))
        return ok_result({"video": str(path), "grids": times}, *_images([g.image for g in out], text))

    def watch(self, path: Annotated[str, Field(description="a video inside the roots")],
              start: Annotated[float, Field(ge=0)], end: Annotated[float, Field(ge=0)],
              k: Annotated[int, Field(ge=1, le=32)] = 4, kinds: Kinds = None,
              subtitles: Annotated[str | None, Field(description="subtitle file to use instead of ASR")] = None,
              language: Language = None):
        """One span of one video: its timeline lines and ``k`` frames from inside it."""
        from ..media import iter_frames

        tl = self._ingest(path, subtitles, language)
        segs = _window(tl.segments, start, end, kinds)
        end = min(end, tl.video.duration)
        frames = list(iter_frames(self.roots.path(path, "video"), n=k, start=start, end=end, max_side=512))
        times = [round(f.t, 3) for f in frames]
        lines = replace(tl, segments=tuple(segs)).to_text()
        text = (lines or "(no timeline line in this span)") + "\nframes at " + ", ".join(f"{t:.2f}s" for t in times)
        data = {"video": tl.video.path, "start": start, "end": end, "text": lines, "times": times,
                "segments": [{"start": s.start, "end": s.end, "kind": s.kind, "text": s.text} for s in segs]}
        return ok_result(data, *_images([f.image for f in frames], text))

    def _index(self, index: str) -> Path:
        """An index folder whose corpus and every local video it lists lie inside the roots (its
        videos are read when a search hit is watched)."""
        from ..schemas import IndexMeta, read_json
        from ..search.corpus import read_corpus

        p = self.roots.path(index, "index")
        if not (p / "meta.json").is_file():
            return p  # not an index: the search stack says so in its own words
        meta = read_json(p / "meta.json", IndexMeta, what="index meta.json")
        for rec in read_corpus(self.roots.path(meta.corpus, "the index's corpus")):
            if rec.path:
                self.roots.path(rec.path, f"video {rec.video_id} of the index's corpus")
        return p

    # -- search and browsing
    def search(self, index: Annotated[str, Field(description="a search index folder inside the roots")],
               query: Annotated[str, Field(min_length=1)], k: Annotated[int, Field(ge=1, le=100)] = 10):
        """Search a video index (BM25, dense or hybrid, as it was built)."""
        from ..search.index import SearchIndex

        idx = SearchIndex.load(self.roots.path(index, "index"))
        hits = [{"rank": h.rank, "video_id": h.video_id, "score": round(float(h.score), 6), "title": h.title}
                for h in idx.search(query, k=k)]
        return ok_result({"index": str(index), "query": query, "hits": hits})

    def ask(self, question: Annotated[str, Field(min_length=1)],
            index: Annotated[str, Field(description="a search index folder inside the roots")],
            agent: Literal["video-browser", "react"] = "video-browser",
            t_max: Annotated[int | None, Field(ge=1, le=10, description="browsing loops")] = None):
        """Answer a question from the videos of an index with the browsing agent (plan, search,
        watch, check, answer); returns the answer, its evidence and the tokens spent."""
        from ..browse.setup import open_browse

        idx = self._index(index)
        setup = open_browse(idx, config=self.opt.config, model=self.opt.model, library=self.opt.library,
                            **({"t_max": t_max} if t_max else {}))
        ans = setup.agent(agent).run(question)
        d = ans.to_dict()
        return ok_result({"question": question, "answer": ans.answer, "confidence": ans.confidence,
                          "explanation": ans.explanation, "evidence": d.get("evidence", []),
                          "selected": list(ans.selected), "tokens": ans.tokens()["total"]})

    # -- the report's stages
    def anchors(self, path: Annotated[str, Field(description="the report's video inside the roots")],
                request: Annotated[str, Field(min_length=1)], max_anchors: Annotated[int, Field(ge=1, le=50)] = 8,
                subtitles: Annotated[str | None, Field(description="subtitle file to use instead of ASR")] = None,
                language: Language = None):
        """A suggested set of research anchors (the pipeline's stage 2); keep, edit or replace them."""
        from ..report.steps import suggest_anchors

        tl = self._ingest(path, subtitles, language)
        return ok_result({"anchors": suggest_anchors(tl, request, max_anchors=max_anchors)})

    def gather_evidence(self, anchors: Annotated[list[A.Anchor], Field(min_length=1, description="the anchors to research")],
                        docs: Annotated[str | None, Field(description="a folder of documents inside the roots")] = None,
                        index: Annotated[str | None, Field(description="an index of related videos")] = None,
                        web: Annotated[bool, Field(description="also search the web (needs the server's web_search_url)")] = False,
                        video: Annotated[str | None, Field(description="the report's own video (left out of related videos)")] = None,
                        per_anchor: Annotated[int, Field(ge=1, le=20)] = 3):
        """The evidence branches: every source read once and its passages ranked per anchor."""
        from ..report.steps import gather_evidence

        if web and not self.opt.web_search_url:
            raise VidsleuthError("web evidence needs the server's --web-search-url (a SearXNG-compatible endpoint)")
        got = gather_evidence([a.model_dump(exclude_none=True) for a in anchors], docs=self.roots.maybe(docs, "docs folder"), index=self._index(index) if index else None,
                              web_search_url=self.opt.web_search_url if web else "",
                              video=self.roots.maybe(video, "video"), per_anchor=per_anchor, library=self.opt.library)
        return ok_result(got)

    def relate(self, anchor: A.Anchor, excerpts: Annotated[list[A.Excerpt], Field(min_length=1, max_length=50)],
               video_date: Annotated[str, Field(description="ISO date of the video, for updates")] = "",
               relater: Annotated[Literal["rules", "model", "judge"] | None,
                                  Field(description="rules; model (the endpoint decides each excerpt); judge (the rules "
                                                    "decide, the endpoint judges their borderline cases); default: model "
                                                    "with the server's --model, else rules")] = None):
        """How each excerpt relates to the anchor: supports, contradicts, updates, explains,
        compares, applies, or null (a mere mention, not evidence); with the anchor's kind, subject
        and stated value as vidsleuth reads them (state that value in the finding)."""
        from ..report.steps import relate_excerpts

        model, tally = None, TokenTally()
        if self.opt.model:
            from ..models import Models

            model = Models(self.opt.config, store=tally, overrides={"default": self.opt.model}).for_role("writer")
        from ..report.steps import anchor_of

        a = anchor_of(anchor.model_dump(exclude_none=True))
        rels = relate_excerpts(anchor.model_dump(exclude_none=True), [e.model_dump() for e in excerpts],
                               video_date=video_date, model=model, relater=relater)
        return ok_result({"anchor": {"id": a.id, "kind": a.kind, "subject": a.subject, "value": a.value, "start": a.start},
                          "relations": rels, "tokens": tally.tokens})

    def render_report(self, records: A.Records,
                      video: Annotated[str, Field(description="the report's video inside the roots")],
                      out: Annotated[str, Field(description="a new or earlier report folder inside the roots")]):
        """Render harness-written records as the two-pane report (report.html, .md, .json)."""
        from ..report.steps import render_report

        data = records.model_dump(exclude_none=True)
        for src in data["sources"]:  # local sources are copied beside the page: they must be inside the roots
            if src["kind"] != "web":
                src["location"] = str(self.roots.path(src["location"], f"source {src['id']}"))
        folder = self.roots.path(out, "output folder")
        got = render_report(data, self.roots.path(video, "video"), folder)
        self.written[folder.name] = folder
        return ok_result(got)

    def check_report(self, folder: Annotated[str, Field(description="a report folder inside the roots")],
                     browser: Annotated[bool, Field(description="open the page in headless Chromium")] = True,
                     only: Annotated[list[str] | None, Field(description="only these checks")] = None):
        """Validate a report (vidsleuth's or any page that follows the report contract):
        timestamps, citations, support, assets, links, budgets, and the page in Chromium."""
        import json

        from ..files import output_problem, write_atomic
        from ..report import check_report

        p = self.roots.path(folder, "report folder")
        result = check_report(p, browser=browser, only=only)  # reads nothing outside the folder
        if output_problem(p, "report") == "":  # a vidsleuth report folder: its checks.json is ours to write
            write_atomic(p / "checks.json", json.dumps(result, ensure_ascii=False, indent=1))
        self.written[p.name], self.checks[p.name] = p, result  # another layout's folder is left untouched
        return ok_result(result)

    def score_report(self, rubric: Annotated[str, Field(description="an Omni-ART rubric.json inside the roots")],
                     folder: Annotated[str, Field(description="the report folder to score")]):
        """Score a report (any layout that follows the report contract) against an Omni-ART rubric
        tree with the deterministic judge (seed 000 §3.3)."""
        from ..rubric.evaluate import score_report

        return ok_result(score_report(self.roots.path(folder, "report folder"), self.roots.path(rubric, "rubric")))

    def trajectory_stats(self, run: Annotated[str, Field(description="a report folder, a browse trace or a JSONL of events")]):
        """Steps, tool errors, tokens, time and the interleaving rule (seed 000 App. F.7)."""
        from ..rubric.stats import events_of, trajectory_stats

        return ok_result(trajectory_stats(events_of(self.roots.path(run, "trajectory"))))

    def all(self) -> list[tuple[Any, type]]:
        return [(self.probe, R.ProbeResult), (self.timeline, R.TimelineResult), (self.frames, R.FramesResult),
                (self.grid, R.GridResult), (self.watch, R.WatchResult), (self.search, R.SearchResult),
                (self.ask, R.AskResult), (self.anchors, R.AnchorsResult), (self.gather_evidence, R.EvidenceResult),
                (self.relate, R.RelateResult), (self.render_report, R.RenderResult), (self.check_report, R.CheckResult),
                (self.score_report, R.ScoreResult), (self.trajectory_stats, R.StatsResult)]
