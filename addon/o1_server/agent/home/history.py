"""The broker's reads of the home's past: state history, long-term statistics and the logbook.

``HistoryOps`` (a base of ``HomeBroker``) resolves names to exposed entities and a period (words such as
"today" or "last week", ISO times, naive times read in the home's time zone) to UTC, checks the bounds
(``MAX_DAYS``, ``MAX_ROWS``...) and relays ``o1.history``, ``o1.statistics`` or ``o1.logbook``; the answers
are checked again (exposure, row caps) before code sees them. ``rest_call`` runs the same three tools over HA's
REST API for ``RestRelay`` (statistics over its websocket). Read access only; audited like every broker op.
"""

from __future__ import annotations

import logging
import re
import urllib.parse
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from .context import Entity, HomeContext, is_entity_id
from .lookup import group_of
from .wire import HomeError

if TYPE_CHECKING:  # relays.py imports this module for the REST side
    from .relays import Relay

_LOGGER = logging.getLogger(__name__)

MAX_DAYS = 31  # days of state history or logbook per call
MAX_STATISTICS_DAYS = 366  # days of long-term statistics per call
MAX_ROWS = 2000  # state changes per history call (all entities together)
MAX_LOG_ROWS = 500  # logbook entries per call
MAX_STATISTICS_ROWS = 1000  # statistics rows per call (all entities together)
MAX_ENTITIES = 20  # entities per history or statistics call
DEFAULT_SPAN = timedelta(hours=24)  # the period when no start is given
PERIODS = {
    "5minute": timedelta(minutes=5),
    "hour": timedelta(hours=1),
    "day": timedelta(days=1),
    "week": timedelta(days=7),
    "month": timedelta(days=31),
}
STATISTIC_TYPES = frozenset({"mean", "min", "max", "sum", "change", "state"})
# Attributes kept in history rows (the kind HA's Assist API shows, plus what a thermostat is doing).
ATTRIBUTES = frozenset(
    {"unit_of_measurement", "device_class", "brightness", "temperature", "current_temperature", "hvac_action"}
)
TOOLS = frozenset({"o1.history", "o1.statistics", "o1.logbook", "o1.time_zone"})
_UNITS = {"minute": 60, "hour": 3600, "day": 86400, "week": 7 * 86400}
_AGO = re.compile(r"(?:(?:the )?(?:last|past) )?(\d+|an?|one) ?(minute|hour|day|week)s?(?: ago)?")


def utc_iso(moment: datetime) -> str:
    """An aware datetime as ISO 8601 in UTC, to the second (``2026-03-02T08:15:00+00:00``)."""
    return moment.astimezone(UTC).replace(microsecond=0).isoformat()


