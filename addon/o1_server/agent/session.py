"""Sessions: one Open Interpreter conversation per conversation id, persisted to disk.

A Session runs its turns in a worker thread (``turn`` is blocking); the SessionManager serialises turns of
one conversation, keeps different conversations apart, saves each after every turn
(``<data_dir>/sessions/<id>.json``) and forgets those idle longer than ``idle_seconds``.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import re
import stat
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, cast

from . import i18n
from .audit import AuditLog
from .backend import AgentBackend, BackendError
from .gate import Gate, Turn, record
from .home import Capability, HomeGateway, HomeTurn, prompt_for
from .profiles import Profile
from .sandbox import (
    ExecResult,
    Limits,
    conversation_dir,
    conversation_uid,
    remove_tree,
    run_code,
    safe_name,
    scan_folder,
)
from .speech_cleaning import AnswerStream, describe_changes, speakable
from .types import AgentError, AgentReply, CodeBlock

_LOGGER = logging.getLogger(__name__)

BackendFactory = Callable[[Profile, "Session"], AgentBackend]
# emit(event) receives {"type": "delta", "text": ...} and {"type": "code", "block": {...}} while a turn runs.
Emit = Callable[[dict[str, Any]], None]
LOCAL_CHANNEL = "local"
"""The channel of in-process callers (tests, tools). Servers name theirs: ``http``, ``wyoming:<host>``,
``01:<host>`` (see ``O1Agent.ask_stream``)."""
PRUNE_EVERY = 50
"""Saves between two retention passes (see :meth:`SessionManager.prune`)."""
ORPHAN_SECONDS = 3600.0
"""Age, in seconds, from which a sandbox folder with no saved conversation and no live session is deleted."""


class Session:
    """One conversation: its profile, its sandbox directory, its backend and its turns."""

    def __init__(
        self,
        conversation_id: str,
        profile: Profile,
        sandbox_root: Path,
        audit: AuditLog,
        backend_factory: BackendFactory,
        state: dict[str, Any] | None = None,
        home: HomeGateway | None = None,
        user: tuple[int, int] | None = None,
        storage_id: str | None = None,
    ) -> None:
        self.conversation_id = conversation_id
        # Names this (conversation, profile) pair on disk: its session file and its working folder (see
        # SessionManager.get); the conversation id itself unless another profile already owns that id.
        self.storage_id = storage_id or conversation_id
        self._home = home
        self._capability: Capability | None = None  # the running turn's Home Assistant socket, if any
        self.profile = profile
        self.user = user
        self.workdir = conversation_dir(sandbox_root, self.storage_id, user)
        self.audit = audit
        self.turns: list[dict[str, Any]] = list((state or {}).get("turns", []))
        self.pending: dict[str, Any] | None = valid_pending((state or {}).get("pending"), conversation_id)
        self.language = i18n.normalize((state or {}).get("language"))  # the conversation's last language
        self.last_used = time.monotonic()
        self.lock = threading.Lock()
        self.cancelled = threading.Event()  # set by stop(), cleared when the turn ends
        self.active = 0  # turns asked for and not finished (maintained by the event loop)
        self.running = False  # a turn holds the lock and is running
        self.deleted = False  # reset while a turn ran: never save it again
        self._messages: list[dict[str, Any]] = list((state or {}).get("messages", []))
        self._factory = backend_factory
        self._backend: AgentBackend | None = None
        self._gate: Gate | None = None  # the running turn's safety pipeline (see .gate)
        self._emit: Emit | None = None

    # ------------------------------------------------------------------ state
    def state(self) -> dict[str, Any]:
        """Return the JSON-serialisable state saved to disk."""
        return {
            "conversation_id": self.conversation_id,
            "storage_id": self.storage_id,
            "profile": self.profile.name,
            "messages": self._backend.messages if self._backend else self._messages,
            "turns": self.turns,
            "pending": self.pending,
            "language": self.language,
        }

    @property
    def backend(self) -> AgentBackend:
        """The agent backend, created on first use with the saved messages."""
        if self._backend is None:
            self._backend = self._factory(self.profile, self)
            examples = self.profile.example_messages()
            self._backend.messages[:] = self._messages or examples
            if hasattr(self._backend, "pinned") and self._backend.messages[: len(examples)] == examples:
                self._backend.pinned = len(examples)  # the worked examples are never trimmed away
        return self._backend

    def stop(self) -> None:
        """Ask the running (or about to run) turn to stop at its next step (thread-safe)."""
        self.cancelled.set()

    # ------------------------------------------------------------------ execution
    def limits(self) -> Limits:
        """The profile's execution limits."""
        lim = self.profile.limits
        return Limits(lim["seconds_per_block"], lim["memory_mb"], lim["output_chars"], self.user)

    def execute(self, language: str, code: str) -> str:
        """The sandbox step of the turn's gate (Open Interpreter calls it to run a block): only the block the
        gate just admitted runs (see :mod:`.gate`). Outside a turn a gate of its own, which admitted nothing,
        refuses and audits it."""
        return (self._gate or self._gate_for(LOCAL_CHANNEL)).run(language, code)

    def _run_block(self, block: CodeBlock) -> ExecResult:
        """Run an admitted block in the conversation's folder. The network is shared only with a block the
        policy allowed (or the user confirmed) as ``network``; Home Assistant is reached through the turn's
        broker socket, bound into the box."""
        network = block.decision == "allow" and "network" in block.category
        binds = (str(self._capability.path),) if self._capability is not None else ()
        return run_code(
            block.language,
            block.code,
            self.workdir,
            self.limits(),
            self._code_env(),
            self.cancelled,
            network=network,
            binds=binds,
        )

    def _gate_for(self, channel: str) -> Gate:
        """A gate for this conversation's blocks asked on ``channel`` (see :mod:`.gate`)."""
        turn = Turn(self.conversation_id, self.profile, self.workdir, self.audit, self.cancelled, channel)
        return Gate(turn, self._run_block, self._emit_block, self._hold)

    def _new_gate(self, channel: str) -> Gate:
        """The gate of the turn that starts now."""
        self._gate = self._gate_for(channel)
        return self._gate

    def _hold(self, pending: dict[str, Any]) -> None:
        self.pending = pending

    def _code_env(self) -> dict[str, str]:
        """Environment for generated code: only the path of the turn's Home Assistant socket (a capability that
        dies with the turn), never a Home Assistant URL or token."""
        if self._capability is None:
            return {}
        return {"O1_HA_SOCKET": str(self._capability.path)}

    def _open_home(self, home: HomeTurn | None, emit: Emit | None) -> None:
        """Open the turn's Home Assistant capability (profiles with access) and tell the LLM about the home.

        Turns Home Assistant answered itself since the last one ("prefer handling commands locally") join the
        conversation's memory first, so the model knows what was already done.
        """
        if home is not None and home.context is not None and home.context.local_turns:
            for user, answer in home.context.local_turns:
                self.backend.messages.append({"role": "user", "type": "message", "content": user})
                self.backend.messages.append({"role": "assistant", "type": "message", "content": answer})
        if self._home is None:
            return
        try:
            self._capability = self._home.open(
                self.conversation_id,
                self.profile.name,
                self.profile.home_assistant,
                home,
                emit,
                conversation_uid(self.workdir) or self.user,
            )
        except OSError as err:  # no socket: the code hears "no access", nothing else breaks
            _LOGGER.error("Could not open the Home Assistant socket for %s: %s", self.conversation_id, err)
            return
        if self._capability is not None and hasattr(self.backend, "set_turn_context"):
            self.backend.set_turn_context(prompt_for(self._capability.broker.context, self.profile.home_assistant))

    def _changes(self, files_before: dict[str, tuple[int, int]]) -> str | None:
        """What this turn's code did, for when it printed nothing: the conversation folder's changes
        (``describe_changes``) and the states Home Assistant reported after the turn's control calls."""
        said = [describe_changes(*folder_diff(files_before, folder_state(self.workdir)))]
        if self._capability is not None:
            said.append(self._capability.broker.describe_changes())
        return " ".join(s for s in said if s) or None

    def _close_home(self) -> None:
        if self._capability is not None:
            self._capability.close()
            self._capability = None

    # ------------------------------------------------------------------ audit of blocks that do not run
    def _record(self, block: CodeBlock) -> None:
        """Audit a block whose fate is final without running, and tell the streaming client about it."""
        record(self.audit, self.conversation_id, self.profile.name, block)
        self._emit_block(block)

    def _emit_block(self, block: CodeBlock) -> None:
        if self._emit is not None:
            self._emit({"type": "code", "block": block.as_dict()})

    # ------------------------------------------------------------------ turns
    def turn(
        self,
        text: str,
        emit: Emit | None = None,
        abandoned: threading.Event | None = None,
        channel: str = LOCAL_CHANNEL,
        home: HomeTurn | None = None,
        language: str | None = None,
    ) -> AgentReply:
        """Answer one user message (blocking). Raises AgentError when the LLM fails.

        ``emit`` (optional, called from this worker thread) gets the answer's sentences and each code block
        as they happen; the deltas it gets, concatenated, equal the reply's answer. ``channel`` names who is
        asking (see :data:`LOCAL_CHANNEL` and ``O1Agent.ask_stream``): only the channel that was asked a
        confirmation question can answer it. ``home`` is what the request brought for Home Assistant
        (context and relay); the turn's capability is closed at its end. ``language`` (``"de-DE"``...; None: the
        conversation's last one) is the language o1 speaks and judges a confirmation in (see :mod:`.i18n`).
        """
        with self.lock:
            self.language = i18n.normalize(language) if language else self.language
            self.cancelled.clear()  # a stop asked for before this turn began was meant for an earlier one
            self.running = True  # set before checking `abandoned`: the caller sets that, then reads this
            if abandoned is not None and abandoned.is_set():
                # Its caller gave up while it waited behind another turn: it must not run at all.
                self.running = False
                raise AgentError("timeout", i18n.t(self.language, "error.timeout"))
            self.last_used = time.monotonic()
            self._emit = emit
            spoken = i18n.begin(self.language)  # the policy's sentences (classify takes no language)
            try:
                if self.pending is not None and self.pending.get("channel") != channel:
                    self._drop_foreign_pending(channel)
                self._open_home(home, emit)
                if self.pending is not None:
                    reply = self._answer_pending(text)
                else:
                    reply = self._chat(text, channel)
            finally:
                i18n.end(spoken)
                self._close_home()
                self._gate = None  # nothing runs between turns
                self._emit = None
                self.running = False
                self.cancelled.clear()
            self.turns.append(
                {"text": text, "answer": reply.answer, "code_blocks": [b.as_dict() for b in reply.code_blocks]}
            )
            return reply

    def _answer(self, live: bool) -> AnswerStream:
        """An AnswerStream that forwards sentences to the streaming client, if any."""
        emit = self._emit
        return AnswerStream((lambda text: emit({"type": "delta", "text": text})) if emit else None, live)

    def _chat(self, text: str, channel: str = LOCAL_CHANNEL) -> AgentReply:
        gate = self._new_gate(channel)
        blocks, held = gate.blocks, gate.held
        from_output = self.profile.answer_from == "output"
        answer = self._answer(live=not from_output)
        llm_failed = False
        before = list(self.backend.messages)
        files_before = folder_state(self.workdir)
        try:
            prompt = self.profile.message_template.replace("{text}", i18n.for_model(text, self.language))
            try:
                for delta in self.backend.send(prompt, gate.admit, from_output):
                    answer.feed(delta)
            finally:
                gate.drop_unrun()  # a block admitted but never run is recorded as not run
        except BackendError as err:
            # A failed turn leaves no trace in the conversation: a half-written history (a question without
            # an answer, an empty reply) would be saved and could break every later turn.
            self.backend.messages[:] = before
            _LOGGER.warning("LLM failed in %s: %s", self.conversation_id, err)
            if not any(b.decision == "allow" and b.exit_status is not None for b in blocks) and not held:
                raise AgentError("llm_unavailable", i18n.t(self.language, "error.llm_unavailable")) from err
            llm_failed = True  # code already ran (or was held): answer with what it gave instead of losing it
        # Only a block that printed nothing needs to know what the code changed: worked out at most once, then.
        changes = functools.cache(lambda: self._changes(files_before))
        # The model reads "(no output)" as a failure on its next turn ("the file was not created"): tell it
        # what the code did instead.
        for message in self.backend.messages[len(before) :]:
            if message.get("type") == "console" and message.get("content") == "(no output)" and changes():
                message["content"] = f"(no output) {changes()}"
        text_out = answer.finish(self._tail(answer, blocks, held, changes, force_output=llm_failed))
        return AgentReply(
            self.conversation_id, self.profile.name, text_out, blocks, continue_conversation=self.pending is not None
        )

    def _tail(
        self,
        answer: AnswerStream,
        blocks: list[CodeBlock],
        held: list[CodeBlock],
        changes: Callable[[], str | None] = lambda: None,
        force_output: bool = False,
    ) -> str | None:
        """What to say after the model's own words (the one place that decides a turn's spoken ending).

        A confirmation question or a refusal when a block was held; else, when code ran and the profile answers
        from the output (or the model said nothing after it, or the LLM failed after the code ran:
        ``force_output``), what the code printed, or what it changed in the conversation folder when it printed
        nothing (``changes()``, from :meth:`_changes`, only asked then); else the model's own words (already
        streamed in live mode); never nothing. A block whose audit record could not be written ran nothing: the
        user hears why.
        """
        unaudited = [b for b in blocks if b.decision == "audit_failed"]
        if unaudited:
            return unaudited[-1].reason  # nothing ran: the user hears why
        if held:
            block = held[-1]
            if block.decision == "confirm" and self.pending is not None:
                return i18n.t(self.language, "confirm.question", summary=self.pending["summary"].rstrip("."))
            return block.reason or i18n.t(self.language, "refuse.generic")
        ran = [b for b in blocks if b.decision == "allow"]
        from_output = bool(ran) and self.profile.answer_from == "output"
        if answer.model_text and not from_output and not force_output:
            # The model's words are the answer: streamed live (finish flushes the rest), or, when the profile
            # answers from the output but no code ran, said now.
            return None if answer.live else answer.model_text
        if ran:
            last = ran[-1]
            output = speakable(last.output, max_sentences=2, max_chars=200)
            if last.exit_status == -9:
                return i18n.t(self.language, "code.too_slow")
            if last.exit_status:
                error = _last_error_line(last.output)
                return (
                    i18n.t(self.language, "code.failed_because", error=error)
                    if error
                    else i18n.t(self.language, "code.failed")
                )
            if output in ("True", "False"):
                return i18n.t(self.language, "answer.yes" if output == "True" else "answer.no")
            if output:
                return output if _is_sentence(output) else i18n.t(self.language, "code.result", output=output)
            return changes() or i18n.t(self.language, "code.nothing")
        return answer.model_text or i18n.t(self.language, "answer.none")

    def _answer_pending(self, text: str) -> AgentReply:
        """The user answered a confirmation question: a plain 'yes' runs exactly the held block (checked and
        decided again first, see :meth:`Gate.confirm`), anything else cancels it."""
        pending, self.pending = self.pending, None
        assert pending is not None  # turn() answers a pending question only when there is one
        data = pending["block"]
        if not is_yes(text, self.language):
            block = CodeBlock(
                data["language"],
                data["code"],
                decision="cancelled",
                category=data["category"],
                reason="the user did not confirm",
            )
            self._record(block)
            self.backend.messages.append({"role": "user", "type": "message", "content": text})
            self.backend.messages.append({"role": "assistant", "type": "message", "content": "Cancelled."})
            said = self._answer(live=False).finish(i18n.t(self.language, "confirm.cancelled"))
            return AgentReply(self.conversation_id, self.profile.name, said, [block])
        gate = self._new_gate(pending.get("channel", LOCAL_CHANNEL))
        block = gate.confirm(data["language"], data["code"])
        if block.decision != "allow":  # the profile no longer allows it (or the block cannot run at all)
            said = self._answer(live=False).finish(block.reason or i18n.t(self.language, "refuse.generic"))
            return AgentReply(self.conversation_id, self.profile.name, said, [block])
        files_before = folder_state(self.workdir)
        output = gate.run(block.language, block.code)
        if block.decision == "audit_failed":
            self.pending = pending  # still held: the user can say yes again once the log is writable
            said = self._answer(live=False).finish(block.reason)
            return AgentReply(self.conversation_id, self.profile.name, said, [block], continue_conversation=True)
        self.backend.messages.append({"role": "user", "type": "message", "content": text})
        self.backend.messages.append({"role": "computer", "type": "console", "format": "output", "content": output})
        said = speakable(block.output, max_sentences=2, max_chars=200)
        changes = None if said else self._changes(files_before)
        done = said or changes
        answer = (
            i18n.t(self.language, "confirm.done_with", said=done) if done else i18n.t(self.language, "confirm.done")
        )
        if block.exit_status:
            answer = i18n.t(self.language, "confirm.failed")
        return AgentReply(self.conversation_id, self.profile.name, self._answer(live=False).finish(answer), [block])

    def _drop_foreign_pending(self, channel: str) -> None:
        """A message from another channel than the one that was asked: the held block is cancelled (audited,
        never run) and the message is answered as a new one. A "yes" from elsewhere never runs it."""
        pending, self.pending = self.pending, None
        assert pending is not None
        data = pending["block"]
        block = CodeBlock(
            data["language"],
            data["code"],
            decision="cancelled",
            category=data["category"],
            reason="another channel spoke in this conversation before the confirmation",
        )
        _LOGGER.warning(
            "Confirmation in %r asked on %s answered from %s: cancelled",
            self.conversation_id,
            pending.get("channel"),
            channel,
        )
        emit, self._emit = self._emit, None  # the block is not the new speaker's business
        try:
            self._record(block)
        finally:
            self._emit = emit


