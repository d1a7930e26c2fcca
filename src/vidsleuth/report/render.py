"""Stage 6: rendering. One self-contained HTML file (inline CSS and JS allowed by hash in a
Content-Security-Policy that forbids every outside load), the video beside it, the cited local
documents copied under ``sources/``, a Markdown export, ``report.json`` (the contract's sidecar,
docs/report-contract.md) and the WebVTT / Web Annotation exports.

All text from videos, documents, web pages and models goes through Jinja's autoescaping; links are
kept only when they are http(s) or relative (``safe_link``), so ``javascript:`` and ``data:`` never
reach an ``href``."""

from __future__ import annotations

import json
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

PLAYABLE_VIDEO = {"h264", "vp8", "vp9", "av1"}
PLAYABLE_AUDIO = {"", "aac", "opus", "vorbis", "mp3"}
PLAYABLE_SUFFIX = {".mp4", ".m4v", ".webm"}


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
    return replace(data, sources=tuple(new))


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
    tpl = env.from_string(_template("report.html.j2"))
    return tpl.render(r=data, A=contract, css=Markup(css), js=Markup(js), csp=csp, version=__version__,
                      video_src=safe_link(data.video.get("file", "")), cites=cites, backlinks=backlinks,
                      findings_by_anchor=findings_by_anchor, map=rel_map, evidence_by_source=by_source)


def render_markdown(data: ReportData) -> str:
    from ..markdown import cell, table

    numbers = {s.id: k for k, s in enumerate(data.sources, 1)}
    lines = [f"# {cell(data.video.get('title', ''))} — research report", "", f"Request: {cell(data.request)}", "",
             "## Summary", "", cell(data.summary), "", "## What the video shows and says", ""]
    for a in data.anchors:
        times = ", ".join(clock(m.start) for m in a.moments)
        lines.append(f"- [{times}] {cell(a.text)}")
    lines += ["", "## External findings by anchor", ""]
    for a in data.anchors:
        head = f"{a.heading} — {a.value}" if a.heading and a.value else (a.heading or a.value or a.subject)
        lines.append(f"### {cell(head)}, at {clock(a.start)}")
        if data.verdicts.get(a.id):
            lines.append(f"*{cell(data.verdicts[a.id]['text'])}*")
        fs = [f for f in data.findings if f.anchor_id == a.id]
        for f in fs:
            refs = "".join(f" [{numbers.get(data.evidence_of(e).source_id, '?') if data.evidence_of(e) else '?'}]"
                           for e in f.evidence_ids)
            lines.append(f"- **{cell(f.relation)}** {cell(f.text)}{refs}")
        if not fs:
            lines.append("- No source addressed this anchor.")
        lines.append("")
    lines += ["## Evidence map", ""]
    lines += table(["anchor"] + [f"[{numbers[s.id]}]" for s in data.sources],
                   [[a.value or a.subject] + [", ".join(sorted({e.relation for e in data.evidence
                                                               if e.anchor_id == a.id and e.source_id == s.id}))
                                              for s in data.sources] for a in data.anchors])
    lines += ["", "## Sources", ""]
    for s in data.sources:
        lines.append(f"{numbers[s.id]}. {cell(s.title)}" + (f" ({cell(s.date)})" if s.date else "")
                     + (f" — {cell(s.link)}" if s.link else ""))
    return "\n".join(lines) + "\n"


def write_outputs(data: ReportData, out_dir: Path) -> Path:
    """``report.html``, ``report.md``, ``report.json`` and the standards exports ``report.vtt``
    and ``annotations.jsonld`` (``report.exports``), each written atomically."""
    from .exports import ANNOTATIONS, VTT, to_annotations, to_webvtt

    write_atomic(out_dir / "report.json", json.dumps(data.to_dict(), ensure_ascii=False, indent=1))
    write_atomic(out_dir / "report.md", render_markdown(data))
    write_atomic(out_dir / VTT, to_webvtt(data))
    write_atomic(out_dir / ANNOTATIONS, json.dumps(to_annotations(data), ensure_ascii=False, indent=1))
    return write_atomic(out_dir / "report.html", render_html(data))
