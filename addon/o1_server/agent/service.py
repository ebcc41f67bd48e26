"""The agent service: profiles + sessions + the backend, behind the async ``Agent`` protocol."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, TypeVar

from . import i18n
from .attachments import write_files
from .audit import AuditLog
from .backend import BackendError, LLMConfig, OpenInterpreterBackend
from .home import HomeContext, HomeGateway, HomeTurn, RestRelay, StreamRelay, prompt_for
from .policy import GrantedFolder
from .profiles import LANGUAGES, Profile, ProfileStore
from .sandbox import conversation_uid, resolve_user
from .session import LOCAL_CHANNEL, Session
from .store import SessionManager
from .turn_context import turn_context
from .types import MAX_TURN_CHARS, AgentError, AgentReply

_LOGGER = logging.getLogger(__name__)
_T = TypeVar("_T")

# Short on purpose: every token of it is evaluated on the first turn of a conversation on a small CPU (llama.cpp
# keeps the KV cache of a prompt prefix it has seen, so later conversations reuse it). Tuned on the dev split of
# benchmarks/agent only; its test split and benchmarks/agent_heldout.py are reported, never read.
VOICE_SYSTEM_MESSAGE = (
    "You are o1, a voice assistant that answers by running code.\n"
    "Always write exactly one short ```python code block that prints the answer as one short plain sentence, "
    "follow-up questions too; never answer from memory. Import every module you use; standard library only "
    "(csv for CSV files). Use only the current folder, with relative paths (files: os.listdir('.'); free disk "
    "space: shutil.disk_usage('.')). To put something on a list or in a note, append it to a .txt file in the "
    "folder with open(name, 'a') and print what you saved. Use the numbers and times the question gives: when "
    "it names a time (at 16:11), start from that time, not from datetime.datetime.now(), which is only for the "
    "time now; datetime.date.today() is today. There is no internet: for weather, news, prices or anything "
    "online, print that you can't look that up offline."
)


def _not_run(language: str, code: str) -> str:
    """The execute step of a backend that only warms the LLM up: nothing runs."""
    return "(not run)"


def folders_line(folders: tuple[GrantedFolder, ...]) -> str:
    """The system message's line naming the folders a profile grants: "You may also use the user's files in
    /media (read only) and /share/notes (read and write), by absolute path; nothing else outside the folder."."""
    named = [f"{f.path} ({'read and write' if f.writable else 'read only'})" for f in folders]
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    return f"You may also use the user's files in {listed}, by absolute path; nothing else outside the folder."