def is_yes(text: str, language: str | None = None) -> bool:
    """Whether a reply to a confirmation question is a plain yes in ``language`` or English (see
    :func:`.i18n.yes_pattern`): "Ja, mach das." is one, "Ja, aber nicht jetzt." and "Okay, cancel that." are not."""
    return i18n.confirms(text, language)


def valid_pending(pending: Any, conversation_id: str = "") -> dict[str, Any] | None:
    """A held confirmation as saved (``{"block": {"language", "code", "category": [...]}, "summary", "channel"}``),
    or None (logged) when a saved one has another shape: it is dropped, never run or half-read."""
    if pending is None:
        return None
    block = pending.get("block") if isinstance(pending, dict) else None
    ok = (
        isinstance(block, dict)
        and isinstance(block.get("language"), str)
        and isinstance(block.get("code"), str)
        and isinstance(block.get("category"), list)
        and all(isinstance(c, str) for c in block["category"])
        and isinstance(pending.get("summary"), str)
        and isinstance(pending.get("channel", LOCAL_CHANNEL), str)
    )
    if not ok:
        _LOGGER.warning("Dropped a saved confirmation of another shape in %r", conversation_id)
        return None
    return cast(dict[str, Any], pending)


def _last_error_line(output: str) -> str:
    """The reason of a Python traceback or a shell error, fit to be said ("No module named 'pandas'.")."""
    lines = [line.strip() for line in output.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    last = lines[-1]
    match = re.match(r"^(?:[\w.]+(?:Error|Exception|Interrupt)|error|Error)\s*:\s*(.+)$", last)
    said = speakable(match.group(1) if match else last, max_sentences=1, max_chars=120)
    return said if said.endswith((".", "!", "?", "…")) else (said + "." if said else "")


def _is_sentence(text: str) -> bool:
    """Whether printed output reads as a sentence of its own ("There are 23 days left.") rather than a value."""
    words = text.split()
    return len(words) >= 3 and any(w.isalpha() and len(w) > 2 for w in words)


def folder_state(folder: Path, limit: int = 5000) -> dict[str, tuple[int, int]]:
    """Relative path -> (size, mtime_ns) of the files under ``folder`` (at most ``limit`` files, looking at no
    more than ``4 * limit`` entries, however deep or wide generated code made it; {} if unreadable)."""
    state: dict[str, tuple[int, int]] = {}

    def visit(_fd: int, _name: str, path: str, st: os.stat_result) -> None:
        if stat.S_ISREG(st.st_mode) and len(state) < limit:
            state[path] = (st.st_size, st.st_mtime_ns)

    try:
        scan_folder(folder, visit, max_entries=4 * limit)
    except OSError:
        return {}
    return state


def folder_diff(
    before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]
) -> tuple[list[str], list[str], list[str]]:
    """(created, changed, deleted) relative paths between two ``folder_state`` snapshots."""
    created = [p for p in after if p not in before]
    changed = [p for p in after if p in before and after[p] != before[p]]
    deleted = [p for p in before if p not in after]
    return created, changed, deleted


