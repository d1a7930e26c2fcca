"""A scripted LLM runs the video-report skill's seven stages through the MCP tools alone, to a
report that passes ``check_report`` in Chromium — no vidsleuth pipeline code in between.

The "LLM" is ``vidsleuth.testing.ScriptedServer`` over real HTTP: the driver loop below (the
harness) sends it the MCP tool list in OpenAI's ``tools`` format, executes the ``tool_calls`` it
answers with on the server, and sends the results back."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from vidsleuth.synth import report_cases  # noqa: E402

from .mcp_support import mcp_root, run, server  # noqa: E402, F401 (mcp_root: the `root` fixture)


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
                value = res["anchor"]["value"] or res["anchor"]["subject"]
                findings.append({"id": f"F{len(findings) + 1}", "anchor_id": a["id"], "evidence_ids": [eid],
                                 "relation": rel["relation"],
                                 "text": f"On the video's {value}: {src['title']} {rel['relation']} it "
                                         f"({rel['rationale']}): “{cand['excerpt']}”"})
        cited = {e["anchor_id"] for e in evidence}
        return {"request": self.request, "video": {"date": "2024-06-01"},
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

        messages, stats = run(server(root), body)
        sent = srv.requests
    assert all(r["tools"] and r["messages"][0]["role"] == "system" for r in sent)  # the harness sent tools and the skill
    checks = [json.loads(m["content"]) for m, prev in zip(messages[1:], messages) if m["role"] == "tool"
              and "passed" in m["content"] and '"checks"' in m["content"]]
    assert checks and checks[-1]["passed"], checks[-1]["checks"] if checks else "no check ran"
    assert "browser" in checks[-1]["checks"]  # Chromium opened the page, clicked timestamps and citations
    order = [t for t in stats["per_tool"]]
    assert order[:4] == ["timeline", "gather_evidence", "relate", "render_report"] and "check_report" in order
    data = json.loads((root / "agent-report" / "report.json").read_text())
    scored = report_cases.score(data, truth)
    # the relations the tools decided match the case's known truth for what was found
    assert scored["found"] >= 4 and scored["relation_accuracy_found"] >= 0.75, scored
    assert all(f["evidence_ids"] for f in data["findings"]) and data["sources"]
    score = json.loads(next(m["content"] for m in reversed(messages) if m["role"] == "tool"))
    assert score["status"] == "ok" and score["contract_missing"] == [] and score["score"] > 0, score


