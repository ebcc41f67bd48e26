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
import secrets
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))

from audio import Pcm, find_ffmpeg, read_question, save_reply  # noqa: E402
from ha_api import HAError, HomeAssistantREST, HomeAssistantWS, wait_for  # noqa: E402
from processes import ManagedProcess, free_port  # noqa: E402
from progress import log, stage  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_AUDIO = ROOT / "tests" / "fixtures" / "what_is_two_plus_two.wav"
LANGUAGE = "en"
AUDIO_CHUNK_BYTES = 2048  # 64 ms of 16 kHz 16-bit mono, about what a satellite sends

# HA components the demo needs, and nothing else: `default_config` would pull integrations whose
# requirements are not installed. `ffmpeg` is set up by `tts` anyway; it is listed to give its binary.
HA_CONFIGURATION = """\
homeassistant:
  name: o1 demo
  time_zone: UTC
  unit_system: metric
  country: US
  language: en
http:
  server_host: 127.0.0.1
  server_port: {port}
api:
auth:
websocket_api:
onboarding:
config:
conversation:
assist_pipeline:
stt:
tts:
{ffmpeg}logger:
  default: warning
  logs:
    homeassistant.components.wyoming: info
    homeassistant.components.assist_pipeline: info
    custom_components.o1: debug
"""


# ----------------------------------------------------------------------------------------- options


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
    parser.add_argument("--ffmpeg", help="ffmpeg binary for HA's TTS conversion (default: PATH, then imageio-ffmpeg)")
    parser.add_argument("--timeout", type=float, default=240.0,
                        help="seconds allowed for the spoken question's pipeline run (default: %(default)s)")
    parser.add_argument("--startup-timeout", type=float, default=300.0,
                        help="seconds allowed for the o1 server and HA to come up (default: %(default)s)")
    parser.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                        help="extra argument for o1-server (repeatable), e.g. --server-arg=--llm-model=...")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (logs, HA config)")
    return parser.parse_args(argv)


# --------------------------------------------------------------------------------------- workspace


@dataclass
class Workspace:
    """The temporary folder, ports, secrets and child processes of one demo run."""

    root: Path
    wyoming_port: int = field(default_factory=free_port)
    api_port: int = field(default_factory=free_port)
    ha_port: int = field(default_factory=free_port)
    o1_token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    ha_password: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    processes: list[ManagedProcess] = field(default_factory=list)

    @property
    def o1_url(self) -> str:
        """Return the o1 server's HTTP API base URL."""
        return f"http://127.0.0.1:{self.api_port}"

    @property
    def ha_url(self) -> str:
        """Return Home Assistant's base URL."""
        return f"http://127.0.0.1:{self.ha_port}"

    @property
    def ha_config(self) -> Path:
        """Return HA's configuration folder."""
        return self.root / "ha-config"

    def stop_all(self) -> None:
        """Stop every child process, the last started first."""
        for proc in reversed(self.processes):
            proc.stop()


def start_o1_server(ws: Workspace, opts: argparse.Namespace) -> ManagedProcess:
    """Start the o1 server with its embedded defaults; data and sandbox live in the temp folder."""
    data_dir = ws.root / "o1-data"
    data_dir.mkdir()
    argv = [opts.server, "--host", "127.0.0.1", "--wyoming-port", str(ws.wyoming_port),
            "--api-port", str(ws.api_port), "--token", ws.o1_token, "--data-dir", str(data_dir),
            "--log-level", "INFO", *opts.server_arg]
    proc = ManagedProcess("o1-server", argv, ws.root / "o1-server.log")
    ws.processes.append(proc)
    proc.start()
    return proc


