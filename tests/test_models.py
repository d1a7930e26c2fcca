from __future__ import annotations

import asyncio
import base64
import io
import json
import logging
import subprocess
import sys
import time

import numpy as np
import pytest
from PIL import Image

from vidsleuth.errors import ConfigError, ModelError, ModelOutputError
from vidsleuth.models import AudioPart, ImagePart, Message, Models, ResponseCache, load_config
from vidsleuth.models.config import Endpoint
from vidsleuth.models.jsonout import extract_json
from vidsleuth.models.openai_backend import OpenAIChat, retry_after_seconds
from vidsleuth.store import RunStore
from vidsleuth.testing import ScriptedServer

from .conftest import scripted_models

SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}


def model_for(srv: ScriptedServer, tmp_path, **kw) -> OpenAIChat:
    ep = Endpoint(name="fake", backend="openai", base_url=srv.base_url, model="scripted-vl", **kw)
    store = RunStore(tmp_path / "runs.sqlite")
    return OpenAIChat(ep, cache=ResponseCache(tmp_path / "cache.sqlite"), store=store,
                      run_id=store.start_run("test"), role="planner")


def test_message_format_with_images_and_audio(tmp_path, audio_files):
    big = Image.new("RGB", (1280, 720), (200, 30, 30))
    with ScriptedServer(["seen"]) as srv:
        m = model_for(srv, tmp_path, image_max_side=512, image_quality=70)
        reply = m.chat([Message.of("system", "be brief"),
                        Message.of("user", "what is shown?", ImagePart(big), AudioPart(audio_files["wav"]))])
    assert reply.text == "seen" and reply.tokens_in == 10
    body = srv.requests[0]
    assert body["model"] == "scripted-vl" and body["temperature"] == 0 and body["max_tokens"] == 1024
    assert body["messages"][0] == {"role": "system", "content": "be brief"}
    parts = body["messages"][1]["content"]
    assert [p["type"] for p in parts] == ["text", "image_url", "input_audio"]
    url = parts[1]["image_url"]["url"]
    assert url.startswith("data:image/jpeg;base64,")
    jpeg = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert jpeg.format == "JPEG" and jpeg.size == (512, 288)
    assert parts[2]["input_audio"]["format"] == "wav"
    assert base64.b64decode(parts[2]["input_audio"]["data"]) == audio_files["wav"].read_bytes()


def test_flac_audio_is_sent_as_wav(tmp_path, audio_files):
    with ScriptedServer(["ok"]) as srv:
        model_for(srv, tmp_path).chat([Message.of("user", AudioPart(audio_files["flac"]))])
    part = srv.requests[0]["messages"][0]["content"][0]["input_audio"]
    assert part["format"] == "wav" and base64.b64decode(part["data"])[:4] == b"RIFF"


def test_429_then_success_honours_retry_after(tmp_path):
    with ScriptedServer([{"status": 429, "headers": {"Retry-After": "1"}, "json": {"error": "slow down"}}, "ok"]) as srv:
        t0 = time.perf_counter()
        reply = model_for(srv, tmp_path).chat("hi")
        elapsed = time.perf_counter() - t0
    assert reply.text == "ok" and srv.calls == 2
    assert 1.0 <= elapsed < 3.0


def test_retry_after_http_date():
    from email.utils import formatdate

    assert 8 <= retry_after_seconds(formatdate(time.time() + 10, usegmt=True)) <= 10
    assert retry_after_seconds("2.5") == 2.5 and retry_after_seconds("soon") is None


def test_500s_until_retries_run_out(tmp_path):
    with ScriptedServer([{"status": 500, "json": {"error": "boom"}}], repeat_last=True) as srv:
        with pytest.raises(ModelError) as err:
            model_for(srv, tmp_path, max_retries=2).chat("hi")
    msg = str(err.value)
    assert "fake" in msg and srv.base_url in msg and "HTTP 500" in msg and "after 3 attempts" in msg
    assert srv.calls == 3


def test_client_errors_are_not_retried(tmp_path):
    with ScriptedServer([{"status": 404, "json": {"error": "no such model"}}], repeat_last=True) as srv:
        with pytest.raises(ModelError, match="HTTP 404.*check base_url and the model name"):
            model_for(srv, tmp_path).chat("hi")
    assert srv.calls == 1


def test_slow_response_hits_the_timeout(tmp_path):
    with ScriptedServer([{"delay": 3, "content": "late"}], repeat_last=True) as srv:
        t0 = time.perf_counter()
        with pytest.raises(ModelError, match=r"timed out after 0\.5 s"):
            model_for(srv, tmp_path, timeout=0.5, max_retries=0).chat("hi")
        assert time.perf_counter() - t0 < 2.0


