"""A Wyoming connection is watched while its agent turn runs (wyoming_server.handle_events: _client_gone): a client that left
stops its turn, whatever it sent before leaving; one that stays gets its answer."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator

from o1_server.agent.types import AgentReply
from o1_server.loop_thread import AgentOnLoop, LoopThread
from o1_server.peer_guard import Verdict
from o1_server.wyoming_server import WyomingServer

TRANSCRIPT = b'{"type": "transcript", "data": {"text": "slow"}}\n'
PING = b'{"type": "ping", "data": {"text": "hi"}}\n'


class Allow:
    async def check(self, transport) -> Verdict:
        return Verdict(True)


class HangingAgent:
    def __init__(self) -> None:
        self.hang = asyncio.Event()  # set: the turn ends
        self.started = asyncio.Event()
        self.cancelled = asyncio.Event()

    async def ask(self, text: str, conversation_id: str | None = None, profile: str | None = None,
                  language: str | None = None, channel: str = "local") -> AgentReply:
        self.started.set()
        try:
            await self.hang.wait()
        except asyncio.CancelledError:
            self.cancelled.set()
            raise
        return AgentReply(answer=f"{text}!", conversation_id="c", profile="default")


@contextlib.asynccontextmanager
async def _serve(agent: HangingAgent) -> AsyncIterator[tuple[WyomingServer, LoopThread, int]]:
    """A Wyoming server on a loop of its own thread, as the server process runs it; stopped on exit."""
    other = LoopThread("test-wyoming")
    other.start()
    server = WyomingServer("tcp://127.0.0.1:0", None, None, AgentOnLoop(agent, asyncio.get_running_loop()),  # type: ignore[arg-type]
                           "test", peer_guard=Allow())  # type: ignore[arg-type]
    try:
        yield server, other, await other.call(server.start())
    finally:
        await other.call(server.stop())
        other.stop()


async def _client_leaves_after(extra: bytes) -> None:
    agent = HangingAgent()
    async with _serve(agent) as (server, other, port):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(TRANSCRIPT + extra)
        await asyncio.wait_for(agent.started.wait(), 5)
        sock.close()
        await asyncio.wait_for(agent.cancelled.wait(), 5)  # the client left: its turn is stopped


async def test_a_client_that_sent_one_more_event_and_left_has_its_turn_stopped() -> None:
    """reader.at_eof() is False while unread bytes are buffered: a client that sent a ping (or a stray newline)
    after its transcript and then left kept its turn (and its slot) until the turn's deadline."""
    await _client_leaves_after(PING)


async def test_a_client_that_sent_a_lot_more_and_left_has_its_turn_stopped() -> None:
    """Past the stream's high-water mark the transport stops reading, so the end of stream may never be seen
    (it failed CI once: whether it was seen depended on how far the kernel had grown its receive buffer)."""
    await _client_leaves_after(PING * 8000)  # about 300 KB


async def test_a_client_that_floods_during_its_turn_has_its_turn_stopped_and_is_told(caplog) -> None:
    """One that stays connected but sends more than the stream buffers during its turn: its turn is stopped
    (it does not hold its slot), the connection is closed, and the server says why (a ``flooded`` error
    event, which the client may not get: a socket closed with unread bytes is reset) in its log."""
    agent = HangingAgent()
    async with _serve(agent) as (server, other, port):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(TRANSCRIPT)
        await asyncio.wait_for(agent.started.wait(), 5)
        writer.write(PING * 8000)
        await asyncio.wait_for(agent.cancelled.wait(), 5)
        received = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := await asyncio.wait_for(reader.read(65536), 5):  # until the server's end closes
                received += chunk
        assert b'"pong"' not in received and b'"handled"' not in received  # nothing it sent was answered
        assert not received or b'"flooded"' in received, received[-300:]
        assert any("sent more than the stream buffers" in r.getMessage() for r in caplog.records)
        writer.close()


