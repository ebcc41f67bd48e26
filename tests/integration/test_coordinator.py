"""Tests of watching the o1 server: availability, repair issues, compatibility, reload and unload."""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed

from custom_components.o1.const import (
    DOMAIN,
    ISSUE_INCOMPATIBLE,
    ISSUE_UNREACHABLE,
    UNREACHABLE_ISSUE_AFTER,
    UPDATE_INTERVAL,
)
from custom_components.o1.diagnostics import async_get_config_entry_diagnostics
from custom_components.o1.issues import UNREACHABLE_SINCE, version_at_least
from homeassistant.components import conversation
from homeassistant.config_entries import SOURCE_REAUTH, ConfigEntryState
from homeassistant.const import EVENT_HOMEASSISTANT_FINAL_WRITE, STATE_UNAVAILABLE
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir

from .stub_server import Failure, StubO1Server

ENTITY_ID = "conversation.o1_default"


async def _tick(hass: HomeAssistant, freezer: FrozenDateTimeFactory, delta: timedelta) -> None:
    """Move time forward and let HA run what came due."""
    freezer.tick(delta)
    async_fire_time_changed(hass)
    await hass.async_block_till_done(wait_background_tasks=True)


def _issue(hass: HomeAssistant, kind: str, entry: MockConfigEntry) -> ir.IssueEntry | None:
    """Return an o1 repair issue of the entry, if raised."""
    return ir.async_get(hass).async_get_issue(DOMAIN, f"{kind}_{entry.entry_id}")


def _listeners(hass: HomeAssistant) -> dict[str, int]:
    """Return the bus listener counts, without the registries' pending delayed writes."""
    counts = hass.bus.async_listeners()
    counts.pop(EVENT_HOMEASSISTANT_FINAL_WRITE, None)
    return counts


def _available(hass: HomeAssistant) -> bool:
    """Return whether the default agent is available."""
    return hass.states.get(ENTITY_ID).state != STATE_UNAVAILABLE


async def test_unreachable_server_raises_an_issue_after_a_while(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    o1_server: StubO1Server,
    freezer: FrozenDateTimeFactory,
) -> None:
    """Gone: unavailable at the next check, an issue after 5 minutes; back: all clear."""
    entry = init_integration
    port = o1_server.port
    await o1_server.stop()

    await _tick(hass, freezer, UPDATE_INTERVAL)
    assert not _available(hass)
    assert _issue(hass, ISSUE_UNREACHABLE, entry) is None  # not yet: it may be a restart

    for _ in range(int(UNREACHABLE_ISSUE_AFTER / UPDATE_INTERVAL)):
        await _tick(hass, freezer, UPDATE_INTERVAL)
    issue = _issue(hass, ISSUE_UNREACHABLE, entry)
    assert issue is not None
    assert issue.translation_key == ISSUE_UNREACHABLE
    assert issue.severity is ir.IssueSeverity.ERROR
    assert not issue.is_fixable
    assert issue.translation_placeholders["title"] == entry.title
    assert issue.translation_placeholders["minutes"] == "5"
    assert "Cannot reach" in issue.translation_placeholders["error"]

    diagnostics = await async_get_config_entry_diagnostics(hass, entry)
    assert diagnostics["server"]["reachable"] is False
    assert diagnostics["server"]["last_error"]

    await o1_server.start(port)
    await _tick(hass, freezer, UPDATE_INTERVAL)
    assert _available(hass)
    assert _issue(hass, ISSUE_UNREACHABLE, entry) is None
    assert entry.entry_id not in hass.data[UNREACHABLE_SINCE]


