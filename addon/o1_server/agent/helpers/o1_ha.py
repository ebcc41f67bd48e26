"""Home Assistant from generated code: the ``o1_ha`` module (already imported in o1's Python blocks).

It holds no URL and no token: it talks to the o1 server's broker over the per-turn unix socket named by
``O1_HA_SOCKET`` (JSON Lines: the protocol is ``o1_server/agent/home/wire.py``, see docs/home.md). The
broker decides what is allowed (the profile's access level, the entities exposed to Assist) and relays the call
to Home Assistant; what comes back is what Home Assistant reports. Standard library only.

    o1_ha.turn_on("kitchen light")        # -> {"entity_id": "light.kitchen", "name": ..., "state": "on", ...}
    o1_ha.turn_on("bedroom light", brightness_pct=30)   # also color_name="red", color_temp_kelvin=2700
    o1_ha.turn_off(area="bedroom", domain="light")      # every light there; also "the lights in the bedroom"
    o1_ha.set_temperature("living room", 21)            # the area's thermostat; hvac_mode="heat"
    print(o1_ha.get_state("front door"))  # prints "Front Door is locked."
    o1_ha.call_service("climate", "set_temperature", "living room", temperature=21)

Targets are what HA's intents take: a spoken name ("kitchen light"), an alias, an entity id or a state this
module returned, or a group: an area or floor with or without a kind of device ("the lights in the bedroom",
"all the blinds upstairs", ``area=``, ``floor=``, ``domain=``, ``device_class=``: every matching exposed entity,
a list of states back). A name is resolved among the domains the call is for (a temperature: a thermostat).
Data as HA's intents take it: ``brightness_pct`` (0-100; also "30%"; ``brightness`` of at most 100 is a percent
too, above it HA's 0-255), ``color_name``/``rgb_color``, ``color_temp_kelvin``,
``temperature``, ``hvac_mode``, ``position`` (0-100), ``volume`` (0-100), ``percentage`` (a fan's speed).
Errors (each message is a sentence fit to be spoken): ``PermissionError`` when the profile's access level or the
exposure settings forbid the call, or when o1 holds a guarded action (unlocking, opening a garage door or gate,
disarming) to ask the user first; ``LookupError`` when no exposed device matches; ``ValueError`` for bad
arguments; ``ConnectionError`` when Home Assistant cannot be reached or fails. When a name could mean several
devices the block prints the question ("Which one: Bedroom Lamp or Bedroom Ceiling?") and ends there: that
question is the answer, for the user to settle.
"""

from __future__ import annotations

import json as _json
import os as _os
import socket as _socket
from typing import Any, cast

TIMEOUT = 30.0  # seconds per call (the broker bounds each Home Assistant call itself)
# Functions small models write that o1_ha does not have, and the call to write instead: the gate's repair
# message for a block calling one of them says it (agent/gate.py reads this table, never imports the module).
INSTEAD = {
    "get_temperature": "get_state(name) with the temperature sensor's or the thermostat's name as listed",
    "get_humidity": "get_state(name) with the humidity sensor's name as listed",
    "get_brightness": "get_state(name) (a light's state says its level)",
    "set_brightness": "turn_on(name, brightness_pct=30)",
    "dim": "turn_on(name, brightness_pct=30)",
    "set_color": 'turn_on(name, color_name="red")',
    "open": "turn_on(name) (a cover opens)",
    "close": "turn_off(name) (a cover closes)",
}
_ERRORS = {
    "denied": PermissionError,
    "confirm": PermissionError,
    "not_found": LookupError,
    "ambiguous": LookupError,
    "invalid": ValueError,
}


