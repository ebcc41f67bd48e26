"""The o1 HTTP API (v1) for the Home Assistant integration, served with aiohttp.

Every route but ``/api/health`` needs ``Authorization: Bearer <token>``; errors are JSON
``{"error": code, "message": sentence}`` on every route. Handlers never block the event loop (disk work runs in
worker threads). The 01 WebSocket's routes are added by :mod:`o1_server.protocol_01`, not here. The routes,
their bodies and the error codes: see docs/protocols.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import Any
from urllib.parse import unquote

from aiohttp import BodyPartReader, MultipartReader, web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Handler, Middleware

from .agent.attachments import MAX_FILE_BYTES, MAX_FILES
from .agent.backend import LLMConfig
from .agent.home import HomeContext
from .agent.sandbox import describe_isolation
from .agent.service import O1Agent
from .agent.types import MAX_TURN_CHARS, AgentError
from .agent.wire import loads, token_matches
from .http_deadlines import Deadlines
from .model_catalog import ModelCatalog, ModelUnavailable, UnknownModel
from .peer_guard import CODE as SANDBOX_PEER
from .peer_guard import PeerGuard
from .protocol_01 import LIGHT_PATHS

_LOGGER = logging.getLogger(__name__)
API_VERSION = 1
STATUS = {"invalid_request": 400, "unknown_profile": 404, "llm_unavailable": 502, "timeout": 504, "busy": 503}
AGENT_KEY = web.AppKey("agent", O1Agent)
VERSION_KEY = web.AppKey("version", str)
SERVER_ID_KEY = web.AppKey("server_id", str)
MODELS_KEY = web.AppKey("models", ModelCatalog)
"""The models a turn may name (``GET /api/models``, a turn's ``model``)."""
DEADLINES_KEY = web.AppKey("deadlines", Deadlines)
"""The app's read deadlines: ``app[DEADLINES_KEY].site(runner, host, port)`` is the site that keeps them."""
MAX_TEXT = MAX_TURN_CHARS
HTTP_CHANNEL = "http"
"""The agent channel of every HTTP API turn: whoever holds the API token (a confirmation asked over the API
is answered over the API only)."""
MAX_BODY = 1024 * 1024  # bytes: a turn may carry the home's exposed entities
MAX_INSTRUCTIONS = 8000
"""Longest ``instructions`` of a turn, in characters (an agent's prompt from Home Assistant)."""
HTTP_CODES = {
    400: "invalid_request",
    401: "invalid_auth",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "request_too_large",
    415: "invalid_request",
}


def _error(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"error": code, "message": message}, status=status)


@web.middleware
async def _json_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every error leaves as ``{"error", "message"}`` JSON: aiohttp's own (404, 405, 413...) and unexpected ones."""
    try:
        return await handler(request)
    except web.HTTPException as err:
        if err.content_type == "application/json" or err.status < 400:
            raise
        code = HTTP_CODES.get(err.status, "internal_error" if err.status >= 500 else "invalid_request")
        return web.json_response(
            {"error": code, "message": err.reason + "."},
            status=err.status,
            headers={k: v for k, v in err.headers.items() if k.lower() == "allow"},
        )
    except (asyncio.CancelledError, ConnectionResetError):
        raise
    except Exception:  # logged; the client gets a JSON 500 instead of a text page
        _LOGGER.exception("Error while serving %s %s", request.method, request.path)
        return _error(500, "internal_error", "Something went wrong on the server; see its log.")


