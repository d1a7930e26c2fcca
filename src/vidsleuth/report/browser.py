"""The browser check: the report opened in real headless Chromium (Debian's ``chromium`` driven by
Playwright; Playwright's own browser download is neither reachable nor needed) with every request
outside the report folder blocked and recorded.

It fails on console errors, page errors, dialogs (an ``alert`` that escaped escaping), outside
requests, markup that should never be there (a ``<script>`` other than the report's one, an
``on*`` attribute, a ``javascript:``/``data:`` link), a timestamp click that leaves the video more
than 0.5 s from its target, and a citation click that does not land on its source entry."""

from __future__ import annotations

import shutil
from pathlib import Path

from ..errors import require
from .check import Failure

SEEK_TOLERANCE = 0.5

_DOM_AUDIT = """() => {
  const bad = [];
  const scripts = document.querySelectorAll('script');
  if (scripts.length !== 1) bad.push('page has ' + scripts.length + ' script elements, expected 1');
  for (const el of document.querySelectorAll('*')) {
    for (const at of el.attributes) {
      if (at.name.toLowerCase().startsWith('on')) bad.push('<' + el.tagName.toLowerCase() + '> has ' + at.name);
    }
  }
  for (const a of document.querySelectorAll('[href],[src]')) {
    const v = (a.getAttribute('href') || a.getAttribute('src') || '').trim().toLowerCase();
    if (v.startsWith('javascript:') || v.startsWith('data:') || v.startsWith('vbscript:')) bad.push('link ' + v.slice(0, 40));
  }
  for (const tag of ['iframe', 'object', 'embed', 'img', 'form', 'svg', 'math']) {
    if (document.querySelector(tag)) bad.push('unexpected <' + tag + '> element');
  }
  if (window.__xss) bad.push('an injected script ran');
  return bad;
}"""


def _wait(page, expression: str, timeout_ms: int) -> bool:
    """Poll ``expression`` (Playwright's wait_for_function evaluates strings, which the report's
    Content-Security-Policy rightly forbids)."""
    import time

    end = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < end:
        if page.evaluate(f"() => Boolean({expression})"):
            return True
        page.wait_for_timeout(50)
    return False


def browser_check(page_path: str | Path, *, max_clicks: int = 40, timeout_ms: int = 15000) -> list[Failure]:
    page_path = Path(page_path).resolve()
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        return [Failure("browser", "chromium", "chromium is not installed: the browser check cannot run "
                                               "(apt-get install chromium, or `make setup`)")]
    sync_api = require("playwright.sync_api", "report")
    out: list[Failure] = []
    root = page_path.parent.as_uri()
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu", "--mute-audio"])
        try:
            page = browser.new_page()
            page.set_default_timeout(timeout_ms)

            def route(r):
                if r.request.url.startswith(root + "/") or r.request.url == page_path.as_uri():
                    return r.continue_()
                out.append(Failure("browser", "network", f"outside request blocked: {r.request.url[:120]}"))
                return r.abort()

            page.route("**/*", route)
            page.on("console", lambda m: m.type == "error" and out.append(
                Failure("browser", "console", f"console error: {m.text[:200]}")))
            page.on("pageerror", lambda e: out.append(Failure("browser", "page", f"script error: {str(e)[:200]}")))

            def dialog(d):
                out.append(Failure("browser", "dialog", f"a dialog opened: {d.message[:100]}"))
                d.dismiss()

            page.on("dialog", dialog)
            page.goto(page_path.as_uri())
            v = "document.getElementById('video')"
            _wait(page, f"{v} && ({v}.readyState >= 1 || {v}.error)", timeout_ms)
            playable = page.evaluate(f"() => Boolean({v} && {v}.readyState >= 1)")
            if not playable:
                out.append(Failure("browser", "video", "the video did not load in Chromium: timestamps cannot seek"))
            out += [Failure("browser", "dom", msg) for msg in page.evaluate(_DOM_AUDIT)]
            stamps = page.locator("a.ts")
            n = stamps.count()
            step = max(1, n // max_clicks)
            for i in range(0, n if playable else 0, step):
                link = stamps.nth(i)
                target = float(link.get_attribute("data-t"))
                page.evaluate("window.__seeked = false; document.getElementById('video')"
                              ".addEventListener('seeked', () => { window.__seeked = true; }, {once: true})")
                link.scroll_into_view_if_needed()
                link.click()
                _wait(page, "window.__seeked === true", 5000)
                now = page.evaluate("document.getElementById('video').currentTime")
                if abs(now - target) > SEEK_TOLERANCE:
                    out.append(Failure("browser", f"timestamp-{i}", f"clicking {target:.2f} s left the video at {now:.2f} s"))
            cites = page.locator("a.cite")
            for i in range(cites.count()):
                link = cites.nth(i)
                href = link.get_attribute("href") or ""
                link.scroll_into_view_if_needed()
                link.click()
                landed = page.evaluate("""(h) => { const el = document.getElementById(h.slice(1));
                    if (!el || location.hash !== h) return false;
                    const r = el.getBoundingClientRect(); return r.bottom > 0 && r.top < window.innerHeight; }""", href)
                if not landed:
                    out.append(Failure("browser", link.get_attribute("id") or f"cite-{i}", f"clicking the citation did not land on {href}"))
                    continue
                back = page.locator(f"{href} a.back[href='#{link.get_attribute('id')}']")
                if back.count() != 1:
                    out.append(Failure("browser", link.get_attribute("id") or f"cite-{i}", "its source entry has no way back to the claim"))
        finally:
            browser.close()
    return out
