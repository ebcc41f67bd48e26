"""The Home Assistant broker: generated code reaches the home only through the turn's socket, and the broker,
outside the box, enforces the profile's access level and the exposure settings.

Server side only: the "integration" here is this test answering the turn's ``tool_call`` events over the real
HTTP API (tests/e2e/test_home_control.py drives a real Home Assistant). Effects are checked: what reached the
home, the audit log, what the code could see.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from o1_server.agent.home import (Capability, Entity, HomeBroker, HomeContext, HomeError, StreamRelay,
                                  find_entities, unix_address)
from o1_server.agent.service import O1Agent
from o1_server.api import build_app
from tests.support.scripted_llm import ScriptedLLM

TOKEN = "test-token"
HA_SECRET = "ha-secret-token-5f3c9a1e"


def code(src: str) -> str:
    """An LLM reply holding one python block."""
    return f"```python\n{src}\n```"


ENTITIES = [
    {"entity_id": "light.kitchen", "name": "Kitchen Light", "aliases": ["worktop lamp"], "areas": ["Kitchen"],
     "state": "off"},
    {"entity_id": "light.hall", "name": "Hall Light", "areas": ["Hall"], "state": "off"},
    {"entity_id": "lock.front_door", "name": "Front Door", "areas": ["Hall"], "state": "locked"},
    {"entity_id": "sensor.outside_temperature", "name": "Outside Temperature", "state": "12.5"},
]


class FakeHome:
    """States of a pretend home and the tool calls that reached it (stands in for HA on the server side)."""

    def __init__(self) -> None:
        self.states = {e["entity_id"]: {"entity_id": e["entity_id"], "state": e["state"], "attributes": {}}
                       for e in ENTITIES}
        self.states["light.garage"] = {"entity_id": "light.garage", "state": "off", "attributes": {}}  # not exposed
        self.states["sensor.outside_temperature"]["attributes"] = {"unit_of_measurement": "°C"}
        self.calls: list[tuple[str, dict]] = []

    def run(self, name: str, args: dict) -> Any:
        self.calls.append((name, args))
        if name == "o1.get_states":
            return {"states": [self.states[e] for e in args["entity_ids"]]}
        if name == "o1.call_service":
            for eid in args["entity_id"]:
                self.states[eid]["state"] = {"turn_on": "on", "turn_off": "off", "lock": "locked",
                                             "unlock": "unlocked"}[args["service"]]
            return {"states": [self.states[e] for e in args["entity_id"]]}
        if name == "HassTurnOn":
            (eid,) = [e["entity_id"] for e in ENTITIES if e["name"] == args["name"]]
            self.states[eid]["state"] = "on"
            return {"response_type": "action_done", "data": {"success": [{"id": eid}], "failed": []}}
        raise AssertionError(f"unexpected tool {name}")


# ------------------------------------------------------------------------------------------------ lookup
CTX = HomeContext.from_json({"entities": ENTITIES + [
    {"entity_id": "light.kitchen_ceiling", "name": "Ceiling", "areas": ["Kitchen"], "state": "off"}]})


@pytest.mark.parametrize(("phrase", "expected"), [
    ("kitchen light", ["light.kitchen"]),
    ("the Kitchen Light", ["light.kitchen"]),
    ("worktop lamp", ["light.kitchen"]),
    ("light.hall", ["light.hall"]),
    ("front door", ["lock.front_door"]),
    ("frnt door", ["lock.front_door"]),
    ("kitchen lights", ["light.kitchen", "light.kitchen_ceiling"]),
    ("ceiling in the kitchen", ["light.kitchen_ceiling"]),
    ("light", ["light.kitchen", "light.hall"]),
    ("garage light", []),
    ("", []),
])
def test_find_matches_spoken_names(phrase: str, expected: list[str]) -> None:
    assert [e.entity_id for e in find_entities(CTX.entities, phrase)] == expected


def test_broker_errors_are_spoken_sentences() -> None:
    broker = HomeBroker("control", CTX, relay=None)
    with pytest.raises(HomeError) as err:
        broker.handle("find", {"name": "garage light"})
    assert err.value.code == "not_found" and "garage light" in err.value.message
    with pytest.raises(HomeError) as err:
        broker.handle("find", {"name": "light"})
    assert err.value.code == "ambiguous" and "Kitchen Light" in err.value.message and err.value.message.endswith("?")
    with pytest.raises(HomeError) as err:
        broker.handle("turn_on", {"name": "kitchen light"})
    assert err.value.code == "unavailable"


def test_long_names_cannot_tie_up_the_broker() -> None:
    """Generated code picks the names: a 5000-character name against 2000 entities took half a minute of
    fuzzy matching (holding the GIL, after the turn ended too); now it is refused at once, and close spellings
    in a large home are still found quickly."""
    import time

    many = HomeContext.from_json({"entities": ENTITIES + [
        {"entity_id": f"light.l{i}", "name": f"Light number {i} in the house", "areas": [f"Room {i % 20}"]}
        for i in range(1996)]})
    broker = HomeBroker("control", many, Recorder())
    started = time.monotonic()
    for op, args in (("find", {"name": "kitchen ceiling light " * 230}),
                     ("get_state", {"name": "x" * 5000}), ("turn_on", {"name": "front door " * 500})):
        with pytest.raises(HomeError) as err:
            broker.handle(op, args)
        assert err.value.code == "invalid", err.value.code
    assert broker.handle("find", {"name": "frnt door"})["entity_id"] == "lock.front_door"
    assert time.monotonic() - started < 3


def test_context_is_validated() -> None:
    for bad in ([], {"entities": [{"entity_id": "not an id"}]}, {"entities": [{"entity_id": "a.b", "areas": "x"}]},
                {"tools": "HassTurnOn"}, {"entities": [{"entity_id": "a.b"}] * 2001}):
        with pytest.raises(ValueError):
            HomeContext.from_json(bad)


# ------------------------------------------------------------------------------------------------ socket
class Recorder:
    """A relay that records what would reach Home Assistant."""

    intents = False

    def __init__(self) -> None:
        self.home = FakeHome()

    def call(self, name: str, args: dict) -> Any:
        return self.home.run(name, args)


def raw(path: Path, *requests: Any) -> list[dict]:
    """Send raw lines on the socket, as hostile code could; return the answers."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        with unix_address(path) as address:
            sock.connect(address)
        answers = []
        reader = sock.makefile("rb")
        for request in requests:
            sock.sendall((request if isinstance(request, bytes) else json.dumps(request).encode()) + b"\n")
            answers.append(json.loads(reader.readline()))
        return answers


