"""The Home Assistant broker: the only way generated code reaches Home Assistant.

No Home Assistant URL or token ever enters the code's environment or its box. Instead, for each turn whose
profile has Home Assistant access, the server opens a *capability*: a unix socket at
``<data_dir>/run/<32 random hex>/ha.sock`` (``run`` is 0711 so it cannot be listed; the hex folder is 0700
and belongs to the code's user). Its path reaches the code as ``O1_HA_SOCKET`` (and the executor binds it
into the box); the socket is closed and removed when the turn ends, so the capability dies with the turn.

The broker behind the socket enforces, outside the box:
- the profile's ``home_assistant`` access level: ``none`` (no socket at all), ``read`` (states, lookups,
  read-only tools) or ``control`` (also services and intents that act on the home);
- exposure: only the entities exposed to Assist (HA's "Expose" settings, ``async_should_expose``), also
  for entity ids written in a service's data (``group_members``, ``entities``, a script's variables);
- a cap on calls per turn (``MAX_CALLS``; a group such as "all lights" counts one call per device).
Every call (allowed, denied or failed) is written to the audit log (``kind: "home"``) and emitted as a
``{"type": "home", "call": {...}}`` turn event, so the integration can add it to HA's chat log.

Wire protocol on the socket (JSON Lines, UTF-8, one request per line, any number per connection, a line at
most ``MAX_LINE`` bytes): request ``{"op": NAME, "args": {...}}``; answer ``{"ok": true, "result": ...}`` or
``{"ok": false, "error": CODE, "message": SENTENCE}`` where CODE is ``denied`` (access level or exposure),
``not_found``, ``ambiguous``, ``invalid``, ``unavailable`` (no way to reach HA this turn), ``timeout`` or
``ha_error`` (Home Assistant refused or failed), and SENTENCE is fit to be spoken. Ops and the access they
need: ``entities`` / ``states`` / ``get_state`` / ``find`` (read), ``tool`` (read for the read-only tools in
``READ_TOOLS``, control otherwise), ``turn_on`` / ``turn_off`` / ``toggle`` / ``call_service`` (control).

Home Assistant is reached through a *relay* (``Relay``) that runs named tools:
- ``StreamRelay`` (the o1 integration, HA-native): each call becomes a ``{"type": "tool_call", "turn_id",
  "id", "name", "args"}`` event of the turn's NDJSON stream; the integration runs it with HA's LLM API
  (``homeassistant.helpers.llm``: ``APIInstance.async_call_tool`` - HassTurnOn, HassTurnOff, HassLightSet,
  GetLiveContext...) or its own ``o1.get_states`` / ``o1.call_service`` tools, and posts the result to
  ``POST /api/turns/{turn_id}/tool_results/{id}`` (``{"result": ...}`` or ``{"error", "message"}``).
- ``RestRelay`` (the Wyoming ``handle`` path, no integration): the server's own HA access (``--ha-url`` /
  ``--ha-token-file``; in the add-on the Supervisor token) over HA's REST API
  (https://developers.home-assistant.io/docs/api/rest/), with the exposure list from HA's websocket command
  ``homeassistant/expose_entity/list`` (assistant ``conversation``). If that list cannot be read, nothing is
  treated as exposed (fail closed).
"""

from __future__ import annotations

import contextlib
import difflib
import inspect
import json
import logging
import os
import re
import secrets
import socket
import struct
import threading
import time
import unicodedata
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .sandbox import remove_tree
from .wire import loads

_LOGGER = logging.getLogger(__name__)

MAX_LINE = 64 * 1024  # bytes per request line on the socket
MAX_CALLS = 100  # broker calls per turn
MAX_CONNECTIONS = 8  # open socket connections per turn
MAX_ENTITIES = 2000  # entities accepted in a turn's context
CALL_TIMEOUT = 15.0  # seconds a relayed tool call may take
MAX_NAME = 100  # characters of a name to look up (spoken names are short; fuzzy matching costs grow with it)
PROMPT_ENTITIES = 40  # entities listed in the LLM prompt (the rest are still reachable by find)
ASSISTANT = "conversation"  # HA's assistant id of Assist (exposure settings)

# HA LLM API tools that only read (``homeassistant.helpers.llm`` and core intents), besides those the
# integration reports HA annotates ``read_only`` (``ToolAnnotations``). Every other tool acts on the home.
READ_TOOLS = frozenset({"GetLiveContext", "GetDateTime", "GetCurrentLocation", "HassGetState",
                        "HassGetWeather", "HassGetCurrentDate", "HassGetCurrentTime", "HassTimerStatus",
                        "todo_get_items", "calendar_get_events"})
READ_OPS = frozenset({"entities", "states", "get_state", "find"})
CONTROL_OPS = frozenset({"turn_on", "turn_off", "toggle", "call_service"})
# What turn_on/turn_off/toggle mean per domain when no intent tool is available (RestRelay).
_ON_OFF = {"lock": ("lock", "unlock"), "cover": ("open_cover", "close_cover"), "valve": ("open_valve", "close_valve"),
           "scene": ("turn_on", None), "script": ("turn_on", "turn_off"), "button": ("press", None),
           "input_button": ("press", None)}
_INTENT = {"turn_on": "HassTurnOn", "turn_off": "HassTurnOff", "toggle": "HassToggle"}
# Namespaces of HA core's own tools (``<namespace>__<tool>``; "" = not namespaced, "assist" = a merged API).
_CORE_NAMESPACES = frozenset({"", "assist", "homeassistant", "llm", "intent", "todo", "calendar", "weather"})
# The ``homeassistant`` domain's services that act on the entities named: its others act on Home Assistant
# itself (restart, stop, reload_all, set_location...) whatever entity_id says.
_HA_ENTITY_SERVICES = frozenset({"turn_on", "turn_off", "toggle", "update_entity"})
_TARGET_KEYS = {"entity_id", "area_id", "device_id", "floor_id", "label_id", "target"}


