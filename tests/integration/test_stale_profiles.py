"""Tests of an agent or AI Task whose profile the server no longer offers: unavailable, a fixable repair issue,
and its fix flow removing the subentry, its entity and its device (the device registry is checked)."""

from __future__ import annotations

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.o1.config_flow import conversation_subentry, entry_title
from custom_components.o1.const import CONF_PROFILE, DOMAIN, ISSUE_PROFILE_REMOVED, SUBENTRY_AI_TASK
from custom_components.o1.repairs import async_create_fix_flow
from homeassistant.components.repairs import repairs_flow_manager
from homeassistant.const import CONF_TOKEN, CONF_URL, STATE_UNAVAILABLE
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import device_registry as dr, entity_registry as er, issue_registry as ir
from homeassistant.setup import async_setup_component

from .stub_server import TOKEN, StubO1Server

ENTITY_ID = "conversation.o1_default"


def _issues(hass: HomeAssistant) -> list[ir.IssueEntry]:
    """Return the o1 integration's gone-profile issues."""
    return [
        issue
        for (domain, issue_id), issue in ir.async_get(hass).issues.items()
        if domain == DOMAIN and issue_id.startswith(ISSUE_PROFILE_REMOVED)
    ]


async def _drop_default_profile(hass: HomeAssistant, entry: MockConfigEntry, o1_server: StubO1Server) -> None:
    """Make the server stop offering the `default` profile and let the coordinator see it."""
    o1_server.info["profiles"] = [p for p in o1_server.info["profiles"] if p["name"] != "default"]
    await entry.runtime_data.coordinator.async_refresh()
    await hass.async_block_till_done()


@pytest.fixture
async def gone(hass: HomeAssistant, init_integration: MockConfigEntry, o1_server: StubO1Server) -> MockConfigEntry:
    """The default agent's profile dropped by the server, with the repairs integration loaded."""
    assert await async_setup_component(hass, "repairs", {})
    await _drop_default_profile(hass, init_integration, o1_server)
    return init_integration


