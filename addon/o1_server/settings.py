"""One typed settings object for the o1 server, built from command-line flags and secret sources.

Nothing else in the server reads ``sys.argv`` or the environment: the add-on's start-up script turns
``/data/options.json`` into these flags, tests and the demo pass them directly. Secrets (the API token, the Home
Assistant token, the LLM API key) never come from flags, only from files or the environment (:data:`SECRET_ENV`,
removed from ``os.environ`` once read). See docs/server.md.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import secrets
import stat
import sys
import uuid
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__

DEFAULT_WYOMING_PORT = 10700
DEFAULT_API_PORT = 10800
EMBEDDED_LLM = "qwen2.5-coder-1.5b"  # the default: an embedded model's name (see llm.EMBEDDED_MODELS)
# The profiles shipped with the server, inside its package (the repository's profiles/ is a link to them).
SHIPPED_PROFILES = Path(__file__).resolve().parent / "profiles"
SECRET_ENV = {"token": "O1_TOKEN", "ha_token": "O1_HA_TOKEN", "llm_api_key": "O1_LLM_API_KEY"}
"""Environment variables the secrets may come from (Settings field -> variable name)."""
_SECRET_FLAGS = {
    "--token": ("--token-file", "token"),
    "--ha-token": ("--ha-token-file", "ha_token"),
    "--llm-api-key": ("--llm-api-key-file", "llm_api_key"),
}
_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class Settings:
    """Everything the server needs to start.

    Ports are TCP ports (0 = pick a free one). ``llm_model`` is an embedded model's name
    (``qwen2.5-coder-1.5b``, ``qwen2.5-coder-0.5b``, ``smollm2-135m``; ``embedded`` = the first), served by
    llama-cpp-python on 127.0.0.1, or a LiteLLM model name such as ``ollama/llama3.1`` or
    ``openai/gpt-4o-mini``. ``llm_models_dirs`` are extra folders searched for embedded GGUF files (before the
    ``models`` folder beside the virtualenv). ``llm_timeout`` is seconds an LLM request may wait for its first token
    (and between tokens): past it the turn answers with what it already has, or a spoken error.

    Robustness limits (all seconds or counts): ``wyoming_idle_seconds`` a Wyoming connection may stay silent
    between events, ``wyoming_frame_seconds`` one event may take to arrive once its first byte came,
    ``wyoming_max_connections`` / ``light_max_connections`` open connections (``light_max_unauthenticated``
    of them still without a token; ``light_devices`` the IP addresses of 01 devices let in without one),
    ``max_parallel_turns`` agent turns running at once (one per
    conversation), ``session_max_age_days`` / ``session_max_count`` retention of saved conversations and
    their sandbox folders, ``http_header_seconds`` / ``http_body_seconds`` an HTTP request's headers (from
    their first byte) and its body may take to arrive.

    Disk: ``sandbox_disk_mb`` (MiB) caps all conversation folders together (see docs/sandbox.md, "Disk").
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
    stt_decoding: str = "reference"
    stt_streaming: bool = True
    tts_voice: str = "en_US-joe-medium"
    tts_speaker: str | None = None
    tts_length_scale: float | None = None
    tts_noise_scale: float | None = None
    tts_noise_w_scale: float | None = None
    tts_voices_dirs: tuple[Path, ...] = ()
    tts_max_chars: int = 100_000
    wyoming_max_connections: int = 64
    wyoming_idle_seconds: float = 120.0
    wyoming_frame_seconds: float = 20.0
    light_max_connections: int = 32
    light_max_unauthenticated: int = 8
    light_devices: tuple[str, ...] = ()
    max_parallel_turns: int = 4
    session_max_age_days: float = 30.0
    session_max_count: int = 1000
    http_header_seconds: float = 10.0
    http_body_seconds: float = 30.0
    sandbox_disk_mb: int = 4096
    llm_model: str = EMBEDDED_LLM
    llm_models_dirs: tuple[Path, ...] = ()
    llm_api_base: str | None = None
    llm_api_key: str | None = None
    llm_timeout: float = 30.0
    threads: int = 2
    sandbox_user: str | None = None
    sandbox_uids: tuple[int, int] | None = (100000, 65536)
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


