"""The home's past from generated code: ``o1_ha.history``/``time_on``/``last_change``/``statistics``/``logbook``.

Server side only: the "integration" is this test answering the turn's ``tool_call`` events over the real HTTP
API from a pretend recorder (``FakeRecorder``: the state at the period's start, then the changes in it, as HA's
``get_significant_states`` gives them). The code runs in the real sandbox; what it printed is judged against the
data, and the bounds and the exposure are checked where they are enforced (the broker, outside the box).
tests/integration/test_history.py runs the integration's side against Home Assistant's real recorder.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import aiohttp
import pytest
from aiohttp import web

from o1_server.agent.backend import LLMConfig
from o1_server.agent.home import HomeBroker, HomeContext, HomeError, RestRelay
from o1_server.agent.home.history import MAX_DAYS, period
from o1_server.agent.profiles import load_profiles
from o1_server.agent.service import O1Agent
from o1_server.api import build_app
from tests.support.scripted_llm import ScriptedLLM

TOKEN = "test-token"
HA_SECRET = "ha-secret-token-77a1"
BERLIN = ZoneInfo("Europe/Berlin")
# Read access only, and code the classifier cannot check is refused: the history helpers (and the methods of
# their results) must classify as reads (agent/policy/python/allowlist.py HA_READS) for these turns to run.
PROFILE = """
name: past
languages: [python]
llm: {model: inherit}
policy: {read_only: allow, home_assistant: allow, unparseable: deny, process_control: deny}
limits: {seconds_per_block: 20, blocks_per_turn: 2}
home_assistant: read
"""
ENTITIES = [
    {"entity_id": "binary_sensor.front_door", "name": "Front Door", "areas": ["Hall"], "state": "off"},
    {"entity_id": "switch.heating", "name": "Heating", "state": "off"},
    {"entity_id": "light.kitchen", "name": "Kitchen Light", "areas": ["Kitchen"], "state": "off"},
    {"entity_id": "light.hall", "name": "Hall Light", "areas": ["Hall"], "state": "off"},
    {"entity_id": "sensor.outside_temperature", "name": "Outside Temperature", "state": "12.5",
     "attributes": {"unit_of_measurement": "°C"}},
    {"entity_id": "sensor.energy_consumption", "name": "Energy Consumption", "state": "1234.5",
     "attributes": {"unit_of_measurement": "kWh"}},
]


def code(src: str) -> str:
    return f"```python\n{src}\n```"


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


class FakeRecorder:
    """A pretend recorder: ``changes[entity_id]`` is ``[(time, state)]``, oldest first (light.garage is recorded
    but not exposed); statistics and logbook rows are set by each test. Every tool call is kept."""

    def __init__(self, now: datetime) -> None:
        self.now = now
        self.changes: dict[str, list[tuple[datetime, str]]] = {
            e["entity_id"]: [(now - timedelta(days=60), e["state"])] for e in ENTITIES}
        self.changes["light.garage"] = [(now - timedelta(days=60), "on")]
        self.statistics: list[dict[str, Any]] = []
        self.entries: list[dict[str, Any]] = []
        self.truncated = False
        self.calls: list[tuple[str, dict]] = []

    def add(self, entity_id: str, *steps: tuple[timedelta, str]) -> None:
        """Changes ``ago`` before now."""
        self.changes[entity_id] += [(self.now - ago, state) for ago, state in steps]

    def run(self, name: str, args: dict) -> Any:
        self.calls.append((name, args))
        if name == "o1.time_zone":
            return {"time_zone": "Europe/Berlin"}
        if name == "o1.history":
            start, end = datetime.fromisoformat(args["start"]), datetime.fromisoformat(args["end"])
            rows = []
            for eid in args["entity_ids"]:
                before = [c for c in self.changes[eid] if c[0] <= start]
                rows.append({"entity_id": eid, "state": before[-1][1], "last_changed": iso(start), "attributes": {}})
                rows += [{"entity_id": eid, "state": s, "last_changed": iso(t), "attributes": {"friendly_name": "x"}}
                         for t, s in self.changes[eid] if start < t <= end]
            return {"states": rows, "truncated": self.truncated}
        if name == "o1.statistics":
            return {"statistics": self.statistics, "units": {}}
        if name == "o1.logbook":
            return {"entries": self.entries, "truncated": False}
        raise AssertionError(f"unexpected tool {name}")


@pytest.fixture
async def served(scripted_llm: ScriptedLLM, tmp_path: Path) -> AsyncIterator[tuple[str, O1Agent]]:
    """The real API of a real agent with the read-only ``past`` profile (scripted LLM)."""
    (tmp_path / "profiles").mkdir()
    (tmp_path / "profiles" / "past.yaml").write_text(PROFILE)
    llm = LLMConfig("openai/scripted", scripted_llm.api_base, "none", timeout=10)
    agent = O1Agent(load_profiles([tmp_path / "profiles"]), "past", llm, tmp_path / "data",
                    tmp_path / "data" / "sandbox")
    runner = web.AppRunner(build_app(agent, TOKEN, "9.9.9"))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    yield f"http://127.0.0.1:{runner.addresses[0][1]}", agent
    await runner.cleanup()


async def turn(api: str, text: str, cid: str, recorder: FakeRecorder) -> str:
    """Stream a turn with Home Assistant context, answer its tool calls from ``recorder``; the code's output."""
    body = {"text": text, "conversation_id": cid, "profile": "past", "home": {"entities": ENTITIES}}
    headers = {"Authorization": f"Bearer {TOKEN}"}
    outputs = []
    async with (aiohttp.ClientSession() as http,
                http.post(f"{api}/api/conversation/stream", json=body, headers=headers) as r):
        assert r.status == 200, await r.text()
        async for line in r.content:
            event = json.loads(line) if line.strip() else {}
            if event.get("type") == "tool_call":
                result = {"result": recorder.run(event["name"], event["args"])}
                url = f"{api}/api/turns/{event['turn_id']}/tool_results/{event['id']}"
                async with http.post(url, json=result, headers=headers) as answer:
                    assert answer.status == 204
            elif event.get("type") == "code":
                outputs.append(event["block"]["output"] or json.dumps(event["block"]))
    assert len(outputs) == 1, outputs
    return outputs[0]


