"""Checks of a piper voice config (``<voice>.onnx.json``) before the voice is offered or loaded.

The keys checked are the ones ``piper.config.PiperConfig.from_dict`` (piper-tts 1.3) reads without a default:
``num_symbols``, ``num_speakers``, ``audio.sample_rate``, ``espeak.voice`` and ``phoneme_id_map``. A config
without them would be listed and then fail on first use with a bare ``KeyError``. Standard library only, so the
settings can check ``--tts-voice`` before anything heavy is imported.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def voice_config_problem(data: Any) -> str | None:
    """Return why ``data`` (a parsed ``.onnx.json``) is not a usable piper voice config, or None when it is."""
    if not isinstance(data, dict):
        return "the config is not a JSON object"
    audio = data.get("audio")
    rate = audio.get("sample_rate") if isinstance(audio, dict) else None
    if isinstance(rate, bool) or not isinstance(rate, int) or not 8000 <= rate <= 48000:
        return "audio.sample_rate must be a whole number of Hz in 8000..48000"
    for key in ("num_symbols", "num_speakers"):
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return f"{key} must be a positive whole number"
    espeak = data.get("espeak")
    if not isinstance(espeak, dict) or not isinstance(espeak.get("voice"), str):
        return "espeak.voice must be a string"
    if not isinstance(data.get("phoneme_id_map"), dict) or not data["phoneme_id_map"]:
        return "phoneme_id_map must be a non-empty object"
    return None


def check_voice_config(path: Path) -> str | None:
    """Return why the config file at ``path`` cannot be used (missing, not JSON, incomplete), or None."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return f"its config {path} does not exist"
    except (OSError, UnicodeDecodeError) as err:
        return f"its config {path} cannot be read ({err})"
    except ValueError as err:
        return f"its config {path} is not JSON ({err})"
    problem = voice_config_problem(data)
    return f"{path}: {problem}" if problem else None
