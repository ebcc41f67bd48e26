"""Targets as Home Assistant's own intents read them: a name, an area, a floor, a domain, a device class.

``resolve`` turns what a call names ("the lights in the bedroom", "all the blinds upstairs", "Living Room" for a
thermostat service) into the exposed entities it means, knowing the domain of the service it is for, so
``climate.set_temperature`` on "Living Room" is the area's thermostat, never a light. ``Ambiguous`` and
``NotFound`` carry the sentence to say. ``service_data`` maps the data of HA's intents (brightness in percent,
colour, colour temperature, position, volume...) to the service that sets it (``light_data``: a light's level
in the forms small models write). Pure functions: no HA call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .context import Entity
from .lookup import find_entities, norm

# Words for a kind of device, as HA's intents accept them: (domain, device class or None).
KIND_WORDS: dict[str, tuple[str, str | None]] = {
    "light": ("light", None),
    "lamp": ("light", None),
    "switch": ("switch", None),
    "fan": ("fan", None),
    "lock": ("lock", None),
    "thermostat": ("climate", None),
    "heating": ("climate", None),
    "heater": ("climate", None),
    "air conditioning": ("climate", None),
    "ac": ("climate", None),
    "climate": ("climate", None),
    "cover": ("cover", None),
    "blind": ("cover", "blind"),
    "shade": ("cover", "shade"),
    "curtain": ("cover", "curtain"),
    "shutter": ("cover", "shutter"),
    "awning": ("cover", "awning"),
    "garage door": ("cover", "garage"),
    "garage": ("cover", "garage"),
    "gate": ("cover", "gate"),
    "window": ("cover", "window"),
    "tv": ("media_player", "tv"),
    "speaker": ("media_player", "speaker"),
    "media player": ("media_player", None),
    "player": ("media_player", None),
    "sensor": ("sensor", None),
    "temperature": ("sensor", "temperature"),
    "humidity": ("sensor", "humidity"),
    "vacuum": ("vacuum", None),
    "valve": ("valve", None),
    "scene": ("scene", None),
    "script": ("script", None),
    "alarm": ("alarm_control_panel", None),
}
_GROUP = re.compile(r"^(?:(?:all|every|each)(?: of)? )?")


class NotFound(LookupError):
    """Nothing exposed matches; ``args[0]`` is the sentence to say."""


class Ambiguous(LookupError):
    """Several exposed entities match one name; ``args[0]`` is the question ("Which one: A or B?")."""

    def __init__(self, message: str, candidates: list[Entity]) -> None:
        super().__init__(message)
        self.candidates = candidates


@dataclass(frozen=True)
class Target:
    """What a call names: any of a name, an area, a floor, a domain and a device class (all optional)."""

    name: str | None = None
    area: str | None = None
    floor: str | None = None
    domain: str | None = None
    device_class: str | None = None


def device_class(entity: Entity) -> str | None:
    """The entity's device class as Home Assistant reports it (``garage``, ``temperature``), or None."""
    value = entity.attributes.get("device_class")
    return value if isinstance(value, str) else None


def _in(names: tuple[str, ...], wanted: str) -> bool:
    return norm(wanted) in {norm(n) for n in names}


def _kind(phrase: str) -> tuple[str, str | None] | None:
    """The kind of device a phrase names ("lights", "the blinds", "garage doors"), or None."""
    words = phrase.removesuffix("es") if phrase.endswith(("ches", "shes")) else phrase.removesuffix("s")
    return KIND_WORDS.get(phrase) or KIND_WORDS.get(words)


def _split_place(entities: list[Entity], phrase: str) -> tuple[str, str | None, str | None]:
    """``phrase`` without an area or floor it names ("lights in the bedroom", "upstairs blinds"): (rest, area,
    floor). Areas and floors are the entities' own (names and aliases)."""
    areas = {norm(a) for e in entities for a in e.areas if norm(a)}
    floors = {norm(f) for e in entities for f in e.floors if norm(f)}
    for place in sorted(areas | floors, key=len, reverse=True):
        for pattern in (
            rf"^(.*?)\s*\b(?:in|on|of|at)\s+{re.escape(place)}$",
            rf"^(.*?)\s*{re.escape(place)}$",
            rf"^{re.escape(place)}\s*(.*)$",
        ):
            match = re.match(pattern, phrase)
            if match is not None:
                rest = match.group(1).strip()
                return rest, (place if place in areas else None), (place if place not in areas else None)
    return phrase, None, None


