"""Fixtures of the o1 integration's tests."""

from __future__ import annotations

import logging

from collections.abc import AsyncGenerator
import socket

import pytest

# pytest-homeassistant-custom-component turns SQLAlchemy's statement log on (INFO) when it loads, and the
# recorder's thread then prints every SQL statement, some of them outside pytest's capture. No test reads them.
logging.getLogger("sqlalchemy.engine").setLevel(logging.WARNING)
from pytest_homeassistant_custom_component.common import MockConfigEntry

# Import the integration first, or HA's loader finds phcc's own testing custom_components.
import custom_components.o1  # noqa: F401
from custom_components.o1.config_flow import conversation_subentry, entry_title
from custom_components.o1.const import DOMAIN
from homeassistant.const import CONF_TOKEN, CONF_URL
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from .stub_server import TOKEN, StubO1Server


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations: None) -> None:
    """Let HA load the o1 custom integration in every test."""


@pytest.fixture
async def o1_server(hass: HomeAssistant, socket_enabled: None) -> AsyncGenerator[StubO1Server]:
    """Run a stub o1 server on 127.0.0.1 for the test."""
    server = StubO1Server()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def closed_port_url(socket_enabled: None) -> str:
    """Return the URL of a 127.0.0.1 port nobody listens on."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture
async def setup_ha(hass: HomeAssistant) -> None:
    """Set up the components the o1 integration needs, in the right order."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})


@pytest.fixture
def mock_config_entry(hass: HomeAssistant, o1_server: StubO1Server) -> MockConfigEntry:
    """Return an o1 config entry for the stub server, with the default profile's agent."""
    entry = MockConfigEntry(
        domain=DOMAIN,
        title=entry_title(o1_server.url),
        unique_id=o1_server.server_id,
        data={CONF_URL: o1_server.url, CONF_TOKEN: TOKEN},
        subentries_data=[conversation_subentry("default")],
    )
    entry.add_to_hass(hass)
    return entry


@pytest.fixture
async def init_integration(
    hass: HomeAssistant, setup_ha: None, mock_config_entry: MockConfigEntry
) -> MockConfigEntry:
    """Set up the o1 config entry against the stub server."""
    assert await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done()
    return mock_config_entry
