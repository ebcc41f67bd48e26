"""The Wyoming ``handle`` program as Home Assistant's agent picker shows it, read over a real TCP Describe.

Home Assistant's ``wyoming`` integration names the conversation agent it makes from this program after the
program's name; the o1 integration's agents are called "o1 <profile>". The Wyoming one must say what it is.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from wyoming.info import Describe, Info

from o1_server.stt import SpeechToText
from o1_server.tts import TextToSpeech
from o1_server.wyoming_server import WyomingServer
from tests.server.test_wyoming import EchoAgent, connect

PROFILES = Path(__file__).resolve().parents[2] / "addon" / "o1_server" / "profiles"


@pytest.fixture
async def port(stt: SpeechToText, tts: TextToSpeech) -> AsyncIterator[int]:
    wyoming = WyomingServer("tcp://127.0.0.1:0", stt, tts, EchoAgent(), "9.9.9")
    yield await wyoming.start()
    await wyoming.stop()


async def test_the_handle_program_says_it_is_wyoming_without_home_access(port: int) -> None:
    client = await connect(port)
    try:
        await client.send(Describe().event())
        info = Info.from_event(await client.expect("info"))
        await client.ping()
    finally:
        await client.close()
    [handle] = info.handle
    assert handle.name == "o1 (Wyoming, no home access)"
    # Not the name of any agent of the o1 integration ("o1 <profile>" for each shipped profile).
    assert handle.name not in {f"o1 {path.stem}" for path in PROFILES.glob("*.yaml")} | {"o1"}
    assert not handle.supports_home_control
    [model] = handle.models
    for description in (handle.description, model.description):
        assert description is not None
        assert "Wyoming" in description and "without Home Assistant" in description
    # The speech programs keep their names (Home Assistant's stt and tts entities are named after them).
    assert [p.name for p in info.asr] == ["o1 faster-whisper"] and [p.name for p in info.tts] == ["o1 piper"]
