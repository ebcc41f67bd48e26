"""The demo's result, as printed on stdout."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assist import Events, conversation_id, speech, stage_seconds, transcript
from audio import Pcm


@dataclass
class Outcome:
    """Everything the report shows about one spoken question."""

    audio_path: Path
    question: Pcm
    events: Events
    turn: dict[str, Any] | None  # the o1 server's record of the turn: code blocks and all
    reply_path: Path
    reply_note: str  # what was saved, or why nothing was
    reply_download: float  # seconds to download the reply audio (HA synthesizes it then)
    setup: dict[str, float]  # seconds of each setup stage, in order


def format_report(outcome: Outcome) -> str:
    """Return the human-readable result of the demo."""
    events = outcome.events
    run_total = stage_seconds(events, "run-start", "run-end") or 0.0
    tts_events = stage_seconds(events, "tts-start", "tts-end") or 0.0
    lines = [
        "",
        "=== o1 demo: a spoken question answered through Home Assistant ===",
        f"question audio : {outcome.audio_path} "
        f"({outcome.question.seconds:.1f} s, {outcome.question.rate} Hz)",
        f"transcript     : {transcript(events['stt-end']['data'])}",
        f"conversation   : {conversation_id(events)}",
        "code run by o1 :",
        *_code_block_lines(outcome.turn),
        f"answer         : {speech(events['intent-end']['data'])}",
        f"reply audio    : {outcome.reply_path} ({outcome.reply_note})",
        "timings (HA's event timestamps):",
        f"  speech-to-text  {_secs(stage_seconds(events, 'stt-start', 'stt-end'))}"
        "  stt-start -> stt-end, includes streaming the question",
        f"  agent (intent)  {_secs(stage_seconds(events, 'intent-start', 'intent-end'))}"
        "  intent-start -> intent-end: the o1 turn (LLM + code)",
        f"  text-to-speech  {_secs(tts_events + outcome.reply_download)}"
        f"  tts events {_secs(tts_events).strip()} + synthesis during the reply download "
        f"{_secs(outcome.reply_download).strip()}",
        f"  total           {_secs(run_total + outcome.reply_download)}"
        f"  pipeline run {_secs(run_total).strip()} + reply download",
        "  setup, before the question:",
        *[f"    {name:<42s}{_secs(secs)}" for name, secs in outcome.setup.items()],
        "",
    ]
    return "\n".join(lines)


def _code_block_lines(turn: dict[str, Any] | None) -> list[str]:
    """Return the lines describing the code blocks of a turn."""
    if turn is None:
        return ["  (the o1 server has no record of this conversation)"]
    blocks = turn.get("code_blocks") or []
    if not blocks:
        return ["  (none: the agent answered without running code)"]
    lines = []
    for number, block in enumerate(blocks, 1):
        category = ", ".join(block.get("category") or [])
        ran = f", ran {block['seconds']:.1f} s" if block.get("seconds") is not None else ""
        lines.append(f"  [{number}] {block.get('language')}: decision {block.get('decision')}"
                     f"{f' ({category})' if category else ''}, exit status {block.get('exit_status')}{ran}")
        lines += [f"      | {line}" for line in (block.get("code") or "").rstrip().splitlines()]
        lines.append("      output:")
        output = (block.get("output") or "").rstrip()
        lines += [f"      > {line}" for line in output.splitlines()] or ["      > (nothing)"]
    return lines


def _secs(value: float | None) -> str:
    """Format seconds for the report."""
    return "   n/a" if value is None else f"{value:5.1f} s"
