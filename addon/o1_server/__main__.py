"""``o1-server``: parse the flags, wire the services, serve until SIGTERM/SIGINT.

Stopping: on SIGTERM/SIGINT the listeners close, running agent turns are stopped (no more code runs), every
conversation is saved and the process exits; whatever is still stuck (an LLM request that never answers) cannot
hold it past :data:`STOP_SECONDS` (the add-on's Supervisor waits 30 s, ``timeout`` in ``addon/config.yaml``).
The start-up order: see docs/server.md.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import sys
import threading
import time
from typing import TYPE_CHECKING

from aiohttp import web

from .agent.backend import LLMConfig, preload, prepare_offline_environment
from .settings import Settings, option_name, settings_from_args

if TYPE_CHECKING:
    from .agent.service import O1Agent
    from .llm import EmbeddedLLM

_LOGGER = logging.getLogger("o1_server")
STOP_SECONDS = 8.0
"""Seconds after a stop signal by which the process has exited, whatever still runs."""
PRUNE_SECONDS = 3600.0
"""Seconds between two passes of the session retention."""
EXIT_STARTUP = 2
"""Exit status when an option's value (a model, a voice) turns out unusable at start-up."""


class StartupError(Exception):
    """An option's value cannot be used; the message names the option and what is allowed."""


def _force_exit() -> None:
    """Last resort of a stop: something did not end within STOP_SECONDS."""
    _LOGGER.warning("Still stopping after %.0f s: exiting now", STOP_SECONDS)
    logging.shutdown()
    os._exit(0)


