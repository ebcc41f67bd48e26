"""A small stand-in for the o1 server's HTTP API (v1), for the integration's tests.

It listens on 127.0.0.1 on a free port, records every request, and can be told
to fail in the ways the real server (or the network) can. ``POST /api/conversation/stream``
answers in NDJSON like the real server; ``StubO1Server.stream`` scripts its lines,
including a dropped connection, a clean end before ``done``, or a pause.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
import json
import re
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
            # What the real server sends for a profile that does not choose (its default).
            "llm_hass_api": ["assist"],
        },
    ],
}


# GET /api/models of a server with embedded models beside its default (None on the stub: an older server, 404).
MODELS: dict[str, Any] = {
    "default": "qwen2.5-coder-1.5b",
    "models": [
        {"name": "qwen2.5-coder-1.5b", "default": True, "embedded": True, "memory_mb": 1950, "context": 4096},
        {"name": "qwen2.5-coder-0.5b", "default": False, "embedded": True, "memory_mb": 700, "context": 4096},
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


class StreamAction(Enum):
    """What a scripted stream does instead of sending a line."""

    DROP = "drop"  # close the TCP connection abruptly (mid chunked body)
    END = "end"  # end the HTTP response cleanly, without a done event
    HANG = "hang"  # stop sending until the stub stops
    GATE = "gate"  # wait until the test sets StubO1Server.gate


def sentences(answer: str) -> list[str]:
    """Split an answer into the deltas the server streams (joined, they are the answer)."""
    parts = [part for part in re.split(r"(?<=[.!?])\s+", answer) if part]
    return parts[:1] + [f" {part}" for part in parts[1:]]


def default_stream(request: dict[str, Any], reply: dict[str, Any]) -> list[Any]:
    """Stream a reply the way the server does: code blocks, the answer's sentences, done."""
    return [
        *({"type": "code", "block": block} for block in reply["code_blocks"]),
        *({"type": "delta", "text": text} for text in sentences(reply["answer"])),
        {"type": "done", "reply": reply},
    ]


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
        # What the server counts: here one request, its prompt the words of the text.
        "usage": {
            "prompt_tokens": 100 + len(text.split()),
            "completion_tokens": 7,
            "total_tokens": 107 + len(text.split()),
            "requests": 1,
        },
    }


@dataclass
class StubO1Server:
    """The stub server and the knobs tests turn."""

    token: str = TOKEN
    # The server's stable id, served by /api/health and /api/info (None: an older server without one).
    server_id: str | None = field(default_factory=lambda: uuid.uuid4().hex)
    info: dict[str, Any] = field(default_factory=lambda: copy.deepcopy(DEFAULT_INFO))
    # GET /api/models' body (None: the route is missing, as on a server older than 0.2.0).
    models: dict[str, Any] | None = None
    reply: Callable[[dict[str, Any]], dict[str, Any]] = default_reply
    # (request, reply) -> the lines of the streamed answer: dicts (events), bytes (raw) or StreamActions.
    stream: Callable[[dict[str, Any], dict[str, Any]], list[Any]] = default_stream
    # Endpoint ("health", "info", "conversation", "stream", "delete", "get", "tool_result") -> failure to
    # serve instead.
    # "conversation" applies to the streaming endpoint too, unless "stream" is set.
    failures: dict[str, Failure] = field(default_factory=dict)
    requests: list[RecordedRequest] = field(default_factory=list)
    conversations: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    port: int = 0
    # Lines actually written by the streaming endpoint, and the gate StreamAction.GATE waits for.
    streamed: list[Any] = field(default_factory=list)
    gate: asyncio.Event = field(default_factory=asyncio.Event)
    # POST /api/turns/{turn}/tool_results/{call}: the answers received, by (turn, call); a call id in
    # `gone_calls` is answered 404 (the server no longer waits for it).
    tool_results: dict[tuple[str, str], Any] = field(default_factory=dict)
    gone_calls: set[str] = field(default_factory=set)
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
        app.router.add_get("/api/models", self._models)
        app.router.add_post("/api/conversation", self._converse)
        app.router.add_post("/api/conversation/stream", self._converse_stream)
        app.router.add_delete("/api/conversation/{conversation_id}", self._delete)
        app.router.add_get("/api/conversation/{conversation_id}", self._get)
        app.router.add_post("/api/turns/{turn_id}/tool_results/{call_id}", self._tool_result)
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

    async def _failure(self, *names: str) -> web.Response | None:
        """Return the failure response configured for an endpoint (first name found), if any."""
        failure = next((self.failures[n] for n in names if n in self.failures), None)
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
        health = {"status": "ok", "version": self.info.get("version")}
        if self.server_id is not None:
            health["server_id"] = self.server_id
        return web.json_response(health)

    async def _info(self, request: web.Request) -> web.Response:
        """Serve GET /api/info."""
        await self._record(request)
        if not self._authorised(request):
            return self._unauthorised()
        if (failure := await self._failure("info")) is not None:
            return failure
        if self.server_id is not None:
            return web.json_response({**self.info, "server_id": self.server_id})
        return web.json_response(self.info)

    async def _models(self, request: web.Request) -> web.Response:
        """Serve GET /api/models (404 while `models` is None)."""
        await self._record(request)
        if not self._authorised(request):
            return self._unauthorised()
        if (failure := await self._failure("models")) is not None:
            return failure
        if self.models is None:
            return web.json_response({"error": "not_found", "message": "Not Found."}, status=404)
        return web.json_response(self.models)

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

    async def _converse_stream(self, request: web.Request) -> web.StreamResponse:
        """Serve POST /api/conversation/stream (NDJSON events, scripted by `stream`)."""
        await self._record(request)
        if not self._authorised(request):
            return self._unauthorised()
        if (failure := await self._failure("stream", "conversation")) is not None:
            return failure
        body = self.requests[-1].json
        reply = self.reply(body)
        self.conversations.setdefault(reply["conversation_id"], []).append(
            {"text": body["text"], "answer": reply["answer"], "code_blocks": reply["code_blocks"]}
        )
        response = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
        await response.prepare(request)
        for item in self.stream(body, reply):
            if item is StreamAction.DROP:
                assert request.transport is not None
                request.transport.close()
                return response
            if item is StreamAction.END:
                break
            if item is StreamAction.HANG:
                await self._release.wait()
                return response
            if item is StreamAction.GATE:
                await self.gate.wait()
                continue
            line = item if isinstance(item, bytes) else json.dumps(item).encode() + b"\n"
            await response.write(line)
            self.streamed.append(item)
        await response.write_eof()
        return response

    async def _tool_result(self, request: web.Request) -> web.Response:
        """Serve POST /api/turns/{turn_id}/tool_results/{call_id} (the result of a relayed tool call)."""
        await self._record(request)
        if not self._authorised(request):
            return self._unauthorised()
        call_id = request.match_info["call_id"]
        if (failure := await self._failure("tool_result")) is not None:
            return failure
        if call_id in self.gone_calls:
            return web.json_response(
                {"error": "not_found", "message": "No such tool call."}, status=404
            )
        self.tool_results[(request.match_info["turn_id"], call_id)] = self.requests[-1].json
        return web.Response(status=204)

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
