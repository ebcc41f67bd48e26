"""Safety classifier: what is this code block about to do, and may it run?

Every code block the LLM writes is classified *before* it runs, statically (Python with :mod:`ast`, shell with
bashlex; nothing is executed), and the analysis fails closed. :func:`classify` returns a
:class:`Classification` (categories, reasons, paths, one spoken sentence); :func:`decide` turns it into
allow / confirm / deny with a profile's policy. What is checked, and the known limits: docs/policy.md.
It is the first line of defence, not a sandbox. Depends on the standard library, bashlex and, for what it
says, the translations (agent/i18n.py).
"""

from . import python, shell  # noqa: F401 - importing them registers the scanners with .nested
from .categories import CATEGORIES
from .decisions import DECISIONS, Decision, decide
from .findings import Classification
from .nested import MAX_CODE_CHARS, MAX_NESTING, PYTHON_LANGUAGES, SHELL_LANGUAGES, classify
from .paths import HOLE, NAME, GrantedFolder
from .phrasing import MAX_SUMMARY_WORDS
from .python.values import MAX_VALUES

__all__ = [
    "CATEGORIES",
    "DECISIONS",
    "HOLE",
    "MAX_CODE_CHARS",
    "MAX_NESTING",
    "MAX_SUMMARY_WORDS",
    "MAX_VALUES",
    "NAME",
    "PYTHON_LANGUAGES",
    "SHELL_LANGUAGES",
    "Classification",
    "Decision",
    "GrantedFolder",
    "classify",
    "decide",
]
