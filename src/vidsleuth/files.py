"""Reading and writing the user's files safely.

Three mechanisms every verb uses, so no verb carries its own version:

* **Bounded reads** (``read_bytes``/``read_text``): a data file is opened once, refused when it is
  not a regular file (``/dev/zero``, a socket, a device) and never read past a size limit, so a
  hostile input ends in one line, not a ``MemoryError``.
* **Confined folder walks** (``iter_files``): a folder input is read inside its root. Symbolic
  links and paths that resolve outside the root are skipped and counted with the reason (followed
  only with an explicit ``follow_links``); FIFOs and devices are refused before anything opens them;
  files over a size limit are skipped with a clear reason.
* **One output-folder policy** (``claim_output``): an ``--out`` folder must be new, empty, or an
  earlier output of the same verb (it holds the marker ``.vidsleuth-output.json``), unless
  ``overwrite``; what a failed run created is removed again.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

MiB = 1024 * 1024
MAX_TEXT_BYTES = 512 * MiB  # one data file (corpus, questions, config, trajectories…)
MAX_DOCUMENT_BYTES = 20 * MiB  # one evidence document of a report folder
MARKER = ".vidsleuth-output.json"


_UNREDACTED = {".html", ".htm", ".svg"}  # may embed base64 data, where a key pattern can occur by chance


def write_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to a temporary sibling, then rename it over ``path``. Credentials are
    masked (``vidsleuth.errors.redact``) in every record vidsleuth writes this way (JSON, JSONL,
    Markdown, text); pages are escaped and checked by ``report check`` instead."""
    from .errors import redact

    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    tmp.write_text(text if p.suffix.lower() in _UNREDACTED else redact(text), encoding="utf-8")
    os.replace(tmp, p)
    return p


def safe_filename(item_id: str, suffix: str = "") -> str:
    """A file name for an item id that is readable and injective: a slug of the id plus a short
    hash of the exact id (``a/b`` and ``a_b`` get different names; no ``..`` or separators)."""
    import hashlib
    import re

    slug = re.sub(r"[^\w.-]+", "_", str(item_id), flags=re.UNICODE).strip("._")[:60] or "item"
    digest = hashlib.sha256(str(item_id).encode("utf-8")).hexdigest()[:8]
    return f"{slug}-{digest}{suffix}"


# -- bounded reads -------------------------------------------------------------------------------

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"))


def file_kind(mode: int) -> str:
    """'a regular file', 'a FIFO (named pipe)', 'a character device', … for an ``st_mode``."""
    return next((name for test, name in _KINDS if test(mode)), "a regular file")


def _mb(n: int) -> str:
    return f"{n / MiB:.1f} MB" if n >= MiB else f"{n} bytes"


