"""The home's past end to end: a real Home Assistant with its recorder on (phcc's ``recorder_mock``), states
written with known timestamps, the real o1 server (the shipped ``home`` profile) whose scripted LLM writes
``o1_ha.last_change``; the request goes through HA's conversation API. Judged by the time in the spoken answer
(the home's wall clock) against the timestamps written, and by the audit log.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta
from typing import Any

import pytest
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.components.recorder.common import async_wait_recording_done

from tests.support.ha_home import add_o1_entry, converse, speech
from tests.support.o1_process import O1Process
from tests.support.scripted_llm import ScriptedLLM

DOOR = "binary_sensor.front_door"
WINDOW = "binary_sensor.garage_window"  # recorded, not exposed
ZONE = "Europe/Amsterdam"


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(recorder_mock: Any, enable_custom_integrations: None) -> None:
    """Start the recorder before HA (the recorder fixture must come first), then allow o1."""


async def test_when_did_the_front_door_last_open(
    hass: HomeAssistant, socket_enabled: None, o1_server: O1Process, scripted_llm: ScriptedLLM
) -> None:
    await hass.config.async_set_time_zone(ZONE)
    assert await async_setup_component(hass, "homeassistant", {})
    base = dt_util.utcnow().replace(second=0, microsecond=0) - timedelta(hours=3)
    steps = [
        (DOOR, "off", 0),
        (WINDOW, "off", 0),
        (DOOR, "on", 10),
        (DOOR, "off", 12),
        (DOOR, "on", 95),
        (DOOR, "off", 97),
        (WINDOW, "on", 150),
    ]
    for entity_id, state, minutes in steps:
        name = "Front Door" if entity_id == DOOR else "Garage Window"
        hass.states.async_set(
            entity_id,
            state,
            {"friendly_name": name, "device_class": "door"},
            timestamp=(base + timedelta(minutes=minutes)).timestamp(),
        )
    await hass.async_block_till_done()
    await async_wait_recording_done(hass)
    async_expose_entity(hass, conversation.DOMAIN, DOOR, True)
    async_expose_entity(hass, conversation.DOMAIN, WINDOW, False)
    agent = await add_o1_entry(hass, o1_server.api_url, o1_server.token)

    scripted_llm.script('```python\nprint(o1_ha.last_change("front door", state="open"))\n```', "Done.")
    cid = f"past-{uuid.uuid4().hex}"
    answer = speech(await converse(hass, agent, "When did the front door last open?", cid))
    opened: datetime = dt_util.as_local(base + timedelta(minutes=95))
    assert opened.strftime("%H:%M") in answer, (answer, opened)
    assert "Front Door" in answer and "Garage" not in answer
    # The earlier opening and the unexposed window's later change are not the answer.
    assert dt_util.as_local(base + timedelta(minutes=10)).strftime("%H:%M") not in answer
    assert dt_util.as_local(base + timedelta(minutes=150)).strftime("%H:%M") not in answer
    rows = map(json.loads, (o1_server.data_dir / "audit.jsonl").read_text().splitlines())
    home = [r for r in rows if r.get("kind") == "home" and r.get("conversation_id") == cid]
    assert [(r["op"], r["outcome"]) for r in home] == [("history", "ok")], home

    # Asking the window's past is refused: it is recorded, but not exposed.
    scripted_llm.script('```python\nprint(o1_ha.last_change("garage window"))\n```', "Done.")
    refused = speech(await converse(hass, agent, "When did the garage window last change?", f"past-{uuid.uuid4().hex}"))
    assert dt_util.as_local(base + timedelta(minutes=150)).strftime("%H:%M") not in refused, refused