def _filter(pool: list[Entity], target: Target) -> list[Entity]:
    if target.domain:
        pool = [e for e in pool if e.domain == target.domain]
    if target.device_class:
        pool = [e for e in pool if device_class(e) == target.device_class]
    if target.area:
        pool = [e for e in pool if _in(e.areas, target.area)]
    if target.floor:
        pool = [e for e in pool if _in(e.floors, target.floor)]
    return pool


def resolve(
    entities: tuple[Entity, ...] | list[Entity],
    target: Target,
    domains: frozenset[str] = frozenset(),
    here: str | None = None,
    one: bool = False,
) -> list[Entity]:
    """The exposed entities ``target`` means, for a service of ``domains`` (empty: any), best first.

    A name is tried as a device's name first (``find_entities``), then as a group phrase: an area or floor
    with or without a kind of device ("the lights in the bedroom", "Living Room", "all the blinds upstairs",
    "lights": every one of that kind). ``here`` is the satellite's area: several devices with one name are
    settled by it, as HA's intents prefer the area of the device. With ``one`` a group of several is
    ambiguous (a thermostat service on "the house"). Raises NotFound or Ambiguous with the sentence to say.
    """
    pool = [e for e in entities if not domains or e.domain in domains]
    pool = _filter(pool, Target(None, target.area, target.floor, target.domain, target.device_class))
    if target.name is None or not norm(target.name):
        chosen = pool
        if not chosen:
            raise NotFound("None of the devices exposed to me matches that.")
        return _one(chosen, here) if one else chosen
    by_name = find_entities(pool, target.name)
    exact = [e for e in by_name if _in(e.names, target.name) or e.entity_id == target.name.strip().lower()]
    if exact:
        return _one(exact, here) if len(exact) > 1 else exact
    group = _group(pool, norm(target.name))
    if group:
        return _one(group, here) if one else group
    if by_name:
        return _one(by_name, here) if len(by_name) > 1 else by_name
    raise NotFound(f"I can't find {target.name} among the devices exposed to me.")


def _group(pool: list[Entity], phrase: str) -> list[Entity]:
    """The entities a group phrase means in ``pool``: a place and/or a kind, every word accounted for."""
    phrase = _GROUP.sub("", phrase).strip()
    rest, area, floor = _split_place(pool, phrase)
    rest = _GROUP.sub("", rest).strip()
    kind = _kind(rest) if rest else None
    if rest and kind is None:
        return []
    domain, klass = kind if kind is not None else (None, None)
    if domain is not None and not any(e.domain == domain for e in pool):
        return []
    if klass is not None and not any(device_class(e) == klass for e in pool):
        klass = None  # "the blinds" where covers carry no device class: every cover
    if area is None and floor is None and kind is None:
        return []
    return _filter(pool, Target(None, area, floor, domain, klass))


def _one(found: list[Entity], here: str | None) -> list[Entity]:
    """One entity of several, settled by the satellite's area; Ambiguous otherwise."""
    if len(found) == 1:
        return found
    local = [e for e in found if here and _in(e.areas, here)]
    if len(local) == 1:
        return local
    names = [f"{e.name}{f' in the {e.areas[0]}' if e.areas else ''}" for e in found[:5]]
    said = ", ".join(names[:-1]) + f" or {names[-1]}"
    raise Ambiguous(f"Which one: {said}?", found)


