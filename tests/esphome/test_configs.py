"""Every ESPHome board config in ``esphome/`` passes ``esphome config`` (full validation, no compile), offline.

Run with the esphome env (its own venv: ESPHome pins many dependencies):
``~/.cache/o1/esphome-venv/bin/python -m pytest tests/esphome``.

Offline: ``esphome config`` fetches the micro_wake_word models it validates (manifest + ``.tflite``) into its cache
``<config dir>/.esphome/micro_wake_word/<sha256(url)[:8]>/``. The tests seed that cache with the same models
from the PyPI package ``pymicro-wakeword`` (okay_nabu and hey_jarvis, microWakeWord v2 manifests), so validation
reads them from disk; without network ESPHome logs that it could not re-check them and uses the cached copy.
The stop word's model (``STOP_URL``, microWakeWord's own release on GitHub) is in no package: validation reads only
its manifest's schema and checks that its model file exists, so the tests seed its cache with a stand-in (the
okay_nabu model under a "Stop" manifest); a real build downloads the real one.
Any other warning, and any error, fails the test.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
ESPHOME_DIR = REPO / "esphome"
BOARDS = ["esp32-s3-box-3.yaml", "esp32-s3-inmp441-max98357a.yaml", "m5stack-atom-echo.yaml"]
MODEL_URL = "https://github.com/esphome/micro-wake-word-models/raw/main/models/v2/{}.json"
MODELS = ["okay_nabu", "hey_jarvis"]
STOP_URL = "https://github.com/kahrendt/microWakeWord/releases/download/stop/stop.json"
# The only warnings allowed: ESPHome could not re-check a seeded wake word model because there is no network.
ALLOWED_WARNING = re.compile(
    r"^WARNING Could not (check if|download from) https://github\.com/(esphome/micro-wake-word-models/raw/main/"
    r"models/v2/(okay_nabu|hey_jarvis)|kahrendt/microWakeWord/releases/download/stop/stop)\.(json|tflite) "
    r".*using cached file$")
TIMEOUT = 300  # seconds per `esphome config` (each takes about 2 s offline)


def _model_dir() -> Path:
    """Folder of the microWakeWord models shipped by ``pymicro-wakeword`` (not imported: data only)."""
    spec = importlib.util.find_spec("pymicro_wakeword")
    assert spec is not None and spec.submodule_search_locations, (
        "pymicro-wakeword is missing from this env: pip install -r requirements/esphome.txt")
    return Path(list(spec.submodule_search_locations)[0]) / "models"


def seed_wake_word_models(config_dir: Path) -> None:
    """Put the okay_nabu and hey_jarvis models where ``esphome config`` caches their download."""
    for name in MODELS:
        url = MODEL_URL.format(name)
        cache = config_dir / ".esphome" / "micro_wake_word" / hashlib.sha256(url.encode()).hexdigest()[:8]
        cache.mkdir(parents=True, exist_ok=True)
        manifest = _model_dir() / f"{name}.json"
        shutil.copy(manifest, cache / "manifest.json")
        model_file = yaml.safe_load(manifest.read_text())["model"]
        shutil.copy(manifest.parent / model_file, cache / model_file)
    # The stop model's stand-in (see the module docstring).
    cache = config_dir / ".esphome" / "micro_wake_word" / hashlib.sha256(STOP_URL.encode()).hexdigest()[:8]
    cache.mkdir(parents=True, exist_ok=True)
    manifest = yaml.safe_load((_model_dir() / "okay_nabu.json").read_text())
    shutil.copy(_model_dir() / manifest["model"], cache / "stop.tflite")
    manifest.update(wake_word="Stop", model="stop.tflite")
    (cache / "manifest.json").write_text(json.dumps(manifest))


def used_secrets() -> set[str]:
    """Names used with ``!secret`` in the board files and packages."""
    names: set[str] = set()
    for path in [*ESPHOME_DIR.glob("*.yaml"), *ESPHOME_DIR.glob("packages/*.yaml")]:
        names |= set(re.findall(r"!secret\s+(\w+)", path.read_text()))
    return names


def write_secrets(config_dir: Path) -> None:
    """A temporary ``secrets.yaml`` with well-formed throwaway values for every secret."""
    values = {name: "test-password-123" for name in used_secrets()}
    values["wifi_ssid"] = "test-network"
    values["api_encryption_key"] = base64.b64encode(os.urandom(32)).decode()
    (config_dir / "secrets.yaml").write_text(yaml.safe_dump(values))


@pytest.fixture(scope="module")
def config_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of ``esphome/`` with a temporary secrets.yaml and the wake word models seeded."""
    target = tmp_path_factory.mktemp("esphome")
    shutil.copytree(ESPHOME_DIR, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".esphome", "secrets.yaml"))
    write_secrets(target)
    seed_wake_word_models(target)
    return target


def esphome_config(config_dir: Path, board: str) -> tuple[int, str, list[str]]:
    """Run ``esphome config <board>``; return (exit status, validated YAML on stdout, log lines)."""
    env = {k: v for k, v in os.environ.items() if k != "ESPHOME_DATA_DIR"}
    proc = subprocess.run([sys.executable, "-m", "esphome", "config", board], cwd=config_dir, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT, check=False)
    return proc.returncode, proc.stdout, proc.stderr.splitlines()


class _Loader(yaml.SafeLoader):
    """Reads ESPHome's printed config: ``!lambda``, ``!secret`` and friends become plain values."""


