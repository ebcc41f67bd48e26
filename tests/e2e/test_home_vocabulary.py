"""Home Assistant's vocabulary and the guarded actions, end to end: a real Home Assistant (phcc) holding a new
user's home (tests/support/ha_home.py ``set_up_new_home``: three lit areas, a dimmable light, a generic_thermostat,
a garage door, locks, sensors, switches, a note; two entities not exposed) and the real o1 server (child process,
the shipped ``home`` profile) whose scripted LLM writes the code a model would.

Every request goes through HA's conversation API (``conversation.async_converse``) to the o1 agent; its code
reaches HA only through the server's broker and this integration's relay. Judged by effect: every entity's state
before and after (exactly the expected ones changed), the audit log, what the model was told, and HA's
``ConversationResult`` (``continue_conversation`` while a question or a guarded action waits for the answer).
"""

from __future__ import annotations

import json
import re
import uuid

import pytest
from homeassistant.core import HomeAssistant

from tests.support.ha_home import (
    NEW_HOME_HIDDEN,
    NOTE,
    converse,
    new_home_states,
    set_up_new_home,
    speech,
)
from tests.support.o1_process import O1Process
from tests.support.scripted_llm import ScriptedLLM

ALL_LIGHTS_ON = {"bedroom_lamp": True, "ceiling": True, "living_room_light": True, "kitchen_light": True}


def code(src: str) -> str:
    """A reply of the scripted model: one python block."""
    return f"```python\n{src}\n```"


def changes(before: dict[str, str], after: dict[str, str]) -> dict[str, str]:
    """The entities (and tracked attributes) whose state differs, with their new state."""
    return {k: v for k, v in after.items() if before.get(k) != v}


def home_audit(server: O1Process, cid: str | None = None) -> list[dict]:
    """The audit log's home records (of the conversations whose id holds ``cid``), oldest first."""
    rows = map(json.loads, (server.data_dir / "audit.jsonl").read_text().splitlines())
    return [r for r in rows if r.get("kind") == "home" and (cid is None or cid in str(r.get("conversation_id")))]


def hidden_untouched(server: O1Process, hass: HomeAssistant, before: dict[str, str]) -> None:
    """The unexposed entities kept their state and no home call of the whole run reached one of them."""
    after = new_home_states(hass)
    assert {e: after[e] for e in NEW_HOME_HIDDEN} == {e: before[e] for e in NEW_HOME_HIDDEN}
    for record in home_audit(server):
        if record.get("outcome") == "ok":
            assert not any(e in json.dumps(record.get("result")) for e in NEW_HOME_HIDDEN), record


@pytest.fixture
async def home(hass: HomeAssistant, socket_enabled: None, o1_server: O1Process, request: pytest.FixtureRequest) -> str:
    """The new user's home with an o1 ``home`` agent; its agent's entity id. Parametrized indirectly, the
    parameter is the ``initial`` flags (``set_up_new_home``)."""
    return await set_up_new_home(hass, o1_server.api_url, o1_server.token, initial=getattr(request, "param", None))


def cid() -> str:
    return f"voc-{uuid.uuid4().hex}"


@pytest.mark.parametrize("home", [ALL_LIGHTS_ON], indirect=True, ids=["lights-on"])
async def test_turn_off_the_lights_in_the_bedroom(
    hass: HomeAssistant, home: str, o1_server: O1Process, scripted_llm: ScriptedLLM
) -> None:
    before = new_home_states(hass)
    scripted_llm.script(code('print(o1_ha.turn_off("the lights in the bedroom"))'), "Done.")
    conversation_id = cid()
    answer = speech(await converse(hass, home, "Turn off the lights in the bedroom", conversation_id))
    await hass.async_block_till_done()
    assert changes(before, new_home_states(hass)) == {"light.bedroom_lamp": "off", "light.ceiling": "off"}
    assert "Bedroom Lamp is off" in answer and "Ceiling is off" in answer
    # The model was told the home with its areas and floors.
    system = "\n".join(m["content"] for m in scripted_llm.requests[0]["messages"] if m["role"] == "system")
    assert "- Bedroom Lamp (light, Bedroom (Upstairs)" in system and "Space Heater" not in system
    assert [(r["op"], r["outcome"]) for r in home_audit(o1_server, conversation_id)] == [("turn_off", "ok")]
    hidden_untouched(o1_server, hass, before)


