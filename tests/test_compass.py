from __future__ import annotations

import json

import pytest
from PIL import Image

from vidsleuth.bench.compass import SETTINGS, Serialisation, build_messages, run_compass, score
from vidsleuth.bench.datasets import Instance, read_instances
from vidsleuth.bench.grounding import box_iou, cs_qa, cs_sg, cs_tg, score_boxes, score_grounding, tiou
from vidsleuth.bench.parse import parse_boxes, parse_interval, parse_option
from vidsleuth.errors import DataFileError, VidsleuthError
from vidsleuth.models import AudioPart, ImagePart
from vidsleuth.models.config import Endpoint
from vidsleuth.synth.compass_set import make_demo_set
from vidsleuth.testing import ScriptedServer
from vidsleuth.types import Frame

from .conftest import scripted_models

# --------------------------------------------------------------------------- formulas


def test_temporal_iou_edge_cases():
    assert tiou([2, 6], [2, 6]) == 1.0
    assert tiou([0, 2], [4, 6]) == 0.0  # disjoint
    assert tiou([0, 4], [2, 6]) == pytest.approx(2 / 6)
    assert tiou([0, 2], [2, 4]) == 0.0  # touching
    assert tiou([5, 5], [5, 5]) == 0.0  # zero-length: the hull is 0
    assert tiou([3, 3], [0, 6]) == 0.0  # zero-length inside: no intersection length
    assert tiou([0, 2], [1, 5]) == pytest.approx(1 / 5)


def test_hull_and_sum_of_lengths_unions_give_the_same_tiou():
    """The official QVHighlights code divides by the hull; textbook IoU by |a| + |b| - inter.
    For 1-D intervals they can only differ when the intervals are disjoint, where the
    intersection, and so the IoU, is 0 either way: the two definitions never disagree."""
    import random

    rng = random.Random(0)
    for _ in range(2000):
        a = sorted(rng.uniform(0, 20) for _ in range(2))
        b = sorted(rng.uniform(0, 20) for _ in range(2))
        inter = max(0.0, min(a[1], b[1]) - max(a[0], b[0]))
        union = (a[1] - a[0]) + (b[1] - b[0]) - inter
        assert tiou(a, b) == pytest.approx(inter / union if union > 0 else 0.0)


def test_grounding_scores_reversed_multiwindow_and_unparsed():
    items = [
        {"gt": [[2, 6]], "pred": [[6, 2]]},  # reversed: swapped, IoU 1
        {"gt": [[0, 10], [20, 30]], "pred": [[21, 29], [0, 10]]},  # top-1 vs its best window: 0.8
        {"gt": [[0, 10]], "pred": None},  # unparsed: 0, counted
        {"gt": [[0, 10]], "pred": [[0, 3]]},  # 0.3
    ]
    r = score_grounding(items)
    assert r.ious == pytest.approx([1.0, 0.8, 0.0, 0.3])
    m = r.metrics()
    assert (m["reversed"], m["unparsed"], m["n"]) == (1, 1, 4)
    assert m["R1@0.3"] == 0.75 and m["R1@0.5"] == 0.5 and m["R1@0.7"] == 0.5
    assert m["mIoU"] == pytest.approx(2.1 / 4)


def test_ground_truth_is_not_clipped_unless_asked():
    items = [{"gt": [[8, 14]], "pred": [[8, 10]], "duration": 10}]
    assert score_grounding(items).ious == [pytest.approx(2 / 6)]
    assert score_grounding(items, clip=True).ious == [1.0]


def test_box_iou_and_scores():
    assert box_iou([0, 0, 10, 10], [0, 0, 10, 10]) == 1.0
    assert box_iou([0, 0, 10, 10], [10, 0, 20, 10]) == 0.0  # touching edges
    assert box_iou([0, 0, 10, 10], [5, 0, 15, 10]) == pytest.approx(50 / 150)
    assert box_iou([0, 0, 0, 0], [0, 0, 0, 0]) == 0.0
    m = score_boxes([{"gt": [[0, 0, 10, 10], [0, 0, 10, 10]], "pred": [[0, 0, 10, 10], [5, 0, 15, 10]]},
                     {"gt": [[0, 0, 10, 10], [0, 0, 10, 10]], "pred": None}])
    assert m["AP@0.5"] == 0.25 and m["mIoU"] == pytest.approx((1 + 1 / 3) / 4) and m["unparsed"] == 1


