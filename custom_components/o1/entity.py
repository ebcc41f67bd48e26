"""Base entity of the o1 integration."""

from __future__ import annotations

from typing import override

from homeassistant.config_entries import ConfigSubentry
from homeassistant.helpers.device_registry import DeviceEntryType, DeviceInfo
from homeassistant.helpers.update_coordinator import CoordinatorEntity

from . import O1ConfigEntry
from .client import O1Client, O1Profile
from .const import CONF_ADDON, CONF_PROFILE, DOMAIN
from .coordinator import O1Coordinator


def addon_url(entry: O1ConfigEntry) -> str | None:
    """Return the page of the add-on that announced the entry's server (None for a server added by hand).

    The server's own URL is not given: its API wants a token, so a browser cannot open it.
    """
    if slug := entry.data.get(CONF_ADDON):
        return f"homeassistant://hassio/addon/{slug}/info"
    return None


class O1Entity(CoordinatorEntity[O1Coordinator]):
    """An entity bound to one profile (config subentry) of an o1 server.

    It is available while the coordinator reaches a compatible server that offers its profile.
    """

    _attr_has_entity_name = True
    _attr_name = None

    def __init__(self, entry: O1ConfigEntry, subentry: ConfigSubentry) -> None:
        """Describe the entity and its device (one device per profile subentry)."""
        super().__init__(entry.runtime_data.coordinator)
        self.entry = entry
        self.subentry = subentry
        self.profile: str = subentry.data[CONF_PROFILE]
        self._attr_unique_id = subentry.subentry_id
        self._attr_device_info = DeviceInfo(
            identifiers={(DOMAIN, subentry.subentry_id)},
            name=subentry.title,
            manufacturer="o1",
            model=f"Profile {self.profile}",
            sw_version=entry.runtime_data.info.version,
            entry_type=DeviceEntryType.SERVICE,
            configuration_url=addon_url(entry),
        )

    @property
    @override
    def available(self) -> bool:
        """Return whether the server is reached, compatible and still offers the entity's profile."""
        return super().available and self.server_profile is not None

    @property
    def client(self) -> O1Client:
        """Return the client of the entity's o1 server."""
        return self.entry.runtime_data.client

    @property
    def server_profile(self) -> O1Profile | None:
        """Return what the server last said about the entity's profile (None if it dropped it)."""
        return self.coordinator.data.profile(self.profile)
