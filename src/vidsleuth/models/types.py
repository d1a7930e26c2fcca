"""Messages, parts and replies shared by every chat backend."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

from PIL import Image as PILImage

from ..errors import VidsleuthError

AUDIO_SUFFIXES = {".wav", ".mp3", ".flac", ".ogg", ".m4a"}
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".gif"}


@dataclass(frozen=True, eq=False)
class ImagePart:
    """An image in a message (PIL image or file). ``note`` is what a text-only backend shows
    instead: perception's reading of the image (on-screen text, its timestamp)."""

    image: Any  # PIL.Image.Image or path
    note: str = ""
    read: bool = True  # False: the note already says what perception read; text-only backends skip OCR
    max_side: int | None = None  # send at most this long edge instead of the endpoint's image_max_side
    # where the image came from, for the frame manifest (vidsleuth.manifest)
    video: str = ""
    t: float | None = None  # presentation time, seconds
    index: int | None = None  # position in its frame sample

    def pil(self) -> PILImage.Image:
        if isinstance(self.image, PILImage.Image):
            return self.image
        try:
            with PILImage.open(self.image) as im:
                return im.convert("RGB")
        except (OSError, ValueError) as exc:
            raise VidsleuthError(f"cannot read image: {exc}", path=self.image) from exc

    def jpeg(self, max_side: int, quality: int) -> bytes:
        """The image as sent: long edge at most ``max_side`` px, JPEG at ``quality``."""
        im = self.pil().convert("RGB")
        if max(im.size) > max_side:
            scale = max_side / max(im.size)
            im = im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))),
                           PILImage.Resampling.BICUBIC)
        buf = io.BytesIO()
        im.save(buf, format="JPEG", quality=quality)
        return buf.getvalue()


@dataclass(frozen=True, eq=False)
class AudioPart:
    """Audio for omni models: a file (sent as WAV/MP3 bytes)."""

    path: str | Path

    def payload(self) -> tuple[str, bytes]:
        p = Path(self.path)
        fmt = p.suffix.lower().lstrip(".")
        if fmt not in ("wav", "mp3"):
            # OpenAI-style input_audio takes wav or mp3: convert anything else to 16 kHz WAV.
            import tempfile

            from ..media import extract_audio

            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp) / "a.wav"
                extract_audio(p, out=out)
                return "wav", out.read_bytes()
        try:
            return fmt, p.read_bytes()
        except OSError as exc:
            raise VidsleuthError(f"cannot read audio: {exc.strerror}", path=p) from exc


Part = Union[str, ImagePart, AudioPart]


@dataclass(frozen=True)
class Message:
    role: str  # system | user | assistant
    content: tuple[Part, ...]

    @classmethod
    def of(cls, role: str, *parts: Any) -> "Message":
        return cls(role, tuple(as_part(p) for p in parts))

    def text(self) -> str:
        return "\n".join(p for p in self.content if isinstance(p, str))


def as_part(p: Any) -> Part:
    """Strings stay text; PIL images and image files become ImagePart; audio files AudioPart."""
    if isinstance(p, (ImagePart, AudioPart, str)):
        return p
    if isinstance(p, PILImage.Image):
        return ImagePart(p)
    if isinstance(p, Path):
        suffix = p.suffix.lower()
        if suffix in AUDIO_SUFFIXES:
            return AudioPart(p)
        if suffix in IMAGE_SUFFIXES:
            return ImagePart(p)
        raise VidsleuthError(f"not an image or audio file suffix: {suffix!r}", path=p)
    raise VidsleuthError(f"cannot put a {type(p).__name__} into a message")


def normalise_messages(messages: Any) -> list[Message]:
    """Accept Message objects, OpenAI-style dicts with string content, or one prompt string."""
    if isinstance(messages, str):
        return [Message.of("user", messages)]
    out = []
    for m in messages:
        if isinstance(m, Message):
            out.append(m)
        elif isinstance(m, dict):
            content = m.get("content", "")
            parts = content if isinstance(content, (list, tuple)) else [content]
            out.append(Message.of(m.get("role", "user"), *parts))
        else:
            raise VidsleuthError(f"a message must be a Message or a dict, not {type(m).__name__}")
    return out


@dataclass(frozen=True)
class Reply:
    """One model answer, with what it cost."""

    text: str
    data: Any = None  # parsed JSON when a schema was given
    tokens_in: int = 0
    tokens_out: int = 0
    seconds: float = 0.0
    cached: bool = False
    model: str = ""
    endpoint: str = ""
    repaired: bool = False  # the first answer failed the schema and the retry fixed it
    extra: dict = field(default_factory=dict)


def data_url(mime: str, data: bytes) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
