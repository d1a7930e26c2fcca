"""Verbs over media and the ingest library: probe, frames, grid, ingest, timeline, demo."""

from __future__ import annotations

from pathlib import Path

from ..library import IngestOptions, ingest, ingest_files
from ..limits import arg
from ..media import probe, save_frames, save_grids
from ..timecode import clock, seconds_label
from ..types import SEGMENT_KINDS
from . import JsonFormat, verb


def _probe_args(p):
    p.add_argument("files", nargs="+", type=Path, metavar="FILE")


def _probe_text(infos: list[dict] | dict, args) -> str:
    lines = []
    for i in infos if isinstance(infos, list) else [infos]:
        video = (f"{i['codec']} {i['width']}x{i['height']} @ {i['fps']:g} fps"
                 + (f", rotated {i['rotation']}°" if i["rotation"] else "")) if i["has_video"] else "no video"
        audio = i["audio_codec"] if i["has_audio"] else "no audio"
        lines.append(f"{i['path']}: {clock(i['duration'])} ({i['duration']:.3f} s, from {i['duration_source']}); "
                     f"{video}; {audio}; subtitles: {i['subtitle_streams']}; id {i['content_id'][:12]}")
    return "\n".join(lines)


@verb("probe", "duration, frame rate, size, rotation and streams of media files", args=_probe_args, text=_probe_text)
def _probe(args):
    infos = [probe(f).to_dict() for f in args.files]
    return infos if len(infos) > 1 else infos[0]


def _frames_args(p):
    p.add_argument("file", type=Path, metavar="FILE")
    g = p.add_mutually_exclusive_group()
    g.add_argument("-n", type=arg("frames", "-n"), help="number of uniformly sampled frames, 1..4096 (default 16)")
    g.add_argument("--fps", type=arg("fps"), help="sample every 1/FPS seconds instead")
    p.add_argument("--start", type=arg("seconds", "--start"), help="window start, seconds")
    p.add_argument("--end", type=arg("seconds", "--end"), help="window end, seconds")
    p.add_argument("--max-side", type=arg("max_side"), help="resize so the long edge is at most this many px (16..8192)")
    p.add_argument("--out", type=Path, required=True, help="folder for the JPEG files")
    p.add_argument("--quality", type=int, choices=range(1, 101), metavar="1..100", default=90, help="JPEG quality (default 90)")


@verb("frames", "save uniformly sampled frames with their timestamps", args=_frames_args,
      text=lambda m, a: f"{len(m['frames'])} frames in {a.out} (times in {m['manifest']})",
      view=lambda m, a: m["frames"])
def _frames(args):
    return save_frames(args.file, args.out, n=args.n, fps=args.fps, start=args.start, end=args.end,
                       max_side=args.max_side, quality=args.quality)


def _grid_args(p):
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument("--out", type=Path, required=True, help="image file (.jpg/.png); several grids get -1, -2")
    p.add_argument("--grids", dest="n_grids", type=arg("grids"), default=1,
                   help="number of grids, 1..16 (the Watcher uses 2)")
    p.add_argument("--rows", type=arg("rows"), help="1..10 (default 3)")
    p.add_argument("--cols", type=arg("cols"), help="1..10 (default 3)")
    p.add_argument("--cell", type=arg("cell"), help="long edge of a cell in px, 16..1024 (default 256)")


def _grid_text(grids: list[dict], args) -> str:
    return "\n".join(f"{g['file']}: {g['size'][0]}x{g['size'][1]}, frames at "
                     + ", ".join(seconds_label(t) for t in g["times"]) for g in grids)


@verb("grid", "tile uniformly sampled, timestamp-labelled frames into grid images", args=_grid_args, text=_grid_text)
def _grid(args):
    return save_grids(args.file, args.out, n_grids=args.n_grids, rows=args.rows, cols=args.cols, cell=args.cell)


def _ingest_option_args(p):
    p.add_argument("--library", type=Path, help="library folder (default: the user cache dir)")
    p.add_argument("--subtitles", type=Path, help="subtitle file to use instead of NAME.srt/.vtt or ASR")
    p.add_argument("--language", default="en", help="speech language: en (default), zh, … or auto")
    p.add_argument("--asr-model", choices=["tiny.en", "base"], help="ASR model (default from --language)")
    p.add_argument("--no-asr", action="store_true", help="no speech recognition")
    p.add_argument("--no-ocr", action="store_true", help="no on-screen text")
    p.add_argument("--no-shots", action="store_true", help="no shot detection")
    p.add_argument("--ocr-fps", type=arg("ocr_fps"), help="frames per second read by OCR (default 1)")