def calls(recorder: FakeRecorder, name: str) -> list[dict]:
    return [args for tool, args in recorder.calls if tool == name]


def said_at(moment: datetime, now: datetime) -> str:
    """What the helpers print for a moment: '08:15 today', '23:50 yesterday' (Berlin's wall clock)."""
    local, today = moment.astimezone(BERLIN), now.astimezone(BERLIN)
    days = (today.date() - local.date()).days
    return f"{local:%H:%M} " + {0: "today", 1: "yesterday"}.get(days, f"on {local:%A} {local.day} {local:%B}")


# ------------------------------------------------------------------------------------------------ the questions
async def test_when_did_the_front_door_last_open(served, llm: ScriptedLLM) -> None:
    api, agent = served
    recorder = FakeRecorder(datetime.now(UTC))
    recorder.add("binary_sensor.front_door", (timedelta(hours=30), "on"), (timedelta(hours=29), "off"),
                 (timedelta(minutes=95), "on"), (timedelta(minutes=90), "off"))
    llm.script(code("door = o1_ha.last_change('front door', 'open')\nprint(door)\nprint(door.time.utcoffset())"),
               "Done.")
    output = await turn(api, "When did the front door last open?", "p1", recorder)
    opened = recorder.now - timedelta(minutes=95)
    offset = str(opened.astimezone(BERLIN).utcoffset())
    assert output.splitlines() == [f"Front Door was on at {said_at(opened, recorder.now)}.", offset], output
    (asked,) = calls(recorder, "o1.history")
    assert asked["entity_ids"] == ["binary_sensor.front_door"]
    start = datetime.fromisoformat(asked["start"])
    assert abs((recorder.now - start) - timedelta(days=7)).total_seconds() < 30  # the default: the last 7 days
    records = [r for r in agent.audit.read("p1") if r.get("kind") == "home"]
    assert [(r["op"], r["outcome"]) for r in records] == [("history", "ok")]


