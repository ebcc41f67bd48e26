"""Tests that can never hold: a number compared with a text.

``cost = float(row[1])`` then ``if cost != 'alquiler'``: a float is never equal to a text, so the filter
"without the rent" kept every row (natural dev set, ``dn-dearest-es``). :func:`never_equal` finds such a
comparison in a Python block that ran; the repair request names it (:func:`.repair.repair_request`, once).
"""

from __future__ import annotations

import ast
import builtins

from .policy.python.numeric import number_names

_BUILTINS = frozenset(dir(builtins))
NEVER_EQUAL = "Your code compares {name}, a number, with the text {text}: a number is never equal to a text"


def never_equal(code: str) -> str | None:
    """The repair request for ``code`` that compares (``==``, ``!=``, ``in``, ``not in`` a literal list or
    tuple) a name that only ever holds a number (``float(...)``, a counter: the classifier's
    :func:`~.policy.python.numeric.number_names`) with a text literal; None when it has no such comparison or
    does not parse."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return None
    numbers = number_names(tree, _BUILTINS)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, sides, sides[1:], strict=False):
            if not isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
                continue
            for number, other in ((left, right), (right, left)):
                text = _text(other, membership=isinstance(op, (ast.In, ast.NotIn)) and other is right)
                if isinstance(number, ast.Name) and number.id in numbers and text is not None:
                    return (
                        NEVER_EQUAL.format(name=number.id, text=repr(text))
                        + ", so that test never filters anything. Compare the column or value that holds the"
                        " text instead, keep everything else, and print the answer. Write one corrected ```python"
                        " block."
                    )
    return None


def _text(node: ast.expr, membership: bool) -> str | None:
    """The text literal ``node`` is (a list or tuple of texts, for ``in``: its first), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and not membership:
        return node.value
    texts = [e.value for e in getattr(node, "elts", ()) if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if membership and isinstance(node, (ast.List, ast.Tuple, ast.Set)) and texts and len(texts) == len(node.elts):
        return texts[0]
    return None
