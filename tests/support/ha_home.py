"""A small test home in a real Home Assistant (phcc) with the o1 integration, shared by the end-to-end home
tests (tests/e2e/test_home_control.py) and the agent benchmark's home requests (benchmarks/agent_home.py).

The home: two template lights (Kitchen Light exposed to Assist, Garage Light not), a Front Door lock and an
Outside Temperature sensor (12.5 °C), each light and the lock backed by an ``input_boolean`` so that turning
them on and off runs real services and changes real states. Only the Home Assistant env imports this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.o1.config_flow import conversation_subentry, entry_title
from custom_components.o1.const import DOMAIN
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.const import CONF_TOKEN, CONF_URL
from homeassistant.core import Context, HomeAssistant
from homeassistant.setup import async_setup_component

# entity id -> exposed to Assist
EXPOSURE = {
    "light.kitchen_light": True, "light.garage_light": False, "lock.front_door": True,
    "sensor.outside_temperature": True, "input_boolean.kitchen": False, "input_boolean.garage": False,
    "input_boolean.front_door": False,
}
OUTSIDE_TEMPERATURE = "12.5"


def _switch(name: str, flag: str) -> dict[str, Any]:
    return {
        "name": name,
        "state": f"{{{{ is_state('input_boolean.{flag}', 'on') }}}}",
        "turn_on": [{"action": "input_boolean.turn_on", "target": {"entity_id": f"input_boolean.{flag}"}}],
        "turn_off": [{"action": "input_boolean.turn_off", "target": {"entity_id": f"input_boolean.{flag}"}}],
    }


async def set_up_home(hass: HomeAssistant, url: str, token: str, profiles: tuple[str, ...] = ("home",),
                      initial: Mapping[str, bool] | None = None) -> str:
    """Set up the test home and an o1 config entry for the server at ``url`` with one conversation agent per
    profile; return the first agent's entity id (``conversation.o1_<profile>``).

    ``initial`` sets the backing flags first: ``kitchen`` and ``garage`` (the lights, off by default) and
    ``front_door`` (locked by default).
    """
    flags = {"kitchen": False, "garage": False, "front_door": True, **(initial or {})}
    for component in ("homeassistant", "conversation", "intent"):
        assert await async_setup_component(hass, component, {})
    assert await async_setup_component(hass, "input_boolean", {"input_boolean": {
        name: {"initial": on} for name, on in flags.items()}})
    lock = {"name": "Front Door",
            "state": "{{ 'locked' if is_state('input_boolean.front_door', 'on') else 'unlocked' }}",
            "lock": _switch("x", "front_door")["turn_on"], "unlock": _switch("x", "front_door")["turn_off"]}
    assert await async_setup_component(hass, "template", {"template": [{
        "light": [_switch("Kitchen Light", "kitchen"), _switch("Garage Light", "garage")],
        "lock": [lock],
        "sensor": [{"name": "Outside Temperature", "state": OUTSIDE_TEMPERATURE, "unit_of_measurement": "°C",
                    "device_class": "temperature"}],
    }]})
    await hass.async_block_till_done()
    for entity_id, exposed in EXPOSURE.items():
        assert hass.states.get(entity_id) is not None, entity_id
        async_expose_entity(hass, conversation.DOMAIN, entity_id, exposed)
    entry = MockConfigEntry(
        domain=DOMAIN, title=entry_title(url), unique_id=url, data={CONF_URL: url, CONF_TOKEN: token},
        subentries_data=[conversation_subentry(p) for p in profiles],
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return f"conversation.o1_{profiles[0]}"


def home_states(hass: HomeAssistant) -> dict[str, str]:
    """The state of every entity of the test home (entity id -> state)."""
    return {entity_id: state.state for entity_id in EXPOSURE if (state := hass.states.get(entity_id))}


async def ask(hass: HomeAssistant, agent_id: str, text: str, cid: str) -> str:
    """Say ``text`` to the conversation agent ``agent_id`` in conversation ``cid``; return the spoken answer."""
    result = await conversation.async_converse(hass, text, cid, Context(), language="en", agent_id=agent_id)
    return str(result.response.speech["plain"]["speech"])