async def test_short_outage_raises_no_issue(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    o1_server: StubO1Server,
    freezer: FrozenDateTimeFactory,
) -> None:
    """A server that answers errors for a minute or two, then recovers, leaves no issue behind."""
    o1_server.failures["info"] = Failure(status=503, body={"error": "busy", "message": "Busy."})
    await _tick(hass, freezer, UPDATE_INTERVAL)
    await _tick(hass, freezer, UPDATE_INTERVAL)
    assert not _available(hass)
    del o1_server.failures["info"]
    await _tick(hass, freezer, UPDATE_INTERVAL)
    assert _available(hass)

    # The clock starts again at the next outage.
    o1_server.failures["info"] = Failure(status=503, body={"error": "busy", "message": "Busy."})
    for _ in range(3):
        await _tick(hass, freezer, UPDATE_INTERVAL)
    assert _issue(hass, ISSUE_UNREACHABLE, init_integration) is None


async def test_server_unreachable_since_startup(
    hass: HomeAssistant,
    setup_ha: None,
    mock_config_entry: MockConfigEntry,
    o1_server: StubO1Server,
    freezer: FrozenDateTimeFactory,
) -> None:
    """An entry that cannot load keeps retrying; the issue comes after a while all the same."""
    o1_server.failures["info"] = Failure(status=503, body={"error": "starting", "message": "Starting."})
    assert not await hass.config_entries.async_setup(mock_config_entry.entry_id)
    assert mock_config_entry.state is ConfigEntryState.SETUP_RETRY

    for _ in range(8):  # setup retries back off (5 s, 10 s, 20 s... plus jitter)
        await _tick(hass, freezer, timedelta(seconds=90))
    assert mock_config_entry.state is ConfigEntryState.SETUP_RETRY
    assert len(o1_server.requests_to("GET", "/api/info")) >= 5
    assert _issue(hass, ISSUE_UNREACHABLE, mock_config_entry) is not None

    del o1_server.failures["info"]
    for _ in range(10):  # until the next retry, however far it backed off
        await _tick(hass, freezer, timedelta(seconds=90))
        if mock_config_entry.state is ConfigEntryState.LOADED:
            break
    assert mock_config_entry.state is ConfigEntryState.LOADED
    assert _issue(hass, ISSUE_UNREACHABLE, mock_config_entry) is None


@pytest.mark.parametrize(
    ("version", "api_version"), [("0.1.0", 2), ("0.0.9", 1), ("0.1.0", 0)]
)
async def test_incompatible_server_at_setup(
    hass: HomeAssistant,
    setup_ha: None,
    mock_config_entry: MockConfigEntry,
    o1_server: StubO1Server,
    freezer: FrozenDateTimeFactory,
    version: str,
    api_version: int,
) -> None:
    """A server of another API version (or too old) does not load; an issue says why at once."""
    o1_server.info.update(version=version, api_version=api_version)
    assert not await hass.config_entries.async_setup(mock_config_entry.entry_id)
    assert mock_config_entry.state is ConfigEntryState.SETUP_RETRY
    assert f"version {version} with API version {api_version}" in mock_config_entry.reason
    issue = _issue(hass, ISSUE_INCOMPATIBLE, mock_config_entry)
    assert issue is not None
    assert issue.translation_placeholders == {
        "title": mock_config_entry.title,
        "version": version,
        "api_version": str(api_version),
        "min_version": "0.1.0",
        "supported_api_version": "1",
    }

    # The add-on is updated: the entry loads at its next retry and the issue goes.
    o1_server.info.update(version="0.2.0", api_version=1)
    await _tick(hass, freezer, timedelta(seconds=90))
    assert mock_config_entry.state is ConfigEntryState.LOADED
    assert _issue(hass, ISSUE_INCOMPATIBLE, mock_config_entry) is None


async def test_server_becomes_incompatible(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    o1_server: StubO1Server,
    freezer: FrozenDateTimeFactory,
) -> None:
    """A server updated to another API while HA runs: agents unavailable, issue; back: clear."""
    o1_server.info["api_version"] = 2
    await _tick(hass, freezer, UPDATE_INTERVAL)
    assert not _available(hass)
    assert _issue(hass, ISSUE_INCOMPATIBLE, init_integration) is not None
    assert _issue(hass, ISSUE_UNREACHABLE, init_integration) is None

    o1_server.info["api_version"] = 1
    await _tick(hass, freezer, UPDATE_INTERVAL)
    assert _available(hass)
    assert _issue(hass, ISSUE_INCOMPATIBLE, init_integration) is None


