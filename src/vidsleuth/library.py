"""Ingest: a video becomes a Timeline, cached by content id in a library folder.

The library is a folder with a SQLite catalog (``catalog.sqlite``) and plain JSON files. Each
perception stage's result is saved as soon as it finishes, so a killed ingest resumes at the stage
it was in; re-ingesting an unchanged file is a catalog look-up; a changed file (new size or mtime,
then a new content hash) is ingested again.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Callable

from .assets import cache_root
from .errors import LibraryError
from .files import write_atomic
from .media import content_id, probe
from .types import Segment, Timeline, VideoInfo

CATALOG = "catalog.sqlite"


@dataclass(frozen=True)
class IngestOptions:
    """What ingest runs. Every field is part of the cache key of the stage it affects."""

    subtitles: str | None = None  # explicit subtitle file; else NAME.srt/.vtt; else embedded; else ASR
    asr: bool = True
    language: str | None = "en"
    asr_model: str | None = None
    ocr: bool = True
    ocr_fps: float = 1.0
    shots: bool = True
    shot_threshold: float = 27.0
    ocr_changed_only: bool = True  # OCR reads only where text can have changed (False: every frame whole)
    fast_shots: bool = True  # shots from a low-resolution frame-skipping decode (False: PySceneDetect's reader)
    parallel_stages: bool = True  # ASR, OCR and shots side by side (not part of any cache key's meaning)
    shared_decode: bool = True  # OCR and shots from one decode (same segments; not part of their meaning)


def default_library() -> Path:
    return cache_root() / "library"


def _key(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _write_json(path: Path, data: object) -> None:
    write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1))


class Library:
    """A folder of cached timelines and stage results with a SQLite catalog."""

    def __init__(self, root: str | Path | None = None):
        self.root = Path(root) if root is not None else default_library()
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.root / CATALOG, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL: durable at checkpoints, no fsync per call
            self.db.executescript(
                """
                CREATE TABLE IF NOT EXISTS files (
                    path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, content_id TEXT);
                CREATE TABLE IF NOT EXISTS videos (
                    content_id TEXT, options_key TEXT, path TEXT, duration REAL, timeline TEXT,
                    ingested_at REAL, PRIMARY KEY (content_id, options_key));
                """
            )
        except (OSError, sqlite3.DatabaseError) as exc:
            raise LibraryError(f"cannot open the library catalog: {exc}", path=self.root / CATALOG,
                               hint="choose another folder with --library, or move the damaged catalog away") from exc

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Library":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- identity
    def content_id(self, path: Path) -> str:
        """Content hash, recomputed only when the file's size or mtime changed."""
        st = path.stat()
        row = self.db.execute(
            "SELECT size, mtime_ns, content_id FROM files WHERE path = ?", (str(path),)
        ).fetchone()
        if row and row[0] == st.st_size and row[1] == st.st_mtime_ns:
            return row[2]
        cid = content_id(path)
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?)",
                (str(path), st.st_size, st.st_mtime_ns, cid),
            )
        return cid

    # -- stage cache
    def _stage_path(self, cid: str, name: str, key: str) -> Path:
        return self.root / "stages" / cid[:2] / cid / f"{name}-{key}.json"

    def has_stage(self, cid: str, name: str, key: str) -> bool:
        return self._stage_path(cid, name, key).exists()

    def stage(self, cid: str, name: str, key: str, compute: Callable[[], list[Segment]]) -> list[Segment]:
        path = self._stage_path(cid, name, key)
        if path.exists():
            try:
                return [Segment(**s) for s in json.loads(path.read_text(encoding="utf-8"))]
            except (ValueError, TypeError):
                path.unlink()  # a damaged cache entry is recomputed, not trusted
        segments = compute()
        _write_json(path, [s.to_dict() for s in segments])
        return segments

    # -- timelines
    def lookup(self, cid: str, options_key: str) -> Timeline | None:
        row = self.db.execute(
            "SELECT timeline FROM videos WHERE content_id = ? AND options_key = ?", (cid, options_key)
        ).fetchone()
        if not row:
            return None
        path = self.root / row[0]
        try:
            return Timeline.from_dict(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError, LibraryError):
            return None

    def store(self, timeline: Timeline, options_key: str) -> Path:
        cid = timeline.video.content_id
        rel = Path("timelines") / cid[:2] / f"{cid}-{options_key}.json"
        _write_json(self.root / rel, timeline.to_dict())
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO videos VALUES (?, ?, ?, ?, ?, ?)",
                (cid, options_key, timeline.video.path, timeline.video.duration, str(rel), time.time()),
            )
        return self.root / rel

    def entries(self) -> list[dict]:
        rows = self.db.execute(
            "SELECT content_id, path, duration, timeline, ingested_at FROM videos ORDER BY ingested_at"
        ).fetchall()
        return [dict(zip(("content_id", "path", "duration", "timeline", "ingested_at"), r)) for r in rows]


