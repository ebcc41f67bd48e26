"""Agent profiles: YAML data (never executed) validated with voluptuous.

A profile file holds one mapping; the schema is ``PROFILE_SCHEMA`` below and is documented in
``profiles/README.md``. Loading a folder never fails as a whole: a broken file is reported with its
path, line and field (``ProfileError``) and the valid profiles keep being served. Which folders, in which
order: see docs/server.md.
"""

from __future__ import annotations

import logging
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import voluptuous as vol
import yaml

from .policy.categories import CATEGORIES, DEFAULT_POLICY
from .policy.paths import GrantedFolder

_LOGGER = logging.getLogger(__name__)

DECISION = vol.In(["allow", "confirm", "deny"])


def _not_bool(value: Any) -> Any:
    """YAML's ``true``/``yes`` is a Python bool, and bool is an int: refuse it where a number is meant."""
    if isinstance(value, bool):
        raise vol.Invalid("expected a number, got true/false")
    return value


def _int(low: int, high: int | None = None) -> vol.All:
    return vol.All(_not_bool, int, vol.Range(min=low, max=high))


def _float(low: float, high: float) -> vol.All:
    return vol.All(_not_bool, vol.Coerce(float), vol.Range(min=low, max=high))


LANGUAGES = ("python", "shell")
HA_ACCESS = ("none", "read", "control")

_DEFAULT_POLICY = DEFAULT_POLICY  # each category's own default (policy/categories.py)

LLM_SCHEMA = vol.Schema(
    {
        # "inherit" = the server's --llm-model (the embedded Qwen2.5-Coder-1.5B by default).
        vol.Optional("model", default="inherit"): vol.All(str, vol.Length(min=1)),
        vol.Optional("api_base", default=None): vol.Any(None, vol.Url()),
        # A literal key, or "env:NAME" to read the environment variable NAME.
        vol.Optional("api_key", default=None): vol.Any(None, str),
        vol.Optional("temperature", default=0.01): _float(0.0, 2.0),
        vol.Optional("context_window", default=8192): _int(512),
        vol.Optional("max_tokens", default=256): _int(16),
    }
)

LIMITS_SCHEMA = vol.Schema(
    {
        vol.Optional("seconds_per_block", default=20.0): _float(0.1, 600),
        vol.Optional("blocks_per_turn", default=3): _int(1, 50),
        vol.Optional("output_chars", default=2000): _int(100, 1_000_000),
        vol.Optional("memory_mb", default=512): _int(32, 65536),
        vol.Optional("seconds_per_turn", default=180.0): _float(1, 3600),
        # Extra LLM requests a turn may make to repair a block that is broken or failed, or that printed
        # nothing for a question (see Session._chat); 0 ends the turn on the first failure.
        vol.Optional("retries_per_turn", default=2): _int(0, 10),
    }
)

# Host folders a profile may never grant, nor a folder inside one (nor a folder holding one, such as "/"): the
# system, the kernel's views, the secrets, the add-on's own data (/data: conversations, audit log, token) and
# configuration (/config: the user's profiles), the server's own venv. The box has its own private /tmp.
REFUSED_FOLDERS = (
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/proc",
    "/root",
    "/run",
    "/sbin",
    "/sys",
    "/usr",
    "/var",
    "/data",
    "/config",
    "/ssl",
    "/backup",
    "/opt/o1",
)
REFUSED_EXACTLY = ("/", "/tmp")
MAX_FOLDERS = 20
FOLDER_MODES = ("read", "read-write")


def _inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or inside it (both absolute, normalised)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def folder_problem(path: str, reserved: tuple[str, ...] = ()) -> str | None:
    """Why ``path`` may not be granted, as one sentence, or None. ``reserved``: the server's own folders (its
    data folder, the sandbox root) as absolute paths; a grant inside one, or holding one, is refused too."""
    if not path.startswith("/"):
        return "must be an absolute path (starting with /)"
    if "\x00" in path or any(part in (".", "..") for part in path.split("/")):
        return "must not hold '.' or '..' parts"
    normal = os.path.normpath(path)
    if normal in REFUSED_EXACTLY:
        return f"{normal} is too broad to grant: name a folder inside it"
    for folder in (*REFUSED_FOLDERS, *reserved):
        if _inside(normal, folder) or _inside(folder, normal):
            return f"{normal} is or holds a system or o1 folder ({folder}), which is never granted"
    return None


