"""The broker: for one turn, decides what a request on the Home Assistant socket may do, then relays it.

It enforces the profile's access level (``read`` or ``control``), the exposure settings (also for entity ids
written in a service's data) and a cap on calls per turn; it audits and reports every call. It holds no socket
(``capability.py`` serves it) and reaches Home Assistant only through its relay (``relays.py``).
"""

from __future__ import annotations

import inspect
import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from .. import i18n
from .context import Entity, HomeContext, TooDeep, is_entity_id, is_slug, named_entities, state_sentence
from .guard import GUARDED_COVERS, GUARDED_TOOLS, Guard, call_line, service_key, tool_key
from .history import HistoryOps
from .lookup import MAX_NAME, find_entities, group_of, in_area
from .relays import Relay
from .targets import Ambiguous, NotFound, Target, device_class, light_data, resolve, service_data
from .wire import CONTROL_OPS, HISTORY_OPS, MAX_CALLS, READ_OPS, HomeError

_LOGGER = logging.getLogger(__name__)

# HA LLM API tools that only read (``homeassistant.helpers.llm`` and core intents), besides those the
# integration reports HA annotates ``read_only`` (``ToolAnnotations``). Every other tool acts on the home.
READ_TOOLS = frozenset(
    {
        "GetLiveContext",
        "GetDateTime",
        "GetCurrentLocation",
        "HassGetState",
        "HassGetWeather",
        "HassGetCurrentDate",
        "HassGetCurrentTime",
        "HassTimerStatus",
        "todo_get_items",
        "calendar_get_events",
    }
)
# What turn_on/turn_off/toggle mean per domain when no intent tool is available (RestRelay).
_ON_OFF = {
    "lock": ("lock", "unlock"),
    "cover": ("open_cover", "close_cover"),
    "valve": ("open_valve", "close_valve"),
    "scene": ("turn_on", None),
    "script": ("turn_on", "turn_off"),
    "button": ("press", None),
    "input_button": ("press", None),
}
_INTENT = {"turn_on": "HassTurnOn", "turn_off": "HassTurnOff", "toggle": "HassToggle"}
# Namespaces of HA core's own tools (``<namespace>__<tool>``; "" = not namespaced, "assist" = a merged API).
_CORE_NAMESPACES = frozenset({"", "assist", "homeassistant", "llm", "intent", "todo", "calendar", "weather"})
# The ``homeassistant`` domain's services that act on the entities named: its others act on Home Assistant
# itself (restart, stop, reload_all, set_location...) whatever entity_id says.
_HA_ENTITY_SERVICES = frozenset({"turn_on", "turn_off", "toggle", "update_entity"})
_TARGET_KEYS = {"entity_id", "area_id", "device_id", "floor_id", "label_id", "target"}
# The domains whose entities take a kind of data (HA's intents: HassLightSet, HassClimateSetTemperature,
# HassSetPosition, HassSetVolume, HassFanSetSpeed): "living room" with a temperature is the area's thermostat.
_DATA_DOMAINS = {
    "brightness": {"light"},
    "brightness_pct": {"light"},
    "brightness_percent": {"light"},
    "color_name": {"light"},
    "color": {"light"},
    "colour": {"light"},
    "rgb_color": {"light"},
    "color_temp_kelvin": {"light"},
    "kelvin": {"light"},
    "color_temp": {"light"},
    "temperature": {"climate", "water_heater"},
    "target_temp_low": {"climate"},
    "target_temp_high": {"climate"},
    "hvac_mode": {"climate"},
    "position": {"cover", "valve"},
    "volume": {"media_player"},
    "volume_pct": {"media_player"},
    "volume_level": {"media_player"},
    "percentage": {"fan", "light"},
    "speed": {"fan"},
}


Record = Callable[[dict[str, Any]], None]
Emit = Callable[[dict[str, Any]], None]


