"""Token usage of the o1 agents, as the server counts it per turn.

Each turn's usage goes into the conversation's trace as core's LLM agents record
theirs (an agent detail ``{"stats": {"input_tokens", "output_tokens"}}``), and is
summed per agent (subentry) for the diagnostics.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from homeassistant.components import conversation

from .client import O1Usage


@dataclass(slots=True)
class O1UsageStats:
    """One agent's token usage since the entry was loaded: totals and the last turn's."""

    turns: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    last_turn: O1Usage | None = None

    def add(self, usage: O1Usage) -> None:
        """Count one turn's usage."""
        self.turns += 1
        self.prompt_tokens += usage.prompt_tokens
        self.completion_tokens += usage.completion_tokens
        self.last_turn = usage

    def as_dict(self) -> dict[str, Any]:
        """Return the stats as JSON (for diagnostics)."""
        return {
            "turns": self.turns,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.prompt_tokens + self.completion_tokens,
            "last_turn": None if self.last_turn is None else self.last_turn.as_dict(),
        }


def trace_stats(usage: O1Usage) -> dict[str, Any]:
    """Return the agent detail core's LLM agents add to the conversation trace for their usage."""
    return {
        "stats": {
            "input_tokens": usage.prompt_tokens,
            "output_tokens": usage.completion_tokens,
        }
    }


def record_usage(
    stats: dict[str, O1UsageStats],
    subentry_id: str,
    usage: O1Usage | None,
    chat_log: conversation.ChatLog | None = None,
) -> None:
    """Count a turn's usage for its agent and put it in the chat log's trace (nothing without usage)."""
    if usage is None:
        return
    stats.setdefault(subentry_id, O1UsageStats()).add(usage)
    if chat_log is not None:
        chat_log.async_trace(trace_stats(usage))