_Loader.add_multi_constructor("!", lambda loader, suffix, node: (
    loader.construct_scalar(node) if isinstance(node, yaml.ScalarNode) else
    loader.construct_sequence(node) if isinstance(node, yaml.SequenceNode) else loader.construct_mapping(node)))


def by_id(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """A component list keyed by id."""
    return {item["id"]: item for item in items if "id" in item}


def test_the_boards_are_all_here() -> None:
    assert sorted(p.name for p in ESPHOME_DIR.glob("*.yaml")) == BOARDS


def test_secrets_example_names_every_secret() -> None:
    example = yaml.safe_load((ESPHOME_DIR / "secrets.yaml.example").read_text())
    assert set(example) == used_secrets() and used_secrets() >= {"wifi_ssid", "wifi_password", "api_encryption_key"}
    assert not (ESPHOME_DIR / "secrets.yaml").exists() or "secrets.yaml" in (ESPHOME_DIR / ".gitignore").read_text()


def test_min_version_is_the_validated_esphome() -> None:
    pinned = re.search(r"^esphome==(\S+)$", (REPO / "requirements" / "esphome.txt").read_text(), re.M)
    base = yaml.safe_load((ESPHOME_DIR / "packages" / "base.yaml").read_text().replace("!secret", ""))
    assert pinned and base["esphome"]["min_version"] == pinned.group(1)


@pytest.mark.parametrize("board", BOARDS)
def test_board_config_is_valid(config_dir: Path, board: str) -> None:
    status, out, log = esphome_config(config_dir, board)
    assert status == 0, "\n".join(log[-60:])
    assert "INFO Configuration is valid!" in log
    unexpected = [line for line in log
                  if line.startswith(("WARNING", "ERROR")) and not ALLOWED_WARNING.match(line)]
    assert unexpected == [], "\n".join(unexpected)

    config = yaml.load(out, Loader=_Loader)  # noqa: S506 - our own loader, derived from SafeLoader
    # What the satellite must have (ESP-IDF, on-device wake words, phase lights, speaker, talk button, mute),
    # as ESPHome validated it.
    assert config["esp32"]["framework"]["type"] == "esp-idf"
    models = by_id(config["micro_wake_word"]["models"])
    assert set(models) == {*MODELS, "stop_word"}
    # The stop word: not offered as a wake word, enabled while the satellite speaks or a timer rings, and what
    # it does when heard: silence the timer, or stop the reply.
    assert models["stop_word"]["internal"] is True and not any(models[m]["internal"] for m in MODELS)
    detected = str(config["micro_wake_word"]["on_wake_word_detected"])
    assert "switch.turn_off" in detected and "media_player.stop" in detected and "voice_assistant.start" in detected
    assistant = config["voice_assistant"]
    assert assistant["media_player"] == "satellite_media_player" and assistant["micro_wake_word"] == "wake_word"
    for trigger in ("on_listening", "on_stt_vad_end", "on_tts_start", "on_error"):
        assert "show_phase" in str(assistant[trigger]), trigger
    assert "back_to_idle" in str(assistant["on_end"])
    # A continued conversation after push-to-talk listens again with silence detection.
    assert "ptt_turn" in str(assistant["on_listening"]) and "voice_assistant.start" in str(assistant["on_listening"])
    # Timers: a finished one rings (sound and light) until stopped.
    assert "timer_ringing" in str(assistant["on_timer_finished"])
    for trigger in ("on_timer_started", "on_timer_updated", "on_timer_cancelled"):
        assert assistant[trigger], trigger
    ringing = by_id(config["switch"])["timer_ringing"]
    assert "ring_timer" in str(ringing["on_turn_on"]) and "stop_word" in str(ringing["on_turn_on"])
    assert "timer_finished_sound" in str(by_id(config["script"])["ring_timer"])
    [player] = config["media_player"]
    assert player["platform"] == "speaker" and player["announcement_pipeline"]["speaker"] == "satellite_speaker"
    # Announcements from Home Assistant play on the media player and can be stopped with "stop".
    assert "stop_word" in str(player["on_announcement"])
    assert by_id(player["files"])["timer_finished_sound"]["file"]
    button = by_id(config["binary_sensor"])["talk_button"]
    assert "voice_assistant.start" in str(button["on_press"]) and "voice_assistant.stop" in str(button["on_release"])
    assert "silence_detection" in str(button["on_press"])
    mute = by_id(config["switch"])["mute"]
    assert mute["name"] == "Mute" and "micro_wake_word.stop" in str(mute["on_turn_on"])
    assert set(by_id(config["script"])) >= {"show_phase", "start_wake_word", "back_to_idle"}
    assert config["api"]["encryption"]["key"]
    assert by_id(config["microphone"])["satellite_mic"] and by_id(config["speaker"])["satellite_speaker"]


def test_a_board_missing_a_part_fails_validation(config_dir: Path) -> None:
    """The check above can fail: the Atom Echo without its feedback package has no `show_phase` script."""
    broken = config_dir / "broken-echo.yaml"
    text = (config_dir / "m5stack-atom-echo.yaml").read_text()
    assert "  feedback: !include packages/rgb_led.yaml\n" in text
    broken.write_text(text.replace("  feedback: !include packages/rgb_led.yaml\n", ""))
    try:
        status, out, log = esphome_config(config_dir, broken.name)
    finally:
        broken.unlink()
    assert status != 0
    report = out + "\n".join(log)  # ESPHome prints the failed config, with the error inline, on stdout
    assert "Failed config" in report and "show_phase" in report, report[-3000:]
