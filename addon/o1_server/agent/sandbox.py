"""Sandboxed execution of one code block, with the operating system as the boundary.

The policy layer decides *whether* a block runs; this module bounds *how* it runs, with well-kept tools:

- **bubblewrap** (``bwrap``, Debian package ``bubblewrap``) gives every block a private mount view (read-only
  ``/usr``, ``/lib*``, ``/bin``, a few harmless ``/etc`` files, the Python installation running the server
  and the o1 helpers; the conversation's own folder read-write at the same path as on the host; a private,
  size-limited ``/tmp``), private PID, IPC and UTS namespaces and no network (a private network namespace
  with only loopback) unless the caller passes ``network=True``. Nothing else of the host is visible: not
  ``/root``, not ``/data``, not the server's data folder, not other conversations. bwrap's process is PID 1
  of the block's PID namespace: when the block's command ends, or bwrap dies (``--die-with-parent``; the
  server's death reaches bwrap through ``PR_SET_PDEATHSIG``), the kernel kills every process left in it,
  double-forked daemons included.
- **a per-block cgroup** (v1 ``memory`` + ``pids`` hierarchies, or v2 with both controllers) bounds the memory
  and the number of processes of the whole process tree, and is swept with SIGKILL when the block ends.
- **rlimits** on every process: address space (per process), file size (``RLIMIT_FSIZE``: a larger write
  fails with EFBIG / SIGXFSZ), processes per uid (``RLIMIT_NPROC``), no core dumps.
- **one host uid per conversation** when the server runs as root: the conversation folder is owned by that
  uid (mode 0700) and the code runs as it (``setpriv`` drops to it inside the box with no capabilities and
  ``no_new_privs``), so two conversations can never read each other's files, even outside namespaces. The
  uids come from a configurable range (default 100000 + 65536); the folder's owner *is* the allocation
  record (a new folder gets the uid its path hashes to, probing past uids its sibling folders hold).
- **a disk-use cap** for the conversation folder: checked before each block (the block is refused with a
  sentence saying why) and every 2 s while it runs (the block is stopped); ``RLIMIT_FSIZE`` bounds a single
  file and the private ``/tmp`` is a size-limited tmpfs whose pages count against the memory cgroup.

Fallbacks are never silent: ``describe_isolation()`` (logged by the server at start-up and shown in
``/api/health``) names what is missing and what is used instead. Without bubblewrap or namespaces the block
runs as a plain process in a new session with the rlimits and, as root, its own conversation uid; every
process of that uid is killed when the block ends. Without cgroups, memory and processes are bounded per
process / per uid only. A server that is not root cannot switch uids: code runs as the server's own uid
(in bubblewrap's user namespace when unprivileged user namespaces work).
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import logging
import os
import resource
import select
import shutil
import signal
import stat as stat_mod
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_LOGGER = logging.getLogger(__name__)

# Where the `o1_ha` helper lives: generated Python gets it pre-imported (and `import o1_ha` works too).
HELPERS_DIR = Path(__file__).resolve().parent / "helpers"
KILLED = -9
REFUSED = -1  # exit_status of a block that was not started (its folder is over the disk cap)
DEFAULT_UIDS = (100000, 65536)  # first uid, how many
MIB = 1024 * 1024
# Files of /etc a program may need to start, resolve names or check certificates; nothing secret.
ETC_FILES = ("passwd", "group", "nsswitch.conf", "hosts", "host.conf", "resolv.conf", "ld.so.cache",
             "ld.so.conf", "ld.so.conf.d", "localtime", "timezone", "alternatives", "ssl", "ca-certificates",
             "mime.types", "protocols", "services", "os-release", "debian_version", "python3", "python3.11")


@dataclass(frozen=True)
class Limits:
    """Execution limits of one block.

    seconds: wall time; memory_mb: MiB for the whole process tree (cgroup) and per process (address space);
    output_chars: characters of output kept; user: (uid, gid) to run as (None: the conversation's own uid
    when the server is root, else the server's uid); processes: tasks (threads count) at once in the block
    (cgroup pids.max) and per uid (RLIMIT_NPROC); file_mb: largest file one process may write (MiB); disk_mb: cap on the conversation
    folder (MiB); tmp_mb: size of the private /tmp (MiB); files: cap on the entries (files, folders, links) in the
    conversation folder, which ``disk_mb`` cannot see (an empty file or a short symlink uses no block, only an
    inode), also reached by folders nested deeper than :data:`MAX_FOLDER_DEPTH`.
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


def resolve_user(name: str | None) -> tuple[int, int] | None:
    """Map a user name or uid to (uid, gid). Raises ValueError for an unknown user."""
    if not name:
        return None
    import pwd

    try:
        entry = pwd.getpwuid(int(name)) if name.isdigit() else pwd.getpwnam(name)
    except (KeyError, ValueError):
        raise ValueError(f"unknown sandbox user {name!r}") from None
    return entry.pw_uid, entry.pw_gid


@dataclass(frozen=True)
class ExecResult:
    """What one code block did. exit_status is the exit code, -9 when it was killed at a limit, -1 when it
    was refused before starting (the output says why)."""

    exit_status: int
    output: str
    seconds: float
    timed_out: bool = False
    truncated: bool = False


def safe_name(conversation_id: str) -> str:
    """A file name for a conversation id: its readable part plus a hash of the whole id, so that ids which
    differ only in characters a file name cannot hold ("a b", "a/b") or after 80 characters never collide."""
    readable = "".join(c if c.isalnum() or c in "-_" else "_" for c in conversation_id)[:80]
    digest = hashlib.sha256(conversation_id.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{readable}-{digest}"


# ---------------------------------------------------------------------------------------------- uids
_config_lock = threading.Lock()
_uid_lock = threading.Lock()
_uids: tuple[int, int] | None = DEFAULT_UIDS
_use_bwrap = True
_use_cgroups = True
_isolation: Isolation | None = None


def configure(uids: tuple[int, int] | None = DEFAULT_UIDS, *, bwrap: bool = True, cgroups: bool = True) -> None:
    """Set the per-conversation uid range ``(first, count)`` (None: run every conversation as the server's
    uid, or as an explicit ``Limits.user``) and whether bubblewrap and cgroups may be used (False forces the
    fallback, e.g. to test it). Forgets the detected isolation; the next block detects it again.
    Raises ValueError for a range that includes uid 0 or is empty."""
    global _uids, _use_bwrap, _use_cgroups, _isolation
    if uids is not None and (uids[0] <= 0 or uids[1] <= 0):
        raise ValueError(f"sandbox uid range {uids} must start above 0 and hold at least one uid")
    with _config_lock:
        _uids, _use_bwrap, _use_cgroups, _isolation = uids, bwrap, cgroups, None


def is_sandbox_uid(uid: int, also: tuple[int, ...] | frozenset[int] = ()) -> bool:
    """True when ``uid`` is one generated code may run as: inside the configured per-conversation range (the
    one place that range is kept; checked whether or not the server is root), or one of ``also`` (an explicit
    ``Limits.user``). The listeners use it to refuse clients whose socket a code block owns (see
    ``o1_server.peer_guard``)."""
    uids = _uids
    return (uids is not None and uids[0] <= uid < uids[0] + uids[1]) or uid in also


def code_runs_as_server_uid(also: tuple[int, ...] | frozenset[int] = ()) -> bool:
    """True when code blocks run as the server's own uid (server not root, or the uid range is off and no
    other user is set): then no local socket owner tells a block from the server itself."""
    return _per_conversation_uids() is None and not [u for u in also if u != os.geteuid()]


def parse_uid_range(text: str) -> tuple[int, int] | None:
    """Parse ``FIRST:COUNT`` (e.g. ``100000:65536``); ``off`` or empty gives None. Raises ValueError."""
    if text.strip().lower() in ("", "off", "none"):
        return None
    first, _, count = text.partition(":")
    try:
        value = (int(first), int(count or DEFAULT_UIDS[1]))
    except ValueError:
        raise ValueError(f"sandbox uid range {text!r} is not FIRST:COUNT") from None
    if value[0] <= 0 or value[1] <= 0:
        raise ValueError(f"sandbox uid range {text!r} must start above 0 and hold at least one uid")
    return value


def _per_conversation_uids() -> tuple[int, int] | None:
    """The uid range in use: only when the server is root (only root can hand out uids)."""
    return _uids if os.geteuid() == 0 else None


def conversation_uid(folder: Path) -> tuple[int, int] | None:
    """Return (uid, gid) of the conversation owning ``folder``, assigning one if it has none yet.

    The folder's owner is the record: an owner inside the range is kept; otherwise the uid its resolved path
    hashes to is taken, probing upwards past uids that sibling folders own; the folder is handed to it with
    mode 0700. Returns None when uids are not per conversation (server not root, or the range is off).
    Raises RuntimeError when every uid of the range is taken among the siblings.
    """
    uids = _per_conversation_uids()
    if uids is None:
        return None
    first, count = uids
    with _uid_lock:
        st = folder.stat()
        if first <= st.st_uid < first + count:
            uid = st.st_uid
        else:
            taken = set()
            with os.scandir(folder.parent) as entries:
                for entry in entries:
                    try:
                        taken.add(entry.stat(follow_symlinks=False).st_uid)
                    except OSError:
                        continue
            start = int.from_bytes(hashlib.sha256(os.fsencode(folder.resolve())).digest()[:8], "big") % count
            for step in range(count):
                uid = first + (start + step) % count
                if uid not in taken:
                    break
            else:
                raise RuntimeError(f"all {count} sandbox uids from {first} are taken")
        if st.st_uid != uid or st.st_gid != uid:
            os.chown(folder, uid, uid)
        if st.st_mode & 0o7777 != 0o700:
            folder.chmod(0o700)
    return uid, uid


def conversation_dir(sandbox_root: Path, conversation_id: str, user: tuple[int, int] | None = None) -> Path:
    """Return (and create) the working directory of one conversation, always inside ``sandbox_root``.

    With ``user`` (uid, gid) the directory is handed to that user; otherwise, when the server is root, to the
    conversation's own uid (see ``conversation_uid``). Raises ValueError when the id would escape the sandbox
    root.
    """
    path = (sandbox_root / safe_name(conversation_id)).resolve()
    if path.parent != sandbox_root.resolve():
        raise ValueError(f"conversation id {conversation_id!r} escapes the sandbox")
    path.mkdir(parents=True, exist_ok=True)
    if user is not None:
        if path.stat().st_uid != user[0]:
            os.chown(path, *user)
    else:
        conversation_uid(path)
    return path


# ---------------------------------------------------------------------------------------------- cgroups
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


class _Cgroups:
    """Where per-block cgroups are made: one parent folder per hierarchy (v1: memory and pids; v2: one)."""

    def __init__(self, version: int, parents: list[Path]) -> None:
        self.version = version
        self.parents = parents

    @classmethod
    def detect(cls, root: Path = Path("/sys/fs/cgroup")) -> tuple[_Cgroups | None, str]:
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
    def _detect_v2(cls, root: Path, own: str) -> tuple[_Cgroups | None, str]:
        base = root / own.lstrip("/")
        available = set((base / "cgroup.controllers").read_text().split()) if (base / "cgroup.controllers").exists() else set()
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

    def create(self, name: str, memory_bytes: int, processes: int) -> _Block:
        """Make the cgroups of one block with its limits. Raises OSError."""
        dirs = [parent / name for parent in self.parents]
        for folder in dirs:
            folder.mkdir()
        block = _Block(self.version, dirs)
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
            _Block(self.version, [parent / name for parent in self.parents if (parent / name).exists()]).remove()
        return len(names)


@dataclass
class _Block:
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


# ---------------------------------------------------------------------------------------------- detection
@dataclass
class Isolation:
    """What the sandbox uses on this machine (see ``describe_isolation``)."""

    bwrap: str | None = None
    bwrap_version: str = ""
    setpriv: str | None = None
    cgroups: _Cgroups | None = None
    cgroups_text: str = ""
    uids: tuple[int, int] | None = None
    root: bool = False
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
            "namespaces": (f"{self.bwrap_version}: private mount, pid, ipc, uts and network namespaces"
                           if self.bwrap else "none"),
            "cgroups": self.cgroups_text if self.cgroups else "none",
            "uids": uids,
            "rlimits": "address space, file size, processes, no core dumps",
            "missing": list(self.missing),
        }


def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


_LIBC = _libc()
_PR_SET_PDEATHSIG = 1


def _detect() -> Isolation:
    iso = Isolation(root=os.geteuid() == 0, uids=_per_conversation_uids())
    if _use_cgroups:
        iso.cgroups, iso.cgroups_text = _Cgroups.detect()
        if iso.cgroups is None:
            iso.missing.append(f"No cgroups for the block's process tree: {iso.cgroups_text}; memory and "
                               "processes are bounded per process and per uid (rlimits) instead.")
    else:
        iso.missing.append("cgroups are turned off: memory and processes are bounded by rlimits only.")
    if not _use_bwrap:
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
        iso.missing.append("setpriv (util-linux) is missing, so bubblewrap cannot drop to the conversation's "
                           "uid: " + _fallback(iso))
        return iso
    iso.bwrap, iso.setpriv = bwrap, setpriv
    probe = Path(f"/tmp/o1-probe-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        probe.mkdir(mode=0o700)
        user = (iso.uids[0], iso.uids[0]) if iso.uids else ((65534, 65534) if iso.root else None)
        argv = _bwrap_argv(iso, probe, Limits(), False, (), user) + ["/bin/sh", "-c", "exit 0"]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
        version = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=10)
        iso.bwrap_version = version.stdout.strip() or "bubblewrap"
    except (OSError, subprocess.SubprocessError) as err:
        done = subprocess.CompletedProcess([], 1, "", str(err))
    finally:
        shutil.rmtree(probe, ignore_errors=True)
    if done.returncode != 0:
        _check_python_reachable(iso)
        reason = (done.stderr or "").strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        iso.missing.append(f"bubblewrap cannot create namespaces here ({reason[0]}); in a container it needs "
                           "CAP_SYS_ADMIN and an AppArmor profile that allows mounts: " + _fallback(iso))
        iso.bwrap = iso.setpriv = None
    return iso


def _fallback(iso: Isolation) -> str:
    """What a block runs under without bubblewrap, as a sentence."""
    who = ("its conversation's own uid (every process of which is killed when the block ends)" if iso.uids
           else "nobody (65534)" if iso.root else f"the server's own uid {os.geteuid()}")
    return (f"blocks run as plain processes in a new session with rlimits, as {who}, without private mount, "
            "pid or network namespaces (any block can reach the network).")


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
        iso.missing.append(f"Without bubblewrap, Python blocks run as the conversation's uid, which cannot reach "
                           f"the server's Python ({sys.executable}): install the server in a folder others can "
                           "enter (e.g. /opt) or install bubblewrap.")


def isolation() -> Isolation:
    """The isolation this machine offers, detected once (runs one bubblewrap probe)."""
    global _isolation
    with _config_lock:
        if _isolation is None:
            _isolation = _detect()
        return _isolation


def describe_isolation() -> dict[str, Any]:
    """What code blocks run under: ``{"mode": "bubblewrap"|"rlimits", "namespaces", "cgroups", "uids",
    "rlimits", "missing": [sentences]}``. ``missing`` is empty when every layer is in place."""
    return isolation().describe()


def prepare(sandbox_root: Path, uids: tuple[int, int] | None = DEFAULT_UIDS) -> dict[str, Any]:
    """Server start-up: configure the uid range, detect the isolation, kill what a previous (killed) server
    of the same sandbox root left in its block cgroups, and log one line per layer (a warning for each
    missing one). Returns ``describe_isolation()``."""
    configure(uids)
    iso = isolation()
    if iso.cgroups is not None:
        left = iso.cgroups.reap(_root_tag(sandbox_root))
        if left:
            _LOGGER.warning("Killed what %d block(s) of a previous server left running", left)
    info = iso.describe()
    _LOGGER.info("Sandbox: %s; namespaces: %s; cgroups: %s; uids: %s", info["mode"], info["namespaces"],
                 info["cgroups"], info["uids"])
    for sentence in info["missing"]:
        _LOGGER.warning("Sandbox: %s", sentence)
    return info


def _root_tag(sandbox_root: Path) -> str:
    return "o1-" + hashlib.sha256(os.fsencode(Path(sandbox_root).resolve())).hexdigest()[:10]


# ---------------------------------------------------------------------------------------------- commands
def command_for(language: str, code: str) -> list[str]:
    """Return the argv that runs ``code`` in ``language`` ("python" or "shell"). Raises ValueError otherwise."""
    if language == "python":
        # -I (isolated) ignores PYTHONPATH and user site: put only the o1 helpers on sys.path, and import
        # o1_ha so the model can use it without importing it (it only talks to the turn's broker socket).
        prelude = f"import sys; sys.path.insert(0, {str(HELPERS_DIR)!r}); import o1_ha\n"
        return [sys.executable, "-I", "-c", prelude + code]
    if language == "shell":
        return ["/bin/bash", "--noprofile", "--norc", "-c", code]
    raise ValueError(f"language {language!r} is not supported")


def _python_paths() -> list[str]:
    """The folders of the Python that runs the server (and its venv), to show read-only in the box."""
    found: list[str] = []
    for path in (sys.base_prefix, sys.base_exec_prefix, sys.prefix, sys.exec_prefix,
                 os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))):
        for candidate in (os.path.abspath(path), os.path.realpath(path)):
            if candidate == "/usr" or candidate.startswith("/usr/") or candidate in found:
                continue
            found.append(candidate)
    return found


