"""``vidsleuth report``: the seven stages of seed 000 (App. D.2) as small public stage functions.

``prepare`` (inputs checked, models and sources configured, the video probed once) -> ``read_timeline``
(ingest) -> ``choose_anchors`` -> ``gather`` (every configured source read once) -> ``candidates_of`` and
``relate`` (the evidence branches and their relations) -> ``number`` (sources and evidence records) -> ``compose``
(writing) -> ``render`` -> ``validate`` (checks and repair). ``before_relations`` runs the stages
that do not depend on the relater (through ranking, ``candidates_of``), ``after_relations`` the
relater (``relate``) and the rest; ``report`` is the two in turn. Each runs inside a ``Stage``, which
times it and adds its event to the run's trajectory (``trajectory.jsonl``). The output folder gets
``report.html`` (self-contained), ``report.md``, ``report.json``, ``checks.json`` and ``run.json``
(protocol: models, prompts' hashes, budgets, versions, seconds per stage, what each step recorded).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import VidsleuthError
from ..files import write_atomic, writes_output
from .branches import Decision
from .record import PROMPTS
from .stage import Stage, Trajectory
from .types import Anchor, Evidence, ReportData, Source

OWN_FILES = {"report.html", "report.md", "report.json", "checks.json", "run.json", "trajectory.jsonl", "sources", "video.mp4",
             "poster.jpg", "report.vtt", "annotations.jsonld",
             "video.webm", "video.m4v"}
LANGUAGES = ("en", "zh", "auto")

__all__ = ["LANGUAGES", "OWN_FILES", "PROMPTS", "Groundwork", "Setup", "Stage", "Trajectory", "after_relations",
           "before_relations", "candidates_of", "choose_anchors", "compose", "file_name_like", "gather", "number", "prepare",
           "read_timeline", "relate", "render", "report", "rerender", "validate", "video_tags"]


def _check_out(out: Path) -> None:
    """Never write into a folder that holds something other than an earlier report."""
    if out.exists() and not out.is_dir():
        raise VidsleuthError("the output path is a file", path=out, hint="give a folder with --out")
    if out.is_dir():
        foreign = sorted(p.name for p in out.iterdir() if p.name not in OWN_FILES and not p.name.startswith("."))
        if foreign:
            raise VidsleuthError(f"the output folder holds files that are not a vidsleuth report ({', '.join(foreign[:3])})",
                                 path=out, hint="choose an empty or new folder; nothing was changed")


def video_tags(path: Path, info=None) -> tuple[str, str]:
    """(title, ISO date) from the container's ``title`` and ``creation_time`` tags; '' when absent.
    Read from ``info.tags`` when the probe carries them, else from the container."""
    tags = getattr(info, "tags", None)
    if tags is None:
        import av

        try:
            with av.open(str(path)) as c:
                tags = dict(c.metadata)
        except (OSError, av.error.FFmpegError):
            return "", ""
    tag = tags.get("creation_time") or tags.get("date") or ""
    title = str(tags.get("title", "")).strip()
    return ("" if file_name_like(title, path) else title), (tag[:10] if len(tag) >= 10 and tag[4] == "-" else "")


_NO_TITLE = {"video", "untitled", "clip", "movie", "output", "final", "export", "title", "new video", "recording"}


def file_name_like(title: str, path: Path | None = None) -> bool:
    """Whether a container's title is a file name or a placeholder, not a title: "larou_zh",
    "VID_20240312_101500", "knife-angle-v2", the file's own stem, "video". Such a title names no
    subject for a reader or for the stages that read the title, so the request stands in for it."""
    t = title.strip()
    if not t or t.lower() in _NO_TITLE or (path is not None and t.lower() == Path(path).stem.lower()):
        return True
    return not re.search(r"\s", t) and bool(re.search(r"[_.]|\d{4,}|^[a-z0-9]+(?:-[a-z0-9]+)+$", t))


@dataclass(frozen=True)
class Setup:
    """Everything a report run is configured with, fixed before the first stage runs."""

    video: Path
    request: str
    out: Path
    settings: object  # config.ReportConfig
    sources: tuple  # configured source objects (``report.sources``), each with ``name`` and ``gather``
    info: object  # media.VideoInfo, probed once
    title: str
    video_date: str
    language: str  # the report's language: en | zh
    ingest: object  # library.IngestOptions
    library: object = None
    writer: object = None
    judge: object = None
    embedder: object = None
    browser: bool = True
    relater: object = None  # judge.Relater: rules, model or judge (None: the rules)
    described: dict = field(default_factory=dict)  # what run.json records of the inputs


def configure_sources(settings, *, docs=None, index=None, web: bool = False, library=None, video: Path | None = None,
                      follow_links: bool = False) -> tuple:
    """The source objects for ``--docs``, ``--index`` and ``--web`` (the registry's classes)."""
    from . import sources as registry

    kinds = registry.registry()
    chosen = []
    if docs is not None:
        if not Path(docs).is_dir():
            raise VidsleuthError("the evidence folder does not exist or is not a folder", path=docs,
                                 hint="give --docs DIR with the documents to research")
        chosen.append(kinds["documents"](docs, follow_links=follow_links))  # links outside: only when asked
    if index is not None:
        chosen.append(kinds["videos"](index, library=library, exclude=str(video.resolve()) if video else ""))
    if web:
        if not settings.web_search_url:
            raise VidsleuthError("--web needs [report] web_search_url (a SearXNG-compatible JSON search endpoint)")
        chosen.append(kinds["web"](settings.web_search_url, per_anchor=settings.sources_per_anchor))
    return tuple(chosen)


def _language(language: str | None, request: str) -> str:
    from ..values import has_cjk

    if language not in (None, *LANGUAGES):
        raise VidsleuthError(f"--language {language!r} is not one of {', '.join(LANGUAGES)}")
    return "zh" if language == "zh" or (language in (None, "auto") and has_cjk(request)) else "en"


def _ingest_language(ingest, language: str | None, report_language: str):
    """``--language`` for ingest: zh as given; auto detects with the multilingual model (the English
    one cannot detect); unset with a Chinese request means a Chinese video; else ingest's own."""
    if language == "auto":
        return replace(ingest, language=None, asr_model=ingest.asr_model or "base")
    if language is not None:
        return replace(ingest, language=language)
    return replace(ingest, language="zh") if report_language == "zh" else ingest


def prepare(video, request: str, *, out, docs=None, index=None, web: bool = False, model: str | None = None, config=None,
            library=None, ingest_options=None, date: str | None = None, browser: bool = True, language: str | None = None,
            settings=None, sources=None, follow_links: bool = False, relater: str | None = None,
            relater_model: str | None = None) -> Setup:
    """Check the inputs (a missing video, an empty request or a foreign output folder fail here,
    before any work) and configure the run."""
    from ..config import load_report_config
    from ..library import IngestOptions
    from ..limits import iso_date
    from ..media import probe
    from ..models import Models
    from .wording import TITLE_CHARS, short

    settings = settings or load_report_config(config)
    date = iso_date(date)  # 2024-13-45 or 'yesterday': refused before any work
    video, out = Path(video), Path(out)
    if not request or not request.strip():
        raise VidsleuthError("the request is empty", hint='say what the report is for: --request "..."')
    info = probe(video, with_content_id=False)
    lang = _language(language, request)
    ingest = ingest_options or IngestOptions()
    ingest = _ingest_language(ingest, language, lang)
    if sources is None:
        sources = configure_sources(settings, docs=docs, index=index, web=web, library=library, video=video,
                                    follow_links=follow_links)
    _check_out(out)
    models = Models(config, overrides={"default": model} if model else {})
    use_model = bool(model or models.config.roles.get("writer"))
    from .judge import configure

    writer = models.for_role("writer") if use_model else None
    chosen = configure(relater, endpoint=relater_model, models=models, writer=writer)
    tag_title, tag_date = video_tags(video, info)
    described = {"docs": str(Path(docs).resolve()) if docs else None, "index": str(Path(index).resolve()) if index else None,
                 "web": web}
    return Setup(video=video, request=request, out=out, settings=settings, sources=tuple(sources), info=info,
                 title=tag_title or short(request, TITLE_CHARS), video_date=date or tag_date, language=lang, ingest=ingest,
                 library=library, writer=writer,
                 judge=models.for_role("judge") if use_model else None, embedder=models.embedder(), browser=browser,
                 described=described, relater=chosen)


def read_timeline(setup: Setup):
    """Stage 1: the timestamped audiovisual timeline (ingest, cached in the library)."""
    from ..library import ingest

    return ingest(setup.video, setup.library, setup.ingest)


def choose_anchors(setup: Setup, timeline) -> list[Anchor]:
    """Stage 2: the request's research anchors."""
    from .anchors import find_anchors

    return find_anchors(timeline, setup.request, max_anchors=setup.settings.max_anchors, embedder=setup.embedder,
                        title=setup.title)


def gather(setup: Setup, anchors: list[Anchor]):
    """Every configured source read once: (passages, counts, skipped)."""
    passages, skipped = [], []
    counts: dict = {"documents_found": 0} if any(s.name == "documents" for s in setup.sources) else {}
    for src in setup.sources:
        got = src.gather(anchors=anchors)
        passages += got.passages
        skipped += got.skipped
        counts.update(got.counts)
    return passages, counts, skipped


def candidates_of(setup: Setup, anchors: list[Anchor], passages: list, dropped: Counter, timeline=None) -> list:
    """Stage 3: the evidence branches rank candidate excerpts per anchor (what is left out is
    counted by reason in ``dropped``); ``timeline`` tells them what the video says and shows."""
    from .branches import rank
    from .relevance import video_subject

    heard = video_subject(setup.title, setup.request, timeline)[1] if timeline is not None else ""
    return rank(anchors, passages, per_anchor=setup.settings.sources_per_anchor, embedder=setup.embedder,
                dropped=dropped, topic=f"{setup.title} {setup.request}", title=setup.title, heard=heard)


def relate(setup: Setup, anchors: list[Anchor], candidates: list, dropped: Counter) -> list[Decision]:
    """Stage 4: the relater decides each candidate and the strongest stance per (anchor, source)
    is kept; what is left out is counted by reason."""
    from .branches import select
    from .coherence import titled_background
    from .judge import Relater, decide_candidates

    decided = decide_candidates(setup.relater or Relater(), anchors, candidates, setup.video_date,
                                workers=setup.settings.branches)
    return select(titled_background(decided, anchors, setup.embedder), setup.settings.sources_per_anchor, dropped)


@dataclass(frozen=True)
class Groundwork:
    """What the stages before the relater found; they do not depend on it, so a comparison of
    relaters runs them once (``benchmarks/bench_report_judge.py``)."""

    timeline: object
    anchors: list
    passages: list
    counts: dict
    skipped: list
    candidates: list
    dropped: Counter


def before_relations(setup: Setup, run: Trajectory | None = None, say=None) -> Groundwork:
    """Ingest, anchors, reading and ranking: every stage before the relater, each timed in ``run``."""
    run, say = run or Trajectory(), say or (lambda *_: None)
    dropped: Counter = Counter()
    with Stage(run, "timeline", "read"):
        timeline = read_timeline(setup)
    with Stage(run, "anchors", "model"):
        anchors = choose_anchors(setup, timeline)
    say(f"{len(anchors)} anchors")
    with Stage(run, "evidence", "search"):
        passages, counts, skipped = gather(setup, anchors)
        from .relevance import screen_report  # documents about another subject: dropped, with the reason

        passages = screen_report(setup, timeline, passages, counts, dropped)
        candidates = candidates_of(setup, anchors, passages, dropped, timeline)
    for s in skipped:
        say(f"skipped: {s}")
    return Groundwork(timeline, anchors, passages, counts, skipped, candidates, dropped)


def after_relations(setup: Setup, got: Groundwork, run: Trajectory | None = None) -> dict:
    """The relater's stage and everything after it (numbering, writing, rendering, checks, the
    protocol) on what ``before_relations`` gathered; returns the run's summary."""
    from .record import finish

    run, dropped, problems = run or Trajectory(), Counter(got.dropped), []
    with Stage(run, "relations", "model"):
        sources, evidence = number(relate(setup, got.anchors, got.candidates, dropped))
    counts = {**got.counts, "skipped": got.skipped, "mentions_dropped": sum(dropped.values()), "dropped": dict(dropped)}
    with Stage(run, "writing", "write") as st:
        data = compose(setup, got.timeline, got.anchors, sources, evidence, counts, problems)
        st.note(problems)
    with Stage(run, "rendering", "write"):
        data = render(setup, data)
    with Stage(run, "validation", "check") as st:
        result, data = validate(setup.out, data, rounds=setup.settings.repair_rounds, browser=setup.browser,
                                judge=setup.judge, writer=setup.writer)
        st.rounds(result["rounds"])
    return finish(setup, run, data, result, got.skipped)


def number(decisions: list[Decision]) -> tuple[dict[str, Source], list[Evidence]]:
    """Sources numbered S1, S2… in order of first citation; one evidence record per decision."""
    numbering: dict[str, str] = {}
    sources: dict[str, Source] = {}
    evidence: list[Evidence] = []
    for d in decisions:
        c = d.candidate
        loc = c.passage.source.location
        if loc not in numbering:
            numbering[loc] = f"S{len(numbering) + 1}"
            sources[numbering[loc]] = replace(c.passage.source, id=numbering[loc])
        evidence.append(Evidence(id=f"E{len(evidence) + 1}", anchor_id=c.anchor_id, source_id=numbering[loc],
                                 modality=c.passage.modality, excerpt=c.excerpt, relation=d.relation, rationale=d.rationale,
                                 confidence=round(d.confidence * min(1.0, c.score), 3), moment=c.passage.moment,
                                 decided_by=d.decided_by, context=c.context, heading=c.passage.heading))
    return sources, evidence


def compose(setup: Setup, timeline, anchors: list[Anchor], sources: dict[str, Source], evidence: list[Evidence],
            counts: dict, problems: list[str]) -> ReportData:
    """Stage 5: findings, verdicts, summary and notes (the writer's failures go to ``problems``)."""
    from .write import notes_of, open_questions, verdicts_of, write_model, write_rules, write_summary

    lang = setup.language
    if setup.writer is not None:
        findings = write_model(setup.writer, anchors, evidence, sources, problems=problems, language=lang)
    else:
        findings = write_rules(anchors, evidence, sources, language=lang)
    verdicts = verdicts_of(anchors, evidence, sources, language=lang)
    video = {"title": setup.title, "original": str(setup.video.resolve()), "duration": round(setup.info.duration, 3),
             "date": setup.video_date, "file": ""}
    if setup.library is not None:
        video["library"] = str(Path(setup.library).resolve())  # where related-video citations are reopened
    return ReportData(video=video, request=setup.request,
                      summary=write_summary(setup.writer, setup.request, anchors, evidence, sources, verdicts,
                                            language=lang, problems=problems),
                      notes=tuple(notes_of(timeline, anchors)), anchors=tuple(anchors), sources=tuple(sources.values()),
                      evidence=tuple(evidence), findings=tuple(findings),
                      open_questions=tuple(open_questions(anchors, evidence, language=lang)),
                      budgets=setup.settings.budgets(), counts=counts, verdicts=verdicts, language=lang)


def render(setup: Setup, data: ReportData) -> ReportData:
    """Stage 6: the video beside the page, cited documents copied, the page, Markdown and JSON."""
    from .render import copy_sources, place_video, write_outputs

    setup.out.mkdir(parents=True, exist_ok=True)
    data = replace(data, video={**data.video, "file": place_video(setup.video, setup.out, setup.info)})
    data = copy_sources(data, setup.out)
    write_outputs(data, setup.out)
    return data


@writes_output("report")  # one output-folder policy; a failed run leaves nothing behind
def report(video, request: str, *, out, echo=None, **options) -> dict:
    """Write the report for ``video`` and ``request`` into ``out``; returns the check summary.
    ``options`` are ``prepare``'s (docs, index, web, model, config, library, ingest_options, date,
    browser, language, settings: a ``ReportConfig``, sources: configured source objects)."""
    from .record import budget_options

    setup = prepare(video, request, out=out, **budget_options(options))
    run = Trajectory()
    return after_relations(setup, before_relations(setup, run, echo), run)


def validate(folder: str | Path, data: ReportData | None = None, *, rounds: int = 2, browser: bool = True,
             judge=None, writer=None) -> tuple[dict, ReportData]:
    """Check the report in ``folder``; send what fails to repair and check again, up to ``rounds``
    times. What still fails is written into the page and ``checks.json``, never hidden."""
    from .check import check_report, load
    from .render import write_outputs
    from .repair import repair

    folder = Path(folder)
    if data is None:
        data, _ = load(folder)
    if data.failed_checks:  # the page lists an earlier check's failures: render it without them first
        data = replace(data, failed_checks=())
        write_outputs(data, folder)
    history = []
    for round_no in range(rounds + 1):
        result = check_report(folder, browser=browser, judge=judge)
        failures = [f for fs in result["checks"].values() for f in fs]
        history.append({"round": round_no, "failures": len(failures),
                        "failed": sorted({f["check"] for f in failures})})
        if result["passed"] or round_no == rounds:
            break
        data = repair(data, failures, folder, writer=writer)
        write_outputs(data, folder)
    if failures:
        data = replace(data, failed_checks=tuple(failures))
        write_outputs(data, folder)
    result["rounds"] = history
    write_atomic(folder / "checks.json", json.dumps(result, ensure_ascii=False, indent=1))
    return result, data


def rerender(folder: str | Path) -> Path:
    """Render ``report.json`` again (after editing it by hand, or after a vidsleuth upgrade)."""
    from .check import load
    from .render import write_outputs

    data, _ = load(folder)
    return write_outputs(data, Path(folder))