class State(dict[str, Any]):
    """One entity's state as Home Assistant reports it (a dict: ``entity_id``, ``name``, ``state``,
    ``attributes``); printing it gives a short sentence. It also compares with a text as its state does
    (``get_state("front door") == "unlocked"``, ignoring case) and converts with ``float()`` as a sensor's
    number, the way code written by a small model tends to use it."""

    __hash__ = None  # a dict: unhashable

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return str(self.get("state")).casefold() == other.casefold()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __float__(self) -> float:
        state: Any = self.get("state")  # what Home Assistant reported: JSON
        return float(state)  # ValueError for "on", "unavailable"...

    def __str__(self) -> str:
        unit = (self.get("attributes") or {}).get("unit_of_measurement")
        value = f"{self.get('state')}{' ' + unit if unit else ''}"
        return f"{self.get('name') or self.get('entity_id')} is {value}{_details(self)}."


def _number(value: Any) -> float | int | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _details(state: dict[str, Any]) -> str:
    """What a state's text leaves out and a question asks for: a thermostat's target (", set to 21 degrees,
    now 19.5"), a light's brightness (" at 30 percent", HA's 0-255 scale), a cover's position (" at 50
    percent"). The broker's sentences (home/context.py state_sentence) are these too."""
    domain = str(state.get("entity_id", "")).split(".")[0]
    attributes = state.get("attributes") or {}
    if domain == "climate" and (target := _number(attributes.get("temperature"))) is not None:
        now = _number(attributes.get("current_temperature"))
        return f", set to {target:g} degrees" + (f", now {now:g}" if now is not None else "")
    if domain == "light" and state.get("state") == "on" and (level := _number(attributes.get("brightness"))):
        return f" at {round(level * 100 / 255)} percent"
    if domain == "cover" and state.get("state") == "open":
        position = _number(attributes.get("current_position"))
        return f" at {position:g} percent" if position is not None and position < 100 else ""
    return ""


class States(list[Any]):
    """Several entity states; printing it gives one sentence per entity."""

    def __str__(self) -> str:
        return " ".join(str(s) for s in self) or "Nothing matches."


def _call(op: str, /, **args: Any) -> Any:
    """Send one request to the broker and return its result. Raises the errors listed in the module doc."""
    path = _os.environ.get("O1_HA_SOCKET")
    if not path:
        raise PermissionError("This profile has no access to Home Assistant.")
    folder = None
    try:
        with _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM) as sock:
            sock.settimeout(TIMEOUT)
            if len(_os.fsencode(path)) >= 100:  # AF_UNIX addresses hold 108 bytes: go through the folder's fd
                folder = _os.open(_os.path.dirname(path), _os.O_PATH)
                path = f"/proc/self/fd/{folder}/{_os.path.basename(path)}"
            sock.connect(path)
            sock.sendall(_json.dumps({"op": op, "args": args}).encode() + b"\n")
            with sock.makefile("rb") as reader:
                line = reader.readline()
    except OSError as err:
        raise ConnectionError("I can't reach Home Assistant through o1 right now.") from err
    finally:
        if folder is not None:
            _os.close(folder)
    try:
        answer = _json.loads(line)
    except ValueError:
        raise ConnectionError("o1 sent an answer I can't read.") from None
    if not answer.get("ok"):
        if answer.get("error") == "ambiguous":  # the user settles it: the question is the block's answer
            print(answer.get("message") or "Which one do you mean?", flush=True)
            raise SystemExit(0)
        raise _ERRORS.get(answer.get("error"), ConnectionError)(answer.get("message") or "That failed.")
    return answer.get("result")


def _name(value: Any) -> Any:
    """A name as the broker takes it: a state this module returned stands for its entity (code written by
    small models passes the state it got back, ``for light in states('light'): turn_off(light)``)."""
    if isinstance(value, dict) and isinstance(value.get("entity_id"), str):
        return value["entity_id"]
    if isinstance(value, (list, tuple)):
        return [_name(v) for v in value]
    return value


def _state(value: Any) -> Any:
    if isinstance(value, dict) and "state" in value:
        return State(value)
    if isinstance(value, list):
        return States(_state(v) for v in value)
    return value


def entities() -> list[dict[str, Any]]:
    """The exposed entities: ``[{"entity_id", "name", "domain", "aliases", "areas", "state"}]``."""
    return cast("list[dict[str, Any]]", _call("entities"))


