"""Every string the user sees is translated, and every translation is used.

The code is read with ``ast``: the translation keys it passes (``translation_key=``, form
``errors``, abort ``reason``s, issue ids, logbook keys) are resolved through the package's
string constants and small helper functions, then compared with strings.json both ways.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
import re
import string
from typing import Any

import yaml

from custom_components.o1.config_flow import (
    STEP_REAUTH_DATA_SCHEMA,
    STEP_USER_DATA_SCHEMA,
    O1AITaskSubentryFlow,
    O1ConfigFlow,
    O1ConversationSubentryFlow,
)
from custom_components.o1.const import CONF_MODEL, CONF_PROFILE, CONF_PROMPT
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import CONF_LLM_HASS_API

from .translations import PACKAGE, strings, translation

MODULES = {path.stem: ast.parse(path.read_text(), str(path)) for path in PACKAGE.glob("*.py")}
# Aborts HA's config flow helpers raise by themselves.
IMPLICIT_ABORTS = {
    "_abort_if_unique_id_configured": "already_configured",
    # Another flow of the same server is open (the add-on's discovery card): raise_on_progress.
    "async_set_unique_id": "already_in_progress",
}
UPDATE_AND_ABORT = {"reauth": "reauth_successful", "reconfigure": "reconfigure_successful"}


def _constants() -> dict[str, Any]:
    """Return the package's module-level constants (str, and dicts/tuples of str) by name."""
    found: dict[str, Any] = {}
    for tree in MODULES.values():
        for node in tree.body:
            target = value = None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                target, value = node.target, node.value
            if isinstance(target, ast.Name):
                try:
                    found[target.id] = ast.literal_eval(value)
                except ValueError:
                    continue
    return found


CONSTANTS = _constants()
FUNCTIONS = {
    node.name: node
    for tree in MODULES.values()
    for node in ast.walk(tree)
    if isinstance(node, ast.FunctionDef)
}


