"""Home control through the o1 conversation agent, end to end: a real Home Assistant (phcc) with template
lights, a lock and a sensor backed by input_booleans (real services), some not exposed to Assist; the real o1
server (child process, the ``home`` profile) whose scripted LLM writes code calling ``o1_ha``.

The code reaches Home Assistant only through the server's broker, which relays each call to this integration
(HA's LLM API tools and the integration's own tools). Checked by effect: entity states, the audit log, the
``o1_code_block`` events, what the code could read.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
import json
import uuid

import pytest
from pytest_homeassistant_custom_component.common import async_capture_events

from custom_components.o1.const import DOMAIN, EVENT_CODE_BLOCK
from homeassistant.components import conversation
from homeassistant.components.conversation.trace import async_get_traces
from homeassistant.core import HomeAssistant
from homeassistant.helpers import chat_session
from homeassistant.setup import async_setup_component
from tests.support.ha_fixtures import sockets_allowed
from tests.support.ha_home import ask, set_up_home
from tests.support.o1_process import O1Process, start_o1
from tests.support.scripted_llm import ScriptedLLM

HA_SECRET = "supervisor-like-token-7d41c0e9b2"
# A profile whose policy lets code read anything it can (so the credential probe runs), with home control.
OPEN_PROFILE = """
name: open
languages: [python]
llm: {model: inherit}
policy: {outside_sandbox: allow, process_control: allow, home_assistant: allow, unparseable: allow}
limits: {seconds_per_block: 60, blocks_per_turn: 1}
home_assistant: control
"""


@pytest.fixture(scope="module")
def home_server(tmp_path_factory: pytest.TempPathFactory, scripted_llm: ScriptedLLM) -> Iterator[O1Process]:
    """An o1 server that also holds its own Home Assistant token (as the add-on holds the Supervisor's).

    The token comes from a file that is deleted once the server has read it, so the only copy is in the
    server's memory: generated code must not find it anywhere.
    """
    data: Path = tmp_path_factory.mktemp("o1-home")
    secret = data.parent / f"ha-token-{uuid.uuid4().hex}"
    secret.write_text(HA_SECRET)
    (data / "profiles").mkdir()
    (data / "profiles" / "open.yaml").write_text(OPEN_PROFILE)
    with sockets_allowed():
        proc = start_o1(data / "data", "--llm-model", "openai/scripted", "--llm-api-base", scripted_llm.api_base,
                        "--llm-timeout", "20", "--ha-url", "http://127.0.0.1:9", "--ha-token-file", str(secret),
                        "--profiles-dir", str(data / "profiles"))
    secret.unlink()
    yield proc
    proc.stop()


def _audit(server: O1Process, cid: str) -> list[dict]:
    lines = (server.data_dir / "audit.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if r.get("conversation_id") == cid]


async def test_turn_on_the_kitchen_light(hass: HomeAssistant, socket_enabled: None, home_server: O1Process,
                                         scripted_llm: ScriptedLLM) -> None:
    agent_id = await set_up_home(hass, home_server.api_url, home_server.token)
    codes = async_capture_events(hass, EVENT_CODE_BLOCK)
    scripted_llm.script("```python\nprint(o1_ha.turn_on('kitchen light'))\n```", "The kitchen light is on.")
    cid = f"home-{uuid.uuid4().hex}"
    answer = await ask(hass, agent_id, "Turn on the kitchen light", cid)
    await hass.async_block_till_done()
    assert hass.states.get("light.kitchen_light").state == "on"
    assert hass.states.get("input_boolean.kitchen").state == "on"
    # The home profile speaks what Home Assistant reported, not the model's own claim.
    assert "Kitchen Light is on" in answer
    assert [e.data["output"] for e in codes] == ["Kitchen Light is on."]
    # The LLM got the exposed devices, not the hidden ones.
    system = "\n".join(m["content"] for m in scripted_llm.requests[0]["messages"] if m["role"] == "system")
    assert "Kitchen Light (light" in system and "Front Door (lock" in system and "Garage" not in system
    home = [r for r in _audit(home_server, cid) if r.get("kind") == "home"]
    assert [(r["op"], r["outcome"], r["result"]["state"]) for r in home] == [("turn_on", "ok", "on")]
    # HA's own intent tool did it (HA's conversation trace records the LLM API tool call) ...
    (trace,) = [t.as_dict() for t in async_get_traces()][-1:]
    tools = [e["data"]["tool_name"] for e in trace["events"] if e["event_type"] == "tool_call"]
    assert [t.rpartition("__")[2] for t in tools] == ["HassTurnOn"], trace
    # ... and the chat log shows the code's Home Assistant call with its result.
    with chat_session.async_get_chat_session(hass, cid) as session, \
            conversation.async_get_chat_log(hass, session) as chat_log:
        calls = [c for c in chat_log.content if isinstance(c, conversation.ToolResultContent)]
    assert [(c.tool_name, c.result.data["result"]["state"]) for c in calls if c.tool_name.startswith("o1_ha.")] == [
        ("o1_ha.turn_on", "on")]


async def test_unexposed_light_is_refused(hass: HomeAssistant, socket_enabled: None, home_server: O1Process,
                                          scripted_llm: ScriptedLLM) -> None:
    agent_id = await set_up_home(hass, home_server.api_url, home_server.token)
    codes = async_capture_events(hass, EVENT_CODE_BLOCK)
    scripted_llm.script(
        "```python\ntry:\n    o1_ha.turn_on('garage light')\nexcept LookupError as err:\n    print(err)\n"
        "print(o1_ha.call_service('light', 'turn_on', entity_id='light.garage_light'))\n```", "Done.")
    cid = f"home-{uuid.uuid4().hex}"
    await ask(hass, agent_id, "Turn on the garage light", cid)
    await hass.async_block_till_done()
    assert hass.states.get("light.garage_light").state == "off"
    assert hass.states.get("input_boolean.garage").state == "off"
    (output,) = [e.data["output"] for e in codes]
    assert "I can't find garage light among the devices exposed to me." in output
    assert "PermissionError: light.garage_light is not exposed to me" in output
    home = [r for r in _audit(home_server, cid) if r.get("kind") == "home"]
    assert [(r["op"], r["outcome"]) for r in home] == [("turn_on", "error"), ("call_service", "denied")]


async def test_read_a_sensor_and_the_lock(hass: HomeAssistant, socket_enabled: None, home_server: O1Process,
                                          scripted_llm: ScriptedLLM) -> None:
    agent_id = await set_up_home(hass, home_server.api_url, home_server.token)
    codes = async_capture_events(hass, EVENT_CODE_BLOCK)
    scripted_llm.script("```python\nprint(o1_ha.get_state('outside temperature'))\n"
                        "print(o1_ha.get_state('front door')['state'])\n```", "It is 12.5 degrees and locked.")
    await ask(hass, agent_id, "How warm is it outside, and is the front door locked?", f"home-{uuid.uuid4().hex}")
    await hass.async_block_till_done()
    assert [e.data["output"] for e in codes] == ["Outside Temperature is 12.5 °C.\nlocked"]
    # ... and the lock does what HA's lock does: unlocking is asked first (a guarded action), then goes through
    # HA and HA reports it.
    scripted_llm.script("```python\nprint(o1_ha.unlock('front door'))\n```", "Unlocked.")
    cid = f"home-{uuid.uuid4().hex}"
    assert "Shall I?" in await ask(hass, agent_id, "Unlock the front door", cid)
    await hass.async_block_till_done()
    assert hass.states.get("lock.front_door").state == "locked"
    await ask(hass, agent_id, "yes", cid)
    await hass.async_block_till_done()
    assert hass.states.get("lock.front_door").state == "unlocked"
    assert codes[-1].data["output"] == "Front Door is unlocked."


async def test_no_credential_is_visible_to_generated_code(hass: HomeAssistant, socket_enabled: None,
                                                          home_server: O1Process, scripted_llm: ScriptedLLM) -> None:
    """The code prints its environment, reads every /proc/*/environ and cmdline it can, and searches every
    file of the test's temporary tree (the server's data folder included): the server's HA token is nowhere."""
    await set_up_home(hass, home_server.api_url, home_server.token, ("home", "open"))
    codes = async_capture_events(hass, EVENT_CODE_BLOCK)
    needle = f"{HA_SECRET[:10]!r} + {HA_SECRET[10:]!r}"  # never the whole token in the code itself
    probe = (
        "import os, glob\n"
        f"needle = ({needle}).encode()\n"
        "print(dict(os.environ))\n"
        "hits = []\n"
        "for f in glob.glob('/proc/*/environ') + glob.glob('/proc/*/cmdline'):\n"
        "    try:\n"
        "        if needle in open(f, 'rb').read(): hits.append(f)\n"
        "    except OSError: pass\n"
        f"for root, dirs, files in os.walk({str(home_server.data_dir.parent.parent)!r}):\n"
        "    for name in files:\n"
        "        try:\n"
        "            if needle in open(os.path.join(root, name), 'rb').read(): hits.append(name)\n"
        "        except OSError: pass\n"
        "print('hits', hits)\n"
    )
    # The home profile's policy refuses reading outside the sandbox, so the `open` profile runs the probe.
    scripted_llm.script(f"```python\n{probe}```", "Done.")
    cid = f"home-{uuid.uuid4().hex}"
    await ask(hass, "conversation.o1_open", "Look around", cid)
    await hass.async_block_till_done()
    (event,) = codes
    output = event.data["output"]
    assert event.data["decision"] == "allow", event.data
    assert "hits []" in output, output
    assert "O1_HA_SOCKET" in output and "O1_HA_TOKEN" not in output and "O1_HA_URL" not in output
    assert HA_SECRET not in output and HA_SECRET not in json.dumps(dict(event.data), default=str)
    assert HA_SECRET not in (home_server.data_dir / "audit.jsonl").read_text()


async def test_local_intents_first_then_o1(hass: HomeAssistant, socket_enabled: None, home_server: O1Process,
                                           scripted_llm: ScriptedLLM, hass_ws_client) -> None:
    """With the pipeline's "prefer handling commands locally", HA's own sentences run "turn on the kitchen
    light" without asking o1 (no LLM request); what HA does not understand goes to o1, which is told what
    HA did locally (the turn joins o1's memory of the conversation)."""
    agent_id = await set_up_home(hass, home_server.api_url, home_server.token)
    assert await async_setup_component(hass, "assist_pipeline", {})
    client = await hass_ws_client(hass)
    await client.send_json_auto_id({
        "type": "assist_pipeline/pipeline/create", "name": "o1 local first", "language": "en",
        "conversation_engine": agent_id, "conversation_language": "en", "prefer_local_intents": True,
        "stt_engine": None, "stt_language": None, "tts_engine": None, "tts_language": None,
        "tts_voice": None, "wake_word_entity": None, "wake_word_id": None,
    })
    created = await client.receive_json()
    assert created["success"], created
    cid = f"home-{uuid.uuid4().hex}"

    async def run(text: str) -> dict:
        await client.send_json_auto_id({
            "type": "assist_pipeline/run", "start_stage": "intent", "end_stage": "intent",
            "input": {"text": text}, "pipeline": created["result"]["id"], "conversation_id": cid, "timeout": 60})
        assert (await client.receive_json())["success"]
        ended = None
        while True:
            event = (await client.receive_json())["event"]
            assert event["type"] != "error", event
            if event["type"] == "intent-end":
                ended = event["data"]
            if event["type"] == "run-end":
                return ended

    scripted_llm.script()
    output = await run("turn on the kitchen light")
    await hass.async_block_till_done()
    assert hass.states.get("light.kitchen_light").state == "on"
    assert scripted_llm.requests == []  # handled locally: o1 was not asked
    assert output["processed_locally"] is True
    scripted_llm.script("```python\nprint(o1_ha.get_state('kitchen light'))\n```")
    output = await run("Is anything on in the kitchen, in a full sentence?")
    assert len(scripted_llm.requests) >= 1 and output["processed_locally"] is False
    assert "Kitchen Light is on" in output["intent_output"]["response"]["speech"]["plain"]["speech"]
    # The locally answered turn joined o1's memory of the conversation.
    contents = [m["content"] for m in scripted_llm.requests[0]["messages"] if isinstance(m.get("content"), str)]
    assert "turn on the kitchen light" in contents, contents
