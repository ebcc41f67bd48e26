"""ai_task.generate_data against the stub server: a task answered without code takes the answer's JSON, and
a rejected token fails the task with the translated error and starts the entry's reauthentication.
(tests/integration/test_ai_task.py runs tasks on the real server.)"""

from __future__ import annotations

import probatio
import pytest
from homeassistant.components import ai_task
from homeassistant.config_entries import SOURCE_REAUTH
from homeassistant.const import CONF_TOKEN, CONF_URL
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.o1.config_flow import ai_task_title, entry_title
from custom_components.o1.const import CONF_PROFILE, DOMAIN, SUBENTRY_AI_TASK

from .stub_server import TOKEN, StubO1Server

STRUCTURE = probatio.Schema({probatio.Required("item"): str, probatio.Required("count"): int})


@pytest.fixture
async def task_entity(hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server) -> str:
    """An o1 entry on the stub server with one AI Task of the default profile; return its entity id."""
    assert await async_setup_component(hass, "ai_task", {})
    entry = MockConfigEntry(
        domain=DOMAIN,
        title=entry_title(o1_server.url),
        unique_id=o1_server.server_id,
        data={CONF_URL: o1_server.url, CONF_TOKEN: TOKEN},
        subentries_data=[
            {
                "subentry_type": SUBENTRY_AI_TASK,
                "data": {CONF_PROFILE: "default"},
                "title": ai_task_title("default"),
                "unique_id": None,
            }
        ],
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    (entity_id,) = [e.entity_id for e in er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id)]
    return entity_id


async def test_an_answer_without_code_gives_the_data(
    hass: HomeAssistant, task_entity: str, o1_server: StubO1Server
) -> None:
    """No code block ran: the JSON in the answer's words is the task's data (checked against the structure)."""
    result = await ai_task.async_generate_data(
        hass,
        task_name="milk",
        entity_id=task_entity,
        instructions='Repeat {"item": "milk", "count": 3}',
        structure=STRUCTURE,
    )
    assert result.data == {"item": "milk", "count": 3}
    (turn,) = o1_server.requests_to("POST", "/api/conversation")
    assert turn.json["profile"] == "default"
    assert turn.json["text"] == 'Repeat {"item": "milk", "count": 3}'


async def test_a_rejected_token_fails_the_task_and_starts_reauth(
    hass: HomeAssistant, task_entity: str, o1_server: StubO1Server
) -> None:
    """The server rejects the token: the task raises the translated error and a reauth flow starts."""
    o1_server.token = "rotated"
    with pytest.raises(HomeAssistantError) as err:
        await ai_task.async_generate_data(hass, task_name="t", entity_id=task_entity, instructions="Anything?")
    await hass.async_block_till_done()
    assert err.value.translation_key == "task_failed"
    assert "The access token is not valid." in str(err.value)
    flows = hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    assert [f["context"]["source"] for f in flows] == [SOURCE_REAUTH]