async def test_how_long_was_the_heating_on_today(served, llm: ScriptedLLM) -> None:
    api, _ = served
    now = datetime.now(UTC)
    recorder = FakeRecorder(now)
    recorder.add("switch.heating", (timedelta(hours=30), "on"), (timedelta(hours=5), "off"),
                 (timedelta(minutes=200), "on"), (timedelta(minutes=110), "off"), (timedelta(minutes=20), "on"))
    llm.script(code("on = o1_ha.time_on('heating', start='today')\nprint(round(on))\nprint(on)"), "Done.")
    output = await turn(api, "How long was the heating on today?", "p2", recorder)
    midnight = now.astimezone(BERLIN).replace(hour=0, minute=0, second=0, microsecond=0)
    intervals = [(now - timedelta(hours=30), now - timedelta(hours=5)),
                 (now - timedelta(minutes=200), now - timedelta(minutes=110)), (now - timedelta(minutes=20), now)]
    expected = sum(max(0.0, (b - max(a, midnight)).total_seconds()) for a, b in intervals)
    seconds, words = output.splitlines()
    assert abs(int(seconds) - expected) < 30, (output, expected)  # the period ends when the broker asked
    (asked,) = calls(recorder, "o1.history")
    assert datetime.fromisoformat(asked["start"]) == midnight  # today: from the home's midnight, not UTC's
    assert words.endswith(("minutes", "minute", "hours", "hour", "seconds")), words


async def test_which_light_was_on_longest(served, llm: ScriptedLLM) -> None:
    api, _ = served
    recorder = FakeRecorder(datetime.now(UTC))
    recorder.add("light.kitchen", (timedelta(hours=9), "on"), (timedelta(hours=8), "off"))
    recorder.add("light.hall", (timedelta(hours=7), "on"), (timedelta(hours=4), "off"))
    recorder.add("light.garage", (timedelta(hours=9), "off"))
    llm.script(code("lights = o1_ha.time_on('all lights', start='last 12 hours')\n"
                    "print(max(lights, key=lights.get))\nprint(sorted(lights.items()))\n"
                    "print(o1_ha.history('all lights', start='last 12 hours').durations('on'))"), "Done.")
    output = await turn(api, "Which light was on longest?", "p3", recorder)
    assert output.splitlines() == [  # a dict of durations prints as sentences, not as a dict read out
        "Hall Light", "[('Hall Light', 3 hours), ('Kitchen Light', 1 hour)]",
        "Kitchen Light was on for 1 hour. Hall Light was on for 3 hours."], output
    for asked in calls(recorder, "o1.history"):
        assert asked["entity_ids"] == ["light.kitchen", "light.hall"]  # never the unexposed garage light


async def test_average_outside_temperature_this_week(served, llm: ScriptedLLM) -> None:
    api, _ = served
    now = datetime.now(UTC)
    recorder = FakeRecorder(now)
    monday = now.astimezone(BERLIN).replace(hour=0, minute=0, second=0, microsecond=0)
    monday -= timedelta(days=monday.weekday())
    recorder.statistics = [
        {"statistic_id": "sensor.outside_temperature", "start": iso(monday + timedelta(hours=h)),
         "end": iso(monday + timedelta(hours=h + 1)), "mean": m, "min": m - 1, "max": m + 2}
        for h, m in enumerate([8.0, 10.0, 15.0])]
    recorder.statistics.append({"statistic_id": "sensor.hidden", "start": iso(monday), "end": iso(monday),
                                "mean": 99.0})  # not asked for: dropped
    llm.script(code("week = o1_ha.statistics('outside temperature', start='this week')\n"
                    "print(week.mean(), week.min(), week.max(), len(week))\nprint(week)"), "Done.")
    output = await turn(api, "What was the average outside temperature this week?", "p4", recorder)
    assert output.splitlines() == ["11.0 7.0 17.0 3", "Outside Temperature: mean 11.0 °C, min 7.0 °C, max 17.0 °C."]
    (asked,) = calls(recorder, "o1.statistics")
    assert asked["statistic_ids"] == ["sensor.outside_temperature"] and asked["period"] == "hour"
    assert datetime.fromisoformat(asked["start"]) == monday
    assert asked["types"] == ["change", "max", "mean", "min"]


