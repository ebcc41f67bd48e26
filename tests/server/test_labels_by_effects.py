"""Labels proven by effects: generated Python and shell blocks are classified, run in the real sandbox and their
effects compared with their labels (``benchmarks/labels_gen.py``: the grammar, the box, the judge).

A ``read_only`` block that changed anything fails; a block without ``deletes_files`` that deleted, emptied or
replaced a seeded file fails; one without ``writes_files`` that wrote fails; a Python block without
``process_control`` that started a process fails (the box's PID namespace counts them); a block without
``network`` that reached the listener on 127.0.0.1 fails. ``unparseable`` claims nothing and is skipped.
Bounded for CI: ``O1_LABEL_EXAMPLES`` blocks per language (default 120), derandomized. The long run is
``benchmarks/labels.py``.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings

from benchmarks.labels_gen import Box, blocks, label, mismatches, over_asked

EXAMPLES = int(os.environ.get("O1_LABEL_EXAMPLES", "120"))


@pytest.fixture(scope="module")
def box() -> Iterator[Box]:
    made = Box()
    yield made
    made.close()


def test_the_box_sees_every_kind_of_effect(box: Box) -> None:
    """The harness itself can fail: each effect of plain code is seen where it happened."""
    _, fx, _ = box.run("shell", "rm notes.txt; : > todo.txt; echo new > data.json; echo more >> old.log; touch fresh")
    assert fx.deleted == ["notes.txt"] and fx.emptied == ["todo.txt"], fx
    assert sorted(fx.replaced) == ["data.json", "todo.txt"] and fx.appended == ["old.log"] and fx.created == ["fresh"]
    _, fx, _ = box.run("shell", "mv notes.txt kept.txt; mv sub/a.txt todo.txt")
    assert fx.moved == ["notes.txt -> kept.txt"] and fx.replaced == ["todo.txt"] and fx.renamed_over == ["todo.txt"]
    _, fx, _ = box.run("python", "print(open('notes.txt').read())")
    assert not fx.changed and fx.processes == 0 and fx.connections == 0, fx
    _, fx, _ = box.run("python", "import os\nos.system('true')")
    assert fx.processes and fx.processes >= 1, fx
    _, fx, _ = box.run("python", "import socket\nsocket.create_connection(('127.0.0.1', __PORT__)).close()")
    assert fx.connections == 1, fx
    _, fx, _ = box.run("shell", "curl -s http://127.0.0.1:__PORT__/x")
    assert fx.connections == 1 and fx.sent > 0, fx


def test_the_judge_names_what_a_label_misses(box: Box) -> None:
    _, fx, _ = box.run("shell", "rm notes.txt")
    assert mismatches("shell", frozenset({"read_only"}), fx)
    assert mismatches("shell", frozenset({"writes_files"}), fx)
    assert not mismatches("shell", frozenset({"deletes_files"}), fx)
    assert not mismatches("shell", frozenset({"unparseable"}), fx)
    _, fx, _ = box.run("python", "import os\nos.system('true')")
    assert mismatches("python", frozenset({"read_only"}), fx) and not over_asked(frozenset({"read_only"}), fx)
    assert over_asked(frozenset({"deletes_files"}), fx)


@pytest.mark.parametrize("language", ["python", "shell"])
def test_generated_blocks_do_no_more_than_their_labels_say(box: Box, language: str, capsys) -> None:
    tried: Counter[str] = Counter()
    over = Counter[str]()

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(template=blocks(language))
    def check(template: str) -> None:
        categories, fx, code = box.run(language, template)
        tried[label(categories)] += 1
        over["deletes_files, destroyed nothing"] += over_asked(categories, fx)
        found = mismatches(language, categories, fx)
        assert not found, f"{label(categories)}: {found}\n{code}"

    check()
    with capsys.disabled():
        print(f"\n{language}: {sum(tried.values())} blocks tried; per label: {dict(tried.most_common())}; "
              f"over-asking: {dict(over)}")
    assert len(tried) >= 4  # the grammar reaches several labels, not one