# The data of HA's intents, by the service that sets it: (domain, data key) -> (service, key, scale).
_DATA_SERVICE: dict[tuple[str, str], tuple[str, str, float]] = {
    ("climate", "temperature"): ("set_temperature", "temperature", 1),
    ("climate", "hvac_mode"): ("set_hvac_mode", "hvac_mode", 1),
    ("cover", "position"): ("set_cover_position", "position", 1),
    ("valve", "position"): ("set_valve_position", "position", 1),
    ("media_player", "volume"): ("volume_set", "volume_level", 0.01),
    ("media_player", "volume_pct"): ("volume_set", "volume_level", 0.01),
    ("fan", "percentage"): ("set_percentage", "percentage", 1),
    ("fan", "speed"): ("set_percentage", "percentage", 1),
}
# What small models call the light's data: HA's names.
_LIGHT_DATA = {
    "brightness_percent": "brightness_pct",
    "brightness_percentage": "brightness_pct",
    "brightness_level": "brightness_pct",
    "level": "brightness_pct",
    "percent": "brightness_pct",
    "percentage": "brightness_pct",
    "pct": "brightness_pct",
    "color": "color_name",
    "colour": "color_name",
    "kelvin": "color_temp_kelvin",
    "color_temp": "color_temp_kelvin",
    "colour_temp": "color_temp_kelvin",
}


_PERCENT = re.compile(r"^\s*(\d+(?:[.,]\d+)?)\s*(%|percent|per cent|pct)?\s*$", re.IGNORECASE)


def _level(value: Any, key: str) -> tuple[float | int, bool]:
    """A brightness as a number and whether it was written as a percent ("30%", "30 percent"). Raises
    ValueError for anything else (a bool, "bright")."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value, False
    match = _PERCENT.match(value) if isinstance(value, str) else None
    if match is None:
        raise ValueError(f"{key} must be a number: a percent from 0 to 100, like brightness_pct=30.")
    number = float(match.group(1).replace(",", "."))
    return (int(number) if number.is_integer() else number), match.group(2) is not None


def light_data(data: dict[str, Any]) -> dict[str, Any]:
    """A light's ``turn_on`` data as Home Assistant takes it, from what small models write: the key names of
    ``_LIGHT_DATA`` (``percent``, ``level``, ``color``, ``kelvin``...) become HA's; a level may be text ("30%",
    "30"). ``brightness_pct`` is percent (a fraction below 1, ``0.3``, is 30 percent); ``brightness`` is HA's
    0-255 scale, except a value of at most 100, or one written as a percent, which is a percent (a level is said
    in percent: "30" means 30 percent). A colour given as a list is ``rgb_color``. Raises ValueError for a level
    that is not a number."""
    out = {_LIGHT_DATA.get(k, k): v for k, v in data.items()}
    if "brightness_pct" in out:
        level, _ = _level(out["brightness_pct"], "brightness_pct")
        out["brightness_pct"] = round(level * 100) if isinstance(level, float) and 0 < level < 1 else level
    if "brightness" in out:
        level, percent = _level(out["brightness"], "brightness")
        if percent or level <= 100:  # small models say 30 and mean percent
            out.pop("brightness")
            out.setdefault("brightness_pct", level)
        else:
            out["brightness"] = level
    for key in ("brightness_pct", "brightness"):
        if key in out and not 0 <= out[key] <= (100 if key == "brightness_pct" else 255):
            raise ValueError(f"{key} goes from 0 to {100 if key == 'brightness_pct' else 255}, not {out[key]}.")
    if isinstance(out.get("color_name"), (list, tuple)):
        out["rgb_color"] = list(out.pop("color_name"))
    return out


def service_data(domain: str, service: str, data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The service and data that set ``data`` on an entity of ``domain`` when ``service`` is turn_on:
    ``("light", "turn_on", {"brightness": 30})`` -> ``("turn_on", {"brightness_pct": 30})``, ``("climate",
    "turn_on", {"temperature": 21})`` -> ``("set_temperature", {"temperature": 21})``. Other calls pass as they
    are. Raises ValueError for a value that is not a number where one is needed."""
    if service != "turn_on" or not data:
        return service, data
    if domain == "light":
        return "turn_on", light_data(data)
    if len(data) == 1:
        ((key, value),) = data.items()
        mapped = _DATA_SERVICE.get((domain, key))
        if mapped is not None:
            new_service, new_key, scale = mapped
            if scale != 1:
                if not isinstance(value, (int, float)):
                    raise ValueError(f"{key} must be a number.")
                value = round(value * scale, 2) if value > 1 else value
            return new_service, {new_key: value}
    return service, data