def test_read_access_refuses_control_on_the_socket_itself(tmp_path: Path) -> None:
    """Code that ignores o1_ha and writes its own JSON gets the same refusal: the check is in the server."""
    relay, audited, events = Recorder(), [], []
    broker = HomeBroker("read", CTX, relay, audited.append, events.append)
    cap = Capability(tmp_path / "run", broker)
    try:
        answers = raw(cap.path,
                      {"op": "call_service", "args": {"domain": "lock", "service": "unlock",
                                                      "entity_id": "lock.front_door"}},
                      {"op": "turn_on", "args": {"name": "kitchen light"}},
                      {"op": "tool", "args": {"name": "HassTurnOn", "args": {"name": "Kitchen Light"}}},
                      {"op": "get_state", "args": {"name": "front door"}},
                      b"not json", {"op": "__init__", "args": {}}, {"op": "get_state", "args": {"nme": "x"}})
    finally:
        cap.close()
    assert [a.get("error") for a in answers[:3]] == ["denied"] * 3
    assert answers[3] == {"ok": True, "result": {"entity_id": "lock.front_door", "name": "Front Door",
                                                 "state": "locked", "attributes": {}, "last_changed": None}}
    assert [a.get("error") for a in answers[4:]] == ["invalid"] * 3
    # Nothing but the one read reached the home, and every call was audited and reported.
    assert relay.home.calls == [("o1.get_states", {"entity_ids": ["lock.front_door"]})]
    assert relay.home.states["lock.front_door"]["state"] == "locked"
    assert [(e["op"], e["outcome"]) for e in audited] == [
        ("call_service", "denied"), ("turn_on", "denied"), ("tool", "denied"), ("get_state", "ok"),
        ("__init__", "error"), ("get_state", "error")]
    assert [e["call"] for e in events] == audited


def test_control_access_stays_within_exposed_entities(tmp_path: Path) -> None:
    relay = Recorder()
    cap = Capability(tmp_path / "run", HomeBroker("control", CTX, relay))
    try:
        unexposed, wrong_domain, no_target, restart, target_data, ok = raw(
            cap.path,
            {"op": "call_service", "args": {"domain": "light", "service": "turn_on", "entity_id": "light.garage"}},
            {"op": "call_service", "args": {"domain": "shell_command", "service": "x", "entity_id": "light.hall"}},
            {"op": "call_service", "args": {"domain": "homeassistant", "service": "restart"}},
            {"op": "call_service", "args": {"domain": "homeassistant", "service": "restart",
                                            "entity_id": "light.hall"}},
            {"op": "call_service", "args": {"domain": "light", "service": "turn_on", "entity_id": "light.hall",
                                            "area_id": "garage"}},
            {"op": "turn_on", "args": {"name": "kitchen light"}})
    finally:
        cap.close()
    assert unexposed["error"] == "denied" and "light.garage" in unexposed["message"]
    assert wrong_domain["error"] == "denied" and no_target["error"] == "invalid" and target_data["error"] == "invalid"
    assert restart["error"] == "denied", restart  # homeassistant.restart ignores entity_id: never relayed
    assert ok["ok"] and ok["result"]["state"] == "on"
    assert relay.home.states["light.garage"]["state"] == "off"
    assert [c[0] for c in relay.home.calls] == ["o1.call_service"]