def read_bytes(path: str | Path, what: str = "file", *, max_bytes: int = MAX_TEXT_BYTES,
               allow_fifo: bool = True) -> bytes:
    """The bytes of one input file, or one clear error: missing, a folder, a device or socket
    (refused before reading), or larger than ``max_bytes`` (never read past it). A FIFO a user
    names explicitly (``<(cmd)``) is read, bounded, unless ``allow_fifo`` is false."""
    from .errors import DataFileError

    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise DataFileError(p, None, f"{what} not found") from None
    except OSError as exc:
        raise DataFileError(p, None, f"cannot read the {what}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise DataFileError(p, None, f"is a folder, not a {what}")
    fifo = stat.S_ISFIFO(st.st_mode)
    if not stat.S_ISREG(st.st_mode) and not (fifo and allow_fifo):
        raise DataFileError(p, None, f"is {file_kind(st.st_mode)}, not a regular file: refused before reading",
                            hint=f"give a {what} saved on disk")
    if st.st_size > max_bytes:
        raise DataFileError(p, None, f"is {_mb(st.st_size)}, over the limit of {_mb(max_bytes)} for a {what}")
    try:
        with open(p, "rb") as fh:
            if not fifo and not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):  # replaced since the stat
                raise DataFileError(p, None, "changed into a non-regular file while being opened")
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise DataFileError(p, None, f"cannot read the {what}: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise DataFileError(p, None, f"holds more than the limit of {_mb(max_bytes)} for a {what}")
    return data


def decode_text(data: bytes, path: str | Path, what: str = "file") -> str:
    """UTF-8 text of ``data`` (BOM dropped) or one error naming the line and byte."""
    from .errors import DataFileError

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DataFileError(Path(path), line, f"not UTF-8 text (byte {exc.start}: {data[exc.start:exc.start + 1]!r}); "
                                              f"is it a binary file?", hint=f"give a UTF-8 {what}") from None
    return text[1:] if text.startswith("\ufeff") else text


def read_text(path: str | Path, what: str = "file", *, max_bytes: int = MAX_TEXT_BYTES) -> str:
    """A user's text file as str, or one clear error: missing, a folder, not a regular file, over
    the size limit, or not UTF-8 text (naming the byte offset, where a binary file is the usual
    cause). A UTF-8 BOM is dropped."""
    return decode_text(read_bytes(path, what, max_bytes=max_bytes), path, what)


def text_lines(path: str | Path, what: str = "file"):
    """(line number, line) of a text file read by ``read_text``."""
    return enumerate(read_text(path, what).splitlines(), 1)


# -- confined folder walks -----------------------------------------------------------------------

@dataclass(frozen=True)
class Skipped:
    """A file a folder walk did not return, and why (shown to the user and counted)."""

    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
        return True
    except ValueError:
        return False


def _judge(path: Path, root: Path, follow_links: bool, max_bytes: int | None) -> str:
    """'' when ``path`` may be read, else the reason it is skipped (decided from ``lstat``, so
    nothing is opened: a FIFO cannot block the walk)."""
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        if not follow_links:
            return "a symbolic link: not followed (give --follow-links to read it)"
        try:
            st = os.stat(path)
        except OSError:
            return "a broken symbolic link"
    elif not follow_links and not _inside(path.resolve(), root):
        return "resolves outside the folder given: not read"
    if not stat.S_ISREG(st.st_mode):
        return f"{file_kind(st.st_mode)}, not a regular file: not read"
    if max_bytes is not None and st.st_size > max_bytes:
        return f"{_mb(st.st_size)}, over the limit of {_mb(max_bytes)} per file: not read"
    return ""


def iter_files(root: str | Path, *, follow_links: bool = False, max_bytes: int | None = MAX_DOCUMENT_BYTES,
               suffixes: Iterable[str] | None = None, recursive: bool = True,
               hidden: bool = False) -> tuple[list[Path], list[Skipped]]:
    """(files that may be read, files skipped with the reason) under the folder ``root``, sorted.

    Only regular files inside ``root`` are returned. Symbolic links (to files or folders) are
    skipped unless ``follow_links``; with it a linked folder is walked once (no loops). Files
    whose suffix is not in ``suffixes`` (when given) and hidden names (unless ``hidden``) are
    ignored silently: they are not inputs, so they are not "skipped"."""
    from .errors import DataFileError

    base = Path(root)
    if not base.is_dir():
        raise DataFileError(base, None, "is not a folder" if base.exists() else "folder not found")
    real_root = base.resolve()
    wanted = {s.lower() for s in suffixes} if suffixes is not None else None
    files: list[Path] = []
    skipped: list[Skipped] = []
    seen_dirs = {real_root}
    for dirpath, dirnames, filenames in os.walk(base, followlinks=follow_links):
        here = Path(dirpath)
        keep = []
        for d in sorted(dirnames):
            sub = here / d
            if d.startswith(".") and not hidden:
                continue
            real = sub.resolve()
            if sub.is_symlink() and not follow_links:
                skipped.append(Skipped(str(sub), "a symbolic link to a folder: not followed "
                                                 "(give --follow-links to read it)"))
            elif real in seen_dirs:
                skipped.append(Skipped(str(sub), "a folder already walked (a link loop): not read again"))
            elif not follow_links and not _inside(real, real_root):
                skipped.append(Skipped(str(sub), "resolves outside the folder given: not read"))
            else:
                seen_dirs.add(real)
                keep.append(d)
        dirnames[:] = keep if recursive else []
        for name in sorted(filenames):
            if name.startswith(".") and not hidden:
                continue
            p = here / name
            if wanted is not None and p.suffix.lower() not in wanted:
                continue
            try:
                reason = _judge(p, real_root, follow_links, max_bytes)
            except OSError as exc:
                reason = f"cannot be examined ({exc.strerror or exc})"
            (skipped.append(Skipped(str(p), reason)) if reason else files.append(p))
    return sorted(files), sorted(skipped, key=lambda s: s.path)


# -- one output-folder policy --------------------------------------------------------------------

_OVERWRITE: contextvars.ContextVar[bool] = contextvars.ContextVar("vidsleuth_overwrite", default=False)


@contextlib.contextmanager
def overwriting(flag: bool) -> Iterator[None]:
    """Within the block, output checks that were not told otherwise follow ``flag``: the CLI sets
    it once from ``--overwrite`` for every verb, so no verb passes it by hand."""
    token = _OVERWRITE.set(bool(flag))
    try:
        yield
    finally:
        _OVERWRITE.reset(token)


def _overwrite(flag: bool | None) -> bool:
    return _OVERWRITE.get() if flag is None else bool(flag)


def output_problem(folder: str | Path, verb: str, *, overwrite: bool | None = None) -> str:
    """'' when ``verb`` may write into ``folder``, else what is wrong (nothing is created)."""
    overwrite = _overwrite(overwrite)
    p = Path(folder)
    if p.is_symlink() and not p.exists():
        return "is a broken symbolic link"
    if not p.exists():
        return ""
    if not p.is_dir():
        return "is a file, not a folder" if p.is_file() else "is not a folder"
    entries = sorted(e.name for e in p.iterdir())
    if not entries or overwrite:
        return ""
    marker = p / MARKER
    if marker.is_file():
        try:
            owner = json.loads(marker.read_text(encoding="utf-8")).get("verb")
        except (OSError, ValueError, AttributeError):
            owner = None
        if owner == verb:
            return ""
        return f"holds the output of vidsleuth {owner}, not of vidsleuth {verb}" if owner else "holds a damaged marker"
    shown = ", ".join(entries[:3]) + (", …" if len(entries) > 3 else "")
    return f"holds files that are not a vidsleuth {verb} output ({shown})"


def check_output(folder: str | Path, verb: str, *, overwrite: bool | None = None) -> Path:
    """``folder`` when ``verb`` may write there, else an ArgumentError (before any work)."""
    from .errors import ArgumentError

    problem = output_problem(folder, verb, overwrite=overwrite)
    if problem:
        raise ArgumentError(f"output folder {problem}", path=folder,
                            hint="choose a new or empty folder, or give --overwrite; nothing was changed")
    return Path(folder)


@contextlib.contextmanager
def claim_output(folder: str | Path, verb: str, *, overwrite: bool | None = None) -> Iterator[Path]:
    """The output folder of one run of ``verb``: checked, created, marked. When the body raises,
    what this run created is removed (the whole folder when it was new), so a failure leaves
    nothing behind; an interrupted run (Ctrl-C) keeps its folder so a rerun can resume."""
    from . import __version__

    overwrite = _overwrite(overwrite)
    out = check_output(folder, verb, overwrite=overwrite)
    created = not out.exists()
    before = set() if created else {e.name for e in out.iterdir()}
    out.mkdir(parents=True, exist_ok=True)
    marker = out / MARKER
    if not marker.exists() or overwrite:
        marker.write_text(json.dumps({"verb": verb, "version": __version__}) + "\n", encoding="utf-8")
    try:
        yield out
    except Exception:
        if created:
            shutil.rmtree(out, ignore_errors=True)
        else:
            for e in out.iterdir():
                if e.name not in before:
                    shutil.rmtree(e, ignore_errors=True) if e.is_dir() and not e.is_symlink() else e.unlink(missing_ok=True)
        raise


def check_output_file(path: str | Path, *, overwrite: bool | None = None) -> Path:
    """``path`` when a file may be written there: new, or ``overwrite`` (never a folder)."""
    from .errors import ArgumentError

    overwrite = _overwrite(overwrite)
    p = Path(path)
    if p.is_dir():
        raise ArgumentError("is a folder, not a file name", path=p, hint="give the file to write")
    if p.exists() and not overwrite:
        raise ArgumentError("already exists", path=p, hint="choose a new name, or give --overwrite; nothing was changed")
    return p


def writes_output(verb: str, param: str = "out"):
    """Decorate the library function behind a verb with ``--out``: the folder in ``param`` is
    claimed (``claim_output``) for the whole call, so the policy is the same for every verb, a
    failure leaves nothing behind, and callers may pass ``overwrite=True``."""
    import functools
    import inspect

    def wrap(fn):
        sig = inspect.signature(fn)

        @functools.wraps(fn)
        def run(*args, overwrite: bool | None = None, **kw):
            bound = sig.bind_partial(*args, **kw)
            bound.apply_defaults()
            folder = bound.arguments.get(param)
            if folder is None:
                return fn(*args, **kw)
            with claim_output(folder, verb, overwrite=overwrite):
                return fn(*args, **kw)

        run.output_verb = verb
        return run

    return wrap
