"""The Wyoming server (:class:`WyomingServer`): a listener whose connections each get an :class:`.O1EventHandler`.

Here: the sandbox-peer check before any event is read, the bound on open connections (the idlest one makes
room) and stopping. Serving one connection is :mod:`.handler`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from wyoming.error import Error
from wyoming.event import Event

from ..agent.types import Agent
from ..peer_guard import CODE as SANDBOX_PEER
from ..peer_guard import PeerGuard
from ..stt import SpeechToText
from ..tts import TextToSpeech
from .handler import O1EventHandler
from .peers import _peer_name
from .reading import FRAME_SECONDS, IDLE_SECONDS

_LOGGER = logging.getLogger(__package__)  # "o1_server.wyoming_server", its name before the package split

MAX_CONNECTIONS = 64
"""Connections served at once. When all are taken, the connection idle longest (waiting for its next event with
no utterance or text stream going, or with one that has been silent for :data:`STALE_STREAM_SECONDS`) is closed
with ``error`` code ``idle_timeout`` to make room; when none is idle, the new connection gets ``busy``."""


def _event_bytes(event: Event) -> bytes:
    """One event as it goes on the wire (header line, no data or payload)."""
    header = {"type": event.type, "data": event.data, "version": "1.10.2"}
    return (json.dumps(header, ensure_ascii=False) + "\n").encode()


class WyomingServer:
    """A Wyoming server on ``tcp://HOST:PORT`` (PORT 0 = any free port) or ``unix://PATH``.

    ``await start()`` returns the bound TCP port (0 for unix sockets); ``await stop()`` closes the listener
    and every open connection. Each connection gets its own :class:`O1EventHandler`; the speech services
    and the agent are shared. ``max_connections``, ``idle_seconds`` and ``frame_seconds``: see
    :data:`MAX_CONNECTIONS`, :data:`IDLE_SECONDS` and :data:`FRAME_SECONDS`.

    Every client is first checked by ``peer_guard`` (default: a :class:`~o1_server.peer_guard.PeerGuard`
    auditing to the agent's audit log): a client whose socket belongs to generated code gets one ``error``
    event with code ``sandbox_peer`` and is closed before any of its events is read.
    """

    def __init__(
        self,
        uri: str,
        stt: SpeechToText,
        tts: TextToSpeech,
        agent: Agent | None,
        version: str,
        *,
        max_connections: int = MAX_CONNECTIONS,
        idle_seconds: float | None = IDLE_SECONDS,
        frame_seconds: float | None = FRAME_SECONDS,
        peer_guard: PeerGuard | None = None,
    ) -> None:
        parsed = urlparse(uri)
        if parsed.scheme == "tcp":
            if parsed.hostname is None or parsed.port is None:
                raise ValueError(f"a tcp:// URI needs a host and a port: {uri!r}")
        elif parsed.scheme == "unix":
            if not parsed.path:
                raise ValueError(f"a unix:// URI needs a socket path: {uri!r}")
        else:
            raise ValueError(f"only tcp:// and unix:// URIs are supported: {uri!r}")
        self.uri = uri
        self._parsed = parsed
        self.stt, self.tts, self.agent, self.version = stt, tts, agent, version
        self._server: asyncio.AbstractServer | None = None
        self._connections: dict[asyncio.Task[Any], O1EventHandler] = {}
        self.max_connections = max_connections
        self.idle_seconds = idle_seconds
        self.frame_seconds = frame_seconds
        self.port = 0
        """Bound TCP port once started (0 for unix sockets)."""
        self.guard = peer_guard or PeerGuard.for_agent("wyoming", agent)

    async def _make_room(self) -> bool:
        """Close the idlest connection (see :meth:`O1EventHandler.idle_for`); False when none is idle."""
        now = time.monotonic()
        idle = [
            (seconds, task, handler)
            for task, handler in self._connections.items()
            if (seconds := handler.idle_for(now)) is not None
        ]
        if not idle:
            return False
        seconds, task, handler = max(idle, key=lambda item: item[0])
        _LOGGER.warning(
            "Closing the connection from %s (idle %.1f s) to make room for a new one", handler._peer, seconds
        )
        self._connections.pop(task, None)
        # Closing its socket ends its read at once (end of stream); its task then finishes on its own.
        await handler.evict("idle_timeout", f"closed after {seconds:.1f} s idle to make room for another client")
        return True

    async def _on_connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # Before anything else (even making room, which would close another client's connection).
        verdict = await self.guard.check(writer)
        if not verdict.allowed:
            with contextlib.suppress(ConnectionError, OSError, TimeoutError):
                writer.write(
                    _event_bytes(Error(text=f"connection refused: {verdict.reason}", code=SANDBOX_PEER).event())
                )
                await asyncio.wait_for(writer.drain(), 2.0)
            writer.close()
            return
        if len(self._connections) >= self.max_connections and not await self._make_room():
            _LOGGER.warning(
                "Refusing a connection from %s: %d connections are open", _peer_name(writer), len(self._connections)
            )
            with contextlib.suppress(ConnectionError, OSError):
                text = f"the server is serving {len(self._connections)} connections; try again later"
                writer.write(_event_bytes(Error(text=text, code="busy").event()))
                await writer.drain()
            writer.close()
            return
        handler = O1EventHandler(
            reader,
            writer,
            stt=self.stt,
            tts=self.tts,
            agent=self.agent,
            version=self.version,
            idle_seconds=self.idle_seconds,
            frame_seconds=self.frame_seconds,
        )
        task = asyncio.current_task()
        assert task is not None
        self._connections[task] = handler
        try:
            await handler.run()
        except asyncio.CancelledError:
            pass  # stop(): the connection task is the top of its stack (a cancelled one would be logged)
        finally:
            self._connections.pop(task, None)

    async def start(self) -> int:
        """Start listening; returns the bound TCP port (0 for unix sockets)."""
        if self._server is not None:
            return self.port
        if self._parsed.scheme == "tcp":
            self._server = await asyncio.start_server(
                self._on_connect, host=self._parsed.hostname, port=self._parsed.port
            )
            self.port = self._server.sockets[0].getsockname()[1]
        else:
            Path(self._parsed.path).unlink(missing_ok=True)
            self._server = await asyncio.start_unix_server(self._on_connect, path=self._parsed.path)
        _LOGGER.info("Wyoming server listening on %s (port %d)", self.uri, self.port)
        return self.port

    async def stop(self) -> None:
        """Stop listening and close every open connection."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        tasks = list(self._connections)
        for handler in list(self._connections.values()):
            with contextlib.suppress(Exception):
                await handler.stop()
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        if server is not None:
            await server.wait_closed()
        if self._parsed.scheme == "unix":
            Path(self._parsed.path).unlink(missing_ok=True)


async def serve_wyoming(uri: str, stt: SpeechToText, tts: TextToSpeech, agent: Agent | None, version: str) -> None:
    """Serve Wyoming on ``uri`` (e.g. ``"tcp://0.0.0.0:10700"``) until cancelled, then close cleanly."""
    server = WyomingServer(uri, stt, tts, agent, version)
    await server.start()
    try:
        await asyncio.Event().wait()
    finally:
        await server.stop()
