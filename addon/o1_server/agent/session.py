"""A session: one Open Interpreter conversation, its turns, its confirmation question and its folder.

A Session runs its turns in a worker thread (``turn`` is blocking). Which sessions exist, their files on disk
and their retention are ``store.SessionManager``'s business.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from . import i18n
from .audit import AuditLog
from .backend import AgentBackend, BackendError, LLMConfig
from .carried import accepted
from .declines import declines, is_yes
from .folder_prompt import folder_prompt, named_in
from .gate import INVALID, Gate, Turn, record
from .home import Capability, HomeGateway, HomeTurn, prompt_for
from .language_id import printed_in_english
from .online import online_topic, system_request
from .profiles import Profile, usable_folders
from .repair import (
    NUDGE,
    SNAPSHOT_FILES,
    compute_request,
    drop_repaired,
    explain_invalid,
    folder_diff,
    folder_state,
    fresh_request,
    guessed,
    is_soft,
    may_repair,
    repair_request,
    repeats,
)
from .sandbox import (
    ExecResult,
    Limits,
    conversation_dir,
    conversation_uid,
    run_code,
)
from .speech_cleaning import (
    READ_ON_CHARS,
    READ_ON_SENTENCES,
    AnswerStream,
    describe_changes,
    is_read_on,
    speakable,
    speakable_parts,
)
from .speech_cleaning.numbers import ASKED_DECIMALS, GROUPED, groups_thousands
from .turn_context import turn_context
from .types import AgentError, AgentReply, CodeBlock, TokenUsage
from .units import with_facts

_LOGGER = logging.getLogger(__name__)

BackendFactory = Callable[[Profile, "Session"], AgentBackend]
# emit(event) receives {"type": "delta", "text": ...} and {"type": "code", "block": {...}} while a turn runs.
Emit = Callable[[dict[str, Any]], None]
READ_ON = (READ_ON_SENTENCES, READ_ON_CHARS)  # the part of a long answer said for each "read on"
# The part of a block's output said first: four sentences (a "top 3" list and its title, a result after the
# question the code restated) and about 300 characters; the rest waits for "read on".
FIRST_OUTPUT = (4, 300)
LOCAL_CHANNEL = "local"
"""The channel of in-process callers (tests, tools). Servers name theirs: ``http``, ``wyoming:<host>``,
``01:<host>`` (see ``O1Agent.ask_stream``)."""


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
        realm: str = LOCAL_CHANNEL,
    ) -> None:
        self.conversation_id = conversation_id
        self.realm = realm  # the transport that made it (see realm_of): only that one continues it
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
        more = (state or {}).get("more")
        self.more = more if isinstance(more, str) else ""  # the unsaid rest of the last answer (see _read_on)
        self.values = accepted((state or {}).get("values"))  # what its Python blocks left behind (.carried)
        self._unsaid = ""  # what the running turn cut off the output it says (see _said)
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
        self._started = time.monotonic()  # when the running turn began (its seconds_per_turn count from here)
        self._named: set[str] = set()  # folder files the requests named: listed with their start (folder_prompt)
        self._declined: dict[str, Any] | None = None  # the held block the user just declined (_cancelled_then)
        self._start_files: dict[str, tuple[int, int]] = {}  # the folder when the running turn began
        self.llm: LLMConfig | None = None  # the model the last turn chose (None: the profile's)

    # ------------------------------------------------------------------ state
    def state(self) -> dict[str, Any]:
        """Return the JSON-serialisable state saved to disk."""
        return {
            "conversation_id": self.conversation_id,
            "storage_id": self.storage_id,
            "profile": self.profile.name,
            "realm": self.realm,
            "messages": self._backend.messages if self._backend else self._messages,
            "turns": self.turns,
            "pending": self.pending,
            "language": self.language,
            "more": self.more,
            "values": self.values,
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
        broker socket, bound into the box; the profile's granted folders are bound at their own paths (read-only
        unless granted read-write)."""
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
            folders=usable_folders(self.profile.folders, (self.workdir.parent, self.audit.path.parent)),
        )

    def _gate_for(self, channel: str) -> Gate:
        """A gate for this conversation's blocks asked on ``channel`` (see :mod:`.gate`)."""
        turn = Turn(self.conversation_id, self.profile, self.workdir, self.audit, self.cancelled, channel, self.values)
        return Gate(turn, self._run_block, self._emit_block, self._hold, self._broker)

    def _broker(self) -> Any:
        """The running turn's Home Assistant broker, or None."""
        return self._capability.broker if self._capability is not None else None

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

    def _open_home(self, home: HomeTurn | None, emit: Emit | None, instructions: str = "", asked: str = "") -> None:
        """Open the turn's Home Assistant capability (profiles with access) and tell the LLM about the home. Turns
        Home Assistant answered itself since the last one ("prefer handling commands locally") join the
        conversation's memory first, so the model knows what was already done."""
        if home is not None and home.context is not None and home.context.local_turns:
            for user, answer in home.context.local_turns:
                self.backend.messages.append({"role": "user", "type": "message", "content": user})
                self.backend.messages.append({"role": "assistant", "type": "message", "content": answer})
        self._open_capability(home, emit)
        self._set_turn_context(instructions, asked)

    def _set_turn_context(self, instructions: str, asked: str = "") -> None:
        """This turn's extra system text: today's date (:func:`today_line`), the home's context (with a
        capability), the folder's files (:mod:`.folder_prompt`; the ones this conversation's requests named, as
        ``asked`` does, with their start), then the agent's ``instructions``; it replaces the last turn's, so
        instructions hold for their turn only."""
        home = prompt_for(self._capability.broker.context, self.profile.home_assistant) if self._capability else ""
        # One scan a turn: the folder prompt, the online check and the turn's "what changed" all start from it
        # (no code runs before the turn's first block).
        self._start_files = folder_state(self.workdir)
        self._named |= named_in(asked, self._start_files)  # kept: a follow-up's context stays the same
        folder = folder_prompt(self.workdir, self._start_files, self._named)
        if hasattr(self.backend, "set_turn_context"):
            self.backend.set_turn_context(turn_context(home, folder, instructions))

    def _open_capability(self, home: HomeTurn | None, emit: Emit | None) -> None:
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
                self.profile.guarded,
            )
        except OSError as err:  # no socket: the code hears "no access", nothing else breaks
            _LOGGER.error("Could not open the Home Assistant socket for %s: %s", self.conversation_id, err)

    def _changes(self, files_before: dict[str, tuple[int, int]]) -> str | None:
        """What this turn's code did, for when it printed nothing: the conversation folder's changes
        (``describe_changes``) and the states Home Assistant reported after the turn's control calls."""
        said = [describe_changes(*folder_diff(files_before, folder_state(self.workdir)), language=self.language)]
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
        instructions: str | None = None,
        llm: LLMConfig | None = None,
    ) -> AgentReply:
        """Answer one user message (blocking). Raises AgentError when the LLM fails.

        ``emit`` (optional, called from this worker thread) gets the answer's sentences and each code block
        as they happen; the deltas it gets, concatenated, equal the reply's answer. ``channel`` names who is
        asking (see :data:`LOCAL_CHANNEL` and ``O1Agent.ask_stream``): only the channel that was asked a
        confirmation question can answer it. ``home`` is what the request brought for Home Assistant
        (context and relay); the turn's capability is closed at its end. ``language`` (``"de-DE"``...; None: the
        conversation's last one) is the language o1 speaks and judges a confirmation in (see :mod:`.i18n`).
        ``instructions`` (the agent's own, from Home Assistant) join the system message for this turn only.
        ``llm`` (None: the profile's) answers it: another model than the last turn's makes a new backend with
        the same messages. The reply's ``usage`` is the tokens of the turn's LLM requests.
        """
        with self.lock:
            self.language = i18n.normalize(language) if language else self.language
            self.cancelled.clear()  # a stop asked for before this turn began was meant for an earlier one
            self.running = True  # set before checking `abandoned`: the caller sets that, then reads this
            if abandoned is not None and abandoned.is_set():
                # Its caller gave up while it waited behind another turn: it must not run at all.
                self.running = False
                raise AgentError("timeout", i18n.t(self.language, "error.timeout"))
            self.last_used = self._started = time.monotonic()
            self._emit = emit
            self._use_llm(llm)
            self._take_usage()  # what an earlier, failed turn counted is not this one's
            spoken = i18n.begin(self.language)  # the policy's sentences (classify takes no language)
            places = ASKED_DECIMALS.set(i18n.asked_decimals(text, self.language))
            more, self.more, self._unsaid = self.more, "", ""  # a new question drops the last answer's rest
            try:
                if self.pending is not None and self.pending.get("channel") != channel:
                    self._drop_foreign_pending(channel)
                self._open_home(home, emit, (instructions or "").strip(), text)
                if self.pending is not None:
                    reply = self._answer_pending(text, channel)
                elif more and is_read_on(text, self.language):
                    reply = self._read_on(more)
                else:
                    reply = self._respond(text, channel)
                reply.usage = self._take_usage()
            finally:
                ASKED_DECIMALS.reset(places)
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

    def _use_llm(self, llm: LLMConfig | None) -> None:
        """Answer with ``llm`` from now on; a change drops the backend (its messages are kept for the next)."""
        if llm == self.llm:
            return
        if self._backend is not None:
            self._messages = list(self._backend.messages)
            self._backend = None
        self.llm = llm

    def _take_usage(self) -> TokenUsage | None:
        """The backend's token counts since the last call (None without a backend or counts)."""
        take = getattr(self._backend, "take_usage", None)
        usage: TokenUsage | None = take() if take is not None else None
        return usage

    def _said(self, text: str, sentences: int, chars: int, code: str = "") -> str:
        """``text`` as it is said at the end of a turn, at most ``sentences`` sentences and about ``chars``
        characters; what is cut off is kept for :meth:`_finish` (and a later "read on"). ``code``: the block
        that printed it (how it formats numbers tells what "45,678" is)."""
        grouped = GROUPED.set(groups_thousands(code))
        try:
            said, self._unsaid = speakable_parts(text, sentences, chars, language=self.language)
        finally:
            GROUPED.reset(grouped)
        return said

    def _finish(self, answer: AnswerStream, tail: str | None) -> str:
        """The turn's whole spoken answer (``answer.finish``). When part of it was not said and no question is
        pending, it ends with "There is more; say 'read on'." and the rest is kept in ``self.more``."""
        more = None if self.pending is not None else i18n.t(self.language, "speech.more")
        said = answer.finish(tail, self._unsaid, more)
        self.more = answer.unsaid
        return said

    def _read_on(self, more: str) -> AgentReply:
        """The next part of the last answer's unsaid rest ("read on"), without asking the model or running code;
        it too ends with the "more" sentence while something is left."""
        tail = self._said(more, *READ_ON)
        said = self._finish(self._answer(live=False), tail)
        return AgentReply(self.conversation_id, self.profile.name, said, [], continue_conversation=bool(self.more))

    def _respond(self, text: str, channel: str) -> AgentReply:
        """A new request: what o1 says itself to one this profile cannot do (:meth:`_cannot`), else the model's."""
        said = self._cannot(text)
        return self._said_only(text, said) if said else self._chat(text, channel)

    def _cannot(self, text: str) -> str | None:
        """This profile's refusal of controlling programs for a request to shut down or restart the computer
        (:func:`.online.system_request`), or "I can't look that up" for one only the internet can answer when
        the profile has none (:func:`.online.online_topic`; a weather device Home Assistant exposes keeps "the
        weather" for the home, a word of an exposed device's name or area keeps the request); else None."""
        entities = broker.context.entities if (broker := self._broker()) is not None else ()
        home = [word for e in entities for word in (*e.names, *e.areas, e.entity_id.partition(".")[2])]
        if self.profile.policy.get("process_control") == "deny" and system_request(text, self.language, home):
            denied = i18n.t(self.language, "category.process_control.denied")
            return i18n.t(self.language, "refuse.policy", rules=denied)
        if self.profile.internet or any(e.domain == "weather" for e in entities):
            return None
        follow_up = any(m.get("role") == "user" for m in self.backend.messages)
        found = online_topic(text, self.language, [*self._start_files, *home], follow_up)
        return i18n.t(self.language, "online.cant") if found is not None else None

    def _said_only(self, text: str, said: str) -> AgentReply:
        """What o1 ``said`` itself to ``text``: no model, no code; it joins the conversation's memory so that a
        follow-up knows it was asked."""
        said = self._finish(self._answer(live=False), said)
        self.backend.messages.append({"role": "user", "type": "message", "content": text})
        self.backend.messages.append({"role": "assistant", "type": "message", "content": said})
        return AgentReply(self.conversation_id, self.profile.name, said, [])

    def _answer(self, live: bool) -> AnswerStream:
        """An AnswerStream that forwards sentences to the streaming client, if any."""
        emit = self._emit
        return AnswerStream(
            (lambda text: emit({"type": "delta", "text": text})) if emit else None, live, language=self.language
        )

    def _chat(self, text: str, channel: str = LOCAL_CHANNEL) -> AgentReply:
        """One turn: the user's message, then a short repair request while its last block is broken, failed
        or printed nothing for a question (see :mod:`.repair`; never for a refusal or a confirmation), at most
        ``retries_per_turn`` of them, each raising the block cap by one. In live mode a repair reply's words
        before its block are not said. The failed attempts then leave the history (the audit keeps them)."""
        gate = self._new_gate(channel)
        blocks, held = gate.blocks, gate.held
        from_output = self.profile.answer_from == "output"
        answer = self._answer(live=not from_output)
        llm_failed = False
        before = list(self.backend.messages)
        files_before = self._start_files
        # A snapshot cut at its cap may miss files: then the folder as it is decides (fails towards asking).
        gate.existing = frozenset(files_before) if len(files_before) < SNAPSHOT_FILES else None
        # A site the user named in an earlier turn ("summarize that page again") is still the user's.
        earlier = [
            str(m.get("content"))
            for m in before[getattr(self.backend, "pinned", 0) :]
            if m.get("role") == "user" and m.get("type") == "message"
        ]
        gate.request = "\n".join([*earlier, text])
        asked = i18n.digits(text, self.language)  # the numbers and times as the model reads them (repairs judge it)
        said = with_facts(asked, self.language)  # "(Unit facts: 1 square yard = 0.836127 square meter.)"
        prompt = self.profile.message_template.replace("{text}", i18n.for_model(said, self.language))
        repairs: list[str] = []  # the repair requests sent, in order
        failed: CodeBlock | None = None  # the broken or failed block the turn ends on, unrepaired
        words: list[str] = []  # a repair reply's words since its last block
        first = 0  # index in blocks of the running request's first block

        def repair() -> str | None:
            changed = lambda: bool(self._changes(files_before))  # noqa: E731 - asked only for a silent block
            told = {kind for kind in map(is_soft, repairs) if kind}
            return repair_request(
                blocks[first:],
                asked,
                NUDGE in repairs,
                changed,
                lambda: folder_state(self.workdir),
                told,
                self.language,
                self.workdir,
            )

        def admit(language: str, code: str) -> bool:
            words.clear()  # a repair reply's words before its block ("Here is the fix:") are not said
            return gate.admit(language, code)

        def after_code() -> bool:  # asked once each block of the running request has run
            if from_output:
                return True
            wanted = repair()  # a failure always ends the request: repaired, or said as it is
            return wanted is not None and (wanted != NUDGE or self._may_repair(len(repairs)))

        message = prompt
        fresh: str | None = None  # the question asked again after a repeated repair (it stands for the question)
        try:
            while True:
                first = len(blocks)
                try:
                    for delta in self.backend.send(message, admit if repairs else gate.admit, after_code):
                        (words.append if repairs else answer.feed)(delta)
                finally:
                    gate.drop_unrun()  # a block admitted but never run is recorded as not run
                explain_invalid(self.backend.messages, blocks[first:])
                message_or_none = repair()
                if (
                    message_or_none is None
                    and from_output
                    and not repairs
                    and len(blocks) == first
                    and guessed(answer.model_text, message, files_before)
                    and self._may_repair(len(repairs))
                ):
                    message_or_none = compute_request(prompt)
                    answer = self._answer(live=False)  # the guess is not said (nothing was: no code ran)
                repeated = bool(repairs) and repeats(blocks, first)
                if (
                    message_or_none is None
                    and repeated
                    and is_soft(repairs[-1])
                    and (blocks[-1].decision, blocks[-1].exit_status) == ("allow", 0)  # never a refusal or a hold
                ):
                    message_or_none = repairs[-1]  # asked to change its block, the model wrote it again
                failed = blocks[-1] if message_or_none is not None and not is_soft(message_or_none) else None
                if message_or_none is None or not self._may_repair(len(repairs)):
                    break
                message = message_or_none
                if repeated:
                    if fresh is not None:
                        break  # asked afresh, the model wrote the very code again
                    # Shown its own block, the model copies it: the question again, without the attempts.
                    pinned = getattr(self.backend, "pinned", 0)
                    fresh = message = fresh_request(self.backend.messages, prompt, message_or_none, pinned)
                repairs.append(message_or_none)  # the request itself (its kind), also when sent inside a fresh one
                gate.extra_blocks += 1
        except BackendError as err:
            # A failed turn leaves no trace in the conversation: a half-written history (a question without
            # an answer, an empty reply) would be saved and could break every later turn.
            self.backend.messages[:] = before
            _LOGGER.warning("LLM failed in %s: %s", self.conversation_id, err)
            failed = failed if blocks and blocks[-1] is failed else None  # a block after it: answer from that
            ran = any(b.decision == "allow" and b.exit_status is not None for b in blocks)
            if not ran and not held and failed is None:
                raise AgentError("llm_unavailable", i18n.t(self.language, "error.llm_unavailable")) from err
            llm_failed = True  # code already ran (or was held): answer with what it gave instead of losing it
        if repairs and not llm_failed:
            if fresh is not None:  # the history keeps the question as it was asked
                for entry in self.backend.messages:
                    if entry.get("role") == "user" and entry.get("content") == fresh:
                        entry["content"] = prompt
            drop_repaired(self.backend.messages, prompt, repairs[-1])
        if words:
            answer.feed("\n" + "".join(words))  # a repair reply's words after its last block
        # Only a block that printed nothing needs to know what the code changed: worked out at most once, then.
        changes = functools.cache(lambda: self._changes(files_before))
        # The model reads "(no output)" as a failure on its next turn ("the file was not created"): tell it
        # what the code did instead.
        completed = dict(gate.completed)  # the history holds the blocks as they ran, their added imports too
        for entry in self.backend.messages[len(before) :]:
            if entry.get("type") == "console" and entry.get("content") == "(no output)" and changes():
                entry["content"] = f"(no output) {changes()}"
            elif entry.get("type") == "code" and str(entry.get("content", "")).strip("\n") in completed:
                entry["content"] = completed[str(entry["content"]).strip("\n")]
        tail = self._tail(answer, blocks, held, changes, force_output=llm_failed, failed=failed)
        said = self._finish(answer, tail)
        return AgentReply(
            self.conversation_id,
            self.profile.name,
            said,
            blocks,
            # A confirmation, more of a long answer to read on, or a clarifying question of the broker
            # ("Which one: A or B?"): the user answers.
            continue_conversation=self.pending is not None
            or bool(self.more)
            or getattr(self._broker(), "question", None) is not None,
            retries=len(repairs),
        )

    def _may_repair(self, sent: int) -> bool:
        """Whether one more repair request may start, ``sent`` having been sent (see :func:`.repair.may_repair`)."""
        return may_repair(self.profile.limits, sent, time.monotonic() - self._started, self.cancelled.is_set())

    def _tail(
        self,
        answer: AnswerStream,
        blocks: list[CodeBlock],
        held: list[CodeBlock],
        changes: Callable[[], str | None] = lambda: None,
        force_output: bool = False,
        failed: CodeBlock | None = None,
    ) -> str | None:
        """What to say after the model's own words (the one place that decides a turn's spoken ending).

        A confirmation question or a refusal when a block was held; the failure of ``failed`` when the turn
        ended on a block that was broken or failed and could not be repaired (retries spent, no time left);
        else, when code ran and the profile answers from the output (or the model said nothing after it, or
        the LLM failed after the code ran: ``force_output``), what the code printed, or what it changed in the
        conversation folder when it printed nothing (``changes()``, from :meth:`_changes`, only asked then);
        else the model's own words (already streamed in live mode); never nothing. A block whose audit record
        could not be written ran nothing: the user hears why.
        """
        unaudited = [b for b in blocks if b.decision == "audit_failed"]
        if unaudited:
            return unaudited[-1].reason  # nothing ran: the user hears why
        if held:
            block = held[-1]
            if block.decision == "confirm" and self.pending is not None:
                if self._asks_again(self.pending):
                    return i18n.t(self.language, "confirm.left_alone")
                return i18n.t(self.language, "confirm.question", summary=self.pending["summary"].rstrip("."))
            return block.reason or i18n.t(self.language, "refuse.generic")
        if failed is not None and failed.decision == INVALID:
            error = _last_error_line(re.sub(r"^line \d+: ", "", failed.reason))
            return (
                i18n.t(self.language, "code.invalid_because", error=error)
                if error
                else i18n.t(self.language, "code.invalid")
            )
        if failed is not None:
            error = _last_error_line(failed.output)
            return (
                i18n.t(self.language, "code.failed_because", error=error)
                if error
                else i18n.t(self.language, "code.failed")
            )
        ran = [b for b in blocks if b.decision == "allow"]
        from_output = bool(ran) and self.profile.answer_from == "output"
        if answer.model_text and not from_output and not force_output:
            # The model's words are the answer: streamed live (finish flushes the rest), or, when the profile
            # answers from the output but no code ran, said now.
            # What the cleaning for speech leaves of them may be nothing (a reply that was only a code fence
            # in a language no profile runs, or only symbols): the user still hears that there is no answer.
            return None if answer.live else self._said(answer.model_raw, 3, 400) or i18n.t(self.language, "answer.none")
        if ran:
            last = ran[-1]
            output = self._said(last.output, *FIRST_OUTPUT, last.code)
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
            if output and printed_in_english(output, self.language) and changes():
                return changes()  # what the code did, in the conversation's language, not its English print
            if output:
                return output if _is_sentence(output) else i18n.t(self.language, "code.result", output=output)
            return changes() or i18n.t(self.language, "code.nothing")
        return answer.model_text or i18n.t(self.language, "answer.none")

    def _answer_pending(self, text: str, channel: str = LOCAL_CHANNEL) -> AgentReply:
        """The user answered a confirmation question: a plain 'yes' runs exactly the held block (checked and
        decided again first, see :meth:`Gate.confirm`), anything else cancels it. A reply that is another
        request (not a plain no, see :func:`.declines.declines`) is then answered as a new turn, after the
        sentence that says the held block was cancelled."""
        pending, self.pending = self.pending, None
        assert pending is not None  # turn() answers a pending question only when there is one
        data = pending["block"]
        if not is_yes(text, self.language, pending["summary"], data["code"]):
            block = CodeBlock(
                data["language"],
                data["code"],
                decision="cancelled",
                category=data["category"],
                reason="the user did not confirm",
            )
            self._record(block)
            if not declines(text, self.language):
                return self._cancelled_then(text, channel, block, pending)
            self.backend.messages.append({"role": "user", "type": "message", "content": text})
            self.backend.messages.append({"role": "assistant", "type": "message", "content": "Cancelled."})
            said = self._answer(live=False).finish(i18n.t(self.language, "confirm.cancelled"))
            return AgentReply(self.conversation_id, self.profile.name, said, [block])
        gate = self._new_gate(pending.get("channel", LOCAL_CHANNEL))
        block = gate.confirm(data["language"], data["code"])
        if block.decision != "allow":  # the profile no longer allows it (or the block cannot run at all)
            said = self._answer(live=False).finish(block.reason or i18n.t(self.language, "refuse.generic"))
            return AgentReply(self.conversation_id, self.profile.name, said, [block])
        files_before = self._start_files
        output = gate.run(block.language, block.code)
        if block.decision == "audit_failed":
            self.pending = pending  # still held: the user can say yes again once the log is writable
            said = self._answer(live=False).finish(block.reason)
            return AgentReply(self.conversation_id, self.profile.name, said, [block], continue_conversation=True)
        self.backend.messages.append({"role": "user", "type": "message", "content": text})
        self.backend.messages.append({"role": "computer", "type": "console", "format": "output", "content": output})
        said = self._said(block.output, *FIRST_OUTPUT, block.code)
        if said and printed_in_english(said, self.language):
            said = self._changes(files_before) or said  # what it did in the conversation's language
        changes = None if said else self._changes(files_before)
        done = said or changes
        answer = (
            i18n.t(self.language, "confirm.done_with", said=done) if done else i18n.t(self.language, "confirm.done")
        )
        if block.exit_status:
            answer = i18n.t(self.language, "confirm.failed")
        reply = self._finish(self._answer(live=False), answer)
        return AgentReply(
            self.conversation_id, self.profile.name, reply, [block], continue_conversation=bool(self.more)
        )

    def _asks_again(self, pending: dict[str, Any]) -> bool:
        """Whether the block just held is the one the user declined in this very reply (same summary or same
        code): a no with a reason ("no, espera, que todavía lo necesito") is answered as a new request, and the
        model proposed the same deletion again (benchmarks/agent_dev_confirm.py). It is cancelled, not asked
        about a second time."""
        declined = self._declined
        if declined is None:
            return False
        again = bool(
            pending["summary"] == declined["summary"]
            or pending["block"]["code"].strip() == declined["block"]["code"].strip()
        )
        if again:
            self.pending = None
            data = pending["block"]
            self._record(
                CodeBlock(
                    data["language"],
                    data["code"],
                    decision="cancelled",
                    category=data["category"],
                    reason="the user declined it in this reply",
                )
            )
        return again

    def _cancelled_then(
        self, text: str, channel: str, cancelled: CodeBlock, declined: dict[str, Any] | None = None
    ) -> AgentReply:
        """Say the held block was cancelled ("Okay, I won't do it."), then answer ``text`` as a new turn (its
        deltas follow that sentence's); the reply's blocks are the cancelled one, then the new turn's. The held
        question ``declined`` is not asked again in that turn (:meth:`_asks_again`)."""
        said = self._answer(live=False).finish(i18n.t(self.language, "confirm.cancelled"))
        emit, first = self._emit, [True]

        def spaced(event: dict[str, Any]) -> None:  # the new turn's first sentence follows the one said here
            if event.get("type") == "delta" and first[0]:
                first[0] = False
                event = {**event, "text": " " + event["text"]}
            assert emit is not None
            emit(event)

        self._emit = spaced if emit is not None else None
        self._declined = declined
        try:
            reply = self._respond(text, channel)
        finally:
            self._emit, self._declined = emit, None
        return dataclasses.replace(reply, answer=f"{said} {reply.answer}", code_blocks=[cancelled, *reply.code_blocks])

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
    """Whether printed output reads as a sentence of its own ("There are 23 days left.", or a labelled value:
    "Change: 22") rather than a bare value ("22", "3.5 km")."""
    words = text.split()
    if re.match(r"[^\W\d_][^\W_]*(?: [^\W\d_]+){0,3}: \S", text):
        return True
    return len(words) >= 3 and any(w.isalpha() and len(w) > 2 for w in words)