def _peer_middleware(guard: PeerGuard) -> Middleware:
    """Refuse, before routing, auth or reading the body, a client whose socket belongs to generated code."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        transport = request.transport
        if transport is None:  # the client is gone already
            raise ConnectionResetError("the client closed the connection")
        verdict = await guard.check(transport)
        if not verdict.allowed:
            response = _error(403, SANDBOX_PEER, f"Connection refused: {verdict.reason}.")
            response.force_close()
            return response
        return await handler(request)

    return middleware


def _auth_middleware(token: str) -> Middleware:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        # The 01 protocol routes check the token themselves (01 clients cannot send a bearer header).
        if request.path != "/api/health" and request.path not in LIGHT_PATHS:
            given = request.headers.get("Authorization", "")
            if not (given.startswith("Bearer ") and token_matches(given[7:], token)):
                return _error(401, "invalid_auth", "The access token is missing or wrong.")
        return await handler(request)

    return middleware


async def health(request: web.Request) -> web.Response:
    """Liveness, no auth; ``server_id`` is the server's stable identity; ``sandbox`` is the isolation mode of
    code blocks (``bubblewrap`` or ``rlimits``)."""
    return web.json_response(
        {
            "status": "ok",
            "version": request.app[VERSION_KEY],
            "server_id": request.app[SERVER_ID_KEY],
            "sandbox": describe_isolation()["mode"],
        }
    )


async def info(request: web.Request) -> web.Response:
    """Server version and the profiles it offers."""
    agent = request.app[AGENT_KEY]
    return web.json_response(
        {
            "version": request.app[VERSION_KEY],
            "api_version": API_VERSION,
            "server_id": request.app[SERVER_ID_KEY],
            "default_profile": agent.default_profile,
            "profiles": [p.summary() for p in sorted(agent.profiles.profiles.values(), key=lambda p: p.name)],
            "profile_errors": [str(e) for e in agent.profiles.errors],
            "sandbox": describe_isolation(),
        }
    )


async def list_models(request: web.Request) -> web.Response:
    """The models a turn may name: ``{"default": name, "models": [OfferedModel.as_dict()...]}``, the
    default first."""
    catalog = request.app[MODELS_KEY]
    return web.json_response({"default": catalog.default_name, "models": [m.as_dict() for m in catalog.offered()]})


async def _json_body(request: web.Request) -> object:
    """The request's body as JSON. Raises web.HTTPBadRequest with our error shape for anything unreadable
    (not JSON, not UTF-8, nested too deeply)."""
    try:
        return loads(await request.read())
    except ValueError as err:
        raise _bad(f"The request body must be JSON ({err}).") from None


TurnRequest = tuple[str, str | None, str | None, str | None, HomeContext | None, str | None, str | None]


async def _turn_request(request: web.Request) -> TurnRequest:
    """Parse and validate a turn's JSON body: (text, conversation_id, profile, language, home, instructions,
    model). Raises web.HTTPBadRequest with our error shape (``unknown_model`` for a model the server does not
    offer)."""
    body = await _json_body(request)
    if not isinstance(body, dict):
        raise _bad("The request body must be a JSON object.")
    text, cid, profile, language, model = (
        body.get(k) for k in ("text", "conversation_id", "profile", "language", "model")
    )
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
        raise _bad(f"'text' must be a non-empty string of at most {MAX_TEXT} characters.")
    for name, value in (("conversation_id", cid), ("profile", profile), ("language", language), ("model", model)):
        if value is not None and (not isinstance(value, str) or len(value) > 200):
            raise _bad(f"'{name}' must be a string.")
    for name, value in (("text", text), ("conversation_id", cid), ("profile", profile), ("language", language)):
        try:
            (value or "").encode("utf-8")
        except UnicodeEncodeError:
            raise _bad(f"'{name}' is not valid Unicode text.") from None
    instructions = body.get("instructions")
    if instructions is not None and (not isinstance(instructions, str) or len(instructions) > MAX_INSTRUCTIONS):
        raise _bad(f"'instructions' must be a string of at most {MAX_INSTRUCTIONS} characters.")
    # Lone surrogates cannot reach the LLM: they become "?".
    instructions = instructions.encode("utf-8", "replace").decode("utf-8") if instructions else None
    if instructions:  # control and bidi characters (a terminal escape, a right-to-left override) are not text
        instructions = _CONTROL.sub("", instructions) or None
    home = None
    if body.get("home") is not None:
        try:
            home = HomeContext.from_json(body["home"])
        except ValueError as err:
            raise _bad(str(err)) from None
    if model:
        try:
            model = request.app[MODELS_KEY].check(model)
        except UnknownModel as err:
            raise _bad(str(err), "unknown_model") from None
    return text, cid or None, profile or None, language, home, instructions, model or None


def _bad(message: str, code: str = "invalid_request") -> web.HTTPBadRequest:
    return web.HTTPBadRequest(text=json.dumps({"error": code, "message": message}), content_type="application/json")


async def _turn_llm(request: web.Request, model: str | None) -> dict[str, LLMConfig]:
    """The keyword argument that gives a turn the LLM of its ``model`` (none for the server's default LLM).
    Raises AgentError(llm_unavailable) when that model's server cannot be started."""
    catalog = request.app[MODELS_KEY]
    if model is None or catalog.is_default(model):
        return {}
    try:
        return {"llm": await catalog.resolve(model)}
    except ModelUnavailable as err:
        raise AgentError("llm_unavailable", str(err)) from None


async def converse(request: web.Request) -> web.Response:
    """Answer one user turn."""
    text, cid, profile, language, home, instructions, model = await _turn_request(request)
    try:
        llm = await _turn_llm(request, model)
        reply = await request.app[AGENT_KEY].ask(
            text, cid, profile, language, channel=HTTP_CHANNEL, home=home, instructions=instructions, **llm
        )
    except AgentError as err:
        return _error(STATUS.get(err.code, 500), err.code, err.message)
    return web.json_response(reply.as_dict())


async def converse_stream(request: web.Request) -> web.StreamResponse:
    """Answer one user turn as newline-delimited JSON events (``application/x-ndjson``).

    Lines: ``{"type": "delta", "text"}`` (answer sentences; concatenated they are the answer),
    ``{"type": "code", "block"}``, ``{"type": "home", "call"}`` (a Home Assistant call of the code, allowed or
    refused), ``{"type": "tool_call", "turn_id", "id", "name", "args"}`` (only when the request had ``home``:
    run it and post the result to ``/api/turns/{turn_id}/tool_results/{id}``), then ``{"type": "done",
    "reply"}`` or ``{"type": "error", "error", "message"}``.
    A bad request, an unknown profile or model, or a model that cannot be started is refused before streaming,
    with the usual status and JSON error. The ``done`` reply's ``usage`` is the turn's tokens (see
    ``AgentReply``).
    """
    text, cid, profile, language, home, instructions, model = await _turn_request(request)
    try:
        llm = await _turn_llm(request, model)
    except AgentError as err:
        return _error(STATUS.get(err.code, 500), err.code, err.message)
    # A caller that sends Home Assistant context runs the turn's Home Assistant tools (tool_call events).
    stream = request.app[AGENT_KEY].ask_stream(
        text,
        cid,
        profile,
        language,
        channel=HTTP_CHANNEL,
        home=home,
        relay=home is not None,
        instructions=instructions,
        **llm,
    )
    try:
        first = await anext(stream)
    except AgentError as err:
        return _error(STATUS.get(err.code, 500), err.code, err.message)
    response = web.StreamResponse(headers={"Content-Type": "application/x-ndjson", "Cache-Control": "no-cache"})
    await response.prepare(request)

    async def send(event: dict[str, Any]) -> None:
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


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _first_line(err: Exception, limit: int = 120) -> str:
    text = (str(err).splitlines() or [type(err).__name__])[0]
    return text[:limit]


async def _read_files(reader: MultipartReader) -> list[tuple[str, bytes]] | web.Response:
    """The files of a multipart body as (name, bytes), or the error answer for a part out of bounds."""
    files: list[tuple[str, bytes]] = []
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader) or not part.filename:
            return _error(400, "invalid_request", "Every part must be a file with a file name.")
        if len(files) == MAX_FILES:
            return _error(413, "request_too_large", f"At most {MAX_FILES} files at a time.")
        data = bytearray()
        while chunk := await part.read_chunk():
            data += chunk
            if len(data) > MAX_FILE_BYTES:
                return _error(413, "request_too_large", f"A file may hold at most {MAX_FILE_BYTES} bytes.")
        files.append((unquote(part.filename), bytes(data)))  # aiohttp's client quotes "/" and the like
    return files