async def test_rejected_token_while_running_starts_reauth(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    o1_server: StubO1Server,
    freezer: FrozenDateTimeFactory,
) -> None:
    """A token rotated on the server is noticed by the next check, which asks to re-authenticate."""
    o1_server.token = "rotated"
    await _tick(hass, freezer, UPDATE_INTERVAL)
    flows = hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    assert [f["context"]["source"] for f in flows] == [SOURCE_REAUTH]


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        ("0.1.0", True),
        ("0.1", True),
        ("0.2.0", True),
        ("1.0.0+build5", True),
        ("0.0.9", False),
        ("0.0", False),
        ("dev", True),
        ("0.2.0rc1", True),
    ],
)
def test_version_at_least(version: str, expected: bool) -> None:
    """Dotted versions are compared as numbers; development builds are let through."""
    assert version_at_least(version, "0.1.0") is expected


async def test_issues_go_with_unload_and_removal(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    o1_server: StubO1Server,
    freezer: FrozenDateTimeFactory,
) -> None:
    """Nobody watches an unloaded server: its issues go; a removed entry leaves none either."""
    entry = init_integration
    o1_server.info["api_version"] = 2
    await _tick(hass, freezer, UPDATE_INTERVAL)
    assert _issue(hass, ISSUE_INCOMPATIBLE, entry) is not None
    assert await hass.config_entries.async_unload(entry.entry_id)
    assert _issue(hass, ISSUE_INCOMPATIBLE, entry) is None

    # An entry that never loaded (setup retry) and is removed.
    assert not await hass.config_entries.async_setup(entry.entry_id)
    assert _issue(hass, ISSUE_INCOMPATIBLE, entry) is not None
    assert await hass.config_entries.async_remove(entry.entry_id)
    await hass.async_block_till_done()
    assert _issue(hass, ISSUE_INCOMPATIBLE, entry) is None


async def test_reload_and_unload_leave_nothing_behind(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    o1_server: StubO1Server,
    freezer: FrozenDateTimeFactory,
) -> None:
    """Reloading many times keeps one agent, one poller and the same bus listeners; unloading stops all."""
    entry = init_integration
    listeners = _listeners(hass)
    first = entry.runtime_data.coordinator
    coordinators = [first]
    for _ in range(3):
        assert await hass.config_entries.async_reload(entry.entry_id)
        await hass.async_block_till_done()
        coordinators.append(entry.runtime_data.coordinator)
    assert len({id(c) for c in coordinators}) == 4
    assert _listeners(hass) == listeners
    assert len(hass.states.async_entity_ids("conversation")) == 1 + 1  # o1 + HA's own agent
    assert conversation.async_get_agent(hass, ENTITY_ID) is not None

    # Old pollers are shut down: only the current one asks the server.
    for old in coordinators[:-1]:
        assert not old._listeners
        assert old._unsub_refresh is None
    before = len(o1_server.requests_to("GET", "/api/info"))
    await _tick(hass, freezer, UPDATE_INTERVAL)
    assert len(o1_server.requests_to("GET", "/api/info")) == before + 1

    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.NOT_LOADED
    assert conversation.async_get_agent(hass, ENTITY_ID) is None
    last = coordinators[-1]
    assert not last._listeners
    assert last._unsub_refresh is None
    await _tick(hass, freezer, UPDATE_INTERVAL * 3)
    assert len(o1_server.requests_to("GET", "/api/info")) == before + 1
    # The services stay (registered once for the integration) and say the entry is not loaded.
    assert hass.services.has_service(DOMAIN, "ask")
    assert entry.entry_id not in hass.data.get(UNREACHABLE_SINCE, {})
