"""What Home Assistant told about a turn: the exposed entities (``Entity``) and the rest (``HomeContext``).

Also the two texts made of it: ``prompt_for`` (what the LLM is told about the home) and ``state_sentence`` (one
entity's state, said). Parsing only: finding an entity by a spoken name is ``lookup.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..helpers import o1_ha  # standard library only: the sentences the box prints

MAX_ENTITIES = 2000  # entities accepted in a turn's context
PROMPT_ENTITIES = 40  # entities listed in the LLM prompt (the rest are still reachable by find)
MAX_LOCAL_TURNS = 20  # turns HA answered itself accepted in a turn's context
_TEXT_FIELDS = ("device_id", "area", "extra_system_prompt", "language")
_LIST_FIELDS = ("llm_apis", "tools", "read_only_tools")


@dataclass(frozen=True)
class Entity:
    """One exposed entity: ``names`` (friendly name first, then aliases), ``areas`` and ``floors`` (names and
    aliases of its area and of that area's floor)."""

    entity_id: str
    domain: str
    names: tuple[str, ...]
    areas: tuple[str, ...] = ()
    state: str | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    floors: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The entity's display name."""
        return self.names[0] if self.names else self.entity_id

    def as_dict(self) -> dict[str, Any]:
        """JSON shape given to generated code."""
        return {
            "entity_id": self.entity_id,
            "name": self.name,
            "domain": self.domain,
            "aliases": list(self.names[1:]),
            "areas": list(self.areas),
            "floors": list(self.floors),
            "device_class": self.attributes.get("device_class"),
            "state": self.state,
        }


@dataclass(frozen=True)
class HomeContext:
    """What Home Assistant told about this turn: exposed entities, the satellite's device and area, the
    user's ``extra_system_prompt``, the selected LLM APIs and their tools (names), and the language."""

    entities: tuple[Entity, ...] = ()
    device_id: str | None = None
    area: str | None = None
    extra_system_prompt: str | None = None
    llm_apis: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    language: str | None = None
    read_only_tools: tuple[str, ...] = ()
    local_turns: tuple[tuple[str, str], ...] = ()  # (user, answer) turns HA answered itself, oldest first

    def tool_named(self, name: str) -> str | None:
        """The full name of an HA tool: ``name`` itself, or a namespaced ``<integration>__<name>`` (HA names
        merged and newer tools that way: ``intent__HassTurnOn``); None when HA offered no such tool."""
        if name in self.tools:
            return name
        return next((t for t in self.tools if t.endswith(f"__{name}")), None)

    @classmethod
    def from_json(cls, data: Any) -> HomeContext:
        """Parse the ``home`` object of a turn request. Raises ValueError naming the bad field.

        Shape: ``{"entities": [{"entity_id", "name", "aliases": [...], "areas": [...], "floors"?: [...],
        "domain"?, "state"?, "attributes"?}], "device_id"?, "area"?, "extra_system_prompt"?, "llm_apis": [...],
        "tools": [...],
        "read_only_tools": [...] (tools HA annotates ``read_only``), "language"?, "local_turns": [{"user",
        "answer"}] (turns of this conversation HA answered itself, "prefer handling commands locally")}``.
        """
        if not isinstance(data, dict):
            raise ValueError("'home' must be an object")
        entities = _parse_entities(data.get("entities") or [])
        text = _parse_texts(data)
        lists = _parse_lists(data)
        turns = _parse_local_turns(data.get("local_turns") or [])
        return cls(
            entities,
            text["device_id"],
            text["area"],
            text["extra_system_prompt"],
            tuple(lists["llm_apis"]),
            tuple(lists["tools"]),
            text["language"],
            tuple(t for t in lists["read_only_tools"] if t in lists["tools"]),
            turns,
        )


def _parse_entities(raw: Any) -> tuple[Entity, ...]:
    if not isinstance(raw, list) or len(raw) > MAX_ENTITIES:
        raise ValueError(f"'home.entities' must be a list of at most {MAX_ENTITIES} entities")
    return tuple(_parse_entity(item) for item in raw)


def _parse_entity(item: Any) -> Entity:
    if not isinstance(item, dict) or not is_entity_id(item.get("entity_id")):
        raise ValueError("each of 'home.entities' needs a valid 'entity_id'")
    names = [item.get("name"), *(item.get("aliases") or [])]
    areas = item.get("areas") or []
    floors = item.get("floors") or []
    if (
        not all(isinstance(n, str) for n in names if n is not None)
        or not isinstance(areas, list)
        or not all(isinstance(a, str) for a in areas)
        or not isinstance(floors, list)
        or not all(isinstance(f, str) for f in floors)
    ):
        raise ValueError(f"'home.entities' {item['entity_id']}: names and areas must be strings")
    attributes = item.get("attributes")
    if not isinstance(attributes, dict):
        attributes = {}
    return Entity(
        item["entity_id"],
        item["entity_id"].split(".", 1)[0],
        tuple(n for n in names if n),
        tuple(areas),
        None if item.get("state") is None else str(item["state"]),
        attributes,
        tuple(floors),
    )


def _parse_texts(data: dict[str, Any]) -> dict[str, Any]:
    text = {k: data.get(k) for k in _TEXT_FIELDS}
    for key, value in text.items():
        if value is not None and not isinstance(value, str):
            raise ValueError(f"'home.{key}' must be a string")
    return text


def _parse_lists(data: dict[str, Any]) -> dict[str, Any]:
    lists = {k: data.get(k) or [] for k in _LIST_FIELDS}
    for key, value in lists.items():
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ValueError(f"'home.{key}' must be a list of strings")
    return lists


def _parse_local_turns(turns: Any) -> tuple[tuple[str, str], ...]:
    if (
        not isinstance(turns, list)
        or len(turns) > MAX_LOCAL_TURNS
        or not all(
            isinstance(t, dict) and isinstance(t.get("user"), str) and isinstance(t.get("answer"), str) for t in turns
        )
    ):
        raise ValueError(
            f'\'home.local_turns\' must be a list of at most {MAX_LOCAL_TURNS} {{"user", "answer"}} strings'
        )
    return tuple((t["user"][:1000], t["answer"][:1000]) for t in turns)


def is_entity_id(value: Any) -> bool:
    """Whether ``value`` is an entity id as HA writes them (``light.kitchen``)."""
    return isinstance(value, str) and re.fullmatch(r"[a-z0-9_]+\.[a-z0-9_]+", value) is not None


MAX_DATA_DEPTH = 32
"""Deepest nesting of lists and dicts accepted in service data (the wire itself accepts 64)."""


class TooDeep(ValueError):
    """Service data nested deeper than :data:`MAX_DATA_DEPTH`: it cannot be checked, so it is refused."""


def is_slug(value: Any) -> bool:
    """Whether ``value`` is a domain or service name as Home Assistant writes them (``[a-z0-9_]+``)."""
    return isinstance(value, str) and re.fullmatch(r"[a-z0-9_]+", value) is not None


def named_entities(data: Any, depth: int = 0) -> Iterator[str]:
    """Every text in service data (values and keys, at any depth) that Home Assistant could read as an entity
    id: ``cv.entity_id``/``cv.entity_ids`` lower-case it and split comma-separated lists, so "Lock.Front_Door,
    light.x" names two (``media_player.join``'s ``group_members``, ``tts.speak``'s ``media_player_entity_id``,
    ``scene.apply``'s ``entities``, a script's variables...). Raises TooDeep past :data:`MAX_DATA_DEPTH`
    levels: what is not looked at is not let through."""
    if depth > MAX_DATA_DEPTH:
        raise TooDeep(f"service data nested deeper than {MAX_DATA_DEPTH} levels")
    if isinstance(data, str):
        for part in data.split(","):
            part = part.strip().lower()
            if re.fullmatch(r"[a-z_][a-z0-9_]*\.[a-z0-9_]+", part):
                yield part
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from named_entities(key, depth + 1)
            yield from named_entities(value, depth + 1)
    elif isinstance(data, (list, tuple)):
        for value in data:
            yield from named_entities(value, depth + 1)


def state_sentence(state: dict[str, Any]) -> str:
    """One entity's state as the broker reports it, said: "Kitchen Light is off.", "Outside Temperature is
    12.5 °C.", "Thermostat is heat, set to 21 degrees." (the sentence ``o1_ha.State`` prints inside the box)."""
    return str(o1_ha.State(state))
