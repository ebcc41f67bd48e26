"""The ``o1_code_block`` event: fired on HA's bus for each code block the agent wrote.

Automations can trigger on it and the logbook describes it (see logbook.py). Code
and output are truncated: events are recorded in the database.
"""

from __future__ import annotations

from typing import Any

from homeassistant.core import Context, HomeAssistant, callback

from .client import O1CodeBlock
from .const import EVENT_CODE_BLOCK, EVENT_MAX_CODE, EVENT_MAX_OUTPUT

# Event data keys.
ATTR_ENTRY_ID = "entry_id"
ATTR_SUBENTRY_ID = "subentry_id"
ATTR_ENTITY_ID = "entity_id"
ATTR_CONVERSATION_ID = "conversation_id"
ATTR_PROFILE = "profile"
ATTR_LANGUAGE = "language"
ATTR_CODE = "code"
ATTR_DECISION = "decision"
ATTR_CATEGORY = "category"
ATTR_REASON = "reason"
ATTR_EXIT_STATUS = "exit_status"
ATTR_OUTPUT = "output"
ATTR_SECONDS = "seconds"


def truncate(text: str, limit: int) -> str:
    """Return `text` cut to at most `limit` characters, marked with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


def code_block_event_data(
    block: O1CodeBlock,
    *,
    entry_id: str,
    subentry_id: str | None,
    entity_id: str | None,
    conversation_id: str,
    profile: str,
) -> dict[str, Any]:
    """Return the data of the event of one code block."""
    return {
        ATTR_ENTRY_ID: entry_id,
        ATTR_SUBENTRY_ID: subentry_id,
        ATTR_ENTITY_ID: entity_id,
        ATTR_CONVERSATION_ID: conversation_id,
        ATTR_PROFILE: profile,
        ATTR_LANGUAGE: block.language,
        ATTR_CODE: truncate(block.code, EVENT_MAX_CODE),
        ATTR_DECISION: block.decision,
        ATTR_CATEGORY: list(block.category),
        ATTR_REASON: block.reason,
        ATTR_EXIT_STATUS: block.exit_status,
        ATTR_OUTPUT: truncate(block.output, EVENT_MAX_OUTPUT),
        ATTR_SECONDS: block.seconds,
    }


@callback
def async_fire_code_block(
    hass: HomeAssistant, data: dict[str, Any], context: Context | None
) -> None:
    """Fire the event of one code block, in the context of the turn that ran it."""
    hass.bus.async_fire(EVENT_CODE_BLOCK, data, context=context)
