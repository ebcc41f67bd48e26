"""Static checks of the integration package: what it imports, its metadata and strings."""

from __future__ import annotations

import ast
import json
from pathlib import Path
import re

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
    """manifest.json has every key hassfest and HACS need; hacs.json names the minimum HA."""
    manifest = json.loads((PACKAGE / "manifest.json").read_text())
    assert manifest == {
        "domain": "o1",
        "name": "o1",
        # As core's LLM agents: set up after the Assist pipeline and intents when those are loaded; past.py
        # reads the recorder and the logbook (when they are loaded: without them it says so).
        "after_dependencies": ["assist_pipeline", "intent", "logbook", "recorder"],
        "codeowners": manifest["codeowners"],
        "config_flow": True,
        "dependencies": ["conversation"],
        "documentation": manifest["documentation"],
        "integration_type": "service",
        # It asks the server every minute (coordinator); a turn is a request HA makes: polling, not push.
        "iot_class": "local_polling",
        "issue_tracker": manifest["issue_tracker"],
        "requirements": [],
        "version": "0.2.0",
    }
    assert manifest["codeowners"] and all(owner.startswith("@") for owner in manifest["codeowners"])
    assert manifest["documentation"].startswith("https://")
    assert manifest["issue_tracker"].startswith("https://")
    # hassfest: domain and name first, the other keys sorted.
    assert list(manifest)[:2] == ["domain", "name"]
    assert list(manifest)[2:] == sorted(list(manifest)[2:])
    hacs = json.loads((REPO / "hacs.json").read_text())
    assert hacs == {"name": "o1", "homeassistant": "2026.10.0", "render_readme": True}
    # The add-on asks the Supervisor for the same minimum Home Assistant the integration needs.
    addon = yaml.safe_load((REPO / "addon" / "config.yaml").read_text())
    assert addon["homeassistant"] == hacs["homeassistant"]


def test_manifest_dependencies_are_core_integrations() -> None:
    """Every (after_)dependency of manifest.json is an integration of the installed Home Assistant."""
    import homeassistant.components as components

    manifest = json.loads((PACKAGE / "manifest.json").read_text())
    core = Path(components.__file__).parent
    for domain in manifest["dependencies"] + manifest["after_dependencies"]:
        assert (core / domain / "manifest.json").is_file(), domain


# hassfest's dependencies rule: the core integrations a module may import without naming them in manifest.json
# (the entity platforms and a few internal integrations, of which this package uses these).
HASSFEST_ALLOWED = {"conversation", "homeassistant", "ai_task"}
# The modules named like a core integration: hassfest takes each for that integration's platform.
PLATFORMS = {"ai_task", "conversation", "diagnostics", "logbook", "repairs"}


