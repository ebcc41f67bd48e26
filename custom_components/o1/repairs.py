"""Fix flows of the o1 integration's repair issues: remove the subentry (agent or AI Task) of a dropped profile."""

from __future__ import annotations

from typing import Any

from homeassistant.components.repairs import RepairsFlow, RepairsFlowResult
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant

from .const import CONF_PROFILE, ISSUE_PROFILE_REMOVED


class RemoveAgentRepairFlow(RepairsFlow):
    """Ask, then remove a subentry whose profile is gone (conversation agent or AI Task; its entity and
    device with it)."""

    def __init__(self, entry_id: str, subentry_id: str) -> None:
        """Keep which subentry (config entry id, subentry id) the issue is about."""
        self._entry_id = entry_id
        self._subentry_id = subentry_id

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """Start with the confirmation."""
        return await self.async_step_confirm()

    async def async_step_confirm(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """Show what is removed; on submit remove the subentry.

        Aborts with ``agent_gone`` when the subentry was removed meanwhile and ``profile_back`` when the
        server offers its profile again.
        """
        entry = self.hass.config_entries.async_get_entry(self._entry_id)
        subentry = None if entry is None else entry.subentries.get(self._subentry_id)
        if entry is None or subentry is None:
            return self.async_abort(reason="agent_gone")
        profile = str(subentry.data[CONF_PROFILE])
        if entry.state is ConfigEntryState.LOADED and entry.runtime_data.coordinator.data.profile(profile) is not None:
            return self.async_abort(reason="profile_back")
        if user_input is not None:
            self.hass.config_entries.async_remove_subentry(entry, self._subentry_id)
            return self.async_create_entry(data={})
        return self.async_show_form(
            step_id="confirm",
            description_placeholders={"title": entry.title, "profile": profile, "agent": subentry.title},
        )


async def async_create_fix_flow(
    hass: HomeAssistant, issue_id: str, data: dict[str, str | int | float | None] | None
) -> RepairsFlow:
    """Return the fix flow of a fixable o1 issue (only the gone profile's is fixable).

    Raises ValueError for an issue id this integration does not fix.
    """
    if not issue_id.startswith(ISSUE_PROFILE_REMOVED) or not data:
        raise ValueError(f"No fix flow for the o1 issue {issue_id}")
    return RemoveAgentRepairFlow(str(data["entry_id"]), str(data["subentry_id"]))
