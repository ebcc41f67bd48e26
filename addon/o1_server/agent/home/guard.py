"""Guarded actions: what the house is at stake for (unlocking, opening garage doors, gates and doors, disarming an
alarm, and what a profile adds) runs only after the user said yes by voice, whatever the profile allows.

The broker holds every guarded call it is asked for (``Guard.check``): nothing reaches Home Assistant, the call
is kept as ``Held`` (one line of code that makes exactly that call, and the words that name it) and the code
hears ``HomeError("confirm")``. After the block, the gate turns what was held into the conversation's
confirmation question ("I'm about to unlock Front Door. Shall I?"); a plain yes from the same channel runs the
held line, and ``Guard.grant`` lets exactly its calls through, once. docs/home.md, "Guarded actions".
"""

from __future__ import annotations

import ast
import json
import threading
from dataclasses import dataclass
from typing import Any

from .. import i18n
from .context import Entity
from .targets import device_class
from .wire import HomeError

# Covers whose opening lets someone in (HA's cover device classes).
GUARDED_COVERS = frozenset({"garage", "gate", "door"})
# (domain, service) pairs that are guarded on every entity, and the words that name them.
GUARDED_SERVICES: dict[tuple[str, str], str] = {
    ("lock", "unlock"): "home.unlock",
    ("lock", "open"): "home.unlock",
    ("alarm_control_panel", "alarm_disarm"): "home.disarm",
}
# Services that open a cover (guarded for GUARDED_COVERS).
OPENING = frozenset({"open_cover", "set_cover_position", "toggle", "open_cover_tilt", "set_cover_tilt_position"})
# HA intent tools that can unlock or open what they target.
GUARDED_TOOLS = frozenset({"HassTurnOn", "HassTurnOff", "HassToggle", "HassSetPosition"})


def guarded_kind(entity: Entity) -> bool:
    """Whether some action on ``entity`` is guarded whatever the profile says (a lock, an alarm panel, a cover
    of a guarded device class)."""
    return entity.domain in ("lock", "alarm_control_panel") or (
        entity.domain == "cover" and device_class(entity) in GUARDED_COVERS
    )


@dataclass(frozen=True)
class Held:
    """A call the broker held: ``key`` (what a grant must match), ``code`` (one line making exactly the call)
    and ``words`` (what it does, said: "unlock Front Door")."""

    key: str
    code: str
    words: str


def service_key(domain: str, service: str, entity_ids: list[str], data: dict[str, Any]) -> str:
    """The key of one service call: the same call always has the same key."""
    return json.dumps(["service", domain, service, sorted(entity_ids), data], sort_keys=True, default=str)


def tool_key(name: str, args: dict[str, Any]) -> str:
    """The key of one tool call."""
    return json.dumps(["tool", name, args], sort_keys=True, default=str)


class Guard:
    """The guarded calls of one turn: ``extra`` (the profile's own list: ``domain.service`` or entity ids)."""

    def __init__(self, extra: tuple[str, ...] = ()) -> None:
        self.extra = frozenset(extra)
        self._grants: list[str] = []
        self._held: list[Held] = []
        self._lock = threading.Lock()

    def words_for(self, domain: str, service: str, entities: list[Entity]) -> str | None:
        """What a service call would do, said ("unlock Front Door"), when it is guarded; None when it is not."""
        names = " and ".join(e.name for e in entities)
        key = GUARDED_SERVICES.get((domain, service))
        if key is not None:
            return i18n.t(i18n.current(), key, name=names)
        covers = [e for e in entities if e.domain == "cover" and device_class(e) in GUARDED_COVERS]
        if domain in ("cover", "homeassistant") and service in OPENING and covers:
            return i18n.t(i18n.current(), "home.open", name=" and ".join(e.name for e in covers))
        if domain == "homeassistant" and service == "toggle" and any(guarded_kind(e) for e in entities):
            return i18n.t(i18n.current(), "home.act", service="toggle", name=names)
        listed = f"{domain}.{service}" in self.extra or any(e.entity_id in self.extra for e in entities)
        if listed:
            return i18n.t(i18n.current(), "home.act", service=service.replace("_", " "), name=names)
        return None

    def check(self, key: str, code: str, words: str | None) -> None:
        """Let a call through (not guarded, or granted: the grant is used up) or hold it and raise
        HomeError("confirm") with a sentence naming it."""
        if words is None:
            return
        with self._lock:
            if key in self._grants:
                self._grants.remove(key)
                return
            if all(h.key != key for h in self._held):
                self._held.append(Held(key, code, words))
        raise HomeError("confirm", i18n.t(i18n.current(), "home.needs_yes", words=words))

    def take_held(self) -> list[Held]:
        """The calls held since the last take (the gate makes them the confirmation question)."""
        with self._lock:
            held, self._held = self._held, []
        return held

    def grant(self, keys: list[str]) -> None:
        """Let the calls with these keys through, once each (the user said yes to them)."""
        with self._lock:
            self._grants += keys


def held_code(held: list[Held]) -> str:
    """The block that makes exactly the held calls, one line each."""
    return "\n".join(h.code for h in held)


def held_words(held: list[Held]) -> str:
    """The confirmation's summary: "I'm about to unlock Front Door and open Garage Door"."""
    said = i18n.t(i18n.current(), "home.and").join(h.words for h in held)
    return i18n.t(i18n.current(), "home.about", actions=said)


def call_line(op: str, /, *args: Any, entity_id: list[str] | None = None, data: dict[str, Any] | None = None) -> str:
    """One line of code calling ``o1_ha.<op>`` with literal arguments (``entity_id=``, then the data as
    ``**{...}``: any key name), printing its result."""
    parts = [repr(a) for a in args] + ([f"entity_id={entity_id!r}"] if entity_id is not None else [])
    parts += [f"**{data!r}"] if data else []
    return f"print(o1_ha.{op}({', '.join(parts)}))"


def granted_keys(code: str) -> list[str]:
    """The keys of the calls a confirmed block makes, when it is exactly the kind of block ``held_code`` writes
    (``print(o1_ha.call_service(...))`` or ``print(o1_ha.tool(...))`` lines with literal arguments); otherwise
    none: a block the user confirmed for another reason never unlocks anything on its own."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return []
    keys = []
    for node in tree.body:
        call = node.value if isinstance(node, ast.Expr) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print"):
            return []
        inner = call.args[0] if len(call.args) == 1 and not call.keywords else None
        if not (
            isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Attribute)
            and isinstance(inner.func.value, ast.Name)
            and inner.func.value.id == "o1_ha"
        ):
            return []
        try:
            args = [ast.literal_eval(a) for a in inner.args]
            kwargs: dict[str, Any] = {}
            for k in inner.keywords:
                value = ast.literal_eval(k.value)
                if k.arg is None and not isinstance(value, dict):
                    return []
                kwargs.update(value if k.arg is None else {k.arg: value})
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            return []
        key = _key_of(inner.func.attr, args, kwargs)
        if key is None:
            return []
        keys.append(key)
    return keys


def _key_of(op: str, args: list[Any], kwargs: dict[str, Any]) -> str | None:
    if op == "call_service" and len(args) == 2 and isinstance(kwargs.get("entity_id"), list):
        entity_ids = kwargs.pop("entity_id")
        return service_key(str(args[0]), str(args[1]), [str(e) for e in entity_ids], kwargs)
    if op == "tool" and len(args) == 2 and isinstance(args[1], dict) and not kwargs:
        return tool_key(str(args[0]), args[1])
    return None