def _bwrap_argv(iso: Isolation, cwd: Path, limits: Limits, network: bool, binds: Sequence[str | os.PathLike],
                user: tuple[int, int] | None) -> list[str]:
    """bwrap's arguments up to and including the command prefix that drops to ``user`` (root only)."""
    argv = [iso.bwrap or "bwrap", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            "--die-with-parent", "--new-session", "--hostname", "o1-sandbox"]
    if not iso.root:
        argv.append("--unshare-user")
    if not network:
        argv.append("--unshare-net")
    made = {"/", "/usr", "/etc", "/tmp", "/proc", "/dev"}

    def bind(kind: str, path: str) -> None:
        # bwrap creates missing parents as root-only (0700) folders: make them passable (0755) first. They are
        # empty folders of the box's own root, so this shows nothing of the host.
        parents = [str(p) for p in reversed(Path(path).parents) if str(p) not in made]
        for parent in parents:
            argv.extend(["--perms", "0755", "--dir", parent])
            made.add(parent)
        argv.extend([kind, path, path])
        made.add(path)

    # The private /tmp (and /proc, /dev) first: a later mount on top of a bind would hide it, and the checkout
    # (the o1 helpers) or a conversation folder may well live under /tmp.
    tmp_size = str(limits.tmp_mb * MIB)
    argv += ["--proc", "/proc", "--dev", "/dev",
             "--perms", "1777", "--size", tmp_size, "--tmpfs", "/dev/shm",  # POSIX semaphores, multiprocessing
             "--perms", "1777", "--size", tmp_size, "--tmpfs", "/tmp"]
    bind("--ro-bind", "/usr")
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = f"/{name}"
        if os.path.islink(path):
            argv += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            bind("--ro-bind", path)
    argv += ["--perms", "0755", "--dir", "/etc"]
    for name in ETC_FILES:
        argv += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    for path in _python_paths():
        bind("--ro-bind", path)
    bind("--ro-bind", str(HELPERS_DIR))
    bind("--bind", str(cwd))
    for path in binds:
        bind("--bind", os.path.abspath(os.fspath(path)))
    argv += ["--chdir", str(cwd), "--"]
    if iso.root and user is not None:
        argv += [iso.setpriv or "setpriv", f"--reuid={user[0]}", f"--regid={user[1]}", "--clear-groups",
                 "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    return argv


def _preexec(limits: Limits, user: tuple[int, int] | None, drop: bool, cgroup_procs: list[str],
             parent: int) -> None:
    """Child-side set-up between fork and exec: join the block's cgroups, die with the server, rlimits,
    and (without bubblewrap) drop to ``user`` last."""
    for procs in cgroup_procs:
        with open(procs, "w") as f:
            f.write(str(os.getpid()))
    memory = limits.memory_mb * MIB
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    size = limits.file_mb * MIB
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    # Per uid: a conversation's own uid gets the block's process budget; a shared uid (the server's) keeps a
    # looser bound so the server's own threads still fit (root ignores it: the cgroup bounds root's blocks).
    dedicated = user is not None and os.geteuid() == 0
    nproc = limits.processes if dedicated else max(limits.processes, 256)
    resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
    if drop and user is not None:
        os.setgroups([])
        os.setgid(user[1])
        os.setuid(user[0])
    # Last: a change of uid clears the parent-death signal.
    _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(KILLED & 0xFF)  # the server died between fork and prctl


# ---------------------------------------------------------------------------------------------- folder
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


def _adopt_and_measure(folder: Path, user: tuple[int, int] | None, max_entries: int | None = None) -> FolderScan:
    """Walk the folder (see :func:`scan_folder`): bytes on disk and entries. When the server is root and the code
    runs as ``user``, entries put there by the server (root) or left by an older version (e.g. ``nobody``), that
    is owned by no conversation uid, with one link (never a hard link to a file elsewhere), are handed to
    ``user`` so the code can use them. Symlinks are never followed; every step is relative to an open directory."""
    adopt = user is not None and os.geteuid() == 0
    first, count = _uids or (0, 0)

    def visit(dirfd: int, name: str, _: str, st: os.stat_result) -> None:
        foreign = st.st_uid == 0 or not first <= st.st_uid < first + count
        if adopt and st.st_uid != user[0] and foreign and (stat_mod.S_ISDIR(st.st_mode) or st.st_nlink == 1):
            try:
                os.chown(name, user[0], user[1], dir_fd=dirfd, follow_symlinks=False)
            except OSError:
                pass

    return scan_folder(folder, visit if adopt else None, max_entries)


def _over_limits(scan: FolderScan, limits: Limits, running: bool = False) -> str | None:
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


# ---------------------------------------------------------------------------------------------- running
def run_code(language: str, code: str, cwd: Path, limits: Limits, env: dict[str, str] | None = None,
             cancel: threading.Event | None = None, *, network: bool = False,
             binds: Sequence[str | os.PathLike] = ()) -> ExecResult:
    """Run one code block in ``cwd`` (its conversation folder) and return its ExecResult; never raises for
    anything the code does.

    ``network=True`` shares the host's network (only when the policy allowed a ``network`` block); otherwise
    the block has loopback only. ``binds`` are host paths (files, unix sockets, folders) mounted read-write
    at the same path inside the box. The output is stdout and stderr interleaved, decoded as UTF-8 (errors
    replaced) and cut to ``limits.output_chars``; a process that keeps printing past 4x that is killed.
    Raises ValueError for an unsupported language.
    """
    iso = isolation()
    cwd = Path(cwd).resolve()
    argv = command_for(language, code)
    start = time.monotonic()
    user = limits.user or conversation_uid(cwd)
    if user is None and os.geteuid() == 0:
        user = (65534, 65534)  # root with per-conversation uids off: never run generated code as root
    try:
        over = _over_limits(_adopt_and_measure(cwd, user, limits.files), limits)
    except OSError as err:
        return ExecResult(REFUSED, f"[not run: the working folder cannot be read: {err.strerror}]", 0.0)
    if over:
        return ExecResult(REFUSED, f"[not run: this conversation's folder {over}. Delete some files first.]", 0.0)
    if iso.bwrap:
        argv = _bwrap_argv(iso, cwd, limits, network, binds, user) + argv
    elif _dedicated(user):
        _kill_uid(user)  # without namespaces: whatever an earlier block (or a killed server) left of this uid
    block = None
    if iso.cgroups is not None:
        try:
            block = iso.cgroups.create(f"{_root_tag(cwd.parent)}-{uuid.uuid4().hex[:12]}",
                                       limits.memory_mb * MIB, limits.processes)
        except OSError as err:
            _LOGGER.warning("Block runs without its cgroup: %s", err)
    child_env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(cwd),
        "LANG": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "TMPDIR": str(cwd),
    }
    child_env.update(env or {})
    procs = block.procs_files() if block else []
    parent = os.getpid()
    drop = not iso.bwrap
    try:
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=child_env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=lambda: _preexec(limits, user, drop, procs, parent),
        )
    except (OSError, subprocess.SubprocessError) as err:
        if block:
            block.remove()
        return ExecResult(REFUSED, f"[not run: the sandbox could not start: {err}]", time.monotonic() - start)
    chunks: list[bytes] = []
    size = 0
    hard_cap = max(limits.output_chars * 4, 65536)
    flooded = threading.Event()

    def reader() -> None:
        nonlocal size
        assert proc.stdout is not None
        while data := proc.stdout.read1(65536):
            if size < hard_cap:
                chunks.append(data)
            size += len(data)
            if size >= hard_cap and not flooded.is_set():
                flooded.set()
                _kill_group(proc)

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    exited = _ExitWatch(proc)
    timed_out = cancelled = False
    over_disk: str | None = None
    deadline = time.monotonic() + limits.seconds
    next_disk_check = time.monotonic() + 2
    try:
        while proc.poll() is None:
            now = time.monotonic()
            if cancel is not None and cancel.is_set():
                cancelled = True
            elif now >= deadline:
                timed_out = True
            elif now >= next_disk_check and (over_disk := _usage_over(cwd, limits)):
                pass
            else:
                if now >= next_disk_check:
                    next_disk_check = now + 2
                exited.wait(0.1)
                continue
            _stop(proc, block, user, iso)
            proc.wait()
    finally:
        # The block is over (or watching it failed): nothing it started may outlive it.
        exited.close()
        _stop(proc, block, user, iso)
        thread.join(timeout=5)
        if block:
            block.remove()
    text = b"".join(chunks).decode("utf-8", errors="replace")
    truncated = flooded.is_set() or len(text) > limits.output_chars
    if len(text) > limits.output_chars:
        text = text[: limits.output_chars] + f"\n[output cut at {limits.output_chars} characters]"
    if timed_out:
        text += f"\n[stopped: the code ran longer than {limits.seconds:g} seconds]"
    elif cancelled:
        text += "\n[stopped: the turn was cancelled]"
    elif over_disk:
        text += f"\n[stopped: this conversation's folder {over_disk}]"
    elif flooded.is_set():
        text += "\n[stopped: the code printed too much]"
    killed = timed_out or cancelled or over_disk or flooded.is_set()
    status = KILLED if killed else proc.returncode
    return ExecResult(status, text.strip(), time.monotonic() - start, timed_out, truncated)