async def test_energy_used_yesterday(served, llm: ScriptedLLM) -> None:
    api, _ = served
    now = datetime.now(UTC)
    recorder = FakeRecorder(now)
    today = now.astimezone(BERLIN).replace(hour=0, minute=0, second=0, microsecond=0)
    yesterday = (today - timedelta(hours=12)).replace(hour=0)
    recorder.statistics = [{"statistic_id": "sensor.energy_consumption", "start": iso(yesterday), "end": iso(today),
                            "change": 7.25, "sum": 1200.0}]
    llm.script(code("print(o1_ha.statistics('energy', period='day', start='yesterday', types='change').change())"),
               "Done.")
    output = await turn(api, "How much energy did we use yesterday?", "p5", recorder)
    assert output == "7.25"
    (asked,) = calls(recorder, "o1.statistics")
    assert (datetime.fromisoformat(asked["start"]), datetime.fromisoformat(asked["end"])) == (yesterday, today)
    assert asked["period"] == "day" and asked["types"] == ["change"]


async def test_logbook_shows_only_exposed_entities(served, llm: ScriptedLLM) -> None:
    api, _ = served
    now = datetime.now(UTC)
    recorder = FakeRecorder(now)
    recorder.entries = [
        {"when": iso(now - timedelta(minutes=50)), "entity_id": "light.kitchen", "name": "x", "state": "on"},
        {"when": iso(now - timedelta(minutes=40)), "entity_id": "light.garage", "name": "Garage", "state": "on"},
        {"when": iso(now - timedelta(minutes=30)), "name": "Home Assistant", "message": "started"},
        {"when": iso(now - timedelta(minutes=20)), "entity_id": "switch.heating", "name": "Heating",
         "message": "turned off", "context_user_id": "abc"},
    ]
    llm.script(code("print(o1_ha.logbook('last 3 hours'))"), "Done.")
    output = await turn(api, "What happened in the last three hours?", "p6", recorder)
    assert output.splitlines() == [
        f"{said_at(now - timedelta(minutes=50), now)}: Kitchen Light changed to on.",
        f"{said_at(now - timedelta(minutes=20), now)}: Heating turned off."], output
    (asked,) = calls(recorder, "o1.logbook")
    assert "light.garage" not in asked["entity_ids"] and len(asked["entity_ids"]) == len(ENTITIES)


# ------------------------------------------------------------------------------------------------ refusals
async def test_bounds_and_unexposed_entities_are_refused(served, llm: ScriptedLLM) -> None:
    api, agent = served
    recorder = FakeRecorder(datetime.now(UTC))
    recorder.truncated = True
    llm.script(code(
        "for call in (lambda: o1_ha.history('front door', start='40 days ago'),\n"
        "             lambda: o1_ha.history('light.garage'),\n"
        "             lambda: o1_ha.logbook(name='light.garage'),\n"
        "             lambda: o1_ha.statistics('outside temperature', start='2025-01-01', end='2025-12-30'),\n"
        "             lambda: o1_ha.statistics('outside temperature', period='fortnight'),\n"
        "             lambda: o1_ha.history('heating', start='tomorrow'),\n"
        "             lambda: o1_ha.history('heating', start='yesterday')):\n"
        "    try:\n        call()\n    except Exception as err:\n        print(type(err).__name__, err)\n"), "Done.")
    output = await turn(api, "Show me the past", "p7", recorder)
    assert output.splitlines() == [
        f"ValueError I can look at most {MAX_DAYS} days back at once. Ask for a shorter period.",
        "PermissionError light.garage is not exposed to me, so I can't use it.",
        "PermissionError light.garage is not exposed to me, so I can't use it.",
        "ValueError That is more than 1000 rows of statistics: use a longer period (period='day') or a shorter time.",
        "ValueError period must be one of 5minute, hour, day, week, month.",
        "ValueError I can't read 'tomorrow' as a time. Use ISO text like '2026-03-02T08:00' or 'yesterday'.",
        "ValueError That is more than 2000 state changes. Ask for a shorter period or use o1_ha.statistics for a "
        "sensor.",
    ], output
    # Only the last request reached Home Assistant's recorder (and it said it had cut the rows).
    assert [args["entity_ids"] for args in calls(recorder, "o1.history")] == [["switch.heating"]]
    assert not calls(recorder, "o1.logbook") and not calls(recorder, "o1.statistics")
    records = [r for r in agent.audit.read("p7") if r.get("kind") == "home"]
    assert [(r["op"], r["outcome"], r.get("error")) for r in records] == [
        ("history", "error", "invalid"), ("history", "denied", "denied"), ("logbook", "denied", "denied"),
        ("statistics", "error", "invalid"), ("statistics", "error", "invalid"), ("history", "error", "invalid"),
        ("history", "error", "invalid")]