async def put_files(request: web.Request) -> web.Response:
    """Store files in a conversation's folder (of ``?profile=``, else the default profile) for its code.

    The body is ``multipart/form-data``, one part per file (its ``filename`` is the name, made safe); at most
    ``MAX_FILES`` parts of ``MAX_FILE_BYTES`` each (413 beyond). Answers ``{"files": [names as stored]}``.
    """
    conversation_id = request.match_info["conversation_id"]
    if len(conversation_id) > 200:
        return _error(400, "invalid_request", "'conversation_id' must be a string.")
    try:
        reader = await request.multipart()
    except (AssertionError, ValueError, KeyError):  # aiohttp asserts the multipart content type
        return _error(415, "invalid_request", "The body must be multipart/form-data.")
    deadlines = request.app[DEADLINES_KEY]
    try:
        async with asyncio.timeout(deadlines.body_seconds):  # the body middleware leaves multipart to us
            files = await _read_files(reader)
    except TimeoutError:
        return deadlines.timed_out()
    except (ValueError, HttpProcessingError) as err:  # no boundary, cut short, a part header too long or broken
        return _error(400, "invalid_request", f"The multipart body cannot be read: {_first_line(err)}")
    if isinstance(files, web.Response):
        return files
    if not files:
        return _error(400, "invalid_request", "The request holds no file.")
    agent = request.app[AGENT_KEY]
    try:
        names = await agent.attach(conversation_id, files, request.query.get("profile") or None, HTTP_CHANNEL)
    except AgentError as err:
        return _error(STATUS.get(err.code, 500), err.code, err.message)
    return web.json_response({"files": names})


