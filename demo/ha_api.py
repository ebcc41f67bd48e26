"""A small client for the public APIs of a running Home Assistant: onboarding, REST, WebSocket.

Only what the demo needs, spoken the way HA's own frontend speaks it.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp

# A fresh instance logs in through the IndieAuth-style flow: the client id is just a URL.
_OWNER = {"name": "o1 demo", "username": "demo", "language": "en"}
# Seconds for one WebSocket command's answer (a pipeline run's events are bounded by the caller).
COMMAND_TIMEOUT = 60


class HAError(RuntimeError):
    """Home Assistant answered something the demo cannot use."""


class HomeAssistantREST:
    """HTTP side of one Home Assistant instance."""

    def __init__(self, session: aiohttp.ClientSession, base_url: str):
        """Use `session` to talk to HA at `base_url` (no trailing slash)."""
        self.session = session
        self.base_url = base_url
        self.client_id = f"{base_url}/"
        self.token: str | None = None

    def _headers(self) -> dict[str, str]:
        """Return the Authorization header once logged in."""
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    async def request(self, method: str, path: str, payload: Any = None, *, auth: bool = True) -> Any:
        """Send one JSON request and return the decoded JSON answer; raise HAError on a non-2xx status."""
        headers = self._headers() if auth else {}
        async with self.session.request(method, self.base_url + path, json=payload, headers=headers) as resp:
            text = await resp.text()
            if resp.status >= 300:
                raise HAError(f"{method} {path} -> HTTP {resp.status}: {text[:500]}")
            return await resp.json(content_type=None) if text else None

    async def is_up(self) -> bool:
        """Return True when HA's HTTP server answers the (unauthenticated) onboarding status."""
        try:
            async with self.session.get(self.base_url + "/api/onboarding",
                                        timeout=aiohttp.ClientTimeout(total=3)) as resp:
                return resp.status == 200
        except (aiohttp.ClientError, TimeoutError):
            return False

    async def onboard(self, password: str) -> None:
        """Walk through every onboarding step of a fresh instance and keep the owner's access token."""
        owner = {**_OWNER, "password": password, "client_id": self.client_id}
        created = await self.request("POST", "/api/onboarding/users", owner, auth=False)
        await self._login_with_code(created["auth_code"])
        await self.request("POST", "/api/onboarding/core_config", {})
        await self.request("POST", "/api/onboarding/analytics", {})
        done = await self.request("POST", "/api/onboarding/integration", {
            "client_id": self.client_id,
            "redirect_uri": f"{self.base_url}/?auth_callback=1",
        })
        await self._login_with_code(done["auth_code"])
        remaining = [step["step"] for step in await self.request("GET", "/api/onboarding", auth=False)
                     if not step["done"]]
        if remaining:
            raise HAError(f"onboarding steps left undone: {remaining}")

    async def _login_with_code(self, code: str) -> None:
        """Exchange an authorization code for an access token (OAuth2 code grant)."""
        form = {"grant_type": "authorization_code", "code": code, "client_id": self.client_id}
        async with self.session.post(self.base_url + "/auth/token", data=form) as resp:
            if resp.status != 200:
                raise HAError(f"/auth/token -> HTTP {resp.status}: {await resp.text()}")
            self.token = (await resp.json())["access_token"]

    async def add_integration(self, domain: str, user_input: dict[str, Any]) -> dict[str, Any]:
        """Run `domain`'s config flow (user step, one form) and return the created config entry."""
        flow = await self.request("POST", "/api/config/config_entries/flow",
                                  {"handler": domain, "show_advanced_options": False})
        if flow.get("type") == "form":
            path = f"/api/config/config_entries/flow/{flow['flow_id']}"
            flow = await self.request("POST", path, user_input)
        if flow.get("type") != "create_entry":
            raise HAError(f"the {domain} config flow did not create an entry: "
                          f"{flow.get('type')} {flow.get('reason') or flow.get('errors')}")
        return flow["result"]

    async def download(self, path: str) -> tuple[bytes, str]:
        """GET a file (e.g. a TTS stream) and return its bytes and content type."""
        async with self.session.get(self.base_url + path, headers=self._headers()) as resp:
            body = await resp.read()
            if resp.status != 200:
                raise HAError(f"GET {path} -> HTTP {resp.status}: {body[:300]!r}")
            return body, resp.content_type


