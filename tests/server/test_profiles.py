"""Profiles: the shipped ones are valid; a broken one names file, line and field; the rest keep loading."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from o1_server.agent.profiles import ProfileError, load_profiles, parse_profile

REPO = Path(__file__).resolve().parents[2]


def test_shipped_profiles_are_valid() -> None:
    store = load_profiles([REPO / "profiles"])
    assert store.errors == []
    assert {"default", "safe", "home", "power"} <= set(store.profiles)
    assert store.get("safe").languages == ("python",)
    assert store.get("safe").policy["writes_files"] == "deny"
    assert store.get("home").home_assistant == "control"
    assert store.get("power").policy["deletes_files"] == "allow"


@pytest.mark.parametrize(
    ("text", "line", "field"),
    [
        ("name: x\nlimits:\n  seconds_per_block: -3\n", 3, "limits.seconds_per_block"),
        ("name: x\npolicy:\n  network: maybe\n", 3, "policy.network"),
        ("name: x\nlanguages: [python, cobol]\n", 2, "languages.1"),
        ("name: Bad Name\n", 1, "name"),
        ("description: no name\n", 1, "name"),
        ("name: x\nllm: {model: [1]}\n", 2, "llm.model"),
        ("name: x\nbogus: 1\n", 2, "bogus"),
        ("name: x\n  bad: [indent\n", 2, "(yaml)"),
        ("- a list\n", 1, "(file)"),
        ("name: x\ndescription: " + "[" * 3000 + "]" * 3000 + "\n", None, "(yaml)"),
        ("name: x\npersona: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n", None, "(yaml)"),
        ("name: x\nlimits: {blocks_per_turn: true}\n", 2, "limits.blocks_per_turn"),
        ("name: x\nlimits:\n  seconds_per_turn: yes\n", 3, "limits.seconds_per_turn"),
        ("name: x\nllm: {max_tokens: false}\n", 2, "llm.max_tokens"),
        ("name: x\nlimits: {seconds_per_turn: .nan}\n", 2, "limits.seconds_per_turn"),
    ],
)
def test_broken_profile_names_file_line_and_field(text: str, line: int, field: str, tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    with pytest.raises(ProfileError) as err:
        parse_profile(text, path)
    assert err.value.path == path
    assert err.value.line == line
    assert err.value.field == field
    assert str(path) in str(err.value)


def test_valid_profiles_survive_a_broken_neighbour(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("name: a\n")
    (tmp_path / "b.yaml").write_text("name: b\npolicy: {network: sometimes}\n")
    store = load_profiles([tmp_path])
    assert set(store.profiles) == {"a"}
    assert len(store.errors) == 1 and store.errors[0].path.name == "b.yaml"


def test_a_file_that_is_not_utf8_is_reported_not_fatal(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_bytes(b"\xff\xfe\x00name: x\n")
    (tmp_path / "good.yaml").write_text("name: good\n")
    store = load_profiles([tmp_path])
    assert set(store.profiles) == {"good"}
    assert store.errors[0].path.name == "bad.yaml" and "UTF-8" in store.errors[0].message


def test_a_fifo_a_device_or_a_huge_file_is_reported_and_start_up_goes_on(tmp_path: Path) -> None:
    """A FIFO named *.yaml used to block the start-up forever (reading it waits for a writer), a link to
    /dev/zero never ended; now each is one profile error and its neighbours load."""
    os.mkfifo(tmp_path / "fifo.yaml")
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    (tmp_path / "huge.yaml").write_text("name: huge\ndescription: " + "x" * (2 << 20) + "\n")
    (tmp_path / "folder.yaml").mkdir()
    (tmp_path / "good.yaml").write_text("name: good\n")
    store = load_profiles([tmp_path])
    assert set(store.profiles) == {"good"}
    assert sorted(e.path.name for e in store.errors) == ["fifo.yaml", "folder.yaml", "huge.yaml", "zero.yaml"]
    assert all(e.field == "(file)" for e in store.errors), store.errors


def test_a_later_folder_overrides_a_profile(tmp_path: Path) -> None:
    (tmp_path / "safe.yaml").write_text("name: safe\ndescription: mine\n")
    store = load_profiles([REPO / "profiles", tmp_path])
    assert store.get("safe").description == "mine"


def test_two_files_of_one_folder_with_one_name_are_reported(tmp_path: Path) -> None:
    (tmp_path / "home.yaml").write_text("name: mine\ndescription: first\n")
    (tmp_path / "home copy.yaml").write_text("name: mine\ndescription: second\n")
    store = load_profiles([tmp_path])
    assert store.get("mine").description == "second"  # "home copy.yaml" sorts first
    [error] = store.errors
    assert error.path.name == "home.yaml" and error.field == "name" and "home copy.yaml" in error.message


def test_a_profile_nested_too_deeply_is_reported_and_its_neighbours_load(tmp_path: Path) -> None:
    (tmp_path / "deep.yaml").write_text("name: deep\ndescription: " + "[" * 5000 + "]" * 5000 + "\n")
    (tmp_path / "good.yaml").write_text("name: good\n")
    store = load_profiles([tmp_path])
    assert set(store.profiles) == {"good"}
    assert [e.path.name for e in store.errors] == ["deep.yaml"] and "nested too deeply" in store.errors[0].message


def test_a_file_replaced_by_a_fifo_while_it_is_checked_does_not_block_the_start_up(tmp_path: Path) -> None:
    """The file was judged by a stat() of its name and then opened by name: one replaced by a FIFO in between
    (simulated here at the exact moment) made the open wait for a writer forever."""
    import threading

    path = tmp_path / "swapped.yaml"
    path.write_text("name: swapped\n")
    real_stat, real_open = Path.stat, os.open

    def stat_then_swap(self: Path, *args, **kwargs):
        info = real_stat(self, *args, **kwargs)
        if self.name == "swapped.yaml" and not os.path.exists(tmp_path / "done"):
            (tmp_path / "done").touch()
            self.unlink()
            os.mkfifo(self)
        return info

    def open_then_swap(file, flags, *args, **kwargs):  # the new code: swapped before it opens
        if str(file).endswith("swapped.yaml") and not os.path.exists(tmp_path / "done"):
            (tmp_path / "done").touch()
            os.unlink(file)
            os.mkfifo(file)
        return real_open(file, flags, *args, **kwargs)

    result: list = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Path, "stat", stat_then_swap)
        mp.setattr(os, "open", open_then_swap)
        worker = threading.Thread(target=lambda: result.append(load_profiles([tmp_path])), daemon=True)
        worker.start()
        worker.join(5)
        if worker.is_alive():  # unblock the stuck open() so the thread ends
            with open(path, "wb"):
                pass
            worker.join(5)
            pytest.fail("loading the profiles blocked on a FIFO")
    store = result[0]
    assert not store.profiles and [e.path.name for e in store.errors] == ["swapped.yaml"], store.errors
