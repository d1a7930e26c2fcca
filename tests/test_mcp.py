"""``vidsleuth mcp`` through the SDK's own client: the tools over stdio and streamable HTTP, the
roots, the budgets, and errors as one-line tool errors. The server runs as a subprocess
(``python -m vidsleuth mcp``, as a harness starts it); speech comes from subtitle files and OCR is
off, so no perception model runs; model endpoints are ``vidsleuth.testing.ScriptedServer``."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession  # noqa: E402

from .mcp_support import free_port, mcp_root, run, server  # noqa: E402, F401 (mcp_root: the `root` fixture)


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
        server(root, "--max-calls", "8"), body)
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
    from vidsleuth.library import IngestOptions, ingest
    from vidsleuth.search.index import build_index

    ingest(secret, root / ".lib", IngestOptions(asr=False, ocr=False))  # the library also holds a video outside the roots
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
        case = next(t for t in timelines if t["path"].endswith("video.mp4"))
        one = json.loads((await s.read_resource(case["uri"])).contents[0].text)
        return frames, watch, anchors, related, stats, linked, bad, typo, leaky, timelines, one

    frames, watch, anchors, related, stats, linked, bad, typo, leaky, timelines, one = run(server(root), body)
    times = frames.structured_content["times"]
    assert len(times) == 3 and all(4.0 <= t <= 10.0 for t in times) and sum(c.type == "image" for c in frames.content) == 3
    assert param["text"] in watch.content[0].text and len(watch.structured_content["times"]) == 2
    assert all(4.0 + 7 * k <= t <= 7.0 + 7 * k for t in watch.structured_content["times"])
    assert param["text"] in [a["text"] for a in anchors.structured_content["anchors"]]
    rels = related.structured_content["relations"]
    assert [r["relation"] for r in rels] == ["supports", None]  # a pointer to another article is no evidence
    assert str(param["value"]) in related.structured_content["anchor"]["value"]  # the stated value, as read
    assert (stats.structured_content["steps"], stats.structured_content["searches_after_first_write"]) == (4, 0.5)
    assert linked.is_error and "outside the server's roots" in linked.content[0].text
    assert bad.is_error and "finding F1: anchor_id 'A9' names no anchor" in bad.content[0].text
    assert not (root / "broken-report").exists()  # refused, and nothing left behind
    assert typo.is_error and "excerpts.0.excerpt" in typo.content[0].text  # the schema names the misspelt field
    assert len(typo.content[0].text.splitlines()) == 1, typo.content[0].text  # one line, like the CLI's
    assert one["segments"] and one["video"]["duration"] > 20
    assert timelines and all(t["path"].startswith(str(root)) for t in timelines)  # the private video is not listed
    # an index inside the roots whose corpus lists a video outside them is refused, not read
    assert leaky.is_error and "video p of the index's corpus" in leaky.content[0].text


# --------------------------------------------------------------------------- streamable HTTP, skills


def test_streamable_http_on_loopback_with_budgets_per_session(root):
    import socket
    import subprocess
    import time

    from mcp.client.streamable_http import streamable_http_client

    port = free_port()
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


def test_the_speech_language_is_the_servers_unless_a_call_names_its_own(root):
    """English ASR on Chinese speech invents English: a harness says the language per server or per call."""
    async def body(s):
        default = (await s.call_tool("timeline", {"path": "case/video.mp4", "kinds": ["subtitle"]})).structured_content
        named = (await s.call_tool("timeline", {"path": "case/video.mp4", "kinds": ["subtitle"], "language": "en"}))
        bad = await s.call_tool("timeline", {"path": "case/video.mp4", "language": "klingon"})
        return default, named.structured_content, bad

    async def later(s):  # a language named once holds for that video's later calls in the session's server
        await s.call_tool("timeline", {"path": "case/video.mp4", "kinds": ["subtitle"], "language": "zh"})
        return (await s.call_tool("timeline", {"path": "case/video.mp4", "kinds": ["subtitle"]})).structured_content

    default, named, bad = run(server(root, "--language", "zh"), body)
    assert default["language"] == "zh" and named["language"] == "en"
    assert default["segments"] == named["segments"]  # subtitles, whatever ASR would have been told
    assert bad.is_error and "language" in bad.content[0].text  # one line naming the argument
    assert run(server(root), later)["language"] == "zh"


def test_images_are_scaled_to_fit_a_clients_message_limit():
    """Eight 640-px frames of a busy picture overran a client's 1 MiB message: images come scaled down together to
    the budget, and the reply says so; small ones are left as they are."""
    import numpy as np
    from PIL import Image

    from vidsleuth.mcp_tools.tools import IMAGE_BUDGET, _images

    rng = np.random.default_rng(0)
    busy = [Image.fromarray(rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)) for _ in range(8)]
    images, text = _images(busy, "frames at …")
    assert len(images) == 8 and sum(len(c.data) for c in images) <= IMAGE_BUDGET
    assert "scaled to" in text and "1 MiB" in text
    small, text = _images(busy[:1], "frames at …")
    assert text == "frames at …" and len(small) == 1


def test_http_refuses_other_than_loopback(root):
    import subprocess

    done = subprocess.run([sys.executable, "-m", "vidsleuth", "mcp", "--root", str(root), "--http", "0.0.0.0:8765"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "loopback only" in done.stderr and len(done.stderr.strip().splitlines()) == 1


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

        ans, after, stats = run(server(root, "--config", str(cfg), "--max-tokens", "20"), body)
    assert not ans.is_error, ans.content[0].text
    got = ans.structured_content
    assert got["answer"] == "a road bike wheel" and got["confidence"] == 0.7 and got["selected"]
    assert roles[0] == "planner" and "checker" in roles and roles[-1] == "analyst"  # the loop ran on the endpoint
    assert got["tokens"] > 20 and stats["tokens"] == got["tokens"]
    assert after.is_error and f"{got['tokens']} of 20 model tokens used" in after.content[0].text


def test_relate_with_a_model_spends_the_token_budget(root, tmp_path):
    """``relate`` on ``--model`` (a ScriptedServer playing the relater): the endpoint's label is
    returned and its tokens count against --max-tokens, so the next call is refused."""
    from vidsleuth.testing import ScriptedServer

    reply = json.dumps({"relation": "contradicts", "rationale": "the page says 200 °C", "confidence": 0.8})
    with ScriptedServer(lambda body, n: reply) as srv:
        cfg = tmp_path / "models.toml"
        cfg.write_text(f'[models.fake]\nbackend = "openai"\nbase_url = "{srv.base_url}"\nmodel = "m"\nvision = false\n',
                       encoding="utf-8")
        anchor = {"id": "A1", "text": "Bake at 180 °C for 25 minutes.", "kind": "parameter",
                  "moments": [{"start": 3.0, "end": 6.0, "text": "Bake at 180 °C for 25 minutes."}]}

        async def body(s):
            rel = await s.call_tool("relate", {"anchor": anchor, "excerpts": [{"excerpt": "Bake it at 200 °C."}]})
            after = await s.call_tool("probe", {"path": "other.mp4"})
            return rel, after, (await s.call_tool("session_stats", {})).structured_content

        rel, after, stats = run(server(root, "--config", str(cfg), "--model", "fake", "--max-tokens", "5"), body)
    assert not rel.is_error, rel.content[0].text
    got = rel.structured_content
    assert [r["relation"] for r in got["relations"]] == ["contradicts"] and got["relations"][0]["decided_by"] == "fake"
    assert got["tokens"] > 5 and stats["tokens"] == got["tokens"]
    assert after.is_error and f"{got['tokens']} of 5 model tokens used" in after.content[0].text


def test_a_failing_endpoint_is_one_line_without_the_key(root, tmp_path):
    """The endpoint refuses the connection: ``ask`` is a tool error naming the endpoint, with
    neither a traceback nor the key the server read from its environment; its time counts."""
    key = "sk-test-" + "7" * 32
    cfg = tmp_path / "models.toml"
    cfg.write_text(f'[models.gone]\nbackend = "openai"\nbase_url = "http://127.0.0.1:{free_port()}/v1"\nmodel = "m"\n'
                   'api_key_env = "VIDSLEUTH_TEST_KEY"\nmax_retries = 0\ntimeout = 5\n[roles]\ndefault = "gone"\n',
                   encoding="utf-8")
    params = server(root, "--config", str(cfg), "--max-seconds", "0.01")
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