class HomeError(Exception):
    """A broker call failed. ``code`` is one of the protocol's error codes, ``message`` a spoken sentence."""

    def __init__(self, code: str, message: str, partial: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.partial = partial or []  # states of the entities a group call changed before it failed


# ------------------------------------------------------------------------------------------------ context
@dataclass(frozen=True)
class Entity:
    """One exposed entity: ``names`` (friendly name first, then aliases), ``areas`` (names and aliases)."""

    entity_id: str
    domain: str
    names: tuple[str, ...]
    areas: tuple[str, ...] = ()
    state: str | None = None
    attributes: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The entity's display name."""
        return self.names[0] if self.names else self.entity_id

    def as_dict(self) -> dict[str, Any]:
        """JSON shape given to generated code."""
        return {"entity_id": self.entity_id, "name": self.name, "domain": self.domain,
                "aliases": list(self.names[1:]), "areas": list(self.areas), "state": self.state}


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
    def from_json(cls, data: Any) -> "HomeContext":
        """Parse the ``home`` object of a turn request. Raises ValueError naming the bad field.

        Shape: ``{"entities": [{"entity_id", "name", "aliases": [...], "areas": [...], "domain"?, "state"?,
        "attributes"?}], "device_id"?, "area"?, "extra_system_prompt"?, "llm_apis": [...], "tools": [...],
        "read_only_tools": [...] (tools HA annotates ``read_only``), "language"?, "local_turns": [{"user",
        "answer"}] (turns of this conversation HA answered itself, "prefer handling commands locally")}``.
        """
        if not isinstance(data, dict):
            raise ValueError("'home' must be an object")
        raw = data.get("entities") or []
        if not isinstance(raw, list) or len(raw) > MAX_ENTITIES:
            raise ValueError(f"'home.entities' must be a list of at most {MAX_ENTITIES} entities")
        entities = []
        for item in raw:
            if not isinstance(item, dict) or not _is_entity_id(item.get("entity_id")):
                raise ValueError("each of 'home.entities' needs a valid 'entity_id'")
            names = [item.get("name"), *(item.get("aliases") or [])]
            areas = item.get("areas") or []
            if not all(isinstance(n, str) for n in names if n is not None) or not isinstance(areas, list) \
                    or not all(isinstance(a, str) for a in areas):
                raise ValueError(f"'home.entities' {item['entity_id']}: names and areas must be strings")
            attributes = item.get("attributes") if isinstance(item.get("attributes"), dict) else {}
            entities.append(Entity(item["entity_id"], item["entity_id"].split(".", 1)[0],
                                   tuple(n for n in names if n), tuple(areas),
                                   None if item.get("state") is None else str(item["state"]), attributes))
        text = {k: data.get(k) for k in ("device_id", "area", "extra_system_prompt", "language")}
        for key, value in text.items():
            if value is not None and not isinstance(value, str):
                raise ValueError(f"'home.{key}' must be a string")
        lists = {k: data.get(k) or [] for k in ("llm_apis", "tools", "read_only_tools")}
        for key, value in lists.items():
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ValueError(f"'home.{key}' must be a list of strings")
        turns = data.get("local_turns") or []
        if not isinstance(turns, list) or len(turns) > 20 or not all(
                isinstance(t, dict) and isinstance(t.get("user"), str) and isinstance(t.get("answer"), str)
                for t in turns):
            raise ValueError("'home.local_turns' must be a list of at most 20 {\"user\", \"answer\"} strings")
        return cls(tuple(entities), text["device_id"], text["area"], text["extra_system_prompt"],
                   tuple(lists["llm_apis"]), tuple(lists["tools"]), text["language"],
                   tuple(t for t in lists["read_only_tools"] if t in lists["tools"]),
                   tuple((t["user"][:1000], t["answer"][:1000]) for t in turns))


def _is_entity_id(value: Any) -> bool:
    return isinstance(value, str) and re.fullmatch(r"[a-z0-9_]+\.[a-z0-9_]+", value) is not None


def _named_entities(data: Any, depth: int = 0) -> Iterator[str]:
    """Every text in service data (values and keys, at any depth) that Home Assistant could read as an entity
    id: ``cv.entity_id``/``cv.entity_ids`` lower-case it and split comma-separated lists, so "Lock.Front_Door,
    light.x" names two (``media_player.join``'s ``group_members``, ``tts.speak``'s ``media_player_entity_id``,
    ``scene.apply``'s ``entities``, a script's variables...)."""
    if depth > 32:
        return
    if isinstance(data, str):
        for part in data.split(","):
            part = part.strip().lower()
            if re.fullmatch(r"[a-z_][a-z0-9_]*\.[a-z0-9_]+", part):
                yield part
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _named_entities(key, depth + 1)
            yield from _named_entities(value, depth + 1)
    elif isinstance(data, (list, tuple)):
        for value in data:
            yield from _named_entities(value, depth + 1)


def state_sentence(state: dict[str, Any]) -> str:
    """One entity's state as the broker reports it, said: "Kitchen Light is off.", "Outside Temperature is
    12.5 °C." (the sentence ``o1_ha.State`` prints inside the box, which cannot import this module)."""
    unit = (state.get("attributes") or {}).get("unit_of_measurement")
    value = f"{state.get('state')}{' ' + unit if isinstance(unit, str) and unit else ''}"
    return f"{state.get('name') or state.get('entity_id')} is {value}."


def prompt_for(context: HomeContext, access: str) -> str:
    """The short text given to the LLM about the home: how to use ``o1_ha`` and the exposed devices."""
    verbs = ("o1_ha.turn_on(name), o1_ha.turn_off(name), o1_ha.get_state(name), "
             "o1_ha.call_service(domain, service, entity_id=...)" if access == "control"
             else "o1_ha.get_state(name), o1_ha.states(domain) (you may only read the home, not change it)")
    lines = [f"Home Assistant: use the o1_ha module (already imported): {verbs}. "
             "Names may be spoken names like 'kitchen light'. Print what o1_ha returns: it is what Home "
             "Assistant reports."]
    listed = []
    for entity in context.entities[:PROMPT_ENTITIES]:
        where = f", {entity.areas[0]}" if entity.areas else ""
        state = f", {entity.state}" if entity.state is not None else ""
        listed.append(f"{entity.name} ({entity.domain}{where}{state})")
    if listed:
        more = len(context.entities) - len(listed)
        lines.append("Devices: " + "; ".join(listed) + (f"; and {more} more" if more > 0 else "") + ".")
    else:
        lines.append("No devices are exposed to you.")
    if context.area:
        lines.append(f"The user is in the {context.area}.")
    if context.extra_system_prompt:
        lines.append(context.extra_system_prompt.strip()[:1000])
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------ lookup
def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    words = re.findall(r"[a-z0-9]+", text.replace("_", " "))
    return " ".join(w for w in words if w not in ("the", "a", "an", "my", "our", "please"))


def find_entities(entities: tuple[Entity, ...] | list[Entity], phrase: str, domain: str | None = None,
                  area: str | None = None) -> list[Entity]:
    """Entities matching a spoken phrase ("kitchen light", "front door", an entity id), best first.

    Exact entity id, then exact name/alias, then "<area> <name or domain>", then close spellings
    (difflib ratio >= 0.8). Returns every entity tied for the best kind of match (so several means the
    phrase is ambiguous); an empty list when nothing matches, or for a phrase longer than ``MAX_NAME``.
    """
    if len(phrase) > MAX_NAME:
        return []
    pool = [e for e in entities if domain is None or e.domain == domain]
    if area:
        in_area = [e for e in pool if _norm(area) in {_norm(a) for a in e.areas}]
        pool = in_area or pool
    wanted = _norm(phrase)
    if not wanted:
        return []
    exact_id = [e for e in pool if e.entity_id == phrase.strip().lower()]
    if exact_id:
        return exact_id
    by_name = [e for e in pool if wanted in {_norm(n) for n in e.names}]
    if by_name:
        return by_name
    combos = []
    for e in pool:
        for a in e.areas:
            na = _norm(a)
            if na and (wanted.startswith(na + " ") or wanted.endswith(" " + na)):
                rest = wanted.removeprefix(na + " ") if wanted.startswith(na + " ") else wanted.removesuffix(" " + na)
                rest = " ".join(w for w in rest.split() if w not in ("in", "on", "of", "at"))
                if rest in {_norm(n) for n in e.names} or rest in (e.domain, e.domain.replace("_", " ") + "s") \
                        or rest.rstrip("s") == e.domain or any(rest in _norm(n).split() for n in e.names):
                    combos.append(e)
                    break
    if combos:
        return combos
    words = [e for e in pool if any(set(wanted.split()) <= set(_norm(n).split()) for n in e.names)]
    if words:
        return words
    scored = []
    for e in pool:
        keys = [_norm(n) for n in e.names] + [f"{_norm(a)} {_norm(n)}" for a in e.areas for n in e.names]
        scored.append((max(_close(wanted, k) for k in keys), e))
    best = max((s for s, _ in scored), default=0.0)
    if best < 0.8:
        return []
    return [e for s, e in scored if s >= best - 0.02]


def _close(wanted: str, key: str) -> float:
    """difflib's ratio of two names, 0.0 when its cheap upper bounds show it is below 0.78 (never kept: the
    best must reach 0.8 and ties are within 0.02). Generated code picks the names; with 2000 entities the full
    ratio of every key took seconds per lookup and held the GIL."""
    matcher = difflib.SequenceMatcher(None, wanted, key)
    if matcher.real_quick_ratio() < 0.78 or matcher.quick_ratio() < 0.78:
        return 0.0
    return matcher.ratio()


# ------------------------------------------------------------------------------------------------ relays
class Relay(Protocol):
    """Runs one named Home Assistant tool (see the module docstring) and returns its JSON result."""

    intents: bool  # whether HA's intent tools (HassTurnOn...) are available

    def call(self, name: str, args: dict[str, Any]) -> Any:
        """Run ``name`` with ``args``. Raises HomeError (timeout, ha_error, unavailable)."""
        ...


class StreamRelay:
    """Relays tool calls to the o1 integration over the turn's NDJSON stream and waits for its answers.

    ``emit`` sends an event to the stream (thread-safe); ``deliver`` is called by the HTTP API when the
    integration posts a result. ``turn_id`` is random and unguessable.
    """

    def __init__(self, emit: Callable[[dict[str, Any]], None], tools: tuple[str, ...] = (),
                 timeout: float = CALL_TIMEOUT) -> None:
        self.turn_id = secrets.token_hex(16)
        self.intents = any(t == "HassTurnOn" or t.endswith("__HassTurnOn") for t in tools)
        self._emit = emit
        self._timeout = timeout
        self._pending: dict[str, Future] = {}
        self._lock = threading.Lock()
        self._closed = False

    def call(self, name: str, args: dict[str, Any]) -> Any:
        """Emit a tool_call event and wait up to the timeout for the integration's answer."""
        call_id = secrets.token_hex(8)
        future: Future = Future()
        with self._lock:
            if self._closed:
                raise HomeError("unavailable", "The turn is over, so I can't reach Home Assistant any more.")
            self._pending[call_id] = future
        try:
            self._emit({"type": "tool_call", "turn_id": self.turn_id, "id": call_id, "name": name, "args": args})
            try:
                payload = future.result(self._timeout)
            except FutureTimeout:
                raise HomeError("timeout", "Home Assistant did not answer in time.") from None
        finally:
            with self._lock:
                self._pending.pop(call_id, None)
        if not isinstance(payload, dict):
            raise HomeError("ha_error", "Home Assistant sent an answer I can't read.")
        if payload.get("error"):
            message = payload.get("message") if isinstance(payload.get("message"), str) else ""
            raise HomeError("ha_error", message or f"Home Assistant could not do that ({payload['error']}).")
        return payload.get("result")

    def deliver(self, call_id: str, payload: Any) -> bool:
        """Hand the integration's answer to the waiting call. Returns False for an unknown or finished call."""
        with self._lock:
            future = self._pending.get(call_id)
        if future is None or future.done():
            return False
        future.set_result(payload)
        return True

    def close(self) -> None:
        """End the relay: waiting calls fail at once, later ones are refused."""
        with self._lock:
            self._closed = True
            pending = list(self._pending.values())
        for future in pending:
            if not future.done():
                future.set_result({"error": "turn_ended", "message": "The turn ended before Home Assistant answered."})


class RestRelay:
    """Home Assistant reached directly with the server's own URL and token (REST + one websocket command).

    Offers the ``o1.get_states`` and ``o1.call_service`` tools (no intents) and ``context()``: the exposed
    entities, from ``GET /api/states`` filtered by ``homeassistant/expose_entity/list``.
    """

    intents = False

    def __init__(self, url: str, token: str, timeout: float = CALL_TIMEOUT) -> None:
        self._url = url.rstrip("/")
        self._token = token
        self._timeout = timeout

    def _rest(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self._url}/api/{path}", data=data, method=method, headers={
            "Authorization": f"Bearer {self._token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self._timeout) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            raise HomeError("ha_error", f"Home Assistant answered {err.code} to that.") from None
        except (urllib.error.URLError, TimeoutError, OSError, ValueError) as err:
            raise HomeError("unavailable", "I can't reach Home Assistant right now.") from err

    def exposed(self) -> set[str]:
        """Entity ids exposed to Assist, from HA's websocket (needs an admin token). Raises HomeError."""
        import asyncio

        import aiohttp

        async def fetch() -> dict[str, Any]:
            ws_url = self._url.replace("http", "ws", 1) + "/api/websocket"
            timeout = aiohttp.ClientTimeout(total=self._timeout)
            async with aiohttp.ClientSession(timeout=timeout) as client, client.ws_connect(ws_url) as ws:
                await ws.receive_json(timeout=self._timeout)  # auth_required
                await ws.send_json({"type": "auth", "access_token": self._token})
                if (await ws.receive_json(timeout=self._timeout)).get("type") != "auth_ok":
                    raise HomeError("unavailable", "Home Assistant refused the server's token.")
                await ws.send_json({"id": 1, "type": "homeassistant/expose_entity/list"})
                return await ws.receive_json(timeout=self._timeout)

        try:
            answer = asyncio.run(fetch())
        except HomeError:
            raise
        except Exception as err:  # aiohttp/asyncio errors of many kinds: one clear failure
            raise HomeError("unavailable", "I can't read which devices are exposed to me.") from err
        if not answer.get("success"):
            raise HomeError("unavailable", "I can't read which devices are exposed to me.")
        settings = (answer.get("result") or {}).get("exposed_entities") or {}
        return {eid for eid, s in settings.items() if isinstance(s, dict) and s.get(ASSISTANT)}

    def context(self) -> HomeContext:
        """The exposed entities with their friendly names and states (no areas on this path)."""
        exposed = self.exposed()
        entities = []
        for state in self._rest("GET", "states") or []:
            eid = state.get("entity_id")
            if eid in exposed and _is_entity_id(eid):
                name = (state.get("attributes") or {}).get("friendly_name") or eid
                entities.append(Entity(eid, eid.split(".", 1)[0], (str(name),), (), str(state.get("state")),
                                       dict(state.get("attributes") or {})))
        return HomeContext(tuple(entities))

    def call(self, name: str, args: dict[str, Any]) -> Any:
        """``o1.get_states`` {"entity_ids"} and ``o1.call_service`` {"domain", "service", "entity_id", "data"}."""
        if name == "o1.get_states":
            wanted = set(args["entity_ids"])
            return {"states": [s for s in self._rest("GET", "states") or [] if s.get("entity_id") in wanted]}
        if name == "o1.call_service":
            body = {**args.get("data", {}), "entity_id": args["entity_id"]}
            self._rest("POST", f"services/{args['domain']}/{args['service']}", body)
            return self.call("o1.get_states", {"entity_ids": args["entity_id"]})
        raise HomeError("invalid", f"Home Assistant's {name} tool is only available through the o1 integration.")


# ------------------------------------------------------------------------------------------------ broker
Record = Callable[[dict[str, Any]], None]
Emit = Callable[[dict[str, Any]], None]


class HomeBroker:
    """Enforces access and exposure for one turn and relays allowed calls (usable without a socket too:
    ``handle(op, args)`` is what the socket server calls, so a benchmark can drive it directly).

    ``record(entry)`` writes an audit record, ``emit(event)`` sends a turn event; both may be None.
    """

    def __init__(self, access: str, context: HomeContext, relay: Relay | None, record: Record | None = None,
                 emit: Emit | None = None, max_calls: int = MAX_CALLS) -> None:
        self.access = access
        self.context = context
        self.relay = relay
        self._record = record
        self._emit = emit
        self._calls = 0
        self._max_calls = max_calls
        self._lock = threading.Lock()
        # entity id -> its sentence after each successful control call of this turn, latest last
        self._changed: dict[str, str] = {}
        self._tool_done: list[str] = []  # entity ids controlling LLM API tools reported done (states read later)

    # -------------------------------------------------------------- dispatch
    def handle(self, op: Any, args: Any) -> Any:
        """Run one request and return its JSON result. Raises HomeError; audits and emits either way."""
        started = time.monotonic()
        entry: dict[str, Any] = {"op": op if isinstance(op, str) else repr(op)[:100],
                                 "args": args if isinstance(args, dict) else {}, "access": self.access}
        try:
            result = self._handle(op, args)
        except HomeError as err:
            entry.update(outcome="denied" if err.code == "denied" else "error", error=err.code, message=err.message)
            if err.partial:  # a group call that changed some entities before it failed: they count as changed
                entry["result"] = err.partial
            self._log(entry, started)
            if err.partial:
                self._note_changes(err.partial)
            raise
        except Exception as err:  # a relay's bug must not kill the socket thread; the code hears a failure
            _LOGGER.exception("Home broker call %s failed", entry["op"])
            entry.update(outcome="error", error="ha_error", message="Something went wrong talking to Home Assistant.")
            self._log(entry, started)
            raise HomeError("ha_error", entry["message"]) from err
        entry.update(outcome="ok", result=result)
        self._log(entry, started)
        if op in CONTROL_OPS:
            self._note_changes(result)
        elif op == "tool" and self._access_needed(op, args) == "control":
            self._note_tool(result)
        return result

    def _note_tool(self, result: Any) -> None:
        """After a controlling LLM API tool (HassTurnOff...): remember the exposed entities HA's intent response
        names as done (``data.success[].id``); ``describe_changes`` reads their states if it is ever asked.
        A response of another shape notes nothing."""
        try:
            done = {t.get("id") for t in result["data"]["success"] if isinstance(t, dict)}
        except (KeyError, TypeError, AttributeError):
            return
        with self._lock:
            self._tool_done += [e.entity_id for e in self.context.entities if e.entity_id in done]

    def _note_changes(self, result: Any) -> None:
        """Remember the states a control call reported (for ``describe_changes``)."""
        for state in result if isinstance(result, list) else [result]:
            if isinstance(state, dict) and isinstance(state.get("entity_id"), str) and "state" in state:
                with self._lock:
                    self._changed.pop(state["entity_id"], None)  # re-insert: the latest call comes last
                    self._changed[state["entity_id"]] = state_sentence(state)

    def describe_changes(self, limit: int = 3) -> str | None:
        """What this turn's control calls left in Home Assistant, as sentences from HA's reported states
        ("Kitchen Light is off."), the last ``limit`` entities; None when nothing was controlled. Spoken when the
        code printed nothing, so the answer says what Home Assistant did, never what the model claims.
        The entities of controlling tool calls have their states read here, once (best effort)."""
        with self._lock:
            pending, self._tool_done = self._tool_done, []
        wanted = [e for e in self.context.entities if e.entity_id in set(pending)]
        if wanted:
            try:
                self._note_changes(self._states(wanted))
            except Exception:  # noqa: BLE001  the summary is a courtesy; the tool calls' own results stand
                _LOGGER.debug("Could not read the states after a tool call", exc_info=True)
        with self._lock:
            said = list(self._changed.values())
        if not said:
            return None
        return " ".join(([f"I changed {len(said)} devices."] if len(said) > limit else []) + said[-limit:])

    def _log(self, entry: dict[str, Any], started: float) -> None:
        entry["seconds"] = round(time.monotonic() - started, 3)
        text = json.dumps(entry, default=str)
        if len(text) > 4000 and "result" in entry:  # keep audit lines bounded
            entry["result"] = json.dumps(entry["result"], default=str)[:2000] + "..."
        if self._record is not None:
            try:
                self._record(entry)
            except Exception:  # auditing failures are logged; the call already happened or was refused
                _LOGGER.exception("Could not audit a Home Assistant call")
        if self._emit is not None:
            self._emit({"type": "home", "call": entry})

    def _handle(self, op: Any, args: Any) -> Any:
        if not isinstance(op, str) or not isinstance(args, dict):
            raise HomeError("invalid", "A request needs an 'op' name and an 'args' object.")
        need = self._access_needed(op, args)
        allowed = {"none": (), "read": ("read",), "control": ("read", "control")}.get(self.access, ())
        if need not in allowed:
            raise HomeError("denied", f"This profile may {'only read' if self.access == 'read' else 'not use'} "
                                      "Home Assistant, so I can't change anything in the home.")
        with self._lock:
            self._calls += 1
            if self._calls > self._max_calls:
                raise HomeError("denied", f"That is more than {self._max_calls} Home Assistant calls in one turn.")
        method = getattr(self, f"_op_{op}")
        try:
            inspect.signature(method).bind(**args)
        except TypeError:
            raise HomeError("invalid", f"o1_ha.{op} got arguments it does not take: {', '.join(args) or 'none'}.") from None
        return method(**args)

    def _access_needed(self, op: str, args: dict[str, Any]) -> str:
        if op in READ_OPS:
            return "read"
        if op in CONTROL_OPS:
            return "control"
        if op == "tool":
            name = args.get("name")
            full = self.context.tool_named(name) if isinstance(name, str) else None
            if full is None:
                return "control"  # unknown: refused later anyway, and never counted as a read
            namespace, _, base = full.rpartition("__")
            core_read = base in READ_TOOLS and namespace in _CORE_NAMESPACES
            return "read" if core_read or full in self.context.read_only_tools else "control"
        raise HomeError("invalid", f"o1_ha has no operation called {op!r}.")

    # -------------------------------------------------------------- helpers
    def _relay(self) -> Relay:
        if self.relay is None:
            raise HomeError("unavailable", "I can't reach Home Assistant from this conversation.")
        return self.relay

    def _resolve(self, name: Any, domain: str | None = None) -> Entity:
        if not isinstance(name, str) or not name.strip():
            raise HomeError("invalid", "Tell me which device, by its name.")
        if len(name) > MAX_NAME:
            raise HomeError("invalid", f"A device's name has at most {MAX_NAME} characters.")
        found = find_entities(self.context.entities, name, domain)
        if not found:
            return self._unknown(name)
        if len(found) > 1:
            # The satellite's own area settles it, the way HA's intents prefer the area of the device.
            local = [e for e in found if self.context.area and self.context.area in e.areas]
            if len(local) == 1:
                return local[0]
            names = ", ".join(f"{e.name}{f' in the {e.areas[0]}' if e.areas else ''}" for e in found[:5])
            raise HomeError("ambiguous", f"{name} could be {names}. Which one do you mean?")
        return found[0]

    def _unknown(self, name: str) -> Entity:
        raise HomeError("not_found", f"I can't find {name} among the devices exposed to me.")

    def _exposed(self, entity_id: Any) -> Entity:
        """The exposed entity with this id (or spoken name); denied when it exists but is not exposed."""
        if isinstance(entity_id, str) and _is_entity_id(entity_id):
            for entity in self.context.entities:
                if entity.entity_id == entity_id:
                    return entity
            raise HomeError("denied", f"{entity_id} is not exposed to me, so I can't use it.")
        return self._resolve(entity_id)

    def _states(self, entities: list[Entity]) -> list[dict[str, Any]]:
        """Live states of exposed entities, as HA reports them, with the broker's names."""
        if not entities:
            return []
        answer = self._relay().call("o1.get_states", {"entity_ids": [e.entity_id for e in entities]})
        by_id = {s.get("entity_id"): s for s in (answer or {}).get("states", []) if isinstance(s, dict)}
        out = []
        for entity in entities:
            state = by_id.get(entity.entity_id)
            if state is None:
                raise HomeError("not_found", f"Home Assistant has no state for {entity.name} right now.")
            out.append({"entity_id": entity.entity_id, "name": entity.name, "state": state.get("state"),
                        "attributes": state.get("attributes") or {}, "last_changed": state.get("last_changed")})
        return out

    # -------------------------------------------------------------- read ops
    def _op_entities(self) -> list[dict[str, Any]]:
        return [e.as_dict() for e in self.context.entities]

    def _op_find(self, name: str, domain: str | None = None) -> dict[str, Any]:
        return self._resolve(name, domain).as_dict()

    def _op_get_state(self, name: str) -> dict[str, Any]:
        return self._states([self._exposed(name)])[0]

    def _op_states(self, domain: str | None = None, area: str | None = None) -> list[dict[str, Any]]:
        if domain is not None and not isinstance(domain, str) or area is not None and not isinstance(area, str):
            raise HomeError("invalid", "states takes a domain and an area, as text.")
        if domain is not None and domain not in {e.domain for e in self.context.entities}:
            # Small models pass a device ("kitchen light") or a plural ("lights") as the domain.
            group = self._group(domain, bare=True)
            chosen = group if group is not None else find_entities(self.context.entities, domain, area=area)
        else:
            chosen = [e for e in self.context.entities if domain is None or e.domain == domain]
        if area is not None:
            chosen = [e for e in chosen if _norm(area) in {_norm(a) for a in e.areas}]
        return self._states(chosen)

    def _group(self, name: str, bare: bool = False) -> list[Entity] | None:
        """The exposed entities a group phrase means ("all lights", "every lock", "all the switches"; with
        ``bare`` also "lights"), or None when ``name`` is not such a phrase (HA's own intents turn "turn off
        all the lights" into the light domain the same way)."""
        prefix = r"(?:(?:all|every|each)(?: of)? )" + ("?" if bare else "")
        match = re.fullmatch(prefix + r"([a-z_ ]+?)", _norm(name))
        if match is None:
            return None
        word = match.group(1).replace(" ", "_")
        for domain in (word, word.removesuffix("s"), word.removesuffix("es")):
            chosen = [e for e in self.context.entities if e.domain == domain]
            if chosen:
                return chosen
        return None

    def _op_tool(self, name: str, args: dict[str, Any] | None = None) -> Any:
        full = self.context.tool_named(name) if isinstance(name, str) else None
        if full is None:
            raise HomeError("not_found", f"Home Assistant offers no tool called {name!r} to me.")
        if args is not None and not isinstance(args, dict):
            raise HomeError("invalid", "A tool's arguments must be a dict.")
        return self._relay().call(full, args or {})

    # -------------------------------------------------------------- control ops
    def _op_turn_on(self, name: str, **data: Any) -> dict[str, Any] | list[dict[str, Any]]:
        return self._switch("turn_on", name, data)

    def _op_turn_off(self, name: str, **data: Any) -> dict[str, Any] | list[dict[str, Any]]:
        return self._switch("turn_off", name, data)

    def _op_toggle(self, name: str, **data: Any) -> dict[str, Any] | list[dict[str, Any]]:
        return self._switch("toggle", name, data)

    def _switch(self, action: str, name: str, data: dict[str, Any]) -> dict[str, Any] | list[dict[str, Any]]:
        group = self._group(name) if isinstance(name, str) else None
        if group is None:
            return self._switch_one(action, self._exposed(name), data)
        # "all lights": each exposed light, one call each (a list of states back). Each counts against the
        # turn's cap (this request was counted once already), checked before anything is switched.
        with self._lock:
            if self._calls + len(group) - 1 > self._max_calls:
                raise HomeError("denied", f"Switching {len(group)} devices would be more than {self._max_calls} "
                                          "Home Assistant calls in one turn.")
            self._calls += len(group) - 1
        done: list[dict[str, Any]] = []
        for entity in group:
            try:
                done.append(self._switch_one(action, entity, data))
            except Exception as err:  # what was switched before the failure is reported, not forgotten
                if not isinstance(err, HomeError):
                    _LOGGER.exception("Home broker group call %s failed at %s", action, entity.entity_id)
                    err = HomeError("ha_error", "Something went wrong talking to Home Assistant.")
                if not done:
                    raise err from None
                said = " ".join(state_sentence(s) for s in done)
                raise HomeError(err.code, f"{said} But {entity.name} failed: {err.message}", done) from None
        return done

    def _switch_one(self, action: str, entity: Entity, data: dict[str, Any]) -> dict[str, Any]:
        relay = self._relay()
        intent = self.context.tool_named(_INTENT[action])
        if relay.intents and not data and intent is not None:
            slots: dict[str, Any] = {"name": entity.name, "domain": [entity.domain]}
            if entity.areas:
                slots["area"] = entity.areas[0]
            response = relay.call(intent, slots)
            if isinstance(response, dict) and response.get("response_type") == "error":
                speech = ((response.get("speech") or {}).get("plain") or {}).get("speech")
                raise HomeError("ha_error", speech or "Home Assistant could not do that.")
            return self._states([entity])[0]
        on, off = _ON_OFF.get(entity.domain, ("turn_on", "turn_off"))
        service = {"turn_on": on, "turn_off": off, "toggle": "toggle"}[action]
        if service is None:
            raise HomeError("invalid", f"{entity.name} can't be turned off.")
        domain = entity.domain if (service != "toggle" and entity.domain in _ON_OFF) else "homeassistant"
        return self._service(domain, service, [entity], data)[0]

    def _op_call_service(self, domain: str, service: str, entity_id: Any = None, **data: Any) -> list[dict[str, Any]]:
        if not isinstance(domain, str) or not isinstance(service, str) or "." in domain:
            raise HomeError("invalid", "call_service needs a domain and a service name.")
        if entity_id is None:
            raise HomeError("invalid", "call_service needs entity_id: the exposed devices it acts on.")
        names = [entity_id] if isinstance(entity_id, str) else entity_id
        if not isinstance(names, list) or not names:
            raise HomeError("invalid", "entity_id must be a name, an entity id or a list of them.")
        entities = [self._exposed(n) for n in names]
        return self._service(domain, service, entities, data)

    def _service(self, domain: str, service: str, entities: list[Entity], data: dict[str, Any]) -> list[dict[str, Any]]:
        if set(data) & _TARGET_KEYS:
            raise HomeError("invalid", "Name the devices with entity_id only.")
        exposed = {e.entity_id for e in self.context.entities}
        hidden = next((eid for eid in _named_entities(data) if eid not in exposed), None)
        if hidden is not None:  # an entity named in the data (group_members, entities...) is acted on too
            raise HomeError("denied", f"{hidden} is not exposed to me, so I can't use it.")
        if domain == "homeassistant" and service not in _HA_ENTITY_SERVICES:
            raise HomeError("denied", f"homeassistant.{service} acts on Home Assistant itself, not on a device.")
        bad = [e for e in entities if domain not in (e.domain, "homeassistant")]
        if bad:
            raise HomeError("denied", f"{domain}.{service} can't act on {bad[0].name}, which is a {bad[0].domain}.")
        try:
            json.dumps(data)
        except (TypeError, ValueError):
            raise HomeError("invalid", "Service data must be plain text, numbers, lists and dicts.") from None
        answer = self._relay().call("o1.call_service", {"domain": domain, "service": service,
                                                        "entity_id": [e.entity_id for e in entities], "data": data})
        by_id = {s.get("entity_id"): s for s in (answer or {}).get("states", []) if isinstance(s, dict)}
        if set(by_id) >= {e.entity_id for e in entities}:
            return [{"entity_id": e.entity_id, "name": e.name, "state": by_id[e.entity_id].get("state"),
                     "attributes": by_id[e.entity_id].get("attributes") or {}} for e in entities]
        return self._states(entities)


# ------------------------------------------------------------------------------------------------ socket
@contextmanager
def unix_address(path: Path) -> Iterator[str]:
    """An address for ``path`` that fits AF_UNIX's 108 bytes: the path itself, or (longer paths, such as
    deep test folders) ``/proc/self/fd/N/<name>`` through an O_PATH descriptor of its folder (Linux)."""
    if len(os.fsencode(path)) < 100:
        yield str(path)
        return
    fd = os.open(path.parent, os.O_PATH)
    try:
        yield f"/proc/self/fd/{fd}/{path.name}"
    finally:
        os.close(fd)


class Capability:
    """The per-turn socket in front of a HomeBroker. ``path`` goes to the code; ``close()`` ends it.

    ``run_dir`` is ``<data_dir>/run``; ``user`` is the (uid, gid) the code runs as (None: the server's).
    Connections from other uids than the server's and the code's are refused (SO_PEERCRED).
    """

    def __init__(self, run_dir: Path, broker: HomeBroker, user: tuple[int, int] | None = None) -> None:
        self.broker = broker
        run_dir.mkdir(parents=True, exist_ok=True)
        run_dir.chmod(0o711)
        self.folder = run_dir / secrets.token_hex(16)
        self.folder.mkdir(mode=0o700)
        self.path = self.folder / "ha.sock"
        self._allowed = {os.getuid(), *([user[0]] if user else [])}
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with unix_address(self.path) as address:
            self._sock.bind(address)
        self.path.chmod(0o600)
        if user is not None:
            os.chown(self.path, *user)
            os.chown(self.folder, *user)
        self._sock.listen(MAX_CONNECTIONS)
        self._closed = threading.Event()
        self._connections: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._serve, daemon=True, name=f"o1-ha-{self.folder.name[:6]}")
        self._thread.start()

    def _serve(self) -> None:
        while not self._closed.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:  # close() shut the socket down
                return
            with self._lock:
                if self._closed.is_set() or len(self._connections) >= MAX_CONNECTIONS or not self._peer_ok(conn):
                    conn.close()
                    continue
                self._connections.add(conn)
            threading.Thread(target=self._client, args=(conn,), daemon=True).start()

    def _peer_ok(self, conn: socket.socket) -> bool:
        try:
            _, uid, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
        except OSError:
            return False
        return uid in self._allowed

    def _client(self, conn: socket.socket) -> None:
        reader = conn.makefile("rb")
        try:
            while not self._closed.is_set():
                line = reader.readline(MAX_LINE + 1)
                if not line:
                    return
                if len(line) > MAX_LINE:
                    self._send(conn, {"ok": False, "error": "invalid", "message": "That request is too long."})
                    return
                self._send(conn, self._answer(line))
        except OSError:
            return
        finally:
            with self._lock:
                self._connections.discard(conn)
            reader.close()
            conn.close()

    def _answer(self, line: bytes) -> dict[str, Any]:
        try:
            request = loads(line)
        except ValueError:
            return {"ok": False, "error": "invalid", "message": "A request must be one JSON object per line."}
        if not isinstance(request, dict):
            return {"ok": False, "error": "invalid", "message": "A request must be a JSON object."}
        try:
            return {"ok": True, "result": self.broker.handle(request.get("op"), request.get("args", {}))}
        except HomeError as err:
            return {"ok": False, "error": err.code, "message": err.message}
        except TypeError:  # wrong or missing arguments for the op
            return {"ok": False, "error": "invalid", "message": f"Wrong arguments for {request.get('op')}."}

    @staticmethod
    def _send(conn: socket.socket, answer: dict[str, Any]) -> None:
        conn.sendall(json.dumps(answer, default=str).encode() + b"\n")

    def close(self) -> None:
        """Stop serving, drop open connections and remove the socket and its folder (idempotent)."""
        if self._closed.is_set():
            return
        self._closed.set()
        # shutdown() wakes the thread blocked in accept() at once (close() alone would not, on Linux); it used to
        # poll every 0.5 s, which every turn with Home Assistant access waited for at its end (issue 13).
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
        with self._lock:
            for conn in list(self._connections):
                try:
                    conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        self._thread.join(2)
        remove_tree(self.folder)  # code that owns the folder may have filled it (the fallback sandbox)