def test_capability_dies_with_the_turn(tmp_path: Path) -> None:
    cap = Capability(tmp_path / "run", HomeBroker("read", CTX, Recorder()))
    assert stat.S_IMODE((tmp_path / "run").stat().st_mode) == 0o711
    assert stat.S_IMODE(cap.folder.stat().st_mode) == 0o700
    assert raw(cap.path, {"op": "entities", "args": {}})[0]["ok"]
    path = cap.path
    cap.close()
    # The thread serving the socket ended with close(): it blocks in accept() without polling, so only the
    # socket's shutdown can end it (a 0.5 s poll used to hold every Home Assistant turn's end).
    assert not cap._thread.is_alive()
    assert not path.exists() and not cap.folder.exists()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock, pytest.raises(OSError):
        sock.connect(f"/proc/self/fd/{os.open(tmp_path, os.O_PATH)}/run/{path.parent.name}/ha.sock")


def test_calls_per_turn_are_capped(tmp_path: Path) -> None:
    broker = HomeBroker("read", CTX, Recorder(), max_calls=3)
    for _ in range(3):
        broker.handle("entities", {})
    with pytest.raises(HomeError) as err:
        broker.handle("entities", {})
    assert err.value.code == "denied"


def test_service_data_cannot_name_unexposed_entities(tmp_path: Path) -> None:
    """Entity ids inside the service data (``media_player.join``'s ``group_members``, ``scene.apply``'s
    ``entities``, a script's variables; HA lower-cases them and splits comma lists) are held to the exposure
    settings like ``entity_id``: before, ``group_members=["light.garage"]`` reached Home Assistant."""
    relay, audited = Recorder(), []
    cap = Capability(tmp_path / "run", HomeBroker("control", CTX, relay, audited.append))
    hall = {"domain": "light", "service": "turn_on", "entity_id": "light.hall"}
    try:
        answers = raw(cap.path,
                      {"op": "call_service", "args": {**hall, "group_members": ["light.garage"]}},
                      {"op": "call_service", "args": {**hall, "group_members": "light.hall, Light.Garage"}},
                      {"op": "call_service", "args": {**hall, "entities": {"light.garage": "on"}}},
                      {"op": "call_service", "args": {**hall, "variables": {"x": [{"who": "LIGHT.GARAGE "}]}}},
                      {"op": "turn_on", "args": {"name": "hall light", "group_members": ["light.garage"]}},
                      {"op": "call_service", "args": {**hall, "group_members": ["light.kitchen"], "transition": "1.5"}})
    finally:
        cap.close()
    assert [a.get("error") for a in answers[:5]] == ["denied"] * 5, answers
    assert all("light.garage" in a["message"] for a in answers[:5])
    assert answers[5]["ok"], answers[5]  # exposed entities (and numbers as text) in the data are fine
    assert relay.home.states["light.garage"]["state"] == "off"
    assert [c[1]["data"] for c in relay.home.calls if c[0] == "o1.call_service"] == [
        {"group_members": ["light.kitchen"], "transition": "1.5"}]
    assert [e["outcome"] for e in audited] == ["denied"] * 5 + ["ok"]


def test_a_group_counts_each_device_against_the_cap() -> None:
    """``turn_off("all lights")`` is one request but one Home Assistant call per light: each counts, and a
    group that would pass the cap is refused before anything is switched (before, a cap of 2 let 3 through)."""
    relay, audited = Recorder(), []
    broker = HomeBroker("control", CTX, relay, audited.append, max_calls=3)
    for eid in ("light.kitchen", "light.hall"):
        relay.home.states[eid]["state"] = "on"
    broker.handle("get_state", {"name": "hall light"})
    with pytest.raises(HomeError) as err:
        broker.handle("turn_off", {"name": "all lights"})  # 3 lights (kitchen, hall, ceiling) + 1 call so far
    assert err.value.code == "denied"
    assert [c[0] for c in relay.home.calls] == ["o1.get_states"]
    assert relay.home.states["light.kitchen"]["state"] == relay.home.states["light.hall"]["state"] == "on"
    assert audited[-1]["outcome"] == "denied" and broker.describe_changes() is None


def test_a_group_that_fails_halfway_reports_what_it_changed() -> None:
    """When the third light of "all lights" fails, the two already switched are in the error, the audit
    record and the spoken summary (before, they were lost: the turn said nothing changed)."""
    relay, audited = Recorder(), []
    broker = HomeBroker("control", CTX, relay, audited.append)
    for eid in ("light.kitchen", "light.hall"):
        relay.home.states[eid]["state"] = "on"  # light.kitchen_ceiling has no state in FakeHome: its call fails
    with pytest.raises(HomeError) as err:
        broker.handle("turn_off", {"name": "all lights"})
    assert relay.home.states["light.kitchen"]["state"] == relay.home.states["light.hall"]["state"] == "off"
    assert err.value.message.startswith("Kitchen Light is off. Hall Light is off. But Ceiling failed")
    assert [s["entity_id"] for s in audited[-1]["result"]] == ["light.kitchen", "light.hall"]
    assert audited[-1]["outcome"] == "error"
    assert broker.describe_changes() == "Kitchen Light is off. Hall Light is off."


def test_stream_relay_times_out_and_closes() -> None:
    events: list[dict] = []
    relay = StreamRelay(events.append, timeout=0.2)
    with pytest.raises(HomeError) as err:
        relay.call("o1.get_states", {"entity_ids": ["light.hall"]})
    assert err.value.code == "timeout"
    assert events[0]["type"] == "tool_call" and events[0]["turn_id"] == relay.turn_id
    assert not relay.deliver(events[0]["id"], {"result": {}})  # too late: nobody waits
    relay.close()
    with pytest.raises(HomeError) as err:
        relay.call("o1.get_states", {"entity_ids": ["light.hall"]})
    assert err.value.code == "unavailable"


