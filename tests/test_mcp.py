"""``vidsleuth mcp`` through the SDK's own client over stdio, and a scripted LLM agent that runs
the video-report skill's seven stages through the tools alone.

The server runs as a subprocess (``python -m vidsleuth mcp``, as a harness starts it); speech comes from subtitle files and OCR is off, so no model runs. The agent's "LLM" is
``vidsleuth.testing.ScriptedServer`` over real HTTP: the driver loop below sends it the MCP tool
list in OpenAI's ``tools`` format, executes the ``tool_calls`` it answers with, and sends the
results back, as any harness does."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from vidsleuth.report import democase

pytest.importorskip("mcp")

from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402

SRT_LINE = "{n}\n{a} --> {b}\n{text}\n\n"


def _stamp(t: float) -> str:
    ms = round(t * 1000)
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def _subtitles(case: Path, truth: dict) -> None:
    """The case's speech as a sidecar: the intro at 0.5 s, parameter k at 4 + 7k s (democase.build)."""
    lines = [(0.5, f"Welcome back. Today: {truth['title'].lower()}.")]
    lines += [(4.0 + 7.0 * k, p["text"]) for k, p in enumerate(truth["params"])]
    (case / "video.srt").write_text("".join(SRT_LINE.format(n=i, a=_stamp(t), b=_stamp(t + 3.0), text=text)
                                            for i, (t, text) in enumerate(lines, 1)), encoding="utf-8")


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    from vidsleuth import synth
    from vidsleuth.search.index import build_index

    root = tmp_path_factory.mktemp("mcp-root")
    from vidsleuth.rubric.calibration import task_rubric

    truth = democase.build(root / "case", seed=0)
    _subtitles(root / "case", truth)
    (root / "case" / "rubric.json").write_text(json.dumps(task_rubric(truth)), encoding="utf-8")
    synth.make_clip(root / "other.mp4", synth.ClipSpec(shots=(synth.Shot(50, "0x204060"),), audio=False))
    (root / "corpus.jsonl").write_text("".join(json.dumps(r) + "\n" for r in [
        {"video_id": "loaf", "title": "Country loaf, step by step", "path": "case/video.mp4"},
        {"video_id": "wheel", "title": "Servicing a road bike wheel", "path": "other.mp4"},
        {"video_id": "paint", "title": "Painting a garden fence", "path": "other.mp4"}]), encoding="utf-8")
    build_index(root / "corpus.jsonl", root / "index", method="lucene")
    return root


def _server(root: Path, *extra: str) -> StdioServerParameters:
    """``vidsleuth mcp`` as a harness starts it (the SDK passes only a minimal environment on)."""
    env = {k: os.environ[k] for k in ("PYTHONPATH", "VIDSLEUTH_CONFIG") if k in os.environ}
    return StdioServerParameters(command=sys.executable, env=env,
                                 args=["-m", "vidsleuth", "mcp", "--root", str(root), "--library", str(root / ".lib"),
                                       "--no-asr", "--no-ocr", *extra])


async def _session(params, body):
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await body(session)


def run(params, body):
    return asyncio.run(_session(params, body))


