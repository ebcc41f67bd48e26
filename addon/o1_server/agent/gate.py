"""The safety pipeline every generated code block goes through, in this order:

size and language checks > does it compile > classify > decide > audit start > run > audit end.

A :class:`Gate` serves one turn. :meth:`Gate.admit` takes the first four steps when the LLM proposes a block;
:meth:`Gate.run` takes the last three, and only for the block that was just admitted (or confirmed by the
user, :meth:`Gate.confirm`): a block without a decision does not run. A block that is broken rather than
refused (it does not compile, or uses a name never defined) is ``invalid``: no policy decision, the session
may ask the model to repair it. docs/architecture.md shows where the gate sits in a turn.
"""

from __future__ import annotations

import ast
import difflib
import importlib.util
import logging
import re
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bashlex.errors
from pyflakes.messages import UndefinedName  # type: ignore[import-not-found,import-untyped,unused-ignore]

from . import i18n, policy
from .audit import AuditError, AuditLog
from .carried import merged, reported, with_carried
from .decimal_commas import failed_on_decimal_comma, failed_on_grouping, with_decimal_commas
from .home import guard as home_guard
from .missing_imports import PreludeNames, add_missing_imports
from .misspelled import close_name, with_names_spelled
from .online import chosen_lookup
from .policy import GrantedFolder
from .policy.shell.parse import _parse_bash, _unquote_heredocs
from .profiles import Profile, usable_folders
from .sandbox import REFUSED, ExecResult, shift_lines
from .types import CodeBlock

_LOGGER = logging.getLogger(__name__)

MAX_BLOCK_BYTES = policy.MAX_CODE_CHARS
"""Longest code block, in bytes of UTF-8, that may run at all: longer ones cannot be checked, and the sandbox
passes a block as one argument, which Linux caps at 128 KiB (``MAX_ARG_STRLEN``)."""
BOX_MODULES = frozenset({"o1_ha"})
"""Modules a block can import that the server's own path does not hold (the box adds the o1 helpers)."""
NO_DECISION = "no decision was made for this block"
NOT_RUN = "the block never reached the sandbox"
CONFIRMED = "confirmed by the user"
INVALID = "invalid"
"""The decision of a block that is broken, not refused: Python that does not compile or uses a name that is
never defined, imported or built in, shell that does not parse. Audited as a block that did not run, with the
short error as its reason ("line 2: name 'foo' is not defined")."""


@dataclass(frozen=True)
class Turn:
    """Who a gate answers to: the conversation, its profile and folder, and the turn's stop flag. ``values``:
    the conversation's carried values (:mod:`.carried`), updated by each Python block that reports them."""

    conversation_id: str
    profile: Profile
    workdir: Path
    audit: AuditLog
    cancelled: threading.Event
    channel: str
    values: dict[str, Any] = field(default_factory=dict)

    def folders(self) -> tuple[GrantedFolder, ...]:
        """The profile's granted folders that may be used now (none holding or inside the sandbox root or the
        server's data folder, symlinks resolved): what the box binds and the classifier counts as inside."""
        return usable_folders(self.profile.folders, (self.workdir.parent, self.audit.path.parent))


