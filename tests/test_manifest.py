"""The frame manifest: what each model call was shown, and ``bench diff`` between two runs."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest
from PIL import Image

from vidsleuth import synth
from vidsleuth.bench.compass import run_compass
from vidsleuth.bench.diff import bench_diff
from vidsleuth.errors import VidsleuthError
from vidsleuth.models import Models
from vidsleuth.models.config import Endpoint, ModelConfig
from vidsleuth.testing import ScriptedServer


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """One 4 s clip with a paired TG instance (Text and Text+Image) and a Text-only QA instance."""
    folder = tmp_path_factory.mktemp("manifest")
    video = folder / "square.mp4"
    synth.make_clip(video, synth.ClipSpec(shots=(synth.Shot(100, "0x303030"),), audio=False, width=320, height=180,
                                          overlays=(synth.Overlay(1.0, 3.0, "0xE02020", 40, (10, 10), (250, 10)),)))
    Image.new("RGB", (40, 40), (224, 32, 32)).save(folder / "ref.png")
    common = {"video": video.name, "track": "VL", "duration": 4.0}
    rows = [{"id": "sq-tg", "task": "TG", **common, "text": "When is the red square visible?",
             "text_prime": "When is the object in the reference image visible?", "ref_image": "ref.png",
             "interval": [1.0, 3.0]},
            {"id": "sq-qa", "task": "QA", **common, "text": "Which way does the red square move?",
             "options": ["left", "right", "up", "down", "it does not move"], "answer": "B"}]
    path = folder / "data.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _run(data, out, frames):
    with ScriptedServer(lambda body, n: '{"start": 1, "end": 3} The answer is B.') as srv:
        cfg = ModelConfig({"vl": Endpoint(name="vl", backend="openai", base_url=srv.base_url, model="vl-model")}, {})
        run_compass(data, Models(cfg, cache=False), "vl", out, frames=frames, workers=1)
        return srv.requests


def _times(out):
    return {f"{r['id']}|{r['setting']}": r["frames"] for r in map(json.loads, (out / "predictions.jsonl").read_text().splitlines())}


def test_manifest_records_exactly_the_bytes_sent(data, tmp_path):
    requests = _run(data, tmp_path / "a", 4)
    rows = [json.loads(line) for line in (tmp_path / "a" / "frames.jsonl").read_text().splitlines()]
    sent = [base64.b64decode(p["image_url"]["url"].split(",", 1)[1]) for req in requests
            for p in req["messages"][0]["content"] if p["type"] == "image_url"]
    assert sorted(r["sha256"] for r in rows) == sorted(hashlib.sha256(b).hexdigest() for b in sent)
    assert sorted(r["bytes"] for r in rows) == sorted(len(b) for b in sent)
    by_item = {}
    for r in rows:
        by_item.setdefault(r["item"], []).append(r)
    assert {k: len(v) for k, v in by_item.items()} == {"sq-tg|text": 4, "sq-tg|text+image": 5, "sq-qa|text": 4}
    tg = by_item["sq-tg|text+image"]
    assert [r["index"] for r in tg] == [0, 1, 2, 3, None] and tg[-1]["video"] == "ref.png"
    assert [r["t"] for r in tg[:4]] == _times(tmp_path / "a")["sq-tg|text+image"]
    assert all(r["video"] == "square.mp4" and (r["width"], r["height"]) == (320, 180) for r in tg[:4])
    assert (tg[-1]["width"], tg[-1]["height"]) == (40, 40)
    assert "manifest" not in (tmp_path / "a" / "predictions.jsonl").read_text()


def test_same_instance_twice_gives_no_difference_and_another_budget_differs_where_it_must(data, tmp_path, cli):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    _run(data, a, 4)
    _run(data, b, 4)
    same = bench_diff(a, b)
    assert same.same and same.differences == () and same.images == (13, 13)
    _run(data, c, 6)
    other = bench_diff(a, c)
    assert not other.same and other.images == (13, 19)
    ta, tc = _times(a), _times(c)
    for item in ("sq-tg|text", "sq-qa|text"):
        got = {d.image: d for d in other.differences if d.item == item}
        assert {n for n, d in got.items() if d.kind == "extra"} == {4, 5}
        changed = {n for n, d in got.items() if d.kind == "changed"}
        assert changed == {n for n in range(4) if ta[item][n] != tc[item][n]} and changed
        assert all("t" in got[n].fields for n in changed)  # a frame of the plain background may hash the same
        assert any("sha256" in got[n].fields for n in changed)
    # Text+Image: the reference image moves from position 4 to 6, so position 4 changes video.
    ti = {d.image: d for d in other.differences if d.item == "sq-tg|text+image"}
    assert ti[4].kind == "changed" and ti[4].fields["video"] == ["ref.png", "square.mp4"]
    assert {n for n, d in ti.items() if d.kind == "extra"} == {5, 6}
    assert "frames differ" in other.summary() and "same frames" in same.summary()
    assert "same frames" in cli("bench", "diff", a, b, check_rc=0).stdout
    differ = cli("bench", "diff", a, c)
    assert differ.returncode == 1 and "frames differ" in differ.stdout
    assert json.loads(cli("bench", "diff", a, c, "--json").stdout)["same"] is False


def test_diff_without_a_manifest_says_so(tmp_path):
    with pytest.raises(VidsleuthError, match="no frame manifest"):
        bench_diff(tmp_path, tmp_path)