def _referenced_components(path: Path) -> set[str]:
    """Return the core integrations a module imports (``homeassistant.components.X``), outside TYPE_CHECKING."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("homeassistant.components."):
                names.add(node.module.split(".")[2])
            elif node.module == "homeassistant.components":
                names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name.split(".")[2] for a in node.names if a.name.startswith("homeassistant.components."))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(), str(path)))
    return names


def test_hassfest_dependencies_rule() -> None:
    """As hassfest checks it: every core integration a module imports is a (after_)dependency, allowed by
    hassfest, the integration the module is a platform of, or (from a module that is no platform) one this
    package has a platform of; and only the real platforms are named like core integrations."""
    import homeassistant.components as components

    core = Path(components.__file__).parent
    manifest = json.loads((PACKAGE / "manifest.json").read_text())
    declared = HASSFEST_ALLOWED | set(manifest["dependencies"]) | set(manifest["after_dependencies"])
    modules = {path.stem for path in PACKAGE.glob("*.py")}
    assert {name for name in modules if (core / name / "manifest.json").is_file()} == PLATFORMS
    for path in PACKAGE.glob("*.py"):
        for ref in _referenced_components(path):
            platform = path.stem in PLATFORMS
            assert ref in declared or ref == path.stem or (not platform and ref in modules), (path.name, ref)
    # The past's reads: the recorder is imported by past.py only, and is an after dependency.
    assert "recorder" in _referenced_components(PACKAGE / "past.py")


QUALITY_RULES = {
    "bronze": ["action-setup", "appropriate-polling", "brands", "common-modules", "config-flow",
               "config-flow-test-coverage", "dependency-transparency", "docs-actions", "docs-conditions",
               "docs-high-level-description", "docs-installation-instructions", "docs-removal-instructions",
               "docs-triggers", "entity-event-setup", "entity-unique-id", "has-entity-name", "runtime-data",
               "test-before-configure", "test-before-setup", "unique-config-entry"],
    "silver": ["action-exceptions", "config-entry-unloading", "docs-configuration-parameters",
               "docs-installation-parameters", "entity-unavailable", "integration-owner",
               "log-when-unavailable", "parallel-updates", "reauthentication-flow", "test-coverage"],
    "gold": ["devices", "diagnostics", "discovery", "discovery-update-info", "docs-data-update",
             "docs-examples", "docs-known-limitations", "docs-supported-devices", "docs-supported-functions",
             "docs-troubleshooting", "docs-use-cases", "dynamic-devices", "entity-category",
             "entity-device-class", "entity-disabled-by-default", "entity-translations",
             "exception-translations", "icon-translations", "reconfiguration-flow", "repair-issues",
             "stale-devices"],
    "platinum": ["async-dependency", "inject-websession", "strict-typing"],
}


def test_quality_scale_states_every_rule() -> None:
    """quality_scale.yaml states each rule of the scale: done, todo or exempt (exempt and todo say why)."""
    rules = yaml.safe_load((PACKAGE / "quality_scale.yaml").read_text())["rules"]
    assert set(rules) == {rule for tier in QUALITY_RULES.values() for rule in tier}
    for name, rule in rules.items():
        status = rule if isinstance(rule, str) else rule["status"]
        assert status in ("done", "todo", "exempt"), name
        if status != "done":
            assert isinstance(rule, dict) and rule.get("comment"), name
    # What the tests of this package show is not left as todo.
    for name in ("config-flow-test-coverage", "test-coverage", "repair-issues", "entity-unavailable",
                 "reauthentication-flow", "reconfiguration-flow", "diagnostics", "brands",
                 "exception-translations", "config-entry-unloading", "runtime-data"):
        status = rules[name] if isinstance(rules[name], str) else rules[name]["status"]
        assert status == "done", name


def test_icons_cover_services_and_entity() -> None:
    """icons.json gives each service and the agent entity an icon."""
    icons = json.loads((PACKAGE / "icons.json").read_text())
    services = yaml.safe_load((PACKAGE / "services.yaml").read_text())
    assert set(icons["services"]) == set(services)
    assert icons["entity"]["conversation"]["conversation"]["default"].startswith("mdi:")


def test_claimed_docs_rules_point_at_real_sections() -> None:
    """Every rule marked done whose comment names README sections ("Name") has those sections in README.md."""
    rules = yaml.safe_load((PACKAGE / "quality_scale.yaml").read_text())["rules"]
    readme = (REPO / "README.md").read_text()
    headings = set(re.findall(r"^#{2,3} (.+?)\s*$", readme, re.M))
    bold_items = set(re.findall(r"^- \*\*([^*]+?):?\*\*", readme, re.M))
    named = 0
    for name, rule in rules.items():
        if isinstance(rule, str) or rule["status"] != "done" or "README.md" not in rule.get("comment", ""):
            continue
        for section in re.findall(r'"([^"]+)"', rule["comment"].split("README.md", 1)[1]):
            named += 1
            assert section in headings or section in bold_items, f"{name}: README.md has no {section!r}"
    assert named >= 10
    for rule in ("docs-known-limitations", "docs-supported-functions", "docs-use-cases", "docs-troubleshooting"):
        status = rules[rule] if isinstance(rules[rule], str) else rules[rule]["status"]
        assert status == "done", rule


def test_strict_typing_is_checked_by_make_test() -> None:
    """strict-typing is claimed: `make test` (script/test all) runs mypy --strict on the integration."""
    script = (REPO / "script" / "test").read_text()
    assert re.search(r"mypy\" --strict .*custom_components/o1", script)
    assert 'if [ "$which" = all ] || [ "$which" = typing ]' in script


def test_changelog_tops_with_the_released_version() -> None:
    """CHANGELOG.md (Keep a Changelog): Unreleased, then the version of the add-on and the integration."""
    changelog = (REPO / "CHANGELOG.md").read_text()
    versions = re.findall(r"^## \[([^\]]+)\]", changelog, re.M)
    manifest = json.loads((PACKAGE / "manifest.json").read_text())
    addon = yaml.safe_load((REPO / "addon" / "config.yaml").read_text())
    assert versions[:2] == ["Unreleased", addon["version"]]
    assert manifest["version"] == addon["version"]
    # Each version heading has its link at the bottom, and a date.
    for version in versions:
        assert re.search(rf"^\[{re.escape(version)}\]: https://", changelog, re.M), version
    assert re.search(rf"^## \[{re.escape(addon['version'])}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.M)
