"""Media on PyAV: probe, timestamped uniform sampling, frame grids, audio extraction, and saving
frames and grids. One module per stage; everything callers use is importable from here."""

from .audio import Audio, extract_audio
from .grid import format_stamp, frame_grid, frame_grids
from .probe import content_id, open_media, probe
from .sample import DEFAULT_FRAMES, TIME_EPS, iter_frames, sample_frames, sample_times
from .save import save_frames, save_grids

__all__ = [
    "Audio",
    "DEFAULT_FRAMES",
    "TIME_EPS",
    "content_id",
    "extract_audio",
    "format_stamp",
    "frame_grid",
    "frame_grids",
    "iter_frames",
    "open_media",
    "probe",
    "sample_frames",
    "sample_times",
    "save_frames",
    "save_grids",
]
