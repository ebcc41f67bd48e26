"""What a code block's box shows of the host, as data: namespaces, mounts in order, environment.

:func:`mounts` lists the box's file system as :class:`Mount` records (private /proc, /dev, /dev/shm and /tmp;
read-only system folders, a few /etc files, the server's Python and the o1 helpers; the profile's granted
folders, read-only unless granted read-write; the conversation folder and the caller's binds read-write).
It decides nothing about limits and builds no command line: ``bwrap`` turns these records into bubblewrap's
arguments.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .limits import MIB, Limits

# Where the `o1_ha` helper lives: generated Python gets it pre-imported (and `import o1_ha` works too).
HELPERS_DIR = Path(__file__).resolve().parent.parent / "helpers"
# Files of /etc a program may need to start, resolve names or check certificates; nothing secret.
ETC_FILES = (
    "passwd",
    "group",
    "nsswitch.conf",
    "hosts",
    "host.conf",
    "resolv.conf",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "timezone",
    "alternatives",
    "ssl",
    "ca-certificates",
    "mime.types",
    "protocols",
    "services",
    "os-release",
    "debian_version",
    "python3",
    "python3.11",
)
# Top-level system folders shown read-only (or re-created as the same symlink, on a merged-/usr system).
SYSTEM_FOLDERS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
# Namespaces every box gets; the network one (unless the block may use the network) and, when the server is
# not root, the user one are added by ``bwrap``.
NAMESPACES = ("pid", "ipc", "uts", "cgroup-try")
HOSTNAME = "o1-sandbox"
# What a block that shares the host's network sees of /proc: a procfs shows the reader's network namespace
# (``/proc/net/tcp``, ``/proc/<pid>/net/...``: the host's listeners and connections), so such a block gets no
# procfs at all, only these system-wide files, bound read-only from the server's.
NETWORK_PROC_FILES = ("cpuinfo", "meminfo", "stat", "uptime", "loadavg", "version", "filesystems")
PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True)
class Mount:
    """One entry of the box's file system, in bubblewrap's terms.

    kind: ``proc``, ``dev``, ``tmpfs``, ``dir``, ``symlink`` (``source`` is the link's target), ``ro-bind``,
    ``bind`` (host path ``path`` at the same path; missing parent folders are made passable first) or
    ``ro-bind-try`` (the same, skipped when the host has no such path; no parents made). perms, size: of the
    folder or tmpfs made.
    """

    kind: str
    path: str
    source: str | None = None
    perms: str | None = None
    size: int | None = None


def python_paths() -> list[str]:
    """The folders of the Python that runs the server (and its venv), to show read-only in the box."""
    found: list[str] = []
    for path in (
        sys.base_prefix,
        sys.base_exec_prefix,
        sys.prefix,
        sys.exec_prefix,
        os.path.dirname(os.path.dirname(os.path.realpath(sys.executable))),
    ):
        for candidate in (os.path.abspath(path), os.path.realpath(path)):
            if candidate == "/usr" or candidate.startswith("/usr/") or candidate in found:
                continue
            found.append(candidate)
    return found


def mounts(
    cwd: Path,
    limits: Limits,
    binds: Sequence[str | os.PathLike[str]] = (),
    network: bool = False,
    folders: Sequence[tuple[str, bool]] = (),
) -> list[Mount]:
    """The box's file system for a block working in ``cwd``, in mount order. ``network``: the block shares the
    host's network namespace, so its /proc is a read-only folder of :data:`NETWORK_PROC_FILES` (no process
    folders, no ``/proc/net``, no ``/proc/self``) instead of a procfs. ``folders``: the granted host folders as
    (absolute path, writable), bound at the same path (``bind`` or ``ro-bind``; see :func:`granted`)."""
    # The private /tmp (and /proc, /dev) first: a later mount on top of a bind would hide it, and the checkout
    # (the o1 helpers) or a conversation folder may well live under /tmp.
    tmp_size = limits.tmp_mb * MIB
    if network:
        proc = [Mount("tmpfs", "/proc", perms="0555", size=MIB)]
        proc += [Mount("ro-bind-try", f"/proc/{name}") for name in NETWORK_PROC_FILES]
    else:
        proc = [Mount("proc", "/proc")]
    view = [
        *proc,
        Mount("dev", "/dev"),
        Mount("tmpfs", "/dev/shm", perms="1777", size=tmp_size),  # POSIX semaphores, multiprocessing
        Mount("tmpfs", "/tmp", perms="1777", size=tmp_size),
        Mount("ro-bind", "/usr"),
    ]
    for name in SYSTEM_FOLDERS:
        path = f"/{name}"
        if os.path.islink(path):
            view.append(Mount("symlink", path, source=os.readlink(path)))
        elif os.path.isdir(path):
            view.append(Mount("ro-bind", path))
    view.append(Mount("dir", "/etc", perms="0755"))
    view += [Mount("ro-bind-try", f"/etc/{name}") for name in ETC_FILES]
    view += [Mount("ro-bind", path) for path in python_paths()]
    view.append(Mount("ro-bind", str(HELPERS_DIR)))
    view += granted(folders, cwd)
    view.append(Mount("bind", str(cwd)))
    view += [Mount("bind", os.path.abspath(os.fspath(path))) for path in binds]
    return view


def granted(folders: Sequence[tuple[str, bool]], cwd: Path) -> list[Mount]:
    """The mounts of the granted folders: each existing folder at its own path, read-write only when granted
    so, parents before the folders inside them (a read-only grant inside a read-write one stays read-only).
    A folder that is missing, not absolute, a system folder of the box, or holding or inside the conversation
    folder's parent (the sandbox root) is left out: the box never shows the other conversations."""
    root = os.path.realpath(cwd.parent)
    shown: list[Mount] = []
    for path, writable in sorted(folders, key=lambda f: (len(f[0]), f[0])):
        real = os.path.realpath(path) if os.path.isabs(path) else ""
        if not real or real in ("/", "/tmp") or not os.path.isdir(real) or _overlaps(real, root):
            continue
        system: list[str] = ["/proc", "/dev", "/usr", "/etc", str(HELPERS_DIR), *python_paths()]
        if any(_overlaps(real, p) for p in system):
            continue
        shown.append(Mount("bind" if writable else "ro-bind", os.path.normpath(path), source=real))
    return shown