# ------------------------------------------------------------------------------------------------ whole turns
@pytest.fixture
async def served(make_agent) -> AsyncIterator[tuple[str, O1Agent]]:
    """The real API of a real agent (scripted LLM); the agent knows an HA token it must never leak."""
    agent = make_agent()
    runner = web.AppRunner(build_app(agent, TOKEN, "9.9.9"))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    yield f"http://127.0.0.1:{runner.addresses[0][1]}", agent
    await runner.cleanup()


async def integration_turn(api: str, text: str, cid: str, profile: str, home: FakeHome,
                           tools: list[str] = (), language: str = "en") -> list[dict]:
    """Stream a turn with Home Assistant context and answer its tool calls, as the o1 integration does."""
    body = {"text": text, "conversation_id": cid, "profile": profile, "language": language,
            "home": {"entities": ENTITIES, "llm_apis": ["assist"], "tools": list(tools), "area": "Hall",
                     "language": language}}
    headers = {"Authorization": f"Bearer {TOKEN}"}
    events = []
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{api}/api/conversation/stream", json=body, headers=headers) as r:
            assert r.status == 200, await r.text()
            async for line in r.content:
                if not line.strip():
                    continue
                event = json.loads(line)
                events.append(event)
                if event["type"] == "tool_call":
                    result = {"result": home.run(event["name"], event["args"])}
                    url = f"{api}/api/turns/{event['turn_id']}/tool_results/{event['id']}"
                    async with http.post(url, json=result, headers=headers) as answer:
                        assert answer.status == 204
    return events


async def test_turn_on_through_the_integration_relay(served, llm: ScriptedLLM) -> None:
    api, agent = served
    home = FakeHome()
    llm.script(code("print(o1_ha.turn_on('kitchen light'))"), "The kitchen light is on.")
    events = await integration_turn(api, "Turn on the kitchen light", "h1", "home", home, ["HassTurnOn"])
    assert home.states["light.kitchen"]["state"] == "on"
    # HA's own intent did it, and the code printed HA's resulting state.
    assert [c[0] for c in home.calls] == ["HassTurnOn", "o1.get_states"]
    (block,) = [e["block"] for e in events if e["type"] == "code"]
    assert block["output"] == "Kitchen Light is on." and block["exit_status"] == 0
    (call,) = [e["call"] for e in events if e["type"] == "home"]
    assert call["op"] == "turn_on" and call["outcome"] == "ok" and call["result"]["state"] == "on"
    records = [r for r in agent.audit.read("h1") if r.get("kind") == "home"]
    assert [(r["op"], r["outcome"], r["profile"]) for r in records] == [("turn_on", "ok", "home")]
    # The LLM was told about the home (short), in a system message (the turn context after the examples).
    system = "\n".join(m["content"] for m in llm.requests[0]["messages"] if m["role"] == "system")
    assert '- Kitchen Light (light, Kitchen, "off")' in system and "o1_ha" in system


async def test_unexposed_light_is_refused(served, llm: ScriptedLLM) -> None:
    api, _ = served
    home = FakeHome()
    llm.script(code("print(o1_ha.turn_on('garage light'))"), "Done.")
    events = await integration_turn(api, "Turn on the garage light", "h2", "home", home, ["HassTurnOn"])
    (block,) = [e["block"] for e in events if e["type"] == "code"]
    assert "LookupError: I can't find garage light among the devices exposed to me." in block["output"]
    assert home.calls == [] and home.states["light.garage"]["state"] == "off"


async def test_a_device_not_found_is_said_in_the_conversations_language(served, llm: ScriptedLLM) -> None:
    """"Wie steht es im Spiel von Borussia Dortmund?" ended in "Der Code ist fehlgeschlagen: I can't find
    bundesliga_borussia_dortmund among the devices exposed to me." (eighth held-out set, now a dev set)."""
    api, _ = served
    home = FakeHome()
    llm.script(code("print(o1_ha.get_state('bundesliga_dortmund'))"), "Nicht gefunden.")
    events = await integration_turn(api, "Wie geht es dem Dortmund-Licht?", "h2de", "home", home, language="de")
    (block,) = [e["block"] for e in events if e["type"] == "code"]
    assert "Ich finde bundesliga_dortmund nicht unter den Geräten" in block["output"], block["output"]
    assert home.calls == []


