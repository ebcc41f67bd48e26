"""Embedded models as configuration: names, where their files are found, and their build-time assembly."""

from __future__ import annotations

import hashlib
import os
import zipfile
from pathlib import Path

import pytest

from o1_server import model_parts
from o1_server.llm import (DEFAULT_EMBEDDED, EMBEDDED_MODELS, EmbeddedLLM, EmbeddedModel, embedded_model,
                           embedded_model_path)
from o1_server.settings import settings_from_args


def test_models_are_chosen_by_name_and_litellm_names_pass_through(tmp_path: Path) -> None:
    base = ["--data-dir", str(tmp_path)]  # the API token is generated into the data folder
    assert settings_from_args(base).llm_model == DEFAULT_EMBEDDED == "qwen2.5-coder-1.5b"
    for name in ("qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b", "smollm2-135m"):
        assert embedded_model(settings_from_args([*base, "--llm-model", name]).llm_model).name == name
    assert embedded_model("embedded").name == DEFAULT_EMBEDDED  # the add-on's option before 0.2
    assert embedded_model("ollama/llama3.1") is None and embedded_model("openai/gpt-4o-mini") is None
    extra = settings_from_args([*base, "--llm-models-dir", str(tmp_path / "m")])
    assert extra.llm_models_dirs == ((tmp_path / "m").resolve(),)
    with pytest.raises(ValueError, match="no embedded model called 'nope'"):
        EmbeddedLLM("nope")


def test_every_assembled_model_has_its_parts_listed() -> None:
    for model in EMBEDDED_MODELS.values():
        if model.file is not None:
            parts = model_parts.MODEL_PARTS[model.name]
            assert parts.file == model.file and len(parts.sha256) == 64 and parts.size > 100_000_000


def test_a_missing_model_file_says_how_to_get_it(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="script/bootstrap models"):
        embedded_model_path(EMBEDDED_MODELS["qwen2.5-coder-0.5b"], (tmp_path,))
    (tmp_path / EMBEDDED_MODELS["qwen2.5-coder-0.5b"].file).write_bytes(b"GGUF")
    assert embedded_model_path(EMBEDDED_MODELS["qwen2.5-coder-0.5b"], (tmp_path / "none", tmp_path)) == \
        tmp_path / EMBEDDED_MODELS["qwen2.5-coder-0.5b"].file
    assert embedded_model_path(EMBEDDED_MODELS["smollm2-135m"]).suffix == ".gguf"  # from its package


def test_a_model_with_neither_file_nor_package_is_a_missing_model(tmp_path: Path) -> None:
    # It once failed with a TypeError (a folder / None) instead of the FileNotFoundError the caller handles.
    model = EmbeddedModel("nothing", "nothing", None, None, 100, 1024, "none")
    with pytest.raises(FileNotFoundError, match="neither a file nor a package"):
        embedded_model_path(model, (tmp_path,))


def fake_part_wheels(folder: Path, prefix: str, chunks: list[bytes]) -> None:
    """Wheels laid out like the real part packages: <module>/data/partNN.bin."""
    folder.mkdir()
    for i, chunk in enumerate(chunks, 1):
        dist = f"{prefix.replace('-', '_')}{i}"
        with zipfile.ZipFile(folder / f"{dist}-1.0-py3-none-any.whl", "w") as whl:
            whl.writestr(f"{dist}/__init__.py", "")
            whl.writestr(f"{dist}/data/part{i:02d}.bin", chunk)
            whl.writestr(f"{dist}-1.0.dist-info/METADATA",
                         f"Metadata-Version: 2.1\nName: {prefix}{i}\nVersion: 1.0\n")
            whl.writestr(f"{dist}-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
            whl.writestr(f"{dist}-1.0.dist-info/RECORD", "")


def test_parts_are_joined_in_order_and_verified(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chunks = [os.urandom(1000 + i) for i in range(12)]  # 12 parts: "10" must come after "9", not after "1"
    fake_part_wheels(tmp_path / "index", "o1-fake-part", chunks)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "index"))
    joined = b"".join(chunks)
    good = model_parts.ModelParts("fake", "o1-fake-part", "1.0", 12, "fake.gguf", len(joined),
                                  hashlib.sha256(joined).hexdigest())
    out = model_parts.assemble(good, tmp_path / "models")
    assert out.read_bytes() == joined and model_parts.is_ready(good, tmp_path / "models")
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["fake.gguf", "fake.gguf.sha256"]

    bad = model_parts.ModelParts("bad", "o1-fake-part", "1.0", 12, "bad.gguf", len(joined), "0" * 64)
    with pytest.raises(RuntimeError, match="expected"):
        model_parts.assemble(bad, tmp_path / "models")
    # Nothing half-made is left behind, and the good model is untouched.
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["fake.gguf", "fake.gguf.sha256"]
    assert model_parts.main([str(tmp_path / "models"), "nope"]) == 2
