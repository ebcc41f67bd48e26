"""The 01 light protocol (``o1_server.protocol_01``) over a real WebSocket on 127.0.0.1.

The client here is written from the protocol as the 01 clients speak it (the ESP32 firmware sends the flags below
byte for byte, raw 16 kHz 16-bit mono PCM in frames of up to 10 kB, and its last buffer just after the end flag);
the server side is real: whisper speech-to-text, piper text-to-speech and an Open Interpreter agent whose LLM is
the scripted one.
"""

from __future__ import annotations

import asyncio
import io
import json
import wave
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from o1_server import protocol_01 as light
from o1_server.protocol_01 import add_light_routes
from o1_server.stt import SpeechToText
from o1_server.tts import TextToSpeech
from tests.support.scripted_llm import ScriptedLLM

TOKEN = "light-token"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
START = '{"role": "user", "type": "audio", "format": "bytes.raw", "start": true}'
END = '{"role": "user", "type": "audio", "format": "bytes.raw", "end": true}'
TWO_PLUS_TWO = "```python\nprint(2 + 2)\n```"
TIMEOUT = 60


@pytest.fixture
def agent(make_agent):
    """A real agent (Open Interpreter, sandbox, audit) on the scripted LLM."""
    return make_agent()


@pytest.fixture
async def base_url(stt: SpeechToText, tts: TextToSpeech, agent) -> AsyncIterator[str]:
    """Serve the 01 routes on a free port of 127.0.0.1; yield ``http://127.0.0.1:<port>``."""
    app = web.Application()
    add_light_routes(app, stt, tts, agent, TOKEN)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    await runner.cleanup()


@dataclass
class Turn:
    """What the server sent for one turn: JSON frames in order, and the binary frames."""

    messages: list[dict] = field(default_factory=list)
    frames: list[bytes] = field(default_factory=list)
    formats: list[str] = field(default_factory=list)
    """The ``format`` of the audio start and end flags."""

    def of(self, role: str, kind: str) -> list[dict]:
        """The JSON messages with this role and type."""
        return [m for m in self.messages if m.get("role") == role and m.get("type") == kind]

    @property
    def errors(self) -> list[str]:
        """Codes of the error messages."""
        return [m["code"] for m in self.of("server", "error")]

    @property
    def audio(self) -> bytes:
        """The binary frames joined."""
        return b"".join(self.frames)


async def read_turn(ws: aiohttp.ClientWebSocketResponse, timeout: float = TIMEOUT) -> Turn:
    """Read frames until the ``complete`` status; check the audio frames sit between the audio flags."""
    turn = Turn()
    inside = False
    async with asyncio.timeout(timeout):
        while True:
            msg = await ws.receive()
            if msg.type == aiohttp.WSMsgType.BINARY:
                assert inside, "audio outside the audio start/end flags"
                turn.frames.append(msg.data)
                continue
            assert msg.type == aiohttp.WSMsgType.TEXT, msg
            data = json.loads(msg.data)
            turn.messages.append(data)
            if data.get("role") == "assistant" and data.get("type") == "audio":
                assert data["format"] in ("bytes.raw", "bytes.wav") and (data.get("start") or data.get("end"))
                turn.formats.append(data["format"])
                inside = data.get("start") is True
            elif data == light.COMPLETE:
                return turn


async def next_json(ws: aiohttp.ClientWebSocketResponse, timeout: float = 10) -> dict:
    """The next text frame, parsed."""
    msg = await ws.receive(timeout=timeout)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    return json.loads(msg.data)


def fixture_pcm(name: str = "what_is_two_plus_two.wav") -> bytes:
    """16 kHz 16-bit mono PCM of a fixture WAV."""
    with wave.open(str(FIXTURES / name), "rb") as wav:
        assert (wav.getframerate(), wav.getsampwidth(), wav.getnchannels()) == (16000, 2, 1)
        return wav.readframes(wav.getnframes())