class HomeAssistantWS:
    """WebSocket side of one Home Assistant instance (after onboarding gave a token)."""

    def __init__(self, rest: HomeAssistantREST):
        """Connect later with the REST client's session, URL and token."""
        self.rest = rest
        self._ids = itertools.count(1)
        self.ws: aiohttp.ClientWebSocketResponse | None = None

    async def __aenter__(self) -> HomeAssistantWS:
        """Connect and authenticate."""
        await self.connect()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        """Close the socket."""
        await self.close()

    async def connect(self) -> None:
        """Open the socket and authenticate."""
        url = self.rest.base_url.replace("http", "ws", 1) + "/api/websocket"
        self.ws = await self.rest.session.ws_connect(url, max_msg_size=0)
        hello = await self.ws.receive_json()
        if hello.get("type") != "auth_required":
            raise HAError(f"unexpected WebSocket greeting: {hello}")
        await self.ws.send_json({"type": "auth", "access_token": self.rest.token})
        answer = await self.ws.receive_json()
        if answer.get("type") != "auth_ok":
            raise HAError(f"WebSocket authentication failed: {answer}")

    async def close(self) -> None:
        """Close the socket if open."""
        if self.ws is not None:
            await self.ws.close()

    async def _send(self, message: dict[str, Any]) -> int:
        """Send a command with a fresh id and return the id."""
        assert self.ws is not None, "connect() first"
        message_id = next(self._ids)
        await self.ws.send_json({"id": message_id, **message})
        return message_id

    async def _receive(self, message_id: int) -> dict[str, Any]:
        """Return the next message about `message_id`, skipping others; raise if the socket closes."""
        assert self.ws is not None
        while True:
            msg = await self.ws.receive()
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise HAError(f"WebSocket closed or broke: {msg.type.name} {msg.data!r}")
            for item in _json_messages(msg):
                if item.get("id") == message_id:
                    return item

    async def command(self, type_: str, **fields: Any) -> Any:
        """Send one command and return its result; raise HAError with HA's error message on failure."""
        message_id = await self._send({"type": type_, **fields})
        async with asyncio.timeout(COMMAND_TIMEOUT):
            answer = await self._receive(message_id)
        if not answer.get("success"):
            raise HAError(f"{type_} failed: {answer.get('error')}")
        return answer.get("result")

    async def subscribe(self, type_: str, **fields: Any) -> tuple[int, AsyncIterator[dict[str, Any]]]:
        """Send a subscription command; return its id and an iterator over its events' payloads."""
        message_id = await self._send({"type": type_, **fields})
        async with asyncio.timeout(COMMAND_TIMEOUT):
            answer = await self._receive(message_id)
        if not answer.get("success"):
            raise HAError(f"{type_} failed: {answer.get('error')}")

        async def events() -> AsyncIterator[dict[str, Any]]:
            while True:
                item = await self._receive(message_id)
                if item.get("type") == "event":
                    yield item["event"]

        return message_id, events()

    async def send_binary(self, data: bytes) -> None:
        """Send one binary frame (audio for a pipeline's speech-to-text stage)."""
        assert self.ws is not None
        await self.ws.send_bytes(data)


def _json_messages(msg: aiohttp.WSMessage) -> list[dict[str, Any]]:
    """Return the messages of a text frame (HA may coalesce several into one JSON list)."""
    data = msg.json()
    return data if isinstance(data, list) else [data]


async def wait_for(check: Callable[[], Any], what: str, limit: float, interval: float = 0.5,
                   alive: Callable[[], None] | None = None) -> Any:
    """Poll the coroutine function `check` until it returns something truthy; raise after `limit` seconds.

    `alive`, if given, is called on every round and should raise when a process we wait for has died.
    """
    deadline = asyncio.get_running_loop().time() + limit
    while True:
        if alive is not None:
            alive()
        result = await check()
        if result:
            return result
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"{what}: nothing after {limit:.0f} s")
        await asyncio.sleep(interval)
