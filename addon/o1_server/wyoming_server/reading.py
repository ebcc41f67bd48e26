"""Reading Wyoming events off a connection, with framing limits and read time limits.

Same framing as ``wyoming.event.async_read_event``, but a bad line is reported (:class:`_FramingError`) instead
of being taken for the end of the stream, and every read has a time limit (:class:`_ReadTimeout`). No
event is interpreted here.
"""

from __future__ import annotations

import asyncio
from typing import Any

from wyoming.event import Event

from ..agent.wire import loads

MAX_DATA_BYTES = 1 << 20
"""Largest accepted ``data_length`` of one event, in bytes."""
MAX_PAYLOAD_BYTES = 16 << 20
"""Largest accepted ``payload_length`` of one event, in bytes (about 8 min of 16 kHz 16-bit mono)."""
IDLE_SECONDS = 120.0
"""Seconds a connection may send nothing (between events) before it is closed with ``idle_timeout``. Home
Assistant opens a connection per request (``homeassistant/components/wyoming``: ``AsyncTcpClient`` in ``stt.py``,
``tts.py`` and ``conversation.py``), so a long-idle connection is not one of its requests."""
FRAME_SECONDS = 20.0
"""Seconds one event (header line, data and payload) may take to arrive once its first byte came; slower
events end the connection with ``frame_timeout`` (a slowloris client cannot hold a slot by dribbling bytes)."""


class _FramingError(Exception):
    """An event line could not be read. ``fatal``: the byte stream can no longer be followed."""

    def __init__(self, message: str, fatal: bool) -> None:
        super().__init__(message)
        self.fatal = fatal


class _ReadTimeout(Exception):
    """No event began within the idle time (``code`` ``idle_timeout``) or one did not end in time
    (``frame_timeout``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


async def _read_event(
    reader: asyncio.StreamReader,
    idle_seconds: float | None = None,
    frame_seconds: float | None = None,
    on_begin: Any = None,
) -> Event | None:
    """Read one event (JSON header line, optional data JSON, optional payload); None at end of stream.

    Same framing as ``wyoming.event.async_read_event``, but a bad line is reported instead of being
    taken for the end of the stream. ``idle_seconds`` bounds the wait for the event's first byte and
    ``frame_seconds`` the time from that byte to the event's last one (None: no limit); ``on_begin()`` is
    called when the first byte came. Raises :class:`_ReadTimeout` when a limit passes.
    """
    try:
        async with asyncio.timeout(idle_seconds):
            first = await reader.read(1)
    except TimeoutError:
        raise _ReadTimeout("idle_timeout", f"nothing received for {idle_seconds:g} s; closing") from None
    if not first:
        return None
    if on_begin is not None:
        on_begin()
    try:
        async with asyncio.timeout(frame_seconds):
            return await _read_rest(reader, first)
    except TimeoutError:
        raise _ReadTimeout(
            "frame_timeout", f"an event took longer than {frame_seconds:g} s to arrive; closing"
        ) from None


async def _read_rest(reader: asyncio.StreamReader, first: bytes) -> Event | None:
    """The rest of an event whose first byte was ``first`` (see :func:`_read_event`)."""
    if first == b"\n":
        line = first
    else:
        try:
            line = first + await reader.readline()
        except ValueError as err:  # line over the StreamReader limit: cannot resynchronise
            raise _FramingError(f"event header line too long: {err}", fatal=True) from err
    if not line.strip():
        raise _FramingError("empty event line", fatal=False)
    try:
        header = loads(line)
    except ValueError as err:
        raise _FramingError(f"event header is not JSON: {err}", fatal=False) from err
    if not isinstance(header, dict) or not isinstance(header.get("type"), str):
        raise _FramingError("event header must be a JSON object with a string 'type'", fatal=False)
    data = header.get("data")
    data_length = header.get("data_length")
    payload_length = header.get("payload_length")
    for name, value, limit in (
        ("data_length", data_length, MAX_DATA_BYTES),
        ("payload_length", payload_length, MAX_PAYLOAD_BYTES),
    ):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0 or value > limit):
            raise _FramingError(f"bad {name} {value!r} (0..{limit} bytes)", fatal=True)
    try:  # read the whole event first, so that a bad part leaves the stream in step
        block = await reader.readexactly(data_length) if data_length else b""
        payload = await reader.readexactly(payload_length) if payload_length else None
    except asyncio.IncompleteReadError:
        return None
    if data is None:
        data = {}
    elif not isinstance(data, dict):
        raise _FramingError("event 'data' must be a JSON object", fatal=False)
    if block:
        try:
            extra = loads(block)
        except ValueError as err:
            raise _FramingError(f"event data is not JSON: {err}", fatal=False) from err
        if not isinstance(extra, dict):
            raise _FramingError("event data must be a JSON object", fatal=False)
        data = {**data, **extra}
    return Event(type=header["type"], data=data, payload=payload)