def test_consistency_scores_hand_computed():
    gt = [0, 10]
    # pair 1: both right and agreeing -> 1; pair 2: both 0.5 IoU but disagreeing (a=0) -> 0; pair 3: one side missing -> 0
    assert cs_tg([([0, 10], [0, 10], gt), ([0, 5], [5, 10], gt), ([0, 10], None, gt)]) == pytest.approx(1 / 3)
    g = [[0, 0, 10, 10], [0, 0, 10, 10]]
    assert cs_sg([([[0, 0, 10, 10], [0, 0, 10, 10]], [[0, 0, 10, 10], [5, 0, 15, 10]], g)]) == pytest.approx((1 + 1 / 3) / 2)
    assert cs_qa([("A", "A", "A"), ("A", "B", "A"), ("B", "B", "A"), (None, "A", "A")]) == 0.25


# --------------------------------------------------------------------------- parsers


@pytest.mark.parametrize("text,expected", [
    ('{"start": 12.3, "end": 15.0}', [12.3, 15.0]),
    ("The event happens from 12.3 to 15.0 seconds.", [12.3, 15.0]),
    ("12.3-15.0", [12.3, 15.0]),
    ("It occurs between 3 and 7 s", [3.0, 7.0]),
    ("01:05 - 01:20", [65.0, 80.0]),
    ("[4.5, 9]", [4.5, 9.0]),
    ("```json\n{\"start_time\": \"0:04\", \"end_time\": \"0:09\"}\n```", [4.0, 9.0]),
    ("around 1:02:03 to 1:02:10", [3723.0, 3730.0]),
    ("I cannot tell.", None),
])
def test_parse_interval(text, expected):
    assert parse_interval(text) == expected


def test_parse_boxes_pixel_normalised_and_detected():
    assert parse_boxes('{"start_box": [10, 20, 50, 60], "end_box": [100, 20, 140, 60]}', (640, 360)) == [
        [10, 20, 50, 60], [100, 20, 140, 60]]
    got = parse_boxes("start: (0.1, 0.2, 0.3, 0.4), end: (0.5, 0.2, 0.7, 0.4)", (100, 200))
    assert [v for b in got for v in b] == pytest.approx([10, 40, 30, 80, 50, 40, 70, 80])
    assert parse_boxes("[[100, 100, 200, 200], [500, 100, 600, 200]]", (2000, 1000), "norm1000") == [
        [200, 100, 400, 200], [1000, 100, 1200, 200]]
    assert parse_boxes("[[50, 60, 10, 20], [1, 1, 2, 2]]", (640, 360))[0] == [10, 20, 50, 60]  # corners ordered
    assert parse_boxes("only one box [1, 2, 3, 4]", (640, 360)) is None


@pytest.mark.parametrize("text,expected", [
    ("C", "C"), ("(B) it moves left", "B"), ("The answer is D.", "D"), ('{"answer": "E"}', "E"),
    ("Answer: A", "A"), ("I think the best option is (c)", "C"), ("The answer is D. A is wrong", "D"), ("B. left", "B"),
    ("It moves to the right.", "B"), ("A or B", None), ("Apples are red", None),
    ("the answer is a bit unclear", None),
])
def test_parse_option(text, expected):
    options = ["left", "right", "up", "down", "it does not move"]
    assert parse_option(text, options) == expected


# --------------------------------------------------------------------------- serialisation


def _inst(task="TG", paired=True, tmp_path=None) -> Instance:
    ref = ""
    if paired:
        ref = str(tmp_path / "ref.png")
        Image.new("RGB", (8, 8), (255, 0, 0)).save(ref)
    return Instance(id="x", video=str(tmp_path / "v.wav"), task=task, track="VL", text="When is the red square visible?",
                    text_prime="When is the object in the image visible?" if paired else "", ref_image=ref,
                    duration=12.0, interval=(3.0, 7.0), frame_size=(640, 360),
                    boxes=((0, 0, 10, 10), (5, 5, 15, 15)) if task == "SG" else None,
                    options=("a", "b", "c", "d", "e") if task == "QA" else (), answer="A" if task == "QA" else "")


def _kinds(messages):
    out = []
    for p in messages[0].content:
        out.append("audio" if isinstance(p, AudioPart) else ("ref" if isinstance(p, ImagePart) and p.note.startswith("reference")
                   else "frame" if isinstance(p, ImagePart) else ("t" if p.endswith("s") and p[:-1].replace(".", "").isdigit() else "prompt")))
    return out


