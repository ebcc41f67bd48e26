"""The decoding mode as an add-on option: ``stt_decoding`` -> o1-start -> ``--stt-decoding`` -> the settings.

Runs the real o1-start against a temporary add-on root (as ``test_addon.py`` does) and parses the argv it would
exec with the server's own ``settings_from_args``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_addon import make_root, run_start

from o1_server.settings import settings_from_args
from o1_server.stt import DECODING_MODES, SpeechToText

OPTIONS = {
    "stt_model": "tiny.en",
    "stt_language": "en",
    "tts_voice": "en_US-joe-medium",
    "llm_model": "qwen2.5-coder-1.5b",
    "default_profile": "default",
    "threads": 2,
    "llm_timeout": 30,
    "log_level": "info",
}


@pytest.mark.parametrize("mode", DECODING_MODES)
def test_the_option_reaches_the_settings(tmp_path: Path, mode: str) -> None:
    result = run_start(make_root(tmp_path, {**OPTIONS, "stt_decoding": mode}))
    assert result.returncode == 0, result.stderr
    argv = json.loads(result.stdout)
    assert f"--stt-decoding={mode}" in argv
    assert settings_from_args(argv[1:]).stt_decoding == mode


def test_unset_is_reference(tmp_path: Path) -> None:
    result = run_start(make_root(tmp_path, OPTIONS))
    assert result.returncode == 0, result.stderr
    argv = json.loads(result.stdout)
    assert not any(arg.startswith("--stt-decoding") for arg in argv)
    assert settings_from_args(argv[1:]).stt_decoding == "reference"
    assert SpeechToText().decoding == "reference" and not SpeechToText().early_decoding


def test_reference_mode_never_decodes_early() -> None:
    assert not SpeechToText(decoding="reference").early_decoding
    assert SpeechToText(decoding="accurate").early_decoding and SpeechToText(decoding="fast").early_decoding


def test_another_value_is_refused(tmp_path: Path) -> None:
    result = run_start(make_root(tmp_path, {**OPTIONS, "stt_decoding": "greedy"}))
    assert result.returncode == 78 and "stt_decoding" in result.stderr, result.stderr
    with pytest.raises(ValueError, match="decoding"):
        SpeechToText(decoding="greedy")
