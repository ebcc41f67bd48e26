"""The block's processes: set-up between fork and exec, watching for the exit, and killing what is left.

``preexec`` joins the block's cgroups, sets the rlimits, drops to the block's uid (without bubblewrap) and ties
the child to the server's life; :class:`ExitWatch` wakes on the child's exit; ``stop`` kills the process
group, the cgroups and (without namespaces) the conversation uid. Deciding when to stop is ``run``'s job.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import resource
import select
import signal
import subprocess
from typing import TYPE_CHECKING, Any

from .limits import KILLED, MIB, Limits
from .uids import dedicated

if TYPE_CHECKING:
    from .cgroups import Block
    from .detection import Isolation

_LOGGER = logging.getLogger(__package__)


def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


_LIBC = _libc()
_PR_SET_PDEATHSIG = 1


def preexec(
    limits: Limits,
    user: tuple[int, int] | None,
    drop: bool,
    cgroup_procs: list[str],
    parent: int,
    write_bytes: int | None = None,
) -> None:
    """Child-side set-up between fork and exec: join the block's cgroups, die with the server, rlimits (no file
    past ``write_bytes``, default ``limits.file_mb``: the disk the block may still use), and (without bubblewrap)
    drop to ``user`` last."""
    for procs in cgroup_procs:
        with open(procs, "w") as f:
            f.write(str(os.getpid()))
    memory = limits.memory_mb * MIB
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    size = limits.file_mb * MIB if write_bytes is None else write_bytes
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    # Per uid: a conversation's own uid gets the block's process budget; a shared uid (the server's) keeps a
    # looser bound so the server's own threads still fit (root ignores it: the cgroup bounds root's blocks).
    is_dedicated = user is not None and os.geteuid() == 0
    nproc = limits.processes if is_dedicated else max(limits.processes, 256)
    resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
    if drop and user is not None:
        os.setgroups([])
        os.setgid(user[1])
        os.setuid(user[0])
    # Last: a change of uid clears the parent-death signal.
    _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(KILLED & 0xFF)  # the server died between fork and prctl


class ExitWatch:
    """Waits for a child process to end, woken by the kernel the moment it does: a pidfd becomes readable when
    the process exits (see ``docs/sandbox.md``). Falls back to ``Popen.wait(timeout)`` where pidfds are
    missing."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self._proc = proc
        self._fd: int | None = None
        self._poll = select.poll()
        with contextlib.suppress(AttributeError, OSError):
            self._fd = os.pidfd_open(proc.pid)
            # poll(), not select(): select() refuses descriptors from 1024 up (ValueError), which a server with
            # many clients open hands out, and every block would then fail.
            self._poll.register(self._fd, select.POLLIN)

    def wait(self, seconds: float) -> None:
        """Return when the process has ended or ``seconds`` have passed."""
        if self._fd is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=seconds)
            return
        self._poll.poll(seconds * 1000)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def stop(proc: subprocess.Popen[bytes], block: Block | None, user: tuple[int, int] | None, iso: Isolation) -> None:
    """Kill everything of one block: bwrap's process group (its PID namespace dies with it), the block's
    cgroups, and without namespaces every process of the conversation's own uid."""
    kill_group(proc)
    if block is not None:
        block.kill()
    if not iso.bwrap and dedicated(user):
        kill_uid(user)


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the process group of ``proc`` (it leads its own session); ignore one that is gone."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def kill_uid(user: tuple[int, int]) -> None:
    """SIGKILL every process of ``user``'s uid: bash's built-in ``kill -KILL -1`` run as that uid."""
    try:
        subprocess.run(
            ["/bin/bash", "--noprofile", "--norc", "-c", "kill -s KILL -- -1"],
            user=user[0],
            group=user[1],
            extra_groups=[],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=10,
            cwd="/",
        )
    except (OSError, subprocess.SubprocessError) as err:
        _LOGGER.warning("Could not kill the processes of uid %d: %s", user[0], err)
