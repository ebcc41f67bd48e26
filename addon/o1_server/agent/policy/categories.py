"""The risk categories, defined once, with everything said about each one; and the summary's event kinds.

A category is what a profile's policy decides on (allow / confirm / deny). Each has an event kind: the kind of
summary event (``findings._Event.kind``) that speaks for it. This module is data only: which code falls in
which category is decided by the scanners (``shell/``, ``python/``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Category:
    """One risk category.

    name: the key in a profile's ``policy`` and in ``Classification.categories``.
    kind: the summary-event kind that speaks for it.
    denied: what "this profile doesn't allow ..." says about it.
    clause: what "I'm about to ..." says when no event of the block speaks for it.
    default: the decision of a profile whose policy does not name it.
    files: whether its events' targets are paths (spoken as "3 files in drafts"), not host or package names.
    """

    name: str
    kind: str
    denied: str
    clause: str
    default: str
    files: bool = False


# In this order a denial lists them ("doesn't allow writing files or using the internet").
TABLE = (
    Category("read_only", "read", "running code", "run code that only reads and calculates", "allow", files=True),
    Category("writes_files", "write", "writing files", "change some files", "allow", files=True),
    Category("deletes_files", "delete", "deleting files", "delete some files", "confirm", files=True),
    Category(
        "outside_sandbox",
        "outside",
        "touching files outside my working folder",
        "touch files outside my working folder",
        "deny",
        files=True,
    ),
    Category("network", "network", "using the internet", "use the internet", "confirm"),
    Category("installs_packages", "install", "installing software", "install software", "deny"),
    Category(
        "process_control", "process", "starting or controlling programs", "start or control other programs", "deny"
    ),
    Category("home_assistant", "home_assistant", "controlling Home Assistant", "control Home Assistant", "confirm"),
    Category("unparseable", "unparseable", "running code I can't check", "run code I can't check", "deny"),
)
CATEGORIES = tuple(category.name for category in TABLE)
BY_NAME = {category.name: category for category in TABLE}
KIND = {category.name: category.kind for category in TABLE}  # category -> the event kind that speaks for it
DEFAULT_POLICY = {category.name: category.default for category in TABLE}  # for profiles that do not name one

# Order in which events are spoken, most serious first: every category's kind, and two kinds more specific than
# any category's ("download a script from x and run it", "start a fork bomb").
EVENT_ORDER = (
    "download_run",
    "fork_bomb",
    "delete",
    "install",
    "network",
    "write",
    "home_assistant",
    "process",
    "outside",
    "unparseable",
    "read",
)
# Order of the clauses said for categories no event speaks for (``import socket`` alone), most serious first.
CLAUSE_ORDER = (
    "deletes_files",
    "outside_sandbox",
    "installs_packages",
    "process_control",
    "network",
    "writes_files",
    "home_assistant",
    "unparseable",
    "read_only",
)
# What an event speaks for beyond its own category: a download that is run says network and process_control,
# a fork bomb process_control, and a deleted or written path names where it is (outside the sandbox or not).
_ALSO_SPEAKS_FOR = {
    "download_run": ("network", "process_control"),
    "fork_bomb": ("process_control",),
    "delete": ("outside_sandbox",),
    "write": ("outside_sandbox",),
}
SPEAKS_FOR = {
    kind: frozenset({c.name for c in TABLE if c.kind == kind} | set(_ALSO_SPEAKS_FOR.get(kind, ())))
    for kind in EVENT_ORDER
}
FILE_KINDS = frozenset(category.kind for category in TABLE if category.files)  # events whose targets are paths

if not set(KIND.values()) <= set(EVENT_ORDER) or sorted(CLAUSE_ORDER) != sorted(CATEGORIES):
    raise RuntimeError("every category's kind must be in EVENT_ORDER, and every category in CLAUSE_ORDER")
if not set(DEFAULT_POLICY.values()) <= {"allow", "confirm", "deny"}:
    raise RuntimeError("a category's default decision must be allow, confirm or deny")
