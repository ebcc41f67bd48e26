"""Static checks of the integration package: what it imports, its metadata and strings."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import yaml

import custom_components.o1 as o1_package

PACKAGE = Path(o1_package.__file__).parent
REPO = PACKAGE.parent.parent
FORBIDDEN = ("interpreter", "faster_whisper", "piper", "o1_server", "openai", "litellm")


def _imported_modules(path: Path) -> set[str]:
    """Return the top-level names of the absolute imports of a module."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_server_side_imports() -> None:
    """The integration never imports the server or its heavy dependencies."""
    for path in PACKAGE.glob("*.py"):
        assert not _imported_modules(path) & set(FORBIDDEN), path.name


def test_only_the_client_speaks_http() -> None:
    """client.py is the only module that uses aiohttp (the wire format lives there)."""
    users = sorted(p.name for p in PACKAGE.glob("*.py") if "aiohttp" in _imported_modules(p))
    assert users == ["client.py"]


def test_manifest_and_hacs() -> None:
    """manifest.json and hacs.json carry what HA and HACS need."""
    manifest = json.loads((PACKAGE / "manifest.json").read_text())
    assert manifest["domain"] == "o1"
    assert manifest["config_flow"] is True
    assert manifest["dependencies"] == ["conversation"]
    assert manifest["requirements"] == []
    assert manifest["version"] == "0.1.0"
    hacs = json.loads((REPO / "hacs.json").read_text())
    assert hacs["name"] == "o1"
    assert hacs["homeassistant"] == "2026.10.0"


def test_translations_match_strings() -> None:
    """translations/en.json is strings.json (custom integrations load the former)."""
    strings = json.loads((PACKAGE / "strings.json").read_text())
    english = json.loads((PACKAGE / "translations" / "en.json").read_text())
    assert strings == english
    assert "[%key:" not in json.dumps(english)


def test_every_service_field_is_translated() -> None:
    """Each service and field of services.yaml has a name and a description."""
    services = yaml.safe_load((PACKAGE / "services.yaml").read_text())
    strings = json.loads((PACKAGE / "strings.json").read_text())["services"]
    icons = json.loads((PACKAGE / "icons.json").read_text())["services"]
    assert set(services) == set(strings) == set(icons)
    for service, spec in services.items():
        assert strings[service]["name"] and strings[service]["description"]
        assert set(spec["fields"]) == set(strings[service]["fields"])
