"""Read deadlines of the HTTP API: a client must finish its request headers, then its body, in bounded time.

aiohttp bounds neither (its keep-alive timer only closes connections idle between requests, after an hour):
:class:`DeadlineSite` wraps each connection's protocol and closes one whose request headers are not complete
within ``header_seconds`` of their first byte (or of the connection, or of the last answer: a pipelined request
waits unseen in aiohttp's parser, so an idle keep-alive connection also closes after ``header_seconds``);
:meth:`Deadlines.body_middleware` reads a
request's body within ``body_seconds`` or answers ``408`` and closes. A request being answered is never cut,
however long it streams (``/api/conversation/stream``, the 01 WebSocket).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Handler

_LOGGER = logging.getLogger(__name__)
KEEPALIVE_SECONDS = 75.0
"""Seconds an idle keep-alive connection stays open between requests (longer than aiohttp clients' 15 s, so a
client never sends on a connection the server is closing)."""


class Deadlines:
    """The read deadlines of one HTTP app. ``header_seconds``: from a request's first byte (or the connection's
    start) to its complete headers; ``body_seconds``: to read its whole body once the headers are in.
    Raises ValueError for a deadline that is not positive."""

    def __init__(self, header_seconds: float = 10.0, body_seconds: float = 30.0) -> None:
        if header_seconds <= 0 or body_seconds <= 0:
            raise ValueError("HTTP read deadlines must be positive")
        self.header_seconds = header_seconds
        self.body_seconds = body_seconds
        self._connections: dict[asyncio.BaseTransport, _Connection] = {}

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The app's first middleware: the request's headers are complete, and its connection is not cut while
        the request is answered."""
        connection = self._connections.get(request.transport) if request.transport is not None else None
        if connection is None:
            return await handler(request)
        connection.answering += 1
        connection.disarm()
        try:
            return await handler(request)
        finally:
            connection.answering -= 1
            # The next request's headers are on the clock from now: a pipelined one may already have begun
            # (its bytes wait in aiohttp's parser, out of sight), so an idle connection closes after as long.
            connection.arm()

    @web.middleware
    async def body_middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Read a request's whole body within ``body_seconds`` (aiohttp keeps it: the handler's own ``read()``
        gets these bytes), else answer :meth:`timed_out` and close the connection. A ``multipart/*`` body is
        left to its handler (it streams parts, larger than a JSON body may be), which reads it within the same
        deadline (``api.put_files``)."""
        if request.body_exists and not request.content_type.startswith("multipart/"):
            try:
                async with asyncio.timeout(self.body_seconds):
                    await request.read()
            except TimeoutError:
                return self.timed_out()
        return await handler(request)

    def timed_out(self) -> web.Response:
        """``408 {"error": "request_timeout", "message"}``, closing the connection."""
        response = web.json_response(
            {
                "error": "request_timeout",
                "message": f"The request body did not arrive within {self.body_seconds:g} seconds.",
            },
            status=408,
        )
        response.force_close()
        return response

    def site(self, runner: web.AppRunner, host: str, port: int) -> DeadlineSite:
        """A TCP site of ``runner`` whose connections keep these deadlines."""
        return DeadlineSite(runner, self, host, port)


class _Connection(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind a deadline on unfinished request headers."""

    def __init__(self, inner: asyncio.Protocol, deadlines: Deadlines) -> None:
        self.inner = inner
        self.deadlines = deadlines
        self.answering = 0
        self.transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None

    def arm(self) -> None:
        if self._timer is None and self.answering == 0:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(self.deadlines.header_seconds, self._expire)

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expire(self) -> None:
        self._timer = None
        if self.answering == 0 and self.transport is not None and not self.transport.is_closing():
            _LOGGER.info("Closing an HTTP connection whose request headers did not arrive in time")
            self.transport.abort()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.deadlines._connections[transport] = self
        self.arm()  # a connection that never sends a whole request is closed too
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.arm()  # a request begins (or goes on) while none is being answered: its headers are on the clock
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm()
        if self.transport is not None:
            self.deadlines._connections.pop(self.transport, None)
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class DeadlineSite(web.TCPSite):
    """``web.TCPSite`` whose connections are wrapped by :class:`Deadlines` (see the module docstring)."""

    def __init__(self, runner: web.AppRunner, deadlines: Deadlines, host: str, port: int, **kwargs: Any) -> None:
        super().__init__(runner, host, port, **kwargs)
        self._deadlines = deadlines

    async def start(self) -> None:
        """Listen (as ``TCPSite.start``) with each connection's protocol behind the deadlines."""
        self._runner._reg_site(self)
        server = self._runner.server
        assert server is not None
        deadlines = self._deadlines
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            lambda: _Connection(server(), deadlines),
            self._host,
            self._port,
            backlog=self._backlog,
            reuse_address=self._reuse_address,
            reuse_port=self._reuse_port,
        )
        sockets = self._server.sockets
        self._bound_port = sockets[0].getsockname()[1] if sockets else self._port
