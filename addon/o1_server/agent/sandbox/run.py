"""Running one code block: the steps of :func:`run_code`, from the refusal checks to the result.

It picks the block's uid, refuses a block whose folder is over its caps, starts it (in bubblewrap and its
cgroup when this machine has them), watches the clock, the cancel event, the folder and the output, and
kills everything of the block when it ends. The box and the limits themselves are described elsewhere
(``view``, ``limits``).
"""

from __future__ import annotations

import dataclasses
import io
import logging
import os
import re
import secrets
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from .bwrap import bwrap_argv
from .cgroups import Block, root_tag
from .detection import Isolation, isolation
from .disk import Budget, block_budget, note_usage
from .folder import FolderScan, adopt_and_measure, over_limits, scan_folder
from .limits import KILLED, MIB, REFUSED, ExecResult, Limits
from .processes import ExitWatch, kill_group, kill_uid, preexec, stop
from .seccomp import program_fd
from .uids import conversation_uid, dedicated
from .view import HELPERS_DIR, environment

_LOGGER = logging.getLogger(__package__)
VALUES_MARKER = "\x1eo1-values "
"""How the values report of a Python block starts (helpers/o1_values.py writes it, agent/carried.py reads it)."""
DISK_CHECK_SECONDS = 1.0
"""Longest time (seconds) between two measures of a running block's folder: what its per-file write budget
cannot bound (many files) is polled, never enforced by the kernel (docs/sandbox.md, "Disk")."""
MIN_DISK_CHECK_SECONDS = 0.05
"""Shortest time (seconds) between two measures: a folder growing fast towards its cap is measured this often."""


def command_for(language: str, code: str, nonce: str = "") -> list[str]:
    """Return the argv that runs ``code`` in ``language`` ("python" or "shell"). Raises ValueError otherwise.
    ``nonce``: the run's own token for a Python block's values report (:func:`split_report`); none, no report."""
    if language == "python":
        # -I (isolated) ignores PYTHONPATH and user site: put only the o1 helpers on sys.path, and import
        # o1_ha so the model can use it without importing it (it only talks to the turn's broker socket).
        # o1_values reports the block's top-level values when it ends (ExecResult.report).
        prelude = f"import sys; sys.path.insert(0, {str(HELPERS_DIR)!r}); import o1_ha"
        if nonce:
            prelude += f", o1_values as _o1_values; _o1_values.keep({nonce!r})"
        return [sys.executable, "-I", "-c", prelude + "\n" + code]
    if language == "shell":
        return ["/bin/bash", "--noprofile", "--norc", "-c", code]
    raise ValueError(f"language {language!r} is not supported")


