"""The limits of one code block and what it did: plain values, no behaviour.

``Limits`` is what the caller asks for, ``ExecResult`` what :func:`run_code` hands back, and the constants
name the special exit statuses and the default uid range. Nothing here touches the system.
"""

from __future__ import annotations

from dataclasses import dataclass

KILLED = -9
REFUSED = -1  # exit_status of a block that was not started (its folder is over the disk cap)
DEFAULT_UIDS = (100000, 65536)  # first uid, how many
MIB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """Execution limits of one block.

    seconds: wall time; memory_mb: MiB for the whole process tree (cgroup) and per process (address space);
    output_chars: characters of output kept; user: (uid, gid) to run as (None: the conversation's own uid
    when the server is root, else the server's uid); processes: tasks (threads count) at once in the block
    (cgroup pids.max) and per uid (RLIMIT_NPROC); file_mb: largest file one process may write (MiB); disk_mb:
    cap on the conversation folder (MiB); tmp_mb: size of the private /tmp (MiB); files: cap on the entries
    (files, folders, links) in the conversation folder, which ``disk_mb`` cannot see (an empty file or a short
    symlink uses no block, only an inode), also reached by folders nested deeper than :data:`MAX_FOLDER_DEPTH`.
    """

    seconds: float = 20.0
    memory_mb: int = 512
    output_chars: int = 2000
    user: tuple[int, int] | None = None
    processes: int = 128
    file_mb: int = 256
    disk_mb: int = 1024
    tmp_mb: int = 64
    files: int = 20_000


@dataclass(frozen=True)
class ExecResult:
    """What one code block did. exit_status is the exit code, -9 when it was killed at a limit, -1 when it
    was refused before starting (the output says why). report: the JSON text of a Python block's top-level
    values, split off its output (helpers/o1_values.py), None when it wrote none."""

    exit_status: int
    output: str
    seconds: float
    timed_out: bool = False
    truncated: bool = False
    report: str | None = None