def read_wav(data: bytes) -> tuple[bytes, int, int, int]:
    """(pcm, rate Hz, width bytes, channels) of a WAV file's bytes."""
    with wave.open(io.BytesIO(data), "rb") as wav:
        return wav.readframes(wav.getnframes()), wav.getframerate(), wav.getsampwidth(), wav.getnchannels()


async def test_ping_answers_pong_without_a_token(base_url: str) -> None:
    async with aiohttp.ClientSession() as http, http.get(f"{base_url}/ping") as r:
        assert r.status == 200 and await r.text() == "pong"


@pytest.mark.parametrize("form", ["esp32", "wav"])
async def test_spoken_question_gets_a_spoken_answer(base_url: str, llm: ScriptedLLM, agent, stt: SpeechToText,
                                                    form: str) -> None:
    """``esp32``: raw PCM in 10 kB frames, the last one 300 ms after the end flag, and raw PCM back (what the
    firmware plays); ``wav``: one WAV file, and a WAV file back (``?format=wav``)."""
    llm.script(TWO_PLUS_TWO, "Two plus two is four.")
    pcm = fixture_pcm()
    output = "" if form == "esp32" else "&format=wav"
    async with aiohttp.ClientSession() as http, http.ws_connect(
            f"{base_url}/?token={TOKEN}&conversation_id=light-1{output}") as ws:
        if form == "esp32":
            await ws.send_str(START)
            chunks = [pcm[i:i + 10240] for i in range(0, len(pcm), 10240)]
            for chunk in chunks[:-1]:
                await ws.send_bytes(chunk)
            await ws.send_str(END)
            await asyncio.sleep(0.3)  # a slow Wi-Fi link
            await ws.send_bytes(chunks[-1])  # the firmware flushes its microphone buffer after the end flag
        else:
            await ws.send_str(START.replace("bytes.raw", "bytes.wav"))
            await ws.send_bytes((FIXTURES / "what_is_two_plus_two.wav").read_bytes())
            await ws.send_str(END.replace("bytes.raw", "bytes.wav"))
        turn = await read_turn(ws)

    assert turn.errors == []
    order = [(m.get("role"), m.get("type"), m.get("start"), m.get("end")) for m in turn.messages]
    # The audio is streamed as the answer comes; the whole answer's text follows it.
    assert order == [("user", "message", None, None), ("assistant", "audio", True, None),
                     ("assistant", "audio", None, True), ("assistant", "message", None, None),
                     ("server", "status", None, None)]
    [heard] = turn.of("user", "message")
    # The whole utterance was heard, including the part sent after the end flag ("two" at the end).
    assert "plus" in heard["content"].lower() and heard["content"].rstrip("?. ").lower().endswith(("2", "two"))
    [said] = turn.of("assistant", "message")
    assert said["content"] == "Two plus two is four."
    # The scripted LLM got the transcript, and the code it wrote really ran.
    assert any("plus" in str(m.get("content")).lower() for m in llm.requests[0]["messages"])
    assert agent.conversation("light-1")["turns"][-1]["code_blocks"][0]["output"] == "4"

    assert turn.frames and all(0 < len(f) <= light.MAX_FRAME_BYTES for f in turn.frames)
    if form == "esp32":  # raw PCM from the first byte: the firmware writes every frame to the speaker
        assert turn.formats == ["bytes.raw", "bytes.raw"] and turn.audio[:4] != b"RIFF"
        audio, rate, width, channels = turn.audio, light.DEFAULT_OUTPUT_RATE, 2, 1
    else:
        assert turn.formats == ["bytes.wav", "bytes.wav"]
        audio, rate, width, channels = read_wav(turn.audio)
    assert (rate, width, channels) == (light.DEFAULT_OUTPUT_RATE, 2, 1)
    assert len(audio) / (rate * width) > 0.8  # a spoken sentence
    reply = (await stt.transcribe(audio, rate, width, channels)).lower()
    assert "4" in reply or "four" in reply, reply


