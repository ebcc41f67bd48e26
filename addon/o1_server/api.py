"""The o1 HTTP API (v1) for the Home Assistant integration, served with aiohttp.

Every route but ``/api/health`` needs ``Authorization: Bearer <token>``. Errors are JSON
``{"error": code, "message": sentence}``: 400 invalid_request, 401 invalid_auth, 404 unknown_profile /
unknown_conversation, 502 llm_unavailable, 504 timeout.

Routes:
- ``GET /api/health`` -> ``{"status": "ok", "version", "server_id"}``
- ``GET /api/info`` -> ``{"version", "api_version", "server_id", "default_profile", "profiles": [...],
  "profile_errors": [...]}``

``server_id`` is the server's stable identity (32 hex digits kept in its data directory, see
``settings.load_server_id``), the unique id of its Home Assistant config entry whatever its URL.
- ``POST /api/conversation`` ``{"text", "conversation_id"?, "profile"?, "language"?}`` -> AgentReply JSON
- ``POST /api/conversation/stream`` (same body) -> NDJSON events: delta, code, then done or error
- ``GET /api/conversation/{id}`` -> ``{"conversation_id", "profile", "turns": [...], "pending", "workdir"}``
- ``DELETE /api/conversation/{id}`` -> 204
- ``POST /api/conversation/{id}/cancel`` -> 204 (stops a running turn) or 404
- ``GET /api/audit?conversation_id=&limit=`` -> ``{"records": [...]}``
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from .agent.service import O1Agent
from .agent.types import AgentError
from .light import LIGHT_PATHS

_LOGGER = logging.getLogger(__name__)
API_VERSION = 1
STATUS = {"invalid_request": 400, "unknown_profile": 404, "llm_unavailable": 502, "timeout": 504, "busy": 503}
AGENT_KEY = web.AppKey("agent", O1Agent)
VERSION_KEY = web.AppKey("version", str)
SERVER_ID_KEY = web.AppKey("server_id", str)
MAX_TEXT = 4000


def _error(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"error": code, "message": message}, status=status)


def _auth_middleware(token: str) -> Callable:
    @web.middleware
    async def middleware(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]):
        # The 01 protocol routes check the token themselves (01 clients cannot send a bearer header).
        if request.path != "/api/health" and request.path not in LIGHT_PATHS:
            given = request.headers.get("Authorization", "")
            if not (given.startswith("Bearer ") and hmac.compare_digest(given[7:].encode(), token.encode())):
                return _error(401, "invalid_auth", "The access token is missing or wrong.")
        return await handler(request)

    return middleware


async def health(request: web.Request) -> web.Response:
    """Liveness, no auth."""
    return web.json_response(
        {"status": "ok", "version": request.app[VERSION_KEY], "server_id": request.app[SERVER_ID_KEY]})


async def info(request: web.Request) -> web.Response:
    """Server version and the profiles it offers."""
    agent = request.app[AGENT_KEY]
    return web.json_response({
        "version": request.app[VERSION_KEY],
        "api_version": API_VERSION,
        "server_id": request.app[SERVER_ID_KEY],
        "default_profile": agent.default_profile,
        "profiles": [p.summary() for p in sorted(agent.profiles.profiles.values(), key=lambda p: p.name)],
        "profile_errors": [str(e) for e in agent.profiles.errors],
    })


async def _turn_request(request: web.Request) -> tuple[str, str | None, str | None, str | None]:
    """Parse and validate a turn's JSON body. Raises web.HTTPBadRequest with our error shape."""
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise _bad("The request body must be JSON.") from None
    if not isinstance(body, dict):
        raise _bad("The request body must be a JSON object.")
    text, cid, profile, language = (body.get(k) for k in ("text", "conversation_id", "profile", "language"))
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
        raise _bad(f"'text' must be a non-empty string of at most {MAX_TEXT} characters.")
    for name, value in (("conversation_id", cid), ("profile", profile), ("language", language)):
        if value is not None and (not isinstance(value, str) or len(value) > 200):
            raise _bad(f"'{name}' must be a string.")
    for name, value in (("text", text), ("conversation_id", cid), ("profile", profile), ("language", language)):
        try:
            (value or "").encode("utf-8")
        except UnicodeEncodeError:
            raise _bad(f"'{name}' is not valid Unicode text.") from None
    return text, cid or None, profile or None, language