def _folder_path(value: Any) -> str:
    problem = folder_problem(value) if isinstance(value, str) else "expected a path"
    if problem is not None:
        raise vol.Invalid(problem)
    return os.path.normpath(str(value))


FOLDER_SCHEMA = vol.Schema(
    {
        vol.Required("path"): _folder_path,
        # read: the box binds it read-only and only reading it counts as inside; read-write: writing too.
        vol.Optional("mode", default="read"): vol.In(FOLDER_MODES),
    }
)


def _no_twice(folders: list[dict[str, str]]) -> list[dict[str, str]]:
    paths = [f["path"] for f in folders]
    if len(set(paths)) != len(paths):
        raise vol.Invalid("a folder is granted twice")
    return folders


def usable_folders(folders: tuple[GrantedFolder, ...], reserved: tuple[Path, ...]) -> tuple[GrantedFolder, ...]:
    """The grants of ``folders`` that may be used now: each checked again with its symlinks resolved and
    against ``reserved`` (the server's data folder, the sandbox root; resolved too). A grant refused here (a
    link to /etc, a folder holding the sandbox root) is left out and logged, never bound or counted inside."""
    roots = tuple(os.path.realpath(r) for r in reserved)
    usable = []
    for grant in folders:
        real = os.path.realpath(grant.path)
        problem = folder_problem(real, roots) or folder_problem(grant.path, roots)
        if problem is not None:
            _LOGGER.error("Granted folder %s not used: %s", grant.path, problem)
            continue
        usable.append(grant)
    return tuple(usable)


EXAMPLE_SCHEMA = vol.Schema(
    {
        vol.Required("question"): str,
        vol.Optional("language", default="python"): vol.In(LANGUAGES),
        vol.Required("code"): str,
        vol.Required("output"): str,
        vol.Required("answer"): str,
    }
)

PROFILE_SCHEMA = vol.Schema(
    {
        vol.Required("name"): vol.All(str, vol.Match(r"^[a-z0-9][a-z0-9_-]{0,40}$")),
        vol.Optional("description", default=""): str,
        vol.Optional("persona", default=""): str,
        vol.Optional("system_message", default=None): vol.Any(None, str),
        vol.Optional("llm", default={}): LLM_SCHEMA,
        vol.Optional("languages", default=["python"]): vol.All([vol.In(LANGUAGES)], vol.Length(min=1)),
        vol.Optional("policy", default={}): vol.Schema({vol.In(CATEGORIES): DECISION}),
        vol.Optional("limits", default={}): LIMITS_SCHEMA,
        vol.Optional("home_assistant", default="none"): vol.In(HA_ACCESS),
        # The Home Assistant LLM API(s) the o1 integration uses for this profile's turns (HA's own ids, like
        # core's ollama/openai agents' option; "assist" is HA's built-in one). An agent's own option wins.
        vol.Optional("llm_hass_api", default=["assist"]): vol.All(
            vol.Any(vol.All(str, lambda v: [v]), [vol.All(str, vol.Length(min=1))]), vol.Length(max=10)
        ),
        # Home actions that always ask the user by voice first, besides unlocking, opening garage doors, gates and
        # doors and disarming (agent/home/guard.py): "domain.service" (switch.turn_on) or an entity id
        # (switch.oven: any control call on it).
        vol.Optional("guarded", default=[]): vol.All(
            [vol.All(str, vol.Match(r"^[a-z0-9_]+\.[a-z0-9_]+$"))], vol.Length(max=200)
        ),
        # Host folders the code may see, at the same path in the box: read-only unless mode is read-write.
        vol.Optional("folders", default=[]): vol.All([FOLDER_SCHEMA], vol.Length(max=MAX_FOLDERS), _no_twice),
        vol.Optional("answer_style", default="voice"): vol.In(["voice", "text"]),
        # Aids for small models: how the user's text is put to the LLM, worked examples placed at the start
        # of every conversation, and whether the answer is the model's last words or the code's output.
        vol.Optional("message_template", default="{text}"): vol.All(str, vol.Match(r"(?s).*\{text\}")),
        vol.Optional("examples", default=[]): [EXAMPLE_SCHEMA],
        vol.Optional("answer_from", default="model"): vol.In(["model", "output"]),
        # Whether code may look things up on the internet (weather, news...): unset, only when the policy allows
        # the network outright. A profile without it answers such requests honestly, without code (online.py).
        vol.Optional("internet", default=None): vol.Any(None, bool),
    }
)


