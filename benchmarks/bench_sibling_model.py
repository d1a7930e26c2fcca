"""Can a local model tell a sibling-subject page (a bicycle chain page beside a motorcycle-chain
video, beer beside wine) from a page about the video's own thing? Measured before building it.

    python benchmarks/bench_sibling_model.py --model local SET [SET ...]
    python benchmarks/bench_sibling_model.py --model local-1.5b --ask names SET [SET ...]

Each set is ``SET/report/TASK/`` with ``video.mp4``, ``request.txt``, ``docs/`` and a ``truth.json``
whose ``irrelevant`` list names the task's distractor pages (sibling subjects and Debian manuals) and
whose ``pairs`` name the relevant ones. Per page the model reads the request, the video's title tag,
the page's title and its first 300 characters, and answers under a JSON schema: ``--ask same``
asks same or different; ``--ask names`` asks it to name both things first, then whether they are
one. Print versions are skipped (they repeat their page). The last lines count, per truth label,
how the model answered, and the seconds per page: a page-level decision is worth building only
where "different" catches the distractors and spares the relevant pages.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

LEAD_CHARS = 300
ASKS = {
    "same": ({"type": "object", "properties": {"answer": {"type": "string", "enum": ["same", "different"]}},
              "required": ["answer"]},
             "Is the page about the same thing the video is about (the same kind of object, food, device or task), so "
             "that its figures could apply to the video? Or is it about a different thing (another object, food, "
             "device or task, even a similar one)? Answer same or different."),
    "names": ({"type": "object", "properties": {"video_thing": {"type": "string"}, "page_thing": {"type": "string"},
                                                "same_thing": {"type": "boolean"}},
               "required": ["video_thing", "page_thing", "same_thing"]},
              "Name the object, food or device the video is about (video_thing), and the one the page is about "
              "(page_thing), in a few words each. Then say whether they are the same thing (same_thing: true), or two "
              "different things, such as a bicycle and a motorcycle, or beer and wine (false). Answer in JSON."),
}


def _answer(ask: str, text: str) -> str:
    try:
        got = json.loads(text)
    except ValueError:
        return "unreadable"
    if ask == "same":
        return str(got.get("answer"))
    return "same" if got.get("same_thing") is True else "different"


def main(argv: list[str] | None = None) -> int:
    from vidsleuth.models import Models
    from vidsleuth.report.pipeline import video_tags
    from vidsleuth.report.sources.documents import read_document

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sets", nargs="+", type=Path)
    ap.add_argument("--model", default="local", help="endpoint name (local, local-1.5b, or one from models.toml)")
    ap.add_argument("--ask", choices=sorted(ASKS), default="same")
    args = ap.parse_args(argv)
    schema, question = ASKS[args.ask]
    model = Models().get(args.model, role="writer")
    tally: Counter = Counter()
    seconds: list[float] = []
    for root in args.sets:
        for task in sorted((root / "report").iterdir()):
            truth = json.loads((task / "truth.json").read_text(encoding="utf-8"))
            request = (task / "request.txt").read_text(encoding="utf-8").strip()
            title = video_tags(task / "video.mp4")[0]
            paired = {p["doc"] for p in truth["pairs"]}
            for doc in sorted((task / "docs").iterdir()):
                if "print" in doc.name:
                    continue
                label = "distractor" if doc.name in truth.get("irrelevant", []) else "relevant" if doc.name in paired else ""
                if not label:
                    continue
                page_title, text, _ = read_document(doc)
                lead = " ".join(text.split())[:LEAD_CHARS]
                prompt = (f'A viewer watched a video and asks: "{request}"' + (f" The video is titled: {title}" if title else "")
                          + f'\n\nA web page is titled "{page_title}" and begins: "{lead}"\n\n{question}')
                start = time.perf_counter()
                reply = model.chat([{"role": "user", "content": prompt}], schema=schema, max_tokens=60)
                seconds.append(time.perf_counter() - start)
                answer = _answer(args.ask, reply.text)
                tally[label, answer] += 1
                print(f"{label:10s} {answer:10s} {seconds[-1]:5.1f}s {root.name}/{task.name}/{doc.name}", flush=True)
    for (label, answer), n in sorted(tally.items()):
        print(f"{label}: {answer} {n}")
    print(f"pages {len(seconds)}, {sum(seconds) / max(1, len(seconds)):.1f} s per page ({args.model}, --ask {args.ask})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
