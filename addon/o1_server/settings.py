"""One typed settings object for the o1 server, built from command-line flags.

Nothing else in the server reads ``sys.argv`` or the environment: the add-on's start-up script turns
``/data/options.json`` into these flags, tests and the demo pass them directly.
"""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__

DEFAULT_WYOMING_PORT = 10700
DEFAULT_API_PORT = 10800
EMBEDDED_LLM = "embedded"
# The profiles shipped with the project (repository root /profiles, or /app/profiles in the add-on image).
SHIPPED_PROFILES = Path(__file__).resolve().parent.parent.parent / "profiles"


@dataclass(frozen=True)
class Settings:
    """Everything the server needs to start.

    Ports are TCP ports (0 = pick a free one). ``llm_model`` is a LiteLLM model name such as
    ``ollama/llama3.1`` or ``openai/gpt-4o-mini``, or ``embedded`` for the bundled SmolLM2 served by
    llama-cpp-python on 127.0.0.1. ``llm_timeout`` is seconds for one LLM request.
    """

    host: str = "0.0.0.0"
    wyoming_port: int = DEFAULT_WYOMING_PORT
    api_port: int = DEFAULT_API_PORT
    token: str = ""
    data_dir: Path = Path("/data")
    profiles_dirs: tuple[Path, ...] = ()
    default_profile: str = "default"
    sandbox_root: Path | None = None
    stt_model: str = "tiny.en"
    stt_language: str | None = "en"
    stt_beam_size: int = 5
    stt_compute_type: str = "int8"
    stt_vad_filter: bool = False
    stt_initial_prompt: str | None = None
    stt_max_seconds: float = 30.0
    stt_early_decoding: bool = True
    stt_streaming: bool = True
    tts_voice: str = "en_US-joe-medium"
    tts_speaker: str | None = None
    tts_length_scale: float | None = None
    tts_noise_scale: float | None = None
    tts_noise_w_scale: float | None = None
    tts_voices_dirs: tuple[Path, ...] = ()
    tts_max_chars: int = 100_000
    wyoming_max_connections: int = 64
    llm_model: str = EMBEDDED_LLM
    llm_api_base: str | None = None
    llm_api_key: str | None = None
    llm_timeout: float = 120.0
    threads: int = 2
    sandbox_user: str | None = None
    ha_url: str | None = None
    ha_token: str | None = None
    log_level: str = "INFO"
    version: str = field(default=__version__)
    # This server's stable identity (``<data_dir>/server_id``): Home Assistant's unique id of its config entry.
    server_id: str = ""

    @property
    def sandbox(self) -> Path:
        """Root directory under which every conversation gets its own working directory."""
        return self.sandbox_root or self.data_dir / "sandbox"


def _load_token(args: argparse.Namespace, data_dir: Path) -> str:
    """Return the API token: the flag, else the token file, else a new one kept in ``data_dir``."""
    if args.token:
        return args.token
    token_file = Path(args.token_file) if args.token_file else data_dir / "api_token"
    if token_file.exists():
        token = token_file.read_text(encoding="utf-8").strip()
        if token:
            return token
    token = secrets.token_urlsafe(32)
    token_file.parent.mkdir(parents=True, exist_ok=True)
    token_file.write_text(token + "\n", encoding="utf-8")
    os.chmod(token_file, 0o600)
    logging.getLogger(__name__).info("Generated a new API token in %s", token_file)
    return token


def load_server_id(data_dir: Path) -> str:
    """Return this server's id: 32 hex digits kept in ``<data_dir>/server_id``, created on first start.

    It identifies the server whatever its address (Home Assistant matches a discovered or moved server by it).
    Raises OSError when the data directory cannot be written.
    """
    id_file = data_dir / "server_id"
    if id_file.exists():
        server_id = id_file.read_text(encoding="utf-8").strip()
        if server_id:
            return server_id
    server_id = uuid.uuid4().hex
    id_file.parent.mkdir(parents=True, exist_ok=True)
    id_file.write_text(server_id + "\n", encoding="utf-8")
    return server_id