def find(name: str, domain: str | None = None) -> dict[str, Any]:
    """The one exposed entity a spoken name means ("kitchen light"); LookupError for none or several."""
    return cast("dict[str, Any]", _call("find", name=_name(name), domain=domain))


def get_state(name: str) -> State:
    """The live state of one exposed entity (by name or entity id)."""
    return cast(State, _state(_call("get_state", name=_name(name))))


def states(domain: str | None = None, area: str | None = None) -> States:
    """Live states of the exposed entities, optionally of one domain ("light"; a plural or a device name
    works too) and/or area ("Kitchen")."""
    return cast(States, _state(_call("states", domain=domain, area=area)))


def turn_on(name: Any = None, **target_and_data: Any) -> State | States:
    """Turn on (a lock: lock; a cover: open) an exposed device or a group; with data (``brightness_pct=30``,
    ``temperature=21``, ``position=50``...) set it. Target keywords: ``area``, ``floor``, ``domain``,
    ``device_class``. Returns its state (their states) afterwards."""
    return cast("State | States", _state(_call("turn_on", name=_name(name), **target_and_data)))


def turn_off(name: Any = None, **target_and_data: Any) -> State | States:
    """Turn off (a lock: unlock; a cover: close) an exposed device or a group; returns the state(s) after."""
    return cast("State | States", _state(_call("turn_off", name=_name(name), **target_and_data)))


def toggle(name: Any = None, **target_and_data: Any) -> State | States:
    """Toggle an exposed device or a group; returns the state(s) afterwards."""
    return cast("State | States", _state(_call("toggle", name=_name(name), **target_and_data)))


def lock(name: Any = None, **target: Any) -> State | States:
    """Lock an exposed lock (or every lock a target names); returns the state(s) afterwards."""
    return turn_on(name, domain="lock", **target)


def unlock(name: Any = None, **target: Any) -> State | States:
    """Unlock an exposed lock; o1 asks the user first (PermissionError until they said yes)."""
    return turn_off(name, domain="lock", **target)


def call_service(domain: str, service: str, entity_id: Any = None, **target_and_data: Any) -> States:
    """Call a Home Assistant service on exposed entities: ``entity_id`` is ids or names (resolved among the
    service's domain: "living room" for ``climate`` is that area's thermostat), or leave it out and name a
    target with ``area=``/``floor=``/``device_class=``; returns their states afterwards."""
    return cast(
        States,
        _state(_call("call_service", domain=domain, service=service, entity_id=_name(entity_id), **target_and_data)),
    )


def set_temperature(name: Any = None, temperature: float | None = None, **target_and_data: Any) -> States:
    """Set a thermostat's target temperature (degrees in the home's unit): ``set_temperature("living room",
    21)``, ``set_temperature(21)`` (the only thermostat, or the one in the user's area), ``hvac_mode="heat"``."""
    if isinstance(name, (int, float)) and temperature is None:
        name, temperature = None, name
    data = dict(target_and_data)
    if temperature is not None:
        data["temperature"] = temperature
    return call_service("climate", "set_temperature" if temperature is not None else "set_hvac_mode", name, **data)


def set_position(name: Any = None, position: int = 0, **target: Any) -> States:
    """Set a cover's position, 0 (closed) to 100 (open)."""
    return call_service("cover", "set_cover_position", name, position=position, **target)


def set_volume(name: Any = None, volume: float = 50, **target: Any) -> States:
    """Set a media player's volume, 0 to 100 percent."""
    return call_service("media_player", "volume_set", name, volume_level=round(volume / 100, 2), **target)


_MEDIA = {
    "play": "media_play",
    "pause": "media_pause",
    "stop": "media_stop",
    "next": "media_next_track",
    "previous": "media_previous_track",
    "mute": "volume_mute",
}


def media(name: Any = None, action: str = "pause", **target: Any) -> States:
    """Control a media player: ``action`` is play, pause, stop, next, previous or mute."""
    extra = {"is_volume_muted": True} if action == "mute" else {}
    return call_service("media_player", _MEDIA.get(action, action), name, **extra, **target)


