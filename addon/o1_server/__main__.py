"""``o1-server``: parse the flags, wire the services, serve until SIGTERM/SIGINT."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
import time

from aiohttp import web

from .agent.backend import LLMConfig, prepare_offline_environment
from .settings import EMBEDDED_LLM, Settings, settings_from_args

_LOGGER = logging.getLogger("o1_server")


async def run(settings: Settings) -> None:
    """Start every service, log one 'ready' line, and serve until a stop signal."""
    started = time.monotonic()
    prepare_offline_environment()
    # Imported after the offline environment is set (LiteLLM reads it at import time).
    from .agent.profiles import load_profiles
    from .agent.service import O1Agent
    from .api import build_app
    from .light import add_light_routes
    from .llm import EmbeddedLLM
    from .stt import SpeechToText
    from .tts import TextToSpeech
    from .wyoming_server import WyomingServer

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    settings.sandbox.mkdir(parents=True, exist_ok=True)
    # Generated code may pass through these folders to its own conversation folder but not list them.
    for folder in {settings.data_dir, settings.sandbox}:
        folder.chmod(0o711)
    profiles = load_profiles(settings.profiles_dirs)
    if settings.default_profile not in profiles.profiles:
        _LOGGER.error("Default profile %r is not loaded (loaded: %s)", settings.default_profile,
                      ", ".join(sorted(profiles.profiles)) or "none")

    embedded: EmbeddedLLM | None = None
    if settings.llm_model == EMBEDDED_LLM:
        embedded = EmbeddedLLM(threads=settings.threads)
        llm_start = asyncio.ensure_future(embedded.start())
    stt = SpeechToText(settings.stt_model, settings.stt_language, settings.stt_beam_size,
                       settings.stt_compute_type, settings.threads, settings.stt_max_seconds,
                       vad_filter=settings.stt_vad_filter, initial_prompt=settings.stt_initial_prompt,
                       early_decoding=settings.stt_early_decoding, streaming=settings.stt_streaming)
    tts_speaker = settings.tts_speaker
    tts = TextToSpeech(settings.tts_voice, int(tts_speaker) if tts_speaker and tts_speaker.isdigit() else tts_speaker,
                       settings.tts_max_chars, voices_dirs=settings.tts_voices_dirs,
                       length_scale=settings.tts_length_scale, noise_scale=settings.tts_noise_scale,
                       noise_w_scale=settings.tts_noise_w_scale)
    # Model loads and the slow Open Interpreter import run in worker threads, side by side.
    await asyncio.gather(asyncio.to_thread(stt.load), asyncio.to_thread(tts.load),
                         asyncio.to_thread(__import__, "interpreter"))
    if embedded is not None:
        await llm_start
        default_llm = LLMConfig(embedded.model, embedded.api_base, "none", timeout=settings.llm_timeout)
    else:
        default_llm = LLMConfig(settings.llm_model, settings.llm_api_base, settings.llm_api_key,
                                timeout=settings.llm_timeout)

    agent = O1Agent(profiles, settings.default_profile, default_llm, settings.data_dir, settings.sandbox,
                    max_parallel=max(1, settings.threads), ha_url=settings.ha_url, ha_token=settings.ha_token,
                    sandbox_user=settings.sandbox_user)
    wyoming = WyomingServer(f"tcp://{settings.host}:{settings.wyoming_port}", stt, tts, agent, settings.version,
                            max_connections=settings.wyoming_max_connections)
    wyoming_port = await wyoming.start()
    app = build_app(agent, settings.token, settings.version, settings.server_id)
    add_light_routes(app, stt, tts, agent, settings.token)  # 01 clients (ESP32 firmware, light client, app)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, settings.host, settings.api_port)
    await site.start()
    api_port = runner.addresses[0][1]

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    _LOGGER.info("o1 server %s ready in %.1f s: wyoming tcp://%s:%d api http://%s:%d profiles %s",
                 settings.version, time.monotonic() - started, settings.host, wyoming_port, settings.host,
                 api_port, ",".join(sorted(profiles.profiles)))
    try:
        await stop.wait()
    finally:
        _LOGGER.info("Stopping")
        await wyoming.stop()
        await runner.cleanup()
        if embedded is not None:
            await embedded.stop()


def main(argv: list[str] | None = None) -> int:
    """Console entry point. Returns the process exit status."""
    settings = settings_from_args(argv)
    logging.basicConfig(level=settings.log_level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(run(settings))
    except KeyboardInterrupt:
        pass
    except Exception:  # start-up failures: one clear log line and a non-zero exit for the supervisor
        _LOGGER.exception("o1 server failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
