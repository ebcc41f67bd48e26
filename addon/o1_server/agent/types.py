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


def _count(value: Any) -> int | None:
    """``value`` when it is a token count (an int >= 0, not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


@dataclass
class TokenUsage:
    """Tokens the LLM counted for a turn's requests, as it reported them (OpenAI's ``usage``).

    prompt_tokens: tokens read (every request's prompt, summed); completion_tokens: tokens written; requests:
    how many LLM requests reported usage. ``add`` sums a request's ``usage`` object or dict into it.
    """

    prompt_tokens: int = 0
    completion_tokens: int = 0
    requests: int = 0

    @property
    def total_tokens(self) -> int:
        """prompt_tokens + completion_tokens."""
        return self.prompt_tokens + self.completion_tokens

    def add(self, usage: Any) -> bool:
        """Sum one request's usage (an object or a dict with ``prompt_tokens``/``completion_tokens``; None or
        other shapes are ignored). Returns whether it was counted."""
        if usage is None:
            return False
        fields = usage if isinstance(usage, dict) else vars(usage) if hasattr(usage, "__dict__") else {}
        prompt, completion = _count(fields.get("prompt_tokens")), _count(fields.get("completion_tokens"))
        if prompt is None or completion is None:
            return False
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        self.requests += 1
        return True

    def as_dict(self) -> dict[str, int]:
        """The JSON shape used by the API: ``{"prompt_tokens", "completion_tokens", "total_tokens", "requests"}``."""
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.total_tokens,
            "requests": self.requests,
        }


@dataclass
class AgentReply:
    """The answer to one user turn.

    answer: short plain text fit for text-to-speech. continue_conversation: True when the agent waits for
    the user (a confirmation question), so a satellite keeps listening. retries: the extra LLM requests made
    in this turn to repair a broken or failed block, or to ask for the answer a block did not print (0 when
    the first attempt stood; at most the profile's ``limits.retries_per_turn``). usage: the tokens of the turn's
    LLM requests that were read to their end, summed (None for a turn without one, such as "read on"); from a
    server that sends none (llama_cpp.server 0.3 when streaming) they are LiteLLM's count with its tokenizer.
    """

    conversation_id: str
    profile: str
    answer: str
    code_blocks: list[CodeBlock] = field(default_factory=list)
    continue_conversation: bool = False
    retries: int = 0
    usage: TokenUsage | None = None

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON shape used by the API (``usage`` as :meth:`TokenUsage.as_dict`, or None)."""
        data = asdict(self)
        data["usage"] = self.usage.as_dict() if self.usage is not None else None
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
