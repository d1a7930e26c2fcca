"""The browser check (check ``browser``): the report opened in real headless Chromium (Debian's
``chromium`` driven by Playwright; Playwright's own browser download is neither reachable nor
needed) with every request outside the report folder blocked and recorded.

It fails on console errors (a script the CSP refused is one), page errors, dialogs (an ``alert``
that escaped escaping), outside requests, markup a script put there after load (an ``on*``
attribute, a ``javascript:``/``data:`` link, a frame or object: ``report.markup`` reads the page as
written, this reads it as run), a timestamp click that leaves the page's video more than
``contract.TIME_TOLERANCE`` from the link's media-fragment time, and a citation click that does not
land on its source entry or whose entry has no link back. It reads pages by the contract only
(media-fragment links, ``data-cite``), so another agent's page is clicked through the same way.
It imports ``report.types`` and ``report.contract`` only; ``report.check`` registers it."""

from __future__ import annotations

import shutil
import time

from ..errors import VidsleuthError, require
from ..timecode import parse_fragment
from .contract import SEL_CITE, SEL_TIMESTAMP, TIME_TOLERANCE
from .types import Context, Failure

_DOM_AUDIT = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('*')) {
    for (const at of el.attributes) {
      if (at.name.toLowerCase().startsWith('on')) bad.push('<' + el.tagName.toLowerCase() + '> has ' + at.name);
    }
  }
  for (const a of document.querySelectorAll('[href],[src]')) {
    const v = (a.getAttribute('href') || a.getAttribute('src') || '').replace(/[\\t\\n\\r]/g, '').trim().toLowerCase();
    if (v.startsWith('javascript:') || v.startsWith('data:') || v.startsWith('vbscript:')) bad.push('link ' + v.slice(0, 40));
  }
  for (const tag of ['iframe', 'frame', 'object', 'embed', 'form', 'base']) {
    if (document.querySelector(tag)) bad.push('unexpected <' + tag + '> element');
  }
  if (window.__xss) bad.push('an injected script ran');
  return bad;
}"""

_LANDED = """([h, cid]) => { const el = document.getElementById(h.slice(1));
  if (!el || decodeURIComponent(location.hash) !== h) return 'missed';
  const r = el.getBoundingClientRect();
  if (!(r.bottom > 0 && r.top < window.innerHeight)) return 'missed';
  if (!cid) return 'no-id';
  return [...el.querySelectorAll('a[href]')].some(a => a.getAttribute('href') === '#' + cid) ? 'ok' : 'no-back'; }"""

_VIDEO = "document.querySelector('video')"


def _wait(page, expression: str, timeout_ms: int) -> bool:
    """Poll ``expression`` (Playwright's wait_for_function evaluates strings, which the report's
    Content-Security-Policy rightly forbids)."""
    end = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < end:
        if page.evaluate(f"() => Boolean({expression})"):
            return True
        page.wait_for_timeout(50)
    return False


def _clicks(page, max_clicks: int, playable: bool) -> list[Failure]:
    out = []
    stamps = page.locator(SEL_TIMESTAMP)
    n = stamps.count() if playable else 0
    for i in range(0, n, max(1, n // max_clicks)):
        link = stamps.nth(i)
        try:
            target = parse_fragment(link.get_attribute("href") or "")[0]
        except VidsleuthError:
            continue  # the timestamps check names it
        page.evaluate(f"window.__seeked = false; {_VIDEO}.addEventListener('seeked', () => {{ window.__seeked = true; }}, "
                      "{once: true})")
        link.scroll_into_view_if_needed()
        link.click()
        _wait(page, "window.__seeked === true", 5000)
        now = page.evaluate(f"{_VIDEO}.currentTime")
        if abs(now - target) > TIME_TOLERANCE:
            out.append(Failure("browser", f"timestamp-{i}", f"clicking {target:.2f} s left the video at {now:.2f} s"))
    cites = page.locator(SEL_CITE)
    for i in range(cites.count()):
        link = cites.nth(i)
        href, cid = link.get_attribute("href") or "", link.get_attribute("id") or ""
        link.scroll_into_view_if_needed()
        link.click()
        got = page.evaluate(_LANDED, [href, cid])
        msg = {"missed": f"clicking the citation did not land on {href}", "no-id": "the citation has no id: its source "
               "entry cannot link back to it", "no-back": "its source entry has no way back to the claim"}.get(got)
        if msg:
            out.append(Failure("browser", cid or f"cite-{i}", msg))
    return out


def _open(browser, ctx: Context, out: list[Failure], timeout_ms: int):
    page_path = ctx.page.page_path.resolve()
    root = page_path.parent.as_uri()
    page = browser.new_page()
    page.set_default_timeout(timeout_ms)

    def route(r):
        if r.request.url.startswith(root + "/") or r.request.url == page_path.as_uri():
            return r.continue_()
        out.append(Failure("browser", "network", f"outside request blocked: {r.request.url[:120]}"))
        return r.abort()

    def dialog(d):
        out.append(Failure("browser", "dialog", f"a dialog opened: {d.message[:100]}"))
        d.dismiss()

    page.route("**/*", route)
    page.on("console", lambda m: m.type == "error" and out.append(Failure("browser", "console", f"console error: {m.text[:200]}")))
    page.on("pageerror", lambda e: out.append(Failure("browser", "page", f"script error: {str(e)[:200]}")))
    page.on("dialog", dialog)
    page.goto(page_path.as_uri())
    return page


def browser_check(ctx: Context, *, max_clicks: int = 40, timeout_ms: int = 15000) -> list[Failure]:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        return [Failure("browser", "chromium", "chromium is not installed: the browser check cannot run "
                                               "(apt-get install chromium, or `make setup`)")]
    sync_api = require("playwright.sync_api", "report")
    out: list[Failure] = []
    with sync_api.sync_playwright() as pw:
        try:
            browser = pw.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu", "--mute-audio"])
        except sync_api.Error as exc:
            return [Failure("browser", "chromium", f"chromium did not start: {str(exc).splitlines()[0][:200]}")]
        try:
            page = _open(browser, ctx, out, timeout_ms)
            _wait(page, f"{_VIDEO} && ({_VIDEO}.readyState >= 1 || {_VIDEO}.error)", timeout_ms)
            playable = page.evaluate(f"() => Boolean({_VIDEO} && {_VIDEO}.readyState >= 1)")
            if not playable:
                out.append(Failure("browser", "video", "the video did not load in Chromium: timestamps cannot seek"))
            out += [Failure("browser", "dom", msg) for msg in page.evaluate(_DOM_AUDIT)]
            out += _clicks(page, max_clicks, playable)
        finally:
            browser.close()
    return out