def _values(node: ast.expr | None) -> set[str]:
    """Resolve an expression to the strings it can be: literals, constants, what a helper returns."""
    if node is None:
        return set()
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.Name) and isinstance(CONSTANTS.get(node.id), str):
        return {CONSTANTS[node.id]}
    if isinstance(node, ast.IfExp):
        return _values(node.body) | _values(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS:
        returns = [n.value for n in ast.walk(FUNCTIONS[node.func.id]) if isinstance(n, ast.Return)]
        return set().union(*(_values(value) for value in returns))
    raise AssertionError(f"Cannot resolve the translation key {ast.unparse(node)}")


def _calls(tree: ast.AST) -> list[ast.Call]:
    """Return every call in a tree."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)]


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    """Return a call's keyword argument, if given."""
    return next((k.value for k in call.keywords if k.arg == name), None)


def _func_name(call: ast.Call) -> str:
    """Return the name of the called function or method."""
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _class(name: str) -> ast.ClassDef:
    """Return a class of config_flow.py."""
    return next(
        node for node in ast.walk(MODULES["config_flow"])
        if isinstance(node, ast.ClassDef) and node.name == name
    )


def _form_errors(tree: ast.AST) -> set[str]:
    """Return the form error keys set in a tree ({"base": key} and errors[field] = key)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "base":
                    found |= _values(value)
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Subscript)
            and getattr(node.targets[0].value, "id", "") == "errors"
        ):
            found |= _values(node.value)
    return found


def _aborts(tree: ast.AST) -> set[str]:
    """Return the abort reasons of a flow class: explicit, and those HA's helpers imply."""
    found: set[str] = set()
    for call in _calls(tree):
        name = _func_name(call)
        if name == "async_abort":
            found |= _values(_keyword(call, "reason"))
        elif name in IMPLICIT_ABORTS:
            found.add(IMPLICIT_ABORTS[name])
    for method in (n for n in ast.walk(tree) if isinstance(n, ast.AsyncFunctionDef)):
        for call in _calls(method):
            if _func_name(call) in ("async_update_reload_and_abort", "async_update_and_abort"):
                found.add(next(v for k, v in UPDATE_AND_ABORT.items() if method.name.startswith(f"async_step_{k}")))
    return found


def _translation_keys(kind: str) -> set[str]:
    """Return the translation keys the code raises: 'issues' (issue registry) or 'exceptions'."""
    found: set[str] = set()
    for tree in MODULES.values():
        for call in _calls(tree):
            if (key := _keyword(call, "translation_key")) is None:
                continue
            is_issue = _func_name(call) == "async_create_issue"
            if (kind == "issues") == is_issue:
                found |= _values(key)
    return found


def _placeholders(text: str) -> set[str]:
    """Return the placeholder names of a translation."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _leaves(data: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """Return the strings of a nested dict by dotted path."""
    found: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            found |= _leaves(value, f"{prefix}{key}.")
        else:
            found[f"{prefix}{key}"] = value
    return found


def test_config_flow_steps_errors_and_aborts() -> None:
    """Each step, form field, error and abort reason of the config flow has its string, and back."""
    config = strings()["config"]
    flow = _class("O1ConfigFlow")
    steps = {name.removeprefix("async_step_") for name in dir(O1ConfigFlow) if name.startswith("async_step_")}
    shown = {v for call in _calls(flow) if _func_name(call) == "async_show_form" for v in _values(_keyword(call, "step_id"))}
    assert set(config["step"]) == shown
    assert shown <= steps
    assert set(config["step"]["user"]["data"]) == {str(k) for k in STEP_USER_DATA_SCHEMA.schema}
    assert set(config["step"]["reconfigure"]["data"]) == {str(k) for k in STEP_USER_DATA_SCHEMA.schema}
    assert set(config["step"]["reauth_confirm"]["data"]) == {str(k) for k in STEP_REAUTH_DATA_SCHEMA.schema}
    assert "data" not in config["step"]["hassio_confirm"]
    assert set(config["error"]) == _form_errors(MODULES["config_flow"])
    assert set(config["abort"]) == _aborts(flow)
    # The discovered add-on's name titles the flow.
    title_placeholders = [
        node for node in ast.walk(flow)
        if isinstance(node, ast.Subscript) and ast.unparse(node) == "self.context['title_placeholders']"
    ]
    assert title_placeholders
    assert _placeholders(config["flow_title"]) == {"name"}
    assert set(config) == {"flow_title", "step", "error", "abort"}


def test_subentry_flow_strings() -> None:
    """The subentries (conversation agents, AI Tasks): their types, steps, fields and aborts are translated,
    and no more."""
    subentries = strings()["config_subentries"]
    types = O1ConfigFlow.async_get_supported_subentry_types(ConfigEntry.__new__(ConfigEntry))
    assert set(subentries) == set(types) == {"conversation", "ai_task_data"}
    fields = {
        "conversation": (O1ConversationSubentryFlow, {CONF_PROFILE, CONF_LLM_HASS_API, CONF_PROMPT, CONF_MODEL}),
        "ai_task_data": (O1AITaskSubentryFlow, {CONF_PROFILE, CONF_PROMPT, CONF_MODEL}),
    }
    base = _class("_O1ProfileSubentryFlow")
    for kind, (cls, names) in fields.items():
        texts = subentries[kind]
        steps = {n.removeprefix("async_step_") for n in dir(cls) if n.startswith("async_step_")}
        assert set(texts["step"]) == steps == set(texts["initiate_flow"])
        for step in texts["step"].values():
            assert set(step["data"]) == set(step["data_description"]) == names
        assert set(texts["abort"]) == _aborts(_class(cls.__name__)) | _aborts(base)
        assert texts["entry_type"]


def test_exceptions_are_translated_and_used() -> None:
    """Every translation_key raised (errors, spoken sentences) has a message, and each message is raised."""
    assert set(strings()["exceptions"]) == _translation_keys("exceptions")


def test_issues_are_translated_and_used() -> None:
    """Every repair issue has a title and a description (or a fix flow's), with the placeholders the code gives.

    A fixable issue's fix flow (repairs.py) has its confirm step and the abort reasons it returns.
    """
    issues = strings()["issues"]
    assert set(issues) == _translation_keys("issues")
    given: dict[str, set[str]] = {}
    fixable: set[str] = set()
    for call in _calls(MODULES["issues"]):
        if _func_name(call) == "async_create_issue":
            (key,) = _values(_keyword(call, "translation_key"))
            placeholders = _keyword(call, "translation_placeholders")
            if isinstance(placeholders, ast.Call):  # a helper returning a dict literal
                placeholders = next(
                    n.value for n in ast.walk(FUNCTIONS[_func_name(placeholders)]) if isinstance(n, ast.Return)
                )
            assert isinstance(placeholders, ast.Dict)
            given[key] = {k.value for k in placeholders.keys if isinstance(k, ast.Constant)}
            if ast.literal_eval(_keyword(call, "is_fixable")):
                fixable.add(key)
    repairs = MODULES["repairs"]
    fix_aborts = set().union(
        *(_values(_keyword(c, "reason")) for c in _calls(repairs) if _func_name(c) == "async_abort")
    )
    fix_steps = set().union(
        *(_values(_keyword(c, "step_id")) for c in _calls(repairs) if _func_name(c) == "async_show_form")
    )
    for key, issue in issues.items():
        assert issue["title"], key
        # hassfest: a description or a fix flow, not both.
        assert ("fix_flow" in issue) == (key in fixable) != ("description" in issue), key
        texts = [issue["title"]]
        if key in fixable:
            flow = issue["fix_flow"]
            assert set(flow["step"]) == fix_steps and set(flow["abort"]) == fix_aborts, key
            texts += [text for step in flow["step"].values() for text in step.values()]
        else:
            texts.append(issue["description"])
        for text in texts:
            assert _placeholders(text) <= given[key], key


def test_logbook_lines_are_translated_and_used() -> None:
    """The logbook's lines (strings.json "common") are exactly the keys logbook.py picks from."""
    logbook = MODULES["logbook"]
    used = {
        node.value for node in ast.walk(logbook)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("logbook_")
    }
    common = strings()["common"]
    assert set(common) == used
    for text in common.values():
        assert _placeholders(text) <= {"language", "code", "decision", "exit_status"}


def test_services_are_translated() -> None:
    """Each action and each of its fields has a name and a description; no more, no less."""
    services = yaml.safe_load((PACKAGE / "services.yaml").read_text())
    translated = strings()["services"]
    assert set(services) == set(translated)
    for name, spec in services.items():
        assert translated[name]["name"] and translated[name]["description"]
        assert set(spec["fields"]) == set(translated[name]["fields"])
        for field in translated[name]["fields"].values():
            assert field["name"] and field["description"]


def test_every_section_is_checked() -> None:
    """No part of strings.json escapes the checks above."""
    assert set(strings()) == {"config", "config_subentries", "exceptions", "issues", "services", "common"}


def test_translations_are_valid_for_hassfest() -> None:
    """What hassfest refuses: spaces around, URLs, HTML, quoted or odd placeholders, bad keys."""
    url = re.compile(r"((https?|ftp|mqtts?)://|www\.)[a-z0-9]+([\-\.][a-z0-9]+)*\.[a-z]{2,5}", re.I)
    for path, text in _leaves(strings()).items():
        assert text == text.strip(), path
        assert not url.search(text), path
        assert "<" not in text, path
        assert not re.search(r"'\{\w+\}'", text), path
        assert all(name.isidentifier() for name in _placeholders(text)), path
        for key in path.split("."):
            assert re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)*", key), path


def test_english_translation_is_strings_json() -> None:
    """translations/en.json is strings.json (custom integrations load the former)."""
    english = json.loads((PACKAGE / "translations" / "en.json").read_text())
    assert english == strings()
    assert "[%key:" not in json.dumps(english)


def test_resolver_refuses_what_it_cannot_read() -> None:
    """The key resolver fails loudly instead of skipping an expression it does not understand."""
    try:
        _values(ast.parse("some.attribute", mode="eval").body)
    except AssertionError as err:
        assert "some.attribute" in str(err)
    else:  # pragma: no cover - the resolver must not accept it
        raise AssertionError("resolved an unknown expression")


def test_every_language_has_every_key() -> None:
    """Each translations/*.json has exactly strings.json's keys, each translated, with its placeholders.

    HA falls back to English for a missing key: a missing key would speak English in the middle of
    another language, an extra one is a key nobody reads.
    """
    source = _leaves(strings())
    languages = sorted(path.stem for path in (PACKAGE / "translations").glob("*.json"))
    assert "en" in languages and len(languages) >= 2, languages
    for language in languages:
        translated = _leaves(translation(language))
        assert set(translated) == set(source), language
        for path, text in translated.items():
            assert text and text == text.strip(), (language, path)
            assert _placeholders(text) == _placeholders(source[path]), (language, path)
            assert text.count("\n") == source[path].count("\n"), (language, path)
        if language != "en":
            spoken_keys = [path for path in source if path.startswith("exceptions.speech_")]
            assert spoken_keys and all(translated[p] != source[p] for p in spoken_keys), language
