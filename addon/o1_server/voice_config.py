"""Piper voice configs (``<voice>.onnx.json``): checks before a voice is offered, its language, and the choice.

The keys checked are the ones ``piper.config.PiperConfig.from_dict`` (piper-tts 1.3) reads without a default:
``num_symbols``, ``num_speakers``, ``audio.sample_rate``, ``espeak.voice`` and ``phoneme_id_map``. A config
without them would be listed and then fail on first use with a bare ``KeyError``. A voice's language is its
``language.code`` (else ``espeak.voice``); :func:`choose_voice` picks a request's voice by name or language and
refuses a language no voice speaks. Standard library only, so the settings can check ``--tts-voice`` before
anything heavy is imported.
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


# ------------------------------------------------------------------------------------------ languages and choice


class UnknownVoiceError(ValueError):
    """A request named a voice that is not installed (the message lists the installed ones)."""


class NoVoiceForLanguageError(ValueError):
    """A request asked for a language no installed voice speaks (the message lists the voices' languages)."""


def _tag(code: str) -> str:
    """``"de-de"``/``"de_DE"``/``"DE"`` -> ``"de_DE"``/``"de"``: piper's spelling (language lower, region upper)."""
    parts = code.strip().replace("-", "_").split("_")
    return "_".join([parts[0].lower(), *(p.upper() if len(p) == 2 else p for p in parts[1:] if p)])


def voice_language(config: dict[str, Any], name: str) -> str:
    """The language a voice speaks, as piper writes it (``"en_US"``, ``"de_DE"``, ``"de"``).

    From the config's ``language.code``, else its ``espeak.voice`` (``"en-us"`` -> ``"en_US"``), else the voice
    name's first part (``de_DE-thorsten-medium`` -> ``"de_DE"``).
    """
    language = config.get("language")
    code = language.get("code") if isinstance(language, dict) else None
    if not isinstance(code, str) or not code.strip():
        espeak = config.get("espeak")
        code = espeak.get("voice") if isinstance(espeak, dict) else None
    if not isinstance(code, str) or not code.strip():
        code = name.split("-")[0]
    return _tag(code)


def choose_voice(languages: dict[str, str], default: str, name: str | None, language: str | None) -> str:
    """Pick the voice a request gets; return its name.

    Args:
        languages: installed voice name -> its language (:func:`voice_language`), default voice first.
        default: the default voice's name (a key of ``languages``).
        name: the voice asked for by name (wins over ``language``), or None / empty.
        language: the language asked for when no voice is named (``"de"``, ``"de-DE"``, ``"de_DE"``): the
            first voice of exactly that language, else the first of that language family (``de_AT`` for
            ``de``, ``en_GB`` for ``en_US``), in ``languages`` order; None / empty: the default voice.

    Raises:
        UnknownVoiceError: ``name`` is not installed.
        NoVoiceForLanguageError: no installed voice speaks ``language`` (speaking it with a voice of another
            language would be unintelligible).
    """
    if name:
        if name in languages:
            return name
        raise UnknownVoiceError(f"no voice {name!r} is installed (installed: {', '.join(languages)})")
    if not language or not language.strip():
        return default
    wanted = _tag(language)
    for voice, code in languages.items():
        if code.lower() == wanted.lower():
            return voice
    family = wanted.split("_")[0]
    for voice, code in languages.items():
        if code.split("_")[0] == family:
            return voice
    spoken = ", ".join(sorted(set(languages.values())))
    raise NoVoiceForLanguageError(
        f"no installed voice speaks {language!r} (voices speak: {spoken}); add a piper voice for it "
        "(a NAME.onnx with its NAME.onnx.json in a voices folder)"
    )