class HomeBroker(HistoryOps):
    """Enforces access and exposure for one turn and relays allowed calls (usable without a socket too:
    ``handle(op, args)`` is what the socket server calls, so a benchmark can drive it directly).

    ``record(entry)`` writes an audit record, ``emit(event)`` sends a turn event; both may be None.
    """

    def __init__(
        self,
        access: str,
        context: HomeContext,
        relay: Relay | None,
        record: Record | None = None,
        emit: Emit | None = None,
        max_calls: int = MAX_CALLS,
        guard: Guard | None = None,
    ) -> None:
        self.access = access
        self.guard = guard or Guard()
        self.question: str | None = None  # the clarifying question ("Which one: A or B?") this turn asked, if any
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
        entry: dict[str, Any] = {
            "op": op if isinstance(op, str) else repr(op)[:100],
            "args": args if isinstance(args, dict) else {},
            "access": self.access,
        }
        try:
            result = self._handle(op, args)
        except HomeError as err:
            outcome = {"denied": "denied", "confirm": "held"}.get(err.code, "error")
            entry.update(outcome=outcome, error=err.code, message=err.message)
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
            except Exception:  # the summary is a courtesy; the tool calls' own results stand
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
            raise HomeError(
                "denied",
                f"This profile may {'only read' if self.access == 'read' else 'not use'} "
                "Home Assistant, so I can't change anything in the home.",
            )
        with self._lock:
            self._calls += 1
            if self._calls > self._max_calls:
                raise HomeError("denied", f"That is more than {self._max_calls} Home Assistant calls in one turn.")
        method = getattr(self, f"_op_{op}")
        try:
            if "self" in args:  # the bound method's own first parameter: binding it would fail inside the call
                raise TypeError("self")
            inspect.signature(method).bind(**args)
        except TypeError:
            raise HomeError(
                "invalid", f"o1_ha.{op} got arguments it does not take: {', '.join(args) or 'none'}."
            ) from None
        return method(**args)

    def _access_needed(self, op: str, args: dict[str, Any]) -> str:
        if op in READ_OPS or op in HISTORY_OPS:  # HISTORY_OPS: HistoryOps's _op_* (history.py)
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
        return self._targets(Target(name), frozenset({domain}) if domain else frozenset(), one=True)[0]

    def _targets(self, target: Target, domains: frozenset[str] = frozenset(), one: bool = False) -> list[Entity]:
        """The exposed entities a target means (see ``targets.resolve``), for a service of ``domains``."""
        for value in (target.area, target.floor, target.domain, target.device_class):
            if value is not None and (not isinstance(value, str) or len(value) > MAX_NAME):
                raise HomeError(
                    "invalid", f"Areas, floors, domains and device classes are names of at most {MAX_NAME} characters."
                )
        if target.name is not None:
            if not isinstance(target.name, str):
                raise HomeError("invalid", "Tell me which device, by its name.")
            if len(target.name) > MAX_NAME:
                raise HomeError("invalid", f"A device's name has at most {MAX_NAME} characters.")
            if is_entity_id(target.name.strip()):
                return [self._exposed(target.name.strip())]
        if target.domain is not None:
            domains = domains & {target.domain} if domains else frozenset({target.domain})
        try:
            return resolve(self.context.entities, target, domains, self.context.area, one)
        except Ambiguous as err:
            self.question = str(err)
            raise HomeError("ambiguous", str(err)) from None
        except NotFound as err:
            raise HomeError("not_found", self._not_found(target.name) if target.name else str(err)) from None

    def _unknown(self, name: str) -> Entity:
        raise HomeError("not_found", self._not_found(name))

    def _not_found(self, name: str) -> str:
        """ "I can't find {name} among the devices exposed to me." in the conversation's language (the home
        context's, else the turn's: ``home.not_found``)."""
        return i18n.t(self._language(), "home.not_found", name=name)

    def _language(self) -> str | None:
        """The conversation's language: the home context's, else the turn's."""
        return self.context.language or i18n.current()

    def _exposed(self, entity_id: Any) -> Entity:
        """The exposed entity with this id (or spoken name); denied when it exists but is not exposed."""
        if isinstance(entity_id, str) and is_entity_id(entity_id):
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
            out.append(
                {
                    "entity_id": entity.entity_id,
                    "name": entity.name,
                    "state": state.get("state"),
                    "attributes": state.get("attributes") or {},
                    "last_changed": state.get("last_changed"),
                }
            )
        return out

    # -------------------------------------------------------------- read ops
    def _op_entities(self) -> list[dict[str, Any]]:
        return [e.as_dict() for e in self.context.entities]

    def _op_find(self, name: str, domain: str | None = None) -> dict[str, Any]:
        return self._resolve(name, domain).as_dict()

    def _op_get_state(self, name: str) -> dict[str, Any]:
        return self._states([self._exposed(name)])[0]

    def _op_states(self, domain: str | None = None, area: str | None = None) -> list[dict[str, Any]]:
        if (domain is not None and not isinstance(domain, str)) or (area is not None and not isinstance(area, str)):
            raise HomeError("invalid", "states takes a domain and an area, as text.")
        if domain is not None and domain not in {e.domain for e in self.context.entities}:
            # Small models pass a device ("kitchen light") or a plural ("lights") as the domain.
            group = self._group(domain, bare=True)
            chosen = group if group is not None else find_entities(self.context.entities, domain, area=area)
        else:
            chosen = [e for e in self.context.entities if domain is None or e.domain == domain]
        if area is not None:
            chosen = [e for e in chosen if in_area(e, area)]
        return self._states(chosen)

    def _group(self, name: str, bare: bool = False) -> list[Entity] | None:
        """The exposed entities a group phrase means ("all lights"), or None (see ``lookup.group_of``)."""
        return group_of(self.context.entities, name, bare)

    def _op_tool(self, name: str, args: dict[str, Any] | None = None) -> Any:
        full = self.context.tool_named(name) if isinstance(name, str) else None
        if full is None:
            raise HomeError("not_found", f"Home Assistant offers no tool called {name!r} to me.")
        if args is not None and not isinstance(args, dict):
            raise HomeError("invalid", "A tool's arguments must be a dict.")
        self._guard_tool(name, args or {})
        return self._relay().call(full, args or {})

    # -------------------------------------------------------------- control ops
    def _op_turn_on(
        self,
        name: Any = None,
        area: Any = None,
        floor: Any = None,
        domain: Any = None,
        device_class: Any = None,
        **data: Any,
    ) -> dict[str, Any] | list[dict[str, Any]]:
        return self._switch("turn_on", Target(name, area, floor, domain, device_class), data)

    def _op_turn_off(
        self,
        name: Any = None,
        area: Any = None,
        floor: Any = None,
        domain: Any = None,
        device_class: Any = None,
        **data: Any,
    ) -> dict[str, Any] | list[dict[str, Any]]:
        return self._switch("turn_off", Target(name, area, floor, domain, device_class), data)

    def _op_toggle(
        self,
        name: Any = None,
        area: Any = None,
        floor: Any = None,
        domain: Any = None,
        device_class: Any = None,
        **data: Any,
    ) -> dict[str, Any] | list[dict[str, Any]]:
        return self._switch("toggle", Target(name, area, floor, domain, device_class), data)

    def _switch(self, action: str, target: Target, data: dict[str, Any]) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(target.name, list):
            return [self._switch_one(action, self._exposed(n), data) for n in target.name]
        if target == Target():
            raise HomeError("invalid", "Tell me which device, by its name, its area or its kind.")
        domains = _data_domains(data)
        group = self._targets(target, domains)
        if len(group) == 1 and (not isinstance(target.name, str) or group_of(group, target.name) is None):
            return self._switch_one(action, group[0], data)
        # A group ("all lights", "the lights in the bedroom"): each entity, one call each (a list of states back).
        # Each counts against the turn's cap (this request was counted once already), checked before anything
        # is switched.
        with self._lock:
            if self._calls + len(group) - 1 > self._max_calls:
                raise HomeError(
                    "denied",
                    f"Switching {len(group)} devices would be more than {self._max_calls} "
                    "Home Assistant calls in one turn.",
                )
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
        on, off = _ON_OFF.get(entity.domain, ("turn_on", "turn_off"))
        service = {"turn_on": on, "turn_off": off, "toggle": "toggle"}[action]
        if service is None:
            raise HomeError("invalid", f"{entity.name} can't be turned off.")
        domain = entity.domain if (service != "toggle" and entity.domain in _ON_OFF) else "homeassistant"
        if data:
            try:
                service, data = service_data(entity.domain, service, data)
            except ValueError as err:
                raise HomeError("invalid", str(err)) from None
            domain = entity.domain
        intent = self.context.tool_named(_INTENT[action])
        if relay.intents and not data and intent is not None:
            self._guard_service(domain, service, [entity], data)
            slots: dict[str, Any] = {"name": entity.name, "domain": [entity.domain]}
            if entity.areas:
                slots["area"] = entity.areas[0]
            response = relay.call(intent, slots)
            if isinstance(response, dict) and response.get("response_type") == "error":
                speech = ((response.get("speech") or {}).get("plain") or {}).get("speech")
                raise HomeError("ha_error", speech or "Home Assistant could not do that.")
            return self._states([entity])[0]
        return self._service(domain, service, [entity], data)[0]

    def _guard_service(self, domain: str, service: str, entities: list[Entity], data: dict[str, Any]) -> None:
        """Hold a guarded service call (raises HomeError("confirm")) unless the user granted exactly it."""
        ids = [e.entity_id for e in entities]
        self.guard.check(
            service_key(domain, service, ids, data),
            call_line("call_service", domain, service, entity_id=ids, data=data),
            self.guard.words_for(domain, service, entities),
        )

    def _guard_tool(self, name: str, args: dict[str, Any]) -> None:
        """Hold an intent tool call that may unlock or open what it targets (see ``guard.GUARDED_TOOLS``)."""
        base = name.rpartition("__")[2]
        if base not in GUARDED_TOOLS:
            return

        def slot(key: str) -> str | None:
            value = args.get(key)
            return value if isinstance(value, str) else None

        domain = args.get("domain")
        domain = domain[0] if isinstance(domain, list) and domain and isinstance(domain[0], str) else slot("domain")
        try:
            found = resolve(self.context.entities, Target(slot("name"), slot("area"), slot("floor"), domain))
        except LookupError:  # HA may read the slots otherwise: every entity could be meant
            found = list(self.context.entities)
        locks = [e for e in found if e.domain == "lock"] if base in ("HassTurnOff", "HassToggle") else []
        covers = [e for e in found if e.domain == "cover" and device_class(e) in GUARDED_COVERS]
        covers = covers if base != "HassTurnOff" else []
        said = self._language()
        words = " and ".join(
            ([i18n.t(said, "home.unlock", name=" and ".join(e.name for e in locks))] if locks else [])
            + ([i18n.t(said, "home.open", name=" and ".join(e.name for e in covers))] if covers else [])
        )
        self.guard.check(tool_key(name, args), call_line("tool", name, args), words or None)

    def _op_call_service(
        self,
        domain: str,
        service: str,
        entity_id: Any = None,
        area: Any = None,
        floor: Any = None,
        device_class: Any = None,
        **data: Any,
    ) -> list[dict[str, Any]]:
        if not is_slug(domain) or not is_slug(service):
            # Names go into Home Assistant's service registry and the REST path (/api/services/<d>/<s>): only
            # the characters HA itself uses, so nothing like "../homeassistant/restart" can reach another route.
            raise HomeError(
                "invalid", "call_service needs a domain and a service name in lower-case letters, digits and _."
            )
        domains = frozenset() if domain == "homeassistant" else frozenset({domain})
        if domain == "light" and service == "turn_on":  # a level means what it means for o1_ha.turn_on
            try:
                data = light_data(data)
            except ValueError as err:
                raise HomeError("invalid", str(err)) from None
        if entity_id is None:
            if domain == "homeassistant" or (
                area is None
                and floor is None
                and device_class is None
                and not any(e.domain == domain for e in self.context.entities)
            ):
                raise HomeError("invalid", "call_service needs entity_id: the exposed devices it acts on.")
            # "the thermostat": the area's (or the only) one, as HA's intents pick it.
            chosen = self._targets(Target(None, area, floor, None, device_class), domains, one=area is None)
            return self._service(domain, service, chosen, data)
        names = [entity_id] if isinstance(entity_id, str) else entity_id
        if not isinstance(names, list) or not names:
            raise HomeError("invalid", "entity_id must be a name, an entity id or a list of them.")
        entities: list[Entity] = []
        for name in names:
            if isinstance(name, str) and is_entity_id(name.strip()):
                entities.append(self._exposed(name.strip()))
            else:  # a spoken name, resolved among the service's own domain: "Living Room" is the thermostat
                entities += self._targets(Target(name, area, floor, None, device_class), domains)
        return self._service(domain, service, list({e.entity_id: e for e in entities}.values()), data)

    def _service(self, domain: str, service: str, entities: list[Entity], data: dict[str, Any]) -> list[dict[str, Any]]:
        if not is_slug(domain) or not is_slug(service):  # every path to a service call passes here
            raise HomeError("invalid", f"{domain!r}.{service!r} is not a service name.")
        if set(data) & _TARGET_KEYS:
            raise HomeError("invalid", "Name the devices with entity_id only.")
        exposed = {e.entity_id for e in self.context.entities}
        try:
            hidden = next((eid for eid in named_entities(data) if eid not in exposed), None)
        except TooDeep:
            raise HomeError("invalid", "That service data is nested too deeply for me to check.") from None
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
        self._guard_service(domain, service, entities, data)
        answer = self._relay().call(
            "o1.call_service",
            {"domain": domain, "service": service, "entity_id": [e.entity_id for e in entities], "data": data},
        )
        by_id = {s.get("entity_id"): s for s in (answer or {}).get("states", []) if isinstance(s, dict)}
        if set(by_id) >= {e.entity_id for e in entities}:
            return [
                {
                    "entity_id": e.entity_id,
                    "name": e.name,
                    "state": by_id[e.entity_id].get("state"),
                    "attributes": by_id[e.entity_id].get("attributes") or {},
                }
                for e in entities
            ]
        return self._states(entities)


def _data_domains(data: dict[str, Any]) -> frozenset[str]:
    """The domains whose entities take all of ``data`` (empty: any domain)."""
    kinds = [_DATA_DOMAINS[k] for k in data if k in _DATA_DOMAINS]
    return frozenset(set.intersection(*kinds)) if kinds else frozenset()
