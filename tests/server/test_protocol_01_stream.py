"""The 01 light protocol's streamed reply and its 01 device access, over a real WebSocket on 127.0.0.1.

Real whisper, piper and an Open Interpreter agent on the scripted LLM, as in test_protocol_01.py. The streaming
test holds the scripted LLM before the answer's last sentence until the client has heard audio: a server that
spoke only the whole answer would send nothing while the LLM is held.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web

from o1_server import protocol_01 as light
from o1_server.protocol_01 import add_light_routes, parse_devices
from o1_server.stt import SpeechToText
from o1_server.tts import TextToSpeech
from tests.server.test_protocol_01 import END, START, TOKEN, fixture_pcm, read_turn
from tests.support.scripted_llm import ScriptedLLM

HELD_WORD = "Finally"
ANSWER = "The weather is sunny and warm today. It will stay dry until the evening. Finally, take an umbrella along."


@pytest.fixture
def agent(make_agent):
    return make_agent()


async def serve(stt: SpeechToText, tts: TextToSpeech, agent, **limits) -> tuple[web.AppRunner, str]:
    app = web.Application()
    add_light_routes(app, stt, tts, agent, TOKEN, **limits)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"http://127.0.0.1:{runner.addresses[0][1]}"


@pytest.fixture
async def base_url(stt: SpeechToText, tts: TextToSpeech, agent) -> AsyncIterator[str]:
    runner, url = await serve(stt, tts, agent)
    yield url
    await runner.cleanup()


async def test_first_sentence_is_heard_before_the_last_one_is_written(
        base_url: str, llm: ScriptedLLM, stt: SpeechToText, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scripted LLM stops before its last sentence until the client has received reply audio; the events
    of both sides, in the order they happened, show the audio came first, and the held sentence is spoken too."""
    events: list[str] = []
    lock = threading.Lock()
    heard = threading.Event()
    send = ScriptedLLM._send

    def note(event: str) -> None:
        with lock:
            events.append(event)

    async def held_send(response, model, delta, finish):
        if delta.get("content") == HELD_WORD:
            note("llm holds the last sentence")
            # A server that waits for the whole answer never lets this go: the hold ends after 8 s (under the
            # LLM's 10 s read timeout) and the order below fails.
            await asyncio.get_running_loop().run_in_executor(None, heard.wait, 8)
            note("llm sends the last sentence")
        await send(response, model, delta, finish)

    monkeypatch.setattr(ScriptedLLM, "_send", staticmethod(held_send))
    llm.script(ANSWER)
    frames: list[bytes] = []
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url}/?token={TOKEN}") as ws:
        await ws.send_json({"role": "user", "type": "message", "content": "What should I wear today?"})
        async with asyncio.timeout(60):
            while True:
                msg = await ws.receive()
                if msg.type == aiohttp.WSMsgType.BINARY:
                    if not frames:
                        note("client hears the first audio")
                        heard.set()
                    frames.append(msg.data)
                    continue
                assert msg.type == aiohttp.WSMsgType.TEXT, msg
                data = msg.json()
                assert data.get("type") != "error", data
                if data.get("role") == "assistant" and data.get("type") == "message":
                    said = data["content"]
                if data == light.COMPLETE:
                    break
    assert events == ["llm holds the last sentence", "client hears the first audio", "llm sends the last sentence"]
    assert said == ANSWER
    audio = b"".join(frames)
    assert all(0 < len(f) <= light.MAX_FRAME_BYTES for f in frames) and len(audio) % 2 == 0
    spoken = (await stt.transcribe(audio, light.DEFAULT_OUTPUT_RATE, 2, 1)).lower()
    assert "sunny" in spoken and "finally" in spoken, spoken  # the first sentence and the held last one


async def test_agent_error_is_spoken_and_the_socket_goes_on(base_url: str, llm: ScriptedLLM,
                                                                agent) -> None:
    """A turn that fails is answered with the error's sentence, spoken, and the connection goes on."""
    llm.script(500, 500, 500, 500)
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url}/?token={TOKEN}") as ws:
        await ws.send_json({"role": "user", "type": "message", "content": "Hello?"})
        failed = await read_turn(ws)
        llm.script("Back again.")
        await ws.send_json({"role": "user", "type": "message", "content": "And now?"})
        second = await read_turn(ws)
    assert failed.errors == ["llm_unavailable"] and len(failed.audio) > light.DEFAULT_OUTPUT_RATE  # > 0.5 s
    assert failed.of("assistant", "message")[0]["content"] == failed.of("server", "error")[0]["content"]
    assert second.errors == [] and second.of("assistant", "message")[0]["content"] == "Back again."