def _load_token(token_file: str, env_token: str, data_dir: Path) -> str:
    """Return the API token: ``--token-file`` (created if missing), else ``O1_TOKEN``, else the token kept in
    ``<data_dir>/api_token`` (created on the first start)."""
    if token_file:
        path = Path(token_file).expanduser()
    elif env_token:
        return env_token
    else:
        path = data_dir / "api_token"
    if path.exists():
        _tighten(path)
        token = _read_secret(str(path))
        if token:
            return token
    token = secrets.token_urlsafe(32)
    write_private(path, token + "\n")
    _LOGGER.info("Generated a new API token in %s", path)
    return token


def write_private(path: Path, text: str) -> None:
    """Replace ``path`` atomically with ``text``, readable by its owner only (mode 0600 from the start).

    The content goes to a new temporary file created with mode 0600 (``O_EXCL``: never an existing file, never
    a moment with wider permissions), is fsynced, then renamed over ``path``. Raises SystemExit with a clear
    message when the folder is not writable.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as err:
        raise SystemExit(f"o1-server: cannot write {path}: {err.strerror}") from None


def _tighten(path: Path) -> None:
    """Make an existing token file owner-only (mode 0600), warning when it was readable by others."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            os.chmod(path, mode & 0o700)
            _LOGGER.warning("%s was readable by other users (mode %o); it is now %o", path, mode, mode & 0o700)
    except OSError as err:
        _LOGGER.warning("%s may be readable by other users and cannot be made private: %s", path, err.strerror)


def _warn_if_shared(path: str) -> None:
    """Warn when a secret file the user gave is readable by group or others (it is not changed)."""
    try:
        mode = stat.S_IMODE(Path(path).stat().st_mode)
    except OSError:
        return
    if mode & 0o077:
        _LOGGER.warning("Secret file %s is readable by other users (mode %o): chmod 600 it", path, mode)


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
        return Path(path).expanduser().read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as err:
        why = getattr(err, "strerror", None) or "not UTF-8 text"
        raise SystemExit(f"o1-server: cannot read secret file {path}: {why}") from None