async def test_silent_code_answers_with_what_home_assistant_reported(served, llm: ScriptedLLM) -> None:
    """Code that controls devices and prints nothing: the answer is HA's resulting states (found by the
    benchmark: "I ran the code. It printed nothing and changed no files." after turning a light off)."""
    api, _ = served
    home = FakeHome()
    home.states["light.kitchen"]["state"] = home.states["light.hall"]["state"] = "on"
    llm.script(code("for light in o1_ha.states('light'):\n    if light['state'] == 'on':\n"
                    "        o1_ha.turn_off(light['entity_id'])"), "All lights are off.")
    events = await integration_turn(api, "Turn off all the lights", "h6", "home", home)
    assert home.states["light.kitchen"]["state"] == home.states["light.hall"]["state"] == "off"
    (done,) = [e["reply"] for e in events if e["type"] == "done"]
    assert done["answer"] == "Kitchen Light is off. Hall Light is off.", done
    # The model is told the same on the next turn, not a bare "(no output)".
    llm.script("They are off.")
    await integration_turn(api, "Are they off?", "h6", "home", home)
    said = [str(m.get("content")) for m in llm.requests[-1]["messages"]]
    assert any("Kitchen Light is off. Hall Light is off." in m for m in said), said


async def test_silent_tool_calls_are_answered_with_the_states_after_them(served, llm: ScriptedLLM) -> None:
    """A controlling LLM API tool (HassTurnOn) from code that prints nothing: the answer is the state HA
    reports afterwards for the entities its intent response names, as for o1_ha.turn_on."""
    api, _ = served
    home = FakeHome()
    # (the tool's own slot `name` must not clash with the tool's name)
    llm.script(code("o1_ha.tool('HassTurnOn', name='Kitchen Light')"), "Done.")
    events = await integration_turn(api, "Turn on the kitchen light", "h10", "home", home, ["HassTurnOn"])
    assert home.states["light.kitchen"]["state"] == "on", [e for e in events if e["type"] in ("code", "home")]
    (done,) = [e["reply"] for e in events if e["type"] == "done"]
    assert done["answer"] == "Kitchen Light is on.", done


async def test_a_state_compares_with_its_text(served, llm: ScriptedLLM) -> None:
    """``o1_ha.get_state(name) == "unlocked"`` is what small models write: it must mean the state (found by
    the benchmark: the comparison was always False, and the model then claimed the door was locked)."""
    api, _ = served
    home = FakeHome()
    home.states["lock.front_door"]["state"] = "unlocked"
    llm.script(code("door = o1_ha.get_state('front door')\n"
                    "print(door == 'unlocked', door == 'Unlocked', door != 'locked', door == {'x': 1})\n"
                    "if door == 'unlocked':\n    print(o1_ha.lock('front door'))\n"
                    "print(float(o1_ha.get_state('outside temperature')) + 1)"), "Locked.")
    events = await integration_turn(api, "Lock the front door if it is unlocked", "h7", "home", home)
    (block,) = [e["block"] for e in events if e["type"] == "code"]
    assert block["output"].splitlines() == ["True True True False", "Front Door is locked.", "13.5"], block
    assert home.states["lock.front_door"]["state"] == "locked"


async def test_groups_and_names_where_small_models_put_them(served, llm: ScriptedLLM) -> None:
    """``turn_off('all lights')`` acts on each exposed light (never the unexposed garage light) and
    ``states('lights')``/``states('kitchen light')`` mean the domain and the device (found by the benchmark:
    the 0.5B model wrote both and got "I can't find all lights" and "Nothing matches")."""
    api, agent = served
    home = FakeHome()
    for eid in ("light.kitchen", "light.hall", "light.garage"):
        home.states[eid]["state"] = "on"
    llm.script(code("print(o1_ha.states('kitchen light'))\nprint(len(o1_ha.states('lights')))\n"
                    "print(o1_ha.turn_off('all the lights'))\nprint(o1_ha.states('all lights', area='Hall'))\n"
                    "for light in o1_ha.states('light'):\n    print(o1_ha.turn_on(light))\n"
                    "print(o1_ha.call_service('light', 'turn_off', entity_id=list(o1_ha.states('light'))))"),
               "Done.")
    events = await integration_turn(api, "Turn off all the lights", "h8", "home", home)
    (block,) = [e["block"] for e in events if e["type"] == "code"]
    # ... and a state the code got back stands for its entity (the 1.5B wrote `turn_off(light)`).
    assert block["output"].splitlines() == [
        "Kitchen Light is on.", "2", "Kitchen Light is off. Hall Light is off.", "Hall Light is off.",
        "Kitchen Light is on.", "Hall Light is on.", "Kitchen Light is off. Hall Light is off."], block
    assert [home.states[e]["state"] for e in ("light.kitchen", "light.hall", "light.garage")] == ["off", "off", "on"]
    records = [r for r in agent.audit.read("h8") if r.get("kind") == "home" and r["op"] == "turn_off"]
    assert [[s["entity_id"] for s in r["result"]] for r in records] == [["light.kitchen", "light.hall"]]
    assert home.states["light.garage"]["state"] == "on"


async def test_service_data_may_use_any_key_name(served, llm: ScriptedLLM) -> None:
    """Service data keys are the service's own (a key called ``op`` or ``name`` must reach the broker, which
    answers for it, instead of a TypeError inside the box)."""
    api, _ = served
    home = FakeHome()
    llm.script(code("try:\n    o1_ha.call_service('light', 'turn_on', entity_id='light.kitchen', op=1, name='x')\n"
                    "except Exception as err:\n    print(type(err).__name__)\nelse:\n    print('sent')"), "Done.")
    events = await integration_turn(api, "Turn on the kitchen light", "h9", "home", home)
    (block,) = [e["block"] for e in events if e["type"] == "code"]
    assert block["output"] in ("sent", "ValueError", "PermissionError"), block
    assert "TypeError" not in block["output"]