def run_code(
    language: str,
    code: str,
    cwd: Path,
    limits: Limits,
    env: dict[str, str] | None = None,
    cancel: threading.Event | None = None,
    *,
    network: bool = False,
    binds: Sequence[str | os.PathLike[str]] = (),
    folders: Sequence[tuple[str, bool]] = (),
) -> ExecResult:
    """Run one code block in ``cwd`` (its conversation folder) and return its ExecResult; never raises for
    anything the code does.

    ``network=True`` shares the host's network (only when the policy allowed a ``network`` block); otherwise
    the block has loopback only. ``binds`` are host paths (files, unix sockets, folders) mounted read-write
    at the same path inside the box. ``folders`` are the profile's granted host folders as (absolute path,
    writable), bound at the same path, read-only unless writable (``view.granted``); without bubblewrap
    nothing is bound or hidden: the block sees the host as its uid may, and only the classifier and the
    file permissions stand between it and a read-only folder. The output is stdout and stderr interleaved,
    decoded as UTF-8 (errors replaced) and cut to ``limits.output_chars``; a process that keeps printing past
    4x that is killed. Raises ValueError for an unsupported language.
    """
    iso = isolation()
    cwd = Path(cwd).resolve()
    nonce = secrets.token_hex(16)  # what a file's text printed by the block cannot hold (split_report)
    argv = command_for(language, code, nonce)
    start = time.monotonic()
    user = _block_user(cwd, limits)
    refused, budget, scan = _refusal(cwd, user, limits)
    if refused is not None or budget is None or scan is None:
        return refused or ExecResult(REFUSED, "[not run]", 0.0)
    seccomp_fd: int | None = None
    try:
        if iso.bwrap:
            seccomp_fd = program_fd() if iso.seccomp else None
            argv = bwrap_argv(iso, cwd, limits, network, binds, user, seccomp_fd, folders) + argv
        elif dedicated(user):
            kill_uid(user)  # without namespaces: whatever an earlier block (or a killed server) left of this uid
        block = _make_block(iso, cwd, limits)
        try:
            proc = _spawn(argv, cwd, environment(cwd, env), limits, user, iso, block, budget.bytes, seccomp_fd)
        except (OSError, ValueError, subprocess.SubprocessError) as err:  # ValueError: a NUL byte in the code
            if block:
                block.remove()
            return ExecResult(REFUSED, f"[not run: the sandbox could not start: {err}]", time.monotonic() - start)
    except OSError as err:  # no memfd for the filter: the block does not start without it
        return ExecResult(REFUSED, f"[not run: the sandbox could not start: {err}]", time.monotonic() - start)
    finally:
        if seccomp_fd is not None:
            os.close(seccomp_fd)
    output = _Output(proc, limits)
    ending = _watch(proc, block, user, iso, _DiskWatch(cwd, limits, budget, scan, start), cancel, output)
    result = _result(proc, output, ending, limits, start, nonce)
    if language == "python":  # the traceback counts the prelude's line: the model's own lines are one less
        result = dataclasses.replace(result, output=shift_lines(result.output, PRELUDE_LINES))
    return result


def _block_user(cwd: Path, limits: Limits) -> tuple[int, int] | None:
    """The (uid, gid) a block in ``cwd`` runs as (None: the server's own)."""
    user = limits.user or conversation_uid(cwd)
    if user is None and os.geteuid() == 0:
        user = (65534, 65534)  # root with per-conversation uids off: never run generated code as root
    return user


def _refusal(
    cwd: Path, user: tuple[int, int] | None, limits: Limits
) -> tuple[ExecResult | None, Budget | None, FolderScan | None]:
    """The result of a block that may not start because of its folder, the sandbox root's global cap or a full
    disk (handing the folder to ``user`` first), or None; what the block may write (``disk.Budget``) and the
    folder's measure before it."""
    try:
        scan = adopt_and_measure(cwd, user, limits.files)
    except OSError as err:
        return ExecResult(REFUSED, f"[not run: the working folder cannot be read: {err.strerror}]", 0.0), None, None
    over = over_limits(scan, limits)
    if over:
        refusal = f"[not run: this conversation's folder {over}. Delete some files first.]"
        return ExecResult(REFUSED, refusal, 0.0), None, None
    budget = block_budget(cwd, scan.bytes, limits.disk_mb * MIB, limits.file_mb * MIB, limits.files)
    if budget.refused is not None:
        return ExecResult(REFUSED, f"[not run: {budget.refused}]", 0.0), None, None
    budget.total += scan.bytes  # from here on: the folder's size the block may reach
    return None, budget, scan


def _make_block(iso: Isolation, cwd: Path, limits: Limits) -> Block | None:
    """The block's own cgroups, or None (no cgroups here, or they could not be made: logged)."""
    if iso.cgroups is None:
        return None
    try:
        return iso.cgroups.create(
            f"{root_tag(cwd.parent)}-{uuid.uuid4().hex[:12]}", limits.memory_mb * MIB, limits.processes
        )
    except OSError as err:
        _LOGGER.warning("Block runs without its cgroup: %s", err)
        return None


