"""A collection through the runner: 50 short generated clips ingested with 1 and 2 local worker
processes and on a local Ray instance (2 CPUs), side by side in one run.

    python benchmarks/bench_collection.py [--clips 50] [--executors local,ray]

Prints throughput (hours of video per hour), scaling efficiency against one worker (speed-up /
workers), how many of the machine's cores the run kept busy (CPU seconds of the process and its
workers / wall seconds: on a 2-core machine one worker near 2.0 leaves a second nothing to gain),
the 1-minute load when each run started, and, for
Ray, a run in which one worker process is killed mid-run: Ray retries its task, every clip is
ingested, and each is stored exactly once. Writes ``benchmarks/results/bench_collection.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def make_clips(folder: Path, n: int) -> list[Path]:
    from vidsleuth import synth

    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for k in range(n):
        p = folder / f"clip{k:03d}.mp4"
        if not p.exists():
            synth.make_clip(p, synth.ClipSpec(
                shots=(synth.Shot(50, "0x203060"), synth.Shot(50, "0x806020")), fps=25, width=320, height=180,
                captions=(synth.Caption(0.5, 3.5, f"CLIP {k} SCENE"),),
                speech=(synth.Speech(0.5, f"This is clip number {k}."),)))
        out.append(p)
    return out


def kill_a_ray_worker_after(seconds: float) -> None:
    """Kill one Ray worker process (a task in flight dies with it)."""
    def go():
        deadline = time.time() + seconds + 30
        time.sleep(seconds)
        while time.time() < deadline:  # the first worker found running a task
            for proc in Path("/proc").iterdir():
                try:
                    cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                except OSError:
                    continue
                if cmd.startswith("ray::_attempts"):
                    os.kill(int(proc.name), signal.SIGKILL)
                    print(f"killed ray worker {proc.name} ({cmd.strip()})")
                    return
            time.sleep(0.2)
    threading.Thread(target=go, daemon=True).start()


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have ended (the pool's workers)."""
    import resource

    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clips", type=int, default=50)
    ap.add_argument("--executors", default="local,ray", help="which runs: local (1 and 2 workers), ray (2 CPUs, and a kill)")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "vidsleuth-bench-collection")
    args = ap.parse_args()
    from vidsleuth import __version__
    from vidsleuth.library import IngestOptions, ingest_many

    clips = make_clips(args.work / "clips", args.clips)
    hours = args.clips * 4.0 / 3600
    opts = IngestOptions()
    runs = [("local, 1 worker", "local", 1, False), ("local, 2 workers", "local", 2, False),
            ("ray, 2 CPUs", "ray", 2, False), ("ray, 2 CPUs, a worker killed at 5 s", "ray", 2, True)]
    runs = [r for r in runs if r[1] in args.executors.split(",")]
    out: dict = {"clips": args.clips, "seconds_of_video_each": 4.0, "runs": {}, "load_before": os.getloadavg()}
    base = None
    for label, executor, workers, kill in runs:
        lib = args.work / f"lib-{int(time.time() * 1000)}"
        if kill:
            kill_a_ray_worker_after(5.0)
        load, cpu0, t = round(os.getloadavg()[0], 1), _cpu_seconds(), time.perf_counter()
        r = ingest_many(clips, lib, opts, executor=executor, workers=workers)
        secs = time.perf_counter() - t
        cpu = _cpu_seconds() - cpu0  # this process and its (joined) worker processes; Ray's are not counted
        with sqlite3.connect(lib / "runs.sqlite") as db:
            stored, distinct = db.execute("SELECT count(*), count(DISTINCT item_id) FROM items").fetchone()
        base = base or secs
        out["runs"][label] = {"seconds": round(secs, 1), "video_hours_per_hour": round(hours / (secs / 3600), 1),
                              "speedup_vs_1_worker": round(base / secs, 2),
                              "scaling_efficiency": round(base / secs / workers, 2),
                              "ingested": len(r.done), "failed": len(r.failures), "stored": stored,
                              "stored_distinct": distinct, "load": load,
                              "cores_busy": round(cpu / secs, 2) if executor == "local" else None}
    out["load_after"] = os.getloadavg()
    out["protocol"] = {"vidsleuth": __version__, "cpus": os.cpu_count(), "platform": platform.platform(),
                       "clip": "320x180, 4 s, two shots, one caption, one spoken sentence"}
    print(f"\n{args.clips} clips of 4 s (320x180, caption and speech each); load {out['load_before']} -> {out['load_after']}")
    print("| run | seconds | hours of video per hour | speed-up vs 1 worker | efficiency | cores busy (of "
          f"{os.cpu_count()}) | load | ingested | failed | stored (distinct) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for label, r in out["runs"].items():
        print(f"| {label} | {r['seconds']} | {r['video_hours_per_hour']} | {r['speedup_vs_1_worker']} | "
              f"{r['scaling_efficiency']} | {r['cores_busy']} | {r['load']} | {r['ingested']} | {r['failed']} | "
              f"{r['stored']} ({r['stored_distinct']}) |")
    dest = ROOT / "results" / "bench_collection.json"
    dest.write_text(json.dumps(out, indent=2))
    print(f"written: {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