def tool(*name_and_args: Any, **args: Any) -> Any:
    """Call one of Home Assistant's LLM API tools (``GetLiveContext``, ``HassLightSet``...) by name, its
    arguments as keywords or a dict: ``tool("HassTurnOn", name="Kitchen Light")`` (a slot called ``name``, as
    HA's intents have, is the tool's), ``tool("HassTurnOn", {"name": ...})``, or ``tool(name="GetLiveContext")``."""
    if name_and_args:
        name = name_and_args[0]
        if len(name_and_args) > 1 and isinstance(name_and_args[1], dict):
            args = {**name_and_args[1], **args}
    else:
        name = args.pop("name", None)
    return _call("tool", name=name, args=args)


# ---------------------------------------------------------------- the home's past: history, statistics, logbook
# Periods: ``start``/``end`` are words ("today", "yesterday", "this week", "last week", "this month",
# "last 3 hours", "2 days ago"), ISO text ("2026-03-02T08:00"; without an offset it is the home's wall clock)
# or datetime/date objects; no start means the 24 hours before the end, no end means now (or the end of the
# start's word: "yesterday" ends at midnight). At most 31 days of history or logbook per call (366 days of
# statistics); a longer period or too many rows is a ValueError saying what to ask instead.
_INACTIVE = frozenset(
    {"off", "unavailable", "unknown", "closed", "locked", "idle", "standby", "not_home", "paused", "docked", "none", ""}
)
_ACTIVE_ACTIONS = frozenset({"heating", "cooling", "drying", "preheating", "defrosting", "fan"})
_ON_WORDS = frozenset({"on", "open", "opened", "detected", "motion", "occupied", "wet", "home", "unlocked"})
_OFF_WORDS = frozenset({"off", "closed", "clear", "dry", "away", "locked"})


def _time(value: Any) -> Any:
    """A period's end as the broker takes it: datetime and date objects as ISO text, a timedelta as "N minutes
    ago"; text (and anything else, which the broker refuses) as it is."""
    import datetime as _dt

    if isinstance(value, (_dt.datetime, _dt.date)):
        return value.isoformat()
    if isinstance(value, _dt.timedelta):
        return f"{max(1, round(value.total_seconds() / 60))} minutes ago"
    return value


def _local(text: Any) -> Any:
    import datetime as _dt

    return _dt.datetime.fromisoformat(text) if isinstance(text, str) else None


def _said(moment: Any, today: Any) -> str:
    """'08:15 today', '21:40 yesterday', '07:05 on Monday 2 March' (the home's wall clock)."""
    if moment is None:
        return "an unknown time"
    days = (today.date() - moment.date()).days if today is not None else None
    day = {0: "today", 1: "yesterday"}.get(days, f"on {moment:%A} {moment.day} {moment:%B}") if days is not None else ""
    return f"{moment:%H:%M} {day}".strip()


class Duration(float):
    """A length of time in seconds (a float); prints as "2 hours and 5 minutes". ``.hours``, ``.minutes``."""

    @property
    def hours(self) -> float:
        return float(self) / 3600

    @property
    def minutes(self) -> float:
        return float(self) / 60

    def __str__(self) -> str:
        total = round(float(self))
        if total < 60:
            return f"{total} second{'s' * (total != 1)}"
        hours, minutes = divmod(round(total / 60), 60)
        parts = [f"{n} {unit}{'s' * (n != 1)}" for n, unit in ((hours, "hour"), (minutes, "minute")) if n]
        return " and ".join(parts) or "0 minutes"

    __repr__ = __str__


class Durations(dict[str, Any]):
    """How long each device was in a state (``.state``, None: on): {name: Duration}; prints "Heating was on
    for 20 minutes. Fan was on for 5 minutes."."""

    state: str | None = None

    def __str__(self) -> str:
        said = self.state or "on"
        return " ".join(f"{name} was {said} for {duration}." for name, duration in self.items()) or "Nothing matches."


