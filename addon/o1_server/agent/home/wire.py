"""The broker socket's wire protocol: JSON Lines, its ops, its error codes and its sizes.

One request per line (``{"op": NAME, "args": {...}}``), one answer per line (``{"ok": true, "result": ...}`` or
``{"ok": false, "error": CODE, "message": SENTENCE}``). This is what ``helpers/o1_ha.py`` speaks inside the box.
Not the parsing of untrusted JSON itself: that is ``agent/wire.py`` (:func:`loads`), shared by every transport.
"""

from __future__ import annotations

import json
from typing import Any

from ..wire import loads

MAX_LINE = 64 * 1024  # bytes per request line on the socket
MAX_CALLS = 100  # broker calls per turn
MAX_CONNECTIONS = 8  # open socket connections per turn

READ_OPS = frozenset({"entities", "states", "get_state", "find"})
CONTROL_OPS = frozenset({"turn_on", "turn_off", "toggle", "call_service"})
# ``tool`` needs read or control access depending on the tool named (see broker.READ_TOOLS).
# Reads of the home's past (home/history.py): state history, long-term statistics and the logbook.
HISTORY_OPS = frozenset({"history", "statistics", "logbook"})
# ``confirm``: a guarded action (unlocking, opening a garage door...) held until the user says yes (guard.py).
ERROR_CODES = frozenset(
    {"denied", "confirm", "not_found", "ambiguous", "invalid", "unavailable", "timeout", "ha_error"}
)


class HomeError(Exception):
    """A broker call failed. ``code`` is one of the protocol's error codes, ``message`` a spoken sentence."""

    def __init__(self, code: str, message: str, partial: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.partial = partial or []  # states of the entities a group call changed before it failed


def failure(code: str, message: str) -> dict[str, Any]:
    """A failed answer."""
    return {"ok": False, "error": code, "message": message}


def parse_request(line: bytes) -> dict[str, Any]:
    """One request line as a dict, or raise HomeError("invalid") for a line that is not a JSON object."""
    try:
        request = loads(line)
    except ValueError:
        raise HomeError("invalid", "A request must be one JSON object per line.") from None
    if not isinstance(request, dict):
        raise HomeError("invalid", "A request must be a JSON object.")
    return request


def encode(answer: dict[str, Any]) -> bytes:
    """One answer line (values JSON cannot hold are sent as their text)."""
    return json.dumps(answer, default=str).encode() + b"\n"
