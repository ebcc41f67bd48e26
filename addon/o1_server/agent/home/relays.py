"""The two ways a turn reaches Home Assistant: a ``Relay`` runs one named tool and returns its JSON result.

``StreamRelay`` asks the o1 integration over the turn's NDJSON stream (HA's LLM API tools and intents);
``RestRelay`` uses the server's own URL and token (HA's REST API and one websocket command, no intents).
Relays only carry calls: what a call may do is decided by the broker before it reaches them.
"""

from __future__ import annotations

import functools
import json
import secrets
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Protocol

from . import history
from .context import Entity, HomeContext, is_entity_id
from .wire import HomeError

CALL_TIMEOUT = 15.0  # seconds a relayed tool call may take
ASSISTANT = "conversation"  # HA's assistant id of Assist (exposure settings)


class Relay(Protocol):
    """Runs one named Home Assistant tool and returns its JSON result."""

    intents: bool  # whether HA's intent tools (HassTurnOn...) are available

    def call(self, name: str, args: dict[str, Any]) -> Any:
        """Run ``name`` with ``args``. Raises HomeError (timeout, ha_error, unavailable)."""
        ...


class StreamRelay:
    """Relays tool calls to the o1 integration over the turn's NDJSON stream and waits for its answers.

    ``emit`` sends an event to the stream (thread-safe); ``deliver`` is called by the HTTP API when the
    integration posts a result. ``turn_id`` is random and unguessable.
    """

    def __init__(
        self, emit: Callable[[dict[str, Any]], None], tools: tuple[str, ...] = (), timeout: float = CALL_TIMEOUT
    ) -> None:
        self.turn_id = secrets.token_hex(16)
        self.intents = any(t == "HassTurnOn" or t.endswith("__HassTurnOn") for t in tools)
        self._emit = emit
        self._timeout = timeout
        self._pending: dict[str, Future[Any]] = {}
        self._lock = threading.Lock()
        self._closed = False

    def call(self, name: str, args: dict[str, Any]) -> Any:
        """Emit a tool_call event and wait up to the timeout for the integration's answer."""
        call_id = secrets.token_hex(8)
        future: Future[Any] = Future()
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
        request = urllib.request.Request(
            f"{self._url}/api/{path}",
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {self._token}", "Content-Type": "application/json"},
        )
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

        async def fetch() -> Any:  # Home Assistant's JSON answer
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
        result = answer.get("result") if isinstance(answer, dict) and answer.get("success") else None
        settings = result.get("exposed_entities") if isinstance(result, dict) else None
        if not isinstance(settings, dict):  # a failure, or an answer of another shape
            raise HomeError("unavailable", "I can't read which devices are exposed to me.")
        return {eid for eid, s in settings.items() if isinstance(s, dict) and s.get(ASSISTANT)}

    def context(self) -> HomeContext:
        """The exposed entities with their friendly names and states (no areas on this path)."""
        exposed = self.exposed()
        entities = []
        for state in self._rest("GET", "states") or []:
            eid = state.get("entity_id")
            if eid in exposed and is_entity_id(eid):
                name = (state.get("attributes") or {}).get("friendly_name") or eid
                entities.append(
                    Entity(
                        eid,
                        eid.split(".", 1)[0],
                        (str(name),),
                        (),
                        str(state.get("state")),
                        dict(state.get("attributes") or {}),
                    )
                )
        return HomeContext(tuple(entities))

    def call(self, name: str, args: dict[str, Any]) -> Any:
        """``o1.get_states`` {"entity_ids"} and ``o1.call_service`` {"domain", "service", "entity_id", "data"}."""
        if name == "o1.get_states":
            wanted = set(args["entity_ids"])
            return {"states": [s for s in self._rest("GET", "states") or [] if s.get("entity_id") in wanted]}
        if name == "o1.call_service":
            body = {**args.get("data", {}), "entity_id": args["entity_id"]}
            # Quoted one by one, so that neither name can add a path segment (the broker only passes slugs).
            path = "/".join(urllib.parse.quote(str(args[k]), safe="") for k in ("domain", "service"))
            self._rest("POST", f"services/{path}", body)
            return self.call("o1.get_states", {"entity_ids": args["entity_id"]})
        if name in history.TOOLS:  # state history, logbook (REST), statistics (websocket): history.py
            ws = functools.partial(history.websocket_command, self._url, self._token, self._timeout)
            return history.rest_call(self._rest, ws, name, args)
        raise HomeError("invalid", f"Home Assistant's {name} tool is only available through the o1 integration.")