async def test_a_gone_profile_raises_a_fixable_issue_and_the_agent_is_unavailable(
    hass: HomeAssistant, gone: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """The agent stays (a broken profile file also drops it) but is unavailable; the issue says which."""
    (subentry,) = gone.subentries.values()
    (issue,) = _issues(hass)
    assert issue.is_fixable and issue.severity is ir.IssueSeverity.WARNING
    assert issue.translation_placeholders == {"title": gone.title, "profile": "default", "agent": "o1 default"}
    assert issue.data == {"entry_id": gone.entry_id, "subentry_id": subentry.subentry_id}
    assert hass.states.get(ENTITY_ID).state == STATE_UNAVAILABLE
    assert dr.async_get(hass).async_get_device_by_identifier((DOMAIN, subentry.subentry_id), gone.entry_id) is not None

    # The profile is back (the file was fixed): the issue goes, the agent is available again.
    o1_server.info["profiles"].insert(0, {"name": "default", "ha_access": "read"})
    await gone.runtime_data.coordinator.async_refresh()
    await hass.async_block_till_done()
    assert _issues(hass) == []
    assert hass.states.get(ENTITY_ID).state != STATE_UNAVAILABLE


async def test_the_fix_flow_removes_the_agent_and_its_device(hass: HomeAssistant, gone: MockConfigEntry) -> None:
    """Confirming the repair removes the subentry: its entity and its device leave the registries."""
    (subentry,) = gone.subentries.values()
    devices, entities = dr.async_get(hass), er.async_get(hass)
    device = devices.async_get_device_by_identifier((DOMAIN, subentry.subentry_id), gone.entry_id)
    assert device is not None and entities.async_get(ENTITY_ID) is not None
    (issue,) = _issues(hass)

    manager = repairs_flow_manager(hass)
    assert manager is not None
    result = await manager.async_init(DOMAIN, context={"issue_id": issue.issue_id})
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "confirm"
    assert result["description_placeholders"] == {"title": gone.title, "profile": "default", "agent": "o1 default"}
    result = await manager.async_configure(result["flow_id"], {})
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY

    assert gone.subentries == {}
    assert devices.async_get(device.id) is None
    assert devices.async_get_device_by_identifier((DOMAIN, subentry.subentry_id), gone.entry_id) is None
    assert devices.async_get_devices(identifiers={(DOMAIN, subentry.subentry_id)}) == []
    assert dr.async_entries_for_config_entry(devices, gone.entry_id) == []
    assert entities.async_get(ENTITY_ID) is None
    assert hass.states.get(ENTITY_ID) is None
    assert _issues(hass) == []


async def test_the_fix_flow_keeps_an_agent_whose_profile_came_back(
    hass: HomeAssistant, gone: MockConfigEntry, o1_server: StubO1Server
) -> None:
    """Between the issue and the confirmation the profile came back: nothing is removed."""
    (issue,) = _issues(hass)
    manager = repairs_flow_manager(hass)
    assert manager is not None
    result = await manager.async_init(DOMAIN, context={"issue_id": issue.issue_id})
    o1_server.info["profiles"].insert(0, {"name": "default"})
    await gone.runtime_data.coordinator.async_refresh()
    result = await manager.async_configure(result["flow_id"], {})
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "profile_back"
    assert len(gone.subentries) == 1


async def test_the_fix_flow_of_an_agent_already_removed_aborts(hass: HomeAssistant, gone: MockConfigEntry) -> None:
    """The user removed the agent by hand meanwhile: the flow aborts."""
    (issue,) = _issues(hass)
    flow = await async_create_fix_flow(hass, issue.issue_id, issue.data)
    (subentry_id,) = gone.subentries
    hass.config_entries.async_remove_subentry(gone, subentry_id)
    await hass.async_block_till_done()
    flow.hass = hass
    result = await flow.async_step_init()
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "agent_gone"


async def test_only_the_gone_profiles_issue_has_a_fix_flow(hass: HomeAssistant) -> None:
    """Another issue id (or one without data) has no fix flow of this integration."""
    with pytest.raises(ValueError, match="No fix flow"):
        await async_create_fix_flow(hass, "server_unreachable_x", {"entry_id": "x"})
    with pytest.raises(ValueError, match="No fix flow"):
        await async_create_fix_flow(hass, f"{ISSUE_PROFILE_REMOVED}_x_y", None)


async def test_unloading_the_entry_drops_its_agents_issues(hass: HomeAssistant, gone: MockConfigEntry) -> None:
    """Nobody watches the server once the entry is unloaded: its issues go too."""
    assert _issues(hass)
    assert await hass.config_entries.async_unload(gone.entry_id)
    assert _issues(hass) == []


async def test_an_ai_task_whose_profile_is_gone_gets_the_same_repair(
    hass: HomeAssistant, setup_ha: None, o1_server: StubO1Server
) -> None:
    """An AI Task of the coder profile: the server drops coder, the task turns unavailable and gets the fixable
    issue (the default agent none); the fix flow removes the task's subentry, entity and device, not the agent."""
    assert await async_setup_component(hass, "repairs", {})
    entry = MockConfigEntry(
        domain=DOMAIN,
        title=entry_title(o1_server.url),
        unique_id=o1_server.server_id,
        data={CONF_URL: o1_server.url, CONF_TOKEN: TOKEN},
        subentries_data=[
            conversation_subentry("default"),
            {
                "subentry_type": SUBENTRY_AI_TASK,
                "data": {CONF_PROFILE: "coder"},
                "title": "Coder task",
                "unique_id": None,
            },
        ],
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    (task,) = [s for s in entry.subentries.values() if s.subentry_type == SUBENTRY_AI_TASK]
    entities, devices = er.async_get(hass), dr.async_get(hass)
    (task_entity,) = [
        e.entity_id for e in er.async_entries_for_config_entry(entities, entry.entry_id) if e.domain == "ai_task"
    ]
    assert hass.states.get(task_entity).state != STATE_UNAVAILABLE
    assert _issues(hass) == []

    o1_server.info["profiles"] = [p for p in o1_server.info["profiles"] if p["name"] != "coder"]
    await entry.runtime_data.coordinator.async_refresh()
    await hass.async_block_till_done()
    assert hass.states.get(task_entity).state == STATE_UNAVAILABLE
    assert hass.states.get(ENTITY_ID).state != STATE_UNAVAILABLE
    (issue,) = _issues(hass)
    assert issue.is_fixable and issue.translation_key == ISSUE_PROFILE_REMOVED
    assert issue.translation_placeholders == {"title": entry.title, "profile": "coder", "agent": "Coder task"}
    assert issue.data == {"entry_id": entry.entry_id, "subentry_id": task.subentry_id}

    manager = repairs_flow_manager(hass)
    assert manager is not None
    result = await manager.async_init(DOMAIN, context={"issue_id": issue.issue_id})
    assert result["step_id"] == "confirm"
    result = await manager.async_configure(result["flow_id"], {})
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert [s.subentry_type for s in entry.subentries.values()] == ["conversation"]
    assert devices.async_get_device_by_identifier((DOMAIN, task.subentry_id), entry.entry_id) is None
    assert entities.async_get(task_entity) is None
    assert hass.states.get(ENTITY_ID).state != STATE_UNAVAILABLE
    assert _issues(hass) == []