async def test_default_profile_reads_but_cannot_control(served, llm: ScriptedLLM) -> None:
    api, _ = served
    home = FakeHome()
    llm.script(code("print(o1_ha.get_state('outside temperature'))"), "It is 12.5 degrees.")
    events = await integration_turn(api, "How warm is it outside?", "h3", "default", home)
    (block,) = [e["block"] for e in events if e["type"] == "code"]
    assert block["output"] == "Outside Temperature is 12.5 °C." and block["decision"] == "allow"
    # A control call is held for confirmation by the policy; confirmed, the broker still refuses it.
    llm.script(code("print(o1_ha.unlock('front door'))"), "Unlocked.")
    events = await integration_turn(api, "Unlock the front door", "h3", "default", home)
    assert events[-1]["reply"]["continue_conversation"] is True
    events = await integration_turn(api, "yes", "h3", "default", home)
    (block,) = [e["block"] for e in events if e["type"] == "code"]
    assert "PermissionError" in block["output"]
    assert home.states["lock.front_door"]["state"] == "locked"
    assert [c[0] for c in home.calls] == ["o1.get_states"]


OPEN_PROFILE = """
name: open
languages: [python]
llm: {model: inherit}
policy: {outside_sandbox: allow, process_control: allow, home_assistant: allow, unparseable: allow}
limits: {seconds_per_block: 60}
home_assistant: control
"""


async def test_no_credential_reaches_generated_code(scripted_llm: ScriptedLLM, tmp_path: Path) -> None:
    """The server holds an HA URL and token; code allowed to read anything (a profile that permits it) reads
    its environment, every /proc/*/environ and cmdline and the whole test tree, and never finds them; nor do
    the audit log and the code events."""
    from o1_server.agent.backend import LLMConfig
    from o1_server.agent.profiles import load_profiles

    (tmp_path / "profiles").mkdir()
    (tmp_path / "profiles" / "open.yaml").write_text(OPEN_PROFILE)
    llm = LLMConfig("openai/scripted", scripted_llm.api_base, "none", timeout=10)
    agent = O1Agent(load_profiles([tmp_path / "profiles"]), "open", llm, tmp_path / "data", tmp_path / "data" / "sandbox",
                    ha_url="http://127.0.0.1:9", ha_token=HA_SECRET)
    scripted_llm.script()
    probe = (
        "import os, glob\n"
        f"needle = {HA_SECRET[:8]!r} + {HA_SECRET[8:]!r}\n"
        "print(sorted(os.environ))\n"
        "print('env', any(needle in v for v in os.environ.values()))\n"
        "hits = []\n"
        "for f in glob.glob('/proc/*/environ') + glob.glob('/proc/*/cmdline'):\n"
        "    try:\n"
        "        if needle.encode() in open(f, 'rb').read(): hits.append(f)\n"
        "    except OSError: pass\n"
        f"for root, dirs, files in os.walk({str(tmp_path)!r}):\n"
        "    for name in files:\n"
        "        try:\n"
        "            if needle.encode() in open(os.path.join(root, name), 'rb').read(): hits.append(name)\n"
        "        except OSError: pass\n"
        "print('hits', hits)\n"
    )
    scripted_llm.script(code(probe), "Done.")
    reply = await agent.ask("Look around", "probe")
    output = reply.code_blocks[0].output
    assert "env False" in output and "hits []" in output, output
    assert "O1_HA_SOCKET" in output and "O1_HA_TOKEN" not in output and "O1_HA_URL" not in output
    assert HA_SECRET not in (agent.audit.path.read_text() + json.dumps(reply.as_dict()))


# ------------------------------------------------------------------------------------------------ direct path
@pytest.fixture
async def rest_ha() -> AsyncIterator[tuple[str, FakeHome]]:
    """Home Assistant's REST API and the websocket exposure list, on 127.0.0.1 (the Wyoming path's HA)."""
    home = FakeHome()

    def authorized(request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bearer {HA_SECRET}"

    async def states(request: web.Request) -> web.Response:
        if not authorized(request):
            return web.json_response({"message": "401"}, status=401)
        return web.json_response([{**s, "attributes": {**s["attributes"], "friendly_name": n}}
                                  for n, s in zip(["Kitchen Light", "Hall Light", "Front Door", "Outside Temperature",
                                                   "Garage Light"], home.states.values())])

    async def service(request: web.Request) -> web.Response:
        if not authorized(request):
            return web.json_response({"message": "401"}, status=401)
        data = await request.json()
        home.run("o1.call_service", {"domain": request.match_info["domain"], "service": request.match_info["service"],
                                     "entity_id": data["entity_id"]})
        return web.json_response([])

    async def websocket(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"type": "auth_required"})
        auth = await ws.receive_json()
        if auth.get("access_token") != HA_SECRET:
            await ws.send_json({"type": "auth_invalid"})
            return ws
        await ws.send_json({"type": "auth_ok"})
        msg = await ws.receive_json()
        exposed = {e["entity_id"]: {"conversation": True} for e in ENTITIES}
        exposed["light.garage"] = {"conversation": False}
        await ws.send_json({"id": msg["id"], "type": "result", "success": True,
                            "result": {"exposed_entities": exposed}})
        await ws.close()
        return ws

    app = web.Application()
    app.router.add_get("/api/states", states)
    app.router.add_post("/api/services/{domain}/{service}", service)
    app.router.add_get("/api/websocket", websocket)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    yield f"http://127.0.0.1:{runner.addresses[0][1]}", home
    await runner.cleanup()