class Gate:
    """The pipeline for the code blocks of one turn.

    ``run_block(block) -> ExecResult`` is the sandbox, called only from :meth:`run`; ``emit_block(block)`` tells
    the streaming client about each block's fate; ``hold(pending)`` keeps a block that needs the user's
    confirmation (``{"block": dict, "summary": str, "channel": str}``). ``home()`` is the turn's Home Assistant
    broker (or None): the guarded calls it held while a block ran become the confirmation question, and the
    held calls the user said yes to are granted to it (see ``home/guard.py``).
    """

    def __init__(
        self,
        turn: Turn,
        run_block: Callable[[CodeBlock], ExecResult],
        emit_block: Callable[[CodeBlock], None],
        hold: Callable[[dict[str, Any]], None],
        home: Callable[[], Any] | None = None,
    ) -> None:
        self.turn = turn
        self._home = home or (lambda: None)
        self.blocks: list[CodeBlock] = []  # every block of the turn, in order
        self.held: list[CodeBlock] = []  # blocks that did not run: denied, or waiting for a confirmation
        self._run_block = run_block
        self._emit_block = emit_block
        self._hold = hold
        self._admitted: CodeBlock | None = None
        # The folder's files when the turn began (relative paths; None: as they are now): rewriting a file the
        # turn itself wrote (a repaired attempt writes again) destroys nothing of the user's.
        self.existing: frozenset[str] | None = None
        self.extra_blocks = 0  # raised by one per repair request of the turn: the cap is blocks_per_turn + this
        # (as written, as decided) for each block completed with carried values (carried.py) or its missing
        # imports (missing_imports.py): Open Interpreter runs what the model wrote, the gate the block it decided on.
        self.completed: list[tuple[str, str]] = []
        self.request = ""  # the user's message of the turn (addresses it names are the user's to confirm)

    # ------------------------------------------------------------------ steps 1-4: checks, classify, decide
    def admit(self, language: str, code: str) -> bool:
        """Decide one proposed block: True when it may run now (then :meth:`run` runs it). Every refusal is
        audited and told to the client here."""
        code = code.strip("\n")
        self.drop_unrun()
        if self.turn.cancelled.is_set():  # the turn was stopped (deadline, cancel, reset): no code runs after that
            self._refuse(CodeBlock(language, code, decision="cancelled", reason="the turn was stopped"))
            return False
        block, summary = self._decide(language, code)
        if block.decision == "allow":
            self.blocks.append(block)
            self._admitted = block
            return True
        if block.decision == "confirm":
            self._hold({"block": block.as_dict(), "summary": summary, "channel": self.turn.channel})
        self._refuse(block)
        return False

    def confirm(self, language: str, code: str) -> CodeBlock:
        """The user said yes to a held block: it is checked and decided again under the profile as it is now (it
        may have been tightened since, and a held block comes back from disk). Unless that denies it, it is
        ``allow`` ("confirmed by the user") and :meth:`run` runs it. Returns the block; a refusal is audited."""
        code = code.strip("\n")
        self.drop_unrun()
        block, _ = self._decide(language, code, asked=False)
        if block.decision not in ("allow", "confirm"):
            self._refuse(block)
            return block
        block.decision, block.reason = "allow", CONFIRMED
        self.blocks.append(block)
        self._admitted = block
        broker = self._home()
        if broker is not None:  # the guarded calls the user heard named and said yes to, exactly those, once
            broker.guard.grant(home_guard.granted_keys(code))
        return block

    def _decide(self, language: str, code: str, asked: bool = True) -> tuple[CodeBlock, str]:
        """Steps 1-4 for one block: the checks, then classify and decide. Returns the block (its decision and
        reason set) and the spoken summary of what it would do. ``asked``: the block answers this turn's
        request (False for a held block the user said yes to, whose request was an earlier turn's)."""
        name = canonical_language(language)
        refused = self._check(language, name, code)
        if refused is not None:
            return refused, ""
        error = code_error(name, code)
        # Only a block with an undefined name can lack a carried value or an import: completed, it is decided,
        # audited and run so (what the model wrote -> what the gate decided, in self.completed).
        written = code
        carried = with_carried(code, self.turn.values) if error is not None and name == "python" else None
        if carried is not None and len(carried.encode("utf-8")) <= MAX_BLOCK_BYTES:
            code = carried
            error = code_error(name, code)
        if error is not None and name == "python" and (completed := add_missing_imports(code)) is not None:
            code = completed
            error = code_error(name, code)
        if error is not None and name == "python" and (spelled := with_names_spelled(code)) is not None:
            code = spelled  # "hights" where the block defines "highs" (misspelled.py)
            error = code_error(name, code)
        if code != written:
            self.completed.append((written, code))
        if error is not None:  # said with the lines of the block as the model wrote it
            error = shift_lines(error, lines_before(written, code), _REASON_LINE)
            return CodeBlock(name, code, decision=INVALID, reason=error), ""
        found = policy.classify(name, code, self.turn.workdir, self.existing, self.turn.folders())
        decision = policy.decide(self.turn.profile.policy, found)
        action, reason = decision.action, decision.reason
        if (
            action in ("confirm", "deny")
            and asked
            and not self.turn.profile.internet
            and chosen_lookup(found.categories, found.reasons, self.request)
        ):
            # "What's new in the news?": the model picked a news site. A profile without the internet says so
            # rather than asking to connect to an address the user never named, or than naming a rule that the
            # lookup's reply broke (".status_code, which is not on my list": a site it could not reach anyway).
            action, reason = "deny", i18n.t(i18n.current(), "online.cant")
        block = CodeBlock(name, code, decision=action, category=sorted(found.categories), reason=reason)
        return block, found.summary

    def _check(self, language: str, name: str, code: str) -> CodeBlock | None:
        """The checks before any analysis (``name``: the canonical ``language``): the per-turn cap, the profile's
        languages, the block's characters (a NUL byte or a lone surrogate cannot be passed to a program) and
        size."""
        cap = self.turn.profile.limits["blocks_per_turn"] + self.extra_blocks
        if len([b for b in self.blocks if b.decision == "allow"]) >= cap:
            return CodeBlock(language, code, decision="skipped", reason=f"more than {cap} code blocks in one turn")
        said = i18n.current()  # the turn's language (see Session.turn)
        if name not in self.turn.profile.languages:
            reason = i18n.t(said, "refuse.language", name=name) if name else i18n.t(said, "refuse.language_unknown")
        elif "\x00" in code or not _encodable(code):
            reason = i18n.t(said, "refuse.characters")
        elif len(code.encode("utf-8")) > MAX_BLOCK_BYTES:
            reason = i18n.t(said, "refuse.too_long", limit=i18n.number(MAX_BLOCK_BYTES, said))
        else:
            return None
        return CodeBlock(name, code, decision="deny", category=["unparseable"], reason=reason)

    def drop_unrun(self) -> None:
        """An admitted block that Open Interpreter never ran (it routed the block elsewhere, proposed another
        first, or the turn's stream ended) did not run: it becomes ``skipped`` and is audited, so no ``allow``
        stands without its record."""
        block, self._admitted = self._admitted, None
        if block is not None:
            block.decision, block.reason = "skipped", NOT_RUN
            self._record(block)

    def _refuse(self, block: CodeBlock) -> None:
        """A block that does not run: kept in the turn (held when denied or waiting), audited, told."""
        self.blocks.append(block)
        if block.decision in ("deny", "confirm"):
            self.held.append(block)
        self._record(block)

    # ------------------------------------------------------------------ steps 5-7: audit start, run, audit end
    def run(self, language: str, code: str) -> str:
        """Run the admitted block and return the output the LLM will see. The audit record is on disk (fsynced)
        before the code starts; when it cannot be written the code does not run, the block's decision becomes
        ``audit_failed`` and the rest of the turn is stopped. Any other block is refused and audited."""
        block = self._admitted
        code = code.strip("\n")
        added = 0  # lines completing it (carried values, imports) before the model's first line
        if block is not None and (code, block.code) in self.completed:
            code, added = block.code, lines_before(code, block.code)
        if block is None or block.code != code:
            self.drop_unrun()
            return self._refuse_undecided(language, code)
        self._admitted = None
        if not self._execute(block, added):
            return f"(not run: {block.reason})"
        if block.reason != CONFIRMED:  # after a yes, a call held again is refused, never asked unheard
            self._ask_for_held()
        completed = self._with_decimal_commas(block)
        return (completed or block).output or "(no output)"

    def _execute(self, block: CodeBlock, added: int = 0) -> bool:
        """Audit the start of an admitted block, run it, record its result (exit status, output, seconds) in it
        and in the audit log, and tell the client. False (nothing run) when the start record cannot be written.
        ``added``: lines the gate put before the model's code; the block's output then counts traceback lines as
        the model wrote them (the audit keeps them as run)."""
        record_id = self._audit_start(block)
        if record_id is None:
            return False
        try:
            result = self._run_block(block)
        except Exception as err:  # the sandbox never raises for the code: anything else ends here, logged
            _LOGGER.exception("The sandbox failed on a block in %r", self.turn.conversation_id)
            result = ExecResult(REFUSED, f"[not run: the sandbox failed: {type(err).__name__}]", 0.0)
        block.exit_status = result.exit_status
        block.output = result.output
        block.seconds = result.seconds
        if block.language == "python" and (values := reported(result.report)) is not None:
            merged(self.turn.values, values)
        try:
            self.turn.audit.finish(record_id, block)
        except AuditError as err:  # logged: the start record is on disk
            _LOGGER.error("Could not complete audit record %s: %s", record_id, err.__cause__)
        block.output = shift_lines(block.output, added)
        self._emit_block(block)
        return True

    def _with_decimal_commas(self, block: CodeBlock) -> CodeBlock | None:
        """A Python block that failed on a decimal comma, run once more with its float() calls reading one
        (:mod:`.decimal_commas`): decided like any block, run only when allowed as it stands (never a block the
        user confirmed: the completed one was not what they heard), audited, and added to the turn's blocks.
        Returns it when it ran (its output is what the model sees), else None."""
        if block.language != "python" or block.reason == CONFIRMED or self.turn.cancelled.is_set():
            return None
        grouping = failed_on_grouping(block.output)
        failed = grouping is not None or failed_on_decimal_comma(block.output)
        completed = with_decimal_commas(block.code, grouping) if failed else None
        if completed is None:
            return None
        self.extra_blocks += 1  # it stands for the block it completes: not one more of the turn's
        again, _ = self._decide("python", completed)
        if again.decision != "allow":
            self.extra_blocks -= 1
            return None
        self.blocks.append(again)
        return again if self._execute(again) else None

    def _ask_for_held(self) -> None:
        """The guarded calls the broker held while the block ran (an unlock, a garage door...) become the
        conversation's confirmation: a block of exactly those calls, held like any block the policy asks about,
        its summary naming the devices ("I'm about to unlock Front Door")."""
        broker = self._home()
        held = broker.guard.take_held() if broker is not None else []
        if not held:
            return
        summary = home_guard.held_words(held)
        block = CodeBlock(
            "python", home_guard.held_code(held), decision="confirm", category=["home_assistant"], reason=summary
        )
        self._hold({"block": block.as_dict(), "summary": summary, "channel": self.turn.channel})
        self._refuse(block)

    def _refuse_undecided(self, language: str, code: str) -> str:
        _LOGGER.error(
            "A %s block reached the sandbox without a decision in %r: not run", language, self.turn.conversation_id
        )
        self._refuse(
            CodeBlock(language, code.strip("\n"), decision="deny", category=["unparseable"], reason=NO_DECISION)
        )
        return f"(not run: {NO_DECISION})"

    def _audit_start(self, block: CodeBlock) -> str | None:
        """Write the block's start record; return its id, or None (block marked ``audit_failed``, the turn
        stopped, the client told) when the audit log cannot be written."""
        try:
            return self.turn.audit.start(self.turn.conversation_id, self.turn.profile.name, block)
        except AuditError as err:
            _LOGGER.error(
                "Audit log unwritable, not running a block in %r: %s", self.turn.conversation_id, err.__cause__
            )
            block.decision = "audit_failed"
            block.reason = err.message
            self.turn.cancelled.set()  # no further block of this turn may run either
            self._emit_block(block)
            return None

    def _record(self, block: CodeBlock) -> None:
        """Audit a block whose fate is final without running, and tell the streaming client about it."""
        record(self.turn.audit, self.turn.conversation_id, self.turn.profile.name, block)
        self._emit_block(block)