class _RefusedSecretFlag(argparse.Action):
    """A flag that would put a secret on the command line: refused, naming the file and environment ways."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        file_flag, field_name = _SECRET_FLAGS[option_string or self.option_strings[0]]
        parser.error(
            f"{option_string} is not accepted: a secret on the command line is readable by every "
            f"local user in /proc/<pid>/cmdline. Put it in a file readable only by you and pass "
            f"{file_flag} FILE, or set the environment variable {SECRET_ENV[field_name]}."
        )


def _uid_range(text: str) -> tuple[int, int] | None:
    """Parse --sandbox-uids; exits with a clear message when it is not FIRST:COUNT or 'off'."""
    from .agent.sandbox import parse_uid_range

    try:
        return parse_uid_range(text)
    except ValueError as err:
        raise SystemExit(f"o1-server: {err}") from None


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser for ``o1-server``."""
    p = argparse.ArgumentParser(prog="o1-server", description="o1: Wyoming speech and an Open Interpreter agent")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    p.add_argument(
        "--wyoming-port",
        type=int,
        default=DEFAULT_WYOMING_PORT,
        help=f"Wyoming TCP port (default {DEFAULT_WYOMING_PORT}; 0 = a free port)",
    )
    p.add_argument(
        "--api-port",
        type=int,
        default=DEFAULT_API_PORT,
        help=f"HTTP API port, also 01's WebSocket (default {DEFAULT_API_PORT}; 0 = a free port)",
    )
    p.add_argument("--token", action=_RefusedSecretFlag, help=argparse.SUPPRESS)
    p.add_argument(
        "--token-file",
        default="",
        help="file holding the HTTP API's bearer token (created 0600 if missing; default: "
        "$O1_TOKEN, else <data-dir>/api_token)",
    )
    p.add_argument("--data-dir", default="/data", help="sessions, audit log, sandbox and token live here")
    p.add_argument(
        "--profiles-dir",
        action="append",
        default=[],
        help="extra profile folder; later folders override earlier ones and the shipped profiles",
    )
    p.add_argument("--default-profile", default="default")
    p.add_argument("--sandbox-root", default="", help="default: <data-dir>/sandbox")
    p.add_argument(
        "--stt-model",
        default="tiny.en",
        help="'tiny.en' (bundled, English), 'base' (assembled, multilingual) or a CTranslate2 model folder",
    )
    p.add_argument("--stt-language", default="en", help="language code, or 'auto'")
    p.add_argument("--stt-beam-size", type=int, default=5)
    p.add_argument("--stt-compute-type", default="int8")
    p.add_argument("--stt-vad-filter", action="store_true", help="let faster-whisper's VAD drop silence too")
    p.add_argument("--stt-initial-prompt", default="", help="text that primes whisper (names, jargon)")
    p.add_argument("--stt-max-seconds", type=float, default=30.0, help="longest utterance, seconds")
    p.add_argument("--no-stt-early-decoding", action="store_true", help="decode only after AudioStop")
    p.add_argument(
        "--stt-decoding",
        choices=("accurate", "fast", "reference"),
        default="reference",
        help="reference: no decoding while audio arrives, the reference server's text at its latency (default); "
        "accurate: an early result is kept only when the reference's standard decode hears the same words; "
        "fast: it is kept unless doubtful",
    )
    p.add_argument("--no-stt-streaming", action="store_true", help="send only the plain Transcript event")
    p.add_argument("--tts-voice", default="en_US-joe-medium", help="'en_US-joe-medium' (bundled) or a .onnx path")
    p.add_argument("--tts-speaker", default="", help="speaker name or id of a multi-speaker voice")
    p.add_argument("--tts-length-scale", type=float, default=None, help="speaking rate (piper length scale)")
    p.add_argument("--tts-noise-scale", type=float, default=None)
    p.add_argument("--tts-noise-w-scale", type=float, default=None)
    p.add_argument(
        "--tts-voices-dir",
        action="append",
        default=[],
        help="extra folder of piper voices (every NAME.onnx with its NAME.onnx.json), e.g. /share/piper",
    )
    p.add_argument("--tts-max-chars", type=int, default=100_000, help="longest text to synthesize, characters")
    p.add_argument(
        "--wyoming-max-connections",
        type=int,
        default=64,
        help="Wyoming connections at once; when full, the longest-idle connection is closed for a new one",
    )
    p.add_argument(
        "--wyoming-idle-seconds",
        type=float,
        default=120.0,
        help="seconds a Wyoming connection may send nothing before it is closed (default 120)",
    )
    p.add_argument(
        "--wyoming-frame-seconds",
        type=float,
        default=20.0,
        help="seconds one Wyoming event may take to arrive once it began (default 20)",
    )
    p.add_argument("--light-max-connections", type=int, default=32, help="01 WebSocket connections at once")
    p.add_argument(
        "--light-max-unauthenticated",
        type=int,
        default=8,
        help="01 WebSocket connections at once that have not sent their token yet",
    )
    p.add_argument(
        "--light-devices",
        default="",
        help="comma-separated IP addresses of 01 devices let in without a token (default none)",
    )
    p.add_argument(
        "--max-parallel-turns",
        type=int,
        default=4,
        help="agent turns running at once (each conversation runs one at a time)",
    )
    p.add_argument(
        "--session-max-age-days",
        type=float,
        default=30.0,
        help="saved conversations and their sandbox folders unused this long are deleted (0 = never)",
    )
    p.add_argument(
        "--session-max-count",
        type=int,
        default=1000,
        help="saved conversations kept; the least recently used beyond this are deleted (0 = no limit)",
    )
    p.add_argument(
        "--http-header-seconds",
        type=float,
        default=10.0,
        help="seconds an HTTP request's headers may take from their first byte (default 10)",
    )
    p.add_argument(
        "--http-body-seconds",
        type=float,
        default=30.0,
        help="seconds an HTTP request's body may take once its headers are in; then 408 (default 30)",
    )
    p.add_argument(
        "--sandbox-disk-mb",
        type=int,
        default=4096,
        help="MiB all conversation folders may use together (default 4096)",
    )
    p.add_argument(
        "--llm-model",
        default=EMBEDDED_LLM,
        help=f"embedded model (qwen2.5-coder-1.5b, qwen2.5-coder-0.5b, smollm2-135m; default {EMBEDDED_LLM})"
        " or a LiteLLM model name (ollama/llama3.1, openai/gpt-4o-mini...)",
    )
    p.add_argument(
        "--llm-models-dir",
        action="append",
        default=[],
        help="extra folder holding embedded GGUF files (default: <venv>/../models)",
    )
    p.add_argument("--llm-api-base", default="")
    p.add_argument("--llm-api-key", action=_RefusedSecretFlag, help=argparse.SUPPRESS)
    p.add_argument("--llm-api-key-file", default="", help="file holding the LLM API key (default: $O1_LLM_API_KEY)")
    p.add_argument(
        "--llm-timeout",
        type=float,
        default=30.0,
        help="seconds an LLM request may take to send its first token, and between tokens (default 30)",
    )
    p.add_argument("--threads", type=int, default=2, help="CPU threads for whisper and the embedded LLM")
    p.add_argument(
        "--ha-url", default="", help="Home Assistant URL for generated code (add-on: http://supervisor/core)"
    )
    p.add_argument("--ha-token", action=_RefusedSecretFlag, help=argparse.SUPPRESS)
    p.add_argument(
        "--ha-token-file",
        default="",
        help="file holding the Home Assistant token (add-on: the Supervisor token; default: $O1_HA_TOKEN)",
    )
    p.add_argument(
        "--sandbox-user",
        default="",
        help="run every conversation's code as this one user (name or uid; needs root) instead of "
        "one uid per conversation (--sandbox-uids)",
    )
    p.add_argument(
        "--sandbox-uids",
        default="100000:65536",
        help="FIRST:COUNT host uids handed out one per conversation when running as root "
        "(default 100000:65536; 'off': one uid for all, see --sandbox-user)",
    )
    p.add_argument("--log-level", default="INFO")
    p.add_argument("--version", action="version", version=__version__)
    return p


