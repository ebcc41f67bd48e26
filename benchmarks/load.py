"""Load benchmark of the real ``o1-server`` process: many clients at once, and hostile ones.

Run with the server environment's Python from the repository root::

    ~/.cache/o1/server-venv/bin/python benchmarks/load.py [--levels 1,4,16,64] [--json out.json]

It starts ``python -m o1_server`` (this checkout's code, via ``tests/support/o1_process.py``) on 127.0.0.1 with a
fake instant LLM (``tests/support/scripted_llm.py``: every request answers at once), then for each level N:

* **STT xN**: N Wyoming clients connect at once and each sends one utterance (``what_is_two_plus_two.wav``, 16 kHz
  mono, about 2 s) as fast as it can, then ``audio-stop``; latency = connect to ``transcript``; success = a
  transcript came (an ``error`` event or a closed connection is a failure).
* **agent xN**: N ``POST /api/conversation`` at once, each its own conversation; success = HTTP 200.

and one **hostile** phase: 64 idle Wyoming connections (half of them send half an event header and stop) and 64
WebSockets to the 01 endpoint that never send their token are opened first; then 16 STT clients and 16 agent turns
run as above while they stay.

Throughout, ``GET /api/health`` is timed every 100 ms (worst and p95 per phase) from a separate process (this
script with ``--probe URL``): timed from this process, it also measured how late this process's own event loop,
busy with up to 64 clients sending audio as fast as they can, got round to it (up to 0.3 s where the server's own
loop never stood still for more than 62 ms). The server's resident memory
(``VmRSS``, and the peak ``VmHWM`` at the end) is read from ``/proc``. It is a benchmark, not a test: the
figures depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
import urllib.request
import wave
from pathlib import Path

import aiohttp
from wyoming.asr import Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "addon"))

from tests.support.o1_process import O1Process, start_o1  # noqa: E402
from tests.support.scripted_llm import ScriptedLLM  # noqa: E402

BOUND = 300.0  # seconds: one request longer than this counts as failed


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def memory(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM of a process, in MiB."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) / 1024
    return out


def clip() -> tuple[bytes, int, int, int]:
    with wave.open(str(REPO / "tests" / "fixtures" / "what_is_two_plus_two.wav"), "rb") as wav:
        return wav.readframes(wav.getnframes()), wav.getframerate(), wav.getsampwidth(), wav.getnchannels()


async def stt_request(server: O1Process) -> tuple[bool, float]:
    pcm, rate, width, channels = clip()
    started = time.monotonic()
    try:
        async with asyncio.timeout(BOUND):
            client = AsyncTcpClient("127.0.0.1", server.wyoming_port)
            await client.connect()
            await client.write_event(AudioStart(rate=rate, width=width, channels=channels).event())
            step = 1024 * width * channels
            for offset in range(0, len(pcm), step):
                await client.write_event(AudioChunk(rate=rate, width=width, channels=channels,
                                                    audio=pcm[offset:offset + step]).event())
            await client.write_event(AudioStop().event())
            while True:
                event = await client.read_event()
                if event is None or event.type == "error":
                    await client.disconnect()
                    return False, time.monotonic() - started
                if Transcript.is_type(event.type):
                    await client.disconnect()
                    return bool(Transcript.from_event(event).text.strip()), time.monotonic() - started
    except (TimeoutError, OSError):
        return False, time.monotonic() - started


async def agent_request(http: aiohttp.ClientSession, server: O1Process, cid: str) -> tuple[bool, float]:
    started = time.monotonic()
    try:
        async with asyncio.timeout(BOUND), http.post(f"{server.api_url}/api/conversation",
                                                     json={"text": "hello there", "conversation_id": cid}) as r:
            await r.read()
            return r.status == 200, time.monotonic() - started
    except (TimeoutError, aiohttp.ClientError):
        return False, time.monotonic() - started


def run_probe(url: str) -> int:
    """``--probe URL``: GET ``url`` every 100 ms on a new connection and print, one line each, when the request
    started (``time.monotonic()``, the same clock in every process) and how long the answer took in seconds
    (``inf`` for a failure or a status other than 200), until killed."""
    while True:
        started = time.monotonic()
        try:
            with urllib.request.urlopen(url, timeout=30) as r:
                r.read()
                ok = r.status == 200
        except OSError:
            ok = False
        print(started, time.monotonic() - started if ok else "inf", flush=True)
        time.sleep(0.1)


class HealthProbe:
    """A ``--probe`` process timing ``GET /api/health`` for the whole run; :meth:`between` picks a phase's."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, float]] = []  # (started, seconds)
        self._proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task | None = None

    async def start(self, server: O1Process) -> None:
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--probe", f"{server.api_url}/api/health", stdout=asyncio.subprocess.PIPE)
        self._reader = asyncio.create_task(self._read())
        while not self.samples:  # the probe runs once this returns
            if self._reader.done():
                raise RuntimeError("the health probe process ended without a sample")
            await asyncio.sleep(0.05)

    async def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        async for line in self._proc.stdout:
            started, seconds = line.split()
            self.samples.append((float(started), float(seconds)))

    async def between(self, start: float, end: float) -> list[float]:
        """Times of the requests that started in [start, end], once the last of them has answered."""
        while self.samples[-1][0] <= end:
            await asyncio.sleep(0.05)
        return [seconds for started, seconds in self.samples if start <= started <= end]

    async def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            await self._proc.wait()
        if self._reader is not None:
            await self._reader


