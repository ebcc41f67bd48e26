"""Diagnostics of the o1 integration."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import CONF_TOKEN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from . import O1ConfigEntry

TO_REDACT = {CONF_TOKEN}


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: O1ConfigEntry
) -> dict[str, Any]:
    """Return diagnostics of an o1 config entry, with the access token redacted."""
    server: dict[str, Any] | None = None
    usage: dict[str, Any] = {}
    if entry.state is ConfigEntryState.LOADED:
        usage = {sid: stats.as_dict() for sid, stats in entry.runtime_data.usage.items()}
        coordinator = entry.runtime_data.coordinator
        server = {
            **asdict(coordinator.data),
            "reachable": coordinator.last_update_success,
            "last_error": None
            if coordinator.last_exception is None
            else str(coordinator.last_exception),
        }
    return {
        "title": entry.title,
        "entry_version": f"{entry.version}.{entry.minor_version}",
        "state": entry.state.value,
        "data": async_redact_data(entry.data, TO_REDACT),
        "options": async_redact_data(entry.options, TO_REDACT),
        "subentries": {
            subentry.subentry_id: {
                "title": subentry.title,
                "subentry_type": subentry.subentry_type,
                "unique_id": subentry.unique_id,
                "data": dict(subentry.data),
            }
            for subentry in entry.subentries.values()
        },
        "server": server,
        # Per agent (subentry id): the tokens its turns used since the entry was loaded.
        "usage": usage,
        "entities": {
            entity_entry.entity_id: entity_entry.extended_dict
            for entity_entry in er.async_entries_for_config_entry(
                er.async_get(hass), entry.entry_id
            )
        },
    }
