"""The integration's reads of the home's past, against Home Assistant's real recorder and logbook.

States are written with known timestamps (``async_set(..., timestamp=...)``), statistics imported hourly
(``async_import_statistics``); each relayed tool call (``o1.history``, ``o1.statistics``, ``o1.logbook``,
``o1.time_zone``) goes through ``HomeToolRunner.async_run`` as the server's ``tool_call`` events do, and is
judged by the values it returns. Entities not exposed to Assist are refused, not filtered away silently.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from custom_components.o1 import past
from custom_components.o1.home import HomeToolRunner
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.components.recorder.models import StatisticMeanType
from homeassistant.components.recorder.statistics import async_import_statistics
from homeassistant.core import Context, HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util

DOOR = "binary_sensor.front_door"
HEATING = "switch.heating"
GARAGE = "light.garage"  # recorded, not exposed
TEMPERATURE = "sensor.outside_temperature"
ENERGY = "sensor.energy"


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(recorder_mock: Any, enable_custom_integrations: None) -> None:
    """Start the recorder before HA (the recorder fixture must come first), then allow o1."""


@pytest.fixture
async def home(hass: HomeAssistant) -> datetime:
    """A recorded home; returns the hour all its times count from (three hours ago, whole hour, UTC)."""
    await hass.config.async_set_time_zone("UTC")  # HA's "day" periods are the home's days: UTC's here
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "logbook", {})
    base = dt_util.utcnow().replace(minute=0, second=0, microsecond=0) - timedelta(hours=3)
    for entity_id in (DOOR, HEATING, TEMPERATURE, ENERGY):
        async_expose_entity(hass, "conversation", entity_id, True)
    async_expose_entity(hass, "conversation", GARAGE, False)
    steps = [
        (DOOR, "off", 0), (HEATING, "off", 0), (GARAGE, "off", 0),
        (DOOR, "on", 10), (DOOR, "off", 12), (HEATING, "on", 30), (GARAGE, "on", 40),
        (HEATING, "off", 75), (DOOR, "on", 100), (DOOR, "off", 101),
    ]
    for entity_id, state, minutes in steps:
        hass.states.async_set(entity_id, state, {"friendly_name": entity_id, "device_class": "door"},
                              timestamp=(base + timedelta(minutes=minutes)).timestamp())
    await hass.async_block_till_done()
    await async_wait_recording_done(hass)
    return base


def runner(hass: HomeAssistant) -> HomeToolRunner:
    """The runner of one turn, for a profile that may only read (history is a read)."""
    return HomeToolRunner(hass, None, Context(), may_control=False)


def iso(moment: datetime) -> str:
    return moment.isoformat()


async def test_history_gives_each_change_with_its_time(hass: HomeAssistant, home: datetime) -> None:
    start, end = home + timedelta(minutes=5), home + timedelta(minutes=120)
    answer = await runner(hass).async_run(
        "o1.history", {"entity_ids": [DOOR, HEATING], "start": iso(start), "end": iso(end), "max_rows": 100})
    rows = answer["result"]["states"]
    assert answer["result"]["truncated"] is False
    by_entity = {e: [(r["state"], dt_util.parse_datetime(r["last_changed"])) for r in rows if r["entity_id"] == e]
                 for e in (DOOR, HEATING)}
    minutes = {e: [(s, None if t is None else round((t - home).total_seconds() / 60)) for s, t in v]
               for e, v in by_entity.items()}
    # The first row is the state when the period began (HA dates it at the start), then each change.
    assert minutes[DOOR] == [("off", 5), ("on", 10), ("off", 12), ("on", 100), ("off", 101)]
    assert minutes[HEATING] == [("off", 5), ("on", 30), ("off", 75)]
    assert rows[0]["attributes"] == {"device_class": "door"}  # the subset: no friendly_name


async def test_rows_are_capped_and_reported_cut(hass: HomeAssistant, home: datetime) -> None:
    answer = await runner(hass).async_run(
        "o1.history",
        {"entity_ids": [DOOR], "start": iso(home), "end": iso(home + timedelta(hours=2)), "max_rows": 3})
    assert len(answer["result"]["states"]) == 3 and answer["result"]["truncated"] is True


async def test_unexposed_entities_and_long_periods_are_refused(hass: HomeAssistant, home: datetime) -> None:
    tools = runner(hass)
    period = {"start": iso(home), "end": iso(home + timedelta(hours=2))}
    for name, args in (("o1.history", {"entity_ids": [DOOR, GARAGE], **period}),
                       ("o1.logbook", {"entity_ids": [GARAGE], **period}),
                       ("o1.statistics", {"statistic_ids": [GARAGE], "period": "hour", "types": ["mean"], **period})):
        answer = await tools.async_run(name, args)
        assert answer == {"error": "denied", "message": f"{GARAGE} is not exposed to Assist."}, name
    answer = await tools.async_run(
        "o1.history", {"entity_ids": [DOOR], "start": iso(home - timedelta(days=40)), "end": iso(home)})
    assert answer["error"] == "denied" and "31 days" in answer["message"]
    answer = await tools.async_run("o1.history", {"entity_ids": [DOOR], "start": "2026-03-02T08:00", "end": "x"})
    assert answer["error"] == "ha_error"


async def test_logbook_lists_the_changes_of_exposed_entities(hass: HomeAssistant, home: datetime) -> None:
    answer = await runner(hass).async_run(
        "o1.logbook", {"entity_ids": [DOOR, HEATING], "start": iso(home + timedelta(minutes=5)),
                       "end": iso(home + timedelta(hours=2)), "max_rows": 100})
    entries = [(e["entity_id"], e["state"], round((dt_util.parse_datetime(e["when"]) - home).total_seconds() / 60))
               for e in answer["result"]["entries"]]
    assert entries == [(DOOR, "on", 10), (DOOR, "off", 12), (HEATING, "on", 30), (HEATING, "off", 75),
                       (DOOR, "on", 100), (DOOR, "off", 101)]
    assert all(e["entity_id"] != GARAGE for e in answer["result"]["entries"])


async def test_statistics_of_a_measurement_and_a_meter(hass: HomeAssistant, home: datetime) -> None:
    day = (home - timedelta(days=2)).replace(hour=0)
    async_import_statistics(hass, {
        "mean_type": StatisticMeanType.ARITHMETIC, "has_sum": False, "name": "Outside", "source": "recorder",
        "statistic_id": TEMPERATURE, "unit_class": "temperature", "unit_of_measurement": "°C",
    }, [{"start": day + timedelta(hours=h), "mean": 10.0 + h, "min": 9.0 + h, "max": 12.0 + h} for h in range(4)])
    async_import_statistics(hass, {
        "mean_type": StatisticMeanType.NONE, "has_sum": True, "name": "Energy", "source": "recorder",
        "statistic_id": ENERGY, "unit_class": "energy", "unit_of_measurement": "kWh",
    }, [{"start": day + timedelta(hours=h), "state": 100 + 0.5 * h, "sum": 0.5 * h} for h in range(48)])
    await async_wait_recording_done(hass)
    tools = runner(hass)

    answer = await tools.async_run("o1.statistics", {
        "statistic_ids": [TEMPERATURE], "period": "hour", "start": iso(day), "end": iso(day + timedelta(hours=6)),
        "types": ["mean", "min", "max"]})
    rows = answer["result"]["statistics"]
    assert [(r["mean"], r["min"], r["max"]) for r in rows] == [(10.0, 9.0, 12.0), (11.0, 10.0, 13.0),
                                                               (12.0, 11.0, 14.0), (13.0, 12.0, 15.0)]
    assert dt_util.parse_datetime(rows[1]["start"]) == day + timedelta(hours=1)
    assert answer["result"]["units"] == {TEMPERATURE: "°C"}

    # The second day, as one row: what the meter counted in it (24 hours of 0.5 kWh).
    answer = await tools.async_run("o1.statistics", {
        "statistic_ids": [ENERGY], "period": "day", "start": iso(day + timedelta(days=1)),
        "end": iso(day + timedelta(days=2)), "types": ["change"]})
    (row,) = answer["result"]["statistics"]
    assert row["change"] == pytest.approx(12.0) and answer["result"]["units"] == {ENERGY: "kWh"}


async def test_time_zone_is_the_homes(hass: HomeAssistant) -> None:
    await hass.config.async_set_time_zone("Europe/Berlin")
    answer = await runner(hass).async_run("o1.time_zone", {})
    assert answer == {"result": {"time_zone": "Europe/Berlin"}}


async def test_malformed_arguments_are_clear_errors(hass: HomeAssistant, home: datetime) -> None:
    """What the server relays is checked again here: each malformed argument is an ``ha_error`` naming it."""
    tools = runner(hass)
    period = {"start": iso(home), "end": iso(home + timedelta(hours=2))}
    cases = (
        ("o1.history", {"entity_ids": "binary_sensor.front_door", **period}, "entity_ids must be a list"),
        ("o1.history", {"entity_ids": ["not an id"], **period}, "entity_ids must be a list"),
        ("o1.statistics", {"statistic_ids": [TEMPERATURE], "period": "fortnight", "types": ["mean"], **period},
         "period must be one of"),
        ("o1.statistics", {"statistic_ids": [TEMPERATURE], "period": "hour", "types": ["median"], **period},
         "types must be some of"),
    )
    for name, args, message in cases:
        answer = await tools.async_run(name, args)
        assert answer["error"] == "ha_error" and message in answer["message"], (name, args, answer)


async def test_a_tool_history_does_not_know_is_refused(hass: HomeAssistant, home: datetime) -> None:
    answer = await past.async_run(hass, "o1.weather_history", {})
    assert answer == {"error": "denied", "message": "o1 has no history tool called o1.weather_history."}


def recent() -> dict[str, str]:
    now = dt_util.utcnow()
    return {"start": (now - timedelta(hours=2)).isoformat(), "end": now.isoformat()}


async def test_without_the_logbook_the_logbook_is_refused(hass: HomeAssistant) -> None:
    """A recorded Home Assistant without its logbook: the logbook is refused by name, history still answers."""
    assert await async_setup_component(hass, "homeassistant", {})
    async_expose_entity(hass, "conversation", DOOR, True)
    hass.states.async_set(DOOR, "on")
    await async_wait_recording_done(hass)
    tools = runner(hass)
    answer = await tools.async_run("o1.logbook", {"entity_ids": [DOOR], **recent()})
    assert answer == {"error": "denied", "message": "Home Assistant's logbook is not set up."}
    answer = await tools.async_run("o1.history", {"entity_ids": [DOOR], **recent()})
    assert [s["state"] for s in answer["result"]["states"]] == ["on"], answer
