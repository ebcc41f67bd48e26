"""A small software voice satellite that speaks the Wyoming protocol, for end-to-end tests.

It behaves the way Home Assistant's ``wyoming`` integration expects a satellite to (the client side is
``homeassistant/components/wyoming/assist_satellite.py``), and the way an ESP32 running ESPHome's
``micro_wake_word`` behaves: the wake word is detected *on the satellite*.

- It serves Wyoming on a TCP port. Home Assistant connects to it, asks ``describe`` (the answer announces a
  satellite, plus the local microWakeWord "okay_nabu" wake word), sends ``run-satellite`` and pings it.
- :meth:`SoftwareSatellite.play` feeds a recording (16 kHz, 16-bit, mono) through the wake word model of the
  PyPI package ``pymicro-wakeword`` (the same microWakeWord model the ESPHome boards run), 10 ms at a time. On a
  detection it sends ``detection`` and ``run-pipeline`` (speech-to-text -> text-to-speech) and streams the rest
  of the recording, then silence, in real time as ``audio-chunk`` events until Home Assistant says the speech has
  ended (``voice-stopped`` or ``transcript``).
- With ``local_wake=False`` it is a "streaming" satellite instead (ESPHome's "wake word in Home Assistant"): it
  asks for a pipeline from the wake word stage and streams the whole recording; Home Assistant runs the wake word
  on a Wyoming wake word service, such as :class:`WakeWordService` below (the same model, served over Wyoming).
- It records everything Home Assistant sends back (``transcribe``, ``voice-started``/``voice-stopped``,
  ``transcript``, ``synthesize``, the reply's ``audio-start``/``audio-chunk``/``audio-stop``, ``error``) and
  answers ``played`` once the reply audio has arrived, as a speaker that finished playing would.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field

from pymicro_wakeword import MicroWakeWord, MicroWakeWordFeatures, Model
from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioChunkConverter, AudioStart, AudioStop
from wyoming.error import Error
from wyoming.event import Event, async_read_event, async_write_event
from wyoming.info import Attribution, Describe, Info, Satellite, WakeModel, WakeProgram
from wyoming.ping import Ping, Pong
from wyoming.pipeline import PipelineStage, RunPipeline
from wyoming.satellite import PauseSatellite, RunSatellite
from wyoming.snd import Played
from wyoming.tts import Synthesize
from wyoming.vad import VoiceStarted, VoiceStopped
from wyoming.wake import Detect, Detection, NotDetected

_LOGGER = logging.getLogger(__name__)

RATE = 16_000
"""Microphone sample rate, in Hz."""
WIDTH = 2
"""Microphone sample width, in bytes (signed 16-bit)."""
CHANNELS = 1
"""Microphone channel count."""
CHUNK_BYTES = 2048
"""Bytes per microphone ``audio-chunk`` event (1,024 samples = 64 ms)."""
WAKE_STEP_BYTES = 320
"""Bytes fed to the wake word model at a time (160 samples = 10 ms, microWakeWord's feature step)."""
ATTRIBUTION = Attribution(name="o1 tests", url="https://github.com/OHF-Voice/pymicro-wakeword")


def wake_program(models: list[Model]) -> WakeProgram:
    """A Wyoming ``WakeProgram`` offering built-in microWakeWord models."""
    described = []
    for model in models:
        phrase = MicroWakeWord.from_builtin(model).wake_word
        described.append(WakeModel(name=model.value, attribution=ATTRIBUTION, installed=True, description=phrase,
                                   version=None, languages=["en"], phrase=phrase))
    return WakeProgram(name="microwakeword", attribution=ATTRIBUTION, installed=True,
                       description="microWakeWord (pymicro-wakeword)", version=None, models=described)


def _first_detection(detector: MicroWakeWord, features: MicroWakeWordFeatures, audio: bytes) -> int | None:
    """Feed 16 kHz 16-bit mono ``audio`` to ``detector`` 10 ms at a time; return the byte offset just after the
    first detection, or None. The detector's state carries on (reset it between recordings)."""
    for offset in range(0, len(audio), WAKE_STEP_BYTES):
        for window in features.process_streaming(audio[offset:offset + WAKE_STEP_BYTES]):
            if detector.process_streaming(window):
                return offset + WAKE_STEP_BYTES
    return None


@dataclass
class SatelliteTurn:
    """What happened for one recording played into the satellite.

    ``wake_seconds`` is where in the recording the wake word was detected (None: not detected; with the wake word
    in Home Assistant, from its ``detection`` event); ``events`` holds
    every event Home Assistant sent while the turn ran, in order; ``reply`` is the reply audio (PCM at
    ``reply_rate`` Hz, ``reply_width`` bytes per sample, ``reply_channels`` channels).
    """

    wake_seconds: float | None = None
    events: list[Event] = field(default_factory=list)
    reply: bytes = b""
    reply_rate: int = 0
    reply_width: int = 0
    reply_channels: int = 0
    streamed_seconds: float = 0.0

    def of(self, event_type: str) -> list[Event]:
        """The received events of one type."""
        return [e for e in self.events if e.type == event_type]

    @property
    def transcript(self) -> str | None:
        """The text of the ``transcript`` event, if one came."""
        found = self.of("transcript")
        return Transcript.from_event(found[0]).text if found else None

    @property
    def spoken_text(self) -> str | None:
        """The text Home Assistant synthesized for the reply (``synthesize`` event), if any."""
        found = self.of("synthesize")
        return Synthesize.from_event(found[0]).text if found else None

    @property
    def errors(self) -> list[Error]:
        """The ``error`` events."""
        return [Error.from_event(e) for e in self.of("error")]


class SoftwareSatellite:
    """A Wyoming satellite with an on-device wake word (see the module docstring).

    Args:
        name: the satellite's name (Home Assistant names its device after it).
        wake_word: the built-in microWakeWord model to listen for.
        local_wake: True to detect the wake word on the satellite; False to leave it to Home Assistant's pipeline.
    """

    def __init__(self, name: str = "o1 software satellite", wake_word: Model = Model.OKAY_NABU,
                 local_wake: bool = True) -> None:
        self.name = name
        self.wake_word = wake_word
        self.local_wake = local_wake
        self.port = 0
        self.running = asyncio.Event()
        """Set while Home Assistant has the satellite running (after ``run-satellite``)."""
        self.connections = 0
        self._server: asyncio.AbstractServer | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._inbox: asyncio.Queue[Event] = asyncio.Queue()
        self._tasks: set[asyncio.Task] = set()
        self._detector = MicroWakeWord.from_builtin(wake_word)
        self._features = MicroWakeWordFeatures()

    # ------------------------------------------------------------------ server
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen on ``host``:``port`` (0 = a free port); return the port."""
        self._server = await asyncio.start_server(self._serve, host, port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def stop(self) -> None:
        """Close every connection and stop listening."""
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)

    def info(self) -> Info:
        """What ``describe`` answers: a satellite, with its local wake word engine when it has one."""
        if not self.local_wake:
            return Info(satellite=Satellite(
                name=self.name, attribution=ATTRIBUTION, installed=True, version="1.0.0",
                description="o1 test satellite (wake word in Home Assistant)", has_vad=False))
        return Info(
            satellite=Satellite(name=self.name, attribution=ATTRIBUTION, installed=True,
                                description="o1 test satellite (local microWakeWord)", version="1.0.0",
                                has_vad=False, active_wake_words=[self.wake_word.value], max_active_wake_words=1,
                                supports_trigger=False),
            wake=[wake_program([self.wake_word])],
        )

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self.connections += 1
        try:
            while (event := await async_read_event(reader)) is not None:
                await self._on_event(event, writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self._tasks.discard(task)
            if self._writer is writer:
                self._writer = None
                self.running.clear()
            writer.close()

    async def _on_event(self, event: Event, writer: asyncio.StreamWriter) -> None:
        if Describe.is_type(event.type):
            await async_write_event(self.info().event(), writer)
        elif RunSatellite.is_type(event.type):
            self._writer = writer
            self.running.set()
        elif PauseSatellite.is_type(event.type):
            self.running.clear()
        elif Ping.is_type(event.type):
            await async_write_event(Pong(text=Ping.from_event(event).text).event(), writer)
        elif Pong.is_type(event.type):
            pass
        else:
            _LOGGER.debug("satellite received %s", event.type)
            self._inbox.put_nowait(event)

    async def _send(self, event: Event) -> None:
        if self._writer is None:
            raise ConnectionError("Home Assistant is not connected to the satellite")
        await async_write_event(event, self._writer)

    # ------------------------------------------------------------------ wake word
    def detect_wake_word(self, audio: bytes) -> int | None:
        """Run the wake word model over 16 kHz 16-bit mono ``audio``; return the byte offset just after the
        detection, or None. The model's state is reset afterwards."""
        try:
            return _first_detection(self._detector, self._features, audio)
        finally:
            self._detector.reset()
            self._features = MicroWakeWordFeatures()

    # ------------------------------------------------------------------ a turn
    async def play(self, audio: bytes, max_silence: float = 8.0, timeout: float = 90.0) -> SatelliteTurn:
        """Play a recording into the satellite's microphone and wait for the spoken reply.

        Args:
            audio: 16,000 Hz, 16-bit, mono PCM.
            max_silence: seconds of silence streamed after the recording at most, waiting for the end of speech.
            timeout: seconds to wait for the whole reply.

        Returns:
            The turn; ``wake_seconds`` is None (and nothing was sent) when the wake word was not heard.
        """
        turn = SatelliteTurn()
        while not self._inbox.empty():  # leftovers of an earlier turn
            self._inbox.get_nowait()
        if self.local_wake:
            after_wake = self.detect_wake_word(audio)
            if after_wake is None:
                return turn
            turn.wake_seconds = after_wake / (RATE * WIDTH)
            await self._send(Detection(name=self.wake_word.value, timestamp=int(turn.wake_seconds * 1000)).event())
            await self._send(RunPipeline(start_stage=PipelineStage.ASR, end_stage=PipelineStage.TTS,
                                         wake_word_name=self.wake_word.value).event())
            audio = audio[after_wake:]
        else:
            await self._send(RunPipeline(start_stage=PipelineStage.WAKE, end_stage=PipelineStage.TTS).event())
        async with asyncio.timeout(timeout):
            speech_ended = asyncio.Event()
            receiver = asyncio.create_task(self._receive(turn, speech_ended))
            try:
                await self._stream(turn, audio, max_silence, speech_ended)
                await receiver
            finally:
                receiver.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await receiver
        return turn

    async def _stream(self, turn: SatelliteTurn, audio: bytes, max_silence: float,
                      speech_ended: asyncio.Event) -> None:
        """Stream ``audio`` then silence, in real time, until the speech ended or ``max_silence`` ran out."""
        silence = bytes(CHUNK_BYTES)
        chunk_seconds = CHUNK_BYTES / (RATE * WIDTH)
        chunks = [audio[i:i + CHUNK_BYTES] for i in range(0, len(audio), CHUNK_BYTES)]
        chunks += [silence] * int(max_silence / chunk_seconds)
        timestamp = 0
        for chunk in chunks:
            if speech_ended.is_set():
                break
            await self._send(AudioChunk(rate=RATE, width=WIDTH, channels=CHANNELS, audio=chunk,
                                        timestamp=timestamp).event())
            timestamp += int(chunk_seconds * 1000)
            turn.streamed_seconds += len(chunk) / (RATE * WIDTH)
            await asyncio.sleep(len(chunk) / (RATE * WIDTH))
        await self._send(AudioStop(timestamp=timestamp).event())

    async def _receive(self, turn: SatelliteTurn, speech_ended: asyncio.Event) -> None:
        """Collect Home Assistant's events until the reply audio ended (answered with ``played``) or an error."""
        converter: AudioChunkConverter | None = None
        while True:
            event = await self._inbox.get()
            turn.events.append(event)
            if VoiceStopped.is_type(event.type) or Transcript.is_type(event.type):
                speech_ended.set()
            elif Detection.is_type(event.type) and turn.wake_seconds is None:
                timestamp = Detection.from_event(event).timestamp
                turn.wake_seconds = timestamp / 1000 if timestamp is not None else -1.0
            elif Error.is_type(event.type):
                speech_ended.set()
                return
            elif AudioStart.is_type(event.type):
                start = AudioStart.from_event(event)
                turn.reply_rate, turn.reply_width, turn.reply_channels = start.rate, start.width, start.channels
                converter = AudioChunkConverter(rate=start.rate, width=start.width, channels=start.channels)
            elif AudioChunk.is_type(event.type):
                chunk = AudioChunk.from_event(event)
                turn.reply += (converter.convert(chunk) if converter else chunk).audio
            elif AudioStop.is_type(event.type):
                await self._send(Played().event())
                return
            elif not (Transcribe.is_type(event.type) or VoiceStarted.is_type(event.type)
                      or Synthesize.is_type(event.type) or Detect.is_type(event.type)):
                _LOGGER.debug("satellite ignores %s", event.type)


class WakeWordService:
    """A Wyoming wake word service (like wyoming-microwakeword) running the built-in microWakeWord models.

    Home Assistant's ``wyoming`` integration makes it a ``wake_word`` entity; the Assist pipeline then sends it
    ``detect``, ``audio-start`` and the audio, and it answers ``detection`` (``name`` = the model,
    ``timestamp`` in ms from the start of the stream) or ``not-detected`` at ``audio-stop``.

    Args:
        models: the built-in models it offers.
    """

    def __init__(self, models: tuple[Model, ...] = (Model.OKAY_NABU, Model.HEY_JARVIS)) -> None:
        self.models = models
        self.port = 0
        self.streams = 0
        """Audio streams handled so far."""
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task] = set()

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen on ``host``:``port`` (0 = a free port); return the port."""
        self._server = await asyncio.start_server(self._serve, host, port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def stop(self) -> None:
        """Close every connection and stop listening."""
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        # One model and one feature stream per wake word: each model sees every 10 ms window.
        detectors: dict[str, tuple[MicroWakeWord, MicroWakeWordFeatures]] = {}
        received = 0
        detected = False
        try:
            while (event := await async_read_event(reader)) is not None:
                if Describe.is_type(event.type):
                    await async_write_event(Info(wake=[wake_program(list(self.models))]).event(), writer)
                elif Detect.is_type(event.type):
                    names = Detect.from_event(event).names or [m.value for m in self.models]
                    detectors = {m.value: (MicroWakeWord.from_builtin(m), MicroWakeWordFeatures())
                                 for m in self.models if m.value in names}
                    received, detected = 0, False
                    self.streams += 1
                elif AudioChunk.is_type(event.type) and not detected:
                    audio = AudioChunk.from_event(event).audio
                    for name, (detector, features) in detectors.items():
                        offset = _first_detection(detector, features, audio)
                        if offset is not None:
                            detected = True
                            ms = (received + offset) * 1000 // (RATE * WIDTH)
                            await async_write_event(Detection(name=name, timestamp=ms).event(), writer)
                            break
                    received += len(audio)
                elif AudioStop.is_type(event.type) and not detected:
                    await async_write_event(NotDetected().event(), writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self._tasks.discard(task)
            writer.close()