class O1Agent:
    """Answers user turns with Open Interpreter under the profile's policy and limits.

    ``default_llm`` is used by profiles whose ``llm.model`` is ``inherit``. ``max_parallel`` bounds how
    many turns run at once (each holds a worker thread and an LLM request). Scheduling is fair: a conversation
    runs one turn at a time and waits for its own earlier turn *before* taking one of the ``max_parallel``
    slots, so one conversation's slow turns never hold more than one slot; the slots go first come, first
    served. ``session_max_age_days`` / ``session_max_count``: retention of saved conversations and their
    sandbox folders (see :meth:`SessionManager.prune`).

    Turns run on daemon threads: a turn stuck in an LLM request never keeps the process from exiting, and
    :meth:`shutdown` stops every running turn and saves every conversation.
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
        session_max_age_days: float = 30.0,
        session_max_count: int = 1000,
    ) -> None:
        self.profiles = profiles
        self.default_profile = default_profile
        self.default_llm = default_llm
        self.audit = AuditLog(data_dir / "audit.jsonl")
        user = resolve_user(sandbox_user)
        self.code_user = user
        """(uid, gid) code blocks run as when a sandbox user is set; None: the per-conversation uids."""
        # Home Assistant is reached only through the broker: generated code never sees ha_url or ha_token.
        direct = RestRelay(ha_url, ha_token) if ha_url and ha_token else None
        self.home = HomeGateway(data_dir / "run", self.audit.record_home, direct, user)
        self.sessions = SessionManager(
            data_dir,
            sandbox_root,
            self.audit,
            self._make_backend,
            home=self.home,
            user=user,
            max_age_days=session_max_age_days,
            max_count=session_max_count,
        )
        self._relays: dict[str, StreamRelay] = {}  # turn_id -> the streaming turn's relay
        self._slots = asyncio.Semaphore(max_parallel)
        self._turn_locks: dict[str, tuple[asyncio.Lock, int]] = {}  # conversation id -> (lock, users)
        self._closing = False

    def llm_for(self, profile: Profile, model: LLMConfig | None = None) -> LLMConfig:
        """Resolve a profile's LLM settings against the server's default LLM, or against ``model`` (a turn's
        chosen model, which replaces the profile's own model too).

        One LLM request never outlives the turn: its timeout is capped at half the profile's seconds_per_turn,
        so a turn whose follow-up request hangs still ends before its deadline with the answer it already has
        (the output of the code that ran), and a stopped turn's worker thread ends soon after the deadline.
        """
        llm = profile.llm
        timeout = min(self.default_llm.timeout, max(1.0, profile.limits["seconds_per_turn"] / 2))
        if llm["model"] == "inherit" or model is not None:
            # The server's LLM: never ask for more context than it was started with; count with its tokenizer.
            base = model or self.default_llm
            return LLMConfig(
                base.model,
                base.api_base,
                base.api_key,
                llm["temperature"],
                min(llm["context_window"], base.context_window),
                llm["max_tokens"],
                timeout,
                base.tokenize_url,
                base.prefill,
            )
        return LLMConfig(
            llm["model"],
            llm["api_base"],
            profile.llm_api_key(),
            llm["temperature"],
            llm["context_window"],
            llm["max_tokens"],
            timeout,
        )

    def _make_backend(self, profile: Profile, session: Session) -> OpenInterpreterBackend:
        return self._backend_for(profile, self.llm_for(profile, session.llm), session.execute, session.cancelled)

    def _backend_for(
        self, profile: Profile, llm: LLMConfig, execute: Callable[[str, str], str], cancel: threading.Event
    ) -> OpenInterpreterBackend:
        system = profile.system_message or VOICE_SYSTEM_MESSAGE
        if profile.persona:
            system += "\n" + profile.persona.strip()
        if profile.folders:
            system += "\n" + folders_line(profile.folders)
        # Every language we can run is registered, so every block reaches the gate and the audit log; the gate
        # refuses the languages the profile does not allow.
        return OpenInterpreterBackend(
            llm,
            system,
            LANGUAGES,
            execute,
            profile.limits["output_chars"],
            cancel=cancel,
            # A profile that answers from the output wants a block every time: its fence can be given.
            code_first=profile.answer_from == "output" and "python" in profile.languages,
        )

    async def warm_up(self, profile: str | None = None) -> bool:
        """Have the server's own LLM evaluate the prompt a new conversation of ``profile`` (None: the default
        profile) starts with, in the background after a start (see ``OpenInterpreterBackend.warm``): the first
        question then costs its own tokens only (3 s instead of 22 s here), and the model's pages are read from
        disk. Only for a profile answered by the server's own LLM (never a request to a paid provider). Best
        effort: returns False when skipped or failed (logged), never raises."""
        chosen = self.profiles.get(profile or self.default_profile)
        if chosen is None:
            return False
        llm = self.llm_for(chosen)
        if (llm.model, llm.api_base) != (self.default_llm.model, self.default_llm.api_base):
            return False
        backend = self._backend_for(chosen, llm, _not_run, threading.Event())
        examples = chosen.example_messages()
        backend.messages[:] = examples
        backend.pinned = len(examples)
        home = ""
        if chosen.home_assistant in ("read", "control"):  # as a turn without Home Assistant's context gets it
            home = prompt_for(await asyncio.to_thread(self.home.own_context, "warm-up"), chosen.home_assistant)
        backend.set_turn_context(turn_context(home))  # a new conversation's folder is empty
        probe = chosen.message_template.replace("{text}", "Hi")
        try:
            warmed = await asyncio.to_thread(backend.warm, probe)
        except BackendError as err:
            _LOGGER.warning("Warming up the LLM for profile %s failed: %s", chosen.name, err)
            return False
        if warmed:
            _LOGGER.info("LLM prompt of profile %s evaluated", chosen.name)
        return warmed

    def profile(self, name: str | None, language: str | None = None) -> Profile:
        """Return the profile called ``name`` (default profile when None). Raises AgentError(unknown_profile),
        said in ``language``."""
        chosen = name or self.default_profile
        profile = self.profiles.get(chosen)
        if profile is None:
            known = ", ".join(sorted(self.profiles.profiles)) or "none"
            raise AgentError("unknown_profile", i18n.t(language, "error.unknown_profile", name=chosen, known=known))
        return profile

    async def ask(
        self,
        text: str,
        conversation_id: str | None = None,
        profile: str | None = None,
        language: str | None = None,
        channel: str = LOCAL_CHANNEL,
        home: HomeContext | None = None,
        instructions: str | None = None,
        llm: LLMConfig | None = None,
    ) -> AgentReply:
        """Answer one user turn within the profile's seconds_per_turn. Raises AgentError.

        Home Assistant calls of this turn go through the server's own HA access (no relay: nobody would
        answer ``tool_call`` events), with ``home`` as the entity context when given.
        """
        async for event in self.ask_stream(
            text, conversation_id, profile, language, channel, home, instructions=instructions, llm=llm
        ):
            if event["type"] == "done":
                reply: AgentReply = event["reply"]  # the done event carries the turn's AgentReply
                return reply
        raise AssertionError("ask_stream ended without a reply")  # pragma: no cover

    async def ask_stream(
        self,
        text: str,
        conversation_id: str | None = None,
        profile: str | None = None,
        language: str | None = None,
        channel: str = LOCAL_CHANNEL,
        home: HomeContext | None = None,
        relay: bool = False,
        instructions: str | None = None,
        llm: LLMConfig | None = None,
    ) -> AsyncIterator[dict[str, Any]]:
        """Answer one user turn as a stream of events, within the profile's seconds_per_turn.

        Yields ``{"type": "delta", "text"}`` (the spoken answer, sentence by sentence; concatenated they are
        the answer), ``{"type": "code", "block"}`` (each code block once its fate is known) and finally
        ``{"type": "done", "reply": AgentReply}``. Raises AgentError before the first event for a bad request
        or an unknown profile, and from the stream for an LLM failure or the turn's timeout.

        ``channel`` names who asks: ``http`` (the HTTP API: whoever holds the API token), ``wyoming:<peer
        host>`` (the Wyoming ``handle`` program), ``01:<peer host>`` (the 01 light WebSocket), or
        :data:`LOCAL_CHANNEL` for in-process callers. A confirmation question belongs to the channel that
        was asked it: a message from another channel cancels the held block (never runs it) and is answered
        as a new message. A conversation belongs to its profile and its transport: the same id under
        another profile, or arriving over another transport (HTTP, Wyoming, 01), is a separate conversation
        (see ``SessionManager``).

        ``home`` is the Home Assistant context the integration sent. With ``relay`` the caller runs Home
        Assistant tools itself: the stream also yields ``{"type": "tool_call", "turn_id", "id", "name",
        "args"}`` and the caller answers each with ``deliver_tool_result``; ``{"type": "home", "call"}``
        reports each broker call (allowed or not).

        ``language`` (``"de"``, ``"de-DE"``...; None: the conversation's last one, English for a new one) is the
        language o1 speaks in, tells the model to answer in and judges a confirmation in (see :mod:`.i18n`);
        a language o1 does not speak is English.

        ``instructions`` (an agent's own text, e.g. from its Home Assistant settings) are added to the
        profile's system message for this turn only; they change what the model is told, never the policy.

        ``llm`` (a model the server offers, see ``model_catalog``) answers this turn and the conversation's next
        ones that name no other; None: the profile's.
        """
        said = i18n.normalize(language)
        if not isinstance(text, str) or not text.strip():
            raise AgentError("invalid_request", i18n.t(said, "error.no_question"))
        if len(text) > MAX_TURN_CHARS:
            raise AgentError("invalid_request", i18n.t(said, "error.too_long", limit=MAX_TURN_CHARS))
        if self._closing:
            raise AgentError("busy", i18n.t(said, "error.restarting"))
        # Lone surrogates (a Wyoming client's JSON may hold "\ud800") cannot be sent to the LLM: they become "?".
        text = text.encode("utf-8", "replace").decode("utf-8")
        chosen = self.profile(profile, said)
        conversation_id = conversation_id or uuid.uuid4().hex
        # Off the event loop: a new conversation's folder is made and given its uid (a scan of every sibling
        # folder), and a saved one is read from disk.
        session = await asyncio.to_thread(self.sessions.get, conversation_id, chosen, channel, said)
        said = said if language else session.language
        deadline = asyncio.get_running_loop().time() + chosen.limits["seconds_per_turn"]
        loop = asyncio.get_running_loop()
        events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def emit(event: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(events.put_nowait, event)

        stream_relay = StreamRelay(emit, home.tools if home else ()) if relay else None
        turn_home = HomeTurn(home, stream_relay)
        session.active += 1
        abandoned = threading.Event()
        lock = self._turn_lock(conversation_id)
        try:
            # Waiting (for this conversation's earlier turn, then for a free slot) counts against the turn's time.
            async with asyncio.timeout_at(deadline):
                await lock.acquire()
                try:
                    await self._slots.acquire()
                except BaseException:
                    lock.release()
                    raise
        except TimeoutError:
            session.active -= 1
            self._turn_unlock(conversation_id, lock, held=False)
            raise AgentError("timeout", i18n.t(said, "error.busy")) from None
        except BaseException:
            session.active -= 1
            self._turn_unlock(conversation_id, lock, held=False)
            raise
        if stream_relay is not None:
            self._relays[stream_relay.turn_id] = stream_relay
        try:
            task = _run_in_daemon_thread(
                session.turn, text.strip(), emit, abandoned, channel, turn_home, language, instructions, llm
            )
            task.add_done_callback(lambda _: setattr(session, "active", session.active - 1))
            try:
                while not (task.done() and events.empty()):
                    getter = asyncio.ensure_future(events.get())
                    waiting: set[asyncio.Future[Any]] = {getter, task}  # an event, or the turn's end
                    try:
                        done, _ = await asyncio.wait(
                            waiting, timeout=deadline - loop.time(), return_when=asyncio.FIRST_COMPLETED
                        )
                    except BaseException:  # cancelled (the caller left): "Task was destroyed but it is pending!"
                        getter.cancel()
                        raise
                    if getter in done:
                        yield getter.result()
                        continue
                    getter.cancel()
                    if not done:
                        abandoned.set()  # not started yet: it never will
                        if session.running:
                            session.stop()  # started: stop it (no more code runs)
                        _LOGGER.warning("Turn in %s stopped at its deadline", conversation_id)
                        raise AgentError("timeout", i18n.t(said, "error.timeout"))
                reply = task.result()  # raises the turn's AgentError
            finally:
                if task.done() and not task.cancelled() and task.exception() is None:
                    await asyncio.to_thread(self.sessions.save, session)
                elif not task.done():
                    abandoned.set()
                    session.stop()  # the caller went away (or was cancelled): no more code runs
        finally:
            self._slots.release()
            self._turn_unlock(conversation_id, lock, held=True)
            if stream_relay is not None:
                stream_relay.close()
                self._relays.pop(stream_relay.turn_id, None)
        yield {"type": "done", "reply": reply}

    async def attach(
        self,
        conversation_id: str,
        files: list[tuple[str, bytes]],
        profile: str | None = None,
        channel: str = LOCAL_CHANNEL,
        language: str | None = None,
    ) -> list[str]:
        """Put ``files`` (name, content) into the folder of ``conversation_id`` under ``profile`` for
        ``channel``'s transport (made if new), for its next turns' code to read; return the names they got
        (see :func:`.attachments.write_files`: names made safe, bounded count and size). Raises
        AgentError(unknown_profile) and AgentError(invalid_request) for too many or too large files, or a
        folder that cannot be written."""
        chosen = self.profile(profile, language)

        def write() -> list[str]:
            session = self.sessions.get(conversation_id, chosen, channel)
            return write_files(session.workdir, files, conversation_uid(session.workdir) or session.user)

        try:
            return await asyncio.to_thread(write)
        except (ValueError, OSError) as err:
            _LOGGER.warning("Attachments for %s refused: %s", conversation_id, err)
            raise AgentError("invalid_request", f"The files could not be stored: {err}.") from None

    def deliver_tool_result(self, turn_id: str, call_id: str, payload: Any) -> bool:
        """Hand a Home Assistant tool result (``{"result"}`` or ``{"error", "message"}``) to the running turn
        that asked for it. Returns False when no such turn or call is waiting."""
        relay = self._relays.get(turn_id)
        return relay is not None and relay.deliver(call_id, payload)

    def _turn_lock(self, conversation_id: str) -> asyncio.Lock:
        """The lock that makes one conversation's turns wait for each other before they take a slot."""
        lock, users = self._turn_locks.get(conversation_id, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._turn_locks[conversation_id] = (lock, users + 1)
        return lock

    def _turn_unlock(self, conversation_id: str, lock: asyncio.Lock, held: bool) -> None:
        if held:
            lock.release()
        _, users = self._turn_locks.get(conversation_id, (lock, 1))
        if users <= 1:
            self._turn_locks.pop(conversation_id, None)
        else:
            self._turn_locks[conversation_id] = (lock, users - 1)

    async def shutdown(self) -> None:
        """Refuse new turns, stop the running ones (no more code runs) and save every conversation.

        Returns at once: turns stuck in an LLM request end on their daemon threads (or with the process).
        """
        self._closing = True
        saved = await asyncio.to_thread(self.sessions.shutdown)
        _LOGGER.info("Agent stopped: %d conversations saved", saved)

    def prune(self) -> int:
        """Apply the session retention now (blocking; see :meth:`SessionManager.prune`). Returns how many
        conversations were deleted."""
        return self.sessions.prune()

    def conversation(self, conversation_id: str, profile: str | None = None) -> dict[str, Any] | None:
        """Return a conversation's profile and turns (those of the profile that created it, or of
        ``profile``), or None."""
        state = self.sessions.find(conversation_id, profile)
        if state is None:
            return None
        return {
            "conversation_id": conversation_id,
            "profile": state.get("profile"),
            "turns": state.get("turns", []),
            "pending": state.get("pending") is not None,
            "workdir": str(self.sessions.workdir(state.get("storage_id") or conversation_id)),
        }

    def cancel(self, conversation_id: str) -> bool:
        """Stop the running turn of a conversation held in memory. Returns whether it was there."""
        return self.sessions.cancel(conversation_id)

    def reset(self, conversation_id: str) -> bool:
        """Forget a conversation under every profile. Returns whether it existed."""
        return self.sessions.reset(conversation_id, list(self.profiles.profiles))


def _run_in_daemon_thread(fn: Callable[..., _T], *args: Any) -> asyncio.Future[_T]:
    """Run ``fn(*args)`` on a new daemon thread; return an asyncio future of its result.

    Unlike ``asyncio.to_thread`` (the loop's default executor, joined when the process exits), a daemon thread
    stuck in a hung LLM request cannot delay the server's exit past the add-on's stop timeout.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[_T] = loop.create_future()

    def settle(result: _T) -> None:
        if not future.done():
            future.set_result(result)

    def fail(error: BaseException) -> None:
        if not future.done():
            future.set_exception(error)

    def run() -> None:
        try:
            result = fn(*args)
        except BaseException as err:  # noqa: BLE001 - handed to the awaiting coroutine
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                loop.call_soon_threadsafe(fail, err)
        else:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(settle, result)

    # Its outcome is the awaiting turn's; once that turn was cancelled (its client left) nobody awaits it, and a
    # failure of the thread (the hung request's timeout) was logged as "Future exception was never retrieved".
    future.add_done_callback(lambda done: done.cancelled() or done.exception())
    threading.Thread(target=run, name="o1-turn", daemon=True).start()
    return future
