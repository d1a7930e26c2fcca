"""Live web search and page fetching, only with ``--web`` (an explicit option: never in tests or
by default). Search goes to a SearXNG-compatible JSON endpoint named in ``[report] web_search_url``
(``{url}?q=QUERY&format=json``); each result page is fetched and its main text extracted by
trafilatura, exactly as local HTML documents are."""

from __future__ import annotations

import httpx

from ...errors import VidsleuthError, require
from ..types import Source
from . import Gathered, Passage
from .dates import page_date
from .documents import html_text, passages_with_context


class WebSource:
    name = "web"

    def __init__(self, search_url: str, *, per_anchor: int = 3, timeout: float = 20.0):
        if not search_url.startswith(("http://", "https://")):
            raise VidsleuthError("--web needs [report] web_search_url (a SearXNG-compatible JSON search endpoint)",
                                 hint="set web_search_url = \"https://searx.example/search\" in the config file")
        self.search_url, self.per_anchor, self.timeout = search_url, per_anchor, timeout

    def gather(self, anchors=(), **_) -> Gathered:
        trafilatura = require("trafilatura", "report")
        got = Gathered(counts={"web_pages": 0, "web_failed": 0})
        seen: set[str] = set()
        with httpx.Client(timeout=self.timeout, follow_redirects=True) as client:
            for anchor in anchors:
                try:
                    resp = client.get(self.search_url, params={"q": anchor.text, "format": "json"})
                    results = resp.json().get("results", [])[: self.per_anchor]
                except (httpx.HTTPError, ValueError) as exc:
                    raise VidsleuthError(f"web search at {self.search_url} failed ({type(exc).__name__})",
                                         hint="check the endpoint, or run without --web") from None
                for r in results:
                    url = str(r.get("url", ""))
                    if not url.startswith(("http://", "https://")) or url in seen:
                        continue
                    seen.add(url)
                    try:
                        page = client.get(url).text
                    except httpx.HTTPError:
                        got.counts["web_failed"] += 1
                        continue
                    text = html_text(page)
                    if not text:
                        got.counts["web_failed"] += 1
                        continue
                    meta = trafilatura.extract_metadata(page, extensive=False)
                    src = Source(id=f"web{len(seen)}", kind="web", title=(meta.title if meta else "") or url,
                                 location=url, date=page_date(page, text, title=(meta.title if meta else "") or "", html=True),
                                 link=url)
                    got.counts["web_pages"] += 1
                    got.passages += [Passage(src, p, "web", context=c) for p, c in passages_with_context(text, lines=True)]
        return got
