"""The disk a block may use: its folder's cap, the cap over all conversation folders, the free space kept.

:func:`block_budget` is called before a block starts: it refuses the block when the sandbox root is over its
global cap or the disk is nearly full, and otherwise returns the bytes the block may still write, which
``processes.preexec`` sets as the block's ``RLIMIT_FSIZE`` (the kernel then fails any write past it, per file,
with EFBIG). The usage of every conversation folder is kept here, measured when one of its blocks starts and
ends (and once for folders not seen yet), so the global cap costs one walk per block, not one per folder.
:func:`room_for_new` says why a new conversation folder may not be made (the same two refusals).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

from .folder import scan_folder
from .limits import MIB

DEFAULT_ROOT_MB = 4096
"""Cap over all conversation folders of one sandbox root (MiB) unless :func:`set_root_cap` says otherwise."""
FREE_RESERVE_MB = 64
"""Space (MiB) no block may take from the disk holding the sandbox root: what the server writes keeps room."""


@dataclass
class Budget:
    """The bytes a block may write (``bytes``) or, when it may not start, why (``refused``: the end of
    "[not run: ...]")."""

    bytes: int = 0
    refused: str | None = None
    total: int = 0
    """Bytes the block may add to its folder in all, over all its files: the least of the folder's, the global
    cap's and the free space's remaining bytes (the kernel bounds each file at ``bytes``; the total is watched
    while the block runs)."""
    past_total: str = ""
    """What a block that added more than ``total`` did, as the end of "[stopped: ...]"."""


class _Book:
    """Measured usage (bytes on disk) of each conversation folder, by sandbox root, behind one lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.root_mb = DEFAULT_ROOT_MB
        self.usage: dict[Path, dict[str, int]] = {}

    def others(self, folder: Path, max_entries: int) -> int:
        """Bytes used by the conversation folders beside ``folder`` (measuring those not seen yet)."""
        return self.total(folder.parent, folder.name, max_entries)

    def total(self, root: Path, skip: str | None, max_entries: int) -> int:
        """Bytes used by the conversation folders of ``root`` but ``skip`` (measuring those not seen yet)."""
        with self.lock:
            known = dict(self.usage.get(root, {}))
        try:
            names = [e.name for e in os.scandir(root) if e.is_dir(follow_symlinks=False)]
        except OSError:
            return 0
        total = 0
        for name in names:
            if name == skip:
                continue
            if name not in known:
                try:
                    known[name] = scan_folder(root / name, None, max_entries).bytes
                except OSError:
                    known[name] = 0
            total += known[name]
        with self.lock:
            self.usage[root] = {n: known[n] for n in names if n in known}
        return total

    def note(self, folder: Path, used: int) -> None:
        with self.lock:
            self.usage.setdefault(folder.parent, {})[folder.name] = used


BOOK = _Book()


def set_root_cap(megabytes: int) -> None:
    """Cap all conversation folders of a sandbox root together at ``megabytes`` MiB. Raises ValueError below 1."""
    if megabytes < 1:
        raise ValueError("the sandbox's disk cap must be at least 1 MiB")
    BOOK.root_mb = megabytes


def root_cap_mb() -> int:
    """The cap over all conversation folders (MiB)."""
    return BOOK.root_mb


def note_usage(folder: Path, used: int) -> None:
    """Record what ``folder`` uses now (bytes on disk), e.g. after its block ended."""
    BOOK.note(folder, used)


def block_budget(folder: Path, used: int, folder_cap: int, file_cap: int, max_entries: int) -> Budget:
    """What a block in ``folder`` (using ``used`` bytes, capped at ``folder_cap`` bytes) may write: the least of
    ``file_cap``, the folder's remaining bytes, the root's remaining bytes under its global cap and the disk's
    free space above :data:`FREE_RESERVE_MB`; refused when the root is over its cap or the disk is full."""
    BOOK.note(folder, used)
    root_cap = BOOK.root_mb * MIB
    root_used = BOOK.others(folder, max_entries) + used
    if root_used >= root_cap:
        return Budget(
            refused=f"all conversations' folders together use {root_used / MIB:.0f} MiB, their limit is "
            f"{BOOK.root_mb} MiB. Delete some files or old conversations first."
        )
    free = _free(folder, root_cap)
    if free <= 0:
        return Budget(refused="the disk is full. Delete some files first.")
    bounds = [
        (folder_cap - used, f"this conversation's folder grew past its {folder_cap // MIB} MiB limit"),
        (root_cap - root_used, f"all conversations' folders together grew past their {BOOK.root_mb} MiB limit"),
        (free, "the disk is nearly full"),
    ]
    total, past_total = min(bounds, key=lambda bound: bound[0])
    return Budget(bytes=max(0, min(file_cap, total)), total=max(0, total), past_total=past_total)


@dataclass
class NoRoom:
    """Why a new conversation folder may not be made: the disk is ``full`` (less than :data:`FREE_RESERVE_MB`
    free), or all folders together use ``used_mb`` MiB of their ``cap_mb`` MiB."""

    full: bool
    used_mb: int
    cap_mb: int


def room_for_new(root: Path, max_entries: int) -> NoRoom | None:
    """Why a new conversation folder in the sandbox root ``root`` may not be made, or None: refused exactly when
    its first block would be (:func:`block_budget` of an empty folder). ``max_entries`` bounds the walk of a
    folder not measured yet. A root that cannot be read or measured is not refused here."""
    root_cap = BOOK.root_mb * MIB
    used = BOOK.total(root, None, max_entries)
    if used >= root_cap:
        return NoRoom(False, round(used / MIB), BOOK.root_mb)
    if _free(root, root_cap) <= 0:
        return NoRoom(True, round(used / MIB), BOOK.root_mb)
    return None


def _free(path: Path, unknown: int) -> int:
    """Bytes free on ``path``'s disk above :data:`FREE_RESERVE_MB` (``unknown`` when it cannot be read)."""
    try:
        st = os.statvfs(path)
    except OSError:
        return unknown
    return st.f_bavail * st.f_frsize - FREE_RESERVE_MB * MIB
