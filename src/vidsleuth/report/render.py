"""Stage 6: rendering. One self-contained HTML file (inline CSS and JS allowed by hash in a
Content-Security-Policy that forbids every outside load), the video beside it, the cited local
documents copied under ``sources/``, a poster frame (``poster.jpg``: the first anchor's moment, so
the player opens on what the report is about, not a black box), a Markdown export, ``report.json``
(the contract's sidecar, docs/report-contract.md) and the WebVTT / Web Annotation exports. The
timeline marks each line that is an anchor's moment with the anchor's subject, its verdict and the
sources that cite it (``note_marks``; ``data-anchor`` and ``data-sources`` for machines).

All text from videos, documents, web pages and models goes through Jinja's autoescaping; links are
kept only when they are http(s) or relative (``safe_link``), so ``javascript:`` and ``data:`` never
reach an ``href``."""

from __future__ import annotations

import json
import re
import shutil
from importlib.resources import files
from pathlib import Path
from urllib.parse import urlsplit

from .. import __version__
from ..files import safe_filename, write_atomic
from ..timecode import clock, fragment
from . import contract
from .contract import script_hash
from .types import ReportData
from .wording import clean_title, readable, short, zh_value

PLAYABLE_VIDEO = {"h264", "vp8", "vp9", "av1"}
PLAYABLE_AUDIO = {"", "aac", "opus", "vorbis", "mp3"}
PLAYABLE_SUFFIX = {".mp4", ".m4v", ".webm"}
POSTER = "poster.jpg"
POSTER_SIDE = 960  # the poster's longer side in pixels (the player pane is ~40 % of a screen)
EXCERPT_CHARS = 400  # an excerpt shown under its source entry (the sidecar keeps it verbatim)
# The page's own words, in the report's language (a Chinese request gets a Chinese page).
LABELS = {
    "en": {"report": "research report", "request": "Request: ", "failing": "Checks that still fail:", "summary": "Summary", "observations": "What the video shows and says",
           "findings": "External findings by anchor", "at": ", at", "none": "No source addressed this anchor.",
           "open": "Open questions", "map": "Evidence map", "anchor": "anchor", "sources": "Sources",
           "no_sources": "No external source was found", "empty_folder": ": the evidence folder is empty",
           "kinds": {}, "moments": {}, "relations": {}, "source_kinds": {}},
    "zh": {"report": "研究报告", "request": "请求：", "failing": "仍未通过的检查：", "summary": "摘要", "observations": "视频中的说法", "findings": "外部来源的核对",
           "at": "，位于", "none": "没有来源涉及这一说法。", "open": "未解决的问题", "map": "证据表", "anchor": "说法",
           "sources": "来源", "no_sources": "没有找到外部来源", "empty_folder": "：证据文件夹是空的",
           "kinds": {"parameter": "数值", "entity": "实体", "procedure": "步骤", "claim": "说法", "open_question": "问题"},
           "moments": {"speech": "语音", "ocr": "画面文字", "subtitle": "字幕"},
           "relations": {"supports": "支持", "contradicts": "矛盾", "updates": "更新", "explains": "背景",
                         "compares": "比较", "applies": "应用"},
           "source_kinds": {"document": "文档", "video": "视频", "web": "网页"}},
}


def safe_link(url: str) -> str:
    """``url`` when it is http(s) or a relative path without a scheme; else ''."""
    u = str(url or "").strip()
    if not u or any(ord(c) < 32 for c in u):
        return ""
    parts = urlsplit(u)
    if parts.scheme:
        return u if parts.scheme.lower() in ("http", "https") and parts.netloc else ""
    return u if not u.startswith("//") else ""


def _template(name: str) -> str:
    return files("vidsleuth.report").joinpath("templates", name).read_text(encoding="utf-8")


