"""The repository passes the HACS action's checks that its files decide.

Written from the checks of the HACS action (hacs/integration, ``custom_components/hacs/validate/*.py`` and
``utils/validate.py``), read for the rules, not copied. Of its validators, these look at the repository's files:

- ``hacsjson``: a ``hacs.json`` with a ``name`` and only the keys HACS knows, typed as HACS types them;
- ``integration_manifest``: ``custom_components/<first folder>/manifest.json`` with ``codeowners`` (a list),
  ``documentation`` and ``issue_tracker`` (URLs), ``domain``, ``name`` and a ``version`` AwesomeVersion parses;
- ``brands``: ``brand/icon.png`` in the integration's folder (else the domain must be in the brands repository);
- ``information``: a README (``readme``, ``readme.md``, ``info`` or ``info.md``) at the root;
- ``license``: GitHub must detect an OSI-approved licence; Apache-2.0 is in HACS's short list of popular ones;
- ``images``: plugins and themes only.

The others (``archived``, ``description``, ``issues``, ``topics``) are GitHub settings of the repository, not
files: the workflow .github/workflows/validate.yaml runs the real HACS action against the published repository.
"""

from __future__ import annotations

import json
from pathlib import Path
import re
import struct
from typing import Any

from awesomeversion import AwesomeVersion
import pytest
import voluptuous as vol

from homeassistant.helpers import config_validation as cv

REPO = Path(__file__).resolve().parents[2]

HACS_JSON = vol.Schema(
    {
        vol.Required("name"): str,
        vol.Optional("content_in_root"): bool,
        vol.Optional("country"): vol.Any(str, [str]),
        vol.Optional("filename"): str,
        vol.Optional("hacs"): str,
        vol.Optional("hide_default_branch"): bool,
        vol.Optional("homeassistant"): str,
        vol.Optional("persistent_directory"): str,
        vol.Optional("render_readme"): bool,
        vol.Optional("zip_release"): bool,
    },
    extra=vol.PREVENT_EXTRA,
)

MANIFEST = vol.Schema(
    {
        vol.Required("codeowners"): list,
        vol.Required("documentation"): cv.url,
        vol.Required("domain"): str,
        vol.Required("issue_tracker"): cv.url,
        vol.Required("name"): str,
        vol.Required("version"): vol.Coerce(AwesomeVersion),
    },
    extra=vol.ALLOW_EXTRA,
)


def hacs_json() -> dict[str, Any]:
    """The repository's hacs.json, checked against HACS's schema."""
    data = json.loads((REPO / "hacs.json").read_text())
    return HACS_JSON(data)


def integration_folder() -> Path:
    """The folder HACS installs: the first folder under custom_components/ (or the root with content_in_root)."""
    if hacs_json().get("content_in_root"):
        return REPO
    folders = sorted(p for p in (REPO / "custom_components").iterdir() if p.is_dir() and p.name != "__pycache__")
    assert folders, "no integration under custom_components/: HACS calls the structure not compliant"
    return folders[0]


def test_hacs_json() -> None:
    """hacs.json: HACS's keys only; the minimum Home Assistant is a version; no zip release without a file."""
    data = hacs_json()
    assert data["name"]
    assert AwesomeVersion(data["homeassistant"]).valid
    assert not data.get("zip_release") or data.get("filename")


def test_single_integration_with_a_valid_manifest() -> None:
    """One integration folder; its manifest passes HACS's schema and names the folder as its domain."""
    folder = integration_folder()
    assert [p.name for p in (REPO / "custom_components").iterdir() if p.is_dir() and p.name != "__pycache__"] == [
        folder.name
    ]
    manifest = json.loads((folder / "manifest.json").read_text())
    valid = MANIFEST(manifest)
    assert valid["domain"] == folder.name
    assert valid["codeowners"] and all(owner.startswith("@") for owner in valid["codeowners"])
    assert valid["version"].valid, "HACS (and HA's loader for custom integrations) needs a parseable version"
    # HA's loader refuses a custom integration without a version; HACS shows it as the installed version.
    assert re.fullmatch(r"\d+\.\d+\.\d+", manifest["version"])


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (raises AssertionError for a file that is not a PNG)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_local_brand_assets() -> None:
    """brand/icon.png inside the integration: HACS then needs no entry in the brands repository."""
    icon = integration_folder() / "brand" / "icon.png"
    assert icon.is_file()
    assert png_size(icon) == (256, 256)


def test_information_file() -> None:
    """A README at the root (HACS renders it: render_readme)."""
    names = {p.name.lower() for p in REPO.iterdir() if p.is_file()}
    assert names & {"readme", "readme.md", "info", "info.md"}
    assert hacs_json().get("render_readme") is True and (REPO / "README.md").is_file()


def test_license_is_apache_2() -> None:
    """LICENSE holds the Apache License 2.0 (the SPDX id in pyproject.toml), which GitHub detects by its text."""
    text = (REPO / "LICENSE").read_text()
    words = " ".join(text.split())
    assert words.startswith("Apache License Version 2.0, January 2004 http://www.apache.org/licenses/")
    for clause in ("1. Definitions.", "2. Grant of Copyright License.", "3. Grant of Patent License.",
                   "4. Redistribution.", "9. Accepting Warranty or Additional Liability.",
                   "END OF TERMS AND CONDITIONS"):
        assert clause in words, clause
    pyproject = (REPO / "pyproject.toml").read_text()
    assert re.search(r'^license = "Apache-2.0"$', pyproject, re.M)


@pytest.mark.parametrize(
    ("broken", "error"),
    [
        ({"name": "o1", "render_readme": "yes"}, "render_readme"),
        ({"name": "o1", "domains": ["conversation"]}, "domains"),
        ({"render_readme": True}, "name"),
    ],
)
def test_the_hacs_json_rules_refuse_a_broken_file(broken: dict[str, Any], error: str) -> None:
    """The schema above is not a formality: what HACS refuses, it refuses."""
    with pytest.raises(vol.Invalid, match=error):
        HACS_JSON(broken)