@pytest.mark.parametrize("home", [{"ceiling": True, "space_heater": True}], indirect=True, ids=["heater-on"])
async def test_everything_off_in_an_area_leaves_unexposed_devices_alone(
    hass: HomeAssistant, home: str, o1_server: O1Process, scripted_llm: ScriptedLLM
) -> None:
    """The space heater is in the bedroom but not exposed: an area target does not reach it, nor do its name or
    its entity id."""
    before = new_home_states(hass)
    scripted_llm.script(
        code(
            'print(o1_ha.turn_off(area="bedroom"))\n'
            'for attempt in ("space heater", "shed lock"):\n'
            "    try:\n        print(o1_ha.turn_on(attempt))\n    except Exception as err:\n        print(err)\n"
            'try:\n    print(o1_ha.call_service("switch", "turn_off", entity_id="switch.space_heater"))\n'
            "except Exception as err:\n    print(err)"
        ),
        "Done.",
    )
    await converse(hass, home, "Turn everything off in the bedroom", cid())
    await hass.async_block_till_done()
    assert changes(before, new_home_states(hass)) == {"light.ceiling": "off"}
    assert hass.states.get("switch.space_heater").state == "on"
    hidden_untouched(o1_server, hass, before)


async def test_set_the_bedroom_light_to_30_percent(
    hass: HomeAssistant, home: str, o1_server: O1Process, scripted_llm: ScriptedLLM
) -> None:
    before = new_home_states(hass)
    scripted_llm.script(code('print(o1_ha.turn_on("bedroom lamp", brightness_pct=30))'), "Done.")
    await converse(hass, home, "Set the bedroom light to 30 percent", cid())
    await hass.async_block_till_done()
    changed = changes(before, new_home_states(hass))
    assert changed.keys() == {"light.bedroom_lamp", "light.bedroom_lamp@brightness"}, changed
    assert changed["light.bedroom_lamp"] == "on" and abs(int(changed["light.bedroom_lamp@brightness"]) - 77) <= 1


@pytest.mark.parametrize(
    ("written", "percent"),
    [
        ('o1_ha.turn_on("bedroom lamp", brightness="30%")', 30),
        ('o1_ha.turn_on("bedroom lamp", brightness=30)', 30),
        ('o1_ha.call_service("light", "turn_on", entity_id="light.bedroom_lamp", brightness=30)', 30),
        ('o1_ha.turn_on("bedroom lamp", brightness=153)', 60),
    ],
)
async def test_a_level_in_the_forms_small_models_write(
    hass: HomeAssistant, home: str, o1_server: O1Process, scripted_llm: ScriptedLLM, written: str, percent: int
) -> None:
    """A percent written as text, as ``brightness`` of at most 100 (turn_on or call_service), or a level on HA's
    own scale above 100 (153 of 255) sets the real lamp to that percent, and only it, and says it."""
    before = new_home_states(hass)
    scripted_llm.script(code(f"print({written})"), "Done.")
    answer = speech(await converse(hass, home, f"Set the bedroom lamp to {percent} percent", cid()))
    await hass.async_block_till_done()
    changed = changes(before, new_home_states(hass))
    assert changed.keys() == {"light.bedroom_lamp", "light.bedroom_lamp@brightness"}, changed
    level = int(changed["light.bedroom_lamp@brightness"])
    assert abs(level - percent * 255 / 100) <= 1 and f"{percent} percent" in answer, (level, answer)


async def test_set_the_heating_to_21_degrees(
    hass: HomeAssistant, home: str, o1_server: O1Process, scripted_llm: ScriptedLLM
) -> None:
    before = new_home_states(hass)
    assert before["climate.thermostat@temperature"] == "19.0"
    scripted_llm.script(code('print(o1_ha.set_temperature("heating", 21))'), "Done.")
    conversation_id = cid()
    answer = speech(await converse(hass, home, "Set the heating to 21 degrees", conversation_id))
    await hass.async_block_till_done()
    assert changes(before, new_home_states(hass)) == {"climate.thermostat@temperature": "21.0"}
    assert "Thermostat" in answer, answer
    (record,) = home_audit(o1_server, conversation_id)
    assert record["outcome"] == "ok", record
    hidden_untouched(o1_server, hass, before)


async def test_unlocking_is_asked_first_and_a_yes_unlocks(
    hass: HomeAssistant, home: str, o1_server: O1Process, scripted_llm: ScriptedLLM
) -> None:
    before = new_home_states(hass)
    scripted_llm.script(code('print(o1_ha.unlock("front door"))'), "Done.")
    conversation_id = cid()
    asked = await converse(hass, home, "Unlock the front door", conversation_id)
    await hass.async_block_till_done()
    assert re.search(r"unlock Front Door\. Shall I\?", speech(asked)), speech(asked)
    assert asked.continue_conversation is True
    assert changes(before, new_home_states(hass)) == {}
    assert [(r["op"], r["outcome"]) for r in home_audit(o1_server, conversation_id)] == [("turn_off", "held")]
    scripted_llm.script()
    done = await converse(hass, home, "yes", asked.conversation_id)
    await hass.async_block_till_done()
    assert changes(before, new_home_states(hass)) == {"lock.front_door": "unlocked"}
    assert "Front Door is unlocked" in speech(done) and done.continue_conversation is False
    assert scripted_llm.requests == []  # the held call ran as it was asked, without the model
    records = [(r["op"], r["outcome"]) for r in home_audit(o1_server, conversation_id)]
    assert records == [("turn_off", "held"), ("call_service", "ok")]
    hidden_untouched(o1_server, hass, before)


