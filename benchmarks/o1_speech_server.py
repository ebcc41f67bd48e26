"""o1's Wyoming server with only the speech services, for the benchmark (run with the server env's Python).

It is the same ``WyomingServer``, ``SpeechToText`` and ``TextToSpeech`` that ``o1-server`` runs, with the same
defaults (whisper tiny.en int8, beam size 5, 2 CPU threads, language en; piper en_US-joe-medium), but
without the agent, the HTTP API and the embedded LLM, so that its memory and CPU use are those of the speech
services alone. ``--load`` chooses which models are loaded (an unloaded service costs no model memory):
``stt,tts`` is the deployed add-on; ``stt`` or ``tts`` alone compare one-to-one with the reference add-ons.

    HF_HUB_OFFLINE=1 ~/.cache/o1/server-venv/bin/python benchmarks/o1_speech_server.py --uri tcp://127.0.0.1:10700
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "addon"))

from o1_server.stt import SpeechToText  # noqa: E402
from o1_server.stt.service import DECODING_MODES  # noqa: E402
from o1_server.tts import TextToSpeech  # noqa: E402
from o1_server.wyoming_server import WyomingServer  # noqa: E402


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uri", required=True, help="tcp://HOST:PORT")
    parser.add_argument("--load", default="stt,tts", help="models to load: stt, tts or stt,tts")
    parser.add_argument("--model", default="tiny.en")
    parser.add_argument("--language", default="en")
    parser.add_argument("--beam-size", type=int, default=5)
    parser.add_argument("--compute-type", default="int8")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--voice", default="en_US-joe-medium")
    parser.add_argument("--no-early-decoding", action="store_true")
    parser.add_argument("--decoding", choices=DECODING_MODES, default=None,
                        help="the --stt-decoding mode (default: the server's default)")
    parser.add_argument("--debug", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.debug else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    stt = SpeechToText(args.model, args.language, args.beam_size, args.compute_type, args.threads,
                       early_decoding=not args.no_early_decoding,
                       **({"decoding": args.decoding} if args.decoding else {}))
    tts = TextToSpeech(args.voice)
    load = {part.strip() for part in args.load.split(",") if part.strip()}
    if "stt" in load:
        stt.load()
    if "tts" in load:
        tts.load()
    server = WyomingServer(args.uri, stt, tts, None, "benchmark")
    await server.start()
    print("READY", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop()


if __name__ == "__main__":
    asyncio.run(main())