# flag -> the add-on option that sets it (addon/rootfs/usr/local/bin/o1-start), named in error messages.
ADDON_OPTIONS = {
    "--stt-model": "stt_model",
    "--stt-language": "stt_language",
    "--stt-decoding": "stt_decoding",
    "--tts-voice": "tts_voice",
    "--tts-voices-dir": "tts_voices_dir",
    "--llm-model": "llm_model",
    "--llm-api-base": "llm_api_base",
    "--default-profile": "default_profile",
    "--threads": "threads",
    "--llm-timeout": "llm_timeout",
    "--log-level": "log_level",
    "--light-devices": "devices_01",
    "--sandbox-disk-mb": "sandbox_disk_mb",
    "--http-header-seconds": "http_header_seconds",
    "--http-body-seconds": "http_body_seconds",
}
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
COMPUTE_TYPES = (
    "default",
    "auto",
    "int8",
    "int8_float32",
    "int8_float16",
    "int8_bfloat16",
    "int16",
    "float16",
    "bfloat16",
    "float32",
)
"""CTranslate2 compute types (``ctranslate2`` documentation, "Quantization")."""


class SettingsError(ValueError):
    """A flag value the server cannot start with; the message names the flag (and its add-on option)."""


def option_name(flag: str) -> str:
    """``--stt-model`` -> ``"--stt-model (add-on option stt_model)"``; flags without an option stay as they are."""
    option = ADDON_OPTIONS.get(flag)
    return f"{flag} (add-on option {option})" if option else flag


def _check_range(errors: list[str], flag: str, value: float | None, low: float, high: float) -> None:
    if value is not None and not low <= value <= high:
        errors.append(f"{option_name(flag)} must be between {low:g} and {high:g}, not {value:g}")


def _light_devices(value: str) -> tuple[str, ...]:
    """``"192.168.1.50, 192.168.1.51"`` -> ``("192.168.1.50", "192.168.1.51")`` (empty items dropped)."""
    return tuple(item.strip() for item in value.split(",") if item.strip())


