"""Home Assistant's side of o1's reads of the home's past: state history, long-term statistics, the logbook.

The o1 server's broker relays ``o1.history``, ``o1.statistics``, ``o1.logbook`` and ``o1.time_zone`` tool
calls; ``home.HomeToolRunner`` hands them to `async_run`. Each reads HA's recorder in its executor
(``get_instance(hass).async_add_executor_job``: ``history.get_significant_states``,
``statistics.statistics_during_period``, the logbook's ``EventProcessor``), for entities exposed to Assist
only, within a bounded period and row count, and answers ``{"result": ...}`` or ``{"error", "message"}``.
Nothing here changes the home, so the profile's access level does not matter (reading is the least it has).
"""

from __future__ import annotations

from datetime import datetime, timedelta
import json
from typing import Any

from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_should_expose
from homeassistant.core import HomeAssistant, State, valid_entity_id
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers.json import json_dumps
from homeassistant.util import dt as dt_util

TOOL_HISTORY = "o1.history"
TOOL_STATISTICS = "o1.statistics"
TOOL_LOGBOOK = "o1.logbook"
TOOL_TIME_ZONE = "o1.time_zone"
TOOLS = frozenset({TOOL_HISTORY, TOOL_STATISTICS, TOOL_LOGBOOK, TOOL_TIME_ZONE})
MAX_DAYS = 31  # of state history or logbook per call (the server asks no more)
MAX_STATISTICS_DAYS = 366
MAX_ROWS = 5000  # whatever the server asks, no call answers more rows than this
MAX_ENTITIES = 2000
PERIODS = frozenset({"5minute", "hour", "day", "week", "month"})
STATISTIC_TYPES = frozenset({"mean", "min", "max", "sum", "change", "state"})
# Attributes kept in history rows (the kind HA's Assist API shows, plus what a thermostat is doing).
ATTRIBUTES = frozenset({
    "unit_of_measurement", "device_class", "brightness", "temperature", "current_temperature", "hvac_action",
})


class _Refused(Exception):
    """A read this integration will not run (exposure, bounds, a missing recorder)."""


