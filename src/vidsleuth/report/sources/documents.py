"""Local documents: a folder of HTML pages (main text only, through trafilatura's extraction, so
navigation, cookie banners and footers do not become evidence), Markdown, text and PDF (pypdf).

A document that cannot be read (damaged PDF, binary file, empty extraction) is skipped and
counted, with its reason, never fatal: one bad file must not sink a report.
"""

from __future__ import annotations

import re
from pathlib import Path

from ...errors import VidsleuthError, require
from ..types import Source
from . import Gathered, Passage
from .dates import page_date

SUFFIXES = {".html": "html", ".htm": "html", ".md": "text", ".markdown": "text", ".txt": "text", ".pdf": "pdf"}
MAX_PASSAGE = 700


def find_date(text: str) -> str:
    """The date a document's prose states (``sources.dates``: cued dates anywhere, an ISO date
    near the top; the latest wins), or ''."""
    return page_date("", text)


def read_document(path: Path) -> tuple[str, str, str]:
    """(title, date, main text) of one document; raises VidsleuthError when it cannot be read."""
    kind = SUFFIXES.get(path.suffix.lower())
    if kind is None:
        raise VidsleuthError(f"not a document type vidsleuth reads ({path.suffix or 'no suffix'})", path=path)
    if kind == "pdf":
        pypdf = require("pypdf", "report")
        import logging

        logging.getLogger("pypdf").setLevel(logging.CRITICAL)  # a damaged file is reported once, below
        try:
            reader = pypdf.PdfReader(str(path))
            text = "\n\n".join((page.extract_text() or "") for page in reader.pages)
            meta = reader.metadata or {}
            title = str(meta.get("/Title") or "") if meta else ""
        except Exception as exc:  # pypdf raises many types for damaged files
            raise VidsleuthError(f"cannot read PDF ({type(exc).__name__}: {exc})", path=path) from None
        date = page_date("", text, title=title)
    else:
        from ...files import read_text

        raw = read_text(path, "document")
        if kind == "html":
            trafilatura = require("trafilatura", "report")
            text = trafilatura.extract(raw, output_format="txt", include_comments=False, include_tables=True,
                                       favor_precision=True) or ""
            meta = trafilatura.extract_metadata(raw, extensive=False)  # a date the page states, not one guessed from '© 2023'
            title = (meta.title if meta and meta.title else "") or ""
            date = page_date(raw, text, title=title, html=True)
            if not date and meta and meta.date and meta.date[:4] not in title:  # a title's year is not a date
                date = meta.date
        else:
            text = raw
            heading = re.search(r"^\s*#\s+(.+)$", raw, re.M)
            title = heading.group(1).strip() if heading else ""
            date = page_date("", raw, title=title)
    text = text.strip()
    if not text:
        raise VidsleuthError("no text could be extracted", path=path)
    if not title:
        first = text.splitlines()[0].strip()
        title = first[:90] if len(first) < 120 else path.stem
    return title, date, text


def _tables(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The text without its table lines, and each table row with its header line (trafilatura
    writes HTML tables as ``| a | b |`` rows; Markdown tables are the same)."""
    rest, rows, header = [], [], ""
    for line in text.splitlines():
        cell = line.strip()
        if not cell.startswith("|"):
            rest.append(line)
            header = ""
            continue
        if re.fullmatch(r"\|?[\s:|-]+\|?", cell):
            continue  # the |---|---| rule under a header
        if not header:
            header = cell
            rest.append("")
            continue
        rows.append((cell, header))
    return "\n".join(rest), rows


def passages_with_context(text: str, *, lines: bool = False) -> list[tuple[str, str]]:
    """(passage, context): paragraphs (blank-line separated, or one per line for ``lines``:
    trafilatura's output puts each paragraph on its own line; Markdown headings dropped), long
    ones cut at sentences, context ''; table rows, each with its header line as context."""
    from ..facts import sentences

    text, rows = _tables(text)
    out: list[tuple[str, str]] = []
    for para in (text.splitlines() if lines else re.split(r"\n\s*\n", text)):
        para = " ".join(line.strip() for line in para.splitlines() if not line.strip().startswith("#"))
        para = para.strip()
        if len(para) < 20 and not re.search(r"\d", para):
            continue
        if len(para) <= MAX_PASSAGE:
            out.append((para, ""))
            continue
        chunk = ""
        for s in sentences(para):
            if chunk and len(chunk) + len(s) > MAX_PASSAGE:
                out.append((chunk, ""))
                chunk = ""
            chunk = f"{chunk} {s}".strip()
        if chunk:
            out.append((chunk, ""))
    return out + rows


def passages_of(text: str, *, lines: bool = False) -> list[str]:
    """The passages of ``passages_with_context`` without their context."""
    return [p for p, _ in passages_with_context(text, lines=lines)]


class DocumentSource:
    name = "documents"

    def __init__(self, folder: str | Path, follow_links: bool = False):
        self.folder = Path(folder)
        self.follow_links = follow_links

    def gather(self, anchors=None, **_) -> Gathered:
        got = Gathered()
        if not self.folder.is_dir():
            raise VidsleuthError("the evidence folder does not exist or is not a folder", path=self.folder,
                                 hint="give --docs DIR with the documents to research")
        from ...files import MAX_DOCUMENT_BYTES, iter_files

        # confined to the folder: links, outside paths, FIFOs and oversized files are skipped with the reason
        files, refused = iter_files(self.folder, follow_links=self.follow_links, max_bytes=MAX_DOCUMENT_BYTES)
        got.counts = {"documents_found": len(files) + len(refused), "documents_read": 0,
                      "documents_skipped": len(refused)}
        got.skipped += [str(s) for s in refused]
        for k, path in enumerate(files, 1):
            try:
                title, date, text = read_document(path)
            except VidsleuthError as exc:
                got.counts["documents_skipped"] += 1
                got.skipped.append(str(exc))
                continue
            got.counts["documents_read"] += 1
            src = Source(id=f"doc{k}", kind="document", title=title, location=str(path.resolve()), date=date)
            lines = SUFFIXES.get(path.suffix.lower()) == "html"
            got.passages += [Passage(src, p, "text", context=c) for p, c in passages_with_context(text, lines=lines)]
        return got
