"""The o1 integration: a Home Assistant conversation agent backed by an o1 server."""

from __future__ import annotations

from dataclasses import dataclass, field

from homeassistant.config_entries import ConfigEntry
from homeassistant.const import CONF_TOKEN, CONF_URL, Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.helpers.typing import ConfigType

from .client import O1Client, O1ServerInfo
from .const import DOMAIN, LOGGER
from .coordinator import O1Coordinator
from .issues import async_delete_issues
from .llm_api import async_register_llm_apis
from .services import async_setup_services
from .usage import O1UsageStats

PLATFORMS: tuple[Platform, ...] = (Platform.AI_TASK, Platform.CONVERSATION)
CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)


@dataclass(slots=True)
class O1RuntimeData:
    """What a loaded o1 config entry holds: the server's client and the coordinator watching it."""

    client: O1Client
    coordinator: O1Coordinator
    # Subentry id -> that agent's token usage since the entry was loaded (see usage.py).
    usage: dict[str, O1UsageStats] = field(default_factory=dict)

    @property
    def info(self) -> O1ServerInfo:
        """Return what the server last told about itself (version, profiles)."""
        return self.coordinator.data


type O1ConfigEntry = ConfigEntry[O1RuntimeData]


def async_create_client(hass: HomeAssistant, url: str, token: str) -> O1Client:
    """Return a client of the o1 server at `url`, on HA's shared HTTP session."""
    return O1Client(async_get_clientsession(hass), url, token)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Set up the o1 integration (its services)."""
    async_setup_services(hass)
    return True


async def async_setup_entry(hass: HomeAssistant, entry: O1ConfigEntry) -> bool:
    """Set up an o1 server from a config entry."""
    client = async_create_client(hass, entry.data[CONF_URL], entry.data[CONF_TOKEN])
    coordinator = O1Coordinator(hass, entry, client)
    # Raises ConfigEntryNotReady (unreachable, incompatible) or ConfigEntryAuthFailed.
    await coordinator.async_config_entry_first_refresh()
    entry.runtime_data = O1RuntimeData(client=client, coordinator=coordinator)
    _async_adopt_server_id(hass, entry, coordinator.data.server_id)
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    # o1 as a tool of every HA LLM agent: one LLM API per o1 agent, gone with the entry.
    entry.async_on_unload(async_register_llm_apis(hass, entry))
    entry.async_on_unload(entry.add_update_listener(_async_update_listener))
    return True


def _async_adopt_server_id(hass: HomeAssistant, entry: O1ConfigEntry, server_id: str) -> None:
    """Make the server's id the entry's unique id (entries made before servers had ids used the URL).

    Left alone when the server gives no id or another entry already holds it.
    """
    if not server_id or entry.unique_id == server_id:
        return
    if hass.config_entries.async_entry_for_domain_unique_id(DOMAIN, server_id) is not None:
        LOGGER.warning(
            "The o1 server at %s is configured twice (server id %s)", entry.data[CONF_URL], server_id
        )
        return
    hass.config_entries.async_update_entry(entry, unique_id=server_id)


async def async_unload_entry(hass: HomeAssistant, entry: O1ConfigEntry) -> bool:
    """Unload an o1 config entry (and drop its repair issues: nobody watches the server now)."""
    async_delete_issues(hass, entry)
    return await hass.config_entries.async_unload_platforms(entry, PLATFORMS)


async def async_remove_entry(hass: HomeAssistant, entry: O1ConfigEntry) -> None:
    """Drop the repair issues of a removed o1 config entry."""
    async_delete_issues(hass, entry)


async def _async_update_listener(hass: HomeAssistant, entry: O1ConfigEntry) -> None:
    """Reload the entry when it changes (for example a profile subentry was added)."""
    await hass.config_entries.async_reload(entry.entry_id)
