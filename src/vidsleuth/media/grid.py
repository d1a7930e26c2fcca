"""Frame grids: frames tiled with their timestamps (the Watcher's preview format)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from PIL import Image, ImageDraw, ImageFont

from ..errors import VidsleuthError
from ..limits import check
from ..timecode import seconds_label
from ..types import Frame, FrameGrid
from .sample import sample_frames


def _font(size: int) -> ImageFont.ImageFont:
    for name in ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def format_stamp(t: float) -> str:
    """A cell label: seconds with one decimal, as the seeds write frame times."""
    return seconds_label(t)


def frame_grid(
    frames: Sequence[Frame],
    rows: int = 3,
    cols: int = 3,
    cell: int = 256,
    labels: bool = True,
    video_id: str = "",
) -> FrameGrid:
    """Tile up to ``rows*cols`` frames into one image, long edge of each cell ``cell`` px, each
    cell labelled with its timestamp (the Watcher's preview format). Empty cells stay black."""
    rows, cols, cell = check("rows", rows), check("cols", cols), check("cell", cell)
    if not frames:
        raise VidsleuthError("frame_grid needs at least one frame")
    if len(frames) > rows * cols:
        raise VidsleuthError(
            f"{len(frames)} frames do not fit a {rows}x{cols} grid",
            hint="use frame_grids() to split them over several grids",
        )
    if cell < 16:
        raise VidsleuthError(f"cell size {cell} px is too small (16 px at least)")
    w0, h0 = frames[0].image.size
    if w0 >= h0:
        cw, ch = cell, max(1, round(cell * h0 / w0))
    else:
        cw, ch = max(1, round(cell * w0 / h0)), cell
    canvas = Image.new("RGB", (cw * cols, ch * rows), (0, 0, 0))
    draw = ImageDraw.Draw(canvas)
    font = _font(max(10, ch // 9))
    for i, frame in enumerate(frames):
        img = frame.image.convert("RGB")
        if img.size != (cw, ch):  # fit inside the cell, up or down, keeping the aspect ratio
            scale = min(cw / img.width, ch / img.height)
            size = (max(1, round(img.width * scale)), max(1, round(img.height * scale)))
            img = img.resize(size, Image.Resampling.BILINEAR)
        x0, y0 = (i % cols) * cw, (i // cols) * ch
        canvas.paste(img, (x0 + (cw - img.width) // 2, y0 + (ch - img.height) // 2))
        if labels:
            text = format_stamp(frame.t)
            box = draw.textbbox((0, 0), text, font=font)
            pad = max(2, ch // 40)
            draw.rectangle(
                (x0, y0, x0 + box[2] - box[0] + 2 * pad, y0 + box[3] - box[1] + 2 * pad),
                fill=(0, 0, 0),
            )
            draw.text((x0 + pad - box[0], y0 + pad - box[1]), text, fill=(255, 255, 0), font=font)
    return FrameGrid(
        image=canvas, times=tuple(f.t for f in frames), video_id=video_id, rows=rows, cols=cols
    )


def frame_grids(
    path: str | Path,
    n_grids: int = 2,
    rows: int = 3,
    cols: int = 3,
    cell: int = 256,
    video_id: str = "",
) -> list[FrameGrid]:
    """The Watcher's preview: ``n_grids`` grids of uniformly sampled frames in temporal order."""
    n_grids, rows, cols, cell = check("grids", n_grids), check("rows", rows), check("cols", cols), check("cell", cell)
    per = rows * cols
    frames = sample_frames(path, n=n_grids * per, max_side=cell)
    return [
        frame_grid(frames[k : k + per], rows=rows, cols=cols, cell=cell, video_id=video_id)
        for k in range(0, len(frames), per)
    ]