def record(audit: AuditLog, conversation_id: str, profile: str, block: CodeBlock) -> None:
    """Audit a block that does not run (a failure is logged: the block does not run either way)."""
    try:
        audit.record(conversation_id, profile, block)
    except AuditError as err:
        _LOGGER.error("Could not audit a %s block in %r: %s", block.decision, conversation_id, err.__cause__)


def _encodable(code: str) -> bool:
    """Whether ``code`` can be written as UTF-8 (a lone surrogate cannot)."""
    try:
        code.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def code_error(language: str, code: str) -> str | None:
    """Why ``code`` (canonical ``language``: 'python' or 'shell') is broken, as one short line ("line 3: leading
    zeros in decimal integer literals are not permitted..."), or None. Python: it does not compile, or pyflakes
    finds a name used but never defined (unused imports and the like do not count; an unknown attribute of a
    known module is left to the classifier). Shell: bashlex cannot parse it (a construct bashlex knows but does
    not implement, such as ``case``, is not an error here: the classifier calls it ``unparseable``)."""
    if language == "python":
        try:
            tree = ast.parse(code, "<block>")
            compile(tree, "<block>", "exec")
        except SyntaxError as err:
            return _short(f"line {err.lineno or 1}: {err.msg}")
        except (ValueError, RecursionError) as err:  # nested too deeply to compile
            return _short(f"{type(err).__name__}: {err}")
        try:
            undefined = [m for m in PreludeNames(tree, filename="<block>").messages if isinstance(m, UndefinedName)]
        except RecursionError:  # too deep for pyflakes: what it would find is the classifier's business
            return None
        if undefined:
            name = undefined[0].message_args[0]
            hint = close_name(tree, name)
            said = f"line {undefined[0].lineno}: name {name!r} is not defined"
            return _short(said + (f"; did you mean {hint!r}?" if hint else ""))
        return _missing_module(tree) or _unknown_helper(tree)
    if language == "shell":
        if all(not line.strip() or line.lstrip().startswith("#") for line in code.splitlines()):
            return None
        text, _ = _unquote_heredocs(code)
        unclosed = next((m for m in re.finditer(r"\$\{", text) if "}" not in text[m.end() :]), None)
        if unclosed is not None:  # bashlex would loop on it
            return f"line {text[: unclosed.start()].count(chr(10)) + 1}: '${{' without a closing '}}'"
        try:
            _parse_bash(text)
        except bashlex.errors.ParsingError as err:
            position = min(max(int(err.position), 0), len(text))
            return _short(f"line {text[:position].count(chr(10)) + 1}: {err.message}")
        except Exception:  # noqa: BLE001 - not implemented by bashlex, or over its budget: the classifier's call
            return None
    return None