async def phase(name: str, server: O1Process, make: list, probe: HealthProbe) -> dict:
    started = time.monotonic()
    results = await asyncio.gather(*(m() for m in make))
    ended = time.monotonic()
    wall = ended - started
    health = await probe.between(started, ended)
    times = [t for _, t in results]
    row = {
        "phase": name, "clients": len(results), "success": sum(ok for ok, _ in results) / len(results),
        "p50_s": statistics.median(times), "p95_s": pct(times, 0.95), "wall_s": wall,
        "health_p95_ms": pct(health, 0.95) * 1000, "health_worst_ms": max(health, default=float("nan")) * 1000,
        "rss_mib": memory(server.proc.pid)["VmRSS"],
    }
    print(f"{name:<22} {row['clients']:>3} clients  success {row['success']:6.1%}  p50 {row['p50_s']:6.2f} s  "
          f"p95 {row['p95_s']:6.2f} s  health p95 {row['health_p95_ms']:6.1f} ms worst "
          f"{row['health_worst_ms']:7.1f} ms  RSS {row['rss_mib']:6.0f} MiB", flush=True)
    return row


async def hostile_clients(server: O1Process, count: int) -> list:
    """``count`` idle Wyoming sockets (every other one with half a header) and ``count`` 01 WebSockets without a
    token; returns what must be closed afterwards."""
    held: list = []
    for n in range(count):
        _, writer = await asyncio.open_connection("127.0.0.1", server.wyoming_port)
        if n % 2:
            writer.write(b'{"type": "audio-chunk", "data_le')
            await writer.drain()
        held.append(writer)
    http = aiohttp.ClientSession()
    held.append(http)
    for _ in range(count):
        try:
            held.append(await http.ws_connect(f"ws://127.0.0.1:{server.api_port}/"))
        except aiohttp.ClientError:
            pass
    return held


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1,4,16,64")
    parser.add_argument("--json", default="")
    parser.add_argument("--probe", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe:
        return await asyncio.to_thread(run_probe, args.probe)
    levels = [int(n) for n in args.levels.split(",")]
    llm = ScriptedLLM().start()
    rows = []
    with tempfile.TemporaryDirectory(prefix="o1-load-") as tmp:
        server = start_o1(Path(tmp) / "data", "--llm-model", "openai/instant", "--llm-api-base", llm.api_base)
        try:
            print(f"o1 server pid {server.proc.pid}, idle RSS {memory(server.proc.pid)['VmRSS']:.0f} MiB", flush=True)
            probe = HealthProbe()
            await probe.start(server)
            async with aiohttp.ClientSession(headers={"Authorization": f"Bearer {server.token}"}) as http:
                for n in levels:
                    rows.append(await phase(f"STT x{n}", server, [lambda: stt_request(server)] * n, probe))
                for n in levels:
                    rows.append(await phase(f"agent x{n}", server, [
                        (lambda i=i: agent_request(http, server, f"load-{n}-{i}")) for i in range(n)], probe))
                held = await hostile_clients(server, 64)
                rows.append(await phase("64 hostile + STT x16", server, [lambda: stt_request(server)] * 16, probe))
                rows.append(await phase("64 hostile + agent x16", server, [
                    (lambda i=i: agent_request(http, server, f"hostile-{i}")) for i in range(16)], probe))
                for item in reversed(held):  # WebSockets, their session, then the raw sockets
                    if isinstance(item, asyncio.StreamWriter):
                        item.close()
                    else:
                        await item.close()
            await probe.stop()
            peak = memory(server.proc.pid)["VmHWM"]
            print(f"peak RSS {peak:.0f} MiB", flush=True)
        finally:
            code = server.stop()
            llm.stop()
        print(f"server exit status {code}")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "peak_rss_mib": peak}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
