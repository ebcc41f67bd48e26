"""Repair issues of the o1 integration: an unreachable server, an incompatible server, a gone profile.

The first two are per config entry (the issue id ends with the entry id), not fixable by a
flow (the user starts or upgrades the o1 add-on). The third is per subentry (conversation agent or AI
Task) whose profile the server no longer offers, fixable (repairs.py: remove the subentry, its entity and
its device). All are
deleted as soon as the server is fine again, when the entry is unloaded and when it is removed.
"""

from __future__ import annotations

from datetime import datetime

from homeassistant.config_entries import ConfigEntry, ConfigSubentry
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir
from homeassistant.util import dt as dt_util
from homeassistant.util.hass_dict import HassKey

from .const import (
    DOMAIN,
    CONF_PROFILE,
    ISSUE_INCOMPATIBLE,
    ISSUE_PROFILE_REMOVED,
    ISSUE_UNREACHABLE,
    MIN_SERVER_VERSION,
    SUPPORTED_API_VERSION,
    UNREACHABLE_ISSUE_AFTER,
)

# Config entry id -> when its server was first seen unreachable. Lives in hass.data (not in the
# entry's runtime data) because it must outlast the setup retries of an entry that cannot load.
UNREACHABLE_SINCE: HassKey[dict[str, datetime]] = HassKey(f"{DOMAIN}_unreachable_since")


def issue_id(kind: str, entry: ConfigEntry) -> str:
    """Return the id of an issue of a config entry."""
    return f"{kind}_{entry.entry_id}"


@callback
def async_server_unreachable(hass: HomeAssistant, entry: ConfigEntry, error: str) -> None:
    """Note a failed contact; raise the issue once the server has been unreachable for a while."""
    since = hass.data.setdefault(UNREACHABLE_SINCE, {}).setdefault(
        entry.entry_id, dt_util.utcnow()
    )
    if dt_util.utcnow() - since < UNREACHABLE_ISSUE_AFTER:
        return
    ir.async_create_issue(
        hass,
        DOMAIN,
        issue_id(ISSUE_UNREACHABLE, entry),
        is_fixable=False,
        is_persistent=False,
        severity=ir.IssueSeverity.ERROR,
        translation_key=ISSUE_UNREACHABLE,
        translation_placeholders={
            "title": entry.title,
            "minutes": str(int(UNREACHABLE_ISSUE_AFTER.total_seconds() // 60)),
            "error": error,
        },
    )


@callback
def async_server_reachable(hass: HomeAssistant, entry: ConfigEntry) -> None:
    """Note a successful contact: forget the outage and delete its issue."""
    hass.data.setdefault(UNREACHABLE_SINCE, {}).pop(entry.entry_id, None)
    ir.async_delete_issue(hass, DOMAIN, issue_id(ISSUE_UNREACHABLE, entry))


@callback
def async_check_compatible(
    hass: HomeAssistant, entry: ConfigEntry, version: str, api_version: int
) -> bool:
    """Return whether the server speaks this integration's API; keep its issue in step."""
    if compatible := is_compatible(version, api_version):
        ir.async_delete_issue(hass, DOMAIN, issue_id(ISSUE_INCOMPATIBLE, entry))
    else:
        ir.async_create_issue(
            hass,
            DOMAIN,
            issue_id(ISSUE_INCOMPATIBLE, entry),
            is_fixable=False,
            is_persistent=False,
            severity=ir.IssueSeverity.ERROR,
            translation_key=ISSUE_INCOMPATIBLE,
            translation_placeholders=incompatible_placeholders(entry, version, api_version),
        )
    return compatible


def is_compatible(version: str, api_version: int) -> bool:
    """Return whether a server of this version and API version can serve this integration."""
    return api_version == SUPPORTED_API_VERSION and version_at_least(version, MIN_SERVER_VERSION)


def incompatible_placeholders(
    entry: ConfigEntry, version: str, api_version: int
) -> dict[str, str]:
    """Return the placeholders of the messages about an incompatible server."""
    return {
        "title": entry.title,
        "version": version,
        "api_version": str(api_version),
        "min_version": MIN_SERVER_VERSION,
        "supported_api_version": str(SUPPORTED_API_VERSION),
    }


def version_at_least(version: str, minimum: str) -> bool:
    """Return whether a dotted version is at least `minimum`.

    A version that is not dotted numbers (a development build) is accepted: the
    API version is what really decides.
    """
    try:
        mine = [int(part) for part in version.split("+")[0].split(".")]
    except ValueError:
        return True
    wanted = [int(part) for part in minimum.split(".")]
    width = max(len(mine), len(wanted))
    return mine + [0] * (width - len(mine)) >= wanted + [0] * (width - len(wanted))


def profile_issue_id(entry: ConfigEntry, subentry: ConfigSubentry) -> str:
    """Return the id of the issue of a subentry whose profile the server no longer offers."""
    return f"{ISSUE_PROFILE_REMOVED}_{entry.entry_id}_{subentry.subentry_id}"


@callback
def async_check_profiles(hass: HomeAssistant, entry: ConfigEntry, profiles: list[str]) -> None:
    """Raise the fixable issue of each subentry (conversation agent or AI Task) whose profile is not among
    `profiles`; delete the others'.

    The subentry is not removed by itself: a profile can vanish because its file on the server has an
    error, and removing it would lose its settings and the entity id that pipelines and automations use.
    """
    for subentry in entry.subentries.values():  # both kinds (conversation, ai_task_data) have a profile
        issue = profile_issue_id(entry, subentry)
        profile = str(subentry.data[CONF_PROFILE])
        if profile in profiles:
            ir.async_delete_issue(hass, DOMAIN, issue)
            continue
        ir.async_create_issue(
            hass,
            DOMAIN,
            issue,
            is_fixable=True,
            is_persistent=False,
            severity=ir.IssueSeverity.WARNING,
            translation_key=ISSUE_PROFILE_REMOVED,
            translation_placeholders={
                "title": entry.title,
                "profile": profile,
                "agent": subentry.title,
            },
            data={"entry_id": entry.entry_id, "subentry_id": subentry.subentry_id},
        )


@callback
def async_delete_issues(hass: HomeAssistant, entry: ConfigEntry) -> None:
    """Delete every issue of a config entry (those of its agents too) and forget its outage."""
    hass.data.setdefault(UNREACHABLE_SINCE, {}).pop(entry.entry_id, None)
    for kind in (ISSUE_UNREACHABLE, ISSUE_INCOMPATIBLE):
        ir.async_delete_issue(hass, DOMAIN, issue_id(kind, entry))
    prefix = f"{ISSUE_PROFILE_REMOVED}_{entry.entry_id}_"
    for domain, issue in list(ir.async_get(hass).issues):
        if domain == DOMAIN and issue.startswith(prefix):
            ir.async_delete_issue(hass, DOMAIN, issue)
