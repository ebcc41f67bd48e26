"""Describe the o1 events in the logbook: one line per code block the agent wrote."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from homeassistant.components.logbook.const import (
    LOGBOOK_ENTRY_ENTITY_ID,
    LOGBOOK_ENTRY_MESSAGE,
    LOGBOOK_ENTRY_NAME,
)
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.helpers.translation import async_get_cached_translations

from .const import DEFAULT_NAME, DOMAIN, EVENT_CODE_BLOCK
from .events import (
    ATTR_CODE,
    ATTR_DECISION,
    ATTR_ENTITY_ID,
    ATTR_ENTRY_ID,
    ATTR_EXIT_STATUS,
    ATTR_LANGUAGE,
    truncate,
)

# Characters of the code's first line shown in the logbook.
LOGBOOK_MAX_CODE = 80

# The server's decision about a block -> translation key (strings.json "common") of its line.
DECISION_KEYS = {
    "allow": "logbook_ran",
    "confirm": "logbook_confirm",
    "deny": "logbook_deny",
    "skipped": "logbook_skipped",
    "cancelled": "logbook_cancelled",
}
KEY_FAILED = "logbook_failed"
KEY_OTHER = "logbook_other"


def logbook_key(decision: str, exit_status: int | None) -> str:
    """Return the translation key of the logbook line of a code block."""
    if decision == "allow" and exit_status not in (None, 0):
        return KEY_FAILED
    return DECISION_KEYS.get(decision, KEY_OTHER)


def code_summary(code: str) -> str:
    """Return the first non-blank line of the code, shortened (more lines are marked)."""
    lines = [line.strip() for line in code.splitlines() if line.strip()]
    if not lines:
        return ""
    first = truncate(lines[0], LOGBOOK_MAX_CODE)
    return first if len(lines) == 1 else f"{first} …"


@callback
def async_describe_events(
    hass: HomeAssistant,
    async_describe_event: Callable[
        [str, str, Callable[[Event], dict[str, str | None]]], None
    ],
) -> None:
    """Describe the o1_code_block event."""

    @callback
    def async_describe_code_block(event: Event) -> dict[str, str | None]:
        """Describe one code block: who wrote it, what became of it, its first line."""
        data: Mapping[str, Any] = event.data
        entity_id = data.get(ATTR_ENTITY_ID)
        name = DEFAULT_NAME
        if entity_id and (state := hass.states.get(entity_id)) is not None:
            name = state.name
        elif (entry := hass.config_entries.async_get_entry(data.get(ATTR_ENTRY_ID) or "")) is not None:
            name = entry.title

        decision = str(data.get(ATTR_DECISION) or "")
        exit_status = data.get(ATTR_EXIT_STATUS)
        placeholders = {
            "language": str(data.get(ATTR_LANGUAGE) or ""),
            "code": code_summary(str(data.get(ATTR_CODE) or "")),
            "decision": decision,
            "exit_status": str(exit_status),
        }
        key = f"component.{DOMAIN}.common.{logbook_key(decision, exit_status)}"
        template = async_get_cached_translations(
            hass, hass.config.language, "common", DOMAIN
        ).get(key) or async_get_cached_translations(hass, "en", "common", DOMAIN).get(key)
        message = (
            template.format(**placeholders)
            if template
            else f"{placeholders['decision']} {placeholders['language']}: {placeholders['code']}"
        )
        return {
            LOGBOOK_ENTRY_NAME: name,
            LOGBOOK_ENTRY_MESSAGE: message,
            LOGBOOK_ENTRY_ENTITY_ID: entity_id,
        }

    async_describe_event(DOMAIN, EVENT_CODE_BLOCK, async_describe_code_block)