def start_hass(ws: Workspace, opts: argparse.Namespace, ffmpeg: str | None) -> ManagedProcess:
    """Write a minimal HA configuration with the o1 integration installed, and start `hass` on it."""
    config = ws.ha_config
    (config / "custom_components").mkdir(parents=True)
    shutil.copytree(opts.integration, config / "custom_components" / "o1",
                    ignore=shutil.ignore_patterns("__pycache__"))
    ffmpeg_block = f"ffmpeg:\n  ffmpeg_bin: {ffmpeg}\n" if ffmpeg else ""
    (config / "configuration.yaml").write_text(HA_CONFIGURATION.format(port=ws.ha_port, ffmpeg=ffmpeg_block))
    # --skip-pip: never let HA install packages into the shared HA environment at run time.
    argv = [opts.hass, "--config", str(config), "--skip-pip", "--log-no-color"]
    proc = ManagedProcess("hass", argv, ws.root / "hass.log")
    ws.processes.append(proc)
    proc.start()
    return proc


async def o1_server_healthy(session: aiohttp.ClientSession, ws: Workspace) -> bool:
    """Return True when the o1 server's health endpoint answers 200."""
    try:
        async with session.get(f"{ws.o1_url}/api/health", timeout=aiohttp.ClientTimeout(total=3)) as resp:
            return resp.status == 200
    except (aiohttp.ClientError, TimeoutError):
        return False


# ----------------------------------------------------------------------------------- HA setup steps


@dataclass
class Engines:
    """The entities the demo's pipeline is made of, and their languages/voice."""

    stt: str
    stt_language: str
    conversation: str
    tts: str
    tts_language: str
    tts_voice: str | None


async def add_integrations(rest: HomeAssistantREST, ws: Workspace) -> None:
    """Add HA's wyoming integration (o1's speech services) and the o1 integration (o1's agent)."""
    entry = await rest.add_integration("wyoming", {"host": "127.0.0.1", "port": ws.wyoming_port})
    log(f"wyoming integration added: {entry.get('title')!r}, state {entry.get('state')}")
    entry = await rest.add_integration("o1", {"url": ws.o1_url, "token": ws.o1_token})
    log(f"o1 integration added: {entry.get('title')!r}, state {entry.get('state')}")


async def find_entity(hass_ws: HomeAssistantWS, platform: str, domain: str) -> str | None:
    """Return the first registered entity of `platform` in `domain`, or None."""
    for entry in await hass_ws.command("config/entity_registry/list"):
        if entry["platform"] == platform and entry["entity_id"].startswith(f"{domain}."):
            return entry["entity_id"]
    return None


async def find_engines(hass_ws: HomeAssistantWS) -> Engines:
    """Find the o1 speech entities (wyoming) and agent entity (o1), with a language and voice for each."""
    found = {}
    for platform, domain in (("wyoming", "stt"), ("wyoming", "tts"), ("o1", "conversation")):
        found[domain] = await wait_for(lambda p=platform, d=domain: find_entity(hass_ws, p, d),
                                       f"the {platform} {domain} entity", timeout=60)
    stt_language = await _engine_language(hass_ws, "stt", found["stt"])
    tts_language = await _engine_language(hass_ws, "tts", found["tts"])
    voices = (await hass_ws.command("tts/engine/voices", engine_id=found["tts"], language=tts_language))["voices"]
    return Engines(stt=found["stt"], stt_language=stt_language, conversation=found["conversation"],
                   tts=found["tts"], tts_language=tts_language,
                   tts_voice=voices[0]["voice_id"] if voices else None)


async def _engine_language(hass_ws: HomeAssistantWS, kind: str, engine_id: str) -> str:
    """Return the best language of an stt/tts engine for LANGUAGE (HA's own matching, best first)."""
    providers = (await hass_ws.command(f"{kind}/engine/list", language=LANGUAGE))["providers"]
    for provider in providers:
        if provider["engine_id"] == engine_id and provider["supported_languages"]:
            return provider["supported_languages"][0]
    raise HAError(f"{engine_id} supports no language matching {LANGUAGE!r}")


async def create_pipeline(hass_ws: HomeAssistantWS, engines: Engines) -> str:
    """Create the demo's Assist pipeline and return its id."""
    pipeline = await hass_ws.command(
        "assist_pipeline/pipeline/create",
        name="o1 demo",
        language=LANGUAGE,
        stt_engine=engines.stt,
        stt_language=engines.stt_language,
        conversation_engine=engines.conversation,
        conversation_language=LANGUAGE,
        tts_engine=engines.tts,
        tts_language=engines.tts_language,
        tts_voice=engines.tts_voice,
        wake_word_entity=None,
        wake_word_id=None,
    )
    return pipeline["id"]


