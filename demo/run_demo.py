"""`make demo`: a spoken question answered end to end through a real Home Assistant core process.

Starts the o1 server and `hass` on free loopback ports in a temporary folder, onboards HA through its
HTTP API, adds HA's `wyoming` integration (pointed at o1's speech services) and the `o1` integration
through their config flows, creates an Assist pipeline (o1 speech-to-text -> o1 agent -> o1
text-to-speech), streams the question's audio through it over HA's WebSocket API and prints the
transcript, the code the agent ran, the answer and the time of each stage. The spoken reply is saved
as a WAV file. Everything started here is stopped, and the temporary folder removed, in every case.

Run with the HA environment's Python (script/demo does): it needs aiohttp, nothing from HA itself.
Progress goes to stderr, the result to stdout. Exit code 0 only on success.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))

from assist import (
    add_integrations,
    conversation_id,
    create_pipeline,
    fetch_reply_audio,
    find_engines,
    run_pipeline,
)
from audio import find_ffmpeg, read_question, save_reply
from ha_api import HAError, HomeAssistantREST, HomeAssistantWS, wait_for
from progress import log, stage
from report import Outcome, format_report
from workspace import Workspace, liveness_check, o1_server_healthy

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_AUDIO = ROOT / "tests" / "fixtures" / "what_is_two_plus_two.wav"
HTTP_TIMEOUT = 120  # seconds for one HTTP request to HA or the o1 server (config flows, reply audio)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Return the command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--audio", type=Path, default=DEFAULT_AUDIO,
                        help="question as a 16-bit mono WAV (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=Path("demo-reply.wav"),
                        help="where to save the spoken reply (default: %(default)s)")
    parser.add_argument("--server", required=True, help="the o1-server console script of the server env")
    parser.add_argument("--hass", required=True, help="the hass console script of the HA env")
    parser.add_argument("--integration", type=Path, default=ROOT / "custom_components" / "o1",
                        help="the o1 custom integration to install into HA (default: %(default)s)")
    parser.add_argument("--ffmpeg",
                        help="ffmpeg binary for HA's TTS conversion (default: PATH, then imageio-ffmpeg)")
    parser.add_argument("--timeout", type=float, default=240.0,
                        help="seconds allowed for the spoken question's pipeline run (default: %(default)s)")
    parser.add_argument("--startup-timeout", type=float, default=300.0,
                        help="seconds allowed for the o1 server and HA to come up (default: %(default)s)")
    parser.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                        help="extra argument for o1-server (repeatable), e.g. --server-arg=--llm-model=X")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (logs, HA config)")
    return parser.parse_args(argv)


async def run(opts: argparse.Namespace, ws: Workspace) -> int:
    """Do the whole demo and return the exit code. Child processes are stopped by the caller."""
    question = read_question(opts.audio)
    log(f"question: {opts.audio} ({question.seconds:.1f} s at {question.rate} Hz); workspace {ws.root}")
    ffmpeg = _pick_ffmpeg(opts.ffmpeg)
    setup: dict[str, float] = {}

    # Every HTTP request is bounded; WebSocket commands are bounded in ha_api, the pipeline run in assist.
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=HTTP_TIMEOUT)) as session:
        rest = HomeAssistantREST(session, ws.ha_url)
        with stage("starting the o1 server and Home Assistant", setup):
            await _start_and_wait(session, rest, ws, opts, ffmpeg, setup)
        with stage("onboarding Home Assistant", setup):
            await rest.onboard(ws.ha_password)
        async with HomeAssistantWS(rest) as hass_ws:
            with stage("adding the wyoming and o1 integrations", setup):
                await add_integrations(rest, ws.wyoming_port, ws.o1_url, ws.o1_token)
                engines = await find_engines(hass_ws)
                log(f"engines: {engines}")
            with stage("creating the Assist pipeline", setup):
                pipeline_id = await create_pipeline(hass_ws, engines)
            with stage("asking the question through the pipeline"):
                events = await run_pipeline(hass_ws, pipeline_id, question, opts.timeout)

        turn = await _fetch_turn(session, ws, conversation_id(events))
        reply = await fetch_reply_audio(rest, events, engines)

    saved = True
    try:
        note = f"{save_reply(reply.data, opts.out, ffmpeg)}; {reply.how}"
    except RuntimeError as err:
        note, saved = f"NOT SAVED: {err}", False
    print(format_report(Outcome(opts.audio, question, events, turn, opts.out, note, reply.seconds, setup)),
          flush=True)
    return 0 if saved else 1


def _pick_ffmpeg(explicit: str | None) -> str | None:
    """Return the ffmpeg binary HA may use for TTS conversion, logging what was found."""
    ffmpeg = find_ffmpeg(explicit)
    if ffmpeg is None:
        log("no ffmpeg found: HA cannot convert the pipeline's reply to mp3; the reply will be spoken "
            "again as WAV (install ffmpeg or imageio-ffmpeg to get the pipeline's own audio)")
    else:
        log(f"ffmpeg for HA's TTS conversion: {ffmpeg}")
    return ffmpeg


async def _start_and_wait(session: aiohttp.ClientSession, rest: HomeAssistantREST, ws: Workspace,
                          opts: argparse.Namespace, ffmpeg: str | None, setup: dict[str, float]) -> None:
    """Start the o1 server and HA side by side; wait until both answer (raise if one dies first)."""
    server = ws.start_o1_server(opts.server, opts.server_arg)
    hass = ws.start_hass(opts.hass, opts.integration, ffmpeg)
    alive = liveness_check(server, hass)

    async def ready(what: str, check: Callable[[], Awaitable[bool]]) -> None:
        began = time.monotonic()
        await wait_for(check, what, opts.startup_timeout, alive=alive)
        took = setup[f"  {what} answered"] = time.monotonic() - began
        log(f"{what}: answering after {took:.1f} s")

    await asyncio.gather(ready("o1 server health", lambda: o1_server_healthy(session, ws)),
                         ready("Home Assistant HTTP", rest.is_up))


async def _fetch_turn(session: aiohttp.ClientSession, ws: Workspace,
                      conv_id: str | None) -> dict[str, Any] | None:
    """Return the o1 server's record of the conversation's last turn (code blocks and all), or None."""
    if not conv_id:
        return None
    url = f"{ws.o1_url}/api/conversation/{conv_id}"
    async with session.get(url, headers={"Authorization": f"Bearer {ws.o1_token}"}) as resp:
        if resp.status != 200:
            log(f"o1 server: GET /api/conversation/{conv_id} -> HTTP {resp.status}")
            return None
        turns = (await resp.json()).get("turns") or []
    return turns[-1] if turns else None


# ------------------------------------------------------------------------------ process-level frame

_received_signal = signal.SIGINT


def _raise_on_sigterm() -> None:
    """Turn SIGTERM and SIGHUP into KeyboardInterrupt, so the same cleanup runs as for Ctrl-C."""
    def handler(signum: int, _frame: Any) -> None:
        global _received_signal  # noqa: PLW0603 - one process-wide fact, read once at exit
        _received_signal = signal.Signals(signum)
        raise KeyboardInterrupt(_received_signal.name)
    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGHUP, handler)


def main(argv: list[str] | None = None) -> int:
    """Run the demo in a temporary workspace that is always cleaned up; return the exit code."""
    opts = parse_args(argv)
    opts.out = opts.out.resolve()
    _raise_on_sigterm()
    ws = Workspace(Path(tempfile.mkdtemp(prefix="o1-demo-")))
    code = 1
    try:
        code = asyncio.run(run(opts, ws))
    except KeyboardInterrupt:
        log(f"interrupted ({_received_signal.name})")
        code = 128 + _received_signal
    except (HAError, TimeoutError, RuntimeError, ValueError, OSError, aiohttp.ClientError) as err:
        log(f"FAILED: {err}")
        for proc in ws.processes:
            log(f"--- end of {proc.name}'s log ({proc.log_path}):\n{proc.log_tail(20)}")
        if ws.processes and not opts.keep:  # only worth it when something ran and logged
            log("run again with --keep (script/demo AUDIO.wav --keep) to keep the workspace with the full logs")
    finally:
        # Cleanup must not be cut short by a second Ctrl-C or a SIGTERM.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        ws.stop_all()
        if opts.keep:
            log(f"kept the workspace: {ws.root}")
        else:
            shutil.rmtree(ws.root, ignore_errors=True)
    log("success" if code == 0 else f"exit code {code}")
    return code


if __name__ == "__main__":
    sys.exit(main())