def test_tools_over_stdio(root, tmp_path):
    truth = json.loads((root / "case" / "truth.json").read_text())
    pair = truth["pairs"][0]
    param = next(p for p in truth["params"] if p["key"] == pair["param"])
    k = truth["params"].index(param)
    records = {"request": truth["request"],
               "anchors": [{"id": "A1", "text": param["text"],
                            "moments": [{"start": 4.0 + 7 * k, "end": 7.0 + 7 * k, "kind": "subtitle", "text": param["text"]}]}],
               "sources": [{"id": "S1", "kind": "document", "title": pair["file"], "location": f"case/docs/{pair['file']}"}],
               "evidence": [{"id": "E1", "anchor_id": "A1", "source_id": "S1", "excerpt": pair["sentence"],
                             "relation": pair["relation"]}],
               "findings": [{"id": "F1", "anchor_id": "A1", "evidence_ids": ["E1"], "text": pair["sentence"]}]}
    outside = tmp_path / "outside.mp4"
    outside.write_bytes((root / "other.mp4").read_bytes())

    async def body(s):
        names = {t.name for t in (await s.list_tools()).tools}
        tl = await s.call_tool("timeline", {"path": "case/video.mp4", "start": 3.6, "end": 12.0, "kinds": ["subtitle"]})
        grid = await s.call_tool("grid", {"path": "case/video.mp4", "rows": 2, "cols": 2})
        hits = await s.call_tool("search", {"index": "index", "query": "country loaf bread"})
        rendered = await s.call_tool("render_report", {"records": records, "video": "case/video.mp4", "out": "one-finding"})
        checked = await s.call_tool("check_report", {"folder": "one-finding", "browser": False})
        shutil.copytree(root / "one-finding", root / "foreign")  # the same page, not a vidsleuth output folder
        for name in (".vidsleuth-output.json", "checks.json"):
            (root / "foreign" / name).unlink()
        foreign = await s.call_tool("check_report", {"folder": "foreign", "browser": False})
        missing = await s.call_tool("probe", {"path": "case/nothing-here.mp4"})
        out = await s.call_tool("probe", {"path": str(outside)})
        listed = [str(r.uri) for r in (await s.list_resources()).resources]
        reports = json.loads((await s.read_resource("vidsleuth://reports")).contents[0].text)
        over = await s.call_tool("probe", {"path": "other.mp4"})  # the 9th call; the budget is 8
        stats = (await s.call_tool("session_stats", {})).structured_content
        return names, tl, grid, hits, rendered, checked, foreign, missing, out, listed, reports, over, stats

    names, tl, grid, hits, rendered, checked, foreign, missing, out, listed, reports, over, stats = run(
        _server(root, "--max-calls", "8"), body)
    assert {"probe", "timeline", "frames", "grid", "search", "watch", "ask", "gather_evidence", "relate",
            "render_report", "check_report", "score_report", "trajectory_stats", "session_stats"} <= names
    # the window holds exactly the first parameter's line (4.0-7.0 s) and nothing outside 3.6-12 s (the intro ends at 3.5 s)
    segs = tl.structured_content["segments"]
    assert not tl.is_error and [s["text"] for s in segs][:1] == [truth["params"][0]["text"]]
    assert all(s["end"] >= 3.6 and s["start"] <= 12.0 and s["kind"] == "subtitle" for s in segs)
    assert "[4.0s - 7.0s]" in tl.content[0].text
    images = [c for c in grid.content if c.type == "image"]
    assert len(images) == 1 and images[0].mime_type == "image/jpeg" and len(images[0].data) > 1000
    assert len(grid.structured_content["grids"][0]) == 4 and "s" in grid.content[0].text
    assert hits.structured_content["hits"][0]["video_id"] == "loaf"
    assert not rendered.is_error and (root / "one-finding" / "sources").is_dir()  # the cited document was copied
    result = checked.structured_content
    assert not result["passed"] and not result["checks"]["timestamps"] and not result["checks"]["citations"]
    # one source where the released budget asks for three: the check read the page and says so
    assert [f["message"] for f in result["checks"]["budgets"]] == ["1 found, the budget asks for at least 3"]
    assert foreign.structured_content["checks"]["budgets"] == result["checks"]["budgets"]
    assert not (root / "foreign" / "checks.json").exists()  # a folder vidsleuth did not write gets no file
    assert missing.is_error and "nothing-here.mp4" in missing.content[0].text and "Traceback" not in missing.content[0].text
    assert out.is_error and "outside the server's roots" in out.content[0].text
    assert "vidsleuth://timelines" in listed and any(r["name"] == "one-finding" and r["checks"] for r in reports)
    assert over.is_error and "session budget spent: 8 of 8 tool calls used" in over.content[0].text
    assert (stats["calls"], stats["refused"], stats["errors"], stats["left"]["calls"]) == (8, 1, 2, 0)
    assert stats["per_tool"] == {"timeline": 1, "grid": 1, "search": 1, "render_report": 1, "check_report": 2, "probe": 2}


