#!/usr/bin/env python3
"""Start the built o1 add-on image's file system with chroot and check it like the Supervisor would use it.

Run by ``script/addon-image start`` as root on the host, with the image's (writable) root file system as the
first argument and the image's environment (``podman image inspect .Config.Env``, JSON) as the second:

1. ``/data/options.json`` gets config.yaml's default options (read with the image's own Python and PyYAML);
2. a fake Supervisor listens on 127.0.0.1 (``POST /discovery``, bearer ``SUPERVISOR_TOKEN``), as the
   Supervisor's discovery API answers: ``{"result": "ok", "data": {"uuid": ...}}``;
3. ``python3 /usr/local/bin/o1-start`` runs in the chroot (what the s6 ``o1`` longrun runs), with the image's
   environment and a ``SUPERVISOR_TOKEN``; then ``o1-discovery`` (the s6 ``discovery`` oneshot);
4. checks, from the host: a Wyoming ``describe`` on 127.0.0.1:10700 answers ``info`` with o1's speech-to-text,
   text-to-speech and handle programs; ``GET /api/health`` on 10800; the two discovery messages (wyoming URI,
   o1 URL + the token in ``/data/api_token`` + the server id of ``/api/health``); ``GET /api/info`` with that
   token lists the shipped profiles and the default profile of the options; one ``POST /api/conversation``
   ("What is 2 + 2?") is answered by the embedded LLM with code run in the sandbox.

Exit status 0 when every check passes; 1 with the failed check and the server's log tail otherwise.
Standard library only (the host's python3).
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
WYOMING_PORT = 10700
API_PORT = 10800
SUPERVISOR_TOKEN = "addon-image-check-token"
READY_TIMEOUT = 900.0  # seconds: loading whisper, piper and the embedded LLM on 2 busy cores
SHIPPED_PROFILES = {"default", "home", "power", "safe"}


def log(message: str) -> None:
    """One line on stderr."""
    print(f"[addon-image] {message}", file=sys.stderr, flush=True)


class FakeSupervisor(ThreadingHTTPServer):
    """``POST /discovery`` of the Supervisor's API on 127.0.0.1: records each message, answers with a uuid."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.refused: list[str] = []
        super().__init__(("127.0.0.1", 0), _SupervisorHandler)

    @property
    def url(self) -> str:
        """The base URL o1-discovery gets as O1_SUPERVISOR_URL."""
        return f"http://127.0.0.1:{self.server_address[1]}"


class _SupervisorHandler(BaseHTTPRequestHandler):
    server: FakeSupervisor

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path != "/discovery" or self.headers.get("Authorization") != f"Bearer {SUPERVISOR_TOKEN}":
            self.server.refused.append(f"{self.path} {self.headers.get('Authorization')}")
            self._answer(401, {"result": "error", "message": "Invalid token"})
            return
        self.server.messages.append(json.loads(body))
        self._answer(200, {"result": "ok", "data": {"uuid": f"{len(self.server.messages):032x}"}})

    def _answer(self, status: int, data: dict[str, Any]) -> None:
        payload = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's signature
        log(f"fake Supervisor: {format % args}")


def wyoming_describe(port: int, timeout: float = 10.0) -> dict[str, Any]:
    """Send a Wyoming ``describe`` event and return the ``info`` event's data.

    Wyoming events are a JSON header line (``type``, ``data_length``, ``payload_length``), then
    ``data_length`` bytes of JSON data (github.com/rhasspy/wyoming, "Event format"). Raises OSError or
    ValueError when the server does not answer that way.
    """
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(b'{"type": "describe"}\n')
        stream = sock.makefile("rb")
        header = json.loads(stream.readline())
        if header.get("type") != "info":
            raise ValueError(f"expected an info event, got {header.get('type')!r}")
        data = dict(header.get("data") or {})
        if header.get("data_length"):
            data.update(json.loads(stream.read(header["data_length"])))
        return data


