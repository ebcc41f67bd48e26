"""The o1 Wyoming server over real TCP on 127.0.0.1, with real faster-whisper and piper.

Clients below speak the protocol the way Home Assistant's wyoming integration does
(homeassistant/components/wyoming/{data,stt,tts,conversation}.py): one request per connection for
Describe, Transcribe+audio, Synthesize (plain and streaming) and Transcript -> Handled. Some tests also
reuse one connection for several requests, and feed it bad input.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import time
import wave
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from o1_server.agent.types import AgentError, AgentReply
from o1_server.stt import SpeechToText
from o1_server.tts import TextToSpeech
from o1_server.wyoming_server import (
    ERROR_CODES,
    HANDLE_PROGRAM,
    O1EventHandler,
    WyomingServer,
    build_info,
    serve_wyoming,
)
from wyoming.asr import Transcribe, Transcript, TranscriptChunk
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.error import Error
from wyoming.event import Event, async_read_event, async_write_event
from wyoming.handle import Handled
from wyoming.info import Describe, Info
from wyoming.ping import Ping, Pong
from wyoming.tts import (
    Synthesize,
    SynthesizeChunk,
    SynthesizeStart,
    SynthesizeStop,
    SynthesizeVoice,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
TIMEOUT = 60.0


# --------------------------------------------------------------------------------------------- helpers


class Client:
    """A raw Wyoming client on one TCP connection."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def send(self, *events: Event) -> None:
        for event in events:
            await async_write_event(event, self.writer)

    async def send_raw(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def read(self, timeout: float = TIMEOUT) -> Event:
        event = await asyncio.wait_for(async_read_event(self.reader), timeout)
        assert event is not None, "server closed the connection"
        return event

    async def read_until(self, *types: str) -> list[Event]:
        """Events up to and including the first one of ``types``."""
        events = []
        while True:
            events.append(await self.read())
            if events[-1].type in types:
                return events

    async def expect(self, event_type: str) -> Event:
        event = await self.read()
        assert event.type == event_type, f"expected {event_type}, got {event.type} {event.data}"
        return event

    async def transcript(self, streaming: bool = True) -> Transcript:
        """Read a speech-to-text reply and check its shape: with ``streaming``, transcript-start,
        transcript-chunk..., transcript-stop and then the transcript, whose text is the chunks joined."""
        events = await self.read_until("transcript")
        types = [e.type for e in events]
        transcript = Transcript.from_event(events[-1])
        if not streaming:
            assert types == ["transcript"], types
            return transcript
        assert types[0] == "transcript-start" and types[-2:] == ["transcript-stop", "transcript"], types
        assert set(types[1:-2]) <= {"transcript-chunk"}, types
        chunks = [TranscriptChunk.from_event(e).text for e in events[1:-2]]
        assert "".join(chunks) == transcript.text, (chunks, transcript.text)
        return transcript

    async def expect_error(self, code: str) -> Error:
        error = Error.from_event(await self.expect("error"))
        assert error.code == code, error
        assert code in ERROR_CODES and error.text
        return error

    async def ping(self) -> None:
        """Prove nothing else is queued and the connection still works: the next event is the pong."""
        await self.send(Ping(text="still there?").event())
        assert Pong.from_event(await self.expect("pong")).text == "still there?"

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def connect(port: int) -> Client:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    return Client(reader, writer)


def read_wav(name: str) -> tuple[bytes, int, int, int]:
    with wave.open(str(FIXTURES / name), "rb") as wav:
        return wav.readframes(wav.getnframes()), wav.getframerate(), wav.getsampwidth(), wav.getnchannels()


def audio_events(pcm: bytes, rate: int, width: int, channels: int,
                 samples_per_chunk: int = 1024) -> list[Event]:
    """AudioStart, AudioChunk..., AudioStop for ``pcm``."""
    step = samples_per_chunk * width * channels
    return [
        AudioStart(rate=rate, width=width, channels=channels).event(),
        *(AudioChunk(rate=rate, width=width, channels=channels, audio=pcm[i:i + step]).event()
          for i in range(0, len(pcm), step)),
        AudioStop().event(),
    ]


def collect_audio(events: list[Event]) -> tuple[bytes, AudioStart]:
    """Audio of a tts reply: exactly one audio-start, chunks in its format, then audio-stop."""
    starts = [AudioStart.from_event(e) for e in events if AudioStart.is_type(e.type)]
    assert len(starts) == 1, [e.type for e in events]
    start = starts[0]
    assert AudioStart.is_type(events[0].type)
    chunks = [AudioChunk.from_event(e) for e in events if AudioChunk.is_type(e.type)]
    assert chunks and all((c.rate, c.width, c.channels) == (start.rate, start.width, start.channels)
                          for c in chunks)
    assert all(len(c.audio) <= 1024 * c.width * c.channels for c in chunks)
    return b"".join(c.audio for c in chunks), start


def has_words(text: str, *key_words: tuple[str, ...]) -> bool:
    heard = " " + "".join(ch if ch.isalnum() or ch == "+" else " " for ch in text.lower()) + " "
    return all(any(f" {alt} " in heard for alt in alternatives) for alternatives in key_words)


class EchoAgent:
    """Test agent following o1_server.agent.types.Agent: echoes, or fails on request."""

    def __init__(self) -> None:
        self.calls: list[dict] = []

    async def ask(self, text: str, conversation_id: str | None = None, profile: str | None = None,
                  language: str | None = None, channel: str = "local") -> AgentReply:
        self.calls.append({"text": text, "conversation_id": conversation_id, "profile": profile,
                           "language": language, "channel": channel})
        if text == "time out":
            raise AgentError("timeout", "Sorry, that took too long.")
        if text == "crash":
            raise RuntimeError("boom")
        if text == "slow":
            await asyncio.sleep(0.5)
        return AgentReply(conversation_id=conversation_id or "new-conversation", profile="default",
                          answer=f"You said: {text}")


# --------------------------------------------------------------------------------------------- fixtures


@pytest.fixture
def agent() -> EchoAgent:
    return EchoAgent()


@pytest.fixture
async def server(stt: SpeechToText, tts: TextToSpeech, agent: EchoAgent) -> AsyncIterator[WyomingServer]:
    """A server on a free port of 127.0.0.1 for one test (the models are shared by the module)."""
    wyoming = WyomingServer("tcp://127.0.0.1:0", stt, tts, agent, "9.9.9")
    port = await wyoming.start()
    assert port > 0 and wyoming.port == port
    yield wyoming
    await wyoming.stop()


@pytest.fixture
async def client(server: WyomingServer) -> AsyncIterator[Client]:
    conn = await connect(server.port)
    yield conn
    await conn.close()


# --------------------------------------------------------------------------------------------- describe


async def test_describe_lists_asr_tts_and_handle(client: Client) -> None:
    await client.send(Describe().event())
    info = Info.from_event(await client.expect("info"))

    [asr] = info.asr
    assert asr.installed and asr.requires_external_vad and asr.supports_transcript_streaming
    [model] = asr.models
    assert (model.name, model.languages, model.installed) == ("tiny.en", ["en"], True)

    [tts] = info.tts
    assert tts.installed and tts.supports_synthesize_streaming
    [voice] = tts.voices
    assert (voice.name, voice.languages, voice.installed) == ("en_US-joe-medium", ["en_US"], True)

    [handle] = info.handle
    assert (handle.name, handle.installed, handle.version) == (HANDLE_PROGRAM, True, "9.9.9")
    [handle_model] = handle.models
    assert handle_model.installed and handle_model.languages == ["en"]

    # What HA's WyomingService turns into platforms: stt, tts and conversation.
    assert not info.wake and not info.intent and info.satellite is None
    await client.ping()


def test_build_info_handle_languages(stt: SpeechToText, tts: TextToSpeech) -> None:
    info = build_info(stt, tts, "1.0", handle_languages=["en", "de"])
    assert info.handle[0].models[0].languages == ["en", "de"]
    assert Info.from_event(info.event()) == info


# --------------------------------------------------------------------------------------------- asr


@pytest.mark.parametrize(
    ("name", "key_words"),
    [
        ("what_is_two_plus_two.wav", [("two", "2"), ("plus", "+")]),
        ("how_many_files.wav", [("files",), ("sandbox",)]),
    ],
)
async def test_transcribe_like_home_assistant(server: WyomingServer, name: str,
                                              key_words: list[tuple[str, ...]]) -> None:
    client = await connect(server.port)
    pcm, rate, width, channels = read_wav(name)
    await client.send(Transcribe(language="en").event(), *audio_events(pcm, rate, width, channels))
    transcript = await client.transcript()
    assert has_words(transcript.text, *key_words), transcript.text
    assert transcript.language == "en"
    await client.close()


async def test_transcribe_stereo_48k_without_transcribe_event(client: Client) -> None:
    """Chunks are converted as they arrive; ``transcribe`` is optional; the connection is reusable."""
    pcm, _, _, _ = read_wav("what_day_is_it.wav")
    # 16 kHz mono -> 48 kHz stereo by sample repetition (a crude upsampling, good enough for speech).
    samples = [pcm[i:i + 2] for i in range(0, len(pcm), 2)]
    stereo48 = b"".join(s * 6 for s in samples)
    for _ in range(2):
        await client.send(*audio_events(stereo48, 48000, 2, 2, samples_per_chunk=777))
        transcript = await client.transcript()
        assert has_words(transcript.text, ("day",), ("week",)), transcript.text
    await client.ping()


async def test_describe_answers_while_transcribing(server: WyomingServer, stt: SpeechToText) -> None:
    """Whisper runs on its own thread: while it is busy (held by a job that waits for a gate), another
    connection is served, and the transcript follows once the decoder is free."""
    busy, other = await connect(server.port), await connect(server.port)
    gate = threading.Event()
    blocker = stt._decode_worker.submit(gate.wait, 30)
    try:
        pcm, rate, width, channels = read_wav("what_is_seven_times_six.wav")
        await busy.send(*audio_events(pcm, rate, width, channels))
        transcript_task = asyncio.create_task(busy.transcript())
        await other.send(Describe().event())
        await other.expect("info")
        await other.ping()
        assert not transcript_task.done(), "the transcript cannot be ready while the decoder is held"
    finally:
        gate.set()
    transcript = await transcript_task
    assert await asyncio.wrap_future(blocker) is True
    assert has_words(transcript.text, ("seven", "7"), ("six", "6")), transcript.text
    await busy.close()
    await other.close()


class _Sink:
    """The writing half of a connection, in memory: keeps what the handler writes."""

    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    async def drain(self) -> None:
        pass

    def close(self) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def get_extra_info(self, name: str, default=None):
        return ("127.0.0.1", 50000) if name == "peername" else default


async def test_a_burst_of_events_lets_the_others_run(stt: SpeechToText, tts: TextToSpeech) -> None:
    """Events a client sent at once are handled one per turn of the event loop. Reading what is
    already buffered does not suspend, so a client that sent a whole utterance faster than real time used to
    have all of it handled in one go while every other connection and HTTP request waited."""
    reader = asyncio.StreamReader()
    count = 20
    for n in range(count):
        reader.feed_data(json.dumps({"type": "ping", "data": {"text": str(n)}}).encode() + b"\n")
    reader.feed_eof()
    sink = _Sink()
    handler = O1EventHandler(reader, sink, stt=stt, tts=tts, agent=None)  # type: ignore[arg-type]
    connection = asyncio.create_task(handler.run())
    seen: list[int] = []  # pongs written each time another task got to run
    while not connection.done():
        seen.append(sink.data.count(b'"pong"'))
        await asyncio.sleep(0)
    await connection
    assert sink.data.count(b'"pong"') == count
    assert any(0 < n < count for n in seen), f"the other task only ran before or after the burst: {seen}"


async def test_transcript_chunk_comes_before_audio_stop(client: Client) -> None:
    """Audio sent in real time (64 ms chunks), then silence as a satellite keeps streaming it until the
    other side ends the command: the final text arrives as a transcript-chunk while the client is still
    sending (before audio-stop); audio-stop then only closes the transcript.

    The silence goes on up to 10 s, not a fixed 1.2 s: how soon the chunk comes depends on the decoding
    pass's speed on a loaded machine, which is the speech benchmark's business (benchmarks/speech.py).
    """
    pcm, rate, width, channels = read_wav("how_many_files.wav")
    events = audio_events(pcm, rate, width, channels)
    silence = AudioChunk(rate=rate, width=width, channels=channels, audio=bytes(1024 * width * channels))
    await client.send(Transcribe(language="en-US").event(), events[0])
    reader = asyncio.create_task(client.read_until("transcript-chunk"))
    started = time.monotonic()
    speech = events[1:-1]
    for index in range(len(speech) + int(10 / 0.064)):  # 1024 samples = 64 ms each
        if reader.done():
            break
        await client.send(speech[index] if index < len(speech) else silence.event())
        await asyncio.sleep(max(0.0, started + (index + 1) * 0.064 - time.monotonic()))
    assert reader.done(), "no transcript-chunk after 10 s of silence"
    early = await reader
    assert [e.type for e in early] == ["transcript-start", "transcript-chunk"]
    assert early[0].data.get("language") == "en-US"
    chunk = TranscriptChunk.from_event(early[1]).text
    await client.send(events[-1])
    rest = await client.read_until("transcript")
    assert [e.type for e in rest] == ["transcript-stop", "transcript"]
    transcript = Transcript.from_event(rest[-1])
    assert transcript.text == chunk and transcript.language == "en-US"
    assert has_words(chunk, ("files",), ("sandbox",)), chunk
    await client.ping()


async def test_streaming_transcripts_can_be_turned_off(stt: SpeechToText, tts: TextToSpeech) -> None:
    """streaming=False: Info says so and only the plain transcript is sent."""
    plain = SpeechToText(streaming=False)
    plain._whisper, plain._vad_model = stt._whisper, stt._vad()  # share the loaded models
    wyoming = WyomingServer("tcp://127.0.0.1:0", plain, tts, None, "1")
    client = await connect(await wyoming.start())
    await client.send(Describe().event())
    assert not Info.from_event(await client.expect("info")).asr[0].supports_transcript_streaming
    pcm, rate, width, channels = read_wav("what_is_two_plus_two.wav")
    await client.send(*audio_events(pcm, rate, width, channels))
    transcript = await client.transcript(streaming=False)
    assert has_words(transcript.text, ("two", "2"), ("plus", "+")), transcript.text
    await client.close()
    await wyoming.stop()


async def test_four_clients_transcribe_at_once(server: WyomingServer) -> None:
    """Four connections stream four different questions at the same time; each gets its own text."""
    names = {"what_is_two_plus_two.wav": [("two", "2"), ("plus", "+")],
             "what_is_seven_times_six.wav": [("seven", "7"), ("six", "6")],
             "what_day_is_it.wav": [("day",), ("week",)],
             "how_many_files.wav": [("files",), ("sandbox",)]}
    clients = [await connect(server.port) for _ in names]

    async def ask(client: Client, name: str) -> Transcript:
        pcm, rate, width, channels = read_wav(name)
        for event in audio_events(pcm, rate, width, channels):
            await client.send(event)
            await asyncio.sleep(0.005)
        return await client.transcript()

    transcripts = await asyncio.gather(*(ask(c, n) for c, n in zip(clients, names)))
    for transcript, key_words in zip(transcripts, names.values()):
        assert has_words(transcript.text, *key_words), transcript.text
    for client in clients:
        await client.close()


# --------------------------------------------------------------------------------------------- tts


async def test_synthesize_round_trip(client: Client) -> None:
    """Piper audio sent back through whisper on the same connection keeps the key words."""
    await client.send(Synthesize(text="The answer is forty two. Have a nice day.",
                                 voice=SynthesizeVoice(name="en_US-joe-medium")).event())
    audio, start = collect_audio(await client.read_until("audio-stop"))
    assert (start.rate, start.width, start.channels) == (22050, 2, 1)
    assert 1.5 < len(audio) / 2 / 22050 < 8

    await client.send(Transcribe().event(), *audio_events(audio, start.rate, start.width, start.channels))
    transcript = await client.transcript()
    assert has_words(transcript.text, ("answer",), ("42", "forty"), ("nice",)), transcript.text


async def test_synthesize_streaming_like_home_assistant(client: Client, stt: SpeechToText) -> None:
    """synthesize-start, chunks cut mid-word, the compatibility synthesize, synthesize-stop."""
    text = "The lights are on. Good night, see you tomorrow."
    pieces = ["The li", "ghts are on", ". Good ni", "ght, see you", " tomorrow."]
    await client.send(SynthesizeStart(voice=SynthesizeVoice(name="en_US-joe-medium")).event(),
                      *(SynthesizeChunk(text=p).event() for p in pieces),
                      Synthesize(text=text).event(),
                      SynthesizeStop().event())
    events = await client.read_until("synthesize-stopped")
    assert [e.type for e in events][-2:] == ["audio-stop", "synthesize-stopped"]
    audio, start = collect_audio(events[:-1])
    heard = await stt.transcribe(audio, start.rate, start.width, start.channels)
    assert has_words(heard, ("lights",), ("night",), ("tomorrow",)), heard
    await client.ping()


async def test_a_voice_that_is_not_installed_is_an_error(client: Client) -> None:
    """Not spoken with the installed English voice instead: a German voice's text would be unintelligible."""
    await client.send(Synthesize(text="Hallo.", voice=SynthesizeVoice(name="de_DE-thorsten-high")).event())
    error = await client.expect_error("invalid_voice")
    assert "'de_DE-thorsten-high'" in error.text and "en_US-joe-medium" in error.text
    await client.ping()


def audio_seconds(audio: bytes, start: AudioStart) -> float:
    """Duration of ``audio`` in the format of ``start``, in seconds."""
    return len(audio) / (start.width * start.channels) / start.rate


async def test_synthesis_options_from_the_event(client: Client) -> None:
    """length_scale in the synthesize data (or its context) slows the voice down; a bad value is refused."""
    text = "The weather will be sunny tomorrow."
    durations = []
    for data in ({"text": text, "length_scale": 1.6}, {"text": text, "context": {"length_scale": 0.8}}):
        await client.send(Event(type="synthesize", data=data))
        audio, start = collect_audio(await client.read_until("audio-stop"))
        durations.append(audio_seconds(audio, start))
    assert durations[0] > 1.5 * durations[1], durations
    await client.send(Event(type="synthesize", data={"text": text, "noise_scale": "loud"}))
    await client.expect_error("invalid_voice")
    await client.send(Event(type="synthesize-start", data={"length_scale": 99}))
    await client.expect_error("invalid_voice")
    await client.send(SynthesizeChunk(text="Ignored.").event(), SynthesizeStop().event())
    assert [e.type for e in await client.read_until("synthesize-stopped")] == ["synthesize-stopped"]
    await client.ping()


async def test_streamed_text_starts_speaking_before_the_text_ends(client: Client) -> None:
    """The first sentence is heard (audio-start and audio) while the client has not sent the rest."""
    await client.send(SynthesizeStart().event(),
                      SynthesizeChunk(text="The kitchen lights are now off. I also turned the ").event())
    first = await client.read_until("audio-chunk")
    assert [e.type for e in first] == ["audio-start", "audio-chunk"]
    await client.send(SynthesizeChunk(text="heating down for the night.").event(), SynthesizeStop().event())
    events = first + await client.read_until("synthesize-stopped")
    audio, start = collect_audio(events[:-1])
    assert 3 < audio_seconds(audio, start) < 10
    assert [e.type for e in events][-2:] == ["audio-stop", "synthesize-stopped"]


async def test_a_long_text_is_spoken_without_a_timeout(client: Client) -> None:
    """About 3,000 characters (sped up with length_scale 0.6): the audio comes piece by piece with no gap
    over 20 s between events and covers the whole text (at least 1 s of audio per 100 characters at this
    speed)."""
    sentence = ("Here is one more sentence of a rather long answer, read out loud to check that nothing "
                "times out. ")
    text = sentence * (3000 // len(sentence) + 1)
    await client.send(Event(type="synthesize", data={"text": text, "length_scale": 0.6}))
    events = []
    while not events or events[-1].type != "audio-stop":
        events.append(await client.read(timeout=20))
    audio, start = collect_audio(events)
    assert len(text) >= 3000 and audio_seconds(audio, start) > len(text) / 100
    await client.ping()


async def test_connections_share_the_voice_fairly(server: WyomingServer) -> None:
    """A short answer asked while a long one is being spoken is finished first: synthesis goes piece by
    piece, first come first served, so the long request cannot hold the voice."""
    long_client, short_client = await connect(server.port), await connect(server.port)
    long_text = " ".join(f"This is sentence number {i} of a long answer." for i in range(12))
    await long_client.send(Synthesize(text=long_text).event())
    await long_client.expect("audio-start")
    await short_client.send(Synthesize(text="Yes.").event())
    order: list[str] = []

    async def finish(client: Client, name: str) -> None:
        await client.read_until("audio-stop")
        order.append(name)

    await asyncio.gather(finish(long_client, "long"), finish(short_client, "short"))
    assert order == ["short", "long"]
    await long_client.close()
    await short_client.close()


async def test_three_streams_at_once(server: WyomingServer) -> None:
    """Three streaming requests interleave on one voice; each gets its whole audio in order."""
    clients = [await connect(server.port) for _ in range(3)]
    for i, conn in enumerate(clients):
        await conn.send(SynthesizeStart().event(), SynthesizeChunk(text=f"Client {i} says hello. ").event())
    for conn in clients:
        await conn.send(SynthesizeChunk(text="And goodbye.").event(), SynthesizeStop().event())
    replies = await asyncio.gather(*(conn.read_until("synthesize-stopped") for conn in clients))
    for events in replies:
        audio, start = collect_audio(events[:-1])
        assert 1.0 < audio_seconds(audio, start) < 6
    for conn in clients:
        await conn.close()


async def test_full_queue_answers_busy(stt: SpeechToText, tts: TextToSpeech) -> None:
    """With synthesis held and its one-job queue full, a new request gets error ``busy`` at once; the
    connection and the server keep working once the queue drains."""
    small = TextToSpeech(max_pending=1)
    small._default = small._voices[small.name] = tts._default  # share the loaded voice
    wyoming = WyomingServer("tcp://127.0.0.1:0", stt, small, None, "1")
    client = await connect(await wyoming.start())
    gate, running = threading.Event(), threading.Event()
    held = [small._worker.submit(lambda: running.set() or gate.wait(30))]
    try:
        assert await asyncio.to_thread(running.wait, 10)
        held.append(small._worker.submit(time.sleep, 0))  # the queue (one job) is now full
        await client.send(Synthesize(text="Are you there?").event())
        await client.expect_error("busy")
    finally:
        gate.set()
    for job in held:
        await asyncio.wrap_future(job)
    await client.send(Synthesize(text="Are you there?").event())
    audio, _ = collect_audio(await client.read_until("audio-stop"))
    assert audio
    await client.close()
    await wyoming.stop()


async def test_connection_limit(stt: SpeechToText, tts: TextToSpeech) -> None:
    """Past max_connections, with every connection busy (an utterance streaming), a new connection gets error
    ``busy`` and is closed; a slot frees on close."""
    wyoming = WyomingServer("tcp://127.0.0.1:0", stt, tts, None, "1", max_connections=2)
    port = await wyoming.start()
    first, second = await connect(port), await connect(port)
    for conn in (first, second):
        await conn.send(AudioStart(rate=16000, width=2, channels=1).event(),
                        AudioChunk(rate=16000, width=2, channels=1, audio=bytes(320)).event())
        await conn.ping()
    third = await connect(port)
    await third.expect_error("busy")
    assert await asyncio.wait_for(async_read_event(third.reader), TIMEOUT) is None
    await third.close()
    await first.close()
    await asyncio.sleep(0.1)
    fourth = await connect(port)
    await fourth.ping()
    for conn in (second, fourth):
        await conn.close()
    await wyoming.stop()


async def test_idle_connections_make_room(stt: SpeechToText, tts: TextToSpeech) -> None:
    """With every slot held by idle clients (connected, or half-way through an event), a new client is served:
    the idlest one is closed with error ``idle_timeout``."""
    wyoming = WyomingServer("tcp://127.0.0.1:0", stt, tts, None, "1", max_connections=2)
    port = await wyoming.start()
    idle = await connect(port)
    await idle.ping()
    slow = await connect(port)
    await slow.send_raw(b'{"type": "pi')  # a slowloris: part of a header, then nothing
    await asyncio.sleep(0.2)
    newcomer = await connect(port)
    await newcomer.ping()
    error = await idle.expect_error("idle_timeout")
    assert "make room" in error.text
    assert await asyncio.wait_for(async_read_event(idle.reader), TIMEOUT) is None
    another = await connect(port)
    await another.ping()
    await slow.expect_error("idle_timeout")
    for conn in (idle, slow, newcomer, another):
        await conn.close()
    await wyoming.stop()


async def test_read_timeouts_close_silent_and_slow_clients(stt: SpeechToText, tts: TextToSpeech) -> None:
    """No event for idle_seconds, or an event that does not finish within frame_seconds: error, then closed."""
    wyoming = WyomingServer("tcp://127.0.0.1:0", stt, tts, None, "1", idle_seconds=1.0, frame_seconds=1.0)
    port = await wyoming.start()
    silent = await connect(port)
    await silent.expect_error("idle_timeout")
    assert await asyncio.wait_for(async_read_event(silent.reader), TIMEOUT) is None
    dribbler = await connect(port)
    await dribbler.send_raw(json.dumps({"type": "audio-chunk", "payload_length": 100}).encode() + b"\n" + bytes(10))
    await dribbler.expect_error("frame_timeout")
    assert await asyncio.wait_for(async_read_event(dribbler.reader), TIMEOUT) is None
    for conn in (silent, dribbler):
        await conn.close()
    await wyoming.stop()


# --------------------------------------------------------------------------------------------- handle


async def test_transcript_is_handled_by_the_agent(server: WyomingServer, agent: EchoAgent) -> None:
    """What HA's wyoming conversation entity sends: Transcript with context.conversation_id."""
    client = await connect(server.port)
    await client.send(Transcript(text="What is two plus two?", language="en",
                                 context={"conversation_id": "01HXYZ", "device_id": "kitchen"}).event())
    handled = Handled.from_event(await client.expect("handled"))
    assert handled.text == "You said: What is two plus two?"
    assert handled.context is not None and handled.context["conversation_id"] == "01HXYZ"
    assert agent.calls == [{"text": "What is two plus two?", "conversation_id": "01HXYZ",
                            "profile": None, "language": "en", "channel": "wyoming:127.0.0.1"}]
    await client.close()


async def test_agent_error_is_spoken(client: Client, agent: EchoAgent) -> None:
    await client.send(Transcript(text="time out").event())
    handled = Handled.from_event(await client.expect("handled"))
    assert handled.text == "Sorry, that took too long."
    assert handled.context == {"error_code": "timeout"}
    assert agent.calls[0]["conversation_id"] is None


async def test_agent_crash_gets_a_spoken_apology(client: Client) -> None:
    await client.send(Transcript(text="crash", context={"conversation_id": "c1"}).event())
    handled = Handled.from_event(await client.expect("handled"))
    assert handled.text and "wrong" in handled.text
    await client.send(Transcript(text="still alive?").event())
    assert Handled.from_event(await client.expect("handled")).text == "You said: still alive?"


async def test_concurrent_conversations(server: WyomingServer) -> None:
    clients = [await connect(server.port) for _ in range(3)]
    for i, conn in enumerate(clients):
        await conn.send(Transcript(text="slow", context={"conversation_id": f"c{i}"}).event())
    replies = await asyncio.gather(*(conn.expect("handled") for conn in clients))
    assert [Handled.from_event(r).context["conversation_id"] for r in replies] == ["c0", "c1", "c2"]
    for conn in clients:
        await conn.close()


async def test_no_agent(stt: SpeechToText, tts: TextToSpeech) -> None:
    wyoming = WyomingServer("tcp://127.0.0.1:0", stt, tts, None, "1")
    client = await connect(await wyoming.start())
    await client.send(Transcript(text="hello").event())
    await client.expect_error("no_agent")
    await client.ping()
    await client.close()
    await wyoming.stop()


# --------------------------------------------------------------------------------------------- bad input


async def test_bad_input_gets_errors_and_the_connection_survives(client: Client,
                                                                 server: WyomingServer) -> None:
    # Audio before audio-start: one error, further orphan chunks and the stop are dropped quietly.
    chunk = AudioChunk(rate=16000, width=2, channels=1, audio=bytes(3200)).event()
    await client.send(chunk, chunk, chunk, AudioStop().event())
    await client.expect_error("audio_not_started")
    await client.ping()

    # audio-stop alone
    await client.send(AudioStop().event())
    await client.expect_error("audio_not_started")

    # Unsupported formats: at audio-start, or in a chunk of an accepted stream.
    for rate, width, channels in ((16000, 3, 1), (16000, 2, 0), (96000, 2, 1), (4000, 2, 1)):
        await client.send(AudioStart(rate=rate, width=width, channels=channels).event(),
                          AudioChunk(rate=rate, width=width, channels=channels, audio=bytes(960)).event(),
                          AudioStop().event())
        await client.expect_error("unsupported_audio_format")
        await client.ping()
    await client.send(AudioStart(rate=16000, width=2, channels=1).event(),
                      AudioChunk(rate=16000, width=5, channels=1, audio=bytes(960)).event(),
                      AudioChunk(rate=16000, width=2, channels=1, audio=bytes(960)).event(),
                      AudioStop().event())
    await client.expect_error("unsupported_audio_format")
    await client.ping()

    # No audio at all: an empty transcript (what whisper gives for silence), not an error.
    await client.send(AudioStart(rate=16000, width=2, channels=1).event(), AudioStop().event())
    assert (await client.transcript()).text == ""

    # Unknown and malformed events.
    await client.send(Event(type="detect", data={"names": ["ok_nabu"]}))
    await client.expect_error("unknown_event")
    await client.send(Event(type="synthesize", data={"voice": {}}))  # no text
    await client.expect_error("invalid_event")
    await client.send(Event(type="audio-start", data={"rate": 16000}))  # no width/channels
    await client.expect_error("invalid_event")
    await client.send_raw(b"this is not json\n")
    await client.expect_error("invalid_event")
    await client.send_raw(b'["a list"]\n')
    await client.expect_error("invalid_event")
    header = json.dumps({"type": "ping", "data_length": 5}).encode() + b"\n"
    await client.send_raw(header + b"{oops")  # data block that is not JSON: skipped whole
    await client.expect_error("invalid_event")
    await client.send(Event(type="select-program", data={"name": "nobody"}))
    await client.expect_error("unknown_program")
    await client.send(Event(type="select-program", data={"name": HANDLE_PROGRAM}))
    await client.ping()

    # Text-to-speech misuse.
    await client.send(SynthesizeChunk(text="Hello.").event())
    await client.expect_error("synthesize_not_started")
    await client.send(SynthesizeStop().event())
    await client.expect_error("synthesize_not_started")
    await client.send(Synthesize(text="   ").event())
    await client.expect_error("invalid_text")

    # The same connection still does real work, and so does a new one.
    await client.send(Synthesize(text="Still here.").event())
    audio, _ = collect_audio(await client.read_until("audio-stop"))
    assert audio
    other = await connect(server.port)
    await other.send(Describe().event())
    await other.expect("info")
    await other.close()


async def test_audio_over_the_limit_is_transcribed_up_to_it(stt: SpeechToText, tts: TextToSpeech,
                                                              agent: EchoAgent) -> None:
    """Audio past max_seconds ends the utterance there (as HA's VoiceCommandSegmenter does at its timeout):
    the transcript of what came before the limit is sent at once, the rest and the audio-stop are dropped."""
    pcm, rate, width, channels = read_wav("what_is_seven_times_six.wav")
    limit = len(pcm) / (rate * width * channels) + 0.5
    saved = stt.max_seconds
    stt.max_seconds = limit
    try:
        wyoming = WyomingServer("tcp://127.0.0.1:0", stt, tts, agent, "1")
        client = await connect(await wyoming.start())
        padded = pcm + bytes(rate * width * channels * 5)  # 5 s of silence more than the limit allows
        events = audio_events(padded, rate, width, channels)
        await client.send(*events[:-1])  # no audio-stop yet
        transcript = await client.transcript()
        await client.send(events[-1])  # the late audio-stop gets nothing
        await client.ping()
        await client.close()
        await wyoming.stop()
    finally:
        stt.max_seconds = saved
    assert "seven" in transcript.text.lower() or "7" in transcript.text, transcript


async def test_language_the_model_does_not_know_is_an_error(client: Client) -> None:
    """tiny.en knows only English: ``transcribe{language: "de"}`` is refused, not transcribed as English and
    labelled "de"; "en-US" is English."""
    pcm, rate, width, channels = read_wav("what_is_two_plus_two.wav")
    await client.send(Transcribe(language="de").event(), *audio_events(pcm, rate, width, channels))
    error = await client.expect_error("unsupported_language")
    assert "'de'" in error.text and "en" in error.text
    await client.ping()  # the rest of that utterance was dropped quietly
    await client.send(Transcribe(language="en-US").event(), *audio_events(pcm, rate, width, channels))
    transcript = await client.transcript()
    assert "two" in transcript.text.lower() or "2" in transcript.text


async def test_fatal_framing_error_closes_only_that_connection(server: WyomingServer) -> None:
    client = await connect(server.port)
    await client.send_raw(json.dumps({"type": "audio-chunk", "payload_length": 1 << 40}).encode() + b"\n")
    await client.expect_error("invalid_event")
    assert await asyncio.wait_for(async_read_event(client.reader), TIMEOUT) is None  # closed
    await client.close()
    other = await connect(server.port)
    await other.ping()
    await other.close()


async def test_client_disconnect_mid_request(server: WyomingServer) -> None:
    client = await connect(server.port)
    text = "This is a longer answer. It has a few sentences. Nobody listens."
    await client.send(Synthesize(text=text).event())
    await client.close()
    await asyncio.sleep(0.5)
    other = await connect(server.port)
    await other.ping()
    await other.close()


async def test_events_out_of_order(client: Client) -> None:
    """Restarts and interleavings get a log line, never a crash; the newest request wins."""
    pcm, rate, width, channels = read_wav("what_is_two_plus_two.wav")
    events = audio_events(pcm, rate, width, channels)
    # audio-start twice: the first utterance is dropped; transcribe in the middle drops it too.
    await client.send(events[0], events[1], Transcribe(language="en").event(), *events)
    transcript = await client.transcript()
    assert has_words(transcript.text, ("two", "2"), ("plus", "+")), transcript.text
    # synthesize-start twice, then a normal stream.
    await client.send(SynthesizeStart().event(), SynthesizeChunk(text="Forget this").event(),
                      SynthesizeStart().event(), SynthesizeChunk(text="Hello there.").event(),
                      SynthesizeStop().event())
    events = await client.read_until("synthesize-stopped")
    audio, start = collect_audio(events[:-1])
    assert 0.4 < audio_seconds(audio, start) < 3
    # Text in the wrong types.
    await client.send(Event(type="synthesize", data={"text": 42}))
    await client.expect_error("invalid_text")
    await client.send(Event(type="transcribe", data={"language": ["en"]}), *audio_events(pcm, rate, width, channels))
    assert has_words((await client.transcript()).text, ("two", "2"))
    await client.ping()


async def test_streamed_text_over_the_limit(stt: SpeechToText, tts: TextToSpeech) -> None:
    """A text stream passing max_chars gets error ``invalid_text`` once; the rest of the stream is
    ignored and synthesize-stop still answers synthesize-stopped."""
    small = TextToSpeech(max_chars=100)
    small._default = small._voices[small.name] = tts._default
    wyoming = WyomingServer("tcp://127.0.0.1:0", stt, small, None, "1")
    client = await connect(await wyoming.start())
    await client.send(SynthesizeStart().event(), SynthesizeChunk(text="word " * 30).event(),
                      SynthesizeChunk(text="more " * 30).event(), SynthesizeStop().event())
    events = await client.read_until("synthesize-stopped")
    errors = [Error.from_event(e) for e in events if e.type == "error"]
    assert [e.code for e in errors] == ["invalid_text"] and "limit is 100" in errors[0].text
    assert "audio-stop" not in [e.type for e in events]
    await client.ping()
    await client.close()
    await wyoming.stop()


async def test_client_leaving_mid_utterance_and_mid_stream(server: WyomingServer, stt: SpeechToText,
                                                           tts: TextToSpeech) -> None:
    """Clients that vanish in the middle of audio or of a text stream leave no queued work behind."""
    pcm, rate, width, channels = read_wav("how_many_files.wav")
    leaver = await connect(server.port)
    await leaver.send(*audio_events(pcm + bytes(32000), rate, width, channels)[:-1])  # no audio-stop
    await leaver.close()
    leaver = await connect(server.port)
    await leaver.send(SynthesizeStart().event(),
                      SynthesizeChunk(text="One. Two. Three. Four. Five. Six. Seven. Eight.").event())
    await leaver.read_until("audio-chunk")
    await leaver.close()
    deadline = time.monotonic() + TIMEOUT
    while not (stt._decode_worker.idle and tts._worker.idle):
        assert time.monotonic() < deadline, "queued work was not cancelled"
        await asyncio.sleep(0.05)
    other = await connect(server.port)
    await other.ping()
    await other.close()



# --------------------------------------------------------------------------------------------- lifecycle


async def test_serve_wyoming_runs_until_cancelled(stt: SpeechToText, tts: TextToSpeech,
                                                  agent: EchoAgent) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    task = asyncio.create_task(serve_wyoming(f"tcp://127.0.0.1:{port}", stt, tts, agent, "1"))
    for _ in range(100):
        try:
            client = await connect(port)
            break
        except OSError:
            await asyncio.sleep(0.05)
    else:
        pytest.fail("serve_wyoming did not start listening")
    await client.send(Describe().event())
    await client.expect("info")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await asyncio.wait_for(async_read_event(client.reader), TIMEOUT) is None  # closed by stop
    await client.close()
    with pytest.raises(OSError):
        await connect(port)


async def test_stop_closes_open_connections(stt: SpeechToText, tts: TextToSpeech) -> None:
    wyoming = WyomingServer("tcp://127.0.0.1:0", stt, tts, None, "1")
    client = await connect(await wyoming.start())
    await client.ping()
    await wyoming.stop()
    assert await asyncio.wait_for(async_read_event(client.reader), TIMEOUT) is None
    await client.close()


async def test_unix_socket(tmp_path: Path, stt: SpeechToText, tts: TextToSpeech) -> None:
    path = tmp_path / "o1.sock"
    wyoming = WyomingServer(f"unix://{path}", stt, tts, None, "1")
    assert await wyoming.start() == 0
    reader, writer = await asyncio.open_unix_connection(str(path))
    client = Client(reader, writer)
    await client.ping()
    await client.close()
    await wyoming.stop()
    assert not path.exists()


@pytest.mark.parametrize("uri", ["http://127.0.0.1:1", "tcp://127.0.0.1", "stdio://", "unix://"])
def test_bad_uri(uri: str, stt: SpeechToText, tts: TextToSpeech) -> None:
    with pytest.raises(ValueError):
        WyomingServer(uri, stt, tts, None, "1")