def test_message_order_for_tracks_and_settings(tmp_path):
    frames = [Frame(t=1.5, image=Image.new("RGB", (16, 16))), Frame(t=4.5, image=Image.new("RGB", (16, 16)))]
    inst = _inst(tmp_path=tmp_path)
    vl_text = build_messages(inst, "text", frames, Serialisation())
    assert _kinds(vl_text) == ["t", "frame", "t", "frame", "prompt"]
    assert vl_text[0].content[0] == "1.5s" and "12.0 seconds long" in vl_text[0].content[-1]
    assert "When is the red square visible?" in vl_text[0].content[-1]
    vl_ti = build_messages(inst, "text+image", frames, Serialisation())
    assert _kinds(vl_ti) == ["t", "frame", "t", "frame", "ref", "prompt"]
    assert "object in the image" in vl_ti[0].content[-1] and "red square" not in vl_ti[0].content[-1]
    av = build_messages(inst, "text+image", frames, Serialisation(modality="vision+audio", audio=True))
    assert _kinds(av) == ["t", "frame", "t", "frame", "audio", "ref", "prompt"]
    assert _kinds(build_messages(inst, "text", frames, Serialisation(timestamps=False))) == ["frame", "frame", "prompt"]
    assert "preceded by its time" not in build_messages(inst, "text", frames, Serialisation(timestamps=False))[0].content[-1]
    assert _kinds(build_messages(inst, "text", frames, Serialisation(modality="text"))) == ["prompt"]
    # text-only removes all media, reference images included (seed 002 §4); both wordings stay
    text_ti = build_messages(inst, "text+image", frames, Serialisation(modality="text"))
    assert _kinds(text_ti) == ["prompt"] and "object in the image" in text_ti[0].content[-1]
    with pytest.raises(VidsleuthError, match="no Text\\+Image"):
        build_messages(_inst(paired=False, tmp_path=tmp_path), "text+image", frames, Serialisation())


def test_pairing_when_one_side_is_missing(tmp_path):
    a = _inst(tmp_path=tmp_path)
    b = Instance(**{**a.__dict__, "id": "y"})
    unpaired = Instance(**{**a.__dict__, "id": "z", "text_prime": "", "ref_image": ""})
    parsed = {("x", "text"): [3, 7], ("x", "text+image"): [3, 7], ("y", "text"): [3, 7], ("z", "text"): [3, 7]}
    m = score([a, b, unpaired], parsed, raw_missing={("y", "text+image")})
    assert m["settings"]["text"]["TG"]["n"] == 3 and m["settings"]["text+image"]["TG"]["n"] == 2
    assert m["settings"]["text+image"]["TG"]["unparsed"] == 1
    # N_q counts evaluated pairs: y was never answered on one side (missing), so it is not a pair
    assert m["consistency"]["CS_TG"] == 1.0 and m["consistency_pairs"]["CS_TG"] == 1
    assert m["counts"]["correct_in_exactly_one_setting"] == 1 and m["counts"]["missing"] == 1
    # an answered but unparseable side is a wrong answer inside an eligible pair: scored 0
    m2 = score([a, b, unpaired], {**parsed, ("y", "text+image"): None})
    assert m2["consistency"]["CS_TG"] == 0.5 and m2["consistency_pairs"]["CS_TG"] == 2


@pytest.mark.parametrize("model,frames", [("gpt-5.2", 49), ("GPT-4o", 49), ("gemini-3.8-flash", 64), ("claude-opus-5", 64),
                                          ("Qwen3.5-397B-A17B", 64), ("VITA-1.5-7B", 16), ("Qwen3-VL-8B-Instruct", 32),
                                          ("qwen2.5-coder-0.5b-instruct-q4km", 32)])
def test_frame_budgets_follow_the_seed_table(model, frames):
    from vidsleuth.bench.compass import frame_budget, frame_budgets

    assert frame_budget(Endpoint(name="e", backend="openai", model=model)) == frames
    assert frame_budget(Endpoint(name="e", backend="openai", model=model, options={"frames": 8})) == 8
    assert frame_budgets()["default"] == 32