class Change(State):
    """One state change: ``entity_id``, ``name``, ``state``, ``last_changed`` (ISO, UTC), ``local`` (ISO, the
    home's wall clock), ``attributes``; ``.time`` is the local datetime. Compares with a text as its state."""

    today: Any = None

    @property
    def time(self) -> Any:
        return _local(self.get("local"))

    def __str__(self) -> str:
        return f"{self.get('name')} was {self.get('state')} at {_said(self.time, self.today)}."


def _matches(row: dict[str, Any], state: str | None) -> bool:
    """Whether a history row is in ``state`` (its state, or a thermostat's ``hvac_action``; "open", "detected"...
    mean "on" for a binary sensor); ``None`` means active (not off, closed, idle, unavailable...)."""
    action = str((row.get("attributes") or {}).get("hvac_action") or "").casefold()
    value = str(row.get("state")).casefold()
    if state is None:
        return action in _ACTIVE_ACTIONS if action else value not in _INACTIVE
    wanted = str(state).casefold()
    if str(row.get("entity_id", "")).startswith("binary_sensor."):
        wanted = "on" if wanted in _ON_WORDS else "off" if wanted in _OFF_WORDS else wanted
    return wanted in (value, action)


class History(list[Any]):
    """State changes, oldest first (``Change`` rows; the first row of each entity is its state at ``start``).
    ``.start``/``.end`` are the period (local datetimes); ``.durations(state=None)`` -> {name: Duration}."""

    start: Any = None
    end: Any = None
    names: tuple[str, ...] = ()  # the devices asked about
    several = True  # asked about a group or a list (False: one device)

    def durations(self, state: str | None = None) -> Durations:
        """How long each entity was in ``state`` (None: active, see ``time_on``) during the period:
        ``Durations`` ({name: Duration}, prints "Heating was on for 20 minutes.")."""
        found: dict[str, float] = dict.fromkeys(self.names, 0.0)
        rows: dict[str, list[Any]] = {}
        for row in self:
            rows.setdefault(row.get("name"), []).append(row)
            found.setdefault(row.get("name"), 0.0)
        for name, changes in rows.items():
            for row, after in zip(changes, [*changes[1:], None], strict=True):
                until = after.time if after is not None else self.end
                if row.time is not None and until is not None and _matches(row, state):
                    found[name] += max(0.0, (until - row.time).total_seconds())
        out = Durations((name, Duration(seconds)) for name, seconds in found.items())
        out.state = state
        return out

    def __str__(self) -> str:
        return " ".join(str(row) for row in self) or "Nothing changed in that period."


def history(name: Any, start: Any = None, end: Any = None) -> History:
    """State changes of exposed devices (a name, a list of names or a group: "all lights") over a period
    (see above; default the last 24 hours): a ``History`` of ``Change`` rows, oldest first.
    ``o1_ha.history("front door", start="today")``."""
    answer = _call("history", name=_name(name), start=_time(start), end=_time(end))
    found = History()
    found.start, found.end = _local(answer.get("local_start")), _local(answer.get("local_end"))
    found.names, found.several = tuple(answer.get("names") or ()), bool(answer.get("several", True))
    for row in answer.get("states") or []:
        change = Change(row)
        change.today = found.end
        found.append(change)
    return found


def time_on(name: Any, start: Any = None, end: Any = None, state: str | None = None) -> Any:
    """How long a device was on (or in ``state``: "heat", "heating", "open", "playing"...) during a period
    (default the last 24 hours): a ``Duration`` (seconds; prints "2 hours and 5 minutes"); for a group or a list
    of names a dict {name: Duration}. "On" means active: not off, closed, locked, idle or unavailable, and
    for a thermostat, heating or cooling. ``print(o1_ha.time_on("heating", start="today"))``;
    ``lights = o1_ha.time_on("all lights", start="today"); print(max(lights, key=lights.get))``."""
    rows = history(name, start, end)
    found = rows.durations(state)
    return found if rows.several else next(iter(found.values()), Duration(0))


