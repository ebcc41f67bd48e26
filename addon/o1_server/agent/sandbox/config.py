"""The sandbox's settings: one frozen object, replaced whole by :func:`configure`.

``SETTINGS`` holds the settings in force, the lock that guards them and the isolation detected under them
(forgotten whenever the settings change). Nothing else in the package keeps state of its own; this module
does not detect anything itself (see ``detection``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .limits import DEFAULT_UIDS

if TYPE_CHECKING:
    from .detection import Isolation


@dataclass(frozen=True)
class SandboxSettings:
    """uids: the per-conversation uid range ``(first, count)``, None for none; bwrap, cgroups: whether
    bubblewrap and cgroups may be used (False forces the fallback)."""

    uids: tuple[int, int] | None = DEFAULT_UIDS
    bwrap: bool = True
    cgroups: bool = True


class _Holder:
    """The settings in force and the isolation detected under them, behind one lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.current = SandboxSettings()
        self._isolation: Isolation | None = None

    @property
    def uids(self) -> tuple[int, int] | None:
        return self.current.uids

    def replace(self, settings: SandboxSettings) -> None:
        """Put ``settings`` in force and forget the detected isolation."""
        with self.lock:
            self.current, self._isolation = settings, None

    def isolation(self, detect: Callable[[SandboxSettings], Isolation]) -> Isolation:
        """The isolation detected under the current settings, detecting it (with ``detect``) the first time."""
        with self.lock:
            if self._isolation is None:
                self._isolation = detect(self.current)
            return self._isolation


SETTINGS = _Holder()


def configure(uids: tuple[int, int] | None = DEFAULT_UIDS, *, bwrap: bool = True, cgroups: bool = True) -> None:
    """Set the per-conversation uid range ``(first, count)`` (None: run every conversation as the server's
    uid, or as an explicit ``Limits.user``) and whether bubblewrap and cgroups may be used (False forces the
    fallback, e.g. to test it). Forgets the detected isolation; the next block detects it again.
    Raises ValueError for a range that includes uid 0 or is empty."""
    if uids is not None and (uids[0] <= 0 or uids[1] <= 0):
        raise ValueError(f"sandbox uid range {uids} must start above 0 and hold at least one uid")
    SETTINGS.replace(SandboxSettings(uids, bwrap, cgroups))