def _bad(message: str) -> web.HTTPBadRequest:
    return web.HTTPBadRequest(text=json.dumps({"error": "invalid_request", "message": message}),
                              content_type="application/json")


async def converse(request: web.Request) -> web.Response:
    """Answer one user turn."""
    text, cid, profile, language = await _turn_request(request)
    try:
        reply = await request.app[AGENT_KEY].ask(text, cid, profile, language)
    except AgentError as err:
        return _error(STATUS.get(err.code, 500), err.code, err.message)
    return web.json_response(reply.as_dict())


async def converse_stream(request: web.Request) -> web.StreamResponse:
    """Answer one user turn as newline-delimited JSON events (``application/x-ndjson``).

    Lines: ``{"type": "delta", "text"}`` (answer sentences; concatenated they are the answer),
    ``{"type": "code", "block"}``, then ``{"type": "done", "reply"}`` or ``{"type": "error", "error", "message"}``.
    A bad request or an unknown profile is refused before streaming, with the usual status and JSON error.
    """
    text, cid, profile, language = await _turn_request(request)
    stream = request.app[AGENT_KEY].ask_stream(text, cid, profile, language)
    try:
        first = await anext(stream)
    except AgentError as err:
        return _error(STATUS.get(err.code, 500), err.code, err.message)
    response = web.StreamResponse(headers={"Content-Type": "application/x-ndjson", "Cache-Control": "no-cache"})
    await response.prepare(request)

    async def send(event: dict) -> None:
        if event["type"] == "done":
            event = {"type": "done", "reply": event["reply"].as_dict()}
        await response.write(json.dumps(event).encode() + b"\n")

    try:
        await send(first)
        async for event in stream:
            await send(event)
    except AgentError as err:
        await send({"type": "error", "error": err.code, "message": err.message})
    except ConnectionResetError:
        _LOGGER.info("Streaming client went away")
        return response
    await response.write_eof()
    return response


async def get_conversation(request: web.Request) -> web.Response:
    """A conversation's turns and the code blocks that ran."""
    state = request.app[AGENT_KEY].conversation(request.match_info["conversation_id"])
    if state is None:
        return _error(404, "unknown_conversation", "There is no such conversation.")
    return web.json_response(state)


async def delete_conversation(request: web.Request) -> web.Response:
    """Forget a conversation."""
    request.app[AGENT_KEY].reset(request.match_info["conversation_id"])
    return web.Response(status=204)


async def cancel_conversation(request: web.Request) -> web.Response:
    """Stop a conversation's running turn (it answers with a timeout-like stop); 404 when unknown."""
    if not request.app[AGENT_KEY].cancel(request.match_info["conversation_id"]):
        return _error(404, "unknown_conversation", "There is no such conversation running.")
    return web.Response(status=204)


async def audit(request: web.Request) -> web.Response:
    """The last audit records, optionally of one conversation."""
    try:
        limit = max(1, min(int(request.query.get("limit", "100")), 1000))
    except ValueError:
        return _error(400, "invalid_request", "'limit' must be a number.")
    records = request.app[AGENT_KEY].audit.read(request.query.get("conversation_id"), limit)
    return web.json_response({"records": records})


def build_app(agent: O1Agent, token: str, version: str, server_id: str = "") -> web.Application:
    """Return the aiohttp application. Raises ValueError for an empty token."""
    if not token:
        raise ValueError("the API needs a token")
    app = web.Application(middlewares=[_auth_middleware(token)], client_max_size=64 * 1024)
    app[AGENT_KEY] = agent
    app[VERSION_KEY] = version
    app[SERVER_ID_KEY] = server_id
    app.router.add_get("/api/health", health)
    app.router.add_get("/api/info", info)
    app.router.add_post("/api/conversation", converse)
    app.router.add_post("/api/conversation/stream", converse_stream)
    app.router.add_get("/api/conversation/{conversation_id}", get_conversation)
    app.router.add_delete("/api/conversation/{conversation_id}", delete_conversation)
    app.router.add_post("/api/conversation/{conversation_id}/cancel", cancel_conversation)
    app.router.add_get("/api/audit", audit)
    return app
