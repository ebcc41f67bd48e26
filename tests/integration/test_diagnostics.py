"""Tests of the o1 diagnostics."""

from __future__ import annotations

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.o1.diagnostics import async_get_config_entry_diagnostics
from homeassistant.const import CONF_TOKEN, CONF_URL
from homeassistant.core import HomeAssistant

from .stub_server import TOKEN, StubO1Server


async def test_diagnostics_redacts_token(
    hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """Diagnostics show the entry, its agents and the server, never the token."""
    diagnostics = await async_get_config_entry_diagnostics(hass, init_integration)
    assert diagnostics["data"] == {CONF_URL: o1_server.url, CONF_TOKEN: "**REDACTED**"}
    assert TOKEN not in repr(diagnostics)
    assert diagnostics["state"] == "loaded"
    assert diagnostics["server"]["default_profile"] == "default"
    assert diagnostics["server"]["reachable"] is True
    assert diagnostics["server"]["last_error"] is None
    assert [p["name"] for p in diagnostics["server"]["profiles"]] == ["default", "coder"]
    (subentry,) = diagnostics["subentries"].values()
    assert subentry["data"] == {"profile": "default"}
    assert list(diagnostics["entities"]) == ["conversation.o1_default"]


async def test_diagnostics_of_unloaded_entry(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Diagnostics of an unloaded entry have no server part."""
    await hass.config_entries.async_unload(init_integration.entry_id)
    diagnostics = await async_get_config_entry_diagnostics(hass, init_integration)
    assert diagnostics["state"] == "not_loaded"
    assert diagnostics["server"] is None
