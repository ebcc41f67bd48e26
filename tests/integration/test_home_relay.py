"""What the o1 integration runs for the server, in a real Home Assistant core: HA's LLM tools and a fixed list
of services per domain (``home.SERVICES``), on exposed entities only. A relayed call outside that list is
refused and nothing runs, whatever the server asks; the listed ones run. Also the turn's context (names,
aliases, areas, floors, the satellite's area, the turns HA answered itself)."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import floor_registry as fr
from homeassistant.helpers import llm
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_mock_service

from custom_components.o1 import home
from custom_components.o1.home import HomeToolRunner


@pytest.fixture
async def house(hass: HomeAssistant) -> dict[str, list[Any]]:
    """A small real home: a light in the bedroom (upstairs, by its device), a lock, a garage door, a hidden
    switch; mock services record what runs."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    assert await async_setup_component(hass, "intent", {})
    floor = fr.async_get(hass).async_create("Upstairs", aliases={"first floor"})
    bedroom = ar.async_get(hass).async_create("Bedroom", aliases={"sleeping room"}, floor_id=floor.floor_id)
    entry = MockConfigEntry(domain="test")
    entry.add_to_hass(hass)
    device = dr.async_get(hass).async_get_or_create(config_entry_id=entry.entry_id, identifiers={("test", "lamp")})
    dr.async_get(hass).async_update_device(device.id, area_id=bedroom.id)
    reg = er.async_get(hass)
    lamp = reg.async_get_or_create("light", "test", "lamp", device_id=device.id, config_entry=entry)
    reg.async_update_entity(lamp.entity_id, aliases={"reading lamp"})
    hass.states.async_set(lamp.entity_id, "off", {"friendly_name": "Bedroom Lamp", "brightness": 0,
                                                   "supported_color_modes": ["brightness"]})
    hass.states.async_set("lock.front_door", "locked", {"friendly_name": "Front Door"})
    hass.states.async_set("cover.garage", "closed", {"friendly_name": "Garage", "device_class": "garage"})
    hass.states.async_set("switch.hidden", "off", {"friendly_name": "Hidden"})
    for eid in (lamp.entity_id, "lock.front_door", "cover.garage"):
        async_expose_entity(hass, conversation.DOMAIN, eid, True)
    async_expose_entity(hass, conversation.DOMAIN, "switch.hidden", False)
    calls = {name: async_mock_service(hass, *name.split("."))
             for name in ("light.turn_on", "lock.unlock", "cover.open_cover", "switch.turn_on",
                          "homeassistant.restart", "light.turn_off", "input_text.set_value")}
    return {"lamp": [lamp.entity_id], "device": [device.id], **calls}


def runner(hass: HomeAssistant, api: llm.APIInstance | None = None, control: bool = True) -> HomeToolRunner:
    return HomeToolRunner(hass, api, Context(), control)


async def test_listed_services_run_on_exposed_entities(hass: HomeAssistant, house: dict) -> None:
    lamp = house["lamp"][0]
    run = runner(hass)
    result = await run.async_run(home.TOOL_CALL_SERVICE, {"domain": "light", "service": "turn_on",
                                                           "entity_id": [lamp], "data": {"brightness_pct": 30}})
    assert "error" not in result, result
    assert [c.data for c in house["light.turn_on"]] == [{"brightness_pct": 30, "entity_id": [lamp]}]
    assert result["result"]["states"][0]["entity_id"] == lamp
    await run.async_run(home.TOOL_CALL_SERVICE, {"domain": "lock", "service": "unlock",
                                                  "entity_id": ["lock.front_door"]})
    assert len(house["lock.unlock"]) == 1


@pytest.mark.parametrize("args", [
    {"domain": "homeassistant", "service": "restart", "entity_id": ["lock.front_door"]},
    {"domain": "input_text", "service": "set_value", "entity_id": ["lock.front_door"], "data": {"value": "x"}},
    {"domain": "shell_command", "service": "x", "entity_id": ["lock.front_door"]},
    {"domain": "light", "service": "turn_on", "entity_id": ["lock.front_door"]},  # a light service on a lock
    {"domain": "light", "service": "turn_on", "entity_id": []},
    {"domain": "switch", "service": "turn_on", "entity_id": ["switch.hidden"]},  # not exposed
    {"domain": "light", "service": "turn_on", "entity_id": ["LAMP"], "data": {"area_id": "bedroom"}},
    {"domain": "light", "service": "turn_on", "entity_id": ["LAMP"], "data": {"group": "switch.hidden, x"}},
    {"domain": 3, "service": "turn_on", "entity_id": ["LAMP"]},
])
async def test_a_call_outside_the_list_is_refused_and_nothing_runs(
    hass: HomeAssistant, house: dict, args: dict
) -> None:
    args = {**args, "entity_id": [house["lamp"][0] if e == "LAMP" else e for e in args["entity_id"]]}
    result = await runner(hass).async_run(home.TOOL_CALL_SERVICE, args)
    assert result["error"] == "denied", result
    assert not any(calls for key, calls in house.items() if "." in key)


