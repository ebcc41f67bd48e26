"""Folders a profile grants (``folders:``), through the real agent, the real box and a scripted LLM: what the
code can read, write and delete there, what it cannot reach beside them, and what the model is told."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from o1_server.agent.backend import LLMConfig
from o1_server.agent.policy import GrantedFolder, classify
from o1_server.agent.profiles import ProfileError, load_profiles, parse_profile, usable_folders
from o1_server.agent.sandbox import isolation
from o1_server.agent.sandbox.view import granted
from o1_server.agent.service import O1Agent
from tests.server.conftest import REPO
from tests.support.scripted_llm import ScriptedLLM

pytestmark = pytest.mark.skipif(
    not isolation().bwrap,
    reason="the box's binds need bubblewrap: run script/bootstrap server as root (it installs it with apt-get)",
)

PROFILE = """
name: g
languages: [python, shell]
llm: {{model: inherit}}
policy: {policy}
limits: {{seconds_per_block: 10, blocks_per_turn: 1, retries_per_turn: 0, output_chars: 2000}}
answer_from: output
folders:
  - {{path: {photos}, mode: read}}
  - {{path: {share}, mode: read-write}}
"""
DAY = 86400


def code(src: str, language: str = "python") -> str:
    """An LLM reply holding one markdown code block."""
    return f"```{language}\n{src}\n```"


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    """The user's files: photos (granted read-only), a share (granted read-write) and a private folder beside
    them (granted nowhere). Modes let any uid read them (and write the share): the code runs as its
    conversation's own uid, so only the box's binds decide what it sees."""
    photos, share, private = tmp_path / "photos", tmp_path / "share", tmp_path / "private"
    for folder in (photos, share / "music", private):
        folder.mkdir(parents=True)
    now = time.time()
    for name, age in (("beach.jpg", 1), ("dinner.jpg", 2), ("cat.jpg", 6), ("old.jpg", 30), ("scan.png", 1)):
        (photos / name).write_bytes(b"\xff\xd8" + name.encode())
        os.utime(photos / name, (now - age * DAY, now - age * DAY))
    (share / "notes.txt").write_text("buy milk\n")
    (share / "music" / "song.mp3").write_bytes(b"m" * 5000)
    (share / "report.pdf").write_bytes(b"p" * 1200)
    (private / "secret.txt").write_text("the private content")
    for path in (tmp_path, photos, private):
        path.chmod(0o755)
    for path in (share, share / "music"):
        path.chmod(0o777)
    for path in [*photos.iterdir(), *share.rglob("*"), private / "secret.txt"]:
        if path.is_file():
            path.chmod(0o644)
    return {"photos": photos, "share": share, "private": private}


@pytest.fixture
def make_granted(
    tmp_path: Path, scripted_llm: ScriptedLLM, folders: dict[str, Path]
) -> Iterator[Callable[..., O1Agent]]:
    """A real O1Agent whose profile ``g`` grants ``photos`` read-only and ``share`` read-write."""
    agents: list[O1Agent] = []

    def factory(policy: dict[str, str] | None = None) -> O1Agent:
        folder = tmp_path / "profiles"
        folder.mkdir(exist_ok=True)
        rules = {"deletes_files": "confirm", "outside_sandbox": "deny", **(policy or {})}
        (folder / "g.yaml").write_text(PROFILE.format(policy=rules, photos=folders["photos"], share=folders["share"]))
        profiles = load_profiles([REPO / "profiles", folder])
        assert profiles.errors == []
        llm = LLMConfig("openai/scripted", scripted_llm.api_base, "none", timeout=10.0)
        agents.append(O1Agent(profiles, "g", llm, tmp_path / "data", tmp_path / "data" / "sandbox"))
        return agents[-1]

    yield factory
    sessions = [s for agent in agents for s in list(agent.sessions._sessions.values())]
    for session in sessions:
        session.stop()
    deadline = time.monotonic() + 30
    while any(s.running for s in sessions) and time.monotonic() < deadline:
        time.sleep(0.05)


async def test_photos_of_this_week_are_counted_in_the_read_only_folder(
    make_granted, llm: ScriptedLLM, folders: dict[str, Path]
) -> None:
    agent = make_granted()
    photos = folders["photos"]
    llm.script(
        code(
            "import glob, os, time\n"
            "week = time.time() - 7 * 86400\n"
            f"taken = [p for p in glob.glob({str(photos)!r} + '/*.jpg') if os.path.getmtime(p) > week]\n"
            "print(f'You took {len(taken)} photos this week.')"
        )
    )
    reply = await agent.ask("How many photos did I take this week?", "conv-photos")
    [block] = reply.code_blocks
    assert block.decision == "allow" and block.category == ["read_only"], block
    assert block.output.strip() == "You took 3 photos this week."
    assert "3 photos" in reply.answer
    system = llm.requests[0]["messages"][0]["content"]
    assert f"{photos} (read only)" in system and f"{folders['share']} (read and write)" in system


async def test_a_write_into_the_read_only_folder_is_refused_and_the_file_unchanged(
    make_granted, llm: ScriptedLLM, folders: dict[str, Path]
) -> None:
    agent = make_granted()
    photo = folders["photos"] / "beach.jpg"
    before = photo.read_bytes()
    llm.script(code(f"open({str(photo)!r}, 'w').write('gone')\nprint('done')"), "Done.")
    reply = await agent.ask("Empty my beach photo", "conv-ro")
    [block] = reply.code_blocks
    assert block.decision == "deny" and "outside_sandbox" in block.category and block.exit_status is None
    assert photo.read_bytes() == before


async def test_the_box_binds_the_read_only_folder_read_only(
    make_granted, llm: ScriptedLLM, folders: dict[str, Path]
) -> None:
    """With a profile that lets the block through (outside_sandbox allowed), the kernel still refuses it."""
    agent = make_granted({"outside_sandbox": "allow", "deletes_files": "allow"})
    photo = folders["photos"] / "beach.jpg"
    before = photo.read_bytes()
    llm.script(
        code(
            f"try:\n    open({str(photo)!r}, 'w').write('gone')\n    print('written')\n"
            "except OSError as err:\n    print('refused:', err.strerror)"
        )
    )
    reply = await agent.ask("Empty my beach photo", "conv-ro-kernel")
    [block] = reply.code_blocks
    assert block.decision == "allow", block
    assert "refused: Read-only file system" in block.output
    assert photo.read_bytes() == before


async def test_a_new_note_is_written_in_the_read_write_folder(
    make_granted, llm: ScriptedLLM, folders: dict[str, Path]
) -> None:
    agent = make_granted()
    target = folders["share"] / "shopping.txt"
    llm.script(code(f"with open({str(target)!r}, 'a') as f:\n    f.write('eggs\\n')\nprint('Saved eggs.')"))
    reply = await agent.ask("Put eggs on my shopping list", "conv-rw")
    [block] = reply.code_blocks
    assert block.decision == "allow" and block.category == ["writes_files"], block
    assert target.read_text() == "eggs\n"


async def test_deleting_in_the_read_write_folder_asks_first(
    make_granted, llm: ScriptedLLM, folders: dict[str, Path]
) -> None:
    agent = make_granted()
    report = folders["share"] / "report.pdf"
    llm.script(code(f"import os\nos.remove({str(report)!r})\nprint('Deleted the report.')"))
    asked = await agent.ask("Delete my report", "conv-del")
    [block] = asked.code_blocks
    assert block.decision == "confirm" and block.category == ["deletes_files"], block
    assert asked.answer.endswith("Shall I?") and report.exists()
    done = await agent.ask("yes", "conv-del")
    assert done.code_blocks[0].exit_status == 0, done.code_blocks[0]
    assert not report.exists()


async def test_a_folder_beside_the_grants_is_not_in_the_box(
    make_granted, llm: ScriptedLLM, folders: dict[str, Path]
) -> None:
    """Even a block let through (outside_sandbox allowed) finds nothing there: the box does not bind it."""
    agent = make_granted({"outside_sandbox": "allow"})
    secret = folders["private"] / "secret.txt"
    llm.script(
        code(
            f"try:\n    print(open({str(secret)!r}).read())\nexcept OSError as err:\n    print('error:', err.strerror)"
        )
    )
    reply = await agent.ask("Read my secret", "conv-private")
    [block] = reply.code_blocks
    assert block.decision == "allow", block
    assert "error: No such file or directory" in block.output
    assert "the private content" not in block.output


async def test_the_biggest_file_in_the_share(make_granted, llm: ScriptedLLM, folders: dict[str, Path]) -> None:
    agent = make_granted()
    llm.script(
        code(
            "import os\nsizes = {}\n"
            f"for folder, subfolders, files in os.walk({str(folders['share'])!r}):\n"
            "    for name in files:\n"
            "        path = os.path.join(folder, name)\n"
            "        sizes[path] = os.path.getsize(path)\n"
            "biggest = max(sizes, key=sizes.get)\n"
            "print(f'The biggest file in your share is {os.path.basename(biggest)}, {sizes[biggest]} bytes.')"
        )
    )
    reply = await agent.ask("What is the biggest file in my share?", "conv-big")
    [block] = reply.code_blocks
    assert block.decision == "allow" and block.category == ["read_only"], block
    assert block.output.strip() == "The biggest file in your share is song.mp3, 5000 bytes."


def test_a_shell_listing_of_the_read_only_folder_is_read_only(folders: dict[str, Path], tmp_path: Path) -> None:
    grants = [GrantedFolder(str(folders["photos"]), False)]
    box = tmp_path / "box"
    box.mkdir()
    found = classify("shell", f"ls -la {folders['photos']} && cat {folders['photos']}/beach.jpg", box, None, grants)
    assert found.categories == {"read_only"}
    written = classify("shell", f"echo x > {folders['photos']}/new.txt", box, None, grants)
    assert "outside_sandbox" in written.categories
    beside = classify("shell", f"cat {folders['private']}/secret.txt", box, None, grants)
    assert "outside_sandbox" in beside.categories


def test_a_link_in_a_grant_that_leads_out_of_it_is_outside(folders: dict[str, Path], tmp_path: Path) -> None:
    (folders["share"] / "out").symlink_to(folders["private"])
    grants = [GrantedFolder(str(folders["share"]), True)]
    box = tmp_path / "box"
    box.mkdir()
    found = classify(
        "python", f"print(open({str(folders['share'] / 'out' / 'secret.txt')!r}).read())", box, None, grants
    )
    assert "outside_sandbox" in found.categories
    inside = classify("python", f"print(open({str(folders['share'] / 'notes.txt')!r}).read())", box, None, grants)
    assert inside.categories == {"read_only"}


@pytest.mark.parametrize(
    ("path", "error"),
    [
        ("media", "must be an absolute path"),
        ("/", "too broad"),
        ("/tmp", "too broad"),
        ("/proc", "never granted"),
        ("/etc/ssl", "never granted"),
        ("/data", "never granted"),
        ("/data/sandbox/x", "never granted"),
        ("/config/profiles", "never granted"),
        ("/share/../etc", "'..'"),
    ],
)
def test_a_broken_grant_is_a_clear_profile_error(path: str, error: str) -> None:
    with pytest.raises(ProfileError) as err:
        parse_profile(f"name: x\nfolders:\n  - path: {path}\n", Path("x.yaml"))
    assert err.value.field == "folders.0.path" and err.value.line == 3 and error in err.value.message


def test_grants_default_to_none_and_to_read_only() -> None:
    assert parse_profile("name: x\n", Path("x.yaml")).folders == ()
    profile = parse_profile("name: x\nfolders: [{path: /media}]\n", Path("x.yaml"))
    assert profile.folders == (GrantedFolder("/media", False),)
    with pytest.raises(ProfileError, match="granted twice"):
        parse_profile("name: x\nfolders: [{path: /media}, {path: /media, mode: read-write}]\n", Path("x.yaml"))
    shipped = load_profiles([REPO / "profiles"])
    assert shipped.profiles["default"].folders == ()
    assert GrantedFolder("/share/notes", True) in shipped.profiles["files"].folders


def test_a_grant_holding_the_sandbox_root_or_linking_to_a_system_folder_is_not_used(tmp_path: Path) -> None:
    sandbox = tmp_path / "data" / "sandbox"
    sandbox.mkdir(parents=True)
    (tmp_path / "etc-link").symlink_to("/etc")
    grants = (GrantedFolder(str(tmp_path), False), GrantedFolder(str(tmp_path / "etc-link"), False))
    assert usable_folders(grants, (sandbox, tmp_path / "data")) == ()
    # The box leaves out a folder holding the sandbox root whatever it is given.
    assert granted([(str(tmp_path), True)], sandbox / "conv") == []