def _spawn(
    argv: list[str],
    cwd: Path,
    child_env: dict[str, str],
    limits: Limits,
    user: tuple[int, int] | None,
    iso: Isolation,
    block: Block | None,
    write_bytes: int,
    seccomp_fd: int | None = None,
) -> subprocess.Popen[bytes]:
    """Start the block's process, leading its own session (``seccomp_fd`` is passed on to bubblewrap), with no
    file larger than ``write_bytes``. Raises OSError or SubprocessError."""
    procs = block.procs_files() if block else []
    parent = os.getpid()
    drop = not iso.bwrap
    return subprocess.Popen(
        argv,
        cwd=cwd,
        env=child_env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        pass_fds=() if seccomp_fd is None else (seccomp_fd,),
        preexec_fn=lambda: preexec(limits, user, drop, procs, parent, write_bytes),
    )


class _Output:
    """The block's output, read on a thread; a block that prints past the hard cap is killed."""

    def __init__(self, proc: subprocess.Popen[bytes], limits: Limits) -> None:
        self._proc = proc
        self.chunks: list[bytes] = []
        self.size = 0
        self.hard_cap = max(limits.output_chars * 4, 65536)
        self.flooded = threading.Event()
        self._thread = threading.Thread(target=self.reader, daemon=True)
        self._thread.start()

    def reader(self) -> None:
        assert self._proc.stdout is not None
        stdout = cast("io.BufferedReader", self._proc.stdout)  # a binary pipe with the default buffering
        while data := stdout.read1(65536):
            if self.size < self.hard_cap:
                self.chunks.append(data)
            self.size += len(data)
            if self.size >= self.hard_cap and not self.flooded.is_set():
                self.flooded.set()
                kill_group(self._proc)

    def join(self, timeout: float) -> None:
        self._thread.join(timeout=timeout)

    def text(self) -> str:
        return b"".join(self.chunks).decode("utf-8", errors="replace")


class _DiskWatch:
    """When and how a running block's folder is measured: :data:`DISK_CHECK_SECONDS` after its start, then again
    in half the time its growth rate since the last measure needs to reach a cap (its folder's entries and
    bytes, the global cap, the free space: ``budget.total``), between :data:`MIN_DISK_CHECK_SECONDS` and
    :data:`DISK_CHECK_SECONDS`. Polling, not a kernel bound: what a block writes between two measures lands."""

    def __init__(self, folder: Path, limits: Limits, budget: Budget, before: FolderScan, start: float) -> None:
        self.folder, self.limits, self.budget = folder, limits, budget
        self.due = start + DISK_CHECK_SECONDS
        self.last = (start, before.bytes, before.entries)  # time, bytes, entries of the last measure

    def over(self, now: float) -> str | None:
        """Measure the folder now: why the block must stop (the end of "[stopped: ...]"), or None."""
        try:
            scan = scan_folder(self.folder, None, self.limits.files)
        except OSError:
            self.due = now + DISK_CHECK_SECONDS
            return None
        over = over_limits(scan, self.limits, running=True)
        if over:
            return f"this conversation's folder {over}"
        if scan.bytes > self.budget.total:
            return self.budget.past_total
        then, before, entries = self.last
        wait = DISK_CHECK_SECONDS
        elapsed = max(now - then, 1e-3)
        if scan.bytes > before:
            wait = min(wait, (self.budget.total - scan.bytes) / ((scan.bytes - before) / elapsed) / 2)
        if scan.entries > entries:
            wait = min(wait, (self.limits.files - scan.entries) / ((scan.entries - entries) / elapsed) / 2)
        self.last = (now, scan.bytes, scan.entries)
        self.due = now + max(MIN_DISK_CHECK_SECONDS, wait)
        return None


@dataclass
class _Ending:
    """Why the block was stopped, if it was."""

    timed_out: bool = False
    cancelled: bool = False
    over_disk: str | None = None