def test_instance_validation(tmp_path):
    p = tmp_path / "d.jsonl"
    p.write_text(json.dumps({"id": "1", "video": "v.mp4", "task": "XX", "text": "t", "duration": 5}) + "\n"
                 + json.dumps({"id": "2", "video": "v.mp4", "task": "QA", "text": "t", "duration": 5, "options": ["a"],
                               "answer": "F"}) + "\n")
    with pytest.raises(DataFileError) as err:
        read_instances(p)
    msg = str(err.value)
    assert "line 1: field 'task'" in msg and "line 2: field 'options'" in msg and "line 2: field 'answer'" in msg


# --------------------------------------------------------------------------- CLI and runner


def test_metrics_grounding_native_and_charades(cli, tmp_path):
    (tmp_path / "gt.jsonl").write_text('{"id": "a", "gt": [[2, 6]], "duration": 10}\n{"id": "b", "gt": [[0, 4]], "duration": 10}\n')
    (tmp_path / "pred.jsonl").write_text('{"id": "a", "pred": [[2, 6], [0, 1]]}\n{"id": "b", "pred": []}\n')
    m = json.loads(cli("metrics", "grounding", "--gt", tmp_path / "gt.jsonl", "--pred", tmp_path / "pred.jsonl", "--json").stdout)
    assert m == {"R1@0.3": 0.5, "R1@0.5": 0.5, "R1@0.7": 0.5, "mIoU": 0.5, "n": 2, "unparsed": 1, "reversed": 0,
                 "missing": 0, "extra": 0}
    (tmp_path / "sta.txt").write_text("VID1 1.0 5.0##person opens a door.\nVID2 2.0 12.0##person sits.\n")
    (tmp_path / "len.csv").write_text("id,length\nVID1,20.0\nVID2,10.0\n")
    (tmp_path / "p.jsonl").write_text('{"id": "0", "pred": [[1, 5]]}\n{"id": "1", "pred": [[2, 10]]}\n')
    args = ["metrics", "grounding", "--gt", tmp_path / "sta.txt", "--pred", tmp_path / "p.jsonl", "--format", "charades",
            "--durations", tmp_path / "len.csv", "--json"]
    assert json.loads(cli(*args).stdout)["mIoU"] == pytest.approx((1 + 0.8) / 2)
    assert json.loads(cli(*args, "--clip").stdout)["mIoU"] == 1.0
    bad = cli("metrics", "grounding", "--gt", tmp_path / "pred.jsonl", "--pred", tmp_path / "pred.jsonl", "--json")
    assert bad.returncode == 1 and "pred.jsonl: line 1" in bad.stderr