async def test_typed_message_raw_output_at_16_khz(base_url: str, llm: ScriptedLLM, stt: SpeechToText) -> None:
    llm.script("It is sunny today.")
    async with aiohttp.ClientSession() as http, http.ws_connect(
            f"{base_url}/?format=raw&rate=16000", headers={"Authorization": f"Bearer {TOKEN}"}) as ws:
        await ws.send_json({"role": "user", "type": "message", "content": "How is the garden?"})
        turn = await read_turn(ws)
    assert turn.errors == [] and turn.of("user", "message") == []
    assert turn.of("assistant", "message")[0]["content"] == "It is sunny today."
    assert llm.requests and "garden" in json.dumps(llm.requests[0]["messages"])
    assert turn.audio[:4] != b"RIFF" and len(turn.audio) % 2 == 0 and turn.formats == ["bytes.raw", "bytes.raw"]
    assert len(turn.audio) / 32000 > 0.5
    heard = (await stt.transcribe(turn.audio, 16000, 2, 1)).lower()
    assert "sunny" in heard, heard


@pytest.mark.parametrize("query", ["?token=wrong", "?rate=96000&token=" + TOKEN, "?rate=abc&token=" + TOKEN,
                                   f"?conversation_id={'x' * 201}&token={TOKEN}"])
async def test_bad_handshake_is_refused(base_url: str, query: str) -> None:
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.WSServerHandshakeError) as err:
            await http.ws_connect(f"{base_url}/{query}")
    assert err.value.status == (401 if "wrong" in query else 400)


async def test_wrong_token_in_a_header_is_refused(base_url: str) -> None:
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.WSServerHandshakeError) as err:
            await http.ws_connect(f"{base_url}/", headers={"X-API-KEY": "nope"})
    assert err.value.status == 401


async def test_token_by_x_api_key_header(base_url: str) -> None:
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url}/", headers={"X-API-KEY": TOKEN}) as ws:
        await ws.send_json({"auth": TOKEN})  # Open Interpreter clients may still send it: acknowledged
        assert await next_json(ws) == {"auth": True}


async def test_auth_frame_after_connecting_without_a_token(base_url: str, llm: ScriptedLLM) -> None:
    llm.script("Hello.")
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url}/") as ws:
        await ws.send_str(START)  # not yet
        assert await next_json(ws) == {"auth": False}
        assert (await next_json(ws))["code"] == "invalid_auth"
        await ws.send_bytes(b"\x00\x00")
        assert await next_json(ws) == {"auth": False}
        assert (await next_json(ws))["code"] == "invalid_auth"
        await ws.send_json({"auth": "wrong"})
        assert await next_json(ws) == {"auth": False}
        assert (await next_json(ws))["code"] == "invalid_auth"
        await ws.send_json({"auth": TOKEN})
        assert await next_json(ws) == {"auth": True}
        await ws.send_json({"role": "user", "type": "message", "content": "Hi"})
        turn = await read_turn(ws)
    assert turn.of("assistant", "message")[0]["content"] == "Hello."
    assert llm.requests, "nothing reached the agent before the auth frame"
    assert len(llm.requests) == 1


async def test_no_token_in_time_closes_the_connection(base_url: str, llm: ScriptedLLM,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(light, "AUTH_SECONDS", 0.3)
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url}/") as ws:
        assert (await next_json(ws))["code"] == "invalid_auth"
        msg = await ws.receive(timeout=5)
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4001
    assert llm.requests == []


