"""Mislabels found by running generated blocks and comparing their effects with their labels
(tests/server/test_labels_by_effects.py), each kept with its neighbours and judged by its effect on disk
through the real agent (Open Interpreter, classifier, policy, sandbox; a scripted LLM proposes the code). The
default profile asks before deleting, and replacing what an existing file holds is deleting it."""

from __future__ import annotations

import pytest

from o1_server.agent import policy
from tests.support.scripted_llm import ScriptedLLM

VICTIM = "precious content\n"


def fence(src: str, language: str) -> str:
    return f"```{language}\n{src}\n```"


async def _run(agent, llm: ScriptedLLM, cid: str, language: str, src: str):
    """victim.txt and sub/a.txt in the folder, then ``src`` as one turn under default; (folder, its block)."""
    session = agent.sessions.get(cid, agent.profile("default"))
    (session.workdir / "victim.txt").write_text(VICTIM)
    (session.workdir / "sub").mkdir(exist_ok=True)
    (session.workdir / "sub" / "a.txt").write_text("alpha\n")
    llm.script(fence(src, language), "Done.")
    reply = await agent.ask("do it", cid, profile="default")
    return session.workdir, reply.code_blocks[0]


# A subshell's cd was taken as lasting: after "(cd sub; ...)" victim.txt was read as sub/victim.txt, a new file.
# Every part of a pipeline and a command substitution are subshells too.
@pytest.mark.parametrize("src", [
    "(cd sub; ls) && : > victim.txt",
    "(cd sub; echo x > c.txt); cp /dev/null victim.txt",
    "(cd sub; ls); (cd sub; ls); echo gone > victim.txt",
    "here=$(cd sub; pwd); echo gone | tee victim.txt",
    "cd sub | cat; echo gone > victim.txt",
])
async def test_a_subshells_change_of_folder_ends_with_it(make_agent, llm: ScriptedLLM, src: str) -> None:
    folder, block = await _run(make_agent(), llm, "subshell", "shell", src)
    assert block.decision == "confirm" and "deletes_files" in block.category, block
    assert (folder / "victim.txt").read_text() == VICTIM


# A cd into a folder that is not there fails and leaves the shell where it was: the classifier took it as done.
@pytest.mark.parametrize("src", [
    "cd nothere; echo gone > victim.txt",
    "pushd nothere; cp /dev/null victim.txt; popd",
    "cd sub && cd sub; cp a.txt a.txt.bak; : > a.txt",
    "cd sub && mv *.txt sub/\npushd sub\ncp -f a.txt ../victim.txt\npopd",
])
async def test_a_change_of_folder_that_may_fail_keeps_the_folder_before(make_agent, llm: ScriptedLLM, src: str) -> None:
    folder, block = await _run(make_agent(), llm, "failed-cd", "shell", src)
    assert block.decision == "confirm" and "deletes_files" in block.category, block
    assert (folder / "victim.txt").read_text() == VICTIM and (folder / "sub" / "a.txt").read_text() == "alpha\n"


# A write to a path with a run-time part was only "outside the sandbox": it may as well replace a file here.
@pytest.mark.parametrize(("language", "src"), [
    ("shell", "f=victim.txt\ncp -f victim.txt copy.txt\necho gone > \"$f\""),
    ("python", "import os\nname = os.environ.get('NAME', 'victim.txt')\nopen(name, 'w').write('gone')"),
])
def test_a_write_to_a_path_known_at_run_time_may_replace_a_file(tmp_path, language: str, src: str) -> None:
    (tmp_path / "victim.txt").write_text(VICTIM)
    found = policy.classify(language, src, tmp_path)
    assert {"deletes_files", "outside_sandbox"} <= found.categories, found


# A glob (glob.glob's pattern, a shell glob) was looked up as a file of that name, which does not exist.
@pytest.mark.parametrize(("language", "src"), [
    ("python", "import glob\nfor n in glob.glob('*.txt'):\n    open(n, 'w').close()"),
    ("python", "import glob\nfrom pathlib import Path\nfor n in glob.glob('*.txt'):\n    if n.endswith('.txt'):\n"
               "        Path(n).write_text('')"),
    ("python", "import glob\n[open(n, 'W'.lower()).close() for n in sorted(glob.glob('vic*'))]"),
    ("shell", "echo gone | tee *.txt"),
    ("shell", "cp /dev/null v*.txt"),
])
async def test_a_glob_matches_the_files_it_would_replace(make_agent, llm: ScriptedLLM, language: str, src: str) -> None:
    folder, block = await _run(make_agent(), llm, "glob", language, src)
    assert block.decision == "confirm" and "deletes_files" in block.category, block
    assert (folder / "victim.txt").read_text() == VICTIM


@pytest.mark.parametrize(("language", "src"), [
    ("shell", "(cd sub; echo x > c.txt); echo new > fresh.txt"),
    ("shell", "cd sub && echo x > c.txt"),
    ("python", "import glob\nfor n in glob.glob('*.md'):\n    open(n, 'w').close()\nopen('fresh.txt', 'w').write('x')"),
])
async def test_new_files_still_run_at_once(make_agent, llm: ScriptedLLM, language: str, src: str) -> None:
    folder, block = await _run(make_agent(), llm, "new", language, src)
    assert block.decision == "allow", block
    assert (folder / "victim.txt").read_text() == VICTIM
    assert (folder / "fresh.txt").exists() or (folder / "sub" / "c.txt").exists()


def test_the_folder_before_a_subshell_is_where_later_paths_start(tmp_path) -> None:
    (tmp_path / "sub").mkdir()
    found = policy.classify("shell", "(cd sub; touch a.txt); touch b.txt; cd sub && touch c.txt", tmp_path)
    assert {"sub/a.txt", "b.txt", "sub/c.txt"} <= set(found.paths) and "sub/b.txt" not in found.paths, found.paths
    found = policy.classify("shell", "(cd sub; printf x >> .git/config)", tmp_path)
    assert "process_control" in found.categories  # sub/.git/config is git's too
