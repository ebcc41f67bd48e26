"""The ``handle`` program's events on one connection: a ``transcript`` is an agent turn, answered ``handled``.

A mixin of :class:`.O1EventHandler` (which provides ``write_event``, ``agent``, ``_channel``, ``_peer``,
``reader`` and ``writer``); the turn itself is the agent's (``agent.ask``).
"""

from __future__ import annotations

import asyncio
import logging
import select
import time
from typing import Any

from wyoming.asr import Transcript
from wyoming.handle import Handled

from ..agent.types import Agent, AgentError
from .base import _HandlerBase
from .errors import _Rejected

_LOGGER = logging.getLogger(__package__)  # "o1_server.wyoming_server", its name before the package split

CLIENT_POLL_SECONDS = 0.25
"""How often a connection whose agent turn runs is checked for its client having left (the turn is then
cancelled: its code stops and its slot is freed for the next turn)."""

AGENT_FAILED_MESSAGE = "Sorry, something went wrong while answering."


class HandleEvents(_HandlerBase):
    """Agent turns: the turn runs while the connection is watched for its client leaving."""

    agent: Agent | None
    _channel: str

    async def _client_gone(self) -> str:
        """Returns once the client has closed its end (end of stream with nothing left unread) or the connection
        is closing (``"left"``), or once it sent more during the turn than the stream buffers (``"flooded"``).
        Watched while a turn runs: nothing reads the connection then, and a turn whose client left would keep
        its slot (and its code running) until the turn's deadline.

        The socket itself is asked (``POLLRDHUP``), not only the stream: ``reader.at_eof()`` stays False while
        unread bytes are buffered, so a client that sent anything after its transcript (a ping, a stray newline)
        and left was never seen leaving. Past the stream's high-water mark (twice its 64 KiB line limit, the
        asyncio default) the transport stops reading; the kernel's receive buffer then fills and a client's end
        of stream may never arrive behind its unsent bytes, so such a client is not waited for: no Wyoming
        client has a reason to send that much while its ``transcript`` is answered."""
        while True:
            if self.reader.at_eof() or self.writer.is_closing() or self._peer_hung_up():
                return "left"
            if not getattr(self.writer.transport, "is_reading", lambda: True)():
                return "flooded"
            await asyncio.sleep(CLIENT_POLL_SECONDS)

    def _peer_hung_up(self) -> bool:
        """True when the client's socket reports the peer's end of stream or a hang-up/error (unread data or
        not)."""
        sock = self.writer.get_extra_info("socket")
        try:
            fd = sock.fileno() if sock is not None else -1
        except (OSError, ValueError):
            return True
        if fd < 0:
            return sock is not None  # a closed socket; no socket at all (a test's transport): not known
        poller = select.poll()
        poller.register(fd, select.POLLRDHUP)  # POLLHUP, POLLERR and POLLNVAL are always reported
        return bool(poller.poll(0))

    async def _handle_transcript(self, transcript: Transcript) -> None:
        if self.agent is None:
            raise _Rejected("no_agent", "no agent is configured on this server")
        if not isinstance(transcript.text, str):
            raise _Rejected("invalid_event", "transcript text must be a string")
        context: dict[str, Any] = transcript.context if isinstance(transcript.context, dict) else {}
        conversation_id = context.get("conversation_id")
        if conversation_id is not None:
            conversation_id = str(conversation_id)
        language = transcript.language if isinstance(transcript.language, str) else None
        started = time.monotonic()
        turn = asyncio.ensure_future(
            self.agent.ask(transcript.text, conversation_id=conversation_id, language=language, channel=self._channel)
        )
        # Its outcome is always seen: a turn that failed just as this task was cancelled (server stop) was
        # logged as "Task exception was never retrieved".
        turn.add_done_callback(_seen)
        gone = asyncio.ensure_future(self._client_gone())
        try:
            await asyncio.wait({turn, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            if not turn.done():  # the client left (or the connection is being stopped): stop the turn
                turn.cancel()
                await asyncio.wait({turn})
        if turn.cancelled():
            if gone.done() and not gone.cancelled() and gone.result() == "flooded":
                _LOGGER.warning("Client %s sent more than the stream buffers during a turn; stopped it", self._peer)
                await self._send_error("flooded", "too much was sent while the transcript was being answered")
                raise ConnectionResetError("the client sent too much during the turn")
            _LOGGER.info("Client %s left during a turn; stopped it", self._peer)
            raise ConnectionResetError("the client left during the turn")
        reply_context: dict[str, Any]  # sent as the handled event's context (JSON)
        try:
            reply = turn.result()
        except AgentError as err:
            _LOGGER.warning("Agent could not answer (%s): %s", err.code, err.message)
            answer, reply_context = err.message, {"error_code": err.code}
            if conversation_id is not None:
                reply_context["conversation_id"] = conversation_id
        except Exception:
            _LOGGER.exception("Agent failed")
            answer, reply_context = AGENT_FAILED_MESSAGE, {"error_code": "internal_error"}
            if conversation_id is not None:
                reply_context["conversation_id"] = conversation_id
        else:
            answer = reply.answer
            reply_context = {
                "conversation_id": reply.conversation_id or conversation_id,
                "continue_conversation": bool(reply.continue_conversation),
            }
        _LOGGER.info("Answered %r in %.1f s: %r", transcript.text, time.monotonic() - started, answer)
        await self.write_event(Handled(text=answer, context=reply_context).event())


def _seen(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