async def test_wyoming_path_uses_the_servers_own_access_with_exposure(make_agent, llm: ScriptedLLM, rest_ha) -> None:
    url, home = rest_ha
    agent = make_agent()
    from o1_server.agent.home import RestRelay

    agent.home.direct = RestRelay(url, HA_SECRET)
    llm.script(code("print(o1_ha.turn_on('kitchen light'))"), "On.")
    reply = await agent.ask("Turn on the kitchen light", "w1", profile="home")
    assert reply.code_blocks[0].output == "Kitchen Light is on.", reply.code_blocks[0].output
    assert home.states["light.kitchen"]["state"] == "on"
    llm.script(code("print(o1_ha.call_service('light', 'turn_on', entity_id='light.garage'))"), "On.")
    reply = await agent.ask("Turn on the garage light", "w1", profile="home")
    assert "PermissionError: light.garage is not exposed to me" in reply.code_blocks[0].output
    assert home.states["light.garage"]["state"] == "off"


async def test_safe_profile_has_no_socket(make_agent, llm: ScriptedLLM, rest_ha) -> None:
    url, home = rest_ha
    agent = make_agent()
    from o1_server.agent.home import RestRelay

    agent.home.direct = RestRelay(url, HA_SECRET)
    llm.script(code("import os\nprint('O1_HA_SOCKET' in os.environ)\nprint(o1_ha.get_state('kitchen light'))"), "No.")
    reply = await agent.ask("Is the light on?", "s1", profile="safe")
    block = reply.code_blocks[0]
    if block.decision == "allow":  # a policy that lets it run still finds no socket and no access
        assert "False" in block.output.splitlines()
        assert "PermissionError: This profile has no access to Home Assistant." in block.output
    else:  # `safe` refuses Home Assistant code before it runs (the classifier fails closed)
        assert block.decision == "deny" and block.exit_status is None
    assert home.calls == []
    assert not agent.home.run_dir.exists() or not any(os.scandir(agent.home.run_dir))


async def test_tool_result_endpoint_refuses_what_nobody_waits_for(served) -> None:
    api, _ = served
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{api}/api/turns/abc/tool_results/def", json={"result": {}}, headers=headers) as r:
            assert r.status == 404 and (await r.json())["error"] == "unknown_call"
        async with http.post(f"{api}/api/turns/abc/tool_results/def", json=[1], headers=headers) as r:
            assert r.status == 400
        async with http.post(f"{api}/api/turns/abc/tool_results/def", json={"result": {}}) as r:
            assert r.status == 401  # the API token is needed like everywhere else
        body = {"text": "hi", "home": {"entities": [{"entity_id": "bad id"}]}}
        async with http.post(f"{api}/api/conversation/stream", json=body, headers=headers) as r:
            assert r.status == 400 and "entity_id" in (await r.json())["message"]


def test_tools_by_name_and_read_only_only_from_core_or_ha_annotations() -> None:
    """HA namespaces tools (``intent__HassTurnOn``); a plain name finds them. Under read access only core
    read tools and those HA annotates read-only run; a look-alike from another integration does not."""
    context = HomeContext.from_json({"tools": ["homeassistant__GetLiveContext", "evil__GetLiveContext",
                                               "intent__HassTurnOn", "music__NowPlaying"],
                                     "read_only_tools": ["music__NowPlaying"]})

    class Tools:
        intents = True
        calls: list = []

        def call(self, name: str, args: dict) -> Any:
            self.calls.append(name)
            return {"ok": name}

    relay = Tools()
    broker = HomeBroker("read", context, relay)
    assert broker.handle("tool", {"name": "GetLiveContext"}) == {"ok": "homeassistant__GetLiveContext"}
    assert broker.handle("tool", {"name": "NowPlaying"}) == {"ok": "music__NowPlaying"}
    for name in ("evil__GetLiveContext", "HassTurnOn", "Nothing"):
        with pytest.raises(HomeError) as err:
            broker.handle("tool", {"name": name})
        assert err.value.code == "denied", name
    assert relay.calls == ["homeassistant__GetLiveContext", "music__NowPlaying"]


@pytest.mark.parametrize("src", ["o1_ha._os.system('id')", "s = o1_ha._socket\ns.socket()",
                                 "from o1_ha import _os\n_os.system('id')", "o1_ha.os.system('id')"])
def test_reaching_past_o1_ha_is_not_a_home_call(src: str, tmp_path: Path) -> None:
    """o1_ha is pre-imported: what it imports (``os``, ``socket``) must not pass as a Home Assistant call."""
    from o1_server.agent import policy

    found = policy.classify("python", src, tmp_path)
    assert "process_control" in found.categories and "home_assistant" not in found.categories


