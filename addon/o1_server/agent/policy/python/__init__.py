"""The Python scanner: code read with :mod:`ast`, names checked against the allowlist and the rule tables.

Importing this package registers the ``python`` scanner with :mod:`..nested`.
"""

from . import scanner  # noqa: F401 - registers the scanner
