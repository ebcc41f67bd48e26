"""The models a turn may name (GET /api/models, a turn's ``model``) and the tokens a turn used (``usage``), over
real TCP with a real agent, Open Interpreter and sandbox; the LLMs are scripted OpenAI-compatible servers."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, ClassVar

import aiohttp
import pytest
from aiohttp import web

from o1_server.agent.backend import LLMConfig, OpenInterpreterBackend
from o1_server.agent.types import AgentReply, TokenUsage
from o1_server.api import MODELS_KEY, build_app
from o1_server.llm import EMBEDDED_MODELS, EmbeddedModel
from o1_server.model_catalog import ModelCatalog, runnable_models
from tests.support.scripted_llm import _TOKENS, ScriptedLLM

TOKEN = "test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
SMALL = EMBEDDED_MODELS["qwen2.5-coder-0.5b"]


class ScriptedLaunch:
    """Starts a second scripted LLM as the server of an embedded model (what EmbeddedLLM does with a GGUF)."""

    started: ClassVar[list[str]] = []

    def __init__(self, spec: EmbeddedModel) -> None:
        self.spec = spec
        self.server = ScriptedLLM()
        self.api_key = "second"
        self.context = 2048

    @property
    def model(self) -> str:
        return f"openai/{self.spec.alias}"

    @property
    def api_base(self) -> str:
        return self.server.api_base

    @property
    def tokenize_url(self) -> str:
        return f"{self.server.api_base}/none"

    async def start(self, timeout: float = 120.0) -> None:
        self.server.start()
        ScriptedLaunch.started.append(self.spec.name)

    async def stop(self) -> None:
        self.server.stop()


async def serve(app: web.Application) -> tuple[web.AppRunner, str]:
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"http://127.0.0.1:{runner.addresses[0][1]}"


@pytest.fixture
async def api_with(make_agent) -> AsyncIterator[Callable[..., Any]]:
    runners: list[web.AppRunner] = []

    async def start(catalog: Callable[[Any], ModelCatalog] | None = None) -> tuple[str, Any]:
        agent = make_agent()
        runner, url = await serve(
            build_app(agent, TOKEN, "9.9.9", "a" * 32, models=catalog(agent) if catalog else None)
        )
        runners.append(runner)
        return url, runner.app

    yield start
    for runner in runners:
        await runner.cleanup()


async def call(method: str, url: str, **kwargs: Any) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as http, http.request(method, url, headers=AUTH, **kwargs) as r:
        return r.status, await r.json()


async def stream(url: str, body: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{url}/api/conversation/stream", headers=AUTH, json=body) as r,
    ):
        raw = await r.read()
        if r.status != 200:
            return r.status, [json.loads(raw)]
        return r.status, [json.loads(line) for line in raw.splitlines()]


def with_small(agent: Any) -> ModelCatalog:
    return ModelCatalog(agent.default_llm, embedded=(SMALL,), launch=ScriptedLaunch)


async def test_models_lists_the_default_alone_without_embedded_models(api_with, llm: ScriptedLLM) -> None:
    url, _ = await api_with()
    status, body = await call("GET", f"{url}/api/models")
    assert status == 200
    assert body == {
        "default": "openai/scripted",
        "models": [{"name": "openai/scripted", "default": True, "embedded": False, "memory_mb": None, "context": None}],
    }
    async with aiohttp.ClientSession() as http, http.get(f"{url}/api/models") as r:
        assert r.status == 401


async def test_models_lists_the_embedded_ones_the_server_can_run(tmp_path: Path, api_with, llm: ScriptedLLM) -> None:
    assert SMALL.file is not None
    (tmp_path / SMALL.file).write_bytes(b"GGUF")
    runnable = runnable_models((tmp_path,))
    assert SMALL in runnable and EMBEDDED_MODELS["qwen2.5-coder-1.5b"] not in runnable  # its file is elsewhere
    url, _ = await api_with(lambda agent: ModelCatalog(agent.default_llm, "embedded", runnable))
    status, body = await call("GET", f"{url}/api/models")
    assert status == 200 and body["default"] == "qwen2.5-coder-1.5b"  # "embedded" is the default embedded model
    names = [m["name"] for m in body["models"]]
    assert names[0] == "qwen2.5-coder-1.5b" and body["models"][0]["default"] is True
    assert "qwen2.5-coder-0.5b" in names and names.count("qwen2.5-coder-1.5b") == 1
    small = next(m for m in body["models"] if m["name"] == "qwen2.5-coder-0.5b")
    assert small == {
        "name": "qwen2.5-coder-0.5b",
        "default": False,
        "embedded": True,
        "memory_mb": 700,
        "context": 4096,
    }


@pytest.mark.parametrize("path", ["/api/conversation", "/api/conversation/stream"])
async def test_an_unknown_model_is_a_400_naming_the_offered_ones(api_with, llm: ScriptedLLM, path: str) -> None:
    url, _ = await api_with(with_small)
    status, body = await call("POST", f"{url}{path}", json={"text": "hi", "model": "gpt-9"})
    assert status == 400 and body["error"] == "unknown_model"
    assert (
        "gpt-9" in body["message"] and "openai/scripted" in body["message"] and "qwen2.5-coder-0.5b" in body["message"]
    )
    assert llm.requests == [] and ScriptedLaunch.started.count("gpt-9") == 0


@pytest.mark.parametrize("model", [5, ["x"], "m" * 201])
async def test_a_model_that_is_not_a_name_is_a_400(api_with, llm: ScriptedLLM, model: object) -> None:
    url, _ = await api_with()
    status, body = await call("POST", f"{url}/api/conversation", json={"text": "hi", "model": model})
    assert status == 400 and body["error"] == "invalid_request" and "'model'" in body["message"]


async def test_the_default_model_by_name_answers_with_the_servers_llm(api_with, llm: ScriptedLLM) -> None:
    llm.script("Hello from the default.")
    url, _ = await api_with(with_small)
    status, body = await call("POST", f"{url}/api/conversation", json={"text": "hi", "model": "openai/scripted"})
    assert status == 200 and body["answer"] == "Hello from the default.", body
    assert len(llm.requests) == 1 and llm.requests[0]["model"] == "scripted"


@pytest.mark.parametrize("path", ["/api/conversation", "/api/conversation/stream"])
async def test_a_model_that_cannot_start_is_a_502_not_a_hang(
    tmp_path: Path, api_with, llm: ScriptedLLM, path: str
) -> None:
    assert SMALL.file is not None
    (tmp_path / SMALL.file).write_bytes(b"not a gguf file at all")  # llama_cpp.server exits on it
    catalog = lambda agent: ModelCatalog(  # noqa: E731
        agent.default_llm, embedded=runnable_models((tmp_path,)), models_dirs=(tmp_path,), start_seconds=60
    )
    url, _ = await api_with(catalog)
    began = time.monotonic()
    status, body = await call("POST", f"{url}{path}", json={"text": "hi", "model": "qwen2.5-coder-0.5b"})
    assert status == 502 and body["error"] == "llm_unavailable", body
    assert "qwen2.5-coder-0.5b could not be started" in body["message"]
    assert time.monotonic() - began < 55  # the child's exit is seen, not waited out
    began = time.monotonic()  # a second turn soon after is refused at once, without another start
    status, again = await call("POST", f"{url}{path}", json={"text": "hi", "model": "qwen2.5-coder-0.5b"})
    assert status == 502 and again["message"] == body["message"] and time.monotonic() - began < 5
    assert llm.requests == []


async def test_the_chosen_model_answers_the_turn_and_its_conversation(api_with, llm: ScriptedLLM) -> None:
    llm.script("From the default.")
    ScriptedLaunch.started.clear()
    url, app = await api_with(with_small)
    body = {"text": "hi", "conversation_id": "m1", "model": "qwen2.5-coder-0.5b"}
    status, reply = await call("POST", f"{url}/api/conversation", json=body)
    assert status == 200, reply
    assert ScriptedLaunch.started == ["qwen2.5-coder-0.5b"] and llm.requests == []
    second = app[MODELS_KEY]._running["qwen2.5-coder-0.5b"].server
    assert second.requests[0]["model"] == "qwen2.5-coder-0.5b"
    status, lines = await stream(url, {"text": "and now?", "conversation_id": "m1"})  # no model: the default
    assert status == 200 and lines[-1]["reply"]["answer"] == "From the default."
    assert len(llm.requests) == 1 and any(m.get("content") == "hi" for m in llm.requests[0]["messages"])


async def test_usage_is_the_sum_of_the_turns_requests(api_with, llm: ScriptedLLM) -> None:
    llm.script("```python\nprint(6 * 7)\n```", "It is 42.")
    url, _ = await api_with()
    status, lines = await stream(url, {"text": "what is six times seven?", "conversation_id": "u1"})
    assert status == 200 and lines[-1]["type"] == "done", lines
    usage = lines[-1]["reply"]["usage"]
    expected = [ScriptedLLM.usage_of(r, 0)["prompt_tokens"] for r in llm.requests]
    written = [len(_TOKENS.findall(reply)) for reply in ("```python\nprint(6 * 7)\n```", "It is 42.")]
    assert usage["requests"] == len(llm.requests) >= 1
    assert usage["prompt_tokens"] == sum(expected) > 0
    assert usage["completion_tokens"] == sum(written[: len(llm.requests)])
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    llm.script("Hi.")
    llm.send_usage = False  # a server that sends no usage (llama_cpp.server 0.3 when streaming): LiteLLM counts
    status, body = await call("POST", f"{url}/api/conversation", json={"text": "hello", "conversation_id": "u1"})
    assert status == 200 and body["usage"]["requests"] == 1 and body["usage"]["prompt_tokens"] > 0, body


def test_the_backend_sums_usage_until_taken(scripted_llm: ScriptedLLM) -> None:
    scripted_llm.script("Hello there.", "And again.")
    backend = OpenInterpreterBackend(
        LLMConfig("openai/scripted", scripted_llm.api_base, "none"),
        "Be brief.",
        ("python",),
        lambda language, code: "",
        500,
    )
    assert list(backend.send("hi", lambda language, code: True)) == ["Hello", " ", "there", "."]
    assert list(backend.send("more", lambda language, code: True))
    first, second = scripted_llm.requests
    assert first["stream_options"] == {"include_usage": True}
    usage = backend.take_usage()
    assert usage == TokenUsage(
        ScriptedLLM.usage_of(first, 0)["prompt_tokens"] + ScriptedLLM.usage_of(second, 0)["prompt_tokens"], 4 + 4, 2
    )
    assert backend.take_usage() is None  # taken: counting starts anew
    scripted_llm.script("Quiet.")
    scripted_llm.send_usage = False  # LiteLLM counts the request itself (its tokenizer for the model)
    assert list(backend.send("and?", lambda language, code: True)) == ["Quiet", "."]
    counted = backend.take_usage()
    assert counted is not None and counted.requests == 1 and counted.prompt_tokens > 0


def test_usage_counts_only_token_counts() -> None:
    usage = TokenUsage()
    assert not usage.add(None) and not usage.add({"prompt_tokens": True, "completion_tokens": 1})
    assert not usage.add({"prompt_tokens": -1, "completion_tokens": 1}) and not usage.add(object())
    assert usage.add({"prompt_tokens": 3, "completion_tokens": 2}) and usage.add(TokenUsage(1, 1))
    assert usage.as_dict() == {"prompt_tokens": 4, "completion_tokens": 3, "total_tokens": 7, "requests": 2}
    reply = AgentReply("c", "p", "ok", usage=usage)
    assert reply.as_dict()["usage"] == usage.as_dict() and AgentReply("c", "p", "ok").as_dict()["usage"] is None
