"""A conversation belongs to the transport that made it: the token-protected HTTP API, the unauthenticated
Wyoming ``handle`` program and the 01 socket never continue each other's conversations. Judged on the real
server process by effects: what the other transport's turn could read, and what the LLM was sent."""

from __future__ import annotations

import json
import socket
import urllib.request
from pathlib import Path

from tests.support.o1_process import start_o1
from tests.support.scripted_llm import ScriptedLLM

SECRET = "the-vault-code-is-4711"


def fence(src: str) -> str:
    return f"```python\n{src}\n```"


def http_turn(o1, text: str, cid: str) -> dict:
    request = urllib.request.Request(
        f"{o1.api_url}/api/conversation", data=json.dumps({"text": text, "conversation_id": cid}).encode(),
        headers={"Authorization": f"Bearer {o1.token}", "Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def wyoming_turn(o1, text: str, cid: str) -> str:
    """Send a Wyoming ``transcript`` for ``cid``; return the ``handled`` (or ``not-handled``) text."""
    with socket.create_connection(("127.0.0.1", o1.wyoming_port), timeout=60) as client:
        event = {"type": "transcript", "data": {"text": text, "context": {"conversation_id": cid}}}
        client.sendall((json.dumps(event) + "\n").encode())
        reader = client.makefile("rb")
        while True:
            header = json.loads(reader.readline())
            data = header.get("data") or {}
            if header.get("data_length"):
                data.update(json.loads(reader.read(header["data_length"])))
            if header.get("payload_length"):
                reader.read(header["payload_length"])
            if header["type"] in ("handled", "not-handled"):
                return str(data.get("text", ""))


def sent_to_llm(llm: ScriptedLLM) -> str:
    return json.dumps(llm.requests)


def test_a_wyoming_transcript_cannot_continue_an_http_conversation(tmp_path: Path, llm: ScriptedLLM) -> None:
    o1 = start_o1(tmp_path, "--llm-model", "openai/instant", "--llm-api-base", llm.api_base)
    try:
        llm.script(fence(f"open('secret.txt', 'w').write({SECRET!r})\nprint('Saved.')"))
        reply = http_turn(o1, f"Remember {SECRET} in a file", "shared-id")
        assert reply["conversation_id"] == "shared-id"
        llm.requests.clear()
        llm.script(fence("print(open('secret.txt').read())"))
        heard = wyoming_turn(o1, "What is in the secret file?", "shared-id")
        assert SECRET not in heard, heard  # the Wyoming turn's folder is its own: no such file there
        assert SECRET not in sent_to_llm(llm)  # nor did the HTTP history reach the model
        # The reverse: the HTTP conversation goes on as it was, with its own history and file.
        llm.requests.clear()
        llm.script(fence("print(open('secret.txt').read())"))
        again = http_turn(o1, "What is in the secret file?", "shared-id")
        assert SECRET in again["answer"], again
        assert SECRET in sent_to_llm(llm)  # its first turn is in its history
        # And what Wyoming made stays Wyoming's: the HTTP API's turn did not see the Wyoming turn's question.
        assert "What is in the secret file?" not in json.dumps(llm.requests[0]["messages"][:-1])
    finally:
        assert o1.stop() == 0