def _read_secret(path: str) -> str:
    """Return the stripped content of a secret file, or '' when no path is given. Exits on an unreadable file."""
    if not path:
        return ""
    try:
        return Path(path).read_text(encoding="utf-8").strip()
    except OSError as err:
        raise SystemExit(f"o1-server: cannot read secret file {path}: {err.strerror}") from None


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser for ``o1-server``."""
    p = argparse.ArgumentParser(prog="o1-server", description="o1: Wyoming speech and an Open Interpreter agent")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    p.add_argument("--wyoming-port", type=int, default=DEFAULT_WYOMING_PORT, help=f"Wyoming TCP port (default {DEFAULT_WYOMING_PORT}; 0 = a free port)")
    p.add_argument("--api-port", type=int, default=DEFAULT_API_PORT, help=f"HTTP API port, also 01's WebSocket (default {DEFAULT_API_PORT}; 0 = a free port)")
    p.add_argument("--token", default="", help="bearer token for the HTTP API")
    p.add_argument("--token-file", default="", help="file holding the token (created if missing)")
    p.add_argument("--data-dir", default="/data", help="sessions, audit log, sandbox and token live here")
    p.add_argument("--profiles-dir", action="append", default=[],
                   help="extra profile folder; later folders override earlier ones and the shipped profiles")
    p.add_argument("--default-profile", default="default")
    p.add_argument("--sandbox-root", default="", help="default: <data-dir>/sandbox")
    p.add_argument("--stt-model", default="tiny.en", help="'tiny.en' (bundled) or a CTranslate2 model folder")
    p.add_argument("--stt-language", default="en", help="language code, or 'auto'")
    p.add_argument("--stt-beam-size", type=int, default=5)
    p.add_argument("--stt-compute-type", default="int8")
    p.add_argument("--stt-vad-filter", action="store_true", help="let faster-whisper's VAD drop silence too")
    p.add_argument("--stt-initial-prompt", default="", help="text that primes whisper (names, jargon)")
    p.add_argument("--stt-max-seconds", type=float, default=30.0, help="longest utterance, seconds")
    p.add_argument("--no-stt-early-decoding", action="store_true", help="decode only after AudioStop")
    p.add_argument("--no-stt-streaming", action="store_true", help="send only the plain Transcript event")
    p.add_argument("--tts-voice", default="en_US-joe-medium", help="'en_US-joe-medium' (bundled) or a .onnx path")
    p.add_argument("--tts-speaker", default="", help="speaker name or id of a multi-speaker voice")
    p.add_argument("--tts-length-scale", type=float, default=None, help="speaking rate (piper length scale)")
    p.add_argument("--tts-noise-scale", type=float, default=None)
    p.add_argument("--tts-noise-w-scale", type=float, default=None)
    p.add_argument("--tts-voices-dir", action="append", default=[], help="extra folder of piper voices")
    p.add_argument("--tts-max-chars", type=int, default=100_000, help="longest text to synthesize, characters")
    p.add_argument("--wyoming-max-connections", type=int, default=64)
    p.add_argument("--llm-model", default=EMBEDDED_LLM, help="LiteLLM model name, or 'embedded'")
    p.add_argument("--llm-api-base", default="")
    p.add_argument("--llm-api-key", default="")
    p.add_argument("--llm-api-key-file", default="", help="file holding the LLM API key (keeps it off the command line)")
    p.add_argument("--llm-timeout", type=float, default=120.0, help="seconds per LLM request")
    p.add_argument("--threads", type=int, default=2, help="CPU threads for whisper and the embedded LLM")
    p.add_argument("--ha-url", default="", help="Home Assistant URL for generated code (add-on: http://supervisor/core)")
    p.add_argument("--ha-token", default="", help="Home Assistant token for generated code (add-on: the Supervisor token)")
    p.add_argument("--ha-token-file", default="", help="file holding the Home Assistant token")
    p.add_argument("--sandbox-user", default="",
                   help="run generated code as this user (name or uid; needs root), e.g. 'nobody' in the add-on")
    p.add_argument("--log-level", default="INFO")
    p.add_argument("--version", action="version", version=__version__)
    return p


def settings_from_args(argv: list[str] | None = None) -> Settings:
    """Parse ``argv`` (default: ``sys.argv[1:]``) into Settings. Exits with a usage message on bad flags."""
    args = build_parser().parse_args(argv)
    data_dir = Path(args.data_dir).expanduser().resolve()
    language = None if args.stt_language in ("", "auto") else args.stt_language
    return Settings(
        host=args.host,
        wyoming_port=args.wyoming_port,
        api_port=args.api_port,
        token=_load_token(args, data_dir),
        server_id=load_server_id(data_dir),
        data_dir=data_dir,
        profiles_dirs=(SHIPPED_PROFILES, *(Path(d).expanduser().resolve() for d in args.profiles_dir)),
        default_profile=args.default_profile,
        sandbox_root=Path(args.sandbox_root).expanduser().resolve() if args.sandbox_root else None,
        stt_model=args.stt_model,
        stt_language=language,
        stt_beam_size=args.stt_beam_size,
        stt_compute_type=args.stt_compute_type,
        stt_vad_filter=args.stt_vad_filter,
        stt_initial_prompt=args.stt_initial_prompt or None,
        stt_max_seconds=args.stt_max_seconds,
        stt_early_decoding=not args.no_stt_early_decoding,
        stt_streaming=not args.no_stt_streaming,
        tts_voice=args.tts_voice,
        tts_speaker=args.tts_speaker or None,
        tts_length_scale=args.tts_length_scale,
        tts_noise_scale=args.tts_noise_scale,
        tts_noise_w_scale=args.tts_noise_w_scale,
        tts_voices_dirs=tuple(Path(d).expanduser() for d in args.tts_voices_dir),
        tts_max_chars=args.tts_max_chars,
        wyoming_max_connections=args.wyoming_max_connections,
        llm_model=args.llm_model,
        llm_api_base=args.llm_api_base or None,
        llm_api_key=args.llm_api_key or _read_secret(args.llm_api_key_file) or None,
        llm_timeout=args.llm_timeout,
        threads=args.threads,
        ha_url=args.ha_url or None,
        ha_token=args.ha_token or _read_secret(args.ha_token_file) or None,
        sandbox_user=args.sandbox_user or None,
        log_level=args.log_level.upper(),
    )
