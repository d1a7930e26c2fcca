"""One exception base for the whole package.

Every error says what was wrong, with which file or endpoint, and what to do about it, so the CLI
can print it as one line and exit non-zero without a traceback.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

# -- credentials never travel ---------------------------------------------------------------------
# One redaction, used by every writer (error messages, logs, run.json, metrics, the run store, the
# model listing): URL userinfo, bearer tokens, ``key=value`` pairs of secret-looking names, tokens of
# the well-known key formats, and every key value vidsleuth has read from the environment.

_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@]+@")
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}")
_PAIR = re.compile(r"(?i)\b(api[_-]?key|apikey|access[_-]?token|token|secret|password|passwd)"
                   r"([\"']?\s*=\s*[\"']?|[\"']\s*:\s*[\"'])"
                   r"(?!\*\*\*)[^\s\"'&,;\\]{4,}")
_KEY_FORMATS = re.compile(
    r"\b(sk-[A-Za-z0-9_-]{16,}|sk-ant-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"
    r"|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|xox[abprs]-[A-Za-z0-9-]{10,}|hf_[A-Za-z0-9]{20,}"
    r"|glpat-[A-Za-z0-9_-]{16,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})")
_KNOWN: set[str] = set()
_KNOWN_LOCK = threading.Lock()
MASK = "***"


def register_secret(value: str | None) -> None:
    """Remember a key read from the environment, so ``redact`` masks it wherever it appears."""
    if value and len(value) >= 4:
        with _KNOWN_LOCK:
            _KNOWN.add(value)


def looks_like_key(value: str) -> bool:
    """A value that is a credential rather than a name (e.g. pasted into ``api_key_env``)."""
    v = str(value).strip()
    if _KEY_FORMATS.search(v) or _BEARER.search(v):
        return True
    if len(v) < 20 or v.isupper() or not re.fullmatch(r"[A-Za-z0-9._~+/=-]+", v):
        return False
    classes = sum(bool(re.search(c, v)) for c in (r"[a-z]", r"[A-Z]", r"[0-9]"))
    return classes >= 2 and not re.fullmatch(r"[A-Za-z]+(_[A-Za-z]+)*", v)


def redact(text: str) -> str:
    """``text`` with every credential masked as ``***`` (userinfo of URLs kept as ``***@``)."""
    if not text:
        return text
    out = _USERINFO.sub(lambda m: f"{m.group(1)}{MASK}@", str(text))
    out = _BEARER.sub(lambda m: f"{m.group(1)} {MASK}", out)
    out = _PAIR.sub(lambda m: f"{m.group(1)}{m.group(2)}{MASK}", out)
    out = _KEY_FORMATS.sub(MASK, out)
    with _KNOWN_LOCK:
        known = sorted(_KNOWN, key=len, reverse=True)
    for secret in known:
        out = out.replace(secret, MASK)
    return out


def redact_known(text: str) -> str:
    """Only the keys read from the environment masked: for stored model replies, which must stay
    as the model wrote them otherwise (a rerun from the cache gives the same answer)."""
    with _KNOWN_LOCK:
        known = sorted(_KNOWN, key=len, reverse=True)
    for secret in known:
        text = text.replace(secret, MASK)
    return text


def redact_obj(obj: Any) -> Any:
    """``redact`` applied to every string (keys too) of a JSON-like structure."""
    if isinstance(obj, str):
        return redact(obj)
    if isinstance(obj, dict):
        return {redact_obj(k) if isinstance(k, str) else k: redact_obj(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [redact_obj(v) for v in obj]
    return obj


def _install_log_redaction() -> None:
    """Every log record made in this process is redacted once, when it is made (a record factory
    sees the records of every logger: ours, the MCP SDK's, httpx's), so no handler can write a
    credential. Installed once, at import."""
    import logging

    previous = logging.getLogRecordFactory()
    if getattr(previous, "vidsleuth_redacts", False):
        return

    def factory(*args, **kwargs):
        record = previous(*args, **kwargs)
        try:
            text = record.getMessage()
        except Exception:  # a malformed record is logging's problem, not ours
            return record
        clean = redact(text)
        if clean != text:
            record.msg, record.args = clean, ()
        return record

    factory.vidsleuth_redacts = True
    logging.setLogRecordFactory(factory)


_install_log_redaction()

SECRET_KEY_NAME = re.compile(r"(?i)(api[_-]?key|apikey|token|secret|password|passwd|authorization|credential|^key$|headers|cookie)")


def find_secret(obj: Any, where: str = "") -> str:
    """'' when a config table holds no credential, else what and where: a secret-looking key name
    (``api_key_env`` excepted: it names a variable), a URL with userinfo, or a key-looking value."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            here = f"{where}.{key}" if where else str(key)
            if key != "api_key_env" and SECRET_KEY_NAME.search(str(key)):
                return f"{here} looks like a secret"
            found = find_secret(value, here)
            if found:
                return found
    elif isinstance(obj, (list, tuple)):
        for k, value in enumerate(obj):
            found = find_secret(value, f"{where}[{k}]")
            if found:
                return found
    elif isinstance(obj, str):
        if _USERINFO.search(obj):
            return f"{where} is a URL with a user name or password in it"
        if _KEY_FORMATS.search(obj) or _BEARER.search(obj) or _PAIR.search(obj):
            return f"{where} holds what looks like a key"
    return ""


class VidsleuthError(Exception):
    """Base of every error vidsleuth raises on purpose. Its text is redacted: no credential can
    reach a message, a log or a file that records errors."""

    exit_code = 1

    def __init__(self, message: str, *, path: str | Path | None = None, hint: str | None = None):
        self.path = str(path) if path is not None else None
        self.hint = hint
        text = f"{self.path}: {message}" if self.path else message
        if hint:
            text = f"{text} ({hint})"
        super().__init__(redact(text))


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


def did_you_mean(name: str, choices) -> str:
    """``"; did you mean 'X'?"`` for the closest of ``choices`` to a misspelt name, else ''."""
    import difflib  # standard library, only needed on the error path

    close = difflib.get_close_matches(str(name), list(choices), n=1, cutoff=0.5)
    return f"; did you mean '{close[0]}'?" if close else ""
