"""The real ``o1-server`` process on its embedded defaults: whisper tiny.en, piper joe, Qwen2.5-Coder-1.5B + Open Interpreter.

This is the suite's test on a real local model: no scripted LLM.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from wyoming.client import AsyncTcpClient
from wyoming.info import Describe, Info

from tests.support.o1_process import O1Process, start_o1


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[O1Process]:
    """One real server for the module."""
    proc = start_o1(tmp_path_factory.mktemp("o1-data"))
    yield proc
    assert proc.stop() == 0, "\n".join(proc.log[-30:])


async def test_wyoming_advertises_asr_tts_and_handle(server: O1Process) -> None:
    async with AsyncTcpClient("127.0.0.1", server.wyoming_port) as client:
        await client.write_event(Describe().event())
        event = await asyncio.wait_for(client.read_event(), 10)
    info = Info.from_event(event)
    assert info.asr and info.tts and info.handle
    assert info.asr[0].installed and info.tts[0].installed and info.handle[0].installed


async def test_real_local_model_answers_by_running_code(server: O1Process) -> None:
    headers = {"Authorization": f"Bearer {server.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.post(f"{server.api_url}/api/conversation",
                             json={"text": "What is 7 times 6?", "conversation_id": "real-1"}) as r:
            body = await r.json()
        async with http.get(f"{server.api_url}/api/conversation/real-1") as r:
            record = await r.json()
    ran = [b for b in body["code_blocks"] if b["decision"] == "allow"]
    assert ran and ran[0]["exit_status"] == 0, body
    assert "42" in ran[0]["output"] and "42" in body["answer"], body
    assert Path(record["workdir"]).is_dir()
    assert Path(record["workdir"]).parent == server.data_dir / "sandbox"


async def test_bad_token_is_refused(server: O1Process) -> None:
    async with aiohttp.ClientSession() as http, http.get(
        f"{server.api_url}/api/info", headers={"Authorization": "Bearer nope"}
    ) as r:
        assert r.status == 401


async def test_01_light_endpoint_is_served_on_the_api_port(server: O1Process) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{server.api_url}/ping") as r:
            assert r.status == 200 and (await r.text()).strip() == "pong"
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"ws://127.0.0.1:{server.api_port}/?token=nope")
        assert refused.value.status == 401
        async with http.ws_connect(f"ws://127.0.0.1:{server.api_port}/?token={server.token}") as ws:
            assert not ws.closed


async def test_the_embedded_llm_wants_its_own_key(server: O1Process) -> None:
    """The llama.cpp child listens on 127.0.0.1, where a block allowed on the network could reach it: without
    the key it answers 401; the key is in its environment (readable by root and its uid only), not on its
    command line (readable by every local user). The real turn above shows the agent holds the key."""
    children = [int(p) for f in Path(f"/proc/{server.proc.pid}/task").glob("*/children") for p in f.read_text().split()]
    (child,) = [p for p in children if b"o1_server.chat_handler" in Path(f"/proc/{p}/cmdline").read_bytes()]
    cmdline = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
    port = int(cmdline[cmdline.index(b"--port") + 1])
    environ = dict(e.split(b"=", 1) for e in Path(f"/proc/{child}/environ").read_bytes().split(b"\0") if b"=" in e)
    key = environ[b"API_KEY"].decode()
    assert len(key) >= 32 and not any(key.encode() in arg for arg in cmdline)
    async with aiohttp.ClientSession() as http:
        for path in ("/v1/models", "/extras/tokenize/count"):
            async with http.post(f"http://127.0.0.1:{port}{path}", json={"input": "hi"}) if "count" in path \
                    else http.get(f"http://127.0.0.1:{port}{path}") as r:
                assert r.status == 401, (path, r.status)
        async with http.get(f"http://127.0.0.1:{port}/v1/models", headers={"Authorization": f"Bearer {key}"}) as r:
            assert r.status == 200
