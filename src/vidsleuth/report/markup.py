"""The static markup audit (check ``markup``): what must never be on a report page, found in the
parsed HTML, so ``report check`` catches it with or without a browser.

- every ``<script>`` is inline and allowed by hash in the page's own Content-Security-Policy, and
  on a page that says vidsleuth made it, it is vidsleuth's ``report.js`` byte for byte (a script
  that was extended, or one added beside it, fails);
- the page carries its CSP as a ``<meta http-equiv>``: ``default-src 'none'``, scripts by hash
  only, no directive that lets the page load anything from outside;
- no ``on*`` attribute, no ``javascript:``/``vbscript:``/``data:`` URL (read as a browser reads
  it: tabs and newlines dropped, leading controls stripped, any case), no frame, object, embed,
  form, ``<base>`` or meta refresh.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files

from .contract import CSP_META, script_hash, where_of
from .types import Context, Failure

BAD_SCHEMES = ("javascript:", "vbscript:", "data:")
URL_ATTRS = frozenset({"action", "archive", "background", "cite", "classid", "codebase", "data", "dynsrc", "formaction",
                       "href", "longdesc", "lowsrc", "profile", "src", "usemap", "xlink:href", "poster", "srcset",
                       "ping", "manifest", "icon"})
FORBIDDEN_TAGS = ("iframe", "frame", "frameset", "object", "embed", "applet", "base", "form", "portal")
DATA_SCRIPT_TYPES = ("application/json", "application/ld+json")
_HASH = re.compile(r"^'sha(256|384|512)-[A-Za-z0-9+/]+={0,2}'$")
_REMOTE = re.compile(r"^(\*|[a-z][a-z0-9+.-]*:|.*://.*|[^']*\..*)$", re.I)
LOCAL_SCHEMES = ("data:", "blob:")  # not an outside load (still never allowed for scripts)


@lru_cache(maxsize=1)
def own_script_hash() -> str:
    """The CSP hash of the ``report.js`` this vidsleuth renders."""
    return script_hash(files("vidsleuth.report").joinpath("templates", "report.js").read_text(encoding="utf-8"))


def parse_csp(policy: str) -> dict[str, list[str]]:
    """Directive -> source list (CSP3 §2.2: ``;``-separated directives, the first of a name wins)."""
    out: dict[str, list[str]] = {}
    for part in policy.split(";"):
        tokens = part.split()
        if tokens and tokens[0].lower() not in out:
            out[tokens[0].lower()] = tokens[1:]
    return out


def csp_problems(policy: str) -> list[str]:
    d = parse_csp(policy)
    out = []
    if d.get("default-src") != ["'none'"]:
        out.append("its CSP does not start from default-src 'none'")
    for token in d.get("script-src", d.get("default-src", [])):
        if token != "'none'" and not _HASH.match(token):
            out.append(f"its CSP lets scripts run from {token} (only 'sha256-…' hashes are allowed)")
    for name, tokens in d.items():
        for token in tokens:
            if token.startswith("'") or token.lower() in LOCAL_SCHEMES:
                continue
            if _REMOTE.match(token):
                out.append(f"its CSP {name} allows loads from outside the report ({token})")
    return out


def _bad_url(value: str) -> str:
    """The scheme a browser would see in ``value`` when it is one a report must not have."""
    v = re.sub(r"[\t\n\r]", "", value).strip("".join(map(chr, range(33)))).lower()
    return next((s for s in BAD_SCHEMES if v.startswith(s)), "")


def _scripts(tree, policies: list[dict], ours: bool) -> list[Failure]:
    out = []
    for el in tree.iter("script"):
        if (el.get("type") or "").strip().lower() in DATA_SCRIPT_TYPES:
            continue  # a data block, never run
        where = where_of(el)
        if el.get("src") is not None:
            out.append(Failure("markup", where, f"an external script (src={el.get('src')[:80]!r})"))
            continue
        h = script_hash(el.text or "")
        if any(h not in p.get("script-src", p.get("default-src", [])) for p in policies):
            out.append(Failure("markup", where, f"a script the page's CSP does not allow ({h}): injected or altered"))
        elif ours and h != own_script_hash():
            out.append(Failure("markup", where, "the page says vidsleuth wrote it, but this script is not vidsleuth's "
                                                "report.js (altered or added)"))
    return out


def _elements(tree) -> list[Failure]:
    out = []
    for el in tree.iter():
        if not isinstance(el.tag, str):
            continue
        tag = el.tag.lower().rsplit(":", 1)[-1]
        if tag in FORBIDDEN_TAGS:
            out.append(Failure("markup", where_of(el), f"a <{tag}> element has no place in a report"))
        if tag == "meta" and (el.get("http-equiv") or "").strip().lower() == "refresh":
            out.append(Failure("markup", where_of(el), "a meta refresh navigates away from the report"))
        for name, value in el.attrib.items():
            low = name.lower()
            if low.startswith("on"):
                out.append(Failure("markup", where_of(el), f"<{tag}> has an event handler attribute {name}"))
            elif low in URL_ATTRS and _bad_url(value):
                out.append(Failure("markup", where_of(el), f"<{tag} {name}> is a {_bad_url(value)} URL"))
    return out


def markup_check(ctx: Context) -> list[Failure]:
    tree = ctx.page.tree
    metas = [m.get("content") or "" for m in tree.iter("meta")
             if (m.get("http-equiv") or "").strip().lower() == CSP_META.lower()]
    out = []
    if not metas:
        out.append(Failure("markup", "csp", "the page has no Content-Security-Policy <meta>: its own CSP is required"))
    for policy in metas:
        out += [Failure("markup", "csp", msg) for msg in csp_problems(policy)]
    out += _scripts(tree, [parse_csp(p) for p in metas] or [{"script-src": []}], ctx.page.ours)
    return out + _elements(tree)