def _overlaps(path: str, folder: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is ``folder``, inside it or holds it (absolute paths)."""
    folder = os.fspath(folder).rstrip("/") or "/"
    inner, outer = sorted((path.rstrip("/") or "/", folder), key=len)
    return outer == inner or outer.startswith(inner.rstrip("/") + "/")


NO_HOME = "/nonexistent"
"""HOME and the XDG folders of every block: a path that does not exist, as for Debian's system users (Debian
Policy 9.2). Programs read their per-user configuration there (git's ``~/.gitconfig`` and
``~/.config/git/config``, curl's ``.curlrc``, wget's ``.wgetrc``, ``.netrc``...): with HOME in the writable
conversation folder, code could plant a configuration that an allowed program then obeyed."""


def environment(cwd: Path, env: dict[str, str] | None = None) -> dict[str, str]:
    """The whole environment of a block working in ``cwd``: nothing of the server's, plus ``env``. Nothing in
    it points a program at configuration the block could write: HOME and XDG are :data:`NO_HOME`, and git reads
    neither a system nor a global file (its repository's own ``.git/config`` is the classifier's business)."""
    child_env = {
        "PATH": PATH,
        "HOME": NO_HOME,
        "XDG_CONFIG_HOME": f"{NO_HOME}/.config",
        "XDG_DATA_HOME": f"{NO_HOME}/.local/share",
        "XDG_STATE_HOME": f"{NO_HOME}/.local/state",
        "XDG_CACHE_HOME": f"{NO_HOME}/.cache",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_ATTR_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
        "LANG": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "TMPDIR": str(cwd),
    }
    child_env.update(env or {})
    return child_env