async def async_run(hass: HomeAssistant, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run one of `TOOLS`: ``{"result": ...}`` or ``{"error": code, "message": sentence}`` (never raises).

    ``o1.history`` {"entity_ids", "start", "end" (ISO, aware), "max_rows"} -> {"states": [{"entity_id",
    "state", "last_changed", "attributes"}], "truncated"}; ``o1.statistics`` {"statistic_ids", "period",
    "start", "end", "types"} -> {"statistics": [{"statistic_id", "start", "end", <type>: number}], "units"};
    ``o1.logbook`` {"entity_ids", "start", "end", "max_rows"} -> {"entries": [{"when", "entity_id", "name",
    "message", "state"}], "truncated"}; ``o1.time_zone`` {} -> {"time_zone": "Europe/Berlin"}.
    """
    try:
        if name == TOOL_TIME_ZONE:
            return {"result": {"time_zone": hass.config.time_zone}}
        if "recorder" not in hass.config.components:
            raise _Refused("Home Assistant's recorder is not running, so it keeps no history.")
        if name == TOOL_HISTORY:
            return {"result": await _async_history(hass, args)}
        if name == TOOL_STATISTICS:
            return {"result": await _async_statistics(hass, args)}
        if name == TOOL_LOGBOOK:
            return {"result": await _async_logbook(hass, args)}
        raise _Refused(f"o1 has no history tool called {name}.")
    except _Refused as err:
        return {"error": "denied", "message": str(err)}
    except (HomeAssistantError, ValueError, TypeError, KeyError) as err:
        return {"error": "ha_error", "message": str(err) or type(err).__name__}


def _exposed(hass: HomeAssistant, entity_ids: Any) -> list[str]:
    """The entity ids asked for, each a valid id exposed to Assist (the check home.py makes for states)."""
    if (not isinstance(entity_ids, list) or not entity_ids or len(entity_ids) > MAX_ENTITIES
            or not all(isinstance(e, str) and valid_entity_id(e) for e in entity_ids)):
        raise ValueError("entity_ids must be a list of entity ids")
    for entity_id in entity_ids:
        if not async_should_expose(hass, conversation.DOMAIN, entity_id):
            raise _Refused(f"{entity_id} is not exposed to Assist.")
    return list(dict.fromkeys(entity_ids))


def _period(args: dict[str, Any], max_days: int) -> tuple[datetime, datetime]:
    """The UTC period of a call: ``start`` and ``end`` as ISO text with an offset, at most ``max_days``."""
    start = dt_util.parse_datetime(str(args.get("start")))
    end = dt_util.parse_datetime(str(args.get("end")))
    if start is None or end is None or start.tzinfo is None or end.tzinfo is None:
        raise ValueError("start and end must be ISO times with an offset")
    if not start < end or end - start > timedelta(days=max_days, minutes=1):
        raise _Refused(f"A period must run forwards and last at most {max_days} days.")
    return dt_util.as_utc(start), dt_util.as_utc(end)


def _cap(args: dict[str, Any]) -> int:
    rows = args.get("max_rows")
    return min(rows, MAX_ROWS) if isinstance(rows, int) and rows > 0 else MAX_ROWS


async def _async_history(hass: HomeAssistant, args: dict[str, Any]) -> dict[str, Any]:
    from homeassistant.components.recorder import history
    from homeassistant.helpers.recorder import get_instance

    entity_ids = _exposed(hass, args.get("entity_ids"))
    start, end = _period(args, MAX_DAYS)
    cap = _cap(args)

    def read() -> dict[str, Any]:
        found = history.get_significant_states(
            hass, start, end, entity_ids, include_start_time_state=True, significant_changes_only=True,
        )
        rows = [
            {
                "entity_id": entity_id,
                "state": state.state,
                "last_changed": state.last_changed.isoformat(),
                "attributes": {k: v for k, v in state.attributes.items() if k in ATTRIBUTES},
            }
            for entity_id, states in found.items()
            for state in states
            if isinstance(state, State)
        ]
        return {"states": rows[:cap], "truncated": len(rows) > cap}

    result: dict[str, Any] = await get_instance(hass).async_add_executor_job(read)
    return _json(result)


async def _async_statistics(hass: HomeAssistant, args: dict[str, Any]) -> dict[str, Any]:
    from homeassistant.components.recorder import statistics
    from homeassistant.helpers.recorder import get_instance

    statistic_ids = _exposed(hass, args.get("statistic_ids"))
    start, end = _period(args, MAX_STATISTICS_DAYS)
    period = args.get("period")
    types = args.get("types")
    if period not in PERIODS:
        raise ValueError(f"period must be one of {', '.join(sorted(PERIODS))}")
    if not isinstance(types, list) or not types or not set(types) <= STATISTIC_TYPES:
        raise ValueError(f"types must be some of {', '.join(sorted(STATISTIC_TYPES))}")

    def read() -> dict[str, Any]:
        found = statistics.statistics_during_period(
            hass, start, end, set(statistic_ids), period, None, set(types),
        )
        metadata = statistics.get_metadata(hass, statistic_ids=set(statistic_ids))
        rows = [
            {
                "statistic_id": statistic_id,
                "start": dt_util.utc_from_timestamp(row["start"]).isoformat(),
                "end": dt_util.utc_from_timestamp(row["end"]).isoformat(),
                **{k: row.get(k) for k in types if isinstance(row.get(k), (int, float))},
            }
            for statistic_id, found_rows in found.items()
            for row in found_rows
        ]
        units = {sid: meta.get("unit_of_measurement") for sid, (_, meta) in metadata.items()}
        return {"statistics": rows[:MAX_ROWS], "truncated": len(rows) > MAX_ROWS, "units": units}

    result: dict[str, Any] = await get_instance(hass).async_add_executor_job(read)
    return _json(result)


async def _async_logbook(hass: HomeAssistant, args: dict[str, Any]) -> dict[str, Any]:
    from homeassistant.components.logbook.helpers import async_determine_event_types
    from homeassistant.components.logbook.processor import EventProcessor
    from homeassistant.helpers.recorder import get_instance

    if "logbook" not in hass.config.components:
        raise _Refused("Home Assistant's logbook is not set up.")
    entity_ids = _exposed(hass, args.get("entity_ids"))
    start, end = _period(args, MAX_DAYS)
    cap = _cap(args)
    processor = EventProcessor(
        hass, async_determine_event_types(hass, entity_ids, None), entity_ids, None, None,
        timestamp=False, include_entity_name=True,
    )
    events = await get_instance(hass).async_add_executor_job(processor.get_events, start, end)
    wanted = set(entity_ids)
    entries = [
        {k: event.get(k) for k in ("when", "entity_id", "name", "message", "state")}
        for event in events
        if event.get("entity_id") in wanted  # entries of other entities, or of none, are not sent
    ]
    return _json({"entries": entries[:cap], "truncated": len(entries) > cap})


def _json(value: dict[str, Any]) -> dict[str, Any]:
    """A JSON-safe copy (HA's encoder: datetimes, enums, sets...)."""
    found: dict[str, Any] = json.loads(json_dumps(value))
    return found
