"""Home Assistant's side of o1's home control: the turn's context and the tools the o1 server relays.

With each turn the agent sends what Home Assistant's own LLM agents use (see ``homeassistant.helpers.llm``):
the entities exposed to Assist (names, aliases, areas, domains, states), the satellite's device and area,
the user's extra system prompt, the language, and the tools of the selected LLM APIs (``llm_hass_api``).
The code the o1 agent runs asks the o1 server's broker; the broker relays each allowed call back here as a
tool call, run by `HomeToolRunner`: HA's LLM API tools (HassTurnOn, HassLightSet, GetLiveContext...) through
``APIInstance.async_call_tool``, plus two tools of this integration, ``o1.get_states`` and ``o1.call_service``.
Both layers check exposure; this one also refuses anything but reading unless the profile may control the home,
and ``o1.call_service`` runs only the services of ``SERVICES`` (what HA's own intents do, per domain), on
exposed entities named by ``entity_id`` only: a compromised server can do no more than an HA agent could.
"""

from __future__ import annotations

import json
import re
from typing import Any

from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_should_expose
from homeassistant.core import Context, HomeAssistant, State
from homeassistant.exceptions import HomeAssistantError, ServiceNotFound
from homeassistant.helpers import (
    area_registry as ar,
)
from homeassistant.helpers import (
    device_registry as dr,
)
from homeassistant.helpers import (
    entity_registry as er,
)
from homeassistant.helpers import (
    floor_registry as fr,
)
from homeassistant.helpers import (
    intent,
    llm,
)
from homeassistant.helpers.json import json_dumps

from . import past

# Entity attributes worth sending (the same kind HA's Assist API shows its LLMs).
INTERESTING_ATTRIBUTES = frozenset(
    {
        "unit_of_measurement",
        "device_class",
        "brightness",
        "temperature",
        "current_temperature",
        "humidity",
        "current_position",
        "percentage",
        "volume_level",
        "media_title",
    }
)
MAX_ENTITIES = 2000  # the server accepts at most this many
TOOL_GET_STATES = "o1.get_states"
TOOL_CALL_SERVICE = "o1.call_service"
_ON_OFF = frozenset({"turn_on", "turn_off", "toggle"})
SERVICES: dict[str, frozenset[str]] = {
    # The services o1.call_service runs, per domain: what HA's intents (HassTurnOn/Off, HassLightSet,
    # HassClimateSetTemperature, HassSetPosition, HassMediaPause..., HassSetVolume, HassFanSetSpeed,
    # HassVacuumStart...) do, plus the climate's hvac mode and the alarm panel's arming and disarming (the
    # o1 server asks the user by voice before a disarm, an unlock or a garage door opens). Nothing else runs.
    "light": _ON_OFF,
    "switch": _ON_OFF,
    "input_boolean": _ON_OFF,
    "fan": _ON_OFF
    | {"set_percentage", "set_preset_mode", "oscillate", "set_direction"},
    "climate": _ON_OFF
    | {"set_temperature", "set_hvac_mode", "set_fan_mode", "set_preset_mode"},
    "water_heater": frozenset(
        {"turn_on", "turn_off", "set_temperature", "set_operation_mode"}
    ),
    "humidifier": _ON_OFF | {"set_humidity", "set_mode"},
    "cover": frozenset(
        {
            "open_cover",
            "close_cover",
            "stop_cover",
            "toggle",
            "set_cover_position",
            "open_cover_tilt",
            "close_cover_tilt",
            "set_cover_tilt_position",
        }
    ),
    "valve": frozenset(
        {"open_valve", "close_valve", "stop_valve", "toggle", "set_valve_position"}
    ),
    "lock": frozenset({"lock", "unlock"}),
    "media_player": _ON_OFF
    | {
        "media_play",
        "media_pause",
        "media_play_pause",
        "media_stop",
        "media_next_track",
        "media_previous_track",
        "volume_set",
        "volume_mute",
        "volume_up",
        "volume_down",
    },
    "vacuum": frozenset({"start", "stop", "pause", "return_to_base"}),
    "lawn_mower": frozenset({"start_mowing", "pause", "dock"}),
    "scene": frozenset({"turn_on"}),
    "script": _ON_OFF,
    "button": frozenset({"press"}),
    "input_button": frozenset({"press"}),
    "alarm_control_panel": frozenset(
        {"alarm_arm_home", "alarm_arm_away", "alarm_arm_night", "alarm_disarm"}
    ),
    "homeassistant": _ON_OFF,
}
# Data keys that would name targets other than the exposed entity ids this tool is given.
_TARGET_KEYS = frozenset(
    {"entity_id", "area_id", "device_id", "floor_id", "label_id", "target"}
)
_ENTITY_ID = re.compile(r"[a-z_][a-z0-9_]*\.[a-z0-9_]+")


