"""Per-block cgroups: where they can be made on this machine, and one block's memory and pids limits.

``Cgroups.detect`` finds writable memory and pids controllers (cgroup v1 hierarchies or v2 with delegation);
``Block`` is the cgroup folders of one running block, killed and removed when it ends. Nothing here decides
when a block runs or stops (see ``run``).
"""

from __future__ import annotations

import hashlib
import logging
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

_LOGGER = logging.getLogger(__package__)


def root_tag(sandbox_root: Path) -> str:
    """The name prefix of the block cgroups of one sandbox root (what a later server of it reaps)."""
    return "o1-" + hashlib.sha256(os.fsencode(Path(sandbox_root).resolve())).hexdigest()[:10]


def _own_cgroups() -> dict[str, str]:
    """Controller name (``memory``, ``pids``; ``""`` for the v2 tree) -> this process's cgroup path."""
    found: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else [""]:
            found[name] = path
    return found


class Cgroups:
    """Where per-block cgroups are made: one parent folder per hierarchy (v1: memory and pids; v2: one)."""

    def __init__(self, version: int, parents: list[Path]) -> None:
        self.version = version
        self.parents = parents

    @classmethod
    def detect(cls, root: Path = Path("/sys/fs/cgroup")) -> tuple[Cgroups | None, str]:
        """Find writable memory and pids cgroups. Returns (cgroups or None, a sentence on what was found)."""
        own = _own_cgroups()
        if (root / "cgroup.controllers").exists():
            return cls._detect_v2(root, own.get("", "/"))
        memory, pids = root / "memory", root / "pids"
        if not (memory / "cgroup.procs").exists() or not (pids / "cgroup.procs").exists():
            return None, f"no cgroup v2 at {root} and no cgroup v1 memory and pids hierarchies"
        parents = [memory / own.get("memory", "/").lstrip("/") / "o1", pids / own.get("pids", "/").lstrip("/") / "o1"]
        try:
            for parent in parents:
                parent.mkdir(exist_ok=True)
        except OSError as err:
            return None, f"cgroup v1 under {root} is not writable ({err.strerror})"
        try:
            (parents[0] / "memory.use_hierarchy").write_text("1")  # limits hold for the block's whole subtree
        except OSError:
            pass  # always on in recent kernels; cannot change once a child exists
        return cls(1, parents), "cgroup v1 (memory, pids)"

    @classmethod
    def _detect_v2(cls, root: Path, own: str) -> tuple[Cgroups | None, str]:
        base = root / own.lstrip("/")
        controllers = base / "cgroup.controllers"
        available = set(controllers.read_text().split()) if controllers.exists() else set()
        if not {"memory", "pids"} <= available:
            return None, f"cgroup v2 at {base} does not offer the memory and pids controllers"
        try:
            enabled = set((base / "cgroup.subtree_control").read_text().split())
            if not {"memory", "pids"} <= enabled:
                # A cgroup that hands controllers to children may hold no processes itself: move ours into a
                # leaf first (the whole container's when this is its cgroup namespace root, as Docker does).
                leaf = base / ("o1-init" if own == "/" else "o1-server")
                leaf.mkdir(exist_ok=True)
                movers = (base / "cgroup.procs").read_text().split() if own == "/" else [str(os.getpid())]
                for pid in movers:
                    try:
                        (leaf / "cgroup.procs").write_text(pid)
                    except OSError:
                        pass  # gone, or a kernel thread
                (base / "cgroup.subtree_control").write_text("+memory +pids")
            parent = base / "o1"
            parent.mkdir(exist_ok=True)
            (parent / "cgroup.subtree_control").write_text("+memory +pids")
        except OSError as err:
            return None, f"cgroup v2 at {base} cannot be delegated to the sandbox ({err.strerror})"
        return cls(2, [parent]), "cgroup v2 (memory, pids)"

    def create(self, name: str, memory_bytes: int, processes: int) -> Block:
        """Make the cgroups of one block with its limits. Raises OSError."""
        dirs = [parent / name for parent in self.parents]
        for folder in dirs:
            folder.mkdir()
        block = Block(self.version, dirs)
        try:
            if self.version == 1:
                (dirs[0] / "memory.limit_in_bytes").write_text(str(memory_bytes))
                if (dirs[0] / "memory.memsw.limit_in_bytes").exists():
                    (dirs[0] / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
                (dirs[1] / "pids.max").write_text(str(processes))
            else:
                (dirs[0] / "memory.max").write_text(str(memory_bytes))
                if (dirs[0] / "memory.swap.max").exists():
                    (dirs[0] / "memory.swap.max").write_text("0")
                (dirs[0] / "pids.max").write_text(str(processes))
        except OSError:
            block.remove()
            raise
        return block

    def reap(self, prefix: str) -> int:
        """Kill and remove leftover block cgroups whose name starts with ``prefix`` (a previous server of the
        same sandbox root that was killed). Returns how many were found."""
        names = set()
        for parent in self.parents:
            names |= {p.name for p in parent.iterdir() if p.is_dir() and p.name.startswith(prefix)}
        for name in names:
            Block(self.version, [parent / name for parent in self.parents if (parent / name).exists()]).remove()
        return len(names)


@dataclass
class Block:
    """The cgroup folders of one running block."""

    version: int
    dirs: list[Path]

    def procs_files(self) -> list[str]:
        return [str(d / "cgroup.procs") for d in self.dirs]

    def pids(self) -> set[int]:
        found: set[int] = set()
        for folder in self.dirs:
            try:
                found |= {int(p) for p in (folder / "cgroup.procs").read_text().split()}
            except OSError:
                pass
        return found

    def kill(self) -> None:
        """SIGKILL every process in the block's cgroups until none is left (or 2 s have passed)."""
        kill_file = self.dirs[0] / "cgroup.kill"
        if self.version == 2 and kill_file.exists():
            try:
                kill_file.write_text("1")
            except OSError:
                pass
        deadline = time.monotonic() + 2
        while (pids := self.pids()) and time.monotonic() < deadline:
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.01)

    def remove(self) -> None:
        """Kill what is left and remove the folders (retrying while the kernel reaps the last processes)."""
        self.kill()
        for folder in self.dirs:
            for _ in range(100):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)
            else:
                _LOGGER.warning("Could not remove the block cgroup %s", folder)
