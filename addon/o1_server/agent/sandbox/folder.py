"""The conversation folder as generated code leaves it: walking it, measuring it, removing it.

:func:`scan_folder` and :func:`remove_tree` never follow symlinks, never recurse and keep few folders open,
however the tree was made; :func:`over_limits` says, as the end of a sentence, why a folder is over its caps.
Nothing here runs a block.
"""

from __future__ import annotations

import contextlib
import os
import stat as stat_mod
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .config import SETTINGS
from .limits import MIB, Limits

MAX_FOLDER_DEPTH = 100
"""Deepest folder nesting the server walks into in a conversation folder (one open descriptor per level)."""
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass
class FolderScan:
    """What :func:`scan_folder` found: bytes on disk and entries seen; ``complete`` is False when it stopped
    at ``max_entries``, ``too_deep`` True when folders went deeper than :data:`MAX_FOLDER_DEPTH`."""

    bytes: int = 0
    entries: int = 0
    complete: bool = True
    too_deep: bool = False


Visit = Any  # Callable[[int, str, str, os.stat_result], None]: (folder fd, name, relative path, lstat)


def scan_folder(folder: Path, visit: Visit = None, max_entries: int | None = None) -> FolderScan:
    """Walk everything under ``folder`` as generated code left it: never following symlinks, without recursion
    (a tree thousands of folders deep is walked like a flat one), every step relative to an open folder
    descriptor (any path length), at most :data:`MAX_FOLDER_DEPTH` levels down and ``max_entries`` entries.
    ``visit(fd, name, relative_path, lstat)`` sees each entry (before a folder's content). Entries that vanish
    or cannot be read are skipped. Raises OSError only when ``folder`` itself cannot be opened."""
    scan = FolderScan()
    top = os.open(folder, _DIR_FLAGS)
    stack: list[tuple[int, str, Any]] = []
    try:
        stack.append((top, "", os.scandir(top)))
        while stack:
            fd, rel, entries = stack[-1]
            entry = next(entries, None)
            if entry is None:
                entries.close()
                stack.pop()
                if fd != top:
                    os.close(fd)
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            scan.entries += 1
            scan.bytes += st.st_blocks * 512
            path = f"{rel}/{entry.name}" if rel else entry.name
            if visit is not None:
                visit(fd, entry.name, path, st)
            if max_entries is not None and scan.entries > max_entries:
                scan.complete = False
                break
            if not stat_mod.S_ISDIR(st.st_mode):
                continue
            if len(stack) >= MAX_FOLDER_DEPTH:
                scan.too_deep = True
                continue
            try:
                child = os.open(entry.name, _DIR_FLAGS, dir_fd=fd)
            except OSError:
                continue
            try:
                stack.append((child, path, os.scandir(child)))
            except OSError:
                os.close(child)
    finally:
        for fd, _, entries in stack:
            entries.close()
            if fd != top:
                os.close(fd)
        os.close(top)
    return scan


def remove_tree(path: Path) -> None:
    """Delete ``path`` and everything under it (like ``shutil.rmtree(ignore_errors=True)``) whatever generated
    code made of it: symlinks are removed, never followed; no recursion and at most 32 open folders however deep
    the tree (folders below that depth are first moved up to ``path``'s top level); what cannot be removed is
    left; never raises."""
    try:
        top = os.open(path, _DIR_FLAGS)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(path)  # a file or a symlink (never followed); nothing when it is gone
        return
    # Frames: [folder fd, its name in the parent, iterator over its names (None: list it), (dev, inode)]
    stack: list[list[Any]] = [[top, "", None, None]]
    given_up: set[tuple[int, int]] = set()
    hoisted = False
    try:
        while stack:
            frame = stack[-1]
            fd = frame[0]
            if frame[2] is None:
                try:
                    frame[2] = iter(os.listdir(fd))
                except OSError:
                    frame[2] = iter(())
            for name in frame[2]:
                try:
                    st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                except OSError:
                    continue
                if not stat_mod.S_ISDIR(st.st_mode):
                    with contextlib.suppress(OSError):
                        os.unlink(name, dir_fd=fd)
                    continue
                key = (st.st_dev, st.st_ino)
                if key in given_up:
                    continue
                if len(stack) >= 32:  # too deep to hold open: move it up to the top, taken from there later
                    with contextlib.suppress(OSError):
                        os.rename(name, f".o1-removing-{uuid.uuid4().hex}", src_dir_fd=fd, dst_dir_fd=top)
                        hoisted = True
                    continue
                try:
                    child = os.open(name, _DIR_FLAGS, dir_fd=fd)
                except OSError:
                    given_up.add(key)
                    continue
                stack.append([child, name, None, key])
                break
            else:  # every name of this folder is done
                if len(stack) == 1:
                    if hoisted:  # folders were moved up here meanwhile: list the top again
                        hoisted, frame[2] = False, None
                        continue
                    break
                stack.pop()
                os.close(fd)
                try:
                    os.rmdir(frame[1], dir_fd=stack[-1][0])
                except OSError:
                    given_up.add(frame[3])
    finally:
        for frame in stack[1:]:
            with contextlib.suppress(OSError):
                os.close(frame[0])
        os.close(top)
    with contextlib.suppress(OSError):
        os.rmdir(path)


def adopt_and_measure(folder: Path, user: tuple[int, int] | None, max_entries: int | None = None) -> FolderScan:
    """Walk the folder (see :func:`scan_folder`): bytes on disk and entries. When the server is root and the code
    runs as ``user``, entries put there by the server (root) or left by an older version (e.g. ``nobody``), that
    is owned by no conversation uid, with one link (never a hard link to a file elsewhere), are handed to
    ``user`` so the code can use them. Symlinks are never followed; every step is relative to an open directory."""
    adopt = user is not None and os.geteuid() == 0
    first, count = SETTINGS.uids or (0, 0)

    def visit(dirfd: int, name: str, _: str, st: os.stat_result) -> None:
        foreign = st.st_uid == 0 or not first <= st.st_uid < first + count
        if (
            adopt
            and user is not None
            and st.st_uid != user[0]
            and foreign
            and (stat_mod.S_ISDIR(st.st_mode) or st.st_nlink == 1)
        ):
            try:
                os.chown(name, user[0], user[1], dir_fd=dirfd, follow_symlinks=False)
            except OSError:
                pass

    return scan_folder(folder, visit if adopt else None, max_entries)


def over_limits(scan: FolderScan, limits: Limits, running: bool = False) -> str | None:
    """Why a conversation folder is over its caps (the end of a sentence about it: "this conversation's folder
    ..."), or None. ``running``: said of a block that is being stopped."""
    if scan.bytes > limits.disk_mb * MIB:
        if running:
            return f"grew past its {limits.disk_mb} MiB limit"
        return f"uses {scan.bytes / MIB:.0f} MiB, more than its {limits.disk_mb} MiB limit"
    if not scan.complete:
        return f"{'grew past' if running else 'holds more than'} its limit of {limits.files} files and folders"
    if scan.too_deep:
        return f"has folders nested more than {MAX_FOLDER_DEPTH} deep"
    return None