def _area_names(area: ar.AreaEntry | None) -> list[str]:
    return [area.name, *sorted(area.aliases)] if area is not None else []


def _floor_names(hass: HomeAssistant, area: ar.AreaEntry | None) -> list[str]:
    floor = (
        fr.async_get(hass).async_get_floor(area.floor_id)
        if area is not None and area.floor_id
        else None
    )
    return [floor.name, *sorted(floor.aliases)] if floor is not None else []


def exposed_entities(hass: HomeAssistant) -> list[dict[str, Any]]:
    """The entities exposed to Assist: ``[{"entity_id", "name", "aliases", "areas", "floors", "state",
    "attributes"}]`` (areas and floors: names, then aliases)."""
    entities = er.async_get(hass)
    devices = dr.async_get(hass)
    areas = ar.async_get(hass)
    found = []
    for state in sorted(hass.states.async_all(), key=lambda s: s.entity_id):
        if not async_should_expose(hass, conversation.DOMAIN, state.entity_id):
            continue
        entry = entities.async_get(state.entity_id)
        names = intent.async_get_entity_aliases(hass, entry, state=state) or [
            state.name
        ]
        if (
            state.name not in names
        ):  # aliases the user set without the entity's own name: it comes first
            names = [state.name, *names]
        area_id = entry.area_id if entry is not None else None
        if area_id is None and entry is not None and entry.device_id is not None:
            device = devices.async_get(entry.device_id)
            area_id = device.area_id if device is not None else None
        area = areas.async_get_area(area_id) if area_id else None
        found.append(
            {
                "entity_id": state.entity_id,
                "name": names[0],
                "aliases": names[1:],
                "areas": _area_names(area),
                "floors": _floor_names(hass, area),
                "state": state.state,
                "attributes": _json(
                    {
                        k: v
                        for k, v in state.attributes.items()
                        if k in INTERESTING_ATTRIBUTES
                    }
                ),
            }
        )
        if len(found) >= MAX_ENTITIES:
            break
    return found


def _json(value: Any) -> Any:
    """A JSON-safe copy (HA's encoder: datetimes, enums, sets...)."""
    return json.loads(json_dumps(value))


def _state_dict(state: State) -> dict[str, Any]:
    """One state as HA's REST API shapes it (JSON-safe)."""
    found: dict[str, Any] = _json(
        {
            "entity_id": state.entity_id,
            "state": state.state,
            "attributes": dict(state.attributes),
            "last_changed": state.last_changed,
        }
    )
    return found


def satellite_area(hass: HomeAssistant, device_id: str | None) -> str | None:
    """The area name of the device (satellite) that heard the request, if it has one."""
    if (
        device_id is None
        or (device := dr.async_get(hass).async_get(device_id)) is None
        or not device.area_id
    ):
        return None
    area = ar.async_get(hass).async_get_area(device.area_id)
    return area.name if area is not None else None


MAX_LOCAL_TURNS = 5


def local_turns(chat_log: conversation.ChatLog, agent_id: str) -> list[dict[str, str]]:
    """Turns of this conversation that Home Assistant answered itself ("prefer handling commands locally")
    since the o1 agent last spoke: ``[{"user", "answer"}]``, oldest first, at most MAX_LOCAL_TURNS."""
    found: list[dict[str, str]] = []
    answer: str | None = None
    for content in reversed(
        chat_log.content[:-1]
    ):  # the last one is the current user message
        if isinstance(content, conversation.AssistantContent):
            if content.agent_id == agent_id and content.content:  # o1's own last answer
                break
            if content.agent_id == agent_id:
                continue  # a tool call HA's local handling recorded under this agent
            answer = (
                content.content
                if content.agent_id == conversation.HOME_ASSISTANT_AGENT
                else None
            )
        elif isinstance(content, conversation.UserContent) and answer:
            found.append({"user": content.content, "answer": answer})
            answer = None
    return found[:MAX_LOCAL_TURNS][::-1]