def test_history_needs_read_access() -> None:
    broker = HomeBroker("none", HomeContext.from_json({"entities": ENTITIES}), relay=None)
    for op, args in (("history", {"name": "heating"}), ("statistics", {"name": "energy"}), ("logbook", {})):
        with pytest.raises(HomeError) as err:
            broker.handle(op, args)
        assert err.value.code == "denied"


def test_absurd_arguments_are_invalid_not_home_assistant_failures() -> None:
    """Times out of any calendar's range and arguments of the wrong shape are the caller's mistake: ``invalid``
    with a sentence, before anything reaches Home Assistant (the relay here would fail the test)."""
    class NoRelay:
        def call(self, name: str, args: dict) -> dict:
            if name == "o1.time_zone":
                return {"time_zone": "Europe/Berlin"}
            raise AssertionError(f"{name} reached Home Assistant")

    broker = HomeBroker("read", HomeContext.from_json({"entities": ENTITIES}), relay=NoRelay())
    for op, args in (
        ("history", {"name": "heating", "start": "999999999999 weeks ago"}),
        ("history", {"name": "heating", "start": "99999999999999999999999 days"}),
        ("history", {"name": "heating", "start": "0001-01-01"}),
        ("history", {"name": "heating", "start": "0001-01-01T00:00+01:00"}),
        ("history", {"name": "heating", "start": ["today"]}),
        ("statistics", {"name": "outside temperature", "period": []}),
        ("statistics", {"name": "outside temperature", "period": {}}),
        ("statistics", {"name": "outside temperature", "types": [["mean"]]}),
        ("statistics", {"name": "outside temperature", "types": [{}]}),
    ):
        with pytest.raises(HomeError) as err:
            broker.handle(op, args)
        assert err.value.code == "invalid", (op, args, err.value)


def test_periods_are_read_in_the_homes_time_zone() -> None:
    now = datetime(2026, 3, 29, 15, 30, tzinfo=BERLIN)  # a Sunday: the clocks went forward at 02:00
    assert period("today", None, BERLIN, now) == (datetime(2026, 3, 28, 23, 0, tzinfo=UTC),
                                                  datetime(2026, 3, 29, 13, 30, tzinfo=UTC))
    assert period("yesterday", None, BERLIN, now) == (datetime(2026, 3, 27, 23, 0, tzinfo=UTC),
                                                      datetime(2026, 3, 28, 23, 0, tzinfo=UTC))
    assert period("this week", None, BERLIN, now)[0] == datetime(2026, 3, 22, 23, 0, tzinfo=UTC)
    assert period("last week", None, BERLIN, now) == (datetime(2026, 3, 15, 23, 0, tzinfo=UTC),
                                                      datetime(2026, 3, 22, 23, 0, tzinfo=UTC))
    assert period("last month", None, BERLIN, now) == (datetime(2026, 1, 31, 23, 0, tzinfo=UTC),
                                                       datetime(2026, 2, 28, 23, 0, tzinfo=UTC))
    assert period("3 hours ago", None, BERLIN, now)[0] == datetime(2026, 3, 29, 10, 30, tzinfo=UTC)
    assert period("the last 2 days", None, BERLIN, now)[0] == datetime(2026, 3, 27, 13, 30, tzinfo=UTC)
    # Naive text is the home's wall clock, an offset is kept, a date alone is its midnight; no start: 24 h.
    assert period("2026-03-29T08:00", "2026-03-29T09:00Z", BERLIN, now) == (
        datetime(2026, 3, 29, 6, 0, tzinfo=UTC), datetime(2026, 3, 29, 9, 0, tzinfo=UTC))
    assert period("2026-03-20", "2026-03-21", BERLIN, now)[0] == datetime(2026, 3, 19, 23, 0, tzinfo=UTC)
    assert period(None, None, BERLIN, now) == (datetime(2026, 3, 28, 13, 30, tzinfo=UTC),
                                               datetime(2026, 3, 29, 13, 30, tzinfo=UTC))
    for start, end in (("2026-03-30", None), ("today", "yesterday"), ("40 days ago", None), (5, None),
                       ("x" * 100, None)):
        with pytest.raises(HomeError) as err:
            period(start, end, BERLIN, now)
        assert err.value.code == "invalid"