class ProfileError(Exception):
    """A profile file is invalid. ``path``, ``line`` (1-based, or None) and ``field`` say where."""

    def __init__(self, path: Path, line: int | None, field_name: str, message: str) -> None:
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {field_name}: {message}")
        self.path = path
        self.line = line
        self.field = field_name
        self.message = message


@dataclass(frozen=True)
class Profile:
    """A validated profile. ``policy`` always holds a decision for every category."""

    name: str
    description: str
    persona: str
    system_message: str | None
    llm: dict[str, Any]
    languages: tuple[str, ...]
    policy: dict[str, str]
    limits: dict[str, Any]
    home_assistant: str
    answer_style: str
    llm_hass_api: tuple[str, ...] = ("assist",)
    message_template: str = "{text}"
    examples: tuple[dict[str, str], ...] = ()
    answer_from: str = "model"
    source: Path | None = None
    guarded: tuple[str, ...] = ()
    folders: tuple[GrantedFolder, ...] = ()
    """The host folders the profile grants (absolute paths), each read-only unless ``writable``."""
    internet: bool = False
    """Whether its code may look things up online (the ``internet`` key; unset: ``policy.network`` is allow)."""

    def example_messages(self) -> list[dict[str, Any]]:
        """The worked examples as Open Interpreter LMC messages (user, code, output, answer)."""
        messages: list[dict[str, Any]] = []
        for ex in self.examples:
            messages += [
                {"role": "user", "type": "message", "content": self.message_template.replace("{text}", ex["question"])},
                {"role": "assistant", "type": "code", "format": ex["language"], "content": ex["code"]},
                {"role": "computer", "type": "console", "format": "output", "content": ex["output"]},
                {"role": "assistant", "type": "message", "content": ex["answer"]},
            ]
        return messages

    def llm_api_key(self) -> str | None:
        """Resolve the API key: ``env:NAME`` reads the environment variable NAME."""
        key = self.llm.get("api_key")
        if isinstance(key, str) and key.startswith("env:"):
            return os.environ.get(key[4:]) or None
        return key

    def summary(self) -> dict[str, Any]:
        """Return the public description used by ``GET /api/info``."""
        return {
            "name": self.name,
            "description": self.description,
            "ha_access": self.home_assistant,
            "llm_hass_api": list(self.llm_hass_api),
            "languages": list(self.languages),
        }


@dataclass
class ProfileStore:
    """Profiles by name, plus the errors of the files that failed to load."""

    profiles: dict[str, Profile] = field(default_factory=dict)
    errors: list[ProfileError] = field(default_factory=list)

    def get(self, name: str) -> Profile | None:
        """Return the profile called ``name``, or None."""
        return self.profiles.get(name)


def _line_of(node: yaml.Node | None, path: list[Any]) -> int | None:
    """Follow ``path`` (keys and indexes) through a composed YAML node tree and return its 1-based line."""
    line = node.start_mark.line + 1 if node is not None else None
    for key in path:
        if isinstance(node, yaml.MappingNode):
            match = next((v for k, v in node.value if getattr(k, "value", None) == key), None)
            if match is None:
                key_node = next((k for k, _ in node.value if getattr(k, "value", None) == key), None)
                return key_node.start_mark.line + 1 if key_node is not None else line
            node = match
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
        else:
            break
        line = node.start_mark.line + 1
    return line


