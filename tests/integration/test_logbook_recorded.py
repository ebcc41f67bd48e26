"""The o1 logbook lines through HA's real recorder and logbook."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)
from pytest_homeassistant_custom_component.typing import WebSocketGenerator

from custom_components.o1.const import DOMAIN
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util

from .stub_server import StubO1Server, default_reply

ENTITY_ID = "conversation.o1_default"


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(recorder_mock: Any, enable_custom_integrations: None) -> None:
    """Start the recorder before HA (the recorder fixture must come first), then allow o1."""


async def test_logbook_shows_what_the_agent_ran(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    o1_server: StubO1Server,
    hass_ws_client: WebSocketGenerator,
) -> None:
    """Through HA's real logbook: a turn's code block is a line of the agent's logbook."""
    assert await async_setup_component(hass, "logbook", {})
    await hass.async_block_till_done()
    o1_server.reply = lambda request: {
        **default_reply(request),
        "code_blocks": [{"language": "shell", "code": "rm -rf drafts", "decision": "confirm",
                         "category": ["deletes_files"], "reason": "", "exit_status": None,
                         "output": "", "seconds": 0}],
    }
    start = dt_util.utcnow()
    await conversation.async_converse(hass, "clean up", None, Context(), agent_id=ENTITY_ID)
    await async_wait_recording_done(hass)

    client = await hass_ws_client(hass)
    await client.send_json_auto_id(
        {"type": "logbook/get_events", "start_time": start.isoformat(), "entity_ids": [ENTITY_ID]}
    )
    response = await client.receive_json()
    assert response["success"], response
    lines = [line for line in response["result"] if line.get("domain") == DOMAIN]
    assert [(line["name"], line["message"]) for line in lines] == [
        ("o1 default", "asked before running shell code: rm -rf drafts")
    ]
    assert lines[0]["entity_id"] == ENTITY_ID
