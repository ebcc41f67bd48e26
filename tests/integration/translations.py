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


def translation(language: str) -> dict[str, Any]:
    """Return the integration's translations/<language>.json."""
    return json.loads((PACKAGE / "translations" / f"{language}.json").read_text())


def spoken(key: str, language: str = "en") -> str:
    """Return the sentence spoken for an exception translation key, in a language."""
    return translation(language)["exceptions"][key]["message"]