def test_reading_and_relating_tools(root, tmp_path):
    truth = json.loads((root / "case" / "truth.json").read_text())
    k, param = next((k, p) for k, p in enumerate(truth["params"]) if any(
        t["param"] == p["key"] and t["relation"] == "supports" for t in truth["pairs"]))
    support = next(t for t in truth["pairs"] if t["param"] == param["key"] and t["relation"] == "supports")
    anchor = {"id": "A1", "text": param["text"], "moments": [{"start": 4.0 + 7 * k, "end": 7.0 + 7 * k, "kind": "subtitle",
                                                              "text": param["text"]}]}
    (root / "events.jsonl").write_text("".join(json.dumps({"type": t}) + "\n" for t in ("search", "write", "search", "write")))
    secret = tmp_path / "private.mp4"
    secret.write_bytes((root / "other.mp4").read_bytes())
    link = root / "innocent.mp4"
    link.unlink(missing_ok=True)
    link.symlink_to(secret)  # inside the root by name, outside by what it resolves to
    from vidsleuth.search.index import build_index

    (root / "leaky.jsonl").write_text(json.dumps({"video_id": "p", "title": "private dough notes", "path": str(secret)}) + "\n")
    build_index(root / "leaky.jsonl", root / "leaky-index", method="lucene")

    async def body(s):
        frames = await s.call_tool("frames", {"path": "case/video.mp4", "n": 3, "start": 4.0, "end": 10.0})
        watch = await s.call_tool("watch", {"path": "case/video.mp4", "start": 4.0 + 7 * k, "end": 7.0 + 7 * k, "k": 2})
        anchors = await s.call_tool("anchors", {"path": "case/video.mp4", "request": truth["request"]})
        related = await s.call_tool("relate", {"anchor": anchor, "video_date": truth["video_date"], "excerpts": [
            {"excerpt": support["sentence"], "source_date": support["date"]},
            {"excerpt": f"We cover the {param['key']} settings in another article.", "source_date": ""}]})
        stats = await s.call_tool("trajectory_stats", {"run": "events.jsonl"})
        linked = await s.call_tool("probe", {"path": "innocent.mp4"})
        bad = await s.call_tool("render_report", {"records": {"request": "x", "anchors": [anchor], "findings": [
            {"id": "F1", "anchor_id": "A9", "text": "t", "evidence_ids": ["E1"]}]}, "video": "case/video.mp4",
            "out": "broken-report"})
        typo = await s.call_tool("relate", {"anchor": anchor, "excerpts": [{"exerpt": support["sentence"]}]})
        leaky = await s.call_tool("gather_evidence", {"anchors": [anchor], "index": "leaky-index"})
        timelines = json.loads((await s.read_resource("vidsleuth://timelines")).contents[0].text)
        one = json.loads((await s.read_resource(timelines[0]["uri"])).contents[0].text)
        return frames, watch, anchors, related, stats, linked, bad, typo, leaky, one

    frames, watch, anchors, related, stats, linked, bad, typo, leaky, one = run(_server(root), body)
    times = frames.structured_content["times"]
    assert len(times) == 3 and all(4.0 <= t <= 10.0 for t in times) and sum(c.type == "image" for c in frames.content) == 3
    assert param["text"] in watch.content[0].text and len(watch.structured_content["times"]) == 2
    assert all(4.0 + 7 * k <= t <= 7.0 + 7 * k for t in watch.structured_content["times"])
    assert param["text"] in [a["text"] for a in anchors.structured_content["anchors"]]
    rels = related.structured_content["relations"]
    assert [r["relation"] for r in rels] == ["supports", None]  # a pointer to another article is no evidence
    assert (stats.structured_content["steps"], stats.structured_content["searches_after_first_write"]) == (4, 0.5)
    assert linked.is_error and "outside the server's roots" in linked.content[0].text
    assert bad.is_error and "finding F1: anchor_id 'A9' names no anchor" in bad.content[0].text
    assert not (root / "broken-report").exists()  # refused, and nothing left behind
    assert typo.is_error and "excerpts.0.excerpt" in typo.content[0].text  # the schema names the misspelt field
    assert one["segments"] and one["video"]["duration"] > 20
    # an index inside the roots whose corpus lists a video outside them is refused, not read
    assert leaky.is_error and "video p of the index's corpus" in leaky.content[0].text


# --------------------------------------------------------------------------- the scripted agent