def last_change(name: str, state: str | None = None, start: Any = "7 days ago", end: Any = None) -> Change | None:
    """When an exposed device last changed (to ``state``, if given: "on", "open", "unlocked"...) in the period
    (default the last 7 days): its ``Change`` (``.time``, prints "Front Door was on at 08:15 today."), or None.
    ``print(o1_ha.last_change("front door", "open") or "Not in the last 7 days.")``."""
    rows = history(name, start, end)
    seen: set[Any] = set()
    latest = None
    for row in rows:  # an entity's first row is its state when the period began, not a change
        if row.get("entity_id") in seen and (state is None or _matches(row, state)):
            latest = row
        seen.add(row.get("entity_id"))
    return latest


class Statistics(list[Any]):
    """Long-term statistics rows, oldest first: ``{"name", "start", "end" (ISO, UTC), "local", "mean", "min",
    "max", "change", "unit"}``. ``.mean()``, ``.min()``, ``.max()`` over the period; ``.change()`` what a
    meter counted in it (energy used: kWh), the sum of the rows' changes. Each is None without data."""

    def _values(self, key: str) -> list[float]:
        return [row[key] for row in self if isinstance(row.get(key), (int, float))]

    def mean(self) -> float | None:
        values = self._values("mean")
        return round(sum(values) / len(values), 2) if values else None

    def min(self) -> float | None:
        values = self._values("min")
        return min(values) if values else None

    def max(self) -> float | None:
        values = self._values("max")
        return max(values) if values else None

    def change(self) -> float | None:
        values = self._values("change")
        return round(sum(values), 3) if values else None

    def __str__(self) -> str:
        if not self:
            return "No statistics for that period."
        unit = f" {self[0]['unit']}" if self[0].get("unit") else ""
        said = [
            f"{key} {value}{unit}"
            for key in ("mean", "min", "max", "change")
            if (value := getattr(self, key)()) is not None
        ]
        return f"{self[0].get('name')}: {', '.join(said)}."


def statistics(
    name: Any, period: str = "hour", start: Any = None, end: Any = None, types: Any = ("mean", "min", "max", "change")
) -> Statistics:
    """Home Assistant's long-term statistics of a sensor with a state class (temperatures, energy meters),
    per ``period`` ("5minute", "hour", "day", "week", "month") over a period (default the last 24 hours):
    ``types`` of "mean", "min", "max" (measurements), "change" (what a meter counted), "sum", "state".
    ``o1_ha.statistics("outside temperature", start="this week").mean()``;
    ``o1_ha.statistics("energy", period="day", start="yesterday").change()`` (kWh used yesterday)."""
    kinds = [types] if isinstance(types, str) else list(types) if isinstance(types, (list, tuple, set)) else types
    answer = _call("statistics", name=_name(name), period=period, start=_time(start), end=_time(end), types=kinds)
    return Statistics(answer.get("statistics") or [])


class Entry(dict[str, Any]):
    """One logbook entry: ``entity_id``, ``name``, ``when`` (ISO, UTC), ``local``, ``state``, ``message``."""

    today: Any = None

    def __str__(self) -> str:
        what = self.get("message") or f"changed to {self.get('state')}"
        return f"{_said(_local(self.get('local')), self.today)}: {self.get('name')} {what}."


class Logbook(list[Any]):
    """Logbook entries, oldest first; printing gives one line each."""

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self) or "Nothing in the logbook for that period."


def logbook(start: Any = None, end: Any = None, name: Any = None) -> Logbook:
    """Home Assistant's logbook of the exposed devices (or of ``name``: a name, list or group) over a period
    (default the last 24 hours), oldest first: ``Entry`` rows. ``print(o1_ha.logbook("today", name="front door"))``."""
    answer = _call("logbook", start=_time(start), end=_time(end), name=_name(name))
    found = Logbook()
    for row in answer.get("entries") or []:
        entry = Entry(row)
        entry.today = _local(answer.get("local_end"))
        found.append(entry)
    return found
