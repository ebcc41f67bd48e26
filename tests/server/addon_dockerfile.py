"""A small Dockerfile reader for the add-on tests: instructions, stages, and the exec-form arguments.

Handles what the add-on's Dockerfile uses: parser directives and comments, backslash line continuations
(comment lines inside a continuation are dropped, as Docker does), ``FROM image [AS name]``, JSON (exec) and
shell forms, and ``--flag=value`` options before the arguments (COPY --from, HEALTHCHECK --interval...).
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field


@dataclass
class Instruction:
    """One instruction: upper-case keyword, its raw argument text, its options and its first line number."""

    keyword: str
    text: str
    line: int
    options: dict[str, str] = field(default_factory=dict)

    @property
    def rest(self) -> str:
        """The argument text without the leading ``--option=value`` words."""
        return re.sub(r"^(?:--\S+\s+)*", "", self.text)

    def exec_form(self) -> list[str] | None:
        """The JSON array form's arguments (after options, and after ``CMD`` in a HEALTHCHECK), or None."""
        body = self.rest
        if self.keyword == "HEALTHCHECK":
            keyword, _, body = body.partition(" ")
            if keyword.upper() != "CMD":
                return None
        body = body.strip()
        if not body.startswith("["):
            return None
        value = json.loads(body)
        if not (isinstance(value, list) and value and all(isinstance(v, str) for v in value)):
            raise ValueError(f"line {self.line}: the exec form must be a JSON list of strings")
        return value


@dataclass
class Stage:
    """One build stage: its base image, optional name and instructions (FROM excluded)."""

    base: str
    name: str | None
    instructions: list[Instruction]

    def all(self, keyword: str) -> list[Instruction]:
        """The stage's instructions with this keyword."""
        return [i for i in self.instructions if i.keyword == keyword]

    def run_text(self) -> str:
        """Every RUN of the stage, joined by newlines."""
        return "\n".join(i.text for i in self.all("RUN"))


KEYWORDS = {"ADD", "ARG", "CMD", "COPY", "ENTRYPOINT", "ENV", "EXPOSE", "FROM", "HEALTHCHECK", "LABEL",
            "MAINTAINER", "ONBUILD", "RUN", "SHELL", "STOPSIGNAL", "USER", "VOLUME", "WORKDIR"}


def parse(text: str) -> list[Instruction]:
    """Parse Dockerfile text into instructions. Raises ValueError for an unknown keyword."""
    instructions: list[Instruction] = []
    buffer: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not buffer and (not stripped or stripped.startswith("#")):
            continue
        if buffer and stripped.startswith("#"):
            continue  # a comment inside a continuation
        if not buffer:
            start = number
        if stripped.endswith("\\"):
            buffer.append(stripped[:-1].rstrip())
            continue
        buffer.append(stripped)
        joined = " ".join(part for part in buffer if part)
        buffer = []
        keyword, _, rest = joined.partition(" ")
        keyword = keyword.upper()
        if keyword not in KEYWORDS:
            raise ValueError(f"line {start}: unknown instruction {keyword!r}")
        options = {}
        for word in rest.split():
            if not word.startswith("--"):
                break
            name, _, value = word[2:].partition("=")
            options[name] = value
        instructions.append(Instruction(keyword, rest.strip(), start, options))
    if buffer:
        raise ValueError("the Dockerfile ends inside a line continuation")
    return instructions


def stages(instructions: list[Instruction]) -> list[Stage]:
    """Split instructions into build stages (instructions before the first FROM must be ARGs)."""
    result: list[Stage] = []
    for ins in instructions:
        if ins.keyword == "FROM":
            words = ins.rest.split()
            name = words[2] if len(words) == 3 and words[1].upper() == "AS" else None
            if len(words) not in (1, 3):
                raise ValueError(f"line {ins.line}: FROM image [AS name]")
            result.append(Stage(words[0], name, []))
        elif not result:
            if ins.keyword != "ARG":
                raise ValueError(f"line {ins.line}: {ins.keyword} before the first FROM")
        else:
            result[-1].instructions.append(ins)
    if not result:
        raise ValueError("no FROM")
    return result


def global_args(instructions: list[Instruction]) -> dict[str, str]:
    """``ARG NAME=default`` values before the first FROM (the only ones a FROM line can use)."""
    found = {}
    for ins in instructions:
        if ins.keyword == "FROM":
            break
        name, sep, value = ins.text.partition("=")
        if sep:
            found[name.strip()] = value.strip().strip('"')
    return found


def arg_defaults(stage: Stage) -> dict[str, str]:
    """``ARG NAME=default`` values of a stage."""
    found = {}
    for ins in stage.all("ARG"):
        name, sep, value = ins.text.partition("=")
        if sep:
            found[name.strip()] = value.strip().strip('"')
    return found


def env_values(stage: Stage) -> dict[str, str]:
    """``ENV KEY=value`` pairs of a stage (the ``KEY=value`` form only)."""
    found = {}
    for ins in stage.all("ENV"):
        for word in shlex.split(ins.text):
            key, sep, value = word.partition("=")
            if sep:
                found[key] = value
    return found


# Home Assistant's Debian base image (s6-overlay, bashio, tempio), multi-arch, on Debian bookworm (python3 3.11): the
# tag ``bookworm`` or one release's ``bookworm-YYYY.MM.N``, optionally by digest.
RE_HA_DEBIAN_BASE = re.compile(
    r"^ghcr\.io/home-assistant/base-debian:bookworm(?:-\d{4}\.\d{2}\.\d+)?(?:@sha256:[0-9a-f]{64})?$")