def ingest_options(args) -> IngestOptions:
    """The ``IngestOptions`` the shared ingest options describe (also used by other groups)."""
    given = {"ocr_fps": args.ocr_fps}
    return IngestOptions(
        subtitles=str(args.subtitles) if args.subtitles else None, asr=not args.no_asr,
        language=None if args.language == "auto" else args.language, asr_model=args.asr_model,
        ocr=not args.no_ocr, shots=not args.no_shots, **{k: v for k, v in given.items() if v is not None},
    )


def _ingest_args(p):
    p.add_argument("files", nargs="+", type=Path, metavar="FILE_OR_DIR")
    p.add_argument("--recursive", action="store_true", help="include media files in subfolders of folders given")
    p.add_argument("--executor", choices=["threads", "local", "ray"], default="local",
                   help="several files: local (a process pool, default), ray (Ray tasks; extra vidsleuth[ray]) or threads")
    p.add_argument("--address", help="Ray cluster address (with --executor ray; default: a local instance)")
    p.add_argument("--workers", type=arg("concurrency", "--workers"), help="parallel files (default: one per core)")
    _ingest_option_args(p)


def _ingest_text(r: dict, args) -> str:
    lines = []
    for o in r["videos"]:
        kinds = ", ".join(f"{v} {k}" for k, v in sorted(o["segments"].items())) or "no segments"
        lines.append(f"{o['path']}: {o['duration']:.1f} s; {kinds}")
    hours, seconds = r["video_hours"], r["seconds"]
    if seconds:
        lines.append(f"{len(r['videos'])} of {r['files']} files, {hours * 60:.1f} min of video in {seconds:.1f} s: "
                     f"{hours / (seconds / 3600):.1f} hours of video per hour")
    if r["failures"]:
        lines.append(f"{len(r['failures'])} failed:")
        lines += [f"  {f['id']}: {f['error']}" for f in r["failures"]]
    return "\n".join(lines + [f"library: {r['library']}"])


@verb("ingest", "transcribe, read on-screen text and find shots; cached in a library (files or whole folders)",
      args=_ingest_args, text=_ingest_text, view=lambda r, a: {k: v for k, v in r.items() if k != "files"},
      status=lambda r: (1 if r["failures"] else 0, ""))
def _ingest(args):
    return ingest_files(args.files, args.library, ingest_options(args), recursive=args.recursive,
                        executor=args.executor, workers=args.workers, address=args.address)


def _timeline_args(p):
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument("--format", choices=["text", "json"], action=JsonFormat, help="text (default) or json (= --json)")
    p.add_argument("--max-chars", type=arg("max_chars"), default=25_000,
                   help="cap of the text rendering (default 25000, as the seeds)")
    p.add_argument("--kind", action="append", choices=SEGMENT_KINDS, help="only these segment kinds (repeatable)")
    _ingest_option_args(p)


def _timeline_view(tl, args) -> dict:
    data = tl.to_dict()
    if args.kind:
        data["segments"] = [s for s in data["segments"] if s["kind"] in args.kind]
    return data


@verb("timeline", "print a video's timeline (ingesting it first when needed)", args=_timeline_args,
      text=lambda tl, a: tl.to_text(max_chars=a.max_chars, kinds=a.kind), view=_timeline_view)
def _timeline(args):
    return ingest(args.file, args.library, ingest_options(args))


def _demo_args(p):
    p.add_argument("--out", type=Path, default=Path("demo-output"), help="output folder (default ./demo-output)")
    p.add_argument("--skip-agent", action="store_true", help="no browsing demo")
    p.add_argument("--skip-report", action="store_true", help="no report demo (nor its rubric calibration)")
    p.add_argument("--skip-compass", action="store_true", help="no compass run")
    p.add_argument("--full", action="store_true",
                   help="the benchmark-sized demo: 14 browsing questions with Video-Browser and ReAct, the whole compass set")


@verb("demo", "every main job offline on generated clips, printing each job's figures as they come", args=_demo_args)
def _demo(args):
    from ..demo import (
        run_demo,  # deferred: the report stack (lxml, jinja2, playwright glue) loads for the verbs that use it
    )

    run_demo(args.out, agent=not args.skip_agent, reports=not args.skip_report, compass=not args.skip_compass,
             full=args.full)