def transcript(path: Path, info: VideoInfo, options: IngestOptions, sub: Path | None) -> list[Segment]:
    """``sub`` (explicit or sidecar subtitles), else an embedded subtitle stream, else ASR."""
    from .perception.subtitles import read_embedded_subtitles, read_subtitles

    if sub is not None:
        return read_subtitles(sub)
    if info.subtitle_streams:
        embedded = read_embedded_subtitles(path)
        if embedded:
            return embedded
    if not options.asr or not info.has_audio:
        return []
    from .perception.asr import transcribe

    return transcribe(path, language=options.language, model=options.asr_model)


def _check_options(options: IngestOptions) -> None:
    """A bad language or subtitle file fails before anything is created."""
    from .limits import choice, whisper_languages

    languages = whisper_languages()
    if options.asr and options.language is not None and languages:
        choice(options.language, languages, option="--language", what="language")
    if options.subtitles:
        from .files import read_bytes

        read_bytes(options.subtitles, "subtitle file", max_bytes=64 * 1024 * 1024)


def ingest(
    path: str | Path,
    library: str | Path | Library | None = None,
    options: IngestOptions | None = None,
) -> Timeline:
    """Probe, transcribe, read on-screen text and find shots; cached by content id."""
    options = options or IngestOptions()
    p = Path(path).resolve()
    info_light = probe(p, with_content_id=False)  # validates the file before any work
    _check_options(options)  # and the options, before the library is created
    lib = library if isinstance(library, Library) else Library(library)
    try:
        cid = lib.content_id(p)
        info = VideoInfo(**{**asdict(info_light), "content_id": cid})
        from .perception.subtitles import find_sidecar

        sub = Path(options.subtitles) if options.subtitles else find_sidecar(p)
        sub_id = content_id(sub) if sub is not None and sub.exists() else None
        from .perception.asr import ASR_VERSION
        from .perception.ocr import OCR_VERSION

        options_key = _key({k: v for k, v in asdict(options).items() if k not in ("parallel_stages", "shared_decode")},
                           sub_id, ASR_VERSION, OCR_VERSION)
        cached = lib.lookup(cid, options_key)
        if cached is not None:  # a byte-identical copy: the content is shared, the path is the one asked about
            return replace(cached, video=replace(cached.video, path=str(p)))
        # ASR and the visual stages (OCR and shots, from one decode) spend their time in C code
        # that releases the GIL (CTranslate2, onnxruntime, FFmpeg): they run side by side, and each
        # stage's result is cached as soon as it is done (a killed ingest resumes per stage).
        jobs: list[tuple[str, str, Callable[[], list[Segment]]]] = [
            ("transcript", _key("transcript", sub_id, options.asr, options.language, options.asr_model, ASR_VERSION),
             lambda: transcript(p, info, options, sub))]
        visual, after = _visual_jobs(lib, cid, p, info, options)
        jobs += visual
        segments: list[Segment] = []
        if len(jobs) == 1 or not options.parallel_stages:
            for name, key, compute in jobs:
                segments += lib.stage(cid, name, key, compute)
        else:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
                futures = [pool.submit(lib.stage, cid, name, key, compute) for name, key, compute in jobs]
                for fut in futures:
                    segments += fut.result()
        for name, key, compute in after:
            segments += lib.stage(cid, name, key, compute)
        timeline = Timeline.build(info, segments)
        lib.store(timeline, options_key)
        return timeline
    finally:
        if not isinstance(library, Library):
            lib.close()


def _visual_jobs(lib: Library, cid: str, p: Path, info: VideoInfo, options: IngestOptions) -> tuple[list, list]:
    """The OCR and shots jobs, and the jobs to run after them. When both are to be computed with
    today's readers they share one decode (``perception.visual``): one job computes both and
    caches the shots, which the job after it reads back from the cache."""
    if not info.has_video:
        return [], []
    from .perception.ocr import OCR_VERSION, read_video_text
    from .perception.shots import SHOTS_VERSION, detect_shots

    shots_job = lambda: detect_shots(p, threshold=options.shot_threshold, fast=options.fast_shots)  # noqa: E731
    ocr_key = _key("ocr", options.ocr_fps, OCR_VERSION, options.ocr_changed_only)
    shots_key = _key("shots", options.shot_threshold, SHOTS_VERSION, options.fast_shots)
    shared = (options.ocr and options.shots and options.ocr_changed_only and options.fast_shots
              and options.shared_decode and not lib.has_stage(cid, "ocr", ocr_key)
              and not lib.has_stage(cid, "shots", shots_key))
    if shared:
        def both() -> list[Segment]:
            from .perception.visual import read_visual

            ocr, shots = read_visual(p, fps=options.ocr_fps, threshold=options.shot_threshold)
            lib.stage(cid, "shots", shots_key, lambda: shots)
            return ocr

        return [("ocr", ocr_key, both)], [("shots", shots_key, shots_job)]  # the shots: from the cache
    jobs: list = []
    if options.ocr:
        jobs.append(("ocr", ocr_key, lambda: read_video_text(p, fps=options.ocr_fps, changed_only=options.ocr_changed_only)))
    if options.shots:
        jobs.append(("shots", shots_key, shots_job))
    return jobs, []


