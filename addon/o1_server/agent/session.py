"""Sessions: one Open Interpreter conversation per conversation id, persisted to disk.

A Session runs its turns in a worker thread (``turn`` is blocking); the SessionManager serialises turns of
one conversation, keeps different conversations apart, saves each after every turn
(``<data_dir>/sessions/<id>.json``) and forgets those idle longer than ``idle_seconds``.
"""

from __future__ import annotations

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
from .speech_text import AnswerStream, describe_changes, speakable
from .types import AgentError, AgentReply, CodeBlock

_LOGGER = logging.getLogger(__name__)

BackendFactory = Callable[[Profile, "Session"], AgentBackend]
# emit(event) receives {"type": "delta", "text": ...} and {"type": "code", "block": {...}} while a turn runs.
Emit = Callable[[dict[str, Any]], None]
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
            examples = self.profile.example_messages()
            self._backend.messages[:] = self._messages or examples
            if hasattr(self._backend, "pinned") and self._backend.messages[:len(examples)] == examples:
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
        before = list(self.backend.messages)
        files_before = folder_state(self.workdir)
        try:
            prompt = self.profile.message_template.replace("{text}", text)
            for delta in self.backend.send(prompt, gate, from_output):
                answer.feed(delta)
        except BackendError as err:
            # A failed turn leaves no trace in the conversation: a half-written history (a question without
            # an answer, an empty reply) would be saved and could break every later turn.
            self.backend.messages[:] = before
            _LOGGER.warning("LLM failed in %s: %s", self.conversation_id, err)
            raise AgentError("llm_unavailable", "I can't reach my language model right now. Please try again later.") from err
        changes = describe_changes(*folder_diff(files_before, folder_state(self.workdir)))
        if changes:
            # The model reads "(no output)" as a failure on its next turn ("the file was not created"): tell it
            # what the code did instead.
            for message in self.backend.messages[len(before):]:
                if message.get("type") == "console" and message.get("content") == "(no output)":
                    message["content"] = f"(no output) {changes}"
        text_out = answer.finish(self._tail(answer, blocks, held, changes))
        return AgentReply(self.conversation_id, self.profile.name, text_out, blocks,
                          continue_conversation=self.pending is not None)

    def _tail(self, answer: AnswerStream, blocks: list[CodeBlock], held: list[CodeBlock],
              changes: str | None = None) -> str | None:
        """What to say after the model's own words (the one place that decides a turn's spoken ending).

        A confirmation question or a refusal when a block was held; else, when code ran and the profile answers
        from the output (or the model said nothing after it), what the code printed, or what it changed in the
        conversation folder when it printed nothing (``changes``, from ``describe_changes``); else the model's own
        words (already streamed in live mode); never nothing.
        """
        if held:
            block = held[-1]
            if block.decision == "confirm" and self.pending is not None:
                return f"{self.pending['summary'].rstrip('.')}. Shall I?"
            return block.reason or "I won't run that."
        ran = [b for b in blocks if b.decision == "allow"]
        from_output = bool(ran) and self.profile.answer_from == "output"
        if answer.model_text and not from_output:
            # The model's words are the answer: streamed live (finish flushes the rest), or, when the profile
            # answers from the output but no code ran, said now.
            return None if answer.live else answer.model_text
        if ran:
            last = ran[-1]
            output = speakable(last.output, max_sentences=2, max_chars=200)
            if last.exit_status == -9:
                return "The code I ran took too long."
            if last.exit_status:
                error = _last_error_line(last.output)
                return f"The code I ran failed: {error}" if error else "The code I ran failed."
            if output in ("True", "False"):
                return "Yes." if output == "True" else "No."
            if output:
                return output if _is_sentence(output) else f"The result is {output}"
            return changes or "I ran the code. It printed nothing and changed no files."
        return answer.model_text or "Sorry, I don't have an answer to that."

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
        files_before = folder_state(self.workdir)
        output = self.execute(block.language, block.code)
        self.backend.messages.append({"role": "user", "type": "message", "content": text})
        self.backend.messages.append({"role": "computer", "type": "console", "format": "output", "content": output})
        said = speakable(block.output, max_sentences=2, max_chars=200)
        changes = describe_changes(*folder_diff(files_before, folder_state(self.workdir)))
        answer = "Done." + (f" {said}" if said else f" {changes}" if changes else "")
        if block.exit_status:
            answer = "I ran it, but it failed."
        return AgentReply(self.conversation_id, self.profile.name, self._answer(live=False).finish(answer), [block])


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
    """Relative path -> (size, mtime_ns) of the files under ``folder`` (at most ``limit``; {} if unreadable)."""
    state: dict[str, tuple[int, int]] = {}
    try:
        for path in folder.rglob("*"):
            if len(state) >= limit:
                break
            try:
                if path.is_file() and not path.is_symlink():
                    st = path.stat()
                    state[str(path.relative_to(folder))] = (st.st_size, st.st_mtime_ns)
            except OSError:
                continue
    except OSError:
        return {}
    return state


def folder_diff(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> tuple[list[str], list[str], list[str]]:
    """(created, changed, deleted) relative paths between two ``folder_state`` snapshots."""
    created = [p for p in after if p not in before]
    changed = [p for p in after if p in before and after[p] != before[p]]
    deleted = [p for p in before if p not in after]
    return created, changed, deleted


def _canonical_language(language: str) -> str:
    """Map Open Interpreter's language names and aliases onto 'python' / 'shell'."""
    name = language.lower().strip()
    if name in ("python", "py", "python3"):
        return "python"
    if name in ("shell", "bash", "sh", "zsh"):
        return "shell"
    return name


class SessionManager:
    """Sessions by conversation id, loaded from and saved to ``<data_dir>/sessions``."""

    def __init__(self, data_dir: Path, sandbox_root: Path, audit: AuditLog, backend_factory: BackendFactory,
                 idle_seconds: float = 3600.0, ha: tuple[str | None, str | None] = (None, None),
                 user: tuple[int, int] | None = None) -> None:
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

    def save(self, session: Session) -> None:
        """Write the session's state atomically (not for a session that was reset meanwhile)."""
        if session.deleted:
            return
        path = self._file(session.conversation_id)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(session.state(), ensure_ascii=False, default=str), encoding="utf-8")
        tmp.replace(path)

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
                    and not s.lock.locked()]:
            del self._sessions[cid]



