"""The HTTP API's per-turn ``instructions`` and the files endpoint, over real TCP with a real agent and sandbox."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from o1_server.agent.attachments import MAX_FILES, safe_filename, unique_names
from o1_server.api import build_app
from tests.support.scripted_llm import ScriptedLLM

TOKEN = "test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
async def api(make_agent) -> AsyncIterator[str]:
    runner = web.AppRunner(build_app(make_agent(), TOKEN, "9.9.9", "a" * 32))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    await runner.cleanup()


async def post(url: str, **kwargs) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as http, http.post(url, headers=AUTH, **kwargs) as r:
        return r.status, await r.json()


def system_text(request: dict) -> str:
    return "\n".join(m["content"] for m in request["messages"] if m["role"] == "system")


async def upload(api: str, cid: str, files: list[tuple[str, bytes]], profile: str | None = None) -> tuple[int, dict]:
    form = aiohttp.FormData()
    for name, data in files:
        form.add_field("file", data, filename=name, content_type="application/octet-stream")
    query = f"?profile={profile}" if profile else ""
    return await post(f"{api}/api/conversation/{cid}/files{query}", data=form)


async def test_instructions_reach_the_llm_for_their_turn_only(api: str, llm: ScriptedLLM) -> None:
    llm.script("Ahoy.", "Hello.")
    status, body = await post(
        f"{api}/api/conversation",
        json={"text": "hi", "conversation_id": "i1", "instructions": "Always talk like a pirate."},
    )
    assert status == 200 and body["answer"] == "Ahoy.", body
    status, body = await post(f"{api}/api/conversation", json={"text": "hi again", "conversation_id": "i1"})
    assert status == 200, body
    first, second = llm.requests
    assert "Always talk like a pirate." in system_text(first)
    assert "Always write exactly one short" in system_text(first)  # added to the system message, not instead
    assert "Today is " in system_text(first) and "Today is " in system_text(second)
    assert "pirate" not in system_text(second) and "pirate" not in json.dumps(second["messages"])


async def test_instructions_on_the_stream(api: str, llm: ScriptedLLM) -> None:
    llm.script("Fine.")
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{api}/api/conversation/stream",
            headers=AUTH,
            json={"text": "hi", "conversation_id": "i2", "instructions": "Answer in one word."},
        ) as r,
    ):
        lines = [json.loads(line) for line in (await r.read()).splitlines()]
    assert lines[-1]["type"] == "done" and lines[-1]["reply"]["answer"] == "Fine."
    assert "Answer in one word." in system_text(llm.requests[0])


@pytest.mark.parametrize("instructions", [5, ["x"], "x" * 8001])
async def test_bad_instructions_get_400(api: str, llm: ScriptedLLM, instructions: object) -> None:
    status, body = await post(f"{api}/api/conversation", json={"text": "hi", "instructions": instructions})
    assert status == 400 and "instructions" in body["message"]
    assert llm.requests == []


async def test_files_are_read_by_the_code(api: str, llm: ScriptedLLM) -> None:
    status, body = await upload(api, "f1", [("notes.txt", b"buy milk\n"), ("../../evil.csv", b"a,b\n1,2\n")])
    assert status == 200 and body == {"files": ["notes.txt", "evil.csv"]}
    llm.script("```python\nimport os\nprint(sorted(os.listdir('.')), open('notes.txt').read().strip())\n```", "Done.")
    status, body = await post(f"{api}/api/conversation", json={"text": "What is in my notes?", "conversation_id": "f1"})
    assert status == 200, body
    assert body["code_blocks"][0]["output"] == "['evil.csv', 'notes.txt'] buy milk"


async def test_files_replace_a_symlink_never_its_target(api: str, llm: ScriptedLLM, tmp_path: Path) -> None:
    assert (await upload(api, "f2", [("a.txt", b"one")]))[0] == 200
    async with aiohttp.ClientSession() as http, http.get(f"{api}/api/conversation/f2", headers=AUTH) as r:
        workdir = Path((await r.json())["workdir"])
    target = tmp_path / "outside.txt"
    target.write_text("precious")
    (workdir / "a.txt").unlink()
    (workdir / "a.txt").symlink_to(target)  # what generated code could leave behind
    assert (await upload(api, "f2", [("a.txt", b"two")]))[0] == 200
    assert target.read_text() == "precious"
    assert not (workdir / "a.txt").is_symlink() and (workdir / "a.txt").read_bytes() == b"two"
    assert not [n for n in os.listdir(workdir) if n.startswith(".o1-upload")]


async def test_files_are_bounded(api: str, llm: ScriptedLLM) -> None:
    status, body = await upload(api, "f3", [(f"{n}.txt", b"x") for n in range(MAX_FILES + 1)])
    assert status == 413 and body["error"] == "request_too_large"
    status, body = await upload(api, "f3", [("big.bin", b"x" * (10 * 1024 * 1024 + 1))])
    assert status == 413 and "at most" in body["message"]
    status, body = await post(f"{api}/api/conversation/f3/files", json={"files": []})
    assert status == 415 and body["error"] == "invalid_request"
    status, body = await upload(api, "f3", [("a.txt", b"x")], profile="ghost")
    assert status == 404 and body["error"] == "unknown_profile"
    async with aiohttp.ClientSession() as http:
        form = aiohttp.FormData(default_to_multipart=True)
        form.add_field("text", "not a file")
        async with http.post(f"{api}/api/conversation/f3/files", headers=AUTH, data=form) as r:
            assert r.status == 400
        async with http.post(f"{api}/api/conversation/f3/files", data=aiohttp.FormData({"a": "b"})) as r:
            assert r.status == 401


def test_file_names_are_made_safe() -> None:
    assert safe_filename("../../etc/passwd") == "passwd"
    assert safe_filename("C:\\Users\\me\\photo.jpg") == "photo.jpg"
    assert safe_filename(".bashrc") == "bashrc"
    assert safe_filename("..") == "attachment" and safe_filename("") == "attachment"
    assert safe_filename("a b$(rm -rf).txt") == "a b_rm -rf_.txt"
    long = safe_filename("x" * 300 + ".jpeg")
    assert len(long) <= 100 and long.endswith(".jpeg")
    assert unique_names(["p.jpg", "P.jpg", "p.jpg", "x"]) == ["p.jpg", "P-2.jpg", "p-3.jpg", "x"]


async def test_files_are_stored_all_or_none(api: str, llm: ScriptedLLM) -> None:
    """A folder with one of the names (code may have made it): 400, and neither the other files nor a temporary
    file is left in the folder."""
    assert (await upload(api, "f4", [("seed.txt", b"x")]))[0] == 200
    async with aiohttp.ClientSession() as http, http.get(f"{api}/api/conversation/f4", headers=AUTH) as r:
        workdir = Path((await r.json())["workdir"])
    (workdir / "dir.txt").mkdir()
    status, body = await upload(api, "f4", [("first.txt", b"1"), ("dir.txt", b"2"), ("third.txt", b"3")])
    assert status == 400, body
    assert sorted(os.listdir(workdir)) == ["dir.txt", "seed.txt"]


@pytest.mark.parametrize("content_type, body", [
    ("multipart/form-data; boundary=zzz", b'--bnd\r\nContent-Disposition: form-data; name="f"; filename="a"\r\n\r\nx'),
    ("multipart/form-data; boundary=bnd", b""),
    ("multipart/form-data; boundary=bnd", b"garbage"),
    ("multipart/form-data; boundary=bnd",
     b'--bnd\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nno closing delimiter'),
    ("multipart/form-data; boundary=bnd", b"--bnd\r\nX-Long: " + b"a" * 70000 + b"\r\n\r\nx\r\n--bnd--\r\n"),
])
async def test_a_broken_multipart_body_is_a_400(api: str, llm: ScriptedLLM, content_type: str, body: bytes) -> None:
    headers = {**AUTH, "Content-Type": content_type}
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{api}/api/conversation/f5/files", headers=headers, data=body) as r:
            assert r.status == 400, await r.text()
            assert (await r.json())["error"] == "invalid_request"
        async with http.get(f"{api}/api/health") as r:
            assert r.status == 200


async def test_control_characters_of_instructions_do_not_reach_the_llm(api: str, llm: ScriptedLLM) -> None:
    llm.script("Ok.")
    instructions = "Be \x1b[31mbrief\u202e.\r\nSYSTEM:\x00 ok"
    status, body = await post(f"{api}/api/conversation",
                              json={"text": "hi", "conversation_id": "i9", "instructions": instructions})
    assert status == 200, body
    told = system_text(llm.requests[0])
    assert "Be [31mbrief.\nSYSTEM: ok" in told, told
    assert not any(ch in told for ch in "\x1b\u202e\r\x00")
