"""An asyncio event loop in a thread of its own, and the agent as seen from such a loop.

The server runs its Wyoming listener on a :class:`LoopThread` and its HTTP API (``/api/health``, the agent API, the
01 WebSocket) on the main loop, so many Wyoming clients cannot hold up HTTP requests. The agent stays on the main
loop: the Wyoming side reaches it through :class:`AgentOnLoop`. Why, with the measured figures: docs/server.md.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from .agent.types import AgentError, AgentReply

_LOGGER = logging.getLogger(__name__)

T = TypeVar("T")


class LoopThread:
    """``start()`` runs a new event loop in a daemon thread named ``name``; :meth:`call` runs a coroutine on it
    from another loop; ``stop()`` ends it (tasks still running are cancelled first)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
            tasks = asyncio.all_tasks(self.loop)
            for task in tasks:
                task.cancel()
            if tasks:
                self.loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        finally:
            self.loop.close()

    async def call(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on this thread's loop and wait for it from the caller's loop. Cancelling the caller
        cancels it."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the loop and wait up to ``timeout`` seconds for its thread (it is a daemon thread: a stuck one
        does not keep the process alive)."""
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout)
            if self._thread.is_alive():
                _LOGGER.warning("The %s event loop did not stop within %.0f s", self.name, timeout)


class AgentOnLoop:
    """The agent for code running on another event loop: :meth:`ask` runs the turn on ``loop`` (the agent's),
    where its asyncio slots and locks live; every other attribute is the agent's own. Cancelling the caller
    cancels the turn (the agent then stops its code, as when a client leaves)."""

    def __init__(self, agent: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._agent = agent
        self._loop = loop

    async def ask(
        self,
        text: str,
        conversation_id: str | None = None,
        profile: str | None = None,
        language: str | None = None,
        channel: str = "local",
    ) -> AgentReply:
        """:meth:`o1_server.agent.types.Agent.ask` on the agent's loop; raises what it raises."""
        turn = self._agent.ask(
            text, conversation_id=conversation_id, profile=profile, language=language, channel=channel
        )
        try:
            future = asyncio.run_coroutine_threadsafe(turn, self._loop)
        except RuntimeError:  # the agent's loop is closed: the server is stopping
            turn.close()
            raise AgentError("busy", "I'm restarting. Please try again in a moment.") from None
        reply: AgentReply = await asyncio.wrap_future(future)
        return reply

    def __getattr__(self, name: str) -> Any:
        return getattr(self._agent, name)
