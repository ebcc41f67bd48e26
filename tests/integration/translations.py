"""Read the integration's strings.json in tests (what the user is shown and hears)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import custom_components.o1 as o1_package

PACKAGE = Path(o1_package.__file__).parent


def strings() -> dict[str, Any]:
    """Return the integration's strings.json."""
    return json.loads((PACKAGE / "strings.json").read_text())


def spoken(key: str) -> str:
    """Return the sentence an exception translation key gives (HA drops its final period)."""
    return strings()["exceptions"][key]["message"].rstrip(".")