async def tool_result(request: web.Request) -> web.Response:
    """The integration's answer to a ``tool_call`` event of a running turn."""
    payload = await _json_body(request)
    if not isinstance(payload, dict) or not ("result" in payload or "error" in payload):
        return _error(400, "invalid_request", 'The body must be {"result": ...} or {"error", "message"}.')
    agent = request.app[AGENT_KEY]
    if not agent.deliver_tool_result(request.match_info["turn_id"], request.match_info["call_id"], payload):
        return _error(404, "unknown_call", "No turn is waiting for that tool result.")
    return web.Response(status=204)


async def get_conversation(request: web.Request) -> web.Response:
    """A conversation's turns and the code blocks that ran (of its first profile, or of ``?profile=``)."""
    state = await asyncio.to_thread(
        request.app[AGENT_KEY].conversation, request.match_info["conversation_id"], request.query.get("profile") or None
    )
    if state is None:
        return _error(404, "unknown_conversation", "There is no such conversation.")
    return web.json_response(state)


async def delete_conversation(request: web.Request) -> web.Response:
    """Forget a conversation."""
    await asyncio.to_thread(request.app[AGENT_KEY].reset, request.match_info["conversation_id"])
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
    records = await asyncio.to_thread(request.app[AGENT_KEY].audit.read, request.query.get("conversation_id"), limit)
    return web.json_response({"records": records})


def build_app(
    agent: O1Agent,
    token: str,
    version: str,
    server_id: str = "",
    peer_guard: PeerGuard | None = None,
    deadlines: Deadlines | None = None,
    models: ModelCatalog | None = None,
) -> web.Application:
    """Return the aiohttp application. Raises ValueError for an empty token.

    ``models`` (default: a catalog of the agent's default LLM alone) are the models turns may name; the model
    servers it started are stopped with the app (``on_cleanup``).

    ``peer_guard`` checks every request's client first (default: a :class:`PeerGuard` auditing to the
    agent's audit log); the 01 routes added later by ``protocol_01.add_light_routes`` are covered too.
    ``deadlines`` (default: ``Deadlines()``, kept as ``app[DEADLINES_KEY]``) bounds the reading of a request's
    body (``408``) and, served through ``app[DEADLINES_KEY].site(...)``, of its headers."""
    if not token:
        raise ValueError("the API needs a token")
    guard = peer_guard or PeerGuard.for_agent("http", agent)
    deadlines = deadlines or Deadlines()
    app = web.Application(
        middlewares=[
            deadlines.middleware,
            _peer_middleware(guard),
            _json_errors,
            _auth_middleware(token),
            deadlines.body_middleware,
        ],
        client_max_size=MAX_BODY,
    )
    app[DEADLINES_KEY] = deadlines
    app[AGENT_KEY] = agent
    app[VERSION_KEY] = version
    app[SERVER_ID_KEY] = server_id
    catalog = models or ModelCatalog(agent.default_llm)
    app[MODELS_KEY] = catalog

    async def stop_models(_: web.Application) -> None:
        await catalog.stop()

    app.on_cleanup.append(stop_models)
    app.router.add_get("/api/health", health)
    app.router.add_get("/api/info", info)
    app.router.add_get("/api/models", list_models)
    app.router.add_post("/api/conversation", converse)
    app.router.add_post("/api/conversation/stream", converse_stream)
    app.router.add_get("/api/conversation/{conversation_id}", get_conversation)
    app.router.add_delete("/api/conversation/{conversation_id}", delete_conversation)
    app.router.add_post("/api/conversation/{conversation_id}/cancel", cancel_conversation)
    app.router.add_post("/api/conversation/{conversation_id}/files", put_files)
    app.router.add_get("/api/audit", audit)
    app.router.add_post("/api/turns/{turn_id}/tool_results/{call_id}", tool_result)
    return app