async def test_a_client_that_sends_a_ping_during_its_turn_gets_both_answers() -> None:
    agent = HangingAgent()
    async with _serve(agent) as (server, other, port):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(TRANSCRIPT)
        await asyncio.wait_for(agent.started.wait(), 5)
        writer.write(PING)
        await writer.drain()
        await asyncio.sleep(0.6)
        assert not agent.cancelled.is_set()
        agent.hang.set()
        first = await asyncio.wait_for(reader.readline(), 5)
        assert b'"handled"' in first, first
        while True:  # the handled event's data, then the pong
            line = await asyncio.wait_for(reader.readline(), 5)
            if b'"pong"' in line:
                break
            assert line, "connection closed before the pong"
        writer.close()


async def test_stop_during_a_turn_ends_it_promptly() -> None:
    agent = HangingAgent()
    async with _serve(agent) as (server, other, port):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(TRANSCRIPT)
        await asyncio.wait_for(agent.started.wait(), 5)
        await asyncio.wait_for(other.call(server.stop()), 3)
        await asyncio.wait_for(agent.cancelled.wait(), 3)
        assert await asyncio.wait_for(reader.read(), 3) == b""
        writer.close()


async def test_a_turn_failing_as_its_connection_is_stopped_logs_no_unretrieved_exception() -> None:
    """The connection's task cancelled (server stop) right after its turn ended with an error, before the
    handler saw it: the turn's exception was never retrieved and asyncio logged 'Task exception was never
    retrieved' with its traceback at the next garbage collection."""
    import gc

    from o1_server.agent.types import AgentError
    from o1_server.wyoming_server import O1EventHandler
    from wyoming.asr import Transcript

    loop = asyncio.get_running_loop()
    reported: list[dict] = []
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    release = asyncio.Event()
    turns: list[asyncio.Task] = []

    class FailingAgent:
        async def ask(self, *args, **kwargs) -> AgentReply:
            turns.append(asyncio.current_task())  # type: ignore[arg-type]
            await release.wait()
            raise AgentError("busy", "I'm restarting.")

    srv_sock, cli_sock = socket.socketpair()
    reader, writer = await asyncio.open_connection(sock=srv_sock)
    handler = O1EventHandler(reader, writer, stt=None, tts=None, agent=FailingAgent(), version="test")  # type: ignore[arg-type]
    task = asyncio.ensure_future(handler._handle_transcript(Transcript(text="hi")))
    while not turns:
        await asyncio.sleep(0)
    release.set()
    while not turns[0].done():
        await asyncio.sleep(0)
    task.cancel()  # what WyomingServer.stop() does, before the handler saw the turn end
    try:
        await task
    except asyncio.CancelledError:
        pass
    del turns[:], task
    gc.collect()
    await asyncio.sleep(0)
    writer.close()
    cli_sock.close()
    assert not [c for c in reported if "never retrieved" in str(c.get("message"))], reported


def test_a_client_leaving_during_a_hung_llm_request_logs_no_unretrieved_exception(tmp_path, llm) -> None:
    """The real server: a Wyoming client left during a turn whose LLM request hung; the turn's thread later
    failed (the request's timeout) into a future nobody awaited any more, and at the next collection (at the
    latest when stopping) asyncio logged 'Future exception was never retrieved' with the whole traceback."""
    import json
    import time

    from tests.support.o1_process import start_o1
    from tests.support.scripted_llm import ScriptedLLM

    llm.script(ScriptedLLM.HANG)
    o1 = start_o1(tmp_path, "--llm-model", "openai/instant", "--llm-api-base", llm.api_base, "--llm-timeout", "2")
    try:
        data = {"text": "hi", "context": {"conversation_id": "left"}}
        with socket.create_connection(("127.0.0.1", o1.wyoming_port)) as client:
            client.sendall((json.dumps({"type": "transcript", "data": data}) + "\n").encode())
            time.sleep(0.7)
        assert o1.wait_for_log("left during a turn", timeout=5)
        assert o1.wait_for_log("LLM failed in left", timeout=20)  # the thread's request timed out
        time.sleep(0.5)
    finally:
        assert o1.stop() == 0
    assert not [line for line in o1.log if "never retrieved" in line or "destroyed but it is pending" in line], \
        "\n".join(o1.log[-60:])