# -------------------------------------------------------------------------------- the spoken question


async def run_pipeline(hass_ws: HomeAssistantWS, pipeline_id: str, question: Pcm,
                       timeout: float) -> dict[str, dict[str, Any]]:
    """Stream the question through the pipeline (speech-to-text ... text-to-speech).

    Returns the run's events by type (data + timestamp + our own receive clock). Raises on an
    `error` event or when the run takes longer than `timeout` seconds.
    """
    events: dict[str, dict[str, Any]] = {}
    try:
        async with asyncio.timeout(timeout):
            _, stream = await hass_ws.subscribe(
                "assist_pipeline/run", pipeline=pipeline_id, start_stage="stt", end_stage="tts",
                input={"sample_rate": question.rate}, timeout=timeout)
            async for event in stream:
                kind = event["type"]
                events[kind] = {**event, "received": time.monotonic()}
                _log_event(kind, event.get("data") or {})
                if kind == "run-start":
                    await _send_question(hass_ws, event["data"]["runner_data"]["stt_binary_handler_id"], question)
                elif kind == "error":
                    raise HAError(f"pipeline error {event['data'].get('code')}: {event['data'].get('message')}")
                elif kind == "run-end":
                    return events
    except TimeoutError:
        raise TimeoutError(f"the pipeline run took longer than {timeout:.0f} s "
                           f"(last event: {list(events)[-1] if events else 'none'})") from None
    raise HAError("the WebSocket ended before run-end")


async def _send_question(hass_ws: HomeAssistantWS, handler_id: int, question: Pcm) -> None:
    """Send the PCM as binary messages prefixed by the handler id, then the id alone to end the stream."""
    prefix = bytes([handler_id])
    for start in range(0, len(question.data), AUDIO_CHUNK_BYTES):
        await hass_ws.send_binary(prefix + question.data[start:start + AUDIO_CHUNK_BYTES])
    await hass_ws.send_binary(prefix)
    log(f"sent {question.seconds:.1f} s of audio")


def _log_event(kind: str, data: dict[str, Any]) -> None:
    """Log one pipeline event with what matters in it."""
    detail = ""
    if kind == "stt-end":
        detail = repr(data.get("stt_output", {}).get("text"))
    elif kind == "intent-end":
        detail = repr(_speech(data))
    elif kind == "error":
        detail = f"{data.get('code')}: {data.get('message')}"
    log(f"pipeline event {kind} {detail}".rstrip())


def _speech(intent_end: dict[str, Any]) -> str:
    """Return the spoken answer of an intent-end event."""
    speech = intent_end.get("intent_output", {}).get("response", {}).get("speech", {})
    return speech.get("plain", {}).get("speech", "")


def stage_seconds(events: dict[str, dict[str, Any]], first: str, last: str) -> float | None:
    """Return the seconds between two events by HA's timestamps, or None if one is missing."""
    if first not in events or last not in events:
        return None
    began = datetime.fromisoformat(events[first]["timestamp"])
    ended = datetime.fromisoformat(events[last]["timestamp"])
    return (ended - began).total_seconds()


async def fetch_turn(session: aiohttp.ClientSession, ws: Workspace, conversation_id: str) -> dict[str, Any] | None:
    """Return the o1 server's record of the conversation's last turn (code blocks and all), or None."""
    url = f"{ws.o1_url}/api/conversation/{conversation_id}"
    async with session.get(url, headers={"Authorization": f"Bearer {ws.o1_token}"}) as resp:
        if resp.status != 200:
            log(f"o1 server: GET /api/conversation/{conversation_id} -> HTTP {resp.status}")
            return None
        turns = (await resp.json()).get("turns") or []
    return turns[-1] if turns else None


# ------------------------------------------------------------------------------------------ report