async def run(settings: Settings) -> None:
    """Start every service, log one 'ready' line, and serve until a stop signal."""
    started = time.monotonic()
    prepare_offline_environment()
    # Imported after the offline environment is set (LiteLLM reads it at import time).
    from .agent.profiles import load_profiles
    from .agent.service import O1Agent
    from .api import build_app
    from .http_deadlines import KEEPALIVE_SECONDS, Deadlines
    from .llm import EmbeddedLLM, default_models_dirs, embedded_model
    from .loop_thread import AgentOnLoop, LoopThread
    from .protocol_01 import add_light_routes
    from .stt import SpeechToText
    from .tts import TextToSpeech
    from .wyoming_server import WyomingServer

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    settings.sandbox.mkdir(parents=True, exist_ok=True)
    # Generated code may pass through these folders to its own conversation folder but not list them.
    for folder in {settings.data_dir, settings.sandbox}:
        folder.chmod(0o711)
    # What code blocks run under (bubblewrap, cgroups, per-conversation uids): one log line, and a warning
    # naming each missing layer and what is used instead.
    from .agent import sandbox

    await asyncio.to_thread(sandbox.prepare, settings.sandbox, settings.sandbox_uids, settings.sandbox_disk_mb)
    profiles = load_profiles(settings.profiles_dirs)
    if settings.default_profile not in profiles.profiles:
        problems = "; ".join(str(e) for e in profiles.errors)
        raise StartupError(
            f"{option_name('--default-profile')}: there is no profile {settings.default_profile!r} "
            f"(allowed: {', '.join(sorted(profiles.profiles)) or 'none'})"
            + (f"; profile errors: {problems}" if problems else "")
        )

    try:
        stt = SpeechToText(
            settings.stt_model,
            settings.stt_language,
            settings.stt_beam_size,
            settings.stt_compute_type,
            settings.threads,
            settings.stt_max_seconds,
            vad_filter=settings.stt_vad_filter,
            initial_prompt=settings.stt_initial_prompt,
            early_decoding=settings.stt_early_decoding,
            decoding=settings.stt_decoding,
            streaming=settings.stt_streaming,
        )
        stt.model_path()
    except (OSError, ImportError, ValueError) as err:
        raise StartupError(
            f"{option_name('--stt-model')}: {err} (allowed: 'tiny.en', 'base' or a CTranslate2 whisper model's folder)"
        ) from None
    tts_speaker = settings.tts_speaker
    try:
        tts = TextToSpeech(
            settings.tts_voice,
            int(tts_speaker) if tts_speaker and tts_speaker.isdigit() else tts_speaker,
            settings.tts_max_chars,
            voices_dirs=settings.tts_voices_dirs,
            length_scale=settings.tts_length_scale,
            noise_scale=settings.tts_noise_scale,
            noise_w_scale=settings.tts_noise_w_scale,
        )
    except (OSError, ImportError, ValueError) as err:
        raise StartupError(
            f"{option_name('--tts-voice')}: {err} (allowed: 'en_US-joe-medium' or the path of a "
            "piper .onnx voice with its .onnx.json)"
        ) from None
    # The model files are known to be usable: only now start the embedded LLM's process.
    embedded: EmbeddedLLM | None = None
    spec = embedded_model(settings.llm_model)
    if spec is not None:
        embedded = EmbeddedLLM(
            spec, threads=settings.threads, models_dirs=(*settings.llm_models_dirs, *default_models_dirs())
        )
        llm_start = asyncio.ensure_future(embedded.start())
    # Model loads and the slow Open Interpreter import (with the LLM's token counter) run in worker threads,
    # side by side.
    await asyncio.gather(
        asyncio.to_thread(stt.load),
        asyncio.to_thread(tts.load),
        asyncio.to_thread(preload, embedded.model if embedded is not None else settings.llm_model),
    )
    warm_up: asyncio.Future[None] | None = None
    if embedded is not None:
        await llm_start
        default_llm = LLMConfig(
            embedded.model,
            embedded.api_base,
            embedded.api_key,
            timeout=settings.llm_timeout,
            context_window=embedded.context,
            tokenize_url=embedded.tokenize_url,
            prefill=True,  # o1_server.chat_handler continues a prefilled assistant message
        )
    else:
        # A remote model's context is what the profile says (llm.context_window): no server-side cap here.
        default_llm = LLMConfig(
            settings.llm_model,
            settings.llm_api_base,
            settings.llm_api_key,
            timeout=settings.llm_timeout,
            context_window=1 << 20,
        )

    agent = O1Agent(
        profiles,
        settings.default_profile,
        default_llm,
        settings.data_dir,
        settings.sandbox,
        max_parallel=settings.max_parallel_turns,
        ha_url=settings.ha_url,
        ha_token=settings.ha_token,
        sandbox_user=settings.sandbox_user,
        session_max_age_days=settings.session_max_age_days,
        session_max_count=settings.session_max_count,
    )
    if embedded is not None:
        # In the background (the server is ready meanwhile): the default profile's prompt evaluated, so that the
        # first question does not wait for it; else one token asked, to read the model's pages from disk.
        warm_up = asyncio.ensure_future(_warm_up(agent, embedded))
    # Every listener refuses clients whose socket belongs to generated code (a sandbox uid).
    from .peer_guard import PeerGuard, warn_if_blind

    wyoming_guard, http_guard = PeerGuard.for_agent("wyoming", agent), PeerGuard.for_agent("http", agent)
    warn_if_blind(http_guard)
    # Wyoming on its own event loop (thread), so that many clients streaming audio cannot hold up the HTTP API
    # and /api/health (see loop_thread.py); its turns still run on this loop, the agent's.
    wyoming_loop = LoopThread("o1-wyoming")
    wyoming_loop.start()
    wyoming = WyomingServer(
        f"tcp://{settings.host}:{settings.wyoming_port}",
        stt,
        tts,
        AgentOnLoop(agent, asyncio.get_running_loop()),
        settings.version,
        max_connections=settings.wyoming_max_connections,
        idle_seconds=settings.wyoming_idle_seconds,
        frame_seconds=settings.wyoming_frame_seconds,
        peer_guard=wyoming_guard,
    )
    try:
        wyoming_port = await wyoming_loop.call(wyoming.start())
    except BaseException:
        wyoming_loop.stop()
        raise
    deadlines = Deadlines(settings.http_header_seconds, settings.http_body_seconds)
    from .model_catalog import ModelCatalog, runnable_models

    models_dirs = (*settings.llm_models_dirs, *default_models_dirs())
    catalog = ModelCatalog(
        default_llm,
        settings.llm_model,
        await asyncio.to_thread(runnable_models, models_dirs),
        threads=settings.threads,
        models_dirs=models_dirs,
    )
    app = build_app(
        agent,
        settings.token,
        settings.version,
        settings.server_id,
        peer_guard=http_guard,
        deadlines=deadlines,
        models=catalog,
    )
    # 01 clients (ESP32 firmware, light client, app)
    add_light_routes(
        app,
        stt,
        tts,
        agent,
        settings.token,
        max_connections=settings.light_max_connections,
        max_unauthenticated=settings.light_max_unauthenticated,
        devices=settings.light_devices,
    )
    # shutdown_timeout: then open requests are cancelled. Unfinished request headers and bodies are cut by the
    # deadlines (http_deadlines.py: an idle keep-alive connection closes after the header deadline, and at the
    # latest after KEEPALIVE_SECONDS).
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=2.0, keepalive_timeout=KEEPALIVE_SECONDS)
    await runner.setup()
    site = deadlines.site(runner, settings.host, settings.api_port)
    await site.start()
    api_port = runner.addresses[0][1]

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def on_signal() -> None:
        if not stop.is_set():
            watchdog = threading.Timer(STOP_SECONDS, _force_exit)
            watchdog.daemon = True
            watchdog.start()
        stop.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal)

    async def prune_now_and_then() -> None:
        while True:
            await asyncio.sleep(PRUNE_SECONDS)
            await asyncio.to_thread(agent.prune)

    pruner = asyncio.create_task(prune_now_and_then())
    # What start-up made (modules, models, tokenizers) lives as long as the process: keep the garbage
    # collector from walking it again. A full collection of it took 0.15 to 0.19 s, in whichever thread
    # happened to trigger it and holding the GIL all along, so the event loop stood still (measured with
    # gc.callbacks under benchmarks/load.py); gc.freeze() moves every object tracked so far into a permanent generation
    # that collections skip (https://docs.python.org/3/library/gc.html#gc.freeze).
    gc.collect()
    gc.freeze()
    _LOGGER.info(
        "o1 server %s ready in %.1f s: wyoming tcp://%s:%d api http://%s:%d profiles %s",
        settings.version,
        time.monotonic() - started,
        settings.host,
        wyoming_port,
        settings.host,
        api_port,
        ",".join(sorted(profiles.profiles)),
    )
    try:
        await stop.wait()
    finally:
        _LOGGER.info("Stopping")
        pruner.cancel()
        await agent.shutdown()  # first: turns stop and conversations are saved while connections still wait
        await wyoming_loop.call(wyoming.stop())
        wyoming_loop.stop()
        await runner.shutdown()
        await runner.cleanup()
        # Speech work still running on its threads ends before the interpreter does (else: abort, exit -6).
        await asyncio.gather(asyncio.to_thread(stt.close), asyncio.to_thread(tts.close))
        if warm_up is not None and not warm_up.done():
            warm_up.cancel()
        if embedded is not None:
            await embedded.stop()
        _LOGGER.info("Stopped")


async def _warm_up(agent: O1Agent, embedded: EmbeddedLLM) -> None:
    if not await agent.warm_up():
        await embedded.warm_up()


def main(argv: list[str] | None = None) -> int:
    """Console entry point. Returns the process exit status."""
    settings = settings_from_args(argv)
    logging.basicConfig(
        level=settings.log_level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        asyncio.run(run(settings))
    except KeyboardInterrupt:
        pass
    except StartupError as err:
        _LOGGER.error("o1 server cannot start: %s", err)
        return EXIT_STARTUP
    except Exception:  # start-up failures: one clear log line and a non-zero exit for the supervisor
        _LOGGER.exception("o1 server failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
