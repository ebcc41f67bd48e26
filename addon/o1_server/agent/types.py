"""Plain data shapes shared by the agent, the HTTP API and the Wyoming `handle` program."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

MAX_TURN_CHARS = 4000
"""Longest user turn, in characters, on every transport (HTTP API, Wyoming ``transcript``, 01 socket).

The agent itself refuses longer text (``AgentError("invalid_request")``), so no transport can bypass it; the
transports check it first only to answer in their own error shape."""


class AgentError(Exception):
    """A turn could not be answered; `code` is a stable machine-readable reason.

    Codes: ``unknown_profile``, ``llm_unavailable``, ``timeout``, ``invalid_request``, ``busy``.
    ``message`` is one short sentence fit to be spoken to the user.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class CodeBlock:
    """One code block the LLM wrote in a turn and what became of it.

    decision: ``allow`` (ran), ``confirm`` (held until the user says yes), ``deny`` (never ran),
    ``skipped`` (over the per-turn cap), ``cancelled`` (a held block the user did not confirm, or that
    another channel interrupted), ``audit_failed`` (allowed, but its audit record could not be written, so
    it never ran; ``reason`` is the sentence the user hears), ``invalid`` (broken, not refused: it does not
    compile, uses a name never defined, or does not parse; never ran; ``reason`` is the short error, e.g.
    "line 2: name 'foo' is not defined"). exit_status is the process exit code, None when it
    did not run, -9 when it was killed at its time limit. output is stdout+stderr, truncated to the profile's
    limit.
    """

    language: str
    code: str
    decision: str = "allow"
    category: list[str] = field(default_factory=list)
    reason: str = ""
    exit_status: int | None = None
    output: str = ""
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON shape used by the API."""
        return asdict(self)


@dataclass
class AgentReply:
    """The answer to one user turn.

    answer: short plain text fit for text-to-speech. continue_conversation: True when the agent waits for
    the user (a confirmation question), so a satellite keeps listening. retries: the extra LLM requests made
    in this turn to repair a broken or failed block, or to ask for the answer a block did not print (0 when
    the first attempt stood; at most the profile's ``limits.retries_per_turn``).
    """

    conversation_id: str
    profile: str
    answer: str
    code_blocks: list[CodeBlock] = field(default_factory=list)
    continue_conversation: bool = False
    retries: int = 0

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON shape used by the API."""
        data = asdict(self)
        return data


class Agent(Protocol):
    """What the API and the Wyoming handler need from the agent."""

    async def ask(
        self,
        text: str,
        conversation_id: str | None = None,
        profile: str | None = None,
        language: str | None = None,
        channel: str = "local",
    ) -> AgentReply:
        """Answer one user turn. Raises AgentError with a spoken-friendly message.

        ``channel`` names who asks (``http``, ``wyoming:<host>``, ``01:<host>``): only the channel that was
        asked a confirmation question can answer it.
        """
        ...
