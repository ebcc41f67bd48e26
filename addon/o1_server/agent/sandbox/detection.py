"""What isolation this machine offers, found once per settings, and how it is described.

:func:`isolation` detects bubblewrap (with one probe box), setpriv and cgroups under the current settings;
``Isolation.describe`` and the fallback sentences say what is used and what is missing; :func:`prepare` is the
server's start-up step. Running a block is not done here (see ``run``).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bwrap import bwrap_argv
from .cgroups import Cgroups, root_tag
from .config import SETTINGS, SandboxSettings, configure
from .disk import FREE_RESERVE_MB, root_cap_mb, set_root_cap
from .limits import DEFAULT_UIDS, Limits
from .seccomp import DENIED, SeccompUnavailable, filter_program, program_fd

_LOGGER = logging.getLogger(__package__)


@dataclass
class Isolation:
    """What the sandbox uses on this machine (see ``describe_isolation``)."""

    bwrap: str | None = None
    bwrap_version: str = ""
    setpriv: str | None = None
    cgroups: Cgroups | None = None
    cgroups_text: str = ""
    uids: tuple[int, int] | None = None
    root: bool = False
    seccomp: bool = False  # blocks run under seccomp.filter_program (bubblewrap only)
    missing: list[str] = field(default_factory=list)

    def describe(self) -> dict[str, Any]:
        """JSON-ready summary: mode, each layer, and a sentence for each missing one."""
        if self.uids:
            uids = f"one per conversation, from {self.uids[0]} ({self.uids[1]} uids)"
        elif self.root:
            uids = "the explicit sandbox user, else nobody (65534): per-conversation uids are off"
        else:
            uids = f"the server's own uid {os.geteuid()} (not root: cannot give each conversation its own)"
        return {
            "mode": "bubblewrap" if self.bwrap else "rlimits",
            "namespaces": (
                f"{self.bwrap_version}: private mount, pid, ipc, uts and network namespaces" if self.bwrap else "none"
            ),
            "cgroups": self.cgroups_text if self.cgroups else "none",
            "seccomp": f"{len(DENIED) + 2} system calls denied (namespaces, mounts, ptrace, keyring, bpf...)"
            if self.seccomp
            else "none",
            "uids": uids,
            "rlimits": "address space, file size, processes, no core dumps",
            "disk": f"each file a block writes is capped by the kernel (RLIMIT_FSIZE) at what its folder, all "
            f"folders together ({root_cap_mb()} MiB) and the disk ({FREE_RESERVE_MB} MiB kept free) have left; "
            "the sum of many files is polled (after 1 s, then sooner the faster it grows), not bounded by the kernel",
            "missing": list(self.missing),
        }


def detect(settings: SandboxSettings) -> Isolation:
    """Find what isolation ``settings`` allow and this machine offers (runs one bubblewrap probe)."""
    iso = Isolation(root=os.geteuid() == 0, uids=settings.uids if os.geteuid() == 0 else None)
    if settings.cgroups:
        iso.cgroups, iso.cgroups_text = Cgroups.detect()
        if iso.cgroups is None:
            iso.missing.append(
                f"No cgroups for the block's process tree: {iso.cgroups_text}; memory and "
                "processes are bounded per process and per uid (rlimits) instead."
            )
    else:
        iso.missing.append("cgroups are turned off: memory and processes are bounded by rlimits only.")
    if not settings.bwrap:
        _check_python_reachable(iso)
        iso.missing.append("bubblewrap is turned off: " + _fallback(iso))
        return iso
    bwrap = shutil.which("bwrap")
    setpriv = shutil.which("setpriv") if iso.root else None
    if bwrap is None:
        _check_python_reachable(iso)
        iso.missing.append("bubblewrap (bwrap) is not installed (apt-get install bubblewrap): " + _fallback(iso))
        return iso
    if iso.root and setpriv is None:
        iso.missing.append(
            "setpriv (util-linux) is missing, so bubblewrap cannot drop to the conversation's uid: " + _fallback(iso)
        )
        return iso
    iso.bwrap, iso.setpriv = bwrap, setpriv
    try:
        filter_program()
        iso.seccomp = True
    except SeccompUnavailable as err:
        iso.missing.append(f"No seccomp filter: {err}; install libseccomp2 and the pyseccomp package.")
    done = _probe(iso, bwrap)
    if done.returncode != 0:
        _check_python_reachable(iso)
        reason = (done.stderr or "").strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        iso.missing.append(
            f"bubblewrap cannot create namespaces here ({reason[0]}); in a container it needs "
            "CAP_SYS_ADMIN and an AppArmor profile that allows mounts: " + _fallback(iso)
        )
        iso.bwrap = iso.setpriv = None
    return iso


def _probe(iso: Isolation, bwrap: str) -> subprocess.CompletedProcess[str]:
    """Run ``exit 0`` in a box as a block would get it; also reads bubblewrap's version into ``iso``."""
    probe = Path(f"/tmp/o1-probe-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        probe.mkdir(mode=0o700)
        user = (iso.uids[0], iso.uids[0]) if iso.uids else ((65534, 65534) if iso.root else None)
        fd = program_fd() if iso.seccomp else None
        try:
            argv = [*bwrap_argv(iso, probe, Limits(), False, (), user, fd), "/bin/sh", "-c", "exit 0"]
            done = subprocess.run(
                argv,
                capture_output=True,
                text=True,
                timeout=20,
                stdin=subprocess.DEVNULL,
                pass_fds=() if fd is None else (fd,),
            )
        finally:
            if fd is not None:
                os.close(fd)
        version = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=10)
        iso.bwrap_version = version.stdout.strip() or "bubblewrap"
    except (OSError, subprocess.SubprocessError) as err:
        done = subprocess.CompletedProcess([], 1, "", str(err))
    finally:
        shutil.rmtree(probe, ignore_errors=True)
    return done


