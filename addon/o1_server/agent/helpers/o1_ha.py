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
Data as HA's intents take it: ``brightness_pct`` (0-100), ``color_name``/``rgb_color``, ``color_temp_kelvin``,
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
        return f"{self.get('name') or self.get('entity_id')} is {value}."


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