def place_video(src: Path, out_dir: Path, info=None) -> str:
    """Copy the video beside the report, or transcode it to H.264/AAC MP4 when Chromium cannot
    play it; returns its name inside ``out_dir``. ``info``: the probe the caller already made."""
    from ..media import probe

    info = info or probe(src, with_content_id=False)
    playable = (src.suffix.lower() in PLAYABLE_SUFFIX and (info.codec in PLAYABLE_VIDEO or not info.has_video)
                and (info.audio_codec in PLAYABLE_AUDIO or not info.has_audio))
    if playable:
        name = "video" + src.suffix.lower()
        target = out_dir / name
        if not target.exists() or target.stat().st_size != src.stat().st_size:
            shutil.copyfile(src, target)
        return name
    from ..media.ffmpeg import run_ffmpeg

    target = out_dir / "video.mp4"
    tmp = out_dir / ".video.tmp.mp4"
    run_ffmpeg("-i", str(src), "-map", "0:v:0?", "-map", "0:a:0?", "-c:v", "libx264", "-preset", "veryfast",
               "-crf", "23", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", str(tmp))
    tmp.replace(target)
    return target.name


def copy_sources(data: ReportData, out_dir: Path) -> ReportData:
    """Cited local documents are copied under ``sources/`` and linked relatively; web sources keep
    their http(s) URL; nothing else becomes a link."""
    from dataclasses import replace

    new = []
    for s in data.sources:
        link = ""
        if s.kind == "document" and Path(s.location).is_file():
            rel = Path("sources") / safe_filename(Path(s.location).stem, Path(s.location).suffix.lower()[:8])
            (out_dir / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(s.location, out_dir / rel)
            link = rel.as_posix()
        elif s.kind == "web":
            link = safe_link(s.location)
        new.append(replace(s, link=safe_link(link)))
    # a report rendered again into its folder drops the copies of sources it no longer cites (only copies by this
    # function's naming, ``stem-<8 hex>.ext``: nothing else in the folder is touched)
    kept = {s.link for s in new}
    for old in (out_dir / "sources").glob("*") if (out_dir / "sources").is_dir() else ():
        if old.is_file() and _COPY.fullmatch(old.name) and f"sources/{old.name}" not in kept:
            old.unlink()
    return replace(data, sources=tuple(new))


_COPY = re.compile(r"[\w.-]+-[0-9a-f]{8}\.[a-z0-9]{1,8}")


def poster_time(data: ReportData) -> float | None:
    """The first anchor's moment: the middle of its on-screen moment when it has one (the value
    is in the frame), else its start; None without anchors."""
    if not data.anchors or not data.anchors[0].moments:
        return None
    a = data.anchors[0]
    m = next((m for m in a.moments if m.kind == "ocr"), None)
    return (m.start + m.end) / 2 if m is not None else a.start


def write_poster(data: ReportData, out_dir: Path) -> ReportData:
    """``poster.jpg`` beside the report, the frame at ``poster_time``, named in ``video.poster``.
    A video without pictures, or one that cannot be decoded, gets no poster (never a failure)."""
    from dataclasses import replace

    from ..media import iter_frames

    video = {k: v for k, v in data.video.items() if k not in ("poster", "poster_t")}
    t, name = poster_time(data), safe_link(data.video.get("file", ""))
    path = Path(out_dir) / name if name else None
    if t is None or path is None or not path.is_file():
        return replace(data, video=video)
    t = max(0.0, min(t, float(data.video.get("duration") or t) - 0.05))
    try:
        frame = next(iter(iter_frames(path, times=[t], max_side=POSTER_SIDE)), None)
        if frame is None:
            return replace(data, video=video)
        tmp = Path(out_dir) / f".{POSTER}.tmp"
        frame.image.convert("RGB").save(tmp, "JPEG", quality=85)
        tmp.replace(Path(out_dir) / POSTER)
    except Exception:  # noqa: BLE001 - a poster is a courtesy: any decode failure leaves the player without one
        return replace(data, video=video)
    return replace(data, video={**video, "poster": POSTER, "poster_t": round(frame.t, 3)})


def note_marks(data: ReportData, numbers: dict[str, int]) -> list[dict | None]:
    """Per timeline note: None, or the mark of the anchor whose moment it is — the anchor's subject
    and verdict (on its first line only) and the sources cited for it, numbered as on the page."""
    from .write import ZH_VERDICT

    cited = {e for f in data.findings for e in f.evidence_ids}
    marks, seen = [], set()
    for n in data.notes:
        a = data.anchor(n.anchor_id) if n.anchor_id else None
        if a is None:
            marks.append(None)
            continue
        sids = sorted({e.source_id for e in data.evidence if e.anchor_id == a.id and e.id in cited
                       and e.source_id in numbers}, key=numbers.get)
        verdict = (data.verdicts.get(a.id) or {}).get("verdict", "")
        shown = ZH_VERDICT.get(verdict, verdict) if data.language == "zh" else verdict
        marks.append({"anchor": a.id, "first": a.id not in seen, "label": short(a.heading or a.value or a.text, 60),
                      "verdict": verdict, "shown": shown, "ids": " ".join(sids),
                      "sources": [{"id": s, "n": numbers[s]} for s in sids]})
        seen.add(a.id)
    return marks


def summary_lines(text: str) -> list[tuple[str, str]]:
    """The summary's lines as (lead, rest): after the first line, a lead such as "Change:" is
    shown bold, so a reader finds what to change, keep and check at a glance."""
    out = []
    for k, line in enumerate(x for x in text.splitlines() if x.strip()):
        m = re.match(r"([^:：]{1,80}[:：])(.*)", line) if k else None
        out.append((m.group(1), m.group(2)) if m else ("", line))
    return out


def render_html(data: ReportData) -> str:
    import jinja2
    from markupsafe import Markup

    css, js = _template("report.css"), _template("report.js")
    csp = (f"default-src 'none'; script-src {script_hash(js)}; style-src {script_hash(css)}; media-src 'self'; "
           f"img-src 'self'; base-uri 'none'; form-action 'none'")
    numbers = {s.id: k for k, s in enumerate(data.sources, 1)}
    cites, backlinks = {}, {}
    for f in data.findings:
        cs = []
        for k, eid in enumerate(f.evidence_ids):
            ev = data.evidence_of(eid)
            sid = ev.source_id if ev else f"missing-{eid}"
            cid = contract.CITE_ID.format(f.id, k)
            cs.append({"id": cid, "source": sid, "evidence": eid, "n": numbers.get(sid, "?")})
            backlinks.setdefault(sid, []).append(cid)
        cites[f.id] = cs
    findings_by_anchor = {}
    for f in data.findings:
        findings_by_anchor.setdefault(f.anchor_id, []).append(f)
    relations: dict[tuple[str, str], set[str]] = {}
    for e in data.evidence:
        relations.setdefault((e.anchor_id, e.source_id), set()).add(e.relation)
    rel_map = {key: ", ".join(sorted(rels)) for key, rels in relations.items()}
    by_source = {}
    for e in data.evidence:
        if any(e.id in f.evidence_ids for f in data.findings):
            by_source.setdefault(e.source_id, []).append(e)
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    env.filters.update(clock=clock, fragment=fragment)  # every time on the page is written by timecode
    env.filters.update(shown=lambda v: short(zh_value(v) if data.language == "zh" else v, 40), title_of=clean_title, short=short,
                       quoted=lambda e: readable(e.excerpt, e.context, EXCERPT_CHARS))
    tpl = env.from_string(_template("report.html.j2"))
    return tpl.render(r=data, A=contract, css=Markup(css), js=Markup(js), csp=csp, version=__version__,
                      video_src=safe_link(data.video.get("file", "")), poster=safe_link(data.video.get("poster", "")),
                      cites=cites, backlinks=backlinks, marks=note_marks(data, numbers), summary=summary_lines(data.summary),
                      findings_by_anchor=findings_by_anchor, map=rel_map, evidence_by_source=by_source,
                      T=LABELS.get(data.language, LABELS["en"]))


def render_markdown(data: ReportData) -> str:
    from ..markdown import cell, table

    numbers = {s.id: k for k, s in enumerate(data.sources, 1)}
    T = LABELS.get(data.language, LABELS["en"])  # a Chinese report's headings in Chinese, as its page
    lines = [f"# {cell(data.video.get('title', ''))} — {T['report']}", "", f"{T['request']}{cell(data.request)}", ""]
    if data.video.get("poster"):
        lines += [f"![the video at {clock(data.video.get('poster_t') or 0.0)}]({data.video['poster']})", ""]
    lines += [f"## {T['summary']}", ""]
    for line in data.summary.splitlines():
        lines += [cell(line), ""]
    lines += [f"## {T['observations']}", ""]
    for a in data.anchors:
        times = ", ".join(clock(m.start) for m in a.moments)
        lines.append(f"- [{times}] {cell(a.text)}")
    lines += ["", f"## {T['findings']}", ""]
    for a in data.anchors:
        head = f"{a.heading} — {a.value}" if a.heading and a.value else (a.heading or a.value or short(a.text, 80))
        lines.append(f"### {cell(head)}{T['at']} {clock(a.start)}")
        if data.verdicts.get(a.id):
            lines.append(f"*{cell(data.verdicts[a.id]['text'])}*")
        fs = [f for f in data.findings if f.anchor_id == a.id]
        for f in fs:
            refs = "".join(f" [{numbers.get(data.evidence_of(e).source_id, '?') if data.evidence_of(e) else '?'}]"
                           for e in f.evidence_ids)
            lines.append(f"- **{cell(T['relations'].get(f.relation, f.relation))}** {cell(f.text)}{refs}")
        if not fs:
            lines.append(f"- {T['none']}")
        lines.append("")
    lines += [f"## {T['map']}", ""]
    lines += table([T["anchor"]] + [f"[{numbers[s.id]}]" for s in data.sources],
                   [[a.value or a.subject] + [", ".join(sorted({e.relation for e in data.evidence
                                                               if e.anchor_id == a.id and e.source_id == s.id}))
                                              for s in data.sources] for a in data.anchors])
    lines += ["", f"## {T['sources']}", ""]
    for s in data.sources:
        lines.append(f"{numbers[s.id]}. {cell(s.title)}" + (f" ({cell(s.date)})" if s.date else "")
                     + (f" — {cell(s.link)}" if s.link else ""))
    return "\n".join(lines) + "\n"


def write_outputs(data: ReportData, out_dir: Path) -> Path:
    """``poster.jpg``, ``report.html``, ``report.md``, ``report.json`` and the standards exports
    ``report.vtt`` and ``annotations.jsonld`` (``report.exports``), each written atomically."""
    from .exports import ANNOTATIONS, VTT, to_annotations, to_webvtt

    data = write_poster(data, out_dir)
    write_atomic(out_dir / "report.json", json.dumps(data.to_dict(), ensure_ascii=False, indent=1))
    write_atomic(out_dir / "report.md", render_markdown(data))
    write_atomic(out_dir / VTT, to_webvtt(data))
    write_atomic(out_dir / ANNOTATIONS, json.dumps(to_annotations(data), ensure_ascii=False, indent=1))
    return write_atomic(out_dir / "report.html", render_html(data))