def validate_args(args: argparse.Namespace) -> None:
    """Check every flag's value before anything starts.

    Whether the model and voice files exist and are usable is checked when they are opened, at start-up
    (``o1_server.__main__``), with the same kind of message.

    Raises:
        SettingsError: one line per bad value, each naming the flag, its add-on option and the allowed values.
    """
    errors: list[str] = []
    for flag, value in (("--wyoming-port", args.wyoming_port), ("--api-port", args.api_port)):
        _check_range(errors, flag, value, 0, 65535)
    _check_range(errors, "--threads", args.threads, 1, 64)
    _check_range(errors, "--stt-beam-size", args.stt_beam_size, 1, 20)
    _check_range(errors, "--stt-max-seconds", args.stt_max_seconds, 1, 600)
    _check_range(errors, "--tts-max-chars", args.tts_max_chars, 1, 1_000_000)
    _check_range(errors, "--wyoming-max-connections", args.wyoming_max_connections, 1, 10_000)
    _check_range(errors, "--wyoming-idle-seconds", args.wyoming_idle_seconds, 1, 86_400)
    _check_range(errors, "--wyoming-frame-seconds", args.wyoming_frame_seconds, 1, 3600)
    _check_range(errors, "--light-max-connections", args.light_max_connections, 1, 10_000)
    _check_range(errors, "--light-max-unauthenticated", args.light_max_unauthenticated, 1, 10_000)
    for device in _light_devices(args.light_devices):
        try:
            address = ipaddress.ip_address(device)
        except ValueError:
            address = None
        if address is None or address.is_unspecified or address.is_multicast:
            errors.append(f"{option_name('--light-devices')}: {device!r} is not a device's IP address")
    _check_range(errors, "--max-parallel-turns", args.max_parallel_turns, 1, 256)
    _check_range(errors, "--session-max-age-days", args.session_max_age_days, 0, 36_500)
    _check_range(errors, "--session-max-count", args.session_max_count, 0, 10_000_000)
    _check_range(errors, "--llm-timeout", args.llm_timeout, 1, 3600)
    _check_range(errors, "--http-header-seconds", args.http_header_seconds, 1, 3600)
    _check_range(errors, "--http-body-seconds", args.http_body_seconds, 1, 3600)
    _check_range(errors, "--sandbox-disk-mb", args.sandbox_disk_mb, 64, 16_777_216)
    _check_range(errors, "--tts-length-scale", args.tts_length_scale, 0.1, 5.0)  # tts.OPTION_RANGES
    _check_range(errors, "--tts-noise-scale", args.tts_noise_scale, 0.0, 2.0)
    _check_range(errors, "--tts-noise-w-scale", args.tts_noise_w_scale, 0.0, 2.0)
    if args.stt_compute_type not in COMPUTE_TYPES:
        errors.append(
            f"{option_name('--stt-compute-type')} must be one of {', '.join(COMPUTE_TYPES)}, "
            f"not {args.stt_compute_type!r}"
        )
    if args.log_level.upper() not in LOG_LEVELS:
        levels = ", ".join(level.lower() for level in LOG_LEVELS)
        errors.append(f"{option_name('--log-level')} must be one of {levels}, not {args.log_level!r}")
    language = args.stt_language
    if language not in ("", "auto") and not (
        language.replace("_", "-").split("-")[0].isalpha() and 2 <= len(language.replace("_", "-").split("-")[0]) <= 3
    ):
        errors.append(
            f"{option_name('--stt-language')} must be 'auto' or a language code such as 'en' or 'de', not {language!r}"
        )
    # Speech languages: the whisper model names, and English-only models refusing another default language.
    from .stt.service import MODEL_NAMES

    if args.stt_model not in MODEL_NAMES and "/" not in args.stt_model:
        errors.append(
            f"{option_name('--stt-model')} must be 'tiny.en' (bundled, English), 'base' (multilingual) or the "
            f"path of a CTranslate2 whisper model folder, not {args.stt_model!r}"
        )
    elif (
        args.stt_model.endswith((".en", "-en"))
        and language not in ("", "auto", "en")
        and not language.startswith(("en-", "en_"))
    ):
        errors.append(
            f"{option_name('--stt-language')} {language!r} needs a multilingual model: whisper "
            f"{args.stt_model} understands only English (set {option_name('--stt-model')} to 'base')"
        )
    if args.tts_voice != "en_US-joe-medium" and not args.tts_voice.endswith(".onnx"):
        errors.append(
            f"{option_name('--tts-voice')} must be 'en_US-joe-medium' (bundled) or the path of a piper "
            f".onnx voice, not {args.tts_voice!r}"
        )
    if not args.llm_model.strip():
        errors.append(
            f"{option_name('--llm-model')} must be 'embedded' or a LiteLLM model name such as 'ollama/llama3.1'"
        )
    if args.llm_api_base and not args.llm_api_base.startswith(("http://", "https://")):
        errors.append(f"{option_name('--llm-api-base')} must be an http:// or https:// URL, not {args.llm_api_base!r}")
    if errors:
        raise SettingsError("\n".join(errors))