def test_dropped_connection_then_success(tmp_path):
    with ScriptedServer([{"drop": True}, "fine"]) as srv:
        assert model_for(srv, tmp_path).chat("hi").text == "fine"


def test_unreachable_endpoint_names_it(tmp_path):
    ep = Endpoint(name="gone", backend="openai", base_url="http://127.0.0.1:9/v1", model="m", max_retries=1)
    with pytest.raises(ModelError, match=r"gone .*127\.0\.0\.1:9.*after 2 attempts.*connection failed"):
        OpenAIChat(ep).chat("hi")


def test_malformed_json_then_valid_repair(tmp_path):
    with ScriptedServer(["Sure! here it is: {'answer': ", '```json\n{"answer": "Paris",}\n```']) as srv:
        m = model_for(srv, tmp_path)
        reply = m.chat("capital of France?", schema=SCHEMA)
    assert reply.data == {"answer": "Paris"} and reply.repaired
    repair = srv.requests[1]["messages"]
    assert repair[-2]["role"] == "assistant" and "could not be used" in repair[-1]["content"]
    summary = m.store.summary(m.run_id)
    assert summary["total"]["parse_failures"] == 1 and summary["total"]["calls"] == 2


def test_still_invalid_after_repair_is_a_typed_error(tmp_path):
    with ScriptedServer(['{"wrong": 1}', "no json at all"]) as srv:
        m = model_for(srv, tmp_path)
        with pytest.raises(ModelOutputError, match="after one repair attempt") as err:
            m.chat("q", schema=SCHEMA)
    assert err.value.raw == "no json at all"
    assert m.store.summary(m.run_id)["total"]["parse_failures"] == 2


@pytest.mark.parametrize("text,value", [
    ('{"a": 1}', {"a": 1}),
    ('Here:\n```json\n{"a": [1, 2,],}\n```\nDone.', {"a": [1, 2]}),
    ("The answer is {'a': 'x', 'b': True} as requested", {"a": "x", "b": True}),
    ("[3, 0, 7]", [3, 0, 7]),
    ('prose {"a": "brace } inside"} more', {"a": "brace } inside"}),
    ('{"ok": true, "v": null}', {"ok": True, "v": None}),
])
def test_json_extraction(text, value):
    assert extract_json(text) == value


def test_json_extraction_failure():
    with pytest.raises(ModelOutputError, match="no JSON"):
        extract_json("I cannot answer that.")


def test_cache_hit_on_rerun_and_no_cache_bypass(tmp_path):
    with ScriptedServer(["one", "two"]) as srv:
        m = model_for(srv, tmp_path)
        first = m.chat("same question", seed=1)
        again = m.chat("same question", seed=1)
        fresh = m.chat("same question", seed=1, use_cache=False)
    assert (first.cached, again.cached, fresh.cached) == (False, True, False)
    assert again.text == "one" and fresh.text == "two" and srv.calls == 2
    total = m.store.summary(m.run_id)["total"]
    assert total["cache_hits"] == 1 and total["model_calls"] == 2


def test_cache_key_covers_image_bytes(tmp_path):
    with ScriptedServer(["red", "blue"]) as srv:
        m = model_for(srv, tmp_path)
        a = m.chat([Message.of("user", "colour?", ImagePart(Image.new("RGB", (64, 64), (255, 0, 0))))])
        b = m.chat([Message.of("user", "colour?", ImagePart(Image.new("RGB", (64, 64), (0, 0, 255))))])
    assert (a.text, b.text, b.cached) == ("red", "blue", False)


def test_concurrency_limit_is_held(tmp_path):
    with ScriptedServer([{"delay": 0.3, "content": "x"}], repeat_last=True) as srv:
        m = model_for(srv, tmp_path, max_concurrency=3)

        async def burst():
            try:
                return await asyncio.gather(*(m.achat(f"q{i}") for i in range(10)))
            finally:
                await m.aclose()

        replies = asyncio.run(burst())
    assert len(replies) == 10 and srv.max_in_flight == 3