def _span(word: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The period a word names, in ``now``'s zone: "today", "yesterday", "this week", "last month",
    "last 3 hours", "2 days ago" (from then to now)... or None."""
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)

    def local(moment: datetime) -> datetime:  # midnight of that date in the zone (DST-safe)
        return datetime(moment.year, moment.month, moment.day, tzinfo=now.tzinfo)

    monday = local(day - timedelta(days=day.weekday()))
    first = local(day.replace(day=1))
    spans = {
        "now": (now, now),
        "today": (day, now),
        "yesterday": (local(day - timedelta(days=1)), day),
        "this week": (monday, now),
        "last week": (local(monday - timedelta(days=7)), monday),
        "this month": (first, now),
        "last month": (local((first - timedelta(days=1)).replace(day=1)), first),
    }
    word = re.sub(r"\s+", " ", word.strip().casefold())
    if word in spans:
        return spans[word]
    if match := _AGO.fullmatch(word):
        count = 1 if match[1] in ("a", "an", "one") else int(match[1])
        # elapsed time, in UTC: arithmetic on a zone's datetimes is wall-clock time (wrong across DST)
        return (now.astimezone(UTC) - timedelta(seconds=count * _UNITS[match[2]])).astimezone(now.tzinfo), now
    return None


def _moment(value: Any, zone: tzinfo, now: datetime, edge: int) -> datetime | None:
    """One end of a period as an aware datetime: None, a word (``edge`` 0 takes its start, 1 its end) or ISO
    8601 text (a date alone means its midnight; without an offset, the home's wall clock)."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 40:
        raise HomeError("invalid", "Give times as ISO text like '2026-03-02T08:00', or words like 'today'.")
    span = _span(value, now)
    if span is not None:
        return span[edge]
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        raise HomeError(
            "invalid", f"I can't read {value!r} as a time. Use ISO text like '2026-03-02T08:00' or 'yesterday'."
        ) from None
    return moment.replace(tzinfo=zone) if moment.tzinfo is None else moment


def period(start: Any, end: Any, zone: tzinfo, now: datetime, max_days: int = MAX_DAYS) -> tuple[datetime, datetime]:
    """The UTC period ``start`` to ``end`` mean (see ``_moment``): no start is ``DEFAULT_SPAN`` before the end,
    no end is the end of the start's word ("yesterday" ends at midnight) or now; an end in the future is now.
    Raises HomeError("invalid") for unreadable times, a start after the end or more than ``max_days``."""
    now = now.astimezone(zone)
    begin = _moment(start, zone, now, 0)
    if end is None:
        span = _span(start, now) if isinstance(start, str) else None
        finish = span[1] if span is not None else now
    else:
        finish = _moment(end, zone, now, 1) or now
    # In UTC from here: arithmetic on one zone's datetimes is wall-clock time (an hour off across DST).
    finish = min(finish, now).astimezone(UTC)
    begin = finish - DEFAULT_SPAN if begin is None else begin.astimezone(UTC)
    if begin >= finish:
        raise HomeError("invalid", "The start of that period is not before its end (or it is in the future).")
    if finish - begin > timedelta(days=max_days):
        raise HomeError("invalid", f"I can look at most {max_days} days back at once. Ask for a shorter period.")
    return begin, finish


class HistoryOps:
    """The ``history``, ``statistics`` and ``logbook`` ops of ``HomeBroker`` (its ``_op_*`` methods).

    Each answers ``{"start", "end", "time_zone", ...}`` with times as ISO text in UTC, plus ``local`` (the
    home's wall clock) on every row. Raises HomeError: ``invalid`` (bounds, bad times), ``denied``
    (unexposed), ``not_found``/``ambiguous`` (names), ``unavailable``/``ha_error``/``timeout`` (the relay).
    """

    context: HomeContext
    _zone_cache: tzinfo | None = None

    def _relay(self) -> Relay:  # HomeBroker's
        raise NotImplementedError

    def _exposed(self, entity_id: Any) -> Entity:  # HomeBroker's
        raise NotImplementedError

    # -------------------------------------------------------------- shared
    def _zone(self) -> tzinfo:
        """The home's time zone (asked once per turn); UTC when Home Assistant cannot say."""
        if self._zone_cache is None:
            name = None
            try:
                answer = self._relay().call("o1.time_zone", {})
                name = answer.get("time_zone") if isinstance(answer, dict) else None
                self._zone_cache = ZoneInfo(name) if isinstance(name, str) else UTC
            except HomeError:
                raise
            except (ValueError, KeyError, OSError):  # an unknown zone name: times are still right, "today" is UTC's
                _LOGGER.warning("Home Assistant's time zone %r is unknown here; using UTC", name)
                self._zone_cache = UTC
        return self._zone_cache

    def _period(self, start: Any, end: Any, max_days: int = MAX_DAYS) -> tuple[datetime, datetime, tzinfo]:
        zone = self._zone()
        try:
            begin, finish = period(start, end, zone, datetime.now(UTC), max_days)
        except (OverflowError, TypeError) as err:  # "999999999999 weeks ago", year 1 in another zone, a list...
            raise HomeError("invalid", "I can't read that time: say a date, or a time like 'yesterday'.") from err
        return begin, finish, zone

    def _many(self, name: Any) -> list[Entity]:
        """The exposed entities a name, a list of names or a group ("all lights") means."""
        if isinstance(name, str):
            group = group_of(self.context.entities, name, False)
            chosen = group if group is not None else [self._exposed(name)]
        elif isinstance(name, list) and name and all(isinstance(n, str) for n in name):
            chosen = [self._exposed(n) for n in name]
        else:
            raise HomeError("invalid", "Tell me which device, by its name (or a list of names).")
        chosen = list({e.entity_id: e for e in chosen}.values())
        if len(chosen) > MAX_ENTITIES:
            raise HomeError("invalid", f"I can look at the past of at most {MAX_ENTITIES} devices at once.")
        return chosen

    @staticmethod
    def _frame(begin: datetime, finish: datetime, zone: tzinfo) -> dict[str, Any]:
        return {
            "start": utc_iso(begin),
            "end": utc_iso(finish),
            "time_zone": str(zone),
            "local_start": begin.astimezone(zone).replace(microsecond=0).isoformat(),
            "local_end": finish.astimezone(zone).replace(microsecond=0).isoformat(),
        }

    # -------------------------------------------------------------- ops
    def _op_history(self, name: Any, start: Any = None, end: Any = None) -> dict[str, Any]:
        entities = self._many(name)
        begin, finish, zone = self._period(start, end)
        by_id = {e.entity_id: e for e in entities}
        answer = self._relay().call(
            "o1.history",
            {"entity_ids": list(by_id), "start": utc_iso(begin), "end": utc_iso(finish), "max_rows": MAX_ROWS},
        )
        rows = _rows(answer, "states", MAX_ROWS, "state changes", "or use o1_ha.statistics for a sensor")
        out = []
        for row in rows:
            entity = by_id.get(str(row.get("entity_id")))
            when = _when(row.get("last_changed"))
            if entity is None or when is None:  # never let through what was not asked for
                continue
            attributes = row["attributes"] if isinstance(row.get("attributes"), dict) else {}
            out.append(
                {
                    "entity_id": entity.entity_id,
                    "name": entity.name,
                    "state": row.get("state"),
                    "last_changed": utc_iso(max(when, begin)),
                    "local": max(when, begin).astimezone(zone).replace(microsecond=0).isoformat(),
                    "attributes": {k: v for k, v in attributes.items() if k in ATTRIBUTES},
                }
            )
        out.sort(key=lambda r: (r["last_changed"], r["entity_id"]))
        several = not isinstance(name, str) or group_of(self.context.entities, name, False) is not None
        names = [e.name for e in entities]
        return {**self._frame(begin, finish, zone), "names": names, "several": several, "states": out}

    def _op_statistics(
        self, name: Any, period: Any = "hour", start: Any = None, end: Any = None, types: Any = None
    ) -> dict[str, Any]:
        if not isinstance(period, str) or period not in PERIODS:
            raise HomeError("invalid", f"period must be one of {', '.join(PERIODS)}.")
        wanted = ["mean", "min", "max", "change"] if types is None else types
        if isinstance(wanted, str):
            wanted = [wanted]
        if (
            not isinstance(wanted, list)
            or not wanted
            or not all(isinstance(t, str) for t in wanted)
            or not set(wanted) <= STATISTIC_TYPES
        ):
            raise HomeError("invalid", f"types must be some of {', '.join(sorted(STATISTIC_TYPES))}.")
        entities = self._many(name)
        begin, finish, zone = self._period(start, end, MAX_STATISTICS_DAYS)
        rows = len(entities) * ((finish - begin) // PERIODS[period] + 1)
        if rows > MAX_STATISTICS_ROWS:
            raise HomeError(
                "invalid",
                f"That is more than {MAX_STATISTICS_ROWS} rows of statistics: use a longer period "
                "(period='day') or a shorter time.",
            )
        by_id = {e.entity_id: e for e in entities}
        answer = self._relay().call(
            "o1.statistics",
            {
                "statistic_ids": list(by_id),
                "period": period,
                "start": utc_iso(begin),
                "end": utc_iso(finish),
                "types": sorted(set(wanted)),
            },
        )
        found = _rows(answer, "statistics", MAX_STATISTICS_ROWS, "rows of statistics", "or use period='day'")
        units = answer.get("units") if isinstance(answer.get("units"), dict) else {}
        out = []
        for row in found:
            entity = by_id.get(str(row.get("statistic_id")))
            when, until = _when(row.get("start")), _when(row.get("end"))
            if entity is None or when is None or until is None:
                continue
            values = {k: row[k] for k in wanted if isinstance(row.get(k), (int, float))}
            unit = units.get(entity.entity_id) or entity.attributes.get("unit_of_measurement")
            out.append(
                {
                    "entity_id": entity.entity_id,
                    "name": entity.name,
                    "start": utc_iso(when),
                    "end": utc_iso(until),
                    "local": when.astimezone(zone).replace(microsecond=0).isoformat(),
                    **values,
                    "unit": unit if isinstance(unit, str) else None,
                }
            )
        if not out:
            names = ", ".join(e.name for e in entities)
            raise HomeError("not_found", f"Home Assistant keeps no long-term statistics for {names} in that period.")
        out.sort(key=lambda r: (r["start"], r["entity_id"]))
        return {**self._frame(begin, finish, zone), "period": period, "statistics": out}

    def _op_logbook(self, start: Any = None, end: Any = None, name: Any = None) -> dict[str, Any]:
        entities = list(self.context.entities) if name is None else self._many(name)
        begin, finish, zone = self._period(start, end)
        by_id = {e.entity_id: e for e in entities}
        if not by_id:
            return {**self._frame(begin, finish, zone), "entries": []}
        answer = self._relay().call(
            "o1.logbook",
            {"entity_ids": list(by_id), "start": utc_iso(begin), "end": utc_iso(finish), "max_rows": MAX_LOG_ROWS},
        )
        out = []
        for row in _rows(answer, "entries", MAX_LOG_ROWS, "logbook entries", ""):
            entity = by_id.get(str(row.get("entity_id")))
            when = _when(row.get("when"))
            if entity is None or when is None:  # entries of other entities, or of none, are not shown
                continue
            message = row.get("message")
            out.append(
                {
                    "entity_id": entity.entity_id,
                    "name": entity.name,
                    "when": utc_iso(when),
                    "local": when.astimezone(zone).replace(microsecond=0).isoformat(),
                    "state": row.get("state"),
                    "message": message if isinstance(message, str) else None,
                }
            )
        out.sort(key=lambda r: (r["when"], r["entity_id"]))
        return {**self._frame(begin, finish, zone), "entries": out}


def _rows(answer: Any, key: str, cap: int, what: str, hint: str) -> list[dict[str, Any]]:
    """The rows of a relay's answer, refused past ``cap`` (or when the relay says it cut them)."""
    rows = answer.get(key) if isinstance(answer, dict) else None
    if not isinstance(rows, list):
        raise HomeError("ha_error", "Home Assistant sent an answer I can't read.")
    if answer.get("truncated") or len(rows) > cap:
        raise HomeError("invalid", f"That is more than {cap} {what}. Ask for a shorter period{' ' + hint}.")
    return [r for r in rows if isinstance(r, dict)]


def _when(value: Any) -> datetime | None:
    """An ISO time (or epoch seconds) as an aware UTC datetime, or None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return datetime.fromtimestamp(value, UTC)
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)


# ------------------------------------------------------------------ the REST relay's side
Rest = Callable[[str, str], Any]  # (method, path below /api/) -> JSON
Websocket = Callable[[dict[str, Any]], Any]  # one websocket command -> its answer


def rest_call(rest: Rest, websocket: Websocket, name: str, args: dict[str, Any]) -> Any:
    """``o1.history``/``o1.logbook`` over HA's REST API (``/api/history/period``, ``/api/logbook``),
    ``o1.statistics`` over its websocket (``recorder/statistics_during_period``), ``o1.time_zone`` from
    ``/api/config``; the answers in the shape the integration gives. Raises HomeError."""
    ids = [e for e in args.get("entity_ids") or args.get("statistic_ids") or [] if is_entity_id(e)]
    quoted = urllib.parse.quote
    if name == "o1.time_zone":
        config = rest("GET", "config")
        return {"time_zone": config.get("time_zone") if isinstance(config, dict) else None}
    if name == "o1.history":
        query = urllib.parse.urlencode({"filter_entity_id": ",".join(ids), "end_time": args["end"]})
        answer = rest("GET", f"history/period/{quoted(args['start'], safe='')}?{query}")
        states = [s for entity in answer or [] if isinstance(entity, list) for s in entity if isinstance(s, dict)]
        return {"states": states[: args["max_rows"]], "truncated": len(states) > args["max_rows"]}
    if name == "o1.logbook":
        query = urllib.parse.urlencode({"entity": ",".join(ids), "end_time": args["end"]})
        entries = rest("GET", f"logbook/{quoted(args['start'], safe='')}?{query}") or []
        return {"entries": entries[: args["max_rows"]], "truncated": len(entries) > args["max_rows"]}
    if name == "o1.statistics":
        answer = websocket(
            {
                "type": "recorder/statistics_during_period",
                "start_time": args["start"],
                "end_time": args["end"],
                "statistic_ids": ids,
                "period": args["period"],
                "types": args["types"],
            }
        )
        if not isinstance(answer, dict) or not answer.get("success") or not isinstance(answer.get("result"), dict):
            raise HomeError("ha_error", "Home Assistant could not read its statistics.")
        rows = [
            {**row, "statistic_id": sid, "start": row.get("start", 0) / 1000, "end": row.get("end", 0) / 1000}
            for sid, found in answer["result"].items()
            if isinstance(found, list)
            for row in found
            if isinstance(row, dict)
        ]
        return {"statistics": rows, "units": {}}
    raise HomeError("invalid", f"Home Assistant's {name} tool is only available through the o1 integration.")


def websocket_command(url: str, token: str, timeout: float, message: dict[str, Any]) -> Any:
    """Send one command (``id`` 1) on HA's websocket after authenticating; its answer. Raises HomeError."""
    import asyncio

    import aiohttp

    async def send() -> Any:
        timeouts = aiohttp.ClientTimeout(total=timeout)
        ws_url = url.replace("http", "ws", 1) + "/api/websocket"
        async with aiohttp.ClientSession(timeout=timeouts) as client, client.ws_connect(ws_url) as ws:
            await ws.receive_json(timeout=timeout)  # auth_required
            await ws.send_json({"type": "auth", "access_token": token})
            if (await ws.receive_json(timeout=timeout)).get("type") != "auth_ok":
                raise HomeError("unavailable", "Home Assistant refused the server's token.")
            await ws.send_json({"id": 1, **message})
            return await ws.receive_json(timeout=timeout)

    try:
        return asyncio.run(send())
    except HomeError:
        raise
    except Exception as err:  # aiohttp/asyncio errors of many kinds: one clear failure
        raise HomeError("unavailable", "I can't reach Home Assistant's statistics right now.") from err
