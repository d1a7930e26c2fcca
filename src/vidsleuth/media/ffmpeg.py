"""The ffmpeg program, for what PyAV does not do in one call (transcoding a report's video,
generating test clips): found once, run with errors that show its last words."""

from __future__ import annotations

import shutil
import subprocess

from ..errors import ToolMissingError, VidsleuthError


def ffmpeg_exe() -> str:
    """Debian's ffmpeg when present, else the static one inside imageio-ffmpeg."""
    found = shutil.which("ffmpeg")
    if found:
        return found
    try:
        import imageio_ffmpeg  # optional: only when no system ffmpeg is installed

        return imageio_ffmpeg.get_ffmpeg_exe()
    except Exception as exc:  # pragma: no cover - depends on the environment
        raise ToolMissingError("ffmpeg not found", hint="run `make setup` (apt-get install ffmpeg)") from exc


def run_ffmpeg(*args: str) -> None:
    cmd = [ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-y", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise VidsleuthError(f"ffmpeg failed: {proc.stderr.strip()[-800:]}", hint=" ".join(cmd))
