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