def format_report(opts: argparse.Namespace, question: Pcm, events: dict[str, dict[str, Any]],
                  turn: dict[str, Any] | None, audio_note: str, tts_fetch: float,
                  setup: dict[str, float]) -> str:
    """Return the human-readable result of the demo."""
    transcript = events["stt-end"]["data"]["stt_output"]["text"]
    intent_end = events["intent-end"]["data"]
    stt = stage_seconds(events, "stt-start", "stt-end")
    intent = stage_seconds(events, "intent-start", "intent-end")
    tts_events = stage_seconds(events, "tts-start", "tts-end") or 0.0
    run_total = stage_seconds(events, "run-start", "run-end") or 0.0
    lines = [
        "",
        "=== o1 demo: a spoken question answered through Home Assistant ===",
        f"question audio : {opts.audio} ({question.seconds:.1f} s, {question.rate} Hz)",
        f"transcript     : {transcript}",
        f"conversation   : {intent_end.get('intent_output', {}).get('conversation_id')}",
        "code run by o1 :",
        *_format_code_blocks(turn),
        f"answer         : {_speech(intent_end)}",
        f"reply audio    : {opts.out} ({audio_note})",
        "timings        :",
        f"  speech-to-text  {_secs(stt)}  (stt-start -> stt-end, includes streaming the question)",
        f"  agent (intent)  {_secs(intent)}  (intent-start -> intent-end)",
        f"  text-to-speech  {_secs(tts_events + tts_fetch)}  (tts events {_secs(tts_events)} + synthesis while "
        f"downloading the reply {_secs(tts_fetch)})",
        f"  total           {_secs(run_total + tts_fetch)}  (pipeline run {_secs(run_total)} + reply download)",
        "  setup           " + ", ".join(f"{name} {_secs(secs)}" for name, secs in setup.items()),
        "",
    ]
    return "\n".join(lines)


def _format_code_blocks(turn: dict[str, Any] | None) -> list[str]:
    """Return the lines describing the code blocks of a turn."""
    if turn is None:
        return ["  (the o1 server has no record of this conversation)"]
    blocks = turn.get("code_blocks") or []
    if not blocks:
        return ["  (none: the agent answered without running code)"]
    lines = []
    for number, block in enumerate(blocks, 1):
        lines.append(f"  [{number}] {block.get('language')}  decision={block.get('decision')}  "
                     f"exit={block.get('exit_status')}")
        lines += [f"      | {line}" for line in (block.get("code") or "").rstrip().splitlines()]
        output = (block.get("output") or "").rstrip()
        lines.append("      output:")
        lines += [f"      > {line}" for line in output.splitlines()] or ["      > (nothing)"]
    return lines


def _secs(value: float | None) -> str:
    """Format seconds for the report."""
    return "   n/a" if value is None else f"{value:5.1f} s"


# -------------------------------------------------------------------------------------------- main


