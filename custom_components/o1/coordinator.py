"""Keep track of an o1 server: reachable, compatible, and which profiles it offers."""

from __future__ import annotations

from typing import TYPE_CHECKING, override

from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ConfigEntryAuthFailed
from homeassistant.helpers.update_coordinator import DataUpdateCoordinator, UpdateFailed

from .client import O1AuthError, O1Client, O1Error, O1ServerInfo
from .const import DOMAIN, LOGGER, UPDATE_INTERVAL
from .issues import (
    async_check_compatible,
    async_check_profiles,
    async_server_reachable,
    async_server_unreachable,
    incompatible_placeholders,
)

if TYPE_CHECKING:
    from . import O1ConfigEntry


class O1Coordinator(DataUpdateCoordinator[O1ServerInfo]):
    """Ask the server's /api/info every minute.

    Its data is the server's info (version and profiles). When the server cannot be
    reached, or speaks another API version, the update fails: the agents become
    unavailable and, after a while, a repair issue tells the user. A rejected
    token starts a re-authentication. An agent whose profile the server no longer
    offers gets a fixable repair issue (remove the agent).
    """

    config_entry: O1ConfigEntry

    def __init__(self, hass: HomeAssistant, entry: O1ConfigEntry, client: O1Client) -> None:
        """Keep the client of the entry's server."""
        super().__init__(
            hass,
            LOGGER,
            config_entry=entry,
            name=entry.title,
            update_interval=UPDATE_INTERVAL,
            always_update=False,
        )
        self.client = client

    @override
    async def _async_update_data(self) -> O1ServerInfo:
        """Fetch the server's info; raise UpdateFailed or ConfigEntryAuthFailed."""
        try:
            info = await self.client.async_get_info()
        except O1AuthError as err:
            raise ConfigEntryAuthFailed(
                translation_domain=DOMAIN, translation_key="invalid_auth"
            ) from err
        except O1Error as err:
            async_server_unreachable(self.hass, self.config_entry, str(err))
            raise UpdateFailed(
                translation_domain=DOMAIN,
                translation_key="cannot_connect",
                translation_placeholders={"url": self.client.url, "error": str(err)},
            ) from err
        async_server_reachable(self.hass, self.config_entry)
        if not async_check_compatible(
            self.hass, self.config_entry, info.version, info.api_version
        ):
            raise UpdateFailed(
                translation_domain=DOMAIN,
                translation_key="incompatible_server",
                translation_placeholders=incompatible_placeholders(
                    self.config_entry, info.version, info.api_version
                ),
            )
        async_check_profiles(self.hass, self.config_entry, info.profile_names())
        return info