async def test_bad_input_gets_errors_and_the_connection_survives(base_url: str, llm: ScriptedLLM) -> None:
    llm.script("Still here.")
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url}/?token={TOKEN}") as ws:
        for frame, code in [
            ("not json", "invalid_json"),
            ("[1, 2]", "invalid_message"),
            ('{"role": "user", "type": "video", "start": true}', "invalid_message"),
            ('{"role": "user", "type": "message", "content": ""}', "invalid_message"),
            (END, "invalid_message"),  # an end flag without a start flag
            (b"\x01\x02\x03\x04", "audio_before_start"),
        ]:
            await (ws.send_bytes(frame) if isinstance(frame, bytes) else ws.send_str(frame))
            reply = await next_json(ws)
            assert reply["role"] == "server" and reply["type"] == "error" and reply["code"] == code, (frame, reply)
            assert reply["content"]
        await ws.send_json({"role": "user", "type": "message", "content": "Are you there?"})
        turn = await read_turn(ws)
    assert turn.errors == [] and turn.of("assistant", "message")[0]["content"] == "Still here."
    assert len(llm.requests) == 1


async def test_audio_over_the_limit_is_answered_up_to_it(base_url: str, llm: ScriptedLLM,
                                                         stt: SpeechToText) -> None:
    """Past speech-to-text's max_seconds (the same limit as on Wyoming) the utterance ends: what came before is
    answered at once, the rest and the end flag are ignored, and the connection goes on."""
    llm.script("Four.", "Short answer.")
    pcm = fixture_pcm()
    silence = b"\x00\x00" * 16000
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url}/?token={TOKEN}") as ws:
        await ws.send_str(START)
        await ws.send_bytes(pcm)
        for _ in range(int(stt.max_seconds) + 2):  # no end flag: a stuck button
            await ws.send_bytes(silence)
        turn = await read_turn(ws)
        await ws.send_str(END)
        await ws.send_json({"role": "user", "type": "message", "content": "And now?"})
        second = await read_turn(ws)
    [heard] = turn.of("user", "message")
    assert "plus" in heard["content"].lower()
    assert turn.of("assistant", "message")[0]["content"] == "Four."
    assert second.errors == [] and second.of("assistant", "message")[0]["content"] == "Short answer."
    assert len(llm.requests) == 2


async def test_empty_recording_is_answered_with_no_speech(base_url: str, llm: ScriptedLLM) -> None:
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url}/?token={TOKEN}") as ws:
        await ws.send_str(START)
        await ws.send_str(END)  # a tap on the button: nothing recorded
        turn = await read_turn(ws)
    assert turn.errors == ["no_speech"]
    assert turn.of("user", "message")[0]["content"] == ""
    assert turn.of("assistant", "message") == []
    assert len(turn.audio) / (light.DEFAULT_OUTPUT_RATE * 2) > 0.5  # "Sorry, I did not hear anything."
    assert llm.requests == []


async def test_unreadable_wav_is_invalid_audio(base_url: str, llm: ScriptedLLM) -> None:
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url}/?token={TOKEN}") as ws:
        await ws.send_str(START)
        await ws.send_bytes(b"RIFF\x10\x00\x00\x00WAVEjunkjunkjunk")
        await ws.send_str(END)
        turn = await read_turn(ws)
    assert turn.errors == ["invalid_audio"] and turn.frames == [] and llm.requests == []


async def test_agent_failure_is_spoken(base_url: str, llm: ScriptedLLM, stt: SpeechToText) -> None:
    llm.script(500, 500, 500, 500)
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url}/?token={TOKEN}") as ws:
        await ws.send_json({"role": "user", "type": "message", "content": "Hello?"})
        turn = await read_turn(ws)
    assert turn.errors == ["llm_unavailable"]
    [error] = turn.of("server", "error")
    assert turn.of("assistant", "message")[0]["content"] == error["content"]
    assert len(turn.audio) / (light.DEFAULT_OUTPUT_RATE * 2) > 0.5  # the user hears why


def test_routes_are_the_light_paths(stt: SpeechToText, tts: TextToSpeech, agent) -> None:
    app = web.Application()
    add_light_routes(app, stt, tts, agent, TOKEN)
    assert {route.resource.canonical for route in app.router.routes()} == set(light.LIGHT_PATHS)
    with pytest.raises(ValueError):
        add_light_routes(web.Application(), stt, tts, agent, "")