async def run(opts: argparse.Namespace, ws: Workspace) -> int:
    """Do the whole demo; return the exit code. Child processes are stopped by the caller."""
    question = read_question(opts.audio)
    ffmpeg = find_ffmpeg(opts.ffmpeg)
    log(f"question: {opts.audio} ({question.seconds:.1f} s at {question.rate} Hz); workspace {ws.root}")
    if ffmpeg is None:
        log("WARNING: no ffmpeg found: HA's TTS converts the reply to mp3 with ffmpeg, so the reply audio "
            "will be missing (install ffmpeg or the imageio-ffmpeg package)")
    else:
        log(f"ffmpeg for HA's TTS conversion: {ffmpeg}")
    setup: dict[str, float] = {}

    async with aiohttp.ClientSession() as session:
        rest = HomeAssistantREST(session, ws.ha_url)
        with stage("starting the o1 server and Home Assistant", setup):
            server = start_o1_server(ws, opts)
            hass = start_hass(ws, opts, ffmpeg)
            alive = _all_alive(server, hass)
            await asyncio.gather(
                wait_for(lambda: o1_server_healthy(session, ws), "o1 server health", opts.startup_timeout,
                         alive=alive),
                wait_for(rest.is_up, "Home Assistant HTTP", opts.startup_timeout, alive=alive),
            )
        with stage("onboarding Home Assistant", setup):
            await rest.onboard(ws.ha_password)
        hass_ws = HomeAssistantWS(rest)
        await hass_ws.connect()
        try:
            with stage("adding the wyoming and o1 integrations", setup):
                await add_integrations(rest, ws)
                engines = await find_engines(hass_ws)
                log(f"engines: {engines}")
            with stage("creating the Assist pipeline", setup):
                pipeline_id = await create_pipeline(hass_ws, engines)
            with stage("asking the question through the pipeline"):
                events = await run_pipeline(hass_ws, pipeline_id, question, opts.timeout)
        finally:
            await hass_ws.close()

        conversation_id = events["intent-end"]["data"].get("intent_output", {}).get("conversation_id")
        turn = await fetch_turn(session, ws, conversation_id) if conversation_id else None
        audio_note, tts_fetch, audio_ok = await _save_reply_audio(rest, events, opts.out, ffmpeg)

    print(format_report(opts, question, events, turn, audio_note, tts_fetch, setup), flush=True)
    return 0 if audio_ok else 1


async def _save_reply_audio(rest: HomeAssistantREST, events: dict[str, dict[str, Any]], out: Path,
                            ffmpeg: str | None) -> tuple[str, float, bool]:
    """Download the reply audio from HA's TTS proxy and save it as WAV; return (note, seconds, ok)."""
    tts_output = events.get("tts-end", {}).get("data", {}).get("tts_output") or {}
    if not tts_output.get("url"):
        return "no reply audio: the pipeline gave no TTS URL", 0.0, False
    began = time.monotonic()
    try:
        data, content_type = await rest.download(tts_output["url"])
    except HAError as err:
        hint = "" if ffmpeg else " (HA needs ffmpeg to convert TTS audio; none was found)"
        return f"not saved: {err}{hint}", time.monotonic() - began, False
    took = time.monotonic() - began
    log(f"reply audio: {len(data)} bytes of {content_type} in {took:.1f} s")
    try:
        note = save_reply(data, out, ffmpeg)
    except RuntimeError as err:
        return f"not saved: {err}", took, False
    return note, took, True


def _all_alive(server: ManagedProcess, hass: ManagedProcess):
    """Return a check that raises when a process has exited or HA fell back to recovery mode."""
    def check() -> None:
        server.ensure_running()
        hass.ensure_running()
        _raise_on_recovery_mode(hass)
    return check


def _raise_on_recovery_mode(hass: ManagedProcess) -> None:
    """Raise with HA's setup errors if it started in recovery mode (it then ignores our configuration).

    HA always sets up its default integrations (frontend, camera, ...) and falls back to recovery mode
    when `frontend` fails, typically because a requirement is missing from the HA environment.
    """
    try:
        text = hass.log_path.read_text(errors="replace")
    except OSError:
        return
    if "Activating recovery mode" not in text:
        return
    errors = [line for line in text.splitlines() if " ERROR " in line and "Setup failed" in line
              or "Error during setup" in line]
    raise RuntimeError("Home Assistant started in recovery mode (a requirement of its always-loaded "
                       "integrations is probably missing from the HA environment):\n  "
                       + "\n  ".join(errors[-10:] or ["(no setup error logged)"]))


def _raise_on_sigterm() -> None:
    """Turn SIGTERM (and SIGHUP) into KeyboardInterrupt so the same cleanup runs as for Ctrl-C."""
    def handler(signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")
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
        log("interrupted")
        code = 130
    except (HAError, TimeoutError, RuntimeError, ValueError, OSError, aiohttp.ClientError) as err:
        log(f"FAILED: {err}")
        for proc in ws.processes:
            log(f"--- end of {proc.name}'s log ({proc.log_path}):\n{proc.log_tail(25)}")
    finally:
        # Cleanup must not be cut short by a second Ctrl-C.
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
