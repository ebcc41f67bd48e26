"""The Home Assistant broker: the only way generated code reaches Home Assistant (``o1_ha.*`` in the box).

Per turn with Home Assistant access, ``HomeGateway.open`` starts a ``Capability`` (a unix socket, ``wire.py``'s
JSON Lines) in front of a ``HomeBroker`` (access level, exposure, call cap, audit), which reaches Home Assistant
through a relay (``StreamRelay`` over the turn's stream, or ``RestRelay`` over HA's REST API). No Home Assistant
URL or token ever enters the code's environment. The whole design, limits and wire format: docs/home.md.
"""

from .broker import READ_TOOLS, Emit, HomeBroker, Record
from .capability import Capability, HomeGateway, HomeTurn, unix_address
from .context import MAX_ENTITIES, PROMPT_ENTITIES, Entity, HomeContext, state_sentence
from .guard import GUARDED_COVERS, Guard, Held, granted_keys, held_code, held_words
from .lookup import MAX_NAME, find_entities
from .prompt import DATA_CLOSE, DATA_OPEN, prompt_for
from .relays import ASSISTANT, CALL_TIMEOUT, Relay, RestRelay, StreamRelay
from .targets import Target, resolve
from .wire import CONTROL_OPS, ERROR_CODES, MAX_CALLS, MAX_CONNECTIONS, MAX_LINE, READ_OPS, HomeError

__all__ = [
    "ASSISTANT",
    "CALL_TIMEOUT",
    "CONTROL_OPS",
    "DATA_CLOSE",
    "DATA_OPEN",
    "ERROR_CODES",
    "GUARDED_COVERS",
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
    "Guard",
    "Held",
    "HomeBroker",
    "HomeContext",
    "HomeError",
    "HomeGateway",
    "HomeTurn",
    "Record",
    "Relay",
    "RestRelay",
    "StreamRelay",
    "Target",
    "find_entities",
    "granted_keys",
    "held_code",
    "held_words",
    "prompt_for",
    "resolve",
    "state_sentence",
    "unix_address",
]