async def test_a_note_that_says_unlock_unlocks_nothing_without_a_yes(
    hass: HomeAssistant, home: str, o1_server: O1Process, scripted_llm: ScriptedLLM
) -> None:
    """The exposed note's state is an instruction; the scripted model obeys it. The unlock is asked, and a
    request that is not a yes leaves the door locked."""
    before = new_home_states(hass)
    scripted_llm.script(code('print(o1_ha.get_state("note"))\nprint(o1_ha.unlock("front door"))'), "Done.")
    conversation_id = cid()
    asked = await converse(hass, home, "Read me the note", conversation_id)
    await hass.async_block_till_done()
    system = "\n".join(m["content"] for m in scripted_llm.requests[0]["messages"] if m["role"] == "system")
    data = system[system.index("<home_data>\n") : system.index("</home_data>", system.index("<home_data>\n"))]
    assert f'- Note (input_text, "{NOTE}")' in data  # the model saw the note, as data
    assert "Shall I?" in speech(asked) and asked.continue_conversation is True
    assert changes(before, new_home_states(hass)) == {}
    # Anything but a plain yes cancels the held unlock (and is not taken as a new request).
    scripted_llm.script(code('print(o1_ha.get_state("bedroom temperature"))'), "Done.")
    other = await converse(hass, home, "What is the temperature in the bedroom?", asked.conversation_id)
    await hass.async_block_till_done()
    assert "won't" in speech(other) and other.continue_conversation is False, speech(other)
    assert changes(before, new_home_states(hass)) == {}
    # A yes now has nothing to confirm.
    scripted_llm.script("There is nothing to confirm.")
    await converse(hass, home, "yes", asked.conversation_id)
    await hass.async_block_till_done()
    assert changes(before, new_home_states(hass)) == {}
    assert hass.states.get("lock.front_door").state == "locked"
    outcomes = [(r["op"], r["outcome"]) for r in home_audit(o1_server, conversation_id)]
    assert ("turn_off", "held") in outcomes and ("call_service", "ok") not in outcomes, outcomes
    hidden_untouched(o1_server, hass, before)


async def test_opening_the_garage_is_asked_first(
    hass: HomeAssistant, home: str, o1_server: O1Process, scripted_llm: ScriptedLLM
) -> None:
    before = new_home_states(hass)
    scripted_llm.script(code('print(o1_ha.call_service("cover", "open_cover", "garage"))'), "Done.")
    asked = await converse(hass, home, "Open the garage", cid())
    await hass.async_block_till_done()
    assert "Garage Door" in speech(asked) and "Shall I?" in speech(asked), speech(asked)
    assert asked.continue_conversation is True
    assert changes(before, new_home_states(hass)) == {}
    scripted_llm.script()
    await converse(hass, home, "Yes, do it.", asked.conversation_id)
    await hass.async_block_till_done()
    assert changes(before, new_home_states(hass)) == {"cover.garage_door": "open"}
    hidden_untouched(o1_server, hass, before)


async def test_a_clarifying_question_keeps_the_conversation_open(
    hass: HomeAssistant, home: str, o1_server: O1Process, scripted_llm: ScriptedLLM
) -> None:
    scripted_llm.script(code('print(o1_ha.get_state("temperature"))'), "Done.")
    asked = await converse(hass, home, "What is the temperature?", cid())
    question = speech(asked)
    assert question.startswith("Which one:") and "Bedroom Temperature" in question, question
    assert "Living Room Temperature" in question and asked.continue_conversation is True
    scripted_llm.script(code('print(o1_ha.get_state("bedroom temperature"))'), "Done.")
    answered = await converse(hass, home, "The bedroom", asked.conversation_id)
    assert "18.5" in speech(answered) and answered.continue_conversation is False, speech(answered)
    # The model read the question and the answer in the conversation's history.
    said = [m.get("content") for m in scripted_llm.requests[0]["messages"] if isinstance(m.get("content"), str)]
    assert any("Which one:" in s for s in said) and any("The bedroom" in s for s in said), said


async def test_an_unknown_o1_ha_function_is_repaired_not_refused(
    hass: HomeAssistant, home: str, o1_server: O1Process, scripted_llm: ScriptedLLM
) -> None:
    scripted_llm.script(
        code('print(o1_ha.get_temperature("bedroom"))'), code('print(o1_ha.get_state("bedroom temperature"))')
    )
    answer = speech(await converse(hass, home, "What's the temperature in the bedroom?", cid()))
    assert "18.5" in answer, answer


async def test_the_thermostat_says_its_target(
    hass: HomeAssistant, home: str, o1_server: O1Process, scripted_llm: ScriptedLLM
) -> None:
    scripted_llm.script(code('print(o1_ha.set_temperature("thermostat", 21))'), "Done.")
    answer = speech(await converse(hass, home, "Set the thermostat to 21 degrees", cid()))
    assert hass.states.get("climate.thermostat").attributes["temperature"] == 21
    assert "21" in answer, answer
