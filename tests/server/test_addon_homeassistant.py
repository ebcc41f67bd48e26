"""The add-on's minimum Home Assistant: written in addon/config.yaml, the one the o1 integration needs.

The Supervisor refuses to install or update an add-on whose ``homeassistant`` is newer than the running
Home Assistant; the integration (custom_components/o1, through HACS) states its own minimum in hacs.json.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import voluptuous as vol
import yaml

from tests.server import addon_rules as rules

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def config() -> dict[str, Any]:
    """addon/config.yaml, parsed."""
    return yaml.safe_load((REPO / "addon" / "config.yaml").read_text(encoding="utf-8"))


def test_the_addon_needs_the_home_assistant_the_integration_needs(config: dict[str, Any]) -> None:
    valid = rules.validate_addon_config(copy.deepcopy(config))
    hacs = json.loads((REPO / "hacs.json").read_text(encoding="utf-8"))
    assert valid["homeassistant"] == hacs["homeassistant"]
    year, month, patch = (int(part) for part in valid["homeassistant"].split("."))
    assert (year, month) >= (2026, 10) and patch >= 0


@pytest.mark.parametrize("version", [2026.1, "2026", "latest", ""])
def test_the_rules_refuse_a_malformed_minimum(config: dict[str, Any], version: Any) -> None:
    broken = copy.deepcopy(config)
    broken["homeassistant"] = version
    with pytest.raises(vol.Invalid):
        rules.validate_addon_config(broken)