def _missing_module(tree: ast.AST) -> str | None:
    """The first ``import`` of a module that is not installed where blocks run (the box runs the server's own
    Python: ``pandas`` there is ModuleNotFoundError), as a line saying so; None when every one is there."""
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            if top in sys.stdlib_module_names or top in BOX_MODULES:
                continue
            try:
                found = importlib.util.find_spec(top) is not None
            except (ImportError, ValueError):
                found = False
            if not found:
                line = getattr(node, "lineno", 1)
                instead = f"; {INSTEAD[top]}" if top in INSTEAD else ""
                return (
                    f"line {line}: no module named {top!r} is installed here, and none can be (standard library only)"
                    + instead
                )
    return None


# What to use instead of a module the box lacks, told with the error (the model wrote pandas three times in a row
# when told only "standard library only": seventh held-out set, a dev set since).
INSTEAD = {
    "pandas": "read the file with csv.DictReader (csv.reader(f, delimiter=';') for ';') and compute with plain "
    "Python, collections.Counter or statistics",
    "dateutil": "parse dates with datetime.datetime.strptime",
    "pytz": "use zoneinfo.ZoneInfo or a datetime.timedelta of the offset",
    "requests": "this box has no internet",
    "openpyxl": "read .csv files with the csv module",
}


def _helper_names() -> frozenset[str]:
    """The public functions and classes of the ``o1_ha`` helper (helpers/o1_ha.py, read, never imported)."""
    tree = ast.parse((Path(__file__).parent / "helpers" / "o1_ha.py").read_text(encoding="utf-8"))
    return frozenset(
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_")
    )


