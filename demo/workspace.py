"""The demo's temporary workspace: free ports, secrets, and the two processes it starts.

- the o1 server (the add-on's process) with its embedded defaults, data under the workspace;
- a real Home Assistant core (`hass -c <workspace>/ha-config`) with the o1 custom integration copied in
  and a minimal configuration.yaml.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from processes import ManagedProcess, free_ports

# What the demo needs from HA, and nothing more. HA always sets up its default integrations as well
# (frontend, camera, automation, ...): their requirements must be in the HA environment, and
# `default_config:` is left out because it pulls many more. `tts` sets up `ffmpeg` anyway; it is listed
# to hand it a binary when one was found.
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


@dataclass
class Workspace:
    """The temporary folder, ports, secrets and child processes of one demo run."""

    root: Path
    wyoming_port: int = field(init=False)
    api_port: int = field(init=False)
    ha_port: int = field(init=False)
    o1_token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    ha_password: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    processes: list[ManagedProcess] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Pick the three ports."""
        self.wyoming_port, self.api_port, self.ha_port = free_ports(3)

    @property
    def o1_url(self) -> str:
        """Return the o1 server's HTTP API base URL."""
        return f"http://127.0.0.1:{self.api_port}"

    @property
    def ha_url(self) -> str:
        """Return Home Assistant's base URL."""
        return f"http://127.0.0.1:{self.ha_port}"

    def start_o1_server(self, server: str, extra_args: list[str]) -> ManagedProcess:
        """Start the o1 server with its embedded defaults; its data and sandbox live in the workspace."""
        data_dir = self.root / "o1-data"
        data_dir.mkdir()
        # The token goes in a file only we can read, never on the command line (readable in /proc by anyone).
        token_file = data_dir / "api_token"
        fd = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(self.o1_token + "\n")
        argv = [server, "--host", "127.0.0.1", "--wyoming-port", str(self.wyoming_port),
                "--api-port", str(self.api_port), "--token-file", str(token_file), "--data-dir", str(data_dir),
                "--log-level", "INFO", *extra_args]
        return self._start(ManagedProcess("o1-server", argv, self.root / "o1-server.log"))

    def start_hass(self, hass: str, integration: Path, ffmpeg: str | None) -> ManagedProcess:
        """Write a minimal HA configuration with the o1 integration installed, and start `hass` on it."""
        config = self.root / "ha-config"
        shutil.copytree(integration, config / "custom_components" / "o1",
                        ignore=shutil.ignore_patterns("__pycache__"))
        ffmpeg_block = f"ffmpeg:\n  ffmpeg_bin: {ffmpeg}\n" if ffmpeg else ""
        (config / "configuration.yaml").write_text(
            HA_CONFIGURATION.format(port=self.ha_port, ffmpeg=ffmpeg_block))
        # --skip-pip: HA must never install packages into the shared HA environment at run time.
        argv = [hass, "--config", str(config), "--skip-pip", "--log-no-color"]
        return self._start(ManagedProcess("hass", argv, self.root / "hass.log"))

    def _start(self, proc: ManagedProcess) -> ManagedProcess:
        """Start a process and remember it for stop_all()."""
        self.processes.append(proc)
        proc.start()
        return proc

    def stop_all(self) -> None:
        """Stop every child process, the last started first."""
        for proc in reversed(self.processes):
            proc.stop()


async def o1_server_healthy(session: aiohttp.ClientSession, ws: Workspace) -> bool:
    """Return True when the o1 server's health endpoint answers 200."""
    try:
        async with session.get(f"{ws.o1_url}/api/health", timeout=aiohttp.ClientTimeout(total=3)) as resp:
            return resp.status == 200
    except (aiohttp.ClientError, TimeoutError):
        return False


def liveness_check(server: ManagedProcess, hass: ManagedProcess) -> Callable[[], None]:
    """Return a check that raises when a process has exited or HA fell back to recovery mode."""
    def check() -> None:
        server.ensure_running()
        hass.ensure_running()
        raise_on_recovery_mode(hass)
    return check


def raise_on_recovery_mode(hass: ManagedProcess) -> None:
    """Raise with HA's setup errors if it started in recovery mode (it then ignores our configuration).

    HA always sets up its default integrations and falls back to recovery mode when `frontend` fails,
    typically because one of their requirements is missing from the HA environment.
    """
    try:
        text = hass.log_path.read_text(errors="replace")
    except OSError:
        return
    if "Activating recovery mode" not in text:
        return
    errors = [line for line in text.splitlines()
              if " ERROR " in line and ("Setup failed" in line or "Error during setup" in line)]
    raise RuntimeError("Home Assistant started in recovery mode (a requirement of its always-loaded "
                       "integrations is probably missing from the HA environment):\n  "
                       + "\n  ".join(errors[-10:] or ["(no setup error logged)"]))
