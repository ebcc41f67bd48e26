"""The o1 integration: a Home Assistant conversation agent backed by an o1 server."""

from __future__ import annotations

from dataclasses import dataclass

from homeassistant.config_entries import ConfigEntry
from homeassistant.const import CONF_TOKEN, CONF_URL, Platform
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ConfigEntryAuthFailed, ConfigEntryNotReady
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.helpers.typing import ConfigType

from .client import (
    O1AuthError,
    O1Client,
    O1ConnectionError,
    O1ResponseError,
    O1ServerInfo,
)
from .const import DOMAIN
from .services import async_setup_services

PLATFORMS: tuple[Platform, ...] = (Platform.CONVERSATION,)
CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)


@dataclass(slots=True)
class O1RuntimeData:
    """What a loaded o1 config entry holds: the server's client and what it told at setup."""

    client: O1Client
    info: O1ServerInfo


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
    try:
        info = await client.async_get_info()
    except O1AuthError as err:
        raise ConfigEntryAuthFailed(
            translation_domain=DOMAIN, translation_key="invalid_auth"
        ) from err
    except (O1ConnectionError, O1ResponseError) as err:
        raise ConfigEntryNotReady(
            translation_domain=DOMAIN,
            translation_key="cannot_connect",
            translation_placeholders={"url": client.url, "error": str(err)},
        ) from err

    entry.runtime_data = O1RuntimeData(client=client, info=info)
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    entry.async_on_unload(entry.add_update_listener(_async_update_listener))
    return True


async def async_unload_entry(hass: HomeAssistant, entry: O1ConfigEntry) -> bool:
    """Unload an o1 config entry."""
    return await hass.config_entries.async_unload_platforms(entry, PLATFORMS)


async def _async_update_listener(hass: HomeAssistant, entry: O1ConfigEntry) -> None:
    """Reload the entry when it changes (for example a profile subentry was added)."""
    await hass.config_entries.async_reload(entry.entry_id)