async def test_listed_device_needs_no_token(stt: SpeechToText, tts: TextToSpeech, agent, llm: ScriptedLLM) -> None:
    """The 01 firmware's own handshake (path ``/``, no token, no header) from an address in ``devices`` is
    answered like a client with the token: the firmware's flags and raw audio, a spoken answer."""
    llm.script("```python\nprint(2 + 2)\n```", "Two plus two is four.")
    runner, url = await serve(stt, tts, agent, devices=["127.0.0.1"])
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(f"{url}/") as ws:
            await ws.send_str(START)
            pcm = fixture_pcm()
            for offset in range(0, len(pcm), 10240):
                await ws.send_bytes(pcm[offset:offset + 10240])
            await ws.send_str(END)
            turn = await read_turn(ws)
    finally:
        await runner.cleanup()
    assert turn.errors == [] and turn.of("assistant", "message")[0]["content"] == "Two plus two is four."
    assert len(llm.requests) == 2  # the question reached the agent: its code ran and was answered
    assert len(turn.audio) / (light.DEFAULT_OUTPUT_RATE * 2) > 0.8


@pytest.mark.parametrize("devices", [(), ("192.0.2.7",)])
async def test_device_without_a_token_hears_the_refusal(stt: SpeechToText, tts: TextToSpeech, agent,
                                                       llm: ScriptedLLM, devices: tuple[str, ...],
                                                       caplog: pytest.LogCaptureFixture) -> None:
    """No token and not a listed device (no devices listed: the default; or another address): what the 01
    firmware sends for a button press is answered with a spoken refusal the firmware plays (raw PCM between
    the audio flags), then the socket closes; nothing reaches the agent, and the log names the address to add."""
    runner, url = await serve(stt, tts, agent, devices=devices)
    try:
        async with aiohttp.ClientSession() as http:
            for attempt in range(2):  # the second refusal is the same audio, synthesized once
                async with http.ws_connect(f"{url}/") as ws:
                    await ws.send_str(START)
                    await ws.send_bytes(fixture_pcm()[:20480])
                    await ws.send_str(END)
                    frames, texts = [], []
                    async with asyncio.timeout(60):
                        while True:
                            msg = await ws.receive()
                            if msg.type == aiohttp.WSMsgType.BINARY:
                                frames.append(msg.data)
                            elif msg.type == aiohttp.WSMsgType.TEXT:
                                texts.append(msg.json())
                            else:
                                break
                    assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == light.NOT_ALLOWED_CLOSE
                audio_flags = [t for t in texts if t.get("type") == "audio"]
                assert audio_flags == [light.AUDIO_START, light.AUDIO_END]
                assert {"role": "server", "type": "error", "code": "not_allowed",
                        "content": light.NOT_ALLOWED} in texts
                audio = b"".join(frames)
                if attempt == 0:
                    first = audio
                    spoken = (await stt.transcribe(audio, light.DEFAULT_OUTPUT_RATE, 2, 1)).lower()
                    assert "not allowed" in spoken and "documentation" in spoken, spoken
                else:
                    assert audio == first
    finally:
        await runner.cleanup()
    assert llm.requests == []
    assert "add 127.0.0.1 to the add-on option devices_01" in caplog.text


async def test_the_python_client_may_still_send_its_token_first(stt: SpeechToText, tts: TextToSpeech, agent,
                                                                llm: ScriptedLLM) -> None:
    """The refusal waits for the end of a recording: a first ``{"auth"}`` frame still lets a client in."""
    llm.script("Hello.")
    runner, url = await serve(stt, tts, agent)
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(f"{url}/") as ws:
            await ws.send_json({"auth": TOKEN})
            assert (await ws.receive_json(timeout=10)) == {"auth": True}
            await ws.send_json({"role": "user", "type": "message", "content": "Hi"})
            turn = await read_turn(ws)
    finally:
        await runner.cleanup()
    assert turn.of("assistant", "message")[0]["content"] == "Hello."


def test_device_addresses_are_checked() -> None:
    assert parse_devices([" 192.168.1.50 ", "", "::ffff:192.168.1.51", "FD00::5"]) == {
        "192.168.1.50", "192.168.1.51", "fd00::5"}
    for bad in ("192.168.1.0/24", "atom-echo.local", "0.0.0.0", "224.0.0.1", "192.168.1.300"):
        with pytest.raises(ValueError):
            parse_devices([bad])


def test_mapped_peer_matches_its_ipv4_device() -> None:
    assert light._peer_address("::ffff:192.168.1.51") == "192.168.1.51"
    assert light._peer_address(None) is None and light._peer_address("not an address") is None


def test_the_add_on_option_reaches_the_server(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """``devices_01`` (o1-start's ``--light-devices``) becomes Settings.light_devices; a bad address stops the
    start with a message naming the option."""
    from o1_server.settings import settings_from_args

    base = ["--data-dir", str(tmp_path)]
    settings = settings_from_args([*base, "--light-devices", "192.168.1.50, fd00::5,"], environ={"O1_TOKEN": "t"})
    assert settings.light_devices == ("192.168.1.50", "fd00::5")
    assert settings_from_args(base, environ={"O1_TOKEN": "t"}).light_devices == ()
    with pytest.raises(SystemExit):
        settings_from_args([*base, "--light-devices", "192.168.1.0/24"], environ={"O1_TOKEN": "t"})
    assert "(add-on option devices_01): '192.168.1.0/24' is not a device's IP address" in capsys.readouterr().err
