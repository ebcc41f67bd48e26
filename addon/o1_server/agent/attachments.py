"""Files a client hands to a conversation (an AI task's attachments), written into its folder for the code.

Bounded: at most :data:`MAX_FILES` files of at most :data:`MAX_FILE_BYTES` bytes each per request. Names are
reduced to a safe base name (:func:`safe_filename`). The folder belongs to generated code, which may have left a
symlink under any name: a file is written under a fresh temporary name (``O_EXCL | O_NOFOLLOW``, relative to
the opened folder) and renamed over the name, which replaces a symlink itself, never what it points to. The
file is handed to the folder's owner (the conversation's uid) so its code can read it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import unicodedata
import uuid
from pathlib import Path

MAX_FILES = 8
"""Most files in one request."""
MAX_FILE_BYTES = 10 * 1024 * 1024
"""Largest file, in bytes."""
MAX_NAME_CHARS = 100
"""Longest file name kept, in characters (the extension is kept)."""
_UNSAFE = re.compile(r"[^\w.\- ]+")


def safe_filename(name: str) -> str:
    """A file name safe in a conversation folder: the last path part of ``name``, letters, digits, ``_.- `` only
    (the rest becomes ``_``), no leading dot or space, at most :data:`MAX_NAME_CHARS` characters; ``attachment``
    when nothing is left. ``"../../etc/passwd"`` -> ``"passwd"``, ``".bashrc"`` -> ``"bashrc"``."""
    base = unicodedata.normalize("NFC", name.replace("\\", "/")).rsplit("/", 1)[-1]
    base = _UNSAFE.sub("_", base.encode("utf-8", "replace").decode("utf-8")).strip(" ._")
    if len(base) > MAX_NAME_CHARS:
        stem, dot, ext = base.rpartition(".")
        keep = ext[:10] if dot and stem else ""
        base = base[: MAX_NAME_CHARS - len(keep) - 1].rstrip(" ._") + ("." + keep if keep else "")
    return base or "attachment"


def unique_names(names: list[str]) -> list[str]:
    """``names`` made safe (:func:`safe_filename`) and distinct: a repeated name gets ``-2``, ``-3``... before
    its extension (``photo.jpg``, ``photo-2.jpg``)."""
    seen: set[str] = set()
    result: list[str] = []
    for name in names:
        base = safe_filename(name)
        stem, dot, ext = base.rpartition(".")
        if not dot or not stem:
            stem, dot, ext = base, "", ""
        candidate, n = base, 1
        while candidate.lower() in seen:
            n += 1
            candidate = f"{stem}-{n}{dot}{ext}"
        seen.add(candidate.lower())
        result.append(candidate)
    return result


def write_files(folder: Path, files: list[tuple[str, bytes]], owner: tuple[int, int] | None) -> list[str]:
    """Write ``files`` (name, content) into ``folder``, replacing files of the same name; return the names used.

    ``owner`` (uid, gid) is given each file when the server runs as root. Raises ValueError for more than
    :data:`MAX_FILES` files or one over :data:`MAX_FILE_BYTES`, OSError when the folder cannot be written or a
    folder has one of the names (IsADirectoryError): then none is stored and no temporary file stays.
    """
    if len(files) > MAX_FILES:
        raise ValueError(f"at most {MAX_FILES} files at a time")
    if any(len(data) > MAX_FILE_BYTES for _, data in files):
        raise ValueError(f"a file may hold at most {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    names = unique_names([name for name, _ in files])
    top = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    written: list[str] = []
    try:
        for name in names:  # a folder of that name (code may have made one) would fail the replace: none is stored
            with contextlib.suppress(FileNotFoundError):
                if stat.S_ISDIR(os.stat(name, dir_fd=top, follow_symlinks=False).st_mode):
                    raise IsADirectoryError(errno.EISDIR, "a folder has that name", name)
        for _, data in files:  # every file in a hidden temporary first: all are stored, or none
            tmp = f".o1-upload-{uuid.uuid4().hex}"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=top)
            written.append(tmp)
            try:
                with os.fdopen(fd, "wb", closefd=False) as out:
                    out.write(data)
                if owner is not None and os.geteuid() == 0:
                    os.fchown(fd, *owner)
            finally:
                os.close(fd)
        for tmp, name in zip(list(written), names, strict=True):
            os.replace(tmp, name, src_dir_fd=top, dst_dir_fd=top)
            written.remove(tmp)
    finally:
        for tmp in written:  # what was not stored leaves nothing behind
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=top)
        os.close(top)
    return names
