"""Saving what sampling makes: frames as JPEG files with a manifest, grids as image files."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from ..errors import VidsleuthError
from ..files import check_output_file, write_atomic, writes_output
from ..progress import task
from .grid import frame_grids
from .probe import probe
from .sample import DEFAULT_FRAMES, iter_frames


@writes_output("frames")
def save_frames(path: str | Path, out: str | Path, *, n: int | None = None, fps: float | None = None,
                start: float | None = None, end: float | None = None, max_side: int | None = None,
                quality: int = 90) -> dict:
    """Save sampled frames as JPEG files named by index and time, plus ``frames.json`` (video and
    each frame's index, time and file). The input is checked before the output folder exists."""

    probe(path, with_content_id=False)
    n = n if n is not None or fps is not None else DEFAULT_FRAMES
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with task("frames", total=n if fps is None else None) as bar:
        for k, frame in enumerate(iter_frames(path, n=n, fps=fps, start=start, end=end, max_side=max_side)):
            name = f"frame_{k:04d}_{frame.t:010.3f}s.jpg"
            frame.image.save(out / name, quality=quality)
            rows.append({"index": k, "t": frame.t, "file": str(out / name)})
            bar.advance()
    manifest = {"video": str(path), "frames": rows}
    write_atomic(out / "frames.json", json.dumps(manifest, indent=1))
    return {**manifest, "manifest": str(out / "frames.json")}


def save_grids(path: str | Path, out: str | Path, *, n_grids: int = 1, rows: int | None = None,
               cols: int | None = None, cell: int | None = None, overwrite: bool | None = None) -> list[dict]:
    """Save ``frame_grids`` as images: ``out`` itself for one grid, ``NAME-1.EXT``, ``NAME-2.EXT``
    … for several. ``out`` must end in an image suffix PIL writes (checked before any work)."""
    out = Path(out)
    Image.init()
    if out.suffix.lower() not in Image.EXTENSION:
        raise VidsleuthError(f"--out {out}: '{out.suffix or '(no suffix)'}' is not an image format",
                             hint="end the name with .jpg or .png")
    for target in [out] + [out.with_name(f"{out.stem}-{k}{out.suffix}") for k in range(1, n_grids + 1) if n_grids > 1]:
        check_output_file(target, overwrite=overwrite)  # the user's files are never overwritten (unless asked)
    kw = {k: v for k, v in (("rows", rows), ("cols", cols), ("cell", cell)) if v is not None}
    grids = frame_grids(path, n_grids=n_grids, **kw)
    saved = []
    for k, grid in enumerate(grids, 1):
        target = out if len(grids) == 1 else out.with_name(f"{out.stem}-{k}{out.suffix}")
        target.parent.mkdir(parents=True, exist_ok=True)
        grid.image.save(target)
        saved.append({"file": str(target), "times": list(grid.times), "size": list(grid.image.size)})
    return saved
