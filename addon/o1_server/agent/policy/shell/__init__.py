"""The shell scanner: bash code read with bashlex, commands judged by program (see ``programs.py``).

Importing this package registers the ``shell`` and ``argv`` scanners with :mod:`..nested`.
"""

from . import commands, scanner  # noqa: F401 - registers the scanners
