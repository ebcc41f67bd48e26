"""Sessions: one Open Interpreter conversation per conversation id, persisted to disk.

A Session runs its turns in a worker thread (``turn`` is blocking); the SessionManager serialises turns of
one conversation, keeps different conversations apart, saves each after every turn
(``<data_dir>/sessions/<id>.json``) and forgets those idle longer than ``idle_seconds``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import shutil
import threading
import time
from collections.abc import Callable

from pathlib import Path
from typing import Any

from . import policy
from .audit import AuditLog
from .backend import AgentBackend, BackendError
from .profiles import Profile
from .sandbox import Limits, conversation_dir, run_code, safe_name
from .speech_text import AnswerStream, speakable
from .types import AgentError, AgentReply, CodeBlock

_LOGGER = logging.getLogger(__name__)

BackendFactory = Callable[[Profile, "Session"], AgentBackend]
# emit(event) receives {"type": "delta", "text": ...} and {"type": "code", "block": {...}} while a turn runs.
Emit = Callable[[dict[str, Any]], None]
PRUNE_EVERY = 50
"""Saves between two retention passes (see :meth:`SessionManager.prune`)."""
ORPHAN_SECONDS = 3600.0
"""Age, in seconds, from which a sandbox folder with no saved conversation and no live session is deleted."""
_YES = re.compile(r"^\s*(yes|yeah|yep|sure|ok|okay|do it|go ahead|please do|confirm(ed)?)\b", re.I)


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
        ha: tuple[str | None, str | None] = (None, None),
        user: tuple[int, int] | None = None,
    ) -> None:
        self.conversation_id = conversation_id
        self._ha = ha
        self.profile = profile
        self.user = user
        self.workdir = conversation_dir(sandbox_root, conversation_id, user)
        self.audit = audit
        self.turns: list[dict[str, Any]] = list((state or {}).get("turns", []))
        self.pending: dict[str, Any] | None = (state or {}).get("pending")
        self.last_used = time.monotonic()
        self.lock = threading.Lock()
        self.cancelled = threading.Event()  # set by stop(), cleared when the turn ends
        self.active = 0  # turns asked for and not finished (maintained by the event loop)
        self.running = False  # a turn holds the lock and is running
        self.deleted = False  # reset while a turn ran: never save it again
        self._messages: list[dict[str, Any]] = list((state or {}).get("messages", []))
        self._factory = backend_factory
        self._backend: AgentBackend | None = None
        self._current: CodeBlock | None = None
        self._emit: Emit | None = None

    # ------------------------------------------------------------------ state
    def state(self) -> dict[str, Any]:
        """Return the JSON-serialisable state saved to disk."""
        return {
            "conversation_id": self.conversation_id,
            "profile": self.profile.name,
            "messages": self._backend.messages if self._backend else self._messages,
            "turns": self.turns,
            "pending": self.pending,
        }

    @property
    def backend(self) -> AgentBackend:
        """The agent backend, created on first use with the saved messages."""
        if self._backend is None:
            self._backend = self._factory(self.profile, self)
            self._backend.messages[:] = self._messages or self.profile.example_messages()
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
        """Run the block the gate just allowed, record it in the audit log, return its output."""
        block = self._current or CodeBlock(language, code, decision="allow")
        self._current = None
        result = run_code(language, code, self.workdir, self.limits(), self._code_env(), self.cancelled)
        block.exit_status = result.exit_status
        block.output = result.output
        block.seconds = result.seconds
        self._record(block)
        return result.output or "(no output)"

    def _code_env(self) -> dict[str, str]:
        """Environment for generated code: Home Assistant access for the o1_ha helper, per the profile."""
        url, token = self._ha
        if self.profile.home_assistant == "none" or not url or not token:
            return {"O1_HA_ACCESS": "none"}
        return {"O1_HA_URL": url, "O1_HA_TOKEN": token, "O1_HA_ACCESS": self.profile.home_assistant}

    def _record(self, block: CodeBlock) -> None:
        """Audit a block whose fate is final, and tell the streaming client about it."""
        self.audit.record(self.conversation_id, self.profile.name, block)
        if self._emit is not None:
            self._emit({"type": "code", "block": block.as_dict()})

    # ------------------------------------------------------------------ turns
    def turn(self, text: str, emit: Emit | None = None, abandoned: threading.Event | None = None) -> AgentReply:
        """Answer one user message (blocking). Raises AgentError when the LLM fails.

        ``emit`` (optional, called from this worker thread) gets the answer's sentences and each code block
        as they happen; the deltas it gets, concatenated, equal the reply's answer.
        """
        with self.lock:
            self.cancelled.clear()  # a stop asked for before this turn began was meant for an earlier one
            self.running = True  # set before checking `abandoned`: the caller sets that, then reads this
            if abandoned is not None and abandoned.is_set():
                # Its caller gave up while it waited behind another turn: it must not run at all.
                self.running = False
                raise AgentError("timeout", "That took too long, so I stopped. Please try again.")
            self.last_used = time.monotonic()
            self._emit = emit
            try:
                if self.pending is not None:
                    reply = self._answer_pending(text)
                else:
                    reply = self._chat(text)
            finally:
                self._emit = None
                self.running = False
                self.cancelled.clear()
            self.turns.append({"text": text, "answer": reply.answer,
                               "code_blocks": [b.as_dict() for b in reply.code_blocks]})
            return reply

    def _answer(self, live: bool) -> AnswerStream:
        """An AnswerStream that forwards sentences to the streaming client, if any."""
        emit = self._emit
        return AnswerStream((lambda text: emit({"type": "delta", "text": text})) if emit else None, live)

    def _chat(self, text: str) -> AgentReply:
        blocks: list[CodeBlock] = []
        held: list[CodeBlock] = []
        cap = self.profile.limits["blocks_per_turn"]

        def gate(language: str, code: str) -> bool:
            code = code.strip("\n")
            if self.cancelled.is_set():
                return False  # the turn was stopped (deadline, cancel, reset): no code runs after that
            if len([b for b in blocks if b.decision == "allow"]) >= cap:
                blocks.append(CodeBlock(language, code, decision="skipped",
                                        reason=f"more than {cap} code blocks in one turn"))
                self._record(blocks[-1])
                return False
            language = _canonical_language(language)
            if language not in self.profile.languages:
                block = CodeBlock(language, code, decision="deny", category=["unparseable"],
                                  reason=f"This profile does not run {language or 'that kind of'} code.")
                blocks.append(block)
                held.append(block)
                self._record(block)
                return False
            found = policy.classify(language, code, self.workdir)
            decision = policy.decide(self.profile.policy, found)
            block = CodeBlock(language, code, decision=decision.action,
                              category=sorted(found.categories), reason=decision.reason)
            blocks.append(block)
            if decision.action == "allow":
                self._current = block
                return True
            held.append(block)
            if decision.action == "confirm":
                self.pending = {"block": block.as_dict(), "summary": found.summary}
            self._record(block)
            return False

        from_output = self.profile.answer_from == "output"
        answer = self._answer(live=not from_output)
        llm_failed = False
        try:
            prompt = self.profile.message_template.replace("{text}", text)
            for delta in self.backend.send(prompt, gate, from_output):
                answer.feed(delta)
        except BackendError as err:
            _LOGGER.warning("LLM failed in %s: %s", self.conversation_id, err)
            if not any(b.decision == "allow" and b.exit_status is not None for b in blocks) and not held:
                raise AgentError("llm_unavailable", "I can't reach my language model right now. Please try again later.") from err
            llm_failed = True  # code already ran (or was held): answer with what it gave instead of losing it
        text_out = answer.finish(self._tail(answer, blocks, held, force_output=llm_failed))
        return AgentReply(self.conversation_id, self.profile.name, text_out, blocks,
                          continue_conversation=self.pending is not None)

    def _tail(self, answer: AnswerStream, blocks: list[CodeBlock], held: list[CodeBlock],
              force_output: bool = False) -> str | None:
        """What to say after the model's own words: a confirmation question, a refusal, or the code's output
        (always the output with ``force_output``: the LLM failed after the code ran)."""
        if held:
            block = held[-1]
            if block.decision == "confirm" and self.pending is not None:
                return f"{self.pending['summary'].rstrip('.')}. Shall I?"
            return block.reason or "I won't run that."
        ran = [b for b in blocks if b.decision == "allow"]
        from_output = ran and self.profile.answer_from == "output"
        if answer.model_text and not from_output and not force_output:
            return None  # the model's words are the answer (already streamed in live mode)
        if ran:
            output = speakable(ran[-1].output, max_sentences=2, max_chars=200)
            if ran[-1].exit_status == 0 and output:
                return f"The result is {output}"
            return "The code I ran failed." if ran[-1].exit_status else "The code ran but printed nothing."
        return "Sorry, I don't have an answer to that."

    def _answer_pending(self, text: str) -> AgentReply:
        """The user answered a confirmation question: 'yes' runs exactly the held block, anything else cancels."""
        pending, self.pending = self.pending, None
        data = pending["block"]
        block = CodeBlock(data["language"], data["code"], decision="allow", category=data["category"],
                          reason="confirmed by the user")
        if not _YES.match(text):
            block.decision = "cancelled"
            block.reason = "the user did not confirm"
            self._record(block)
            self.backend.messages.append({"role": "user", "type": "message", "content": text})
            self.backend.messages.append({"role": "assistant", "type": "message", "content": "Cancelled."})
            said = self._answer(live=False).finish("Okay, I won't do it.")
            return AgentReply(self.conversation_id, self.profile.name, said, [block])
        self._current = block
        output = self.execute(block.language, block.code)
        self.backend.messages.append({"role": "user", "type": "message", "content": text})
        self.backend.messages.append({"role": "computer", "type": "console", "format": "output", "content": output})
        said = speakable(output, max_sentences=2, max_chars=200)
        answer = "Done." + (f" {said}" if said and block.exit_status == 0 else "")
        if block.exit_status:
            answer = "I ran it, but it failed."
        return AgentReply(self.conversation_id, self.profile.name, self._answer(live=False).finish(answer), [block])


def _canonical_language(language: str) -> str:
    """Map Open Interpreter's language names and aliases onto 'python' / 'shell'."""
    name = language.lower().strip()
    if name in ("python", "py", "python3"):
        return "python"
    if name in ("shell", "bash", "sh", "zsh"):
        return "shell"
    return name


