"""Model-layer throughput: 200 calls uncached vs cached against the scripted loopback server at
concurrency 1, 8 and 32 (with 0 ms and 50 ms of simulated server latency), and the local LLM's
tokens per second. Results and protocol: benchmarks/results/bench_models.json.

Usage: python benchmarks/bench_models.py [--calls 200] [--skip-local]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import platform
import tempfile
import time
from pathlib import Path

import httpx

from vidsleuth.models import Models, ResponseCache
from vidsleuth.models.config import Endpoint, ModelConfig
from vidsleuth.store import RunStore
from vidsleuth.testing import ScriptedServer

RESULTS = Path(__file__).resolve().parent / "results"


async def burst(model, n: int) -> float:
    t0 = time.perf_counter()
    try:
        await asyncio.gather(*(model.achat(f"question {i}", max_tokens=16) for i in range(n)))
    finally:
        await model.aclose()
    return time.perf_counter() - t0


def serve(latency: float, queue) -> None:
    """The scripted server in its own process, so it does not share the client's GIL."""
    with ScriptedServer([{"delay": latency, "content": "answer"}], repeat_last=True) as srv:
        queue.put(srv.base_url)
        while True:
            time.sleep(1)


def measure(calls: int, concurrency: int, latency: float, tmp: Path) -> dict:
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=serve, args=(latency, queue), daemon=True)
    proc.start()
    try:
        base_url = queue.get(timeout=60)
        ep = Endpoint(name="loop", backend="openai", base_url=base_url, model="m", max_concurrency=concurrency)
        cache = ResponseCache(tmp / f"cache-{concurrency}-{latency}.sqlite")
        store = RunStore(tmp / f"runs-{concurrency}-{latency}.sqlite")
        models = Models(ModelConfig({"loop": ep}, {}), cache=cache, store=store, run_id=store.start_run("bench"))
        model = models.get("loop")
        uncached = asyncio.run(burst(model, calls))
        cached = asyncio.run(burst(model, calls))
        stats = httpx.get(base_url + "/stats").json()
        assert stats["calls"] == calls, stats  # the cached pass made no request
    finally:
        proc.terminate()
    return {"concurrency": concurrency, "latency_ms": latency * 1000, "uncached_calls_per_s": calls / uncached,
            "cached_calls_per_s": calls / cached, "cached_vs_uncached": uncached / cached,
            "max_in_flight_seen": stats["max_in_flight"]}


def local_tokens_per_second() -> dict:
    model = Models(cache=False).get("local")
    model.chat("hi", max_tokens=4)  # load once, outside the timing
    prompt = ("Write a detailed paragraph describing a lighthouse on a rocky coast at dawn, "
              "its history, its keeper and the ships it guides.")
    t0 = time.perf_counter()
    reply = model.chat(prompt, max_tokens=128, temperature=0.0, seed=0)
    seconds = time.perf_counter() - t0
    return {"model": model.endpoint.model, "prompt_tokens": reply.tokens_in, "completion_tokens": reply.tokens_out,
            "seconds": seconds, "tokens_per_s_end_to_end": reply.tokens_out / seconds,
            "threads": os.environ.get("VIDSLEUTH_THREADS") or min(4, os.cpu_count() or 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--skip-local", action="store_true")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for latency in (0.0, 0.05):
            for conc in (1, 8, 32):
                r = measure(args.calls, conc, latency, Path(tmp))
                rows.append(r)
                print(f"latency {r['latency_ms']:4.0f} ms  concurrency {conc:2d}: uncached {r['uncached_calls_per_s']:7.1f} "
                      f"calls/s, cached {r['cached_calls_per_s']:8.1f} calls/s ({r['cached_vs_uncached']:.1f}x), "
                      f"max in flight {r['max_in_flight_seen']}", flush=True)
    local = None if args.skip_local else local_tokens_per_second()
    if local:
        print(f"local LLM {local['model']}: {local['completion_tokens']} tokens in {local['seconds']:.2f} s = "
              f"{local['tokens_per_s_end_to_end']:.1f} tokens/s end to end (prompt {local['prompt_tokens']} tokens)")
    import vidsleuth

    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / "bench_models.json"
    out.write_text(json.dumps({
        "protocol": {"calls": args.calls, "server": "vidsleuth.testing.ScriptedServer (ThreadingHTTPServer, loopback, own process)",
                     "latencies_ms": [0, 50], "concurrency": [1, 8, 32], "max_tokens": 16,
                     "versions": {"vidsleuth": vidsleuth.__version__, "httpx": httpx.__version__,
                                  "python": platform.python_version()},
                     "machine": {"cpus": os.cpu_count(), "platform": platform.platform()}},
        "http": rows, "local_llm": local}, indent=2))
    print(f"written: {out}")


if __name__ == "__main__":
    main()