async def test_reading_only_and_bad_arguments(hass: HomeAssistant, house: dict) -> None:
    lamp = house["lamp"][0]
    read_only = runner(hass, control=False)
    refused = await read_only.async_run(home.TOOL_CALL_SERVICE, {"domain": "light", "service": "turn_on",
                                                                  "entity_id": [lamp]})
    assert refused["error"] == "denied" and house["light.turn_on"] == []
    states = await read_only.async_run(home.TOOL_GET_STATES, {"entity_ids": [lamp, "light.gone"]})
    assert [s["entity_id"] for s in states["result"]["states"]] == [lamp]
    assert (await read_only.async_run(home.TOOL_GET_STATES, {"entity_ids": ["switch.hidden"]}))["error"] == "denied"
    assert (await read_only.async_run(home.TOOL_GET_STATES, {"entity_ids": "x"}))["error"] == "ha_error"
    bad = await runner(hass).async_run(home.TOOL_CALL_SERVICE, {"domain": "light", "service": "turn_on",
                                                                 "entity_id": [lamp], "data": [1]})
    assert bad["error"] == "ha_error"
    deep: Any = "x"
    for _ in range(40):
        deep = [deep]
    too_deep = await runner(hass).async_run(home.TOOL_CALL_SERVICE, {"domain": "light", "service": "turn_on",
                                                                      "entity_id": [lamp], "data": {"a": deep}})
    assert too_deep["error"] == "denied" and house["light.turn_on"] == []


async def test_llm_tools(hass: HomeAssistant, house: dict) -> None:
    context = llm.LLMContext("o1", Context(), "en", conversation.DOMAIN, None)
    api = await llm.async_get_api(hass, "assist", context)
    assert (await runner(hass).async_run("HassTurnOn", {}))["error"] == "denied"  # no API selected
    assert (await runner(hass, api).async_run("NoSuchTool", {}))["error"] == "denied"
    refused = await runner(hass, api, control=False).async_run("intent__HassTurnOn", {"name": "reading lamp"})
    assert refused["error"] == "denied" and house["light.turn_on"] == []
    live = await runner(hass, api, control=False).async_run("homeassistant__GetLiveContext", {})
    assert "reading lamp" in str(live["result"]) and "Hidden" not in str(live["result"])
    done = await runner(hass, api).async_run("intent__HassTurnOn", {"name": "reading lamp"})
    assert "error" not in done, done
    assert [c.data["entity_id"] for c in house["light.turn_on"]] == [house["lamp"]]
    failed = await runner(hass, api).async_run("intent__HassTurnOn", {"name": "Nothing Here"})
    assert failed["error"] == "ha_error" and failed["message"]


async def test_the_turn_context(hass: HomeAssistant, house: dict) -> None:
    found = {e["entity_id"]: e for e in home.exposed_entities(hass)}
    lamp = found[house["lamp"][0]]
    assert lamp["name"] == "Bedroom Lamp" and lamp["aliases"] == ["reading lamp"]
    assert lamp["areas"] == ["Bedroom", "sleeping room"] and lamp["floors"] == ["Upstairs", "first floor"]
    assert found["cover.garage"]["attributes"] == {"device_class": "garage"} and found["cover.garage"]["floors"] == []
    assert "switch.hidden" not in found
    assert home.satellite_area(hass, house["device"][0]) == "Bedroom"
    assert home.satellite_area(hass, None) is None and home.satellite_area(hass, "nope") is None
    context = llm.LLMContext("o1", Context(), "en", conversation.DOMAIN, None)
    api = await llm.async_get_api(hass, "assist", context)
    user_input = conversation.ConversationInput(
        text="hi", context=Context(), conversation_id=None, device_id=house["device"][0], language="en",
        agent_id="conversation.o1", satellite_id=None, extra_system_prompt="Be brief.")
    turn = home.turn_context(hass, user_input, api, ["assist"], [{"user": "a", "answer": "b"}])
    assert turn["area"] == "Bedroom" and turn["extra_system_prompt"] == "Be brief."
    assert "intent__HassTurnOn" in turn["tools"] and "homeassistant__GetLiveContext" in turn["read_only_tools"]
    assert turn["local_turns"] == [{"user": "a", "answer": "b"}]
    assert home.turn_context(hass, user_input, None, [])["tools"] == []


async def test_local_turns(hass: HomeAssistant, house: dict) -> None:
    """Turns HA answered itself since o1's last answer, oldest first."""
    log = conversation.ChatLog(hass, "c1")
    agent = "conversation.o1"
    log.async_add_user_content(conversation.UserContent("old"))
    log.async_add_assistant_content_without_tools(conversation.AssistantContent(agent, "o1 said"))
    for i in range(2):
        log.async_add_user_content(conversation.UserContent(f"turn on {i}"))
        log.async_add_assistant_content_without_tools(
            conversation.AssistantContent(conversation.HOME_ASSISTANT_AGENT, f"done {i}"))
    log.async_add_user_content(conversation.UserContent("odd"))
    log.async_add_assistant_content_without_tools(conversation.AssistantContent(agent, None))  # a tool call
    log.async_add_assistant_content_without_tools(conversation.AssistantContent("other", "not HA"))
    log.async_add_user_content(conversation.UserContent("now"))
    assert home.local_turns(log, agent) == [{"user": "turn on 0", "answer": "done 0"},
                                            {"user": "turn on 1", "answer": "done 1"}]


async def test_the_context_is_capped(hass: HomeAssistant, house: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(home, "MAX_ENTITIES", 2)
    assert len(home.exposed_entities(hass)) == 2