def _call(name: str, args: dict, k: int = 0) -> dict:
    return {"id": f"call_{name}_{k}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


def _reply(calls: list[dict] | None, text: str = "") -> dict:
    from vidsleuth.testing import completion

    c = completion(text)
    c["choices"][0]["message"]["tool_calls"] = calls or None
    c["choices"][0]["finish_reason"] = "tool_calls" if calls else "stop"
    return {"json": c}


class ReportAgent:
    """The LLM's side of the skill, scripted: it reads each tool result in the conversation and
    decides the next calls (what a model would do, written as plain rules)."""

    def __init__(self, request: str):
        self.request, self.anchors, self.candidates, self.records, self.repairs = request, [], [], None, 0

    def __call__(self, body: dict, n: int) -> dict:
        msgs = body["messages"]
        at = max((i for i, m in enumerate(msgs) if m["role"] == "assistant"), default=None)
        pending = (msgs[at].get("tool_calls") or []) if at is not None else []
        last = [json.loads(m["content"]) for m in msgs[at + 1:] if m["role"] == "tool"] if at is not None else []
        errors = [r["error"] for r in last if "error" in r]
        if errors:
            return _reply(None, "A tool failed: " + "; ".join(errors))
        names = [tc["function"]["name"] for tc in pending]
        if not names:  # stage 1: the timeline
            return _reply([_call("timeline", {"path": "case/video.mp4", "kinds": ["subtitle", "speech"]})])
        if names == ["timeline"]:  # stage 2: anchors = spoken lines that state a number
            self.anchors = [{"id": f"A{k}", "text": s["text"], "moments": [s]}
                            for k, s in enumerate((s for s in last[0]["segments"] if re.search(r"\d", s["text"])), 1)]
            return _reply([_call("gather_evidence", {"anchors": self.anchors, "docs": "case/docs",
                                                     "video": "case/video.mp4"})])
        if names == ["gather_evidence"]:  # stage 3 -> 4: one relate call per branch, in parallel
            self.candidates = last[0]["candidates"]
            calls = []
            for a in self.anchors:
                mine = [c for c in self.candidates if c["anchor_id"] == a["id"]]
                if mine:
                    calls.append(_call("relate", {"anchor": a, "video_date": "2024-06-01", "excerpts": [
                        {"excerpt": c["excerpt"], "source_date": c["source"]["date"], "context": c["context"]}
                        for c in mine]}, len(calls)))
            return _reply(calls)
        if names[0] == "relate":  # stages 5-6: write findings beside their citations, render
            self.records = self._write([json.loads(tc["function"]["arguments"]) for tc in pending], last)
            return _reply([_call("render_report", {"records": self.records, "video": "case/video.mp4", "out": "agent-report"})])
        if names == ["render_report"]:  # stage 7: validate in Chromium
            return _reply([_call("check_report", {"folder": "agent-report"})])
        if names == ["check_report"] and not last[0]["passed"] and self.repairs < 2:  # repair, at most twice
            self.repairs += 1
            self._repair([f for fs in last[0]["checks"].values() for f in fs])
            return _reply([_call("render_report", {"records": self.records, "video": "case/video.mp4", "out": "agent-report"})])
        if names == ["check_report"]:  # passed: score it against the task's rubric
            return _reply([_call("score_report", {"rubric": "case/rubric.json", "folder": "agent-report"})])
        return _reply(None, "The report is in agent-report/report.html.")

    def _repair(self, failures: list[dict]) -> None:
        """Drop what a failure names (a finding, or an evidence record in its message), then what
        no longer has a citation: evidence, sources, and anchors (which become open questions)."""
        r = self.records
        bad_f = {f["where"].removeprefix("finding-") for f in failures if f["where"].startswith("finding-")}
        bad_e = {e for f in failures for e in re.findall(r"\bevidence (E\d+)", f["message"])}
        r["findings"] = [f for f in r["findings"] if f["id"] not in bad_f and not set(f["evidence_ids"]) & bad_e]
        cited = {e for f in r["findings"] for e in f["evidence_ids"]}
        r["evidence"] = [e for e in r["evidence"] if e["id"] in cited]
        r["sources"] = [s for s in r["sources"] if any(e["source_id"] == s["id"] for e in r["evidence"])]
        kept = {f["anchor_id"] for f in r["findings"]}
        r["open_questions"] += [a["text"] for a in r["anchors"] if a["id"] not in kept]
        r["anchors"] = [a for a in r["anchors"] if a["id"] in kept]

    def _write(self, calls, results) -> dict:
        sources, evidence, findings = {}, [], []
        for args, res in zip(calls, results):
            a = args["anchor"]
            for cand, rel in zip([c for c in self.candidates if c["anchor_id"] == a["id"]], res["relations"]):
                if rel["relation"] is None:
                    continue  # a mere mention is not evidence
                src = cand["source"]
                sid = sources.setdefault(src["location"], {**src, "id": f"S{len(sources) + 1}"})["id"]
                eid = f"E{len(evidence) + 1}"
                evidence.append({"id": eid, "anchor_id": a["id"], "source_id": sid, "excerpt": cand["excerpt"],
                                 "relation": rel["relation"], "rationale": rel["rationale"],
                                 "confidence": rel["confidence"], "modality": cand["modality"],
                                 "context": cand["context"]})
                findings.append({"id": f"F{len(findings) + 1}", "anchor_id": a["id"], "evidence_ids": [eid],
                                 "relation": rel["relation"],
                                 "text": f"{src['title']} {rel['relation']} what the video says: “{cand['excerpt']}”"})
        cited = {e["anchor_id"] for e in evidence}
        return {"request": self.request, "video": {"title": "Country loaf", "date": "2024-06-01"},
                "summary": f"{len(findings)} findings from {len(sources)} sources on {len(cited)} of the video's claims.",
                "anchors": [a for a in self.anchors if a["id"] in cited], "sources": list(sources.values()),
                "evidence": evidence, "findings": findings,
                "open_questions": [a["text"] for a in self.anchors if a["id"] not in cited]}


async def _drive(session, base_url: str, request: str, max_turns: int = 12) -> list[dict]:
    """The harness: tool list out, tool calls in, results back, until the model stops."""
    import httpx

    tools = [{"type": "function", "function": {"name": t.name, "description": t.description or "",
                                               "parameters": t.input_schema}}
             for t in (await session.list_tools()).tools]
    skill = (Path(__file__).parents[1] / "skills" / "video-report" / "SKILL.md").read_text(encoding="utf-8")
    messages = [{"role": "system", "content": skill}, {"role": "user", "content": request}]
    async with httpx.AsyncClient(timeout=60) as http:
        for _ in range(max_turns):
            reply = (await http.post(f"{base_url}/chat/completions",
                                     json={"model": "scripted", "messages": messages, "tools": tools})).json()
            msg = reply["choices"][0]["message"]
            messages.append(msg)
            if not msg.get("tool_calls"):
                return messages
            for tc in msg["tool_calls"]:
                res = await session.call_tool(tc["function"]["name"], json.loads(tc["function"]["arguments"]))
                content = json.dumps({"error": res.content[0].text} if res.is_error else res.structured_content)
                messages.append({"role": "tool", "tool_call_id": tc["id"], "content": content})
    raise AssertionError("the agent did not finish")


def test_scripted_agent_runs_the_seven_stages(root):
    from vidsleuth.testing import ScriptedServer

    truth = json.loads((root / "case" / "truth.json").read_text())
    agent = ReportAgent(truth["request"])

    with ScriptedServer(agent) as srv:
        async def body(s):
            msgs = await _drive(s, srv.base_url, truth["request"])
            return msgs, (await s.call_tool("session_stats", {})).structured_content

        messages, stats = run(_server(root), body)
        sent = srv.requests
    assert all(r["tools"] and r["messages"][0]["role"] == "system" for r in sent)  # the harness sent tools and the skill
    checks = [json.loads(m["content"]) for m, prev in zip(messages[1:], messages) if m["role"] == "tool"
              and "passed" in m["content"] and '"checks"' in m["content"]]
    assert checks and checks[-1]["passed"], checks[-1]["checks"] if checks else "no check ran"
    assert "browser" in checks[-1]["checks"]  # Chromium opened the page, clicked timestamps and citations
    order = [t for t in stats["per_tool"]]
    assert order[:4] == ["timeline", "gather_evidence", "relate", "render_report"] and "check_report" in order
    data = json.loads((root / "agent-report" / "report.json").read_text())
    scored = democase.score(data, truth)
    # the relations the tools decided match the case's known truth for what was found
    assert scored["found"] >= 4 and scored["relation_accuracy_found"] >= 0.75, scored
    assert all(f["evidence_ids"] for f in data["findings"]) and data["sources"]
    score = json.loads(next(m["content"] for m in reversed(messages) if m["role"] == "tool"))
    assert score["status"] == "ok" and score["contract_missing"] == [] and score["score"] > 0, score


# --------------------------------------------------------------------------- streamable HTTP, skills


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_streamable_http_on_loopback_with_budgets_per_session(root):
    import socket
    import subprocess
    import time

    from mcp.client.streamable_http import streamable_http_client

    port = _free_port()
    env = {**os.environ}
    proc = subprocess.Popen([sys.executable, "-m", "vidsleuth", "mcp", "--root", str(root), "--http", f"127.0.0.1:{port}",
                             "--max-calls", "1"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.2)

        async def one_session():
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write):
                async with ClientSession(read, write) as s:
                    await s.initialize()
                    a = await s.call_tool("probe", {"path": "other.mp4"})
                    b = await s.call_tool("probe", {"path": "other.mp4"})
                    return a.is_error, b.is_error, b.content[0].text

        first, second = asyncio.run(one_session()), asyncio.run(one_session())
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert first[:2] == (False, True) and "1 of 1 tool calls used" in first[2]
    assert second[:2] == (False, True)  # a new session starts with its own budget


def test_http_refuses_other_than_loopback(root):
    import subprocess

    done = subprocess.run([sys.executable, "-m", "vidsleuth", "mcp", "--root", str(root), "--http", "0.0.0.0:8765"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "loopback only" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_skill_install_verb(tmp_path):
    import subprocess

    dest = tmp_path / "skills"
    first = subprocess.run([sys.executable, "-m", "vidsleuth", "skill", "install", str(dest), "--only", "video-qa"],
                           capture_output=True, text=True, timeout=60)
    assert first.returncode == 0 and "1 written" in first.stdout and (dest / "video-qa" / "SKILL.md").is_file()
    assert not (dest / "video-report").exists()
    (dest / "video-qa" / "SKILL.md").write_text("mine\n")
    again = subprocess.run([sys.executable, "-m", "vidsleuth", "skill", "install", str(dest)], capture_output=True,
                           text=True, timeout=60)
    assert again.returncode == 1 and "exists with other content" in again.stderr and "--overwrite" in again.stderr
    assert (dest / "video-qa" / "SKILL.md").read_text() == "mine\n" and not (dest / "video-report").exists()


def test_skill_install(tmp_path):
    import yaml

    from vidsleuth import skill
    from vidsleuth.errors import ArgumentError

    dest = tmp_path / ".claude" / "skills"
    done = skill.install(dest)
    assert {d["state"] for d in done} == {"written"}
    for name in ("video-report", "video-qa"):
        text = (dest / name / "SKILL.md").read_text(encoding="utf-8")
        front = yaml.safe_load(text.split("---")[1])
        assert front["name"] == name and len(front["description"]) > 50  # the Agent Skills front matter
    report_skill = (dest / "video-report" / "SKILL.md").read_text(encoding="utf-8")
    for tool in ("timeline", "gather_evidence", "relate", "render_report", "check_report", "session_stats"):
        assert f"`{tool}" in report_skill
    from vidsleuth.config import ReportConfig

    c = ReportConfig()  # the skill's budget table says what `report check` enforces (App. D.3)
    rows = {line.split("|")[1].strip(): line.split("|")[2].strip() for line in report_skill.splitlines()
            if line.startswith("| ") and line.count("|") == 4}
    assert rows["research anchors"] == f"at most {c.max_anchors}"
    assert rows["sources per anchor"].startswith(f"at most {c.sources_per_anchor}")
    assert rows["distinct cited sources"] == f"at least {c.min_sources}"
    assert rows["cited documents"] == f"at least {c.min_documents}"
    assert rows["related videos"].startswith(f"at least {c.min_related_videos}")
    assert rows["cited sources per anchor"].startswith(f"at least {c.min_sources_per_anchor}")
    assert rows["repair rounds"].startswith(f"at most {c.repair_rounds}")
    assert {d["state"] for d in skill.install(dest)} == {"unchanged"}  # twice is a no-op
    mine = dest / "video-qa" / "SKILL.md"
    mine.write_text("my own notes\n", encoding="utf-8")
    with pytest.raises(ArgumentError, match="exists with other content"):
        skill.install(dest)
    assert mine.read_text(encoding="utf-8") == "my own notes\n"  # nothing of the user's was overwritten
    replaced = skill.install(dest, overwrite=True)
    assert [d["state"] for d in replaced if d["file"] == str(mine)] == ["replaced"]
    assert mine.read_text(encoding="utf-8").startswith("---\nname: video-qa")


def test_ask_runs_the_browsing_agent_and_spends_the_token_budget(root, tmp_path):
    """``ask`` on the server's configured endpoint (a ScriptedServer playing the four roles); its
    tokens count against --max-tokens, so the next call is refused."""
    from vidsleuth.testing import ScriptedServer

    markers = (("planner", "You are the Planner"), ("watcher", "You are screening video search results"),
               ("checker", "You are the Checker"), ("analyst", "Analyze the following video content"))
    answers = {"planner": json.dumps({"thought": "a wheel service", "search_queries": ["road bike wheel"]}),
               "watcher": "[0]", "checker": json.dumps({"decision": "HALT", "feedback": ""}),
               "analyst": json.dumps({"Explanation": "the title says so", "Answer": "a road bike wheel", "Confidence": "70%"})}
    roles = []

    def llm(body, n):
        text = json.dumps(body["messages"])
        role = next(r for r, mark in markers if mark in text)
        roles.append(role)
        return answers[role]

    with ScriptedServer(llm) as srv:
        cfg = tmp_path / "models.toml"
        cfg.write_text(f'[models.fake]\nbackend = "openai"\nbase_url = "{srv.base_url}"\nmodel = "m"\nvision = false\n'
                       '[roles]\ndefault = "fake"\n', encoding="utf-8")

        async def body(s):
            ans = await s.call_tool("ask", {"question": "Which video services a wheel?", "index": "index", "t_max": 1})
            after = await s.call_tool("probe", {"path": "other.mp4"})
            return ans, after, (await s.call_tool("session_stats", {})).structured_content

        ans, after, stats = run(_server(root, "--config", str(cfg), "--max-tokens", "20"), body)
    assert not ans.is_error, ans.content[0].text
    got = ans.structured_content
    assert got["answer"] == "a road bike wheel" and got["confidence"] == 0.7 and got["selected"]
    assert roles[0] == "planner" and "checker" in roles and roles[-1] == "analyst"  # the loop ran on the endpoint
    assert got["tokens"] > 20 and stats["tokens"] == got["tokens"]
    assert after.is_error and f"{got['tokens']} of 20 model tokens used" in after.content[0].text


def test_a_failing_endpoint_is_one_line_without_the_key(root, tmp_path):
    """The endpoint refuses the connection: ``ask`` is a tool error naming the endpoint, with
    neither a traceback nor the key the server read from its environment; its time counts."""
    key = "sk-test-" + "7" * 32
    cfg = tmp_path / "models.toml"
    cfg.write_text(f'[models.gone]\nbackend = "openai"\nbase_url = "http://127.0.0.1:{_free_port()}/v1"\nmodel = "m"\n'
                   'api_key_env = "VIDSLEUTH_TEST_KEY"\nmax_retries = 0\ntimeout = 5\n[roles]\ndefault = "gone"\n',
                   encoding="utf-8")
    params = _server(root, "--config", str(cfg), "--max-seconds", "0.01")
    params.env["VIDSLEUTH_TEST_KEY"] = key

    async def body(s):
        got = await s.call_tool("ask", {"question": "Which video services a wheel?", "index": "index", "t_max": 1})
        return got, await s.call_tool("probe", {"path": "other.mp4"})

    got, after = run(params, body)
    text = got.content[0].text
    assert got.is_error and "gone" in text and len(text.splitlines()) == 1, text
    assert key not in text and "Traceback" not in text
    # a failed call still spends time: the seconds budget (10 ms) is used up, the next call refused
    assert after.is_error and "tool seconds used" in after.content[0].text