class SessionManager:
    """Sessions by (conversation id, profile), loaded from and saved to ``<data_dir>/sessions``.

    A conversation belongs to the profile that created it: another profile asking with the same conversation
    id gets a separate session (its own history, pending question and working folder), stored under the
    derived id ``<conversation id> NUL <profile>``; switching back finds the first profile's session intact,
    in memory and on disk.

    Retention: :meth:`prune` deletes saved conversations (their ``.json`` file and their sandbox folder) unused
    for more than ``max_age_days`` days, and the least recently used beyond ``max_count``, and sandbox folders
    whose conversation was never saved once they are :data:`ORPHAN_SECONDS` old; it runs at start-up, every
    :data:`PRUNE_EVERY` saves and whenever the server calls it (hourly). 0 disables a limit. Conversations
    held in memory are never deleted by it.

    A save that fails (a full disk, a read-only folder) is logged, not raised: the turn's answer still goes
    out, and the conversation stays in memory (not expired) until a later save succeeds.
    """

    def __init__(
        self,
        data_dir: Path,
        sandbox_root: Path,
        audit: AuditLog,
        backend_factory: BackendFactory,
        idle_seconds: float = 3600.0,
        home: HomeGateway | None = None,
        user: tuple[int, int] | None = None,
        max_age_days: float = 30.0,
        max_count: int = 1000,
    ) -> None:
        self.home = home
        self.user = user
        self.folder = data_dir / "sessions"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o700)  # conversations are private to the server
        self.sandbox_root = sandbox_root
        self.audit = audit
        self.idle_seconds = idle_seconds
        self._factory = backend_factory
        self._sessions: dict[tuple[str, str], Session] = {}
        self._lock = threading.Lock()
        self.max_age_days = max_age_days
        self.max_count = max_count
        self._unsaved: set[str] = set()  # conversation ids whose last save failed
        self._saves = 0
        self._prune_lock = threading.Lock()
        self._save_lock = threading.Lock()
        try:
            self.prune()
        except OSError as err:  # retention is housekeeping: never a reason not to start
            _LOGGER.warning("Could not apply session retention: %s", err)

    def _file(self, storage_id: str) -> Path:
        return self.folder / f"{safe_name(storage_id)}.json"

    def _load(self, storage_id: str) -> dict[str, Any] | None:
        """The saved state under ``storage_id``; None when there is none. Raises ValueError when a file is
        there but unreadable (it is then never overwritten)."""
        path = self._file(storage_id)
        if not path.exists():
            return None
        try:
            state = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            _LOGGER.warning("Could not restore %s: %s", path, err)
            raise ValueError(str(path)) from err
        if not isinstance(state, dict):
            raise ValueError(str(path))
        return state

    def _owner(self, conversation_id: str) -> str | None:
        """The profile owning the plain conversation id (live or saved), '' for an unreadable file, or None."""
        for (_, profile), session in self._sessions.items():
            if session.storage_id == conversation_id:
                return profile
        try:
            state = self._load(conversation_id)
        except ValueError:
            return ""  # taken by a file we cannot read: never overwrite it
        return None if state is None else str(state.get("profile"))

    def _storage_id(self, conversation_id: str, profile: str) -> str:
        """Where the (conversation, profile) pair lives: the plain id for its owner (or a new conversation),
        the derived id for every other profile."""
        owner = self._owner(conversation_id)
        if owner is None or owner == profile:
            return conversation_id
        return f"{conversation_id}\x00{profile}"

    def get(self, conversation_id: str, profile: Profile) -> Session:
        """Return the session of ``conversation_id`` under ``profile`` (restored from disk if saved), creating
        it if new. Another profile's session of the same id is never touched."""
        with self._lock:
            self._expire()
            key = (conversation_id, profile.name)
            session = self._sessions.get(key)
            if session is not None:
                return session
            storage_id = self._storage_id(conversation_id, profile.name)
            try:
                state = self._load(storage_id)
            except ValueError:
                state = None  # unreadable: start afresh (save() replaces it)
            if state is not None and (
                state.get("profile") != profile.name or state.get("conversation_id") != conversation_id
            ):
                state = None  # pragma: no cover - a hash collision of safe_name
            session = Session(
                conversation_id,
                profile,
                self.sandbox_root,
                self.audit,
                self._factory,
                state,
                self.home,
                self.user,
                storage_id=storage_id,
            )
            self._sessions[key] = session
            return session

    def save(self, session: Session) -> bool:
        """Write the session's state atomically (not for a session that was reset meanwhile).

        Returns False (and logs why) when it could not be written; the session then stays in memory.
        """
        if session.deleted:
            return True
        path = self._file(session.storage_id)
        tmp = path.with_suffix(".tmp")
        # One writer at a time: the server's stop saves every conversation while a turn that just ended saves
        # its own, from another thread; both wrote the same .tmp (one published the other's half-written file,
        # the other's rename failed).
        with self._save_lock:
            try:  # ASCII JSON: lone surrogates are escaped, never a reason to lose the conversation
                tmp.write_text(json.dumps(session.state(), ensure_ascii=True, default=str), encoding="ascii")
                tmp.replace(path)
            except (OSError, TypeError, ValueError, RuntimeError) as err:
                _LOGGER.error("Could not save conversation %s: %s", session.conversation_id, err)
                with contextlib.suppress(OSError):
                    tmp.unlink(missing_ok=True)
                self._unsaved.add(session.storage_id)
                return False
        self._unsaved.discard(session.storage_id)
        self._saves += 1
        if self._saves % PRUNE_EVERY == 0:
            try:
                self.prune()
            except OSError as err:
                _LOGGER.warning("Could not apply session retention: %s", err)
        return True

    def shutdown(self) -> int:
        """Stop every running turn and save every conversation held in memory. Returns how many were saved."""
        with self._lock:
            sessions = list(self._sessions.values())
        for session in sessions:
            session.stop()
        return sum(1 for session in sessions if (session.turns or session.pending) and self.save(session))

    def prune(self, now: float | None = None) -> int:
        """Apply the retention (see the class docstring). Returns how many conversations were deleted."""
        if not self._prune_lock.acquire(blocking=False):
            return 0
        try:
            return self._prune(time.time() if now is None else now)
        finally:
            self._prune_lock.release()

    def _prune(self, now: float) -> int:
        with self._lock:
            live = {safe_name(s.storage_id) for s in self._sessions.values()}
        saved: list[tuple[float, Path]] = []
        for path in self.folder.glob("*.json"):
            with contextlib.suppress(OSError):
                saved.append((path.stat().st_mtime, path))
        saved.sort(reverse=True)  # newest first
        doomed: list[str] = []
        for index, (mtime, path) in enumerate(saved):
            if path.stem in live:
                continue
            too_old = self.max_age_days > 0 and now - mtime > self.max_age_days * 86_400
            too_many = self.max_count > 0 and index >= self.max_count
            if too_old or too_many:
                doomed.append(path.stem)
        for name in doomed:
            (self.folder / f"{name}.json").unlink(missing_ok=True)
            remove_tree(self.sandbox_root / name)
        known = {path.stem for _, path in saved}
        orphans = 0
        if self.sandbox_root.is_dir():
            for folder in self.sandbox_root.iterdir():
                if folder.name in known or folder.name in live or not folder.is_dir():
                    continue
                with contextlib.suppress(OSError):
                    if now - folder.stat().st_mtime > ORPHAN_SECONDS:
                        remove_tree(folder)
                        orphans += 1
        if doomed or orphans:
            _LOGGER.info(
                "Session retention: deleted %d conversations and %d orphan sandbox folders", len(doomed), orphans
            )
        return len(doomed)

    def find(self, conversation_id: str, profile: str | None = None) -> dict[str, Any] | None:
        """Return the saved or live state of a conversation (its owner's, or ``profile``'s), or None.

        The state has ``storage_id`` (see :meth:`workdir`)."""
        with self._lock:
            if profile is None:
                profile = self._owner(conversation_id) or None
                if profile is None:
                    return None
            session = self._sessions.get((conversation_id, profile))
            storage_id = self._storage_id(conversation_id, profile)
        if session is not None:
            return session.state()
        try:
            state = self._load(storage_id)
        except ValueError:
            return None
        if state is None or state.get("profile") != profile:
            return None
        state.setdefault("storage_id", storage_id)
        return state

    def workdir(self, storage_id: str) -> Path:
        """The working folder of a stored conversation (not created)."""
        return self.sandbox_root / safe_name(storage_id)

    def cancel(self, conversation_id: str) -> bool:
        """Ask the running turns of a conversation (any profile) to stop. Returns whether one was live."""
        with self._lock:
            live = [s for (cid, _), s in self._sessions.items() if cid == conversation_id and s.active]
        for session in live:
            session.stop()
        return bool(live)

    def reset(self, conversation_id: str, profiles: Iterable[str] = ()) -> bool:
        """Forget a conversation under every profile (memory, disk, working folders). ``profiles`` names the
        profiles whose separate sessions of this id may be on disk. Returns whether anything existed."""
        with self._lock:
            dropped = [self._sessions.pop(k) for k in [k for k in self._sessions if k[0] == conversation_id]]
        storage_ids = {
            conversation_id,
            *(s.storage_id for s in dropped),
            *(f"{conversation_id}\x00{name}" for name in profiles),
        }
        existed = bool(dropped)
        for session in dropped:
            session.deleted = True
            session.stop()
        for storage_id in storage_ids:
            path = self._file(storage_id)
            existed = existed or path.exists()
            path.unlink(missing_ok=True)
            remove_tree(self.workdir(storage_id))
        return existed

    def _expire(self) -> None:
        """Drop idle sessions from memory (their state stays on disk)."""
        now = time.monotonic()
        for key in [
            k
            for k, s in self._sessions.items()
            if now - s.last_used > self.idle_seconds and not s.lock.locked() and s.storage_id not in self._unsaved
        ]:
            del self._sessions[key]