def http_json(url: str, token: str | None = None, body: dict[str, Any] | None = None) -> Any:
    """GET ``url`` (POST ``body`` as JSON when given) and return the JSON answer (raises on an HTTP error)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    request = urllib.request.Request(url, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=300) as response:
        return json.loads(response.read())


def port_is_free(port: int) -> bool:
    """Whether nothing listens on 127.0.0.1:<port> (o1-start binds the add-on's fixed ports)."""
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


def chroot_env(image_env: list[str], **extra: str) -> list[str]:
    """``env -i`` arguments: the image's environment plus ``extra``, nothing from the host."""
    return ["/usr/bin/env", "-i", *image_env, *(f"{k}={v}" for k, v in extra.items())]


def check(condition: bool, what: str) -> None:
    """Log a passed check; raise AssertionError naming a failed one."""
    if not condition:
        raise AssertionError(what)
    log(f"ok: {what}")


def main(root: Path, image_env: list[str]) -> int:
    """Run the add-on in ``root`` and check it; return the exit status."""
    for port in (WYOMING_PORT, API_PORT):
        if not port_is_free(port):
            log(f"port {port} is taken on this machine: stop what listens there first")
            return 1
    config_yaml = (REPO / "addon" / "config.yaml").read_text(encoding="utf-8")
    options = json.loads(subprocess.run(
        ["chroot", str(root), *chroot_env(image_env), "python3", "-c",
         "import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin)['options']))"],
        input=config_yaml, capture_output=True, text=True, check=True).stdout)
    version = re.search(r'^version: "([^"]+)"', config_yaml, re.M).group(1)  # type: ignore[union-attr]
    (root / "data").mkdir(exist_ok=True)
    (root / "data" / "options.json").write_text(json.dumps(options), encoding="utf-8")
    (root / "config").mkdir(exist_ok=True)
    log(f"options.json: {options}")

    supervisor = FakeSupervisor()
    threading.Thread(target=supervisor.serve_forever, daemon=True).start()
    env = chroot_env(image_env, SUPERVISOR_TOKEN=SUPERVISOR_TOKEN, O1_SUPERVISOR_URL=supervisor.url,
                     O1_DISCOVERY_HOST="local-o1", O1_DISCOVERY_TIMEOUT=str(int(READY_TIMEOUT)))
    server_log = root / "tmp" / "o1-server.log"
    started = time.monotonic()
    with server_log.open("wb") as out:
        server = subprocess.Popen(["chroot", str(root), *env, "python3", "/usr/local/bin/o1-start"],
                                  stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        discovery = subprocess.run(["chroot", str(root), *env, "python3", "/usr/local/bin/o1-discovery"],
                                   capture_output=True, text=True, timeout=READY_TIMEOUT + 60)
        ready = time.monotonic() - started
        log(f"o1-discovery exited {discovery.returncode} after {ready:.0f} s: {discovery.stderr.strip()}")
        check(server.poll() is None, "o1-start is running (exec'd into o1-server)")
        check(discovery.returncode == 0, "o1-discovery announced the server")

        info = wyoming_describe(WYOMING_PORT)
        asr = [p["name"] for s in info.get("asr", []) for p in s.get("models", [])]
        tts = [v["name"] for s in info.get("tts", []) for v in s.get("voices", [])]
        handle = [s["name"] for s in info.get("handle", [])]
        check(bool(asr) and bool(tts) and bool(handle),
              f"Wyoming describe: speech-to-text {asr}, text-to-speech {tts}, handle {handle}")
        check(options["stt_model"] in asr and options["tts_voice"] in tts, "the options' model and voice are served")

        health = http_json(f"http://127.0.0.1:{API_PORT}/api/health")
        check(health.get("status") == "ok" and health.get("version") == version,
              f"GET /api/health: {health}")
        check(bool(re.fullmatch(r"[0-9a-f]{32}", health.get("server_id", ""))), "the server has a stable id")

        token = (root / "data" / "api_token").read_text(encoding="utf-8").strip()
        check(supervisor.refused == [], "every discovery request carried the Supervisor token")
        check(supervisor.messages == [
            {"service": "wyoming", "config": {"uri": f"tcp://local-o1:{WYOMING_PORT}"}},
            {"service": "o1", "config": {"url": f"http://local-o1:{API_PORT}", "token": token,
                                         "server_id": health["server_id"]}},
        ], "discovery POSTs: wyoming URI, then o1 URL, API token and server id")

        api_info = http_json(f"http://127.0.0.1:{API_PORT}/api/info", token)
        profiles = {p["name"] for p in api_info["profiles"]}
        check(SHIPPED_PROFILES <= profiles and not api_info["profile_errors"],
              f"GET /api/info: profiles {sorted(profiles)}, no profile errors")
        check(api_info["default_profile"] == options["default_profile"], "the options' default profile")
        check((root / "config" / "profiles" / "README.txt").is_file(), "the user profiles folder was made")

        # One real turn: the embedded LLM writes code, the sandbox runs it as `nobody`, the answer says 4.
        turn_started = time.monotonic()
        reply = http_json(f"http://127.0.0.1:{API_PORT}/api/conversation", token,
                          {"text": "What is 2 + 2?", "conversation_id": "addon-image-check"})
        blocks = [(b["decision"], b["exit_status"], b["output"].strip()) for b in reply["code_blocks"]]
        check("4" in reply["answer"] and any(d == "allow" and e == 0 for d, e, _ in blocks),
              f"a turn with the embedded LLM ({time.monotonic() - turn_started:.0f} s): "
              f"{reply['answer']!r}, code blocks {blocks}")
        log(f"PASS: the add-on image starts and answers ({ready:.0f} s to ready)")
        return 0
    except (AssertionError, OSError, ValueError, KeyError, subprocess.SubprocessError) as err:
        log(f"FAIL: {type(err).__name__}: {err}")
        tail = server_log.read_text(encoding="utf-8", errors="replace").splitlines()[-40:]
        log("o1-server log tail:\n" + "\n".join(tail))
        return 1
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
        supervisor.shutdown()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: addon_image_check.py ROOTFS IMAGE_ENV_JSON")
    sys.exit(main(Path(sys.argv[1]), json.loads(sys.argv[2])))
