"""The embedded model's llama.cpp threads: 1 vs 2 (or more), on an idle machine and with one core
kept busy (as perception or a second question keeps it during an agent run).

    python benchmarks/bench_threads.py [--model local] [--threads 1,2]

Each configuration runs in its own process (the server is loaded once per process); four
completions of 64 tokens each; prints tokens per second. This picked the default in
``vidsleuth.models.local_backend.default_threads``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

WORKER = """
import sys, time
from dataclasses import replace
from vidsleuth.models import Models
from vidsleuth.models.config import BUILTIN, ModelConfig
ep = replace(BUILTIN[sys.argv[1]], threads=int(sys.argv[2]))
m = Models(ModelConfig({"e": ep}, {"default": "e"}), cache=False).for_role("default")
m.chat("hi", max_tokens=4)
t = time.time(); toks = 0
for i in range(4):
    toks += m.chat(f"Write a short paragraph about lighthouse number {i}.", max_tokens=64).tokens_out
print(toks / (time.time() - t))
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="local")
    ap.add_argument("--threads", default="1,2")
    args = ap.parse_args()
    out = {}
    for busy in (False, True):
        hog = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if busy else None
        try:
            time.sleep(0.5 if busy else 0)
            for n in args.threads.split(","):
                r = subprocess.run([sys.executable, "-c", WORKER, args.model, n], capture_output=True, text=True)
                tps = float(r.stdout.strip().splitlines()[-1])
                out[f"threads={n}, {'one core busy' if busy else 'idle'}"] = round(tps, 1)
        finally:
            if hog:
                hog.kill()
    for k, v in out.items():
        print(f"{k:32s} {v:6.1f} tokens/s")
    dest = Path(__file__).resolve().parent / "results" / f"bench_threads-{args.model}.json"
    dest.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
