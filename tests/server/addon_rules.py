"""The Home Assistant Supervisor's rules for an add-on repository, written down for the tests.

Written from the Supervisor's documented configuration (developers.home-assistant.io, "Add-on configuration")
and its validation code (``supervisor/apps/validate.py``, ``supervisor/apps/options.py``,
``supervisor/store/validate.py``, ``supervisor/validate.py``), read for the rules, not copied. Stricter than the
Supervisor on purpose: an unknown key is an error here (the Supervisor silently drops it, which hides typos),
versions must look like ``X.Y.Z``.

Entry points: ``validate_addon_config``, ``validate_option_type``, ``validate_options``,
``validate_translations``, ``validate_repository``, ``find_addon_configs``. Each raises ``vol.Invalid`` (or
``vol.MultipleInvalid``) on a breach.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePath
from typing import Any

import voluptuous as vol

ARCHES = ("aarch64", "amd64", "armhf", "armv7", "i386")  # the last three are deprecated but accepted
STARTUP = ("initialize", "system", "services", "application", "once")
BOOT = ("auto", "manual", "manual_only")
STAGE = ("stable", "experimental", "deprecated")
ROLES = ("default", "homeassistant", "backup", "manager", "admin")
BACKUP_MODES = ("hot", "cold")
MAP_TYPES = ("data", "config", "ssl", "local_apps", "addons", "backup", "share", "media", "homeassistant_config",
             "all_app_configs", "all_addon_configs", "app_config", "addon_config")
# Map types the Supervisor still reads but reports as legacy since 2026.07 (``_warn_app_config``), and their
# current names. Refused here: a warning in every user's log is a defect of the add-on.
LEGACY_MAP_TYPES = {"addons": "local_apps", "all_addon_configs": "all_app_configs", "addon_config": "app_config",
                    "config": "homeassistant_config"}
CAPABILITIES = ("BPF", "CHECKPOINT_RESTORE", "DAC_READ_SEARCH", "IPC_LOCK", "NET_ADMIN", "NET_RAW", "PERFMON",
                "SYS_ADMIN", "SYS_MODULE", "SYS_NICE", "SYS_PTRACE", "SYS_RAWIO", "SYS_RESOURCE", "SYS_TIME")

RE_SLUG = re.compile(r"^[-_.A-Za-z0-9]+$")
RE_VERSION = re.compile(r"^\d+\.\d+\.\d+(?:[-.+][0-9A-Za-z.]+)?$")
RE_DOCKER_PORT = re.compile(r"^\d+(?:/tcp|/udp)?$")
RE_MAP_STRING = re.compile(r"^(?P<type>[a-z_]+)(?::(?P<mode>rw|ro))?$")
RE_WATCHDOG = re.compile(r"^(?:https?|\[PROTO:\w+\]|tcp)://\[HOST\]:(?:\[PORT:(?P<port>\d+)\]|(?P<plain>\d+)).*$")
RE_WEBUI = re.compile(r"^(?:https?|\[PROTO:\w+\])://\[HOST\]:\[PORT:\d+\].*$")
RE_SERVICE = re.compile(r"^(?:mqtt|mysql):(?:provide|want|need)$")
RE_IMAGE = re.compile(r"^(?:[a-z0-9.-]+(?::\d+)?/)?[a-z0-9{][a-z0-9._{}-]*(?:/[a-z0-9{][a-z0-9._{}-]*)*$")

# The option type grammar: a scalar type, optionally with bounds or an argument, optionally ending in "?".
RE_OPTION_TYPE = re.compile(
    r"^(?:"
    r"bool|email|url|port"
    r"|device(?:\(subsystem=[a-z]+\))?"
    r"|str(?:\((?P<s_lo>\d+)?,(?P<s_hi>\d+)?\))?"
    r"|password(?:\((?P<p_lo>\d+)?,(?P<p_hi>\d+)?\))?"
    r"|int(?:\((?P<i_lo>-?\d+)?,(?P<i_hi>-?\d+)?\))?"
    r"|float(?:\((?P<f_lo>-?\d*\.?\d+)?,(?P<f_hi>-?\d*\.?\d+)?\))?"
    r"|match\((?P<regex>.*)\)"
    r"|list\((?P<choices>.+)\)"
    r")(?P<optional>\?)?$"
)

network_port = vol.All(vol.Coerce(int), vol.Range(min=1, max=65535))
docker_port = vol.All(str, vol.Match(RE_DOCKER_PORT))


def _version(value: Any) -> str:
    """A version written as a string ``X.Y.Z`` (a YAML float such as 0.1 is refused)."""
    if not isinstance(value, str) or not RE_VERSION.match(value):
        raise vol.Invalid(f"expected a version string like '1.2.3', got {value!r}")
    return value


def _image(value: Any) -> str:
    """A Docker image name without a tag (the Supervisor adds the version as the tag)."""
    if not isinstance(value, str) or not RE_IMAGE.match(value):
        raise vol.Invalid(f"invalid image name {value!r} (no tag allowed)")
    return value


def validate_option_type(typ: Any) -> Any:
    """Validate one schema element: a type string, a one-element list of one, or a dict of them."""
    if isinstance(typ, str):
        if not RE_OPTION_TYPE.match(typ):
            raise vol.Invalid(f"unknown option type {typ!r}")
        if typ.startswith("match("):
            try:
                re.compile(RE_OPTION_TYPE.match(typ)["regex"])
            except re.error as err:
                raise vol.Invalid(f"bad regular expression in {typ!r}: {err}") from None
        return typ
    if isinstance(typ, list):
        if len(typ) != 1 or isinstance(typ[0], list):
            raise vol.Invalid("a list type holds exactly one element type, and not another list")
        validate_option_type(typ[0])
        return typ
    if isinstance(typ, dict):
        for key, sub in typ.items():
            if not isinstance(key, str):
                raise vol.Invalid(f"option names are strings, not {key!r}")
            validate_option_type(sub)
        return typ
    raise vol.Invalid(f"an option type is a string, a list or a dict, not {typ!r}")


def _map_entry(value: Any) -> dict[str, Any]:
    """A ``map`` entry, as a string ``type[:rw|:ro]`` or a dict ``{type, read_only, path}``."""
    if isinstance(value, str):
        m = RE_MAP_STRING.match(value)
        if not m or m["type"] not in MAP_TYPES:
            raise vol.Invalid(f"invalid map entry {value!r}")
        return {"type": m["type"], "read_only": m["mode"] != "rw"}
    return vol.Schema({
        vol.Required("type"): vol.In(MAP_TYPES),
        vol.Optional("read_only", default=True): bool,
        vol.Optional("path"): vol.All(str, vol.Match(r"^/")),
    })(value)


ADDON_CONFIG = vol.Schema(
    {
        vol.Required("name"): vol.All(str, vol.Length(min=1)),
        vol.Required("version"): _version,
        vol.Required("slug"): vol.All(str, vol.Match(RE_SLUG)),
        vol.Required("description"): vol.All(str, vol.Length(min=1)),
        vol.Required("arch"): vol.All([vol.In(ARCHES)], vol.Length(min=1), vol.Unique()),
        vol.Optional("machine"): vol.All([str], vol.Unique()),
        vol.Optional("url"): vol.Url(),
        vol.Optional("startup"): vol.In(STARTUP),
        vol.Optional("boot"): vol.In(BOOT),
        vol.Optional("init"): bool,
        vol.Optional("stage"): vol.In(STAGE),
        vol.Optional("ports"): {docker_port: vol.Maybe(network_port)},
        vol.Optional("ports_description"): {docker_port: str},
        vol.Optional("watchdog"): vol.All(str, vol.Match(RE_WATCHDOG)),
        vol.Optional("webui"): vol.All(str, vol.Match(RE_WEBUI)),
        vol.Optional("ingress"): bool,
        vol.Optional("ingress_port"): vol.Any(network_port, 0),
        vol.Optional("ingress_entry"): str,
        vol.Optional("ingress_stream"): bool,
        vol.Optional("panel_icon"): vol.All(str, vol.Match(r"^mdi:[a-z0-9-]+$")),
        vol.Optional("panel_title"): str,
        vol.Optional("panel_admin"): bool,
        vol.Optional("homeassistant"): _version,
        vol.Optional("host_network"): bool,
        vol.Optional("host_pid"): bool,
        vol.Optional("host_ipc"): bool,
        vol.Optional("host_uts"): bool,
        vol.Optional("host_dbus"): bool,
        vol.Optional("devices"): [vol.All(str, vol.Match(r"^/dev/"))],
        vol.Optional("udev"): bool,
        vol.Optional("tmpfs"): bool,
        vol.Optional("map"): [_map_entry],
        vol.Optional("environment"): {vol.Match(r"^\w+$"): str},
        vol.Optional("privileged"): [vol.In(CAPABILITIES)],
        vol.Optional("apparmor"): vol.Any(bool, str),
        vol.Optional("full_access"): bool,
        vol.Optional("audio"): bool,
        vol.Optional("video"): bool,
        vol.Optional("gpio"): bool,
        vol.Optional("usb"): bool,
        vol.Optional("uart"): bool,
        vol.Optional("devicetree"): bool,
        vol.Optional("kernel_modules"): bool,
        vol.Optional("realtime"): bool,
        vol.Optional("hassio_api"): bool,
        vol.Optional("hassio_role"): vol.In(ROLES),
        vol.Optional("homeassistant_api"): bool,
        vol.Optional("stdin"): bool,
        vol.Optional("legacy"): bool,
        vol.Optional("docker_api"): bool,
        vol.Optional("auth_api"): bool,
        vol.Optional("services"): [vol.All(str, vol.Match(RE_SERVICE))],
        vol.Optional("discovery"): vol.All([vol.All(str, vol.Length(min=1))], vol.Unique()),
        vol.Optional("backup_exclude"): [vol.All(str, vol.Length(min=1))],
        vol.Optional("backup_pre"): str,
        vol.Optional("backup_post"): str,
        vol.Optional("backup"): vol.In(BACKUP_MODES),
        vol.Optional("options"): dict,
        vol.Optional("schema"): vol.Any(False, {str: validate_option_type}),
        vol.Optional("image"): _image,
        vol.Optional("ulimits"): {str: vol.Any(int, {vol.Required("soft"): int, vol.Required("hard"): int})},
        vol.Optional("timeout"): vol.All(int, vol.Range(min=10, max=300)),
        vol.Optional("journald"): bool,
        vol.Optional("breaking_versions"): [_version],
    },
    extra=vol.PREVENT_EXTRA,
)


def _single_value(typ: str, value: Any, key: str) -> Any:
    """Validate one option value against a type string (without the trailing ``?``)."""
    m = RE_OPTION_TYPE.match(typ)
    assert m is not None, typ

    def bounds(lo: str | None, hi: str | None, cast: type) -> dict[str, Any]:
        return {k: cast(v) for k, v in (("min", lo), ("max", hi)) if v is not None}

    if typ.startswith(("str", "password")):
        return vol.All(str, vol.Length(**bounds(m["s_lo"] or m["p_lo"], m["s_hi"] or m["p_hi"], int)))(value)
    if typ.startswith("int"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise vol.Invalid(f"option {key!r} must be an integer, got {value!r}")
        return vol.Range(**bounds(m["i_lo"], m["i_hi"], int))(value)
    if typ.startswith("float"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise vol.Invalid(f"option {key!r} must be a number, got {value!r}")
        return vol.Range(**bounds(m["f_lo"], m["f_hi"], float))(value)
    if typ == "bool":
        if not isinstance(value, bool):
            raise vol.Invalid(f"option {key!r} must be true or false, got {value!r}")
        return value
    if typ == "email":
        return vol.Email()(value)
    if typ == "url":
        return vol.Url()(value)
    if typ == "port":
        return network_port(value)
    if typ.startswith("match("):
        if not isinstance(value, str) or not re.match(m["regex"], value):
            raise vol.Invalid(f"option {key!r} does not match {m['regex']}: {value!r}")
        return value
    if typ.startswith("list("):
        return vol.In(m["choices"].split("|"))(value)
    if typ.startswith("device"):
        return vol.All(str, vol.Match(r"^/dev/"))(value)
    raise vol.Invalid(f"option {key!r}: unsupported type {typ!r}")


def _element(typ: Any, value: Any, key: str) -> Any:
    if isinstance(typ, list):
        if not isinstance(value, list):
            raise vol.Invalid(f"option {key!r} must be a list")
        return [_element(typ[0], v, key) for v in value]
    if isinstance(typ, dict):
        if not isinstance(value, dict):
            raise vol.Invalid(f"option {key!r} must be a mapping")
        return validate_options(value, typ, where=key)
    if value is None:
        raise vol.Invalid(f"option {key!r} has no value")
    return _single_value(typ.rstrip("?"), value, key)


def _optional(typ: Any) -> bool:
    if isinstance(typ, list):
        typ = typ[0]
    return isinstance(typ, str) and typ.endswith("?")


def validate_options(options: dict[str, Any], schema: dict[str, Any], where: str = "options") -> dict[str, Any]:
    """Validate option values against a schema as the Supervisor does before it starts the add-on.

    Every option must be in the schema and fit its type; every option not marked optional (``?``) must be
    present. Returns the options.
    """
    if not isinstance(options, dict):
        raise vol.Invalid(f"{where} must be a mapping")
    for key, value in options.items():
        if key not in schema:
            raise vol.Invalid(f"{where}: option {key!r} is not in the schema")
        _element(schema[key], value, key)
    missing = [k for k, t in schema.items() if k not in options and not _optional(t)]
    if missing:
        raise vol.Invalid(f"{where}: required options without a value: {', '.join(sorted(missing))}")
    return options


def validate_addon_config(config: Any) -> dict[str, Any]:
    """Validate a parsed ``config.yaml`` and the relations between its keys; return the validated dict."""
    if not isinstance(config, dict):
        raise vol.Invalid("config.yaml must be a mapping")
    valid = ADDON_CONFIG(config)
    ports = valid.get("ports", {})
    stray = set(valid.get("ports_description", {})) - set(ports)
    if stray:
        raise vol.Invalid(f"ports_description names ports that are not in ports: {sorted(stray)}")
    if "watchdog" in valid:
        m = RE_WATCHDOG.match(valid["watchdog"])
        port = m["port"] or m["plain"]
        if m["port"] and f"{port}/tcp" not in ports:
            raise vol.Invalid(f"watchdog [PORT:{port}] is not a declared tcp port")
    if valid.get("schema") is not False:
        validate_options(valid.get("options", {}), valid.get("schema", {}))
    types = [entry["type"] for entry in valid.get("map", [])]
    if len(types) != len(set(types)):
        raise vol.Invalid("a folder is mapped twice")
    for legacy in sorted(set(types) & set(LEGACY_MAP_TYPES)):
        raise vol.Invalid(f"map type {legacy!r} is legacy: use {LEGACY_MAP_TYPES[legacy]!r}")
    if "config" in types and {"addon_config", "app_config", "homeassistant_config"} & set(types):
        raise vol.Invalid("'config' cannot be mapped together with addon_config/homeassistant_config")
    if not valid.get("init", True) and valid.get("startup") == "once":
        raise vol.Invalid("an add-on with its own init is a service, not a 'once' job")
    return valid


_TRANSLATION_ENTRY = vol.Schema({
    vol.Required("name"): vol.All(str, vol.Length(min=1)),
    vol.Optional("description"): vol.Maybe(str),
    vol.Optional("fields"): {str: vol.Self},
}, extra=vol.PREVENT_EXTRA)

TRANSLATIONS = vol.Schema({
    vol.Optional("configuration"): {str: _TRANSLATION_ENTRY},
    vol.Optional("network"): {docker_port: vol.All(str, vol.Length(min=1))},
}, extra=vol.PREVENT_EXTRA)


def validate_translations(data: Any) -> dict[str, Any]:
    """Validate one ``translations/<language>.yaml`` file."""
    return TRANSLATIONS(data)


REPOSITORY = vol.Schema({
    vol.Required("name"): vol.All(str, vol.Length(min=1)),
    vol.Optional("url"): vol.Url(),
    vol.Optional("maintainer"): str,
}, extra=vol.PREVENT_EXTRA)


def validate_repository(data: Any) -> dict[str, Any]:
    """Validate ``repository.yaml``."""
    return REPOSITORY(data)


def find_addon_configs(repo: Path) -> list[Path]:
    """Every file the Supervisor's store would read as an add-on config in a checkout of ``repo``.

    The store looks for ``config.{json,yaml,yml}`` at any depth, skipping paths with a part that starts with
    a dot or is ``rootfs``. Build and cache folders (not in a clone) are skipped here too.
    """
    skip = {"rootfs", "__pycache__", "build", "node_modules"}
    found = []
    for path in repo.rglob("config.*"):
        rel = PurePath(path.relative_to(repo))
        if path.suffix not in (".json", ".yaml", ".yml") or not path.is_file():
            continue
        if any(p.startswith(".") or p in skip or p.endswith(".egg-info") for p in rel.parts):
            continue
        found.append(path)
    return sorted(found)