def parse_profile(text: str, path: Path) -> Profile:
    """Validate one profile's YAML text. Raises ProfileError naming the file, the line and the field."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        raise ProfileError(path, mark.line + 1 if mark else None, "(yaml)", str(err).splitlines()[0]) from err
    except RecursionError:  # PyYAML composes recursively: [[[[... a thousand deep
        raise ProfileError(path, None, "(yaml)", "nested too deeply to read") from None
    if not isinstance(data, dict):
        raise ProfileError(path, 1, "(file)", "a profile must be a YAML mapping")
    try:
        valid = PROFILE_SCHEMA(data)
    except vol.MultipleInvalid as err:
        first = err.errors[0]
        field_name = ".".join(str(p) for p in first.path) or "(file)"
        raise ProfileError(path, _line_of(node, list(first.path)), field_name, first.msg) from err
    return Profile(
        name=valid["name"],
        description=valid["description"],
        persona=valid["persona"],
        system_message=valid["system_message"],
        llm=dict(valid["llm"]),
        languages=tuple(valid["languages"]),
        policy={**_DEFAULT_POLICY, **valid["policy"]},
        limits=dict(valid["limits"]),
        home_assistant=valid["home_assistant"],
        answer_style=valid["answer_style"],
        llm_hass_api=tuple(valid["llm_hass_api"]),
        message_template=valid["message_template"],
        examples=tuple(valid["examples"]),
        answer_from=valid["answer_from"],
        source=path,
        guarded=tuple(valid["guarded"]),
        folders=tuple(GrantedFolder(f["path"], f["mode"] == "read-write") for f in valid["folders"]),
        internet=valid["internet"] if valid["internet"] is not None else valid["policy"].get("network") == "allow",
    )


MAX_PROFILE_BYTES = 1 << 20
"""Largest profile file read (1 MiB; the shipped ones are under 10 KB)."""


def _read_profile_file(path: Path) -> str:
    """The text of a profile file. Raises ProfileError for anything but a regular file (a FIFO named
    ``*.yaml`` would block the start-up forever, a link to ``/dev/zero`` would never end) or one over
    :data:`MAX_PROFILE_BYTES`; OSError and UnicodeDecodeError as reading raises them."""
    # The opened file is judged, not the name: one replaced by a FIFO between a stat() and the open() would
    # still block (O_NONBLOCK: opening a FIFO does not wait for a writer, nor a device for its carrier).
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with open(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ProfileError(path, None, "(file)", "is not a regular file (a folder, FIFO, device or socket)")
        data = file.read(MAX_PROFILE_BYTES + 1)
    if len(data) > MAX_PROFILE_BYTES:
        raise ProfileError(path, None, "(file)", f"is larger than {MAX_PROFILE_BYTES} bytes")
    return data.decode("utf-8")


def load_profiles(folders: tuple[Path, ...] | list[Path]) -> ProfileStore:
    """Load every ``*.yaml`` in ``folders``; a later folder's profile replaces an earlier one of the same name.

    Never raises for a bad file: its ProfileError is logged and kept in ``ProfileStore.errors`` (so is a second
    file of the same folder defining a name already defined there: the first, in file name order, is kept).
    """
    store = ProfileStore()
    for folder in folders:
        if not folder.is_dir():
            continue
        here: dict[str, Path] = {}  # profile name -> the file of this folder that defined it
        for path in sorted(folder.glob("*.yaml")):
            try:
                profile = parse_profile(_read_profile_file(path), path)
            except ProfileError as err:
                _LOGGER.error("Profile not loaded: %s", err)
                store.errors.append(err)
                continue
            except (OSError, UnicodeDecodeError) as err:
                error = ProfileError(path, None, "(file)", f"cannot read it as UTF-8 text: {err}")
                _LOGGER.error("Profile not loaded: %s", error)
                store.errors.append(error)
                continue
            except Exception as err:  # one file's surprise must never stop the server or its neighbours
                error = ProfileError(path, None, "(file)", f"could not be read ({type(err).__name__}: {err})")
                _LOGGER.exception("Profile not loaded: %s", error)
                store.errors.append(error)
                continue
            if profile.name in here:  # two files of one folder: neither silently hides the other
                error = ProfileError(
                    path,
                    None,
                    "name",
                    f"{profile.name!r} is already defined by "
                    f"{here[profile.name].name} in the same folder; this file is ignored",
                )
                _LOGGER.error("Profile not loaded: %s", error)
                store.errors.append(error)
                continue
            here[profile.name] = path
            store.profiles[profile.name] = profile
    return store
