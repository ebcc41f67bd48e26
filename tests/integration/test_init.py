"""Tests of setting up and unloading an o1 config entry."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.o1.const import DOMAIN
from homeassistant.config_entries import SOURCE_REAUTH, ConfigEntryState
from homeassistant.const import CONF_TOKEN, CONF_URL
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from .stub_server import Failure, StubO1Server


async def test_setup_and_unload(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """The entry loads with the server's info and unloads cleanly."""
    entry = init_integration
    assert entry.state is ConfigEntryState.LOADED
    assert entry.runtime_data.info.default_profile == "default"
    assert entry.runtime_data.info.profile_names() == ["default", "coder"]
    assert entry.runtime_data.client.url == o1_server.url
    assert hass.states.get("conversation.o1_default") is not None

    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.NOT_LOADED
    assert hass.states.get("conversation.o1_default").state == "unavailable"


async def test_setup_retries_when_server_unreachable(
    hass: HomeAssistant, setup_ha: None, mock_config_entry: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """An unreachable or failing server makes HA retry the setup later."""
    o1_server.failures["info"] = Failure(status=503, body={"error": "starting", "message": "Starting."})
    assert not await hass.config_entries.async_setup(mock_config_entry.entry_id)
    assert mock_config_entry.state is ConfigEntryState.SETUP_RETRY
    assert "Starting." in (mock_config_entry.reason or "")


async def test_setup_retries_when_nobody_listens(
    hass: HomeAssistant, setup_ha: None, closed_port_url: str
) -> None:
    """Nobody listening at the URL makes HA retry the setup later."""
    entry = MockConfigEntry(domain=DOMAIN, data={CONF_URL: closed_port_url, CONF_TOKEN: "t"})
    entry.add_to_hass(hass)
    assert not await hass.config_entries.async_setup(entry.entry_id)
    assert entry.state is ConfigEntryState.SETUP_RETRY


async def test_setup_auth_failure_starts_reauth(
    hass: HomeAssistant, setup_ha: None, mock_config_entry: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """A rejected token fails the setup and starts a re-authentication flow."""
    o1_server.token = "rotated"
    assert not await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    assert mock_config_entry.state is ConfigEntryState.SETUP_ERROR
    flows = hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    assert [f["context"]["source"] for f in flows] == [SOURCE_REAUTH]


async def test_removing_subentry_removes_agent(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Removing a profile's subentry removes its conversation agent."""
    entry = init_integration
    subentry_id = next(iter(entry.subentries))
    assert hass.config_entries.async_remove_subentry(entry, subentry_id)
    await hass.async_block_till_done()
    assert er.async_get(hass).async_get("conversation.o1_default") is None
    assert entry.state is ConfigEntryState.LOADED