def _helper_instead() -> dict[str, str]:
    """o1_ha's ``INSTEAD`` table (a function a model writes -> the call to write instead), read, never imported."""
    tree = ast.parse((Path(__file__).parent / "helpers" / "o1_ha.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "INSTEAD" for t in node.targets):
            table = ast.literal_eval(node.value)
            return {str(k): str(v) for k, v in table.items()} if isinstance(table, dict) else {}
    return {}


O1_HA_NAMES = _helper_names()
O1_HA_INSTEAD = _helper_instead()


def _unknown_helper(tree: ast.AST) -> str | None:
    """The first ``o1_ha.<name>`` the helper does not have (a model's ``o1_ha.get_temperature``), as a line
    naming the closest real ones; None when every one exists. (``o1_ha`` is the prelude's name for the helper.)"""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "o1_ha"
            and node.attr not in O1_HA_NAMES
            and not node.attr.startswith("_")
            and node.attr not in sys.stdlib_module_names  # reaching through the helper: the classifier's call
        ):
            close = difflib.get_close_matches(node.attr, sorted(O1_HA_NAMES), n=3, cutoff=0.5)
            hint = f"; close ones: {', '.join(close)}" if close else ""
            if node.attr in O1_HA_INSTEAD:
                hint = f"; write o1_ha.{O1_HA_INSTEAD[node.attr]} instead"
            return _short(f"line {node.lineno}: o1_ha has no function {node.attr!r}{hint}", 200)
    return None


_REASON_LINE = re.compile(r"^(line )(\d+)")  # the start of an invalid block's reason ("line 3: ...")


def lines_before(written: str, completed: str) -> int:
    """How many lines ``completed`` (a block completed with carried values, imports or names spelled: lines are
    only ever added before the code) has before the code the model ``written``."""
    return max(completed.count("\n") - written.count("\n"), 0)


def _short(error: str, limit: int = 160) -> str:
    """One line of at most ``limit`` characters."""
    line = error.splitlines()[0] if error else ""
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def canonical_language(language: str) -> str:
    """Map Open Interpreter's language names and aliases onto 'python' / 'shell'."""
    name = language.lower().strip()
    if name in policy.PYTHON_LANGUAGES:
        return "python"
    if name in policy.SHELL_LANGUAGES:
        return "shell"
    return name
