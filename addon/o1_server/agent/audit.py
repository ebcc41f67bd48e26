"""Append-only audit log of every code block and Home Assistant call, one JSON object per line (JSON Lines).

Home Assistant calls are records with ``kind: "home"`` (see ``record_home``). Each code block record: time (ISO 8601, UTC), conversation_id, profile, language, code, category (list), decision,
reason, exit_status, seconds, output_sha256 (hex digest of the full output) and output_chars.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .types import CodeBlock


class AuditLog:
    """Thread-safe appender and reader for ``<data_dir>/audit.jsonl``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        # Owner-only: generated code (another user in the add-on) must not read other conversations' code.
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
        os.chmod(path, 0o600)

    def record(self, conversation_id: str, profile: str, block: CodeBlock) -> None:
        """Append one record for ``block`` (flushed and fsynced before returning)."""
        entry = {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "conversation_id": conversation_id,
            "profile": profile,
            "language": block.language,
            "code": block.code,
            "category": block.category,
            "decision": block.decision,
            "reason": block.reason,
            "exit_status": block.exit_status,
            "seconds": round(block.seconds, 3),
            "output_sha256": hashlib.sha256(block.output.encode("utf-8")).hexdigest(),
            "output_chars": len(block.output),
        }
        line = json.dumps(entry, ensure_ascii=False) + "\n"
        with self._lock, self.path.open("a", encoding="utf-8") as f:
            f.write(line)
            f.flush()

    def record_home(self, conversation_id: str, profile: str, call: dict[str, Any]) -> None:
        """Append one record of a Home Assistant broker call (``kind: "home"``): its ``op``, ``args``,
        ``access``, ``outcome`` (ok / denied / error) and ``result`` or ``error`` + ``message``."""
        entry = {"time": datetime.now(UTC).isoformat(timespec="milliseconds"), "kind": "home",
                 "conversation_id": conversation_id, "profile": profile, **call}
        line = json.dumps(entry, ensure_ascii=False, default=str) + "\n"
        with self._lock, self.path.open("a", encoding="utf-8") as f:
            f.write(line)
            f.flush()

    def read(self, conversation_id: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Return the last ``limit`` records, optionally of one conversation (oldest first)."""
        if not self.path.exists():
            return []
        with self._lock:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        records = []
        for line in lines:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if conversation_id is None or entry.get("conversation_id") == conversation_id:
                records.append(entry)
        return records[-limit:]
