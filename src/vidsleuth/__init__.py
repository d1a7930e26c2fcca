"""vidsleuth: agents that search, watch, ground and research video."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("vidsleuth")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0+local"

from .errors import DecodeWarning, MediaError, VidsleuthError
from .types import Frame, FrameGrid, Segment, Timeline, VideoInfo

__all__ = [
    "DecodeWarning",
    "Frame",
    "FrameGrid",
    "MediaError",
    "Segment",
    "Timeline",
    "VideoInfo",
    "VidsleuthError",
    "__version__",
]

import os as _os

# onnxruntime (RapidOCR, Whisper's VAD) writes a device id and telemetry under
# ~/.cache/Microsoft/DeveloperTools when it is imported; this opt-out must be set before that import.
_os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
