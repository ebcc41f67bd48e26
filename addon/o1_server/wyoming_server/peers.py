"""Who is at the other end of a Wyoming connection: the agent channel and the name used in log lines."""

from __future__ import annotations

import asyncio


def wyoming_channel(writer: asyncio.StreamWriter) -> str:
    """The agent channel of a Wyoming connection: ``wyoming:<peer host>`` (``wyoming:local`` for a unix socket).

    The host, not the connection: Home Assistant's Wyoming conversation entity opens a new TCP connection
    for every turn (``WyomingConversationEntity.async_process`` in HA core's
    ``homeassistant/components/wyoming/conversation.py`` wraps each ``transcript`` with
    ``context.conversation_id`` in its own ``AsyncTcpClient``), so the answer to a confirmation question
    arrives on another connection from the same host. The Wyoming protocol has no authentication; the
    peer address is the only identity it offers.
    """
    peer = writer.get_extra_info("peername")
    if isinstance(peer, tuple) and peer:
        return f"wyoming:{peer[0]}"
    return "wyoming:local"


def _peer_name(writer: asyncio.StreamWriter) -> str:
    peer = writer.get_extra_info("peername")
    if isinstance(peer, tuple) and len(peer) >= 2:
        return f"{peer[0]}:{peer[1]}"
    return str(peer or "client")