@pytest.mark.parametrize("answer", [[1], "ok", {"success": True, "result": [1]}, {"success": True},
                                    {"success": True, "result": {"exposed_entities": ["light.kitchen"]}},
                                    {"success": False, "result": {"exposed_entities": {}}}])
async def test_an_exposure_answer_of_another_shape_is_one_clear_failure(answer: object) -> None:
    """Home Assistant's websocket answering something other than the expose list: HomeError, never a crash."""
    from o1_server.agent.home import HomeError, RestRelay

    async def websocket(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"type": "auth_required"})
        await ws.receive_json()
        await ws.send_json({"type": "auth_ok"})
        await ws.receive_json()
        await ws.send_json(answer)
        await ws.close()
        return ws

    app = web.Application()
    app.router.add_get("/api/websocket", websocket)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        relay = RestRelay(f"http://127.0.0.1:{runner.addresses[0][1]}", HA_SECRET)
        with pytest.raises(HomeError) as err:
            await asyncio.to_thread(relay.exposed)
        assert err.value.code == "unavailable" and "exposed" in err.value.message
    finally:
        await runner.cleanup()


@pytest.fixture
async def listener() -> AsyncIterator[tuple[str, list[tuple[str, str]]]]:
    """A stand-in for Home Assistant (or the Supervisor's proxy in front of it) on 127.0.0.1 that records every
    request that reaches it, on any path: what a relay really sent."""
    seen: list[tuple[str, str]] = []

    async def anything(request: web.Request) -> web.Response:
        seen.append((request.method, request.raw_path))
        return web.json_response([])

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", anything)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    yield f"http://127.0.0.1:{runner.addresses[0][1]}", seen
    await runner.cleanup()


@pytest.mark.parametrize("service", [
    "../homeassistant/restart", "turn_on/../../states/light.kitchen", "turn_on?x=1", "turn_on#", "Turn_On",
    "turn on", "turn_on\n", "", "..", "%2e%2e", "turn_on/", "lock.unlock",
])
async def test_service_names_cannot_reach_another_route(listener, service: str) -> None:
    """A service name is a slug (``[a-z0-9_]+``): dot segments written into it reached the REST URL as they were,
    and behind a proxy that collapses them they would have restarted Home Assistant or forged a state. Judged by
    the requests that reach the listener: none."""
    from o1_server.agent.home import RestRelay

    url, seen = listener
    broker = HomeBroker("control", CTX, RestRelay(url, HA_SECRET))
    for domain, name in (("light", service), (service, "turn_on")):
        with pytest.raises(HomeError) as err:
            await asyncio.to_thread(broker.handle, "call_service",
                                    {"domain": domain, "service": name, "entity_id": "kitchen light"})
        assert err.value.code == "invalid", err.value
    assert seen == []
    with pytest.raises(HomeError, match="no state"):  # the listener keeps no states: the call itself went out
        await asyncio.to_thread(broker.handle, "call_service",
                                {"domain": "light", "service": "turn_on", "entity_id": "kitchen light"})
    assert ("POST", "/api/services/light/turn_on") in seen  # the listener does see a real call


def test_service_data_too_deep_to_check_is_refused(tmp_path: Path) -> None:
    """Service data nested past the depth the exposure check reads (32) used to pass unchecked, and an
    unexposed entity id at level 40 reached Home Assistant. Now it is refused, and nothing is called."""
    relay, audited = Recorder(), []
    cap = Capability(tmp_path / "run", HomeBroker("control", CTX, relay, audited.append))
    deep: Any = "light.garage"
    for _ in range(40):
        deep = [deep]
    shallow: Any = "light.kitchen"
    for _ in range(10):
        shallow = {"x": shallow}
    hall = {"domain": "light", "service": "turn_on", "entity_id": "light.hall"}
    try:
        answers = raw(cap.path, {"op": "call_service", "args": {**hall, "group_members": deep}},
                      {"op": "call_service", "args": {**hall, "variables": shallow}})
    finally:
        cap.close()
    assert answers[0].get("error") == "invalid" and "nested too deeply" in answers[0]["message"], answers[0]
    assert answers[1]["ok"], answers[1]
    assert [c[1]["data"] for c in relay.home.calls if c[0] == "o1.call_service"] == [{"variables": shallow}]
    assert [e["outcome"] for e in audited] == ["error", "ok"]


@pytest.mark.parametrize("op", ["find", "get_state", "turn_on", "call_service", "states", "tool"])
def test_a_self_argument_is_a_clean_answer(tmp_path: Path, op: str, caplog: pytest.LogCaptureFixture) -> None:
    """``self`` as a keyword (generated code can send any name) raised a TypeError inside the call, logged as a
    traceback; it is now an ``invalid`` answer like any argument the operation does not take."""
    relay = Recorder()
    cap = Capability(tmp_path / "run", HomeBroker("control", CTX, relay))
    try:
        (answer,) = raw(cap.path, {"op": op, "args": {"self": "x", "name": "kitchen light"}})
    finally:
        cap.close()
    assert answer.get("error") == "invalid" and "self" in answer["message"], answer
    assert "Traceback" not in caplog.text and relay.home.calls == []
