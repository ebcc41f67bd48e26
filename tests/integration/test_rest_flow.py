"""Adding the o1 server through HA's REST config-flow API, the way a script does."""

from __future__ import annotations

from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component

from .stub_server import TOKEN, StubO1Server


async def test_add_server_over_rest(
    hass: HomeAssistant,
    setup_ha: None,
    o1_server: StubO1Server,
    hass_client: ClientSessionGenerator,
) -> None:
    """POST the flow, POST url+token, then find the agent by platform in the registry."""
    assert await async_setup_component(hass, "config", {})
    client = await hass_client()

    response = await client.post("/api/config/config_entries/flow", json={"handler": "o1"})
    assert response.status == 200
    form = await response.json()
    assert form["type"] == "form"
    assert form["step_id"] == "user"
    assert [field["name"] for field in form["data_schema"]] == ["url", "token"]

    response = await client.post(
        f"/api/config/config_entries/flow/{form['flow_id']}",
        json={"url": o1_server.url, "token": TOKEN},
    )
    assert response.status == 200
    created = await response.json()
    assert created["type"] == "create_entry"
    entry_id = created["result"]["entry_id"]
    await hass.async_block_till_done()

    agents = [
        entity.entity_id
        for entity in er.async_entries_for_config_entry(er.async_get(hass), entry_id)
        if entity.platform == "o1" and entity.domain == "conversation"
    ]
    assert agents == ["conversation.o1_default"]
