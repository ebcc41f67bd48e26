"""The agent service: profiles + sessions + the backend, behind the async ``Agent`` protocol."""

from __future__ import annotations

import asyncio
import datetime
import logging
import threading
import uuid
from pathlib import Path
from collections.abc import AsyncIterator
from typing import Any

from .audit import AuditLog
from .backend import LLMConfig, OpenInterpreterBackend
from .profiles import LANGUAGES, Profile, ProfileStore
from .sandbox import resolve_user, safe_name
from .session import Session, SessionManager
from .types import AgentError, AgentReply

_LOGGER = logging.getLogger(__name__)

# Short on purpose: every token of it is evaluated on the first turn of a conversation on a small CPU.
VOICE_SYSTEM_MESSAGE = (
    "You are o1, a voice assistant that answers by running code.\n"
    "Write exactly one short ```python code block that prints the answer as one short plain sentence. "
    "Import every module you use; standard library only. Use only the current folder, with relative paths "
    "(free disk space: shutil.disk_usage('.')). Use datetime for dates and times."
)


class O1Agent:
    """Answers user turns with Open Interpreter under the profile's policy and limits.

    ``default_llm`` is used by profiles whose ``llm.model`` is ``inherit``. ``max_parallel`` bounds how
    many turns run at once (each holds a worker thread and an LLM request).
    """

    def __init__(
        self,
        profiles: ProfileStore,
        default_profile: str,
        default_llm: LLMConfig,
        data_dir: Path,
        sandbox_root: Path,
        max_parallel: int = 2,
        ha_url: str | None = None,
        ha_token: str | None = None,
        sandbox_user: str | None = None,
    ) -> None:
        self.profiles = profiles
        self.default_profile = default_profile
        self.default_llm = default_llm
        self.audit = AuditLog(data_dir / "audit.jsonl")
        self.sessions = SessionManager(data_dir, sandbox_root, self.audit, self._make_backend,
                                       ha=(ha_url, ha_token), user=resolve_user(sandbox_user))
        self._slots = asyncio.Semaphore(max_parallel)

    def llm_for(self, profile: Profile) -> LLMConfig:
        """Resolve a profile's LLM settings against the server's default LLM.

        One LLM request never outlives the turn: its timeout is capped by the profile's seconds_per_turn,
        so a stopped turn's worker thread ends soon after the turn's deadline.
        """
        llm = profile.llm
        timeout = min(self.default_llm.timeout, profile.limits["seconds_per_turn"])
        if llm["model"] == "inherit":
            # The server's LLM: never ask for more context than it was started with; count with its tokenizer.
            base = self.default_llm
            return LLMConfig(base.model, base.api_base, base.api_key, llm["temperature"],
                             min(llm["context_window"], base.context_window), llm["max_tokens"], timeout,
                             base.tokenize_url)
        return LLMConfig(llm["model"], llm["api_base"], profile.llm_api_key(), llm["temperature"],
                         llm["context_window"], llm["max_tokens"], timeout)

    def _make_backend(self, profile: Profile, session: Session) -> OpenInterpreterBackend:
        system = profile.system_message or VOICE_SYSTEM_MESSAGE
        # Small models otherwise assume the year they were trained in ("days until new year" from 2023).
        system += f"\nThe current year is {datetime.date.today().year}."
        if profile.persona:
            system += "\n" + profile.persona.strip()
        # Every language we can run is registered, so every block reaches the gate and the audit log; the gate
        # refuses the languages the profile does not allow.
        return OpenInterpreterBackend(self.llm_for(profile), system, LANGUAGES, session.execute,
                                      profile.limits["output_chars"], cancel=session.cancelled)

    def profile(self, name: str | None) -> Profile:
        """Return the profile called ``name`` (default profile when None). Raises AgentError(unknown_profile)."""
        chosen = name or self.default_profile
        profile = self.profiles.get(chosen)
        if profile is None:
            known = ", ".join(sorted(self.profiles.profiles)) or "none"
            raise AgentError("unknown_profile", f"There is no profile called {chosen}. Known profiles: {known}.")
        return profile

    async def ask(self, text: str, conversation_id: str | None = None, profile: str | None = None,
                  language: str | None = None) -> AgentReply:
        """Answer one user turn within the profile's seconds_per_turn. Raises AgentError."""
        async for event in self.ask_stream(text, conversation_id, profile, language):
            if event["type"] == "done":
                return event["reply"]
        raise AssertionError("ask_stream ended without a reply")  # pragma: no cover

    async def ask_stream(self, text: str, conversation_id: str | None = None, profile: str | None = None,
                         language: str | None = None) -> AsyncIterator[dict[str, Any]]:
        """Answer one user turn as a stream of events, within the profile's seconds_per_turn.

        Yields ``{"type": "delta", "text"}`` (the spoken answer, sentence by sentence; concatenated they are
        the answer), ``{"type": "code", "block"}`` (each code block once its fate is known) and finally
        ``{"type": "done", "reply": AgentReply}``. Raises AgentError before the first event for a bad request
        or an unknown profile, and from the stream for an LLM failure or the turn's timeout.
        """
        if not isinstance(text, str) or not text.strip():
            raise AgentError("invalid_request", "I didn't hear a question.")
        chosen = self.profile(profile)
        conversation_id = conversation_id or uuid.uuid4().hex
        session = self.sessions.get(conversation_id, chosen)
        deadline = asyncio.get_running_loop().time() + chosen.limits["seconds_per_turn"]
        loop = asyncio.get_running_loop()
        events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def emit(event: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(events.put_nowait, event)

        session.active += 1
        abandoned = threading.Event()
        try:
            # Waiting for a free slot counts against the turn's time too.
            await asyncio.wait_for(self._slots.acquire(), max(0.0, deadline - loop.time()))
        except TimeoutError:
            session.active -= 1
            raise AgentError("timeout", "I'm busy with other questions. Please try again in a moment.") from None
        try:
            task = asyncio.ensure_future(asyncio.to_thread(session.turn, text.strip(), emit, abandoned))
            task.add_done_callback(lambda _: setattr(session, "active", session.active - 1))
            try:
                while not (task.done() and events.empty()):
                    getter = asyncio.ensure_future(events.get())
                    done, _ = await asyncio.wait({getter, task}, timeout=deadline - loop.time(),
                                                 return_when=asyncio.FIRST_COMPLETED)
                    if getter in done:
                        yield getter.result()
                        continue
                    getter.cancel()
                    if not done:
                        abandoned.set()  # not started yet: it never will
                        if session.running:
                            session.stop()  # started: stop it (no more code runs)
                        _LOGGER.warning("Turn in %s stopped at its deadline", conversation_id)
                        raise AgentError("timeout", "That took too long, so I stopped. Please try again.")
                reply = task.result()  # raises the turn's AgentError
            finally:
                if task.done() and not task.cancelled() and task.exception() is None:
                    await asyncio.to_thread(self.sessions.save, session)
        finally:
            self._slots.release()
        yield {"type": "done", "reply": reply}

    def conversation(self, conversation_id: str) -> dict[str, Any] | None:
        """Return a conversation's profile and turns, or None."""
        state = self.sessions.find(conversation_id)
        if state is None:
            return None
        return {"conversation_id": conversation_id, "profile": state.get("profile"),
                "turns": state.get("turns", []), "pending": state.get("pending") is not None,
                "workdir": str(self.sessions.sandbox_root / safe_name(conversation_id))}

    def cancel(self, conversation_id: str) -> bool:
        """Stop the running turn of a conversation held in memory. Returns whether it was there."""
        return self.sessions.cancel(conversation_id)

    def reset(self, conversation_id: str) -> bool:
        """Forget a conversation. Returns whether it existed."""
        return self.sessions.reset(conversation_id)