# ------------------------------------------------------------------------------------------------ REST path
@pytest.fixture
async def rest_ha() -> AsyncIterator[tuple[str, list[str]]]:
    """HA's REST history and config, its websocket (exposure list, statistics), on 127.0.0.1."""
    asked: list[str] = []
    start = datetime(2026, 3, 2, 6, 0, tzinfo=UTC)

    async def config(request: web.Request) -> web.Response:
        return web.json_response({"time_zone": "Europe/Berlin"})

    async def states(request: web.Request) -> web.Response:
        return web.json_response([{"entity_id": e["entity_id"], "state": e["state"],
                                   "attributes": {"friendly_name": e["name"]}} for e in ENTITIES])

    async def history(request: web.Request) -> web.Response:
        asked.append(str(request.rel_url))
        return web.json_response([[
            {"entity_id": "switch.heating", "state": "on", "last_changed": iso(start), "attributes": {}},
            {"entity_id": "switch.heating", "state": "off", "last_changed": iso(start + timedelta(minutes=45))}]])

    async def websocket(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"type": "auth_required"})
        if (await ws.receive_json()).get("access_token") != HA_SECRET:
            await ws.send_json({"type": "auth_invalid"})
            return ws
        await ws.send_json({"type": "auth_ok"})
        msg = await ws.receive_json()
        asked.append(json.dumps(msg, sort_keys=True))
        if msg["type"] == "homeassistant/expose_entity/list":
            result: Any = {"exposed_entities": {e["entity_id"]: {"conversation": True} for e in ENTITIES}}
        else:
            ms = int(start.timestamp() * 1000)
            result = {"sensor.energy_consumption": [{"start": ms, "end": ms + 86400000, "change": 3.5}]}
        await ws.send_json({"id": msg["id"], "type": "result", "success": True, "result": result})
        await ws.close()
        return ws

    app = web.Application()
    app.router.add_get("/api/config", config)
    app.router.add_get("/api/states", states)
    app.router.add_get("/api/history/period/{start}", history)
    app.router.add_get("/api/websocket", websocket)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    yield f"http://127.0.0.1:{runner.addresses[0][1]}", asked
    await runner.cleanup()


async def test_the_rest_relay_reads_history_and_statistics(served, llm: ScriptedLLM, rest_ha) -> None:
    """Without the integration (Wyoming ``handle``): history over /api/history/period, statistics over the
    websocket's ``recorder/statistics_during_period``, the home's time zone from /api/config."""
    url, asked = rest_ha
    _, agent = served
    agent.home.direct = RestRelay(url, HA_SECRET)
    llm.script(code("print(o1_ha.time_on('heating', start='2026-03-02T07:00', end='2026-03-02T09:00'))\n"
                    "print(o1_ha.statistics('energy', period='day', start='2026-03-02', end='2026-03-03').change())"),
               "Done.")
    reply = await agent.ask("How long was the heating on, and the energy?", "r1")
    assert reply.code_blocks[0].output.splitlines() == ["45 minutes", "3.5"], reply.code_blocks[0].output
    (path,) = [urllib.parse.unquote(a) for a in asked if a.startswith("/api/history")]
    assert path == ("/api/history/period/2026-03-02T06:00:00+00:00?filter_entity_id=switch.heating"
                    "&end_time=2026-03-02T08:00:00+00:00")
    (stats,) = [json.loads(a) for a in asked if "statistics_during_period" in a]
    assert stats["start_time"] == "2026-03-01T23:00:00+00:00" and stats["statistic_ids"] == [
        "sensor.energy_consumption"]