def test_api_key_never_reaches_logs_caches_or_outputs(tmp_path, monkeypatch, caplog):
    secret = "sk-TEST-9f8e7d6c5b4a"
    monkeypatch.setenv("FAKE_API_KEY", secret)
    caplog.set_level(logging.DEBUG)
    echo = lambda body: {"status": 401, "json": {"error": f"bad key {secret}"}}  # a server that echoes the key
    with ScriptedServer(["fine", echo]) as srv:
        m = model_for(srv, tmp_path, api_key_env="FAKE_API_KEY")
        assert m.chat("hi").text == "fine"
        with pytest.raises(ModelError) as err:
            m.chat("other", use_cache=False)
    assert srv.headers[0]["Authorization"] == f"Bearer {secret}"  # it was sent...
    assert secret not in str(err.value) and "***" in str(err.value)  # ...but never repeated
    assert secret not in caplog.text and secret not in repr(m.endpoint)
    m.cache.close()
    m.store.close()
    for f in tmp_path.rglob("*"):
        if f.is_file():
            assert secret.encode() not in f.read_bytes(), f


def test_missing_key_variable_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.delenv("NOPE_KEY", raising=False)
    with ScriptedServer(["x"]) as srv:
        with pytest.raises(ModelError, match="NOPE_KEY is not set"):
            model_for(srv, tmp_path, api_key_env="NOPE_KEY").chat("hi")
        assert srv.calls == 0


# --------------------------------------------------------------------------- config and registry


def write_config(tmp_path, base_url: str, extra: str = "") -> str:
    cfg = tmp_path / "models.toml"
    cfg.write_text(f"""
[models.qwen-vl]
backend = "openai"
base_url = "{base_url}"
model = "Qwen3-VL-8B-Instruct"
api_key_env = "VLLM_API_KEY"
price_in = 2.0
price_out = 8.0
frames = 49

[models.judge]
backend = "openai"
base_url = "{base_url}"
model = "judge-model"

[roles]
planner = "qwen-vl"
judge = "judge"
{extra}""")
    return str(cfg)


def test_config_roles_and_cost(tmp_path, monkeypatch):
    monkeypatch.setenv("VLLM_API_KEY", "k")
    with ScriptedServer([{"content": "plan", "tokens_in": 1000, "tokens_out": 500}, "verdict"]) as srv:
        cfg = load_config(write_config(tmp_path, srv.base_url))
        assert cfg.endpoints["qwen-vl"].options == {"frames": 49}
        store = RunStore(tmp_path / "r.sqlite")
        models = Models(cfg, cache=False, store=store, run_id=store.start_run("t"))
        models.for_role("planner").chat("plan it")
        models.for_role("judge").chat("judge it")
        assert models.endpoint_for("watcher").name == "local"  # unassigned roles use the default
    s = store.summary()
    assert s["per_role"]["planner"]["cost"] == pytest.approx((1000 * 2 + 500 * 8) / 1e6)
    assert s["per_role"]["judge"]["calls"] == 1 and s["total"]["calls"] == 2


def test_config_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[models.x]\nbackend = "opnai"\nbase_url = "http://h"\n')
    with pytest.raises(ConfigError, match="did you mean 'openai'"):
        load_config(bad)
    bad.write_text('[models.x]\nbackend = "openai"\nbase_url = "http://h"\napi_key = "sk-1"\n')
    with pytest.raises(ConfigError, match="keep keys out of files"):
        load_config(bad)
    bad.write_text("[models.x\n")
    with pytest.raises(ConfigError, match="bad.toml: not valid TOML"):
        load_config(bad)
    for line, message in (('timeout = "x"', "timeout = 'x': must be a number"),
                          ("max_concurrency = -1", "max_concurrency = -1: must be between 1 and"),
                          ("max_concurency = 2", "unknown key 'max_concurency'; did you mean 'max_concurrency'"),
                          ("vision = 1", "vision = 1: must be true or false"),
                          ('apikey = "sk"', "'apikey', which looks like a secret"),
                          ('API_KEY = "sk"', "'API_KEY', which looks like a secret"),
                          ('token = "t"', "'token', which looks like a secret"),
                          ('key = "k"', "'key', which looks like a secret"),
                          ('headers = { Authorization = "Bearer x" }', "'headers', which looks like a secret")):
        bad.write_text(f'[models.x]\nbackend = "openai"\nbase_url = "http://h"\n{line}\n')
        with pytest.raises(ConfigError, match=__import__("re").escape(message)):
            load_config(bad)


def test_capabilities_are_declared_not_inferred_from_backend_names(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[models.txt]\nbackend = "openai"\nbase_url = "http://h"\nvision = false\n'
                   '[models.vl]\nbackend = "openai"\nbase_url = "http://h"\n')
    eps = load_config(cfg).endpoints
    assert not eps["txt"].accepts("vision") and eps["vl"].accepts("vision") and eps["vl"].accepts("audio")
    assert not eps["local"].accepts("vision") and not eps["local"].accepts("audio")
    with pytest.raises(ConfigError, match="did you mean 'local'"):
        load_config(None).endpoint("locale")
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "missing.toml")