def settings_from_args(argv: list[str] | None = None, environ: MutableMapping[str, str] | None = None) -> Settings:
    """Parse ``argv`` (default: ``sys.argv[1:]``) and the secret variables of ``environ`` (default:
    ``os.environ``; the :data:`SECRET_ENV` variables are removed from it) into Settings.

    Exits with a usage message on bad flags (a secret given as a flag included) and with a clear message on
    an unreadable secret file or an unwritable token file, and with one line per bad value (naming the flag, its
    add-on option and the allowed values; see :func:`validate_args`) before anything starts.
    """
    args = build_parser().parse_args(argv)
    try:
        validate_args(args)
    except SettingsError as err:
        for line in str(err).splitlines():
            print(f"o1-server: {line}", file=sys.stderr)
        raise SystemExit(2) from None
    environ = os.environ if environ is None else environ
    env = {name: (environ.pop(var, "") or "").strip() for name, var in SECRET_ENV.items()}
    for path in (args.ha_token_file, args.llm_api_key_file):
        if path:
            _warn_if_shared(path)
    data_dir = Path(args.data_dir).expanduser().resolve()
    language = None if args.stt_language in ("", "auto") else args.stt_language
    return Settings(
        host=args.host,
        wyoming_port=args.wyoming_port,
        api_port=args.api_port,
        token=_load_token(args.token_file, env["token"], data_dir),
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
        stt_decoding=args.stt_decoding,
        stt_streaming=not args.no_stt_streaming,
        tts_voice=args.tts_voice,
        tts_speaker=args.tts_speaker or None,
        tts_length_scale=args.tts_length_scale,
        tts_noise_scale=args.tts_noise_scale,
        tts_noise_w_scale=args.tts_noise_w_scale,
        tts_voices_dirs=tuple(Path(d).expanduser() for d in args.tts_voices_dir),
        tts_max_chars=args.tts_max_chars,
        wyoming_max_connections=args.wyoming_max_connections,
        wyoming_idle_seconds=args.wyoming_idle_seconds,
        wyoming_frame_seconds=args.wyoming_frame_seconds,
        light_max_connections=args.light_max_connections,
        light_max_unauthenticated=args.light_max_unauthenticated,
        light_devices=_light_devices(args.light_devices),
        max_parallel_turns=args.max_parallel_turns,
        session_max_age_days=args.session_max_age_days,
        session_max_count=args.session_max_count,
        http_header_seconds=args.http_header_seconds,
        http_body_seconds=args.http_body_seconds,
        sandbox_disk_mb=args.sandbox_disk_mb,
        llm_model=args.llm_model,
        llm_models_dirs=tuple(Path(d).expanduser().resolve() for d in args.llm_models_dir),
        llm_api_base=args.llm_api_base or None,
        llm_api_key=_read_secret(args.llm_api_key_file) or env["llm_api_key"] or None,
        llm_timeout=args.llm_timeout,
        threads=args.threads,
        ha_url=args.ha_url or None,
        ha_token=_read_secret(args.ha_token_file) or env["ha_token"] or None,
        sandbox_user=args.sandbox_user or None,
        sandbox_uids=_uid_range(args.sandbox_uids),
        log_level=args.log_level.upper(),
    )