async def test_flags_count_only_when_true(base_url: str, llm: ScriptedLLM) -> None:
    """``"start": "false"`` (a string) or ``"start": 1`` is no start flag: 01 clients send JSON ``true``."""
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url}/?token={TOKEN}") as ws:
        for flag in ('"false"', '"true"', "1"):
            await ws.send_str(START.replace("true", flag))
            assert (await next_json(ws))["code"] == "invalid_message"
        await ws.send_bytes(b"\x00\x00" * 100)
        assert (await next_json(ws))["code"] == "audio_before_start"
    assert llm.requests == []


async def test_typed_turn_over_the_shared_limit(base_url: str, llm: ScriptedLLM) -> None:
    from o1_server.agent.types import MAX_TURN_CHARS

    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url}/?token={TOKEN}") as ws:
        await ws.send_json({"role": "user", "type": "message", "content": "a" * (MAX_TURN_CHARS + 1)})
        assert (await next_json(ws))["code"] == "text_too_long"
    assert llm.requests == []


async def test_unauthenticated_sockets_are_capped_and_small(stt: SpeechToText, tts: TextToSpeech, agent) -> None:
    """Without a token in the handshake: frames over PRE_AUTH_FRAME_BYTES close the socket (1009), and beyond
    max_unauthenticated such sockets (or max_connections in all) a new one gets ``busy`` and is closed."""
    app = web.Application()
    add_light_routes(app, stt, tts, agent, TOKEN, max_connections=3, max_unauthenticated=2)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/"
    try:
        async with aiohttp.ClientSession() as http:
            big = await http.ws_connect(url)
            await big.send_bytes(bytes(light.PRE_AUTH_FRAME_BYTES + 1))
            msg = await big.receive(timeout=10)
            assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR), msg
            assert big.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
            await big.close()
            await asyncio.sleep(0.1)
            waiting = [await http.ws_connect(url) for _ in range(2)]
            refused = await http.ws_connect(url)
            assert (await next_json(refused))["code"] == "busy"
            assert (await refused.receive(timeout=10)).type == aiohttp.WSMsgType.CLOSE
            # A client with the token still gets in (2 of 3 sockets are taken)...
            with_token = await http.ws_connect(f"{url}?token={TOKEN}")
            await with_token.send_json({"auth": TOKEN})
            assert await next_json(with_token) == {"auth": True}
            # ... and then all 3 are taken, token or not.
            full = await http.ws_connect(f"{url}?token={TOKEN}")
            assert (await next_json(full))["code"] == "busy"
            # Authenticating frees an unauthenticated place.
            await waiting[0].send_json({"auth": TOKEN})
            assert await next_json(waiting[0]) == {"auth": True}
            for ws in (*waiting, with_token, full, refused):
                await ws.close()
    finally:
        await runner.cleanup()


async def test_idle_socket_is_closed(stt: SpeechToText, tts: TextToSpeech, agent) -> None:
    app = web.Application()
    add_light_routes(app, stt, tts, agent, TOKEN, idle_seconds=0.5)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        async with aiohttp.ClientSession() as http, http.ws_connect(
                f"http://127.0.0.1:{runner.addresses[0][1]}/?token={TOKEN}") as ws:
            assert (await next_json(ws))["code"] == "idle_timeout"
            assert (await ws.receive(timeout=10)).type == aiohttp.WSMsgType.CLOSE
    finally:
        await runner.cleanup()


async def test_queued_turns_are_capped(base_url: str, llm: ScriptedLLM) -> None:
    """One socket cannot pile up turns: past MAX_QUEUED_TURNS waiting, a turn gets ``busy`` and is dropped."""
    llm.script(ScriptedLLM.HANG)
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base_url}/?token={TOKEN}") as ws:
        for n in range(light.MAX_QUEUED_TURNS + 2):  # the first is answered (hangs), MAX wait, one more is refused
            await ws.send_json({"role": "user", "type": "message", "content": f"turn {n}"})
        error = await next_json(ws)
        assert error["code"] == "busy", error
