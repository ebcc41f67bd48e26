"""Append-only audit log of every code block, one JSON object per line (JSON Lines), written before code runs.

A block that runs leaves a ``start`` line (fsynced before the code starts; when it cannot be written,
:class:`AuditError`, the block must not run) and an ``end`` line; a block that never runs leaves one ``decision``
line. Home Assistant calls (``home``) and refused client connections (``peer``) leave one line each. Lines are
pure ASCII, and a line cut short never corrupts the next; space past the log's end stays allocated to it, so a
full disk does not stop it (:data:`RESERVE_BYTES`). This module does not decide what runs. The fields of
each line: see docs/server.md.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .types import CodeBlock

RESERVE_BYTES = 4 * 1024 * 1024
"""Space kept allocated to the log past its end (``fallocate`` with ``FALLOC_FL_KEEP_SIZE``): appends write into
blocks the file already owns, so a disk filled by generated code cannot stop the audit log. Topped up when
less than half of it is left."""
_FALLOC_FL_KEEP_SIZE = 1


def _libc() -> Any:
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


_LIBC = _libc()


def _reserve(fd: int, size: int) -> None:
    """Keep :data:`RESERVE_BYTES` allocated past ``size`` (the file's end), when less than half is left; a
    filesystem without ``fallocate`` (or a full disk) keeps what it has."""
    import ctypes

    allocated = os.fstat(fd).st_blocks * 512
    if allocated - size >= RESERVE_BYTES // 2:
        return
    _LIBC.fallocate(fd, _FALLOC_FL_KEEP_SIZE, ctypes.c_int64(size), ctypes.c_int64(RESERVE_BYTES))


class AuditError(Exception):
    """The audit record could not be written (disk full, I/O error, unwritable file...).

    ``message`` is one sentence fit to be spoken to the user.
    """

    def __init__(self, cause: BaseException) -> None:
        why = getattr(cause, "strerror", None) or cause.__class__.__name__
        self.message = f"I could not write the audit log ({why}), so I did not run the code."
        super().__init__(self.message)


class AuditLog:
    """Thread-safe appender and reader for ``<data_dir>/audit.jsonl`` (mode 0600)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        # Owner-only: generated code (another user in the add-on) must not read other conversations' code.
        # A log that cannot even be opened is reported by start() on every block (nothing runs), not here.
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                _reserve(fd, os.fstat(fd).st_size)
            finally:
                os.close(fd)
            if path.is_file():
                os.chmod(path, 0o600)
        except OSError:
            pass

    # ------------------------------------------------------------------ writing
    def start(self, conversation_id: str, profile: str, block: CodeBlock) -> str:
        """Write the record of a block about to run; return its record id. Raises AuditError."""
        record_id = uuid.uuid4().hex
        self._append({"event": "start", "record_id": record_id, **self._decision(conversation_id, profile, block)})
        return record_id

    def finish(self, record_id: str, block: CodeBlock) -> None:
        """Complete the record ``record_id`` with what the block did. Raises AuditError."""
        self._append({"event": "end", "record_id": record_id, "time": _now(), **_outcome(block)})

    def record(self, conversation_id: str, profile: str, block: CodeBlock) -> str:
        """Write the one record of a block whose fate is final without running (or, for callers that ran it
        themselves, with its outcome). Returns its record id. Raises AuditError."""
        record_id = uuid.uuid4().hex
        self._append(
            {
                "event": "decision",
                "record_id": record_id,
                **self._decision(conversation_id, profile, block),
                **_outcome(block),
            }
        )
        return record_id

    @staticmethod
    def _decision(conversation_id: str, profile: str, block: CodeBlock) -> dict[str, Any]:
        return {
            "time": _now(),
            "conversation_id": conversation_id,
            "profile": profile,
            "language": block.language,
            "code": block.code,
            "category": list(block.category),
            "decision": block.decision,
            "reason": block.reason,
        }

    def record_home(self, conversation_id: str, profile: str, call: dict[str, Any]) -> None:
        """Append one record of a Home Assistant broker call (``kind: "home"``): its ``op``, ``args``,
        ``access``, ``outcome`` (ok / denied / error) and ``result`` or ``error`` + ``message``.

        Raises AuditError when the record cannot be written (the broker then refuses the call).
        """
        self._append(
            {
                "event": "home",
                "kind": "home",
                "record_id": uuid.uuid4().hex,
                "time": _now(),
                "conversation_id": conversation_id,
                "profile": profile,
                **call,
            }
        )

    def record_peer(self, listener: str, peer: str, uid: int | None, reason: str, more: int = 0) -> None:
        """Append one record of a refused client connection (``kind: "peer"``): the ``listener`` (``wyoming``,
        ``http``), the ``peer`` address, the ``uid`` owning its socket (None: unknown), the ``reason`` and how
        many ``more`` were refused since the last such record (refusals are recorded at a bounded pace).
        Raises AuditError."""
        self._append(
            {
                "event": "peer",
                "kind": "peer",
                "record_id": uuid.uuid4().hex,
                "time": _now(),
                "conversation_id": None,
                "listener": listener,
                "peer": peer,
                "uid": uid,
                "reason": reason,
                "more": more,
            }
        )

    def _append(self, entry: dict[str, Any]) -> None:
        """Write one line durably (flushed and fsynced). Raises AuditError on any failure."""
        try:
            data = (json.dumps(entry, ensure_ascii=True, default=str) + "\n").encode("ascii")
        except (TypeError, ValueError) as err:  # not JSON-serialisable (a bug): still nothing may run
            raise AuditError(err) from err
        with self._lock:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
            except OSError as err:
                raise AuditError(err) from err
            try:
                size = os.fstat(fd).st_size
                if size and os.pread(fd, 1, size - 1) != b"\n":
                    data = b"\n" + data  # the last write was torn: never glue this record onto it
                view = memoryview(data)
                while view:
                    written = os.write(fd, view)
                    if written <= 0:  # pragma: no cover - os.write raises rather than returning 0
                        raise OSError(28, os.strerror(28))
                    view = view[written:]
                os.fsync(fd)
                _reserve(fd, size + len(data))
            except OSError as err:
                raise AuditError(err) from err
            finally:
                os.close(fd)

    # ------------------------------------------------------------------ reading
    def read(self, conversation_id: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Return the last ``limit`` blocks, optionally of one conversation (oldest first).

        Each block is one dict: the start (or decision) record's fields merged with its end record's
        (``exit_status``, ``seconds``, ``output_sha256``, ``output_chars``), plus ``completed`` (False for a
        block that started and has no end record: it was running, or the server died). Broken lines are
        skipped. An unreadable log reads as empty.
        """
        try:
            with self._lock:
                raw = self.path.read_bytes()
        except OSError:
            return []
        blocks: dict[str, dict[str, Any]] = {}
        order: list[dict[str, Any]] = []
        for line in raw.split(b"\n"):
            try:
                entry = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                continue
            if not isinstance(entry, dict):
                continue
            event = entry.pop("event", "decision")  # records written before 2-phase auditing have no event
            if event == "end":
                record_id = entry.get("record_id")
                start = blocks.get(record_id) if isinstance(record_id, str) else None
                if start is not None:
                    start.update({k: v for k, v in entry.items() if k not in ("time", "record_id")})
                    start["completed"] = True
                continue
            entry["completed"] = event != "start"
            entry.setdefault("exit_status", None)
            if isinstance(entry.get("record_id"), str):
                blocks[entry["record_id"]] = entry
            order.append(entry)
        if conversation_id is not None:
            order = [e for e in order if e.get("conversation_id") == conversation_id]
        return order[-limit:]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _outcome(block: CodeBlock) -> dict[str, Any]:
    output = block.output.encode("utf-8", "surrogatepass")
    return {
        "exit_status": block.exit_status,
        "seconds": round(block.seconds, 3),
        "output_sha256": hashlib.sha256(output).hexdigest(),
        "output_chars": len(block.output),
    }
