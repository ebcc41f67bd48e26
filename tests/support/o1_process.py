"""Start the real ``o1-server`` as a child process (from either test environment) and stop it cleanly.

The server logs one line ``o1 server <version> ready in <s> s: wyoming tcp://H:P api http://H:Q ...``;
the ports (chosen free with port 0) are read from it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SERVER_PYTHON = Path(os.environ.get("O1_CACHE", Path.home() / ".cache" / "o1")) / "server-venv" / "bin" / "python"
_READY = re.compile(r"ready in [\d.]+ s: wyoming tcp://[^:]+:(\d+) api http://[^:]+:(\d+)")


@dataclass
class O1Process:
    """A running o1 server: its ports, token, data dir and collected log lines."""

    proc: subprocess.Popen
    wyoming_port: int
    api_port: int
    token: str
    data_dir: Path
    log: list[str] = field(default_factory=list)

    @property
    def api_url(self) -> str:
        """Base URL of the HTTP API."""
        return f"http://127.0.0.1:{self.api_port}"

    def wait_for_log(self, *needles: str, timeout: float = 15) -> bool:
        """Whether a log line holding every needle arrives within ``timeout`` s (a background thread collects
        the lines, so a line the server wrote just now may not be in ``log`` yet)."""
        deadline = time.monotonic() + timeout
        while True:
            if any(all(n in line for n in needles) for line in list(self.log)):
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)

    def stop(self, timeout: float = 20) -> int:
        """SIGTERM, wait, SIGKILL the process group if needed; return the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        return self.proc.returncode


def start_o1(data_dir: Path, *args: str, token: str = "test-token", timeout: float = 180,
             env: dict[str, str] | None = None) -> O1Process:
    """Start ``python -m o1_server`` on 127.0.0.1 with free ports; wait for its ready line.

    ``token`` reaches the server in the ``O1_TOKEN`` environment variable, never on its command line ("": the
    server uses its token file). ``env`` adds environment variables (``O1_HA_TOKEN``...).
    Raises RuntimeError with the server's log when it exits or does not get ready within ``timeout`` s.
    """
    python = SERVER_PYTHON if SERVER_PYTHON.exists() else Path("python3")
    cmd = [str(python), "-m", "o1_server", "--host", "127.0.0.1", "--wyoming-port", "0", "--api-port", "0",
           "--data-dir", str(data_dir), *args]
    # This checkout's server code (the shared cache holds only third-party packages).
    env = {**{k: v for k, v in os.environ.items() if k not in ("O1_TOKEN", "O1_HA_TOKEN", "O1_LLM_API_KEY")},
           "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(REPO / "addon"), **(env or {})}
    if token:
        env["O1_TOKEN"] = token
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True, cwd=REPO)
    log: list[str] = []
    ready: list[tuple[int, int]] = []
    got_ready = threading.Event()

    def pump() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            log.append(line.rstrip())
            if not ready and (m := _READY.search(line)):
                ready.append((int(m.group(1)), int(m.group(2))))
                got_ready.set()
        got_ready.set()

    threading.Thread(target=pump, daemon=True, name="o1-server-log").start()
    got_ready.wait(timeout)
    if not ready:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        tail = "\n".join(log[-40:])
        raise RuntimeError(f"o1-server did not get ready in {timeout:g} s (exit {proc.poll()}):\n{tail}")
    return O1Process(proc, ready[0][0], ready[0][1], token, data_dir, log)
