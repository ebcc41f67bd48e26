"""Sandboxed execution of one code block: its own process, a working directory under the sandbox root,
a time limit, a memory limit and a cap on the output kept.

Each code block runs in a fresh process (``python -I -c`` or ``bash -c``) in a new session, so a timeout
kills the whole process group, children included. The policy layer decides *whether* a block runs; this
module only bounds *how* it runs.
"""

from __future__ import annotations

import hashlib
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

# Where the `o1_ha` helper lives: generated Python gets it pre-imported (and `import o1_ha` works too).
HELPERS_DIR = Path(__file__).resolve().parent / "helpers"
KILLED = -9


@dataclass(frozen=True)
class Limits:
    """Execution limits: seconds of wall time, MiB of address space, characters of output kept, and the
    (uid, gid) the code runs as (None: the server's own user; setting one needs root)."""

    seconds: float = 20.0
    memory_mb: int = 512
    output_chars: int = 2000
    user: tuple[int, int] | None = None


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
    """What one code block did. exit_status is the exit code, or -9 when it was killed at a limit."""

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


def conversation_dir(sandbox_root: Path, conversation_id: str, user: tuple[int, int] | None = None) -> Path:
    """Return (and create) the working directory of one conversation, always inside ``sandbox_root``.

    With ``user`` (uid, gid) the directory is handed to that user. Raises ValueError when the id would
    escape the sandbox root.
    """
    path = (sandbox_root / safe_name(conversation_id)).resolve()
    if path.parent != sandbox_root.resolve():
        raise ValueError(f"conversation id {conversation_id!r} escapes the sandbox")
    path.mkdir(parents=True, exist_ok=True)
    if user is not None and path.stat().st_uid != user[0]:
        os.chown(path, *user)
    return path


def _preexec(memory_mb: int, user: tuple[int, int] | None) -> None:
    """Child-side limits, applied between fork and exec; drops to ``user`` last."""
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # Bounds a fork bomb for unprivileged users (root is exempt: the policy denies fork bombs first).
    resource.setrlimit(resource.RLIMIT_NPROC, (256, 256))
    if user is not None:
        os.setgroups([])
        os.setgid(user[1])
        os.setuid(user[0])


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


def run_code(language: str, code: str, cwd: Path, limits: Limits, env: dict[str, str] | None = None,
             cancel: threading.Event | None = None, *, binds: tuple[str | Path, ...] = ()) -> ExecResult:
    """Run one code block and return its ExecResult; never raises for anything the code does.

    ``binds`` are host paths (the turn's Home Assistant socket) made visible inside the box at the same path;
    without a mount namespace they are visible already, so this executor only accepts them.

    The output is stdout and stderr interleaved, decoded as UTF-8 (errors replaced) and cut to
    ``limits.output_chars``; a process that keeps printing past 4x that is killed.
    """
    child_env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(cwd),
        "LANG": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        "TMPDIR": str(cwd),
    }
    child_env.update(env or {})
    argv = command_for(language, code)
    start = time.monotonic()
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=child_env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=lambda: _preexec(limits.memory_mb, limits.user),
    )
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
    timed_out = cancelled = False
    deadline = time.monotonic() + limits.seconds
    while proc.poll() is None:
        if cancel is not None and cancel.is_set():
            cancelled = True
        elif time.monotonic() >= deadline:
            timed_out = True
        else:
            try:
                proc.wait(timeout=0.1)
            except subprocess.TimeoutExpired:
                pass
            continue
        _kill_group(proc)
        proc.wait()
    thread.join(timeout=5)
    _kill_group(proc)  # stragglers left in the group by a finished parent
    text = b"".join(chunks).decode("utf-8", errors="replace")
    truncated = flooded.is_set() or len(text) > limits.output_chars
    if len(text) > limits.output_chars:
        text = text[: limits.output_chars] + f"\n[output cut at {limits.output_chars} characters]"
    if timed_out:
        text += f"\n[stopped: the code ran longer than {limits.seconds:g} seconds]"
    elif cancelled:
        text += "\n[stopped: the turn was cancelled]"
    elif flooded.is_set():
        text += "\n[stopped: the code printed too much]"
    status = KILLED if (timed_out or cancelled or flooded.is_set()) else proc.returncode
    return ExecResult(status, text.strip(), time.monotonic() - start, timed_out, truncated)


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the process group of ``proc`` (it leads its own session); ignore one that is gone."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