def _watch(
    proc: subprocess.Popen[bytes],
    block: Block | None,
    user: tuple[int, int] | None,
    iso: Isolation,
    disk: _DiskWatch,
    cancel: threading.Event | None,
    output: _Output,
) -> _Ending:
    """Wait for the block to end, stopping it at its deadline, on ``cancel`` or when its folder grows past its
    caps or its disk budget (measured as :class:`_DiskWatch` says); then kill whatever of it is left, remove its
    cgroups and note what the folder uses now."""
    cwd, limits = disk.folder, disk.limits
    exited = ExitWatch(proc)
    ending = _Ending()
    deadline = time.monotonic() + limits.seconds
    try:
        while proc.poll() is None:
            now = time.monotonic()
            if cancel is not None and cancel.is_set():
                ending.cancelled = True
            elif now >= deadline:
                ending.timed_out = True
            elif now >= disk.due and (over_disk := disk.over(now)):
                ending.over_disk = over_disk
            else:
                exited.wait(max(0.0, min(0.1, disk.due - now)))
                continue
            stop(proc, block, user, iso)
            proc.wait()
    finally:
        # The block is over (or watching it failed): nothing it started may outlive it.
        exited.close()
        stop(proc, block, user, iso)
        output.join(timeout=5)
        if block:
            block.remove()
        try:
            note_usage(cwd, scan_folder(cwd, None, limits.files).bytes)
        except OSError:
            pass
    return ending


def _result(
    proc: subprocess.Popen[bytes], output: _Output, ending: _Ending, limits: Limits, start: float, nonce: str = ""
) -> ExecResult:
    """The ExecResult of a block that has ended: its output, cut to size, and why it was stopped."""
    text, report = split_report(output.text(), nonce)
    flooded = output.flooded
    truncated = flooded.is_set() or len(text) > limits.output_chars
    if len(text) > limits.output_chars:
        text = text[: limits.output_chars] + f"\n[output cut at {limits.output_chars} characters]"
    if ending.timed_out:
        text += f"\n[stopped: the code ran longer than {limits.seconds:g} seconds]"
    elif ending.cancelled:
        text += "\n[stopped: the turn was cancelled]"
    elif ending.over_disk:
        text += f"\n[stopped: {ending.over_disk}]"
    elif flooded.is_set():
        text += "\n[stopped: the code printed too much]"
    killed = ending.timed_out or ending.cancelled or ending.over_disk or flooded.is_set()
    status = KILLED if killed else proc.returncode
    report = None if killed else report  # a killed block never wrote one: a line that says so is forged
    return ExecResult(status, text.strip(), time.monotonic() - start, ending.timed_out, truncated, report)


PRELUDE_LINES = 1
"""Lines :func:`command_for` puts before a Python block (its prelude)."""
_TRACEBACK_LINE = re.compile(r'(File "<string>", line )(\d+)')


def shift_lines(output: str, by: int, where: re.Pattern[str] = _TRACEBACK_LINE) -> str:
    """``output`` of a Python block with the line numbers of its tracebacks (``File "<string>", line 4``; or
    what ``where`` finds, its groups the text before the number and the number) made ``by`` less: the lines of
    the block as its writer counts them, when ``by`` lines ran before it (the prelude, carried values, added
    imports). A line inside those ``by`` is left as it is."""
    if by <= 0:
        return output

    def shifted(match: re.Match[str]) -> str:
        line = int(match.group(2))
        return match.group(1) + str(line - by) if line > by else match.group(0)

    return where.sub(shifted, output)


def split_report(text: str, nonce: str) -> tuple[str, str | None]:
    """``text`` (a block's output) without the values report helpers/o1_values.py writes at exit (a line of
    :data:`VALUES_MARKER`, the run's ``nonce`` and JSON), and the report's JSON text; None when there is none.
    The report is taken wherever it stands (an object's ``__del__`` may print after it); a line with another
    token (a file's text printed by the block) is left as printed, and two lines with the run's token (the
    code read its own command line) give no report."""
    if not nonce:
        return text, None
    start = f"{VALUES_MARKER}{nonce} "
    lines = text.split("\n")
    found = [i for i, line in enumerate(lines) if line.startswith(start)]
    if not found:
        return text, None
    rest = "\n".join(line for i, line in enumerate(lines) if i not in found)
    return rest, (lines[found[0]][len(start) :].strip() if len(found) == 1 else None)
