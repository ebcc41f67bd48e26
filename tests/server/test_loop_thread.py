"""The Wyoming listener's own event loop (o1_server.loop_thread): turns run on the agent's loop, a client leaving
cancels its turn there, and a stopped server answers instead of hanging. The whole server runs this way in every
test that starts ``o1-server`` (tests/server/test_process.py, test_wyoming_*.py over TCP)."""

from __future__ import annotations

import asyncio
import threading
import warnings

import pytest

from o1_server.agent.types import AgentError, AgentReply
from o1_server.loop_thread import AgentOnLoop, LoopThread


class LoopBoundAgent:
    """An agent whose turns need an asyncio lock of the loop it was made on, as O1Agent's slots do."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.ran_on: list[asyncio.AbstractEventLoop] = []
        self.cancelled = asyncio.Event()
        self.hang = False
        self.audit = "the agent's audit log"

    async def ask(self, text: str, conversation_id: str | None = None, profile: str | None = None,
                  language: str | None = None, channel: str = "local") -> AgentReply:
        self.ran_on.append(asyncio.get_running_loop())
        async with self.lock:
            try:
                while self.hang:
                    await asyncio.sleep(0.01)
            except asyncio.CancelledError:
                self.cancelled.set()
                raise
        return AgentReply(answer=f"{text} on {channel}", conversation_id=conversation_id or "new", profile="default")


async def test_turns_run_on_the_agents_loop_and_a_leaving_client_cancels_them() -> None:
    main = asyncio.get_running_loop()
    agent = LoopBoundAgent()
    await agent.ask("bind the lock to this loop")
    other = LoopThread("test-wyoming")
    other.start()
    try:
        facade = AgentOnLoop(agent, main)
        assert facade.audit == "the agent's audit log"  # everything but ask() is the agent's own
        reply = await other.call(facade.ask("hello", conversation_id="c1", channel="wyoming:test"))
        assert reply.answer == "hello on wyoming:test" and reply.conversation_id == "c1"
        assert agent.ran_on == [main, main]  # not on the Wyoming loop, where the lock would raise

        agent.hang = True

        async def client_leaves() -> None:
            turn = asyncio.ensure_future(facade.ask("slow"))
            await asyncio.sleep(0.2)
            turn.cancel()  # what a Wyoming connection's task gets when its client goes away
            with pytest.raises(asyncio.CancelledError):
                await turn

        await other.call(client_leaves())
        await asyncio.wait_for(agent.cancelled.wait(), 5)  # the turn itself was cancelled on the agent's loop
        assert not agent.lock.locked()
    finally:
        other.stop()
    assert not other._thread.is_alive() and other.loop.is_closed()


def test_a_closed_agent_loop_answers_busy() -> None:
    closed = asyncio.new_event_loop()
    closed.close()
    agent = LoopBoundAgent()
    facade = AgentOnLoop(agent, closed)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a turn created and never awaited would warn
        with pytest.raises(AgentError) as err:
            asyncio.run(facade.ask("anyone there?"))
    assert err.value.code == "busy" and agent.ran_on == []


def test_stop_cancels_what_still_runs_on_the_loop() -> None:
    thread = LoopThread("test-stop")
    thread.start()
    started, cancelled = threading.Event(), threading.Event()

    async def forever() -> None:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise

    asyncio.run_coroutine_threadsafe(forever(), thread.loop)
    assert started.wait(5)
    thread.stop()
    assert cancelled.is_set() and not thread._thread.is_alive()


async def test_a_wyoming_client_leaving_mid_turn_stops_the_turn_and_frees_its_slot() -> None:
    """Nothing reads a Wyoming connection while its turn runs, so its task was never cancelled when the client
    left: the turn kept its slot (and its code ran on) until the turn's deadline, and the next client waited."""
    from o1_server.peer_guard import Verdict
    from o1_server.wyoming_server import WyomingServer

    class Allow:
        async def check(self, transport) -> Verdict:
            return Verdict(True)

    main = asyncio.get_running_loop()
    agent = LoopBoundAgent()
    await agent.ask("bind the lock to this loop")
    other = LoopThread("test-wyoming")
    other.start()
    server = WyomingServer("tcp://127.0.0.1:0", None, None, AgentOnLoop(agent, main), "test",  # type: ignore[arg-type]
                           peer_guard=Allow())  # type: ignore[arg-type]
    try:
        port = await other.call(server.start())
        transcript = b'{"type": "transcript", "data": {"text": "slow"}}\n'
        agent.hang = True
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(transcript)
        await writer.drain()
        await asyncio.sleep(0.3)
        assert agent.lock.locked()  # the turn runs
        writer.close()
        await asyncio.wait_for(agent.cancelled.wait(), 5)  # the client left: its turn was cancelled
        agent.hang = False
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(transcript.replace(b"slow", b"next"))
        header = await asyncio.wait_for(reader.readline(), 5)  # the next client gets the slot at once
        assert b'"handled"' in header, header
        writer.close()
    finally:
        await other.call(server.stop())
        other.stop()


def test_serial_worker_close_cancels_the_queue_and_ends_its_thread() -> None:
    import time

    from o1_server.stt import BusyError, SerialWorker

    worker = SerialWorker("test-close")
    began = threading.Event()
    running = worker.submit(lambda: (began.set(), time.sleep(0.3)))
    queued = worker.submit(time.sleep, 10)
    assert began.wait(5)
    assert worker.close(5)
    assert running.done() and not running.cancelled() and queued.cancelled()
    with pytest.raises(BusyError):
        worker.submit(print)


def test_sigterm_while_wyoming_clients_synthesize_exits_0(tmp_path) -> None:
    """SIGTERM with Wyoming text-to-speech running: piper's inference, on a daemon thread, was still in
    onnxruntime when the interpreter finalized, and the process aborted ("terminate called without an active
    exception", status -6) instead of exiting 0."""
    import json
    import signal
    import socket
    import time

    from tests.support.o1_process import start_o1
    from tests.support.scripted_llm import ScriptedLLM

    llm = ScriptedLLM().start()
    server = start_o1(tmp_path, "--llm-model", "openai/instant", "--llm-api-base", llm.api_base)
    stop = threading.Event()
    done: list[int] = []

    def synthesize() -> None:
        data = json.dumps({"text": "Hello there, this is a sentence to speak while the server stops."}).encode()
        event = json.dumps({"type": "synthesize", "data_length": len(data)}).encode() + b"\n" + data
        while not stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", server.wyoming_port), timeout=30) as sock:
                    sock.sendall(event)
                    received = b""
                    while b'"audio-stop"' not in received and b'"error"' not in received:
                        chunk = sock.recv(65536)
                        if not chunk:
                            break
                        received += chunk
                done.append(1)
            except OSError:
                time.sleep(0.05)

    clients = [threading.Thread(target=synthesize, daemon=True) for _ in range(6)]
    try:
        for client in clients:
            client.start()
        deadline = time.monotonic() + 60
        while len(done) < 6 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert done, "no synthesis finished"
        started = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        status = server.proc.wait(15)
        assert status == 0 and time.monotonic() - started < 10, (status, server.log[-5:])
        assert not any("terminate called" in line for line in server.log)
    finally:
        stop.set()
        server.stop()
        llm.stop()
