"""bubblewrap's command line for one block, built from the box's description in ``view``.

It adds the namespaces, the mounts in order (with the parent folders bubblewrap would otherwise make
root-only) and, as root, the ``setpriv`` prefix that drops to the block's uid. It runs nothing: whether
bubblewrap works here is found out in ``detection``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .limits import Limits
from .view import HOSTNAME, NAMESPACES, Mount, mounts

if TYPE_CHECKING:
    from .detection import Isolation

# Folders of the box's own root that need no ``--dir`` before something is mounted under them.
_MADE = ("/", "/usr", "/etc", "/tmp", "/proc", "/dev")
_WITH_SOURCE = ("ro-bind", "bind", "ro-bind-try", "symlink")


def bwrap_argv(
    iso: Isolation,
    cwd: Path,
    limits: Limits,
    network: bool,
    binds: Sequence[str | os.PathLike[str]],
    user: tuple[int, int] | None,
    seccomp_fd: int | None = None,
    folders: Sequence[tuple[str, bool]] = (),
) -> list[str]:
    """bwrap's arguments up to and including the command prefix that drops to ``user`` (root only).
    ``seccomp_fd``: a descriptor holding the compiled seccomp filter (``seccomp.program_fd``), which the
    caller passes to bubblewrap (``pass_fds``). ``folders``: the granted host folders as (path, writable)."""
    argv = [
        iso.bwrap or "bwrap",
        *(f"--unshare-{name}" for name in NAMESPACES),
        "--die-with-parent",
        "--new-session",
        "--hostname",
        HOSTNAME,
    ]
    if not iso.root:
        argv.append("--unshare-user")
    if not network:
        argv.append("--unshare-net")
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    made = set(_MADE)
    for mount in mounts(cwd, limits, binds, network, folders):
        argv += _mount_args(mount, made)
    argv += ["--chdir", str(cwd), "--"]
    if iso.root and user is not None:
        argv += [
            iso.setpriv or "setpriv",
            f"--reuid={user[0]}",
            f"--regid={user[1]}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--",
        ]
    return argv


def _mount_args(mount: Mount, made: set[str]) -> list[str]:
    """bwrap's arguments for one mount; ``made`` is the set of the box's folders that exist so far."""
    args: list[str] = []
    if mount.kind in ("ro-bind", "bind"):
        # bwrap creates missing parents as root-only (0700) folders: make them passable (0755) first. They are
        # empty folders of the box's own root, so this shows nothing of the host.
        for parent in [str(p) for p in reversed(Path(mount.path).parents) if str(p) not in made]:
            args += ["--perms", "0755", "--dir", parent]
            made.add(parent)
        made.add(mount.path)
    if mount.perms is not None:
        args += ["--perms", mount.perms]
    if mount.size is not None:
        args += ["--size", str(mount.size)]
    args.append(f"--{mount.kind}")
    if mount.kind in _WITH_SOURCE:
        args.append(mount.path if mount.source is None else mount.source)
    args.append(mount.path)
    return args
