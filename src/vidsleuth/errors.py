"""One exception base for the whole package.

Every error says what was wrong, with which file or endpoint, and what to do about it, so the CLI
can print it as one line and exit non-zero without a traceback.
"""

from __future__ import annotations

from pathlib import Path


class VidsleuthError(Exception):
    """Base of every error vidsleuth raises on purpose."""

    exit_code = 1

    def __init__(self, message: str, *, path: str | Path | None = None, hint: str | None = None):
        self.path = str(path) if path is not None else None
        self.hint = hint
        text = f"{self.path}: {message}" if self.path else message
        if hint:
            text = f"{text} ({hint})"
        super().__init__(text)


class MediaError(VidsleuthError):
    """A media file is missing, unreadable, or lacks the stream a call needs."""


class SubtitleError(VidsleuthError):
    """A subtitle file cannot be read or holds no cue."""


class ModelFileError(VidsleuthError):
    """A bundled model file is missing or does not match its checksum."""


class MissingDependencyError(VidsleuthError):
    """An optional dependency is not installed; the message names the pip extra."""

    def __init__(self, module: str, extra: str):
        super().__init__(
            f"the optional module '{module}' is not installed",
            hint=f"install it with: pip install 'vidsleuth[{extra}]'",
        )


class ModelError(VidsleuthError):
    """A model endpoint failed: unreachable, HTTP errors after every retry, or a timeout."""


class ModelOutputError(VidsleuthError):
    """A model's answer could not be parsed or did not match the requested schema, even after
    one repair attempt. Callers turn this into their documented fallbacks."""

    def __init__(self, message: str, *, raw: str = "", **kw):
        self.raw = raw
        super().__init__(message, **kw)


class ConfigError(VidsleuthError):
    """The model configuration (TOML) is missing, malformed or names an unknown endpoint."""


class LibraryError(VidsleuthError):
    """The ingest library (catalog or cached files) is unusable."""


class DataFileError(VidsleuthError):
    """A data file (JSONL questions, instances, corpus, TREC run, calibration rows…) has a bad
    line or holds nothing; the message names the file and the line."""

    def __init__(self, path: str | Path, line: int | None, message: str, *, hint: str | None = None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message, path=path, hint=hint)


class CorpusError(DataFileError):
    """A video corpus (JSONL) has bad lines or holds no record."""

    def __init__(self, message: str, *, path: str | Path | None = None, hint: str | None = None, line: int | None = None):
        self.line = line
        VidsleuthError.__init__(self, message, path=path, hint=hint)


class SearchIndexError(VidsleuthError):
    """A search index folder is missing, damaged or of another version."""


class ToolMissingError(VidsleuthError):
    """An external program (ffmpeg, espeak-ng, chromium) is not installed."""


class ArgumentError(VidsleuthError):
    """A count, size or option is outside its documented range (checked before any work)."""


class DecodeWarning(UserWarning):
    """Decoding stopped early; what came before the damage is still returned."""


def require(module: str, extra: str):
    """Import an optional module or raise an error naming the extra that provides it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise MissingDependencyError(module, extra) from exc
