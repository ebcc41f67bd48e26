"""Child processes of the demo: started in their own process group, always stopped as a whole."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from progress import log


def free_ports(count: int) -> list[int]:
    """Return `count` distinct TCP ports on 127.0.0.1 that are free right now."""
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) for _ in range(count)]
        for sock in socks:
            sock.bind(("127.0.0.1", 0))  # all held open together, so no port is handed out twice
        return [sock.getsockname()[1] for sock in socks]


_PR_SET_PDEATHSIG = 1
try:
    _LIBC: ctypes.CDLL | None = ctypes.CDLL("libc.so.6", use_errno=True)
except OSError:  # not glibc Linux: no parent-death signal, the normal cleanup still applies
    _LIBC = None


def _die_with_parent() -> None:
    """In the child, before exec: get SIGTERM if the demo itself dies (a safety net for SIGKILL).

    libc is loaded in the parent, so the child only makes one system call.
    """
    if _LIBC is not None:
        _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


class ManagedProcess:
    """One child process (and whatever it spawns) with its output in a log file.

    The child leads a new session, so Ctrl-C in the terminal reaches only the demo, which then stops
    the child's whole process group: SIGTERM first, SIGKILL after a grace period.
    """

    def __init__(self, name: str, argv: Sequence[str], log_path: Path):
        """Remember what to start (with the demo's environment); nothing runs before start()."""
        self.name = name
        self.argv = list(argv)
        self.log_path = log_path
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the process (call from the main thread: the parent-death signal is tied to it)."""
        with open(self.log_path, "ab") as out:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent,  # noqa: PLW1509 - started before any thread exists
            )
        log(f"{self.name}: started, pid {self._proc.pid}, log {self.log_path}")

    @property
    def exit_code(self) -> int | None:
        """Return the exit code, or None while it runs (or before it started)."""
        return None if self._proc is None else self._proc.poll()

    def ensure_running(self) -> None:
        """Raise with the end of the log if the process has exited."""
        code = self.exit_code
        if code is not None:
            raise RuntimeError(f"{self.name} exited with code {code}; its log ends with:\n{self.log_tail()}")

    def log_tail(self, lines: int = 30) -> str:
        """Return the last lines of the process's log."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join("    " + line for line in text.splitlines()[-lines:])

    def stop(self, grace: float = 15.0) -> None:
        """Stop the whole process group: SIGTERM, then SIGKILL after `grace` seconds. Idempotent."""
        if self._proc is None:
            return
        pgid = self._proc.pid  # leader of its own session, so its pid is the group id
        if self._proc.poll() is None:
            log(f"{self.name}: stopping (SIGTERM)")
            _signal_group(pgid, signal.SIGTERM)
            try:
                self._proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                log(f"{self.name}: still running after {grace:.0f} s, SIGKILL")
        # Also end helpers the leader left behind in its group (they would outlive it otherwise).
        _signal_group(pgid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=5)
        if not _group_gone(pgid, timeout=5):
            log(f"{self.name}: WARNING: processes of group {pgid} survived SIGKILL")
        log(f"{self.name}: stopped (exit code {self._proc.returncode})")
        self._proc = None


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    """Send a signal to a process group that may already be gone."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass
    except PermissionError:  # the group id was reused by someone else's process: leave it alone
        pass


def _group_gone(pgid: int, timeout: float) -> bool:
    """Return True once no process is left in the group, False if some still are after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