def _fallback(iso: Isolation) -> str:
    """What a block runs under without bubblewrap, as a sentence."""
    who = (
        "its conversation's own uid (every process of which is killed when the block ends)"
        if iso.uids
        else "nobody (65534)"
        if iso.root
        else f"the server's own uid {os.geteuid()}"
    )
    return (
        f"blocks run as plain processes in a new session with rlimits, as {who}, without private mount, "
        "pid or network namespaces (any block can reach the network)."
    )


def python_reachable_by_others() -> bool:
    """Whether a uid other than the server's can run the server's Python (every folder on the way to the
    interpreter and its venv is passable by others), as the fallback without bubblewrap needs."""
    for path in (os.path.realpath(sys.executable), sys.prefix, sys.base_prefix):
        folder = Path(path)
        for parent in [folder, *folder.parents] if folder.is_dir() else folder.parents:
            try:
                if not parent.stat().st_mode & 0o001:
                    return False
            except OSError:
                return False
    return True


def _check_python_reachable(iso: Isolation) -> None:
    if iso.uids and not python_reachable_by_others():
        iso.missing.append(
            f"Without bubblewrap, Python blocks run as the conversation's uid, which cannot reach "
            f"the server's Python ({sys.executable}): install the server in a folder others can "
            "enter (e.g. /opt) or install bubblewrap."
        )


def isolation() -> Isolation:
    """The isolation this machine offers, detected once (runs one bubblewrap probe)."""
    return SETTINGS.isolation(detect)


def describe_isolation() -> dict[str, Any]:
    """What code blocks run under: ``{"mode": "bubblewrap"|"rlimits", "namespaces", "cgroups", "uids",
    "rlimits", "missing": [sentences]}``. ``missing`` is empty when every layer is in place."""
    return isolation().describe()


def prepare(
    sandbox_root: Path, uids: tuple[int, int] | None = DEFAULT_UIDS, disk_mb: int | None = None
) -> dict[str, Any]:
    """Server start-up: configure the uid range and the cap over all conversation folders (``disk_mb`` MiB,
    None: keep it), detect the isolation, kill what a previous (killed) server of the same sandbox root left in
    its block cgroups, and log one line per layer (a warning for each missing one). Returns
    ``describe_isolation()``. Raises ValueError for a ``disk_mb`` below 1."""
    if disk_mb is not None:
        set_root_cap(disk_mb)
    configure(uids)
    iso = isolation()
    if iso.cgroups is not None:
        left = iso.cgroups.reap(root_tag(sandbox_root))
        if left:
            _LOGGER.warning("Killed what %d block(s) of a previous server left running", left)
    info = iso.describe()
    _LOGGER.info(
        "Sandbox: %s; namespaces: %s; cgroups: %s; uids: %s",
        info["mode"],
        info["namespaces"],
        info["cgroups"],
        info["uids"],
    )
    for sentence in info["missing"]:
        _LOGGER.warning("Sandbox: %s", sentence)
    return info
