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