# --------------------------------------------------------------------------- embeddings and the local model


def test_local_embeddings_are_normalised_and_multilingual():
    emb = Models(cache=False).embedder()
    passages = emb.embed(["The old lighthouse guides ships into the harbor.",
                          "Apple prices rose at the market.", "北京的苹果价格上涨了。"], kind="passage")
    assert passages.shape == (3, 384)
    assert np.allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-5)
    q = emb.embed(["lighthouse for ships", "苹果 价格"], kind="query")
    scores = q @ passages.T
    assert scores[0].argmax() == 0 and scores[1].argmax() in (1, 2)


def test_openai_embeddings_via_endpoint(tmp_path):
    with ScriptedServer([]) as srv:
        vecs = scripted_models(srv, "e", "emb").embedder("e").embed(["abc", "zzz"], kind="query")
    assert vecs.shape == (2, 26) and np.allclose(np.linalg.norm(vecs, axis=1), 1.0)


def test_real_local_llm_answers_an_extractive_question(tmp_path):
    models = Models(cache=ResponseCache(tmp_path / "c.sqlite"))
    model = models.get("local")
    question = ("Text: The Harbor Point lighthouse was built in 1887 by the engineer Mara Vent.\n"
                "Question: Who built the lighthouse? Answer with the name only.")
    reply = model.chat(question, max_tokens=16)
    assert "Mara Vent" in reply.text and reply.tokens_out > 0 and not reply.cached
    structured = model.chat(question, schema={"type": "object", "properties": {"builder": {"type": "string"}},
                                              "required": ["builder"]}, max_tokens=48)
    assert "Mara" in structured.data["builder"]
    assert model.chat(question, max_tokens=16).cached


def test_local_model_reads_images_through_ocr(tmp_path, main_clip):
    from vidsleuth.media import sample_frames
    from vidsleuth.models.local_backend import describe_image

    frame = sample_frames(main_clip[0], n=1, start=1.5, end=2.5)[0]
    seen = describe_image(ImagePart(frame.image))
    assert seen.startswith("[image: on-screen text: ") and "ORBITALMECHANICS" in seen.replace(" ", "")
    noted = describe_image(ImagePart(frame.image, note="frame at 2.0s"))
    assert noted.startswith("[image: frame at 2.0s; on-screen text: ") and "average colour: " in noted
    red = describe_image(ImagePart(Image.new("RGB", (40, 40), (230, 20, 20))))
    assert red == "[image: no readable text; average colour: red]"


# --------------------------------------------------------------------------- CLI


def test_cli_models_and_chat(cli, tmp_path):
    with ScriptedServer(["pong"], repeat_last=True) as srv:
        cfg = write_config(tmp_path, srv.base_url)
        listed = json.loads(cli("models", "--config", cfg, "--json").stdout)
        names = {e["name"]: e for e in listed["endpoints"]}
        assert {"local", "qwen-vl", "judge"} <= set(names) and names["qwen-vl"]["roles"] == ["planner"]
        img = tmp_path / "x.png"
        Image.new("RGB", (32, 32)).save(img)
        env_cache = {"VIDSLEUTH_HOME": str(tmp_path / "home")}
        import os

        env = {**os.environ, **env_cache, "VLLM_API_KEY": "k"}
        run = lambda *a: subprocess.run([sys.executable, "-m", "vidsleuth", *map(str, a)], capture_output=True,
                                        text=True, env=env)
        first = run("chat", "--config", cfg, "--model", "qwen-vl", "ping", "--image", img, "--json")
        assert first.returncode == 0, first.stderr
        out = json.loads(first.stdout)
        assert out["text"] == "pong" and out["cached"] is False and out["tokens_in"] == 10
        again = json.loads(run("chat", "--config", cfg, "--model", "qwen-vl", "ping", "--image", img, "--json").stdout)
        assert again["cached"] is True and srv.calls == 1
        typo = run("chat", "--config", cfg, "--model", "qwen-lv", "ping")
        assert typo.returncode == 1 and "did you mean 'qwen-vl'" in typo.stderr and "Traceback" not in typo.stderr
        fresh = run("chat", "--config", cfg, "--model", "qwen-vl", "ping", "--no-cache", "--json")
        assert json.loads(fresh.stdout)["cached"] is False and srv.calls == 2
    down = run("chat", "--config", cfg, "--model", "qwen-vl", "ping", "--no-cache", "--retries", "0", "--timeout", "2")
    assert down.returncode == 1 and "Traceback" not in down.stderr
    assert len(down.stderr.strip().splitlines()) == 1 and "qwen-vl" in down.stderr and "connection failed" in down.stderr