class SessionManager:
    """Sessions by conversation id, loaded from and saved to ``<data_dir>/sessions``.

    Retention: :meth:`prune` deletes saved conversations (their ``.json`` file and their sandbox folder) unused
    for more than ``max_age_days`` days, and the least recently used beyond ``max_count``, and sandbox folders
    whose conversation was never saved once they are :data:`ORPHAN_SECONDS` old; it runs at start-up, every
    :data:`PRUNE_EVERY` saves and whenever the server calls it (hourly). 0 disables a limit. Conversations
    held in memory are never deleted by it.

    A save that fails (a full disk, a read-only folder) is logged, not raised: the turn's answer still goes
    out, and the conversation stays in memory (not expired) until a later save succeeds.
    """

    def __init__(self, data_dir: Path, sandbox_root: Path, audit: AuditLog, backend_factory: BackendFactory,
                 idle_seconds: float = 3600.0, ha: tuple[str | None, str | None] = (None, None),
                 user: tuple[int, int] | None = None, max_age_days: float = 30.0, max_count: int = 1000) -> None:
        self._ha = ha
        self.user = user
        self.folder = data_dir / "sessions"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o700)  # conversations are private to the server
        self.sandbox_root = sandbox_root
        self.audit = audit
        self.idle_seconds = idle_seconds
        self._factory = backend_factory
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self.max_age_days = max_age_days
        self.max_count = max_count
        self._unsaved: set[str] = set()  # conversation ids whose last save failed
        self._saves = 0
        self._prune_lock = threading.Lock()
        try:
            self.prune()
        except OSError as err:  # retention is housekeeping: never a reason not to start
            _LOGGER.warning("Could not apply session retention: %s", err)

    def _file(self, conversation_id: str) -> Path:
        return self.folder / f"{safe_name(conversation_id)}.json"

    def get(self, conversation_id: str, profile: Profile) -> Session:
        """Return the session for ``conversation_id`` (restored from disk if saved), creating it if new.

        A conversation keeps the profile it started with unless another profile is asked for explicitly.
        """
        with self._lock:
            self._expire()
            session = self._sessions.get(conversation_id)
            if session is not None and session.profile.name == profile.name:
                return session
            state = None
            path = self._file(conversation_id)
            if session is None and path.exists():
                try:
                    state = json.loads(path.read_text(encoding="utf-8"))
                except (OSError, json.JSONDecodeError) as err:
                    _LOGGER.warning("Could not restore %s: %s", path, err)
                if state and state.get("profile") != profile.name:
                    state = None
            session = Session(conversation_id, profile, self.sandbox_root, self.audit, self._factory, state,
                              self._ha, self.user)
            self._sessions[conversation_id] = session
            return session

    def save(self, session: Session) -> bool:
        """Write the session's state atomically (not for a session that was reset meanwhile).

        Returns False (and logs why) when it could not be written; the session then stays in memory.
        """
        if session.deleted:
            return True
        path = self._file(session.conversation_id)
        tmp = path.with_suffix(".tmp")
        try:
            tmp.write_text(json.dumps(session.state(), ensure_ascii=False, default=str), encoding="utf-8")
            tmp.replace(path)
        except (OSError, TypeError, ValueError, RuntimeError) as err:
            _LOGGER.error("Could not save conversation %s: %s", session.conversation_id, err)
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            self._unsaved.add(session.conversation_id)
            return False
        self._unsaved.discard(session.conversation_id)
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
            live = {safe_name(cid) for cid in self._sessions}
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
            shutil.rmtree(self.sandbox_root / name, ignore_errors=True)
        known = {path.stem for _, path in saved}
        orphans = 0
        if self.sandbox_root.is_dir():
            for folder in self.sandbox_root.iterdir():
                if folder.name in known or folder.name in live or not folder.is_dir():
                    continue
                with contextlib.suppress(OSError):
                    if now - folder.stat().st_mtime > ORPHAN_SECONDS:
                        shutil.rmtree(folder, ignore_errors=True)
                        orphans += 1
        if doomed or orphans:
            _LOGGER.info("Session retention: deleted %d conversations and %d orphan sandbox folders",
                         len(doomed), orphans)
        return len(doomed)

    def find(self, conversation_id: str) -> dict[str, Any] | None:
        """Return the saved or live state of a conversation, or None."""
        with self._lock:
            session = self._sessions.get(conversation_id)
        if session is not None:
            return session.state()
        path = self._file(conversation_id)
        if path.exists():
            try:
                return json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                return None
        return None

    def cancel(self, conversation_id: str) -> bool:
        """Ask a live session's running turn to stop. Returns whether the session is live."""
        with self._lock:
            session = self._sessions.get(conversation_id)
        if session is None or not session.active:
            return False
        session.stop()
        return True

    def reset(self, conversation_id: str) -> bool:
        """Forget a conversation (memory and disk). Returns whether it existed."""
        with self._lock:
            session = self._sessions.pop(conversation_id, None)
        if session is not None:
            session.deleted = True
            session.stop()
        path = self._file(conversation_id)
        existed = session is not None or path.exists()
        path.unlink(missing_ok=True)
        shutil.rmtree(conversation_dir(self.sandbox_root, conversation_id), ignore_errors=True)
        return existed

    def _expire(self) -> None:
        """Drop idle sessions from memory (their state stays on disk)."""
        now = time.monotonic()
        for cid in [c for c, s in self._sessions.items() if now - s.last_used > self.idle_seconds
                    and not s.lock.locked() and c not in self._unsaved]:
            del self._sessions[cid]



