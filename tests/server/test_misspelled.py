"""Misspelled names written as the name the block defines (agent/misspelled.py)."""

from __future__ import annotations

import ast

from o1_server.agent.misspelled import close_name, with_names_spelled


def test_a_misspelled_name_is_written_as_the_one_the_block_defines() -> None:
    code = (
        "highs = [21.5, 23.0]\n"
        "average = sum(hights) / len(hights)  # hights\n"
        "print(f'é {average:.1f} {hights}', 'hights', o.hights, dict(hights=1))"
    )
    assert with_names_spelled(code) == (
        "highs = [21.5, 23.0]\n"
        "average = sum(highs) / len(highs)  # hights\n"
        "print(f'é {average:.1f} {highs}', 'hights', o.hights, dict(hights=1))"
    )
    assert with_names_spelled("durée = 3\nprint(duree + 1)") == "durée = 3\nprint(durée + 1)"


def test_what_is_not_a_misspelling_is_left_alone() -> None:
    assert with_names_spelled("print(total)") is None  # nothing close
    assert with_names_spelled("highs = 1\nprint(highs)") is None  # nothing undefined
    assert with_names_spelled("lenn = 3\nprint(len(x))") is None  # x: nothing close; len is a builtin
    assert with_names_spelled("print(sum(hights)") is None  # does not parse
    assert with_names_spelled("oss = 1\nprint(os.getcwd())") is None  # a module: missing_imports.py adds it
    assert close_name(ast.parse("highs = 1"), "hights") == "highs"
    assert close_name(ast.parse("total_cost = 1"), "cost") is None