class _ExitWatch:
    """Waits for a child process to end, woken by the kernel the moment it does: a pidfd (Linux 5.3+,
    ``os.pidfd_open``) becomes readable when the process exits. ``Popen.wait(timeout)`` polls instead, with sleeps
    growing to 50 ms, which every code block paid at its end (25 ms on average). Falls back to that where
    pidfds are missing."""

    def __init__(self, proc: subprocess.Popen) -> None:
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


def _usage_over(folder: Path, limits: Limits) -> str | None:
    """Why ``folder`` is now over its caps (see :func:`_over_limits`), or None (also when it cannot be read)."""
    try:
        return _over_limits(scan_folder(folder, None, limits.files), limits, running=True)
    except OSError:
        return None


def _stop(proc: subprocess.Popen, block: _Block | None, user: tuple[int, int] | None, iso: Isolation) -> None:
    """Kill everything of one block: bwrap's process group (its PID namespace dies with it), the block's
    cgroups, and without namespaces every process of the conversation's own uid."""
    _kill_group(proc)
    if block is not None:
        block.kill()
    if not iso.bwrap and _dedicated(user):
        _kill_uid(user)


def _dedicated(user: tuple[int, int] | None) -> bool:
    """Whether ``user`` is a conversation's own uid (from the range), so every process of it is the block's."""
    return (user is not None and os.geteuid() == 0 and _uids is not None
            and _uids[0] <= user[0] < _uids[0] + _uids[1])


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the process group of ``proc`` (it leads its own session); ignore one that is gone."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_uid(user: tuple[int, int]) -> None:
    """SIGKILL every process of ``user``'s uid: bash's built-in ``kill -KILL -1`` run as that uid."""
    try:
        subprocess.run(["/bin/bash", "--noprofile", "--norc", "-c", "kill -s KILL -- -1"], user=user[0],
                       group=user[1], extra_groups=[], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=10, cwd="/")
    except (OSError, subprocess.SubprocessError) as err:
        _LOGGER.warning("Could not kill the processes of uid %d: %s", user[0], err)
