"""Profiles: the shipped ones are valid; a broken one names file, line and field; the rest keep loading."""

from __future__ import annotations

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


def test_a_later_folder_overrides_a_profile(tmp_path: Path) -> None:
    (tmp_path / "safe.yaml").write_text("name: safe\ndescription: mine\n")
    store = load_profiles([REPO / "profiles", tmp_path])
    assert store.get("safe").description == "mine"
