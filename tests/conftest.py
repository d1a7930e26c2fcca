"""Fixtures: clips generated with ffmpeg and espeak-ng, with their ground truth.

Every clip is built from a spec whose truth (cut frames, caption times, speech times) the tests
assert against. Session-scoped so the suite makes each clip once.
"""

from __future__ import annotations

import json
import shutil
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

from vidsleuth import synth
from vidsleuth.cli import main
from vidsleuth.models import Endpoint, ModelConfig, Models
from vidsleuth.types import Timeline, VideoInfo

# Property tests assert what is read, not how fast: a per-example deadline fails them at random on a loaded
# 2-core machine (a clock-time example took over 200 ms beside eight report runs). Speed lives in benchmarks/.
settings.register_profile("vidsleuth", deadline=None)
settings.load_profile("vidsleuth")

MAIN = synth.ClipSpec(
    title="Fixture main clip",
    fps=25,
    width=640,
    height=360,
    gop=50,
    # Flat colours that differ in brightness too, so the content detector sees each cut.
    shots=(synth.Shot(100, "0x102060"), synth.Shot(100, "0xe0d040"), synth.Shot(100, "0x108030")),
    captions=(
        synth.Caption(1.0, 4.0, "ORBITAL MECHANICS"),
        synth.Caption(5.0, 8.0, "月球 轨道", cjk=True, color="black"),
        synth.Caption(9.0, 11.0, "LAUNCH WINDOW OPEN"),
    ),
    speech=(
        synth.Speech(0.5, "the rocket launched from the coast at dawn"),
        synth.Speech(6.0, "the engines fired until the clouds parted"),
    ),
)
COLORS = [(0x10, 0x20, 0x60), (0xE0, 0xD0, 0x40), (0x10, 0x80, 0x30)]


@pytest.fixture(scope="session")
def fixtures_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("clips")


@pytest.fixture(scope="session")
def main_clip(fixtures_dir) -> tuple[Path, dict]:
    path = fixtures_dir / "main.mp4"
    truth = synth.make_clip(path, MAIN)
    return path, truth


@pytest.fixture(scope="session")
def pattern_clip(fixtures_dir) -> Path:
    """testsrc2 (moving content on every frame), long GOP with B-frames: a hard case for seeking."""
    path = fixtures_dir / "pattern.mp4"
    synth.run_ffmpeg("-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=20", "-c:v", "libx264",
                     "-preset", "veryfast", "-g", "120", "-bf", "3", "-pix_fmt", "yuv420p", str(path))
    return path


@pytest.fixture(scope="session")
def silent_clip(fixtures_dir) -> Path:
    path = fixtures_dir / "silent.mp4"
    spec = synth.ClipSpec(shots=(synth.Shot(50, "0x404040"),), audio=False,
                          captions=(synth.Caption(0.2, 1.8, "NO SOUND HERE"),))
    synth.make_clip(path, spec)
    return path


@pytest.fixture(scope="session")
def speech_spec() -> synth.ClipSpec:
    return synth.ClipSpec(
        shots=(synth.Shot(200, "0x000000"),),
        speech=(synth.Speech(0.5, "please remember to bring the blue notebook tomorrow morning"),),
    )


@pytest.fixture(scope="session")
def audio_files(fixtures_dir, speech_spec) -> dict[str, Path]:
    out = {}
    for ext in ("wav", "flac", "mp3"):
        path = fixtures_dir / f"speech.{ext}"
        synth.audio_only(speech_spec, path)
        out[ext] = path
    return out


def load_truth(path: Path) -> dict:
    return json.loads(path.with_suffix(".truth.json").read_text())


@pytest.fixture()
def copy_of(tmp_path):
    def make(src: Path, name: str | None = None) -> Path:
        dst = tmp_path / (name or src.name)
        shutil.copyfile(src, dst)
        return dst

    return make


@pytest.fixture(autouse=True)
def no_error_logs(caplog):
    """A test fails when anything logs at ERROR or above (as PySceneDetect's suite does): an
    error that only reaches a log is a failure nobody sees."""
    import logging

    caplog.set_level(logging.ERROR)
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, "ERROR log records: " + "; ".join(f"{r.name}: {r.getMessage()}" for r in errors)


@dataclass(frozen=True)
class CliRun:
    """What a CLI run left: exit status, stdout and stderr (the fields of ``CompletedProcess``)."""

    returncode: int
    stdout: str
    stderr: str


@pytest.fixture()
def cli(capsys):
    """The ``vidsleuth`` command in-process: ``cli("probe", path, check_rc=0)``. Usage errors
    (argparse's SystemExit) give their status; an exception that escapes ``main`` (``--debug``)
    prints its traceback to stderr and gives 1, as the interpreter would."""

    def run(*args, check_rc: int | None = None) -> CliRun:
        capsys.readouterr()
        try:
            rc = main([str(a) for a in args])
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except Exception:  # noqa: BLE001 - what `python -m vidsleuth --debug` shows
            traceback.print_exc()
            rc = 1
        out = capsys.readouterr()
        result = CliRun(rc, out.out, out.err)
        if check_rc is not None:
            assert rc == check_rc, result.stderr
        return result

    return run


def scripted_config(srv, name: str = "fake", model: str = "m", *, roles: dict | None = None, **endpoint) -> ModelConfig:
    """One OpenAI-compatible endpoint ``name`` at a ``ScriptedServer`` (``endpoint``: any other
    ``Endpoint`` field, e.g. ``max_retries=0``), and the ``roles`` that use it."""
    return ModelConfig({name: Endpoint(name=name, backend="openai", base_url=srv.base_url, model=model, **endpoint)},
                       dict(roles or {}))


def scripted_models(srv, name: str = "fake", model: str = "m", *, roles: dict | None = None, cache=False,
                    store=None, run_id=None, **endpoint) -> Models:
    """``Models`` over ``scripted_config`` (no cache unless given): ``from .conftest import
    scripted_models``; ``scripted_models(srv, "vl", "oracle-vl")``."""
    return Models(scripted_config(srv, name, model, roles=roles, **endpoint), cache=cache, store=store, run_id=run_id)


def relation_of(anchor: str, excerpt: str, title: str = "Guide") -> str | None:
    """The rules' relation of one excerpt to a spoken anchor (``steps.relate_excerpts``)."""
    from vidsleuth.report.steps import relate_excerpts

    a = {"text": anchor, "moments": [{"start": 5.0, "end": 8.0, "kind": "speech", "text": anchor}]}
    return relate_excerpts(a, [{"excerpt": excerpt, "source_title": title}])[0]["relation"]


def timeline_of(*segs) -> Timeline:
    """A 60-s 640×360 test video's timeline holding ``segs`` (``Timeline.build`` orders them)."""
    return Timeline.build(VideoInfo("x.mp4", 60.0, 25.0, 640, 360, 0, True, True, "h264", "aac", "x"), list(segs))


def labels_of(text: str) -> list[str]:
    """The values ``text`` states, as a reader writes them ("≈ 10 m²/L")."""
    from vidsleuth.values import read_values

    return [v.label() for v in read_values(text)]
