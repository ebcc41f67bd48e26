"""Tests of the logbook lines of the o1_code_block event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from unittest.mock import patch

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.o1.const import DOMAIN, EVENT_CODE_BLOCK
from custom_components.o1.logbook import async_describe_events, code_summary
from homeassistant.core import Event, HomeAssistant

ENTITY_ID = "conversation.o1_default"


def _describer(hass: HomeAssistant) -> Callable[[Event], dict[str, str | None]]:
    """Return the describe callback the o1 logbook platform registers."""
    registered: dict[tuple[str, str], Callable[[Event], dict[str, str | None]]] = {}
    async_describe_events(hass, lambda domain, event_type, fn: registered.__setitem__((domain, event_type), fn))
    assert list(registered) == [(DOMAIN, EVENT_CODE_BLOCK)]
    return registered[(DOMAIN, EVENT_CODE_BLOCK)]


def _event(**data: Any) -> Event:
    """Return an o1_code_block event with defaults for what a test leaves out."""
    base = {"entry_id": None, "entity_id": None, "language": "python", "code": "print(1)",
            "decision": "allow", "exit_status": 0}
    return Event(EVENT_CODE_BLOCK, {**base, **data})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "ran python code: print(1)"),
        ({"exit_status": 2}, "ran python code that failed with exit status 2: print(1)"),
        ({"decision": "confirm", "language": "shell", "code": "rm -rf drafts", "exit_status": None},
         "asked before running shell code: rm -rf drafts"),
        ({"decision": "deny", "code": "import os\nos.system('x')"}, "refused to run python code: import os …"),
        ({"decision": "skipped"}, "skipped python code (too many blocks in one turn): print(1)"),
        ({"decision": "cancelled"}, "did not run python code, as it was not confirmed: print(1)"),
        ({"decision": "quarantined"}, "handled python code (quarantined): print(1)"),
    ],
)
async def test_logbook_messages(
    hass: HomeAssistant, init_integration: MockConfigEntry, data: dict[str, Any], message: str
) -> None:
    """Each decision reads as a sentence, from the translations, with the code's first line."""
    describe = _describer(hass)
    described = describe(_event(entity_id=ENTITY_ID, **data))
    assert described == {"name": "o1 default", "message": message, "entity_id": ENTITY_ID}


async def test_logbook_names(hass: HomeAssistant, init_integration: MockConfigEntry) -> None:
    """The line is named after the agent, else the server's entry (o1.ask), else o1."""
    describe = _describer(hass)
    assert describe(_event(entity_id=ENTITY_ID))["name"] == "o1 default"
    by_service = describe(_event(entry_id=init_integration.entry_id))
    assert by_service["name"] == init_integration.title
    assert by_service["entity_id"] is None
    assert describe(_event(entity_id="conversation.gone", entry_id="gone"))["name"] == "o1"


async def test_logbook_without_translations(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Should the translations be missing, the line still says what happened."""
    describe = _describer(hass)
    with patch("custom_components.o1.logbook.async_get_cached_translations", return_value={}):
        described = describe(_event(decision="deny", language="shell", code="curl x"))
    assert described["message"] == "deny shell: curl x"


def test_code_summary() -> None:
    """The first non-blank line, shortened; further lines are marked."""
    assert code_summary("") == ""
    assert code_summary("\n  print(1)  \n") == "print(1)"
    assert code_summary("a = 1\nb = 2") == "a = 1 …"
    long = code_summary("x" * 200)
    assert len(long) == 80 and long.endswith("…")