def turn_context(
    hass: HomeAssistant,
    user_input: conversation.ConversationInput,
    api: llm.APIInstance | None,
    llm_apis: list[str],
    local: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    """The ``home`` object of a turn request (shape: the o1 server's ``HomeContext.from_json``)."""
    tools = list(api.tools) if api is not None else []
    return {
        "local_turns": local or [],
        "entities": exposed_entities(hass),
        "device_id": user_input.device_id,
        "area": satellite_area(hass, user_input.device_id),
        "extra_system_prompt": user_input.extra_system_prompt,
        "language": user_input.language,
        "llm_apis": llm_apis,
        "tools": [tool.name for tool in tools],
        "read_only_tools": [tool.name for tool in tools if tool.annotations.read_only],
    }


class HomeToolRunner:
    """Runs the tool calls the o1 server relays for one turn; returns the server's result payload.

    ``may_control`` is whether the profile may act on the home (the server checks it too).
    """

    def __init__(
        self,
        hass: HomeAssistant,
        api: llm.APIInstance | None,
        context: Context,
        may_control: bool,
    ) -> None:
        """Keep what the turn's tool calls need."""
        self.hass = hass
        self.api = api
        self.context = context
        self.may_control = may_control

    async def async_run(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run one tool: ``{"result": ...}`` or ``{"error": code, "message": sentence}`` (never raises)."""
        if name in past.TOOLS:  # reads of the home's past (past.py): exposure checked there
            return await past.async_run(self.hass, name, args)
        try:
            if name == TOOL_GET_STATES:
                return {"result": self._get_states(args.get("entity_ids"))}
            if name == TOOL_CALL_SERVICE:
                return {"result": await self._call_service(args)}
            return await self._llm_tool(name, args)
        except _Refused as err:
            return {"error": "denied", "message": str(err)}
        except (
            HomeAssistantError,
            ServiceNotFound,
            ValueError,
            TypeError,
            KeyError,
        ) as err:
            return {"error": "ha_error", "message": str(err) or type(err).__name__}

    def _exposed_states(self, entity_ids: Any) -> list[State]:
        if not isinstance(entity_ids, list) or not all(
            isinstance(e, str) for e in entity_ids
        ):
            raise ValueError("entity_ids must be a list of entity ids")
        states = []
        for entity_id in entity_ids:
            if not async_should_expose(self.hass, conversation.DOMAIN, entity_id):
                raise _Refused(f"{entity_id} is not exposed to Assist.")
            if (state := self.hass.states.get(entity_id)) is not None:
                states.append(state)
        return states

    def _get_states(self, entity_ids: Any) -> dict[str, Any]:
        return {"states": [_state_dict(s) for s in self._exposed_states(entity_ids)]}

    async def _call_service(self, args: dict[str, Any]) -> dict[str, Any]:
        if not self.may_control:
            raise _Refused("This profile may only read the home.")
        domain, service = args.get("domain"), args.get("service")
        if not isinstance(domain, str) or service not in SERVICES.get(domain, ()):
            raise _Refused(f"{domain}.{service} is not a service o1 may call.")
        states = self._exposed_states(args.get("entity_id"))
        if not states:
            raise _Refused("Name the exposed entities to act on.")
        if any(s.domain != domain for s in states) and domain != "homeassistant":
            raise _Refused(f"{domain}.{service} acts only on {domain} entities.")
        data = args.get("data") or {}
        if not isinstance(data, dict):
            raise ValueError("data must be an object")
        if set(data) & _TARGET_KEYS:
            raise _Refused("Entities are named by entity_id only.")
        self._exposed_states(
            sorted(_named(data))
        )  # entity ids in the data (group members...) must be exposed
        await self.hass.services.async_call(
            domain,
            str(service),
            {**data, "entity_id": [s.entity_id for s in states]},
            blocking=True,
            context=self.context,
        )
        return self._get_states([s.entity_id for s in states])

    async def _llm_tool(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if self.api is None:
            raise _Refused("No Home Assistant LLM API is selected for this agent.")
        tool = next((t for t in self.api.tools if t.name == name), None)
        if tool is None:
            raise _Refused(f"Home Assistant has no tool called {name} for this agent.")
        if not self.may_control and not tool.annotations.read_only:
            raise _Refused("This profile may only read the home.")
        result = await self.api.async_call_tool(
            llm.ToolInput(tool_name=name, tool_args=args)
        )
        data = _json(result.data)
        if result.error:
            message = data.get("error") if isinstance(data, dict) else None
            return {"error": "ha_error", "message": str(message or f"{name} failed.")}
        return {"result": data}


def _named(data: Any, depth: int = 0) -> set[str]:
    """Every text in service data that HA could read as an entity id (lower-cased, comma lists split)."""
    if depth > 32:
        raise _Refused("The service data is nested too deeply to check.")
    if isinstance(data, str):
        return {
            p
            for p in (part.strip().lower() for part in data.split(","))
            if _ENTITY_ID.fullmatch(p)
        }
    if isinstance(data, dict):
        return set().union(
            *(_named(k, depth + 1) | _named(v, depth + 1) for k, v in data.items())
        )
    if isinstance(data, list):
        return set().union(*(_named(v, depth + 1) for v in data))
    return set()


class _Refused(Exception):
    """A tool call this integration will not run (exposure, access level, unknown tool)."""