def test_bench_compass_runs_resumes_and_writes_outputs(cli, tmp_path):
    data = make_demo_set(tmp_path / "demo")
    rows = [json.loads(l) for l in data.read_text().splitlines()]
    assert len(rows) == 12 and {r["task"] for r in rows} == {"TG", "SG", "QA"}
    # An oracle server answers from the truth of the instance named in the Text prompt; the
    # Text+Image prompt names no colour, so there it always answers the first instance of the task.
    by_text = {r["text"]: r for r in rows}
    first_of = {}
    for r in rows:
        first_of.setdefault(r["task"], r)

    def oracle(body, n):
        prompt = body["messages"][0]["content"][-1]["text"]
        hit = next((r for t, r in by_text.items() if t in prompt), None)
        task = "TG" if '"start":' in prompt else "SG" if "start_box" in prompt else "QA"
        r = hit or first_of[task]
        if r["task"] == "TG":
            return json.dumps({"start": r["interval"][0], "end": r["interval"][1]})
        if r["task"] == "SG":
            return json.dumps({"start_box": r["boxes"][0], "end_box": r["boxes"][1]})
        return f"The answer is {r['answer']}."

    calls = {"n": 0}

    def flaky(body, n):  # dies after 10 answers: the run stops short
        calls["n"] += 1
        return oracle(body, n) if n < 10 else {"status": 400, "json": {"error": "gone"}}

    out = tmp_path / "out"
    with ScriptedServer(flaky) as srv:
        first = run_compass(data, scripted_models(srv, "vl", "oracle-vl"), "vl", out, frames=4, workers=2)
    failed = {e["id"] for e in first["errors"]}  # an instance (both settings) is the unit of work
    settings_of = lambda ids: sum(2 if r.get("text_prime") else 1 for r in rows if r["id"] in ids)
    assert first["counts"]["missing"] == settings_of(failed) and 0 < len(failed) < 12
    with ScriptedServer(oracle) as srv2:
        m = run_compass(data, scripted_models(srv2, "vl", "oracle-vl"), "vl", out, frames=4, workers=2)
        assert srv2.calls == settings_of(failed)  # only the failed instances are asked again
        first_body = srv2.requests[0]
    parts = first_body["messages"][0]["content"]
    assert [p["type"] for p in parts][:2] == ["text", "image_url"] and parts[0]["text"].endswith("s")
    assert sum(p["type"] == "image_url" for p in parts) in (4, 5)
    t, ti = m["settings"]["text"], m["settings"]["text+image"]
    assert t["TG"]["mIoU"] == 1.0 and t["SG"]["mIoU"] == 1.0 and t["QA"]["accuracy"] == 1.0
    assert ti["QA"]["accuracy"] == 0.25 and m["consistency"]["CS_QA"] == 0.25
    assert m["consistency"]["CS_TG"] < 1.0 and m["counts"]["unparsed"] == 0 and m["errors"] == []
    for name in ("predictions.jsonl", "metrics.json", "summary.md", "run.json", "plots/duration.png", "plots/qa_category.png"):
        assert (out / name).exists(), name
    assert len((out / "predictions.jsonl").read_text().splitlines()) == 24
    run = json.loads((out / "run.json").read_text())["protocol"]
    assert run["frames"] == 4 and set(run["prompts"]) == {"TG", "SG", "QA"}
    assert "| vl | 4 | 100.0/" in (out / "summary.md").read_text()
    # Scoring the written predictions again from the CLI gives the same CS scores.
    preds = tmp_path / "p.jsonl"
    preds.write_text("".join(json.dumps({"id": r["id"], "setting": r["setting"], "prediction": r["prediction"]}) + "\n"
                             for r in map(json.loads, (out / "predictions.jsonl").read_text().splitlines())))
    again = json.loads(cli("metrics", "compass", "--data", data, "--pred", preds, "--json").stdout)
    assert again["CS_QA"] == 0.25 and again["CS_TG"] == pytest.approx(m["consistency"]["CS_TG"])
    assert again["Average"]["text"] == 1.0 and again["text.QA.accuracy"] == 1.0


def test_bench_compass_with_the_local_model(cli, tmp_path):
    """The whole path offline: the text-only local model reads frames through OCR notes."""
    data = make_demo_set(tmp_path / "demo")
    subset = tmp_path / "demo" / "red.jsonl"  # one clip's three instances keep the test short
    subset.write_text("".join(l + "\n" for l in data.read_text().splitlines() if '"red_square' in l))
    out = tmp_path / "local"
    proc = cli("bench", "compass", "--data", subset, "--frames", "8", "--out", out, "--json")
    assert proc.returncode == 0, proc.stderr
    m = json.loads((out / "metrics.json").read_text())
    assert m["counts"]["instances"] == 3 and m["errors"] == [] and m["counts"]["unparsed"] == 0
    assert m["calls"]["total"]["calls"] >= 6  # every instance, both settings, really asked
    assert set(m["settings"]) == set(SETTINGS)


def test_metrics_boxes_and_qa_cli(cli, tmp_path):
    (tmp_path / "bg.jsonl").write_text('{"id": "1", "gt": [[0, 0, 10, 10], [0, 0, 10, 10]]}\n')
    (tmp_path / "bp.jsonl").write_text('{"id": "1", "pred": [[0, 0, 10, 10], [5, 0, 15, 10]]}\n')
    m = json.loads(cli("metrics", "boxes", "--gt", tmp_path / "bg.jsonl", "--pred", tmp_path / "bp.jsonl", "--json").stdout)
    assert m["AP@0.5"] == 0.5 and m["mIoU"] == pytest.approx((1 + 1 / 3) / 2)
    (tmp_path / "qg.jsonl").write_text('{"id": "1", "answer": "A"}\n{"id": "2", "answer": "B"}\n')
    (tmp_path / "qp.jsonl").write_text('{"id": "1", "pred": "A"}\n')
    m = json.loads(cli("metrics", "qa", "--gt", tmp_path / "qg.jsonl", "--pred", tmp_path / "qp.jsonl", "--json").stdout)
    assert m == {"accuracy": 0.5, "n": 2, "unparsed": 1}