@dataclass
class HomeTurn:
    """What a turn request brought for Home Assistant: the integration's context and, when the caller streams
    and can run tools, its relay."""

    context: HomeContext | None = None
    relay: StreamRelay | None = None


class HomeGateway:
    """Server-wide: opens a Capability for each turn whose profile has Home Assistant access.

    ``direct`` is the server's own HA access (RestRelay) used when the turn brought no relay (Wyoming
    ``handle``, plain ``POST /api/conversation``); ``record`` writes audit entries.
    """

    def __init__(self, run_dir: Path, record: Callable[[str, str, dict[str, Any]], None],
                 direct: RestRelay | None = None, user: tuple[int, int] | None = None) -> None:
        self.run_dir = run_dir
        self.direct = direct
        self.user = user
        self._record = record

    def open(self, conversation_id: str, profile: str, access: str, turn: HomeTurn | None,
             emit: Emit | None, user: tuple[int, int] | None = None) -> Capability | None:
        """The turn's capability, or None when the profile has no Home Assistant access.

        ``user`` is the (uid, gid) the conversation's code runs as (default: the gateway's user)."""
        if access not in ("read", "control"):
            return None
        turn = turn or HomeTurn()
        relay: Relay | None = turn.relay or self.direct
        context = turn.context
        if context is None and turn.relay is None and self.direct is not None:
            try:
                context = self.direct.context()
            except HomeError as err:
                _LOGGER.warning("No Home Assistant context for %s: %s", conversation_id, err.message)
        broker = HomeBroker(access, context or HomeContext(), relay,
                            lambda entry: self._record(conversation_id, profile, entry), emit)
        return Capability(self.run_dir, broker, user or self.user)