VIDEO_SUFFIXES = {".mp4", ".mkv", ".mov", ".webm", ".avi", ".m4v", ".mpg", ".mpeg", ".ts", ".flv", ".wmv", ".m4a",
                  ".mp3", ".wav", ".flac", ".ogg", ".opus"}


def collect_media(inputs: list[str | Path], recursive: bool = False) -> list[Path]:
    """Files given, plus the media files inside folders given (their subfolders too with
    ``recursive``), sorted, without duplicates."""
    from .errors import ArgumentError

    out: list[Path] = []
    for item in inputs:
        p = Path(item)
        if p.is_dir():
            from .files import iter_files

            # confined to the folder: links, outside paths and FIFOs are skipped, with a warning
            found, refused = iter_files(p, recursive=recursive, max_bytes=None, suffixes=VIDEO_SUFFIXES)
            out.extend(found)
            if refused:
                import warnings

                warnings.warn(f"{len(refused)} file(s) in {p} not read; first: {refused[0]}", stacklevel=2)
        else:
            out.append(p)
    seen, unique = set(), []
    for f in out:
        key = str(f.resolve())
        if key not in seen:
            seen.add(key)
            unique.append(f)
    if not unique:
        raise ArgumentError("no media files found in " + ", ".join(map(str, inputs)),
                            hint="give files, or folders of video files (add --recursive for subfolders)")
    return unique


def timeline_summary(tl: Timeline) -> dict:
    """Path, content id, duration and segments per kind: what ``vidsleuth ingest`` reports per file."""
    counts: dict[str, int] = {}
    for s in tl.segments:
        counts[s.kind] = counts.get(s.kind, 0) + 1
    return {"path": tl.video.path, "content_id": tl.video.content_id, "duration": tl.video.duration, "segments": counts}


def _ingest_task(payload: tuple[str, str, dict]) -> dict:
    """One file of a collection, in a worker process or Ray task (module level: picklable)."""
    path, library, options = payload
    return timeline_summary(ingest(path, library, IngestOptions(**options)))


def ingest_many(paths: list[Path], library: str | Path | None = None, options: IngestOptions | None = None, *,
                executor: str = "local", workers: int | None = None, address: str | None = None):
    """Ingest a collection through the runner (``local``: a process pool; ``ray``: Ray tasks).
    Returns the runner's result; every file's timeline is in the library, failures are listed."""
    import os

    from .runner import map_items
    from .store import RunStore

    options = options or IngestOptions()
    lib = Library(library)
    root = lib.root
    lib.close()
    workers = workers or max(1, min(len(paths), (os.cpu_count() or 1)))
    if workers > 1:  # the stages' own parallelism on top of several workers would oversubscribe the cores
        options = replace(options, parallel_stages=False)
    store = RunStore(root / "runs.sqlite")
    items = [(str(Path(p).resolve()), (str(Path(p).resolve()), str(root), asdict(options))) for p in paths]
    run_id = store.find_or_start("ingest", {"files": [i for i, _ in items], "options": asdict(options)})
    return map_items(_ingest_task, items, store=store, run_id=run_id, workers=workers, executor=executor,
                     address=address, label="ingest")


def ingest_files(inputs: list[str | Path], library: str | Path | None = None, options: IngestOptions | None = None,
                 *, recursive: bool = False, executor: str = "local", workers: int | None = None,
                 address: str | None = None) -> dict:
    """Ingest files and folders of media (``collect_media``): one file directly, so that its error
    is the caller's error; several through ``ingest_many``, whose failures are listed. Returns the
    library, each video's ``timeline_summary``, the failures, the seconds and the hours of video."""
    if address:  # checked even when one file needs no executor: an option is never silently ignored
        from .errors import ArgumentError
        from .runner import check_address

        if executor != "ray":
            raise ArgumentError(f"--address {address} needs --executor ray (the {executor} executor runs on this machine)")
        check_address(address)
    files = collect_media(inputs, recursive=recursive)
    if len(files) == 1 and not files[0].is_dir():
        videos, failures, seconds = [timeline_summary(ingest(files[0], library, options))], [], None
    else:
        result = ingest_many(files, library, options, executor=executor, workers=workers, address=address)
        videos = [result.done[str(f.resolve())] for f in files if str(f.resolve()) in result.done]
        failures, seconds = result.errors(), result.seconds
    root = Path(library) if library else default_library()
    return {"library": str(root), "files": len(files), "videos": videos, "failures": failures, "seconds": seconds,
            "video_hours": round(sum(v["duration"] for v in videos) / 3600, 4)}
