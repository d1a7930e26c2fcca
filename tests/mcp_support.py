"""Shared set-up of the MCP tests: a root folder with a generated report case (report_cases seed 0,
speech as a subtitle sidecar so no ASR runs), a second clip, a corpus and its index; and the
server started as a harness starts it (``python -m vidsleuth mcp``) with the SDK's stdio client."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from vidsleuth.synth import report_cases

SRT_LINE = "{n}\n{a} --> {b}\n{text}\n\n"


def _stamp(t: float) -> str:
    ms = round(t * 1000)
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def _subtitles(case: Path, truth: dict) -> None:
    """The case's speech as a sidecar: the intro at 0.5 s, parameter k at 4 + 7k s (report_cases.build)."""
    lines = [(0.5, f"Welcome back. Today: {truth['title'].lower()}.")]
    lines += [(4.0 + 7.0 * k, p["text"]) for k, p in enumerate(truth["params"])]
    (case / "video.srt").write_text("".join(SRT_LINE.format(n=i, a=_stamp(t), b=_stamp(t + 3.0), text=text)
                                            for i, (t, text) in enumerate(lines, 1)), encoding="utf-8")


@pytest.fixture(scope="module", name="root")
def mcp_root(tmp_path_factory) -> Path:
    """The ``root`` fixture: the folder the server is started with (``--root``)."""
    from vidsleuth import synth
    from vidsleuth.search.index import build_index

    root = tmp_path_factory.mktemp("mcp-root")
    from vidsleuth.rubric.calibration import task_rubric

    truth = report_cases.build(root / "case", seed=0)
    _subtitles(root / "case", truth)
    (root / "case" / "rubric.json").write_text(json.dumps(task_rubric(truth)), encoding="utf-8")
    synth.make_clip(root / "other.mp4", synth.ClipSpec(shots=(synth.Shot(50, "0x204060"),), audio=False))
    (root / "corpus.jsonl").write_text("".join(json.dumps(r) + "\n" for r in [
        {"video_id": "loaf", "title": "Country loaf, step by step", "path": "case/video.mp4"},
        {"video_id": "wheel", "title": "Servicing a road bike wheel", "path": "other.mp4"},
        {"video_id": "paint", "title": "Painting a garden fence", "path": "other.mp4"}]), encoding="utf-8")
    build_index(root / "corpus.jsonl", root / "index", method="lucene")
    return root


def server(root: Path, *extra: str) -> StdioServerParameters:
    """``vidsleuth mcp`` as a harness starts it (the SDK passes only a minimal environment on)."""
    env = {k: os.environ[k] for k in ("PYTHONPATH", "VIDSLEUTH_CONFIG") if k in os.environ}
    return StdioServerParameters(command=sys.executable, env=env,
                                 args=["-m", "vidsleuth", "mcp", "--root", str(root), "--library", str(root / ".lib"),
                                       "--no-asr", "--no-ocr", *extra])


async def session_of(params, body):
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await body(session)


def run(params, body):
    return asyncio.run(session_of(params, body))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
