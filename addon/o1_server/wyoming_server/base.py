"""The common base of :class:`.O1EventHandler`'s mixins: what every mixin uses of the connection.

It declares types only (for the type checker): the streams and ``write_event`` are wyoming's
``AsyncEventHandler``'s, ``_peer`` and ``_send_error`` :class:`.O1EventHandler`'s. It adds no behaviour.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wyoming.event import Event


class _HandlerBase:
    """The connection as the mixins see it; each mixin declares its own state besides."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    _peer: str  # the client, as logged

    if TYPE_CHECKING:

        async def write_event(self, event: Event) -> None: ...  # AsyncEventHandler's
        async def _send_error(self, code: str, text: str) -> None: ...  # O1EventHandler's
