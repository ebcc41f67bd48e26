"""The Home Assistant broker: the only way generated code reaches Home Assistant (``o1_ha.*`` in the box).

Per turn with Home Assistant access, ``HomeGateway.open`` starts a ``Capability`` (a unix socket, ``wire.py``'s
JSON Lines) in front of a ``HomeBroker`` (access level, exposure, call cap, audit), which reaches Home Assistant
through a relay (``StreamRelay`` over the turn's stream, or ``RestRelay`` over HA's REST API). No Home Assistant
URL or token ever enters the code's environment. The whole design, limits and wire format: docs/home.md.
"""

from .broker import READ_TOOLS, Emit, HomeBroker, Record
from .capability import Capability, HomeGateway, HomeTurn, unix_address
from .context import MAX_ENTITIES, PROMPT_ENTITIES, Entity, HomeContext, prompt_for, state_sentence
from .lookup import MAX_NAME, find_entities
from .relays import ASSISTANT, CALL_TIMEOUT, Relay, RestRelay, StreamRelay
from .wire import CONTROL_OPS, ERROR_CODES, MAX_CALLS, MAX_CONNECTIONS, MAX_LINE, READ_OPS, HomeError

__all__ = [
    "ASSISTANT",
    "CALL_TIMEOUT",
    "CONTROL_OPS",
    "ERROR_CODES",
    "MAX_CALLS",
    "MAX_CONNECTIONS",
    "MAX_ENTITIES",
    "MAX_LINE",
    "MAX_NAME",
    "PROMPT_ENTITIES",
    "READ_OPS",
    "READ_TOOLS",
    "Capability",
    "Emit",
    "Entity",
    "HomeBroker",
    "HomeContext",
    "HomeError",
    "HomeGateway",
    "HomeTurn",
    "Record",
    "Relay",
    "RestRelay",
    "StreamRelay",
    "find_entities",
    "prompt_for",
    "state_sentence",
    "unix_address",
]
