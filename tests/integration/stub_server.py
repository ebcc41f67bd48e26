"""A small stand-in for the o1 server's HTTP API (v1), for the integration's tests.

It listens on 127.0.0.1 on a free port, records every request, and can be told
to fail in the ways the real server (or the network) can.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
import uuid

from aiohttp import web

TOKEN = "stub-secret-token"

DEFAULT_INFO: dict[str, Any] = {
    "version": "0.1.0",
    "api_version": 1,
    "default_profile": "default",
    "profiles": [
        {
            "name": "default",
            "description": "Answers questions, runs safe code",
            "ha_access": "read",
            "languages": ["python", "shell"],
        },
        {
            "name": "coder",
            "description": "",
            "ha_access": "control",
            "languages": ["python"],
        },
    ],
}


@dataclass
class RecordedRequest:
    """One request the stub received."""

    method: str
    path: str
    headers: dict[str, str]
    json: Any


@dataclass
class Failure:
    """How the stub answers instead of the normal reply."""

    status: int = 500
    body: Any = None
    raw: bytes | None = None
    delay: float = 0.0


def default_reply(request: dict[str, Any]) -> dict[str, Any]:
    """Answer a conversation turn by echoing the text (code blocks on request)."""
    text = request["text"]
    code_blocks: list[dict[str, Any]] = []
    if "code" in text:
        code_blocks.append(
            {
                "language": "python",
                "code": "print(6 * 7)",
                "decision": "allow",
                "category": ["compute"],
                "reason": "safe arithmetic",
                "exit_status": 0,
                "output": "42\n",
                "seconds": 0.01,
            }
        )
    return {
        "conversation_id": request.get("conversation_id") or uuid.uuid4().hex,
        "profile": request.get("profile") or "default",
        "answer": f"You said: {text}",
        "continue_conversation": text.rstrip().endswith("?"),
        "code_blocks": code_blocks,
    }


@dataclass
class StubO1Server:
    """The stub server and the knobs tests turn."""

    token: str = TOKEN
    info: dict[str, Any] = field(default_factory=lambda: copy.deepcopy(DEFAULT_INFO))
    reply: Callable[[dict[str, Any]], dict[str, Any]] = default_reply
    # Endpoint ("health", "info", "conversation", "delete", "get") -> failure to serve instead.
    failures: dict[str, Failure] = field(default_factory=dict)
    requests: list[RecordedRequest] = field(default_factory=list)
    conversations: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    port: int = 0
    _runner: web.AppRunner | None = None
    _release: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def url(self) -> str:
        """Return the base URL of the running stub."""
        return f"http://127.0.0.1:{self.port}"

    def requests_to(self, method: str, path_prefix: str) -> list[RecordedRequest]:
        """Return the recorded requests of a method whose path starts with a prefix."""
        return [
            r
            for r in self.requests
            if r.method == method and r.path.startswith(path_prefix)
        ]

    async def start(self, port: int = 0) -> None:
        """Start listening on 127.0.0.1 (a free port unless one is given)."""
        app = web.Application()
        app.router.add_get("/api/health", self._health)
        app.router.add_get("/api/info", self._info)
        app.router.add_post("/api/conversation", self._converse)
        app.router.add_delete("/api/conversation/{conversation_id}", self._delete)
        app.router.add_get("/api/conversation/{conversation_id}", self._get)
        self._release = asyncio.Event()
        self._runner = web.AppRunner(app, shutdown_timeout=1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        """Release slow handlers and stop listening."""
        self._release.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _record(self, request: web.Request) -> None:
        """Remember a request."""
        body = None
        if request.can_read_body:
            body = await request.json()
        self.requests.append(
            RecordedRequest(request.method, request.path, dict(request.headers), body)
        )

    def _authorised(self, request: web.Request) -> bool:
        """Return whether the request carries the right bearer token."""
        return request.headers.get("Authorization") == f"Bearer {self.token}"

    async def _failure(self, name: str) -> web.Response | None:
        """Return the failure response configured for an endpoint, if any."""
        failure = self.failures.get(name)
        if failure is None:
            return None
        if failure.delay:
            try:
                await asyncio.wait_for(self._release.wait(), failure.delay)
            except TimeoutError:
                pass
        if failure.raw is not None:
            return web.Response(
                status=failure.status, body=failure.raw, content_type="text/plain"
            )
        if failure.body is None:
            return web.Response(status=failure.status)
        return web.json_response(failure.body, status=failure.status)

    @staticmethod
    def _unauthorised() -> web.Response:
        """Return the API's 401 reply."""
        return web.json_response(
            {"error": "invalid_auth", "message": "The access token is not valid."},
            status=401,
        )

    async def _health(self, request: web.Request) -> web.Response:
        """Serve GET /api/health."""
        await self._record(request)
        if (failure := await self._failure("health")) is not None:
            return failure
        return web.json_response({"status": "ok", "version": self.info["version"]})

    async def _info(self, request: web.Request) -> web.Response:
        """Serve GET /api/info."""
        await self._record(request)
        if not self._authorised(request):
            return self._unauthorised()
        if (failure := await self._failure("info")) is not None:
            return failure
        return web.json_response(self.info)

    async def _converse(self, request: web.Request) -> web.Response:
        """Serve POST /api/conversation."""
        await self._record(request)
        if not self._authorised(request):
            return self._unauthorised()
        if (failure := await self._failure("conversation")) is not None:
            return failure
        body = self.requests[-1].json
        reply = self.reply(body)
        self.conversations.setdefault(reply["conversation_id"], []).append(
            {"text": body["text"], "answer": reply["answer"], "code_blocks": reply["code_blocks"]}
        )
        return web.json_response(reply)

    async def _delete(self, request: web.Request) -> web.Response:
        """Serve DELETE /api/conversation/{id}."""
        await self._record(request)
        if not self._authorised(request):
            return self._unauthorised()
        if (failure := await self._failure("delete")) is not None:
            return failure
        conversation_id = request.match_info["conversation_id"]
        if self.conversations.pop(conversation_id, None) is None:
            return web.json_response(
                {"error": "not_found", "message": "No such conversation."}, status=404
            )
        return web.Response(status=204)

    async def _get(self, request: web.Request) -> web.Response:
        """Serve GET /api/conversation/{id}."""
        await self._record(request)
        if not self._authorised(request):
            return self._unauthorised()
        if (failure := await self._failure("get")) is not None:
            return failure
        conversation_id = request.match_info["conversation_id"]
        if (turns := self.conversations.get(conversation_id)) is None:
            return web.json_response(
                {"error": "not_found", "message": "No such conversation."}, status=404
            )
        return web.json_response(
            {"conversation_id": conversation_id, "profile": "default", "turns": turns}
        )
