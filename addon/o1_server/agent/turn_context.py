"""The turn context: the system text each turn gets after the worked examples (today's date, the home, the
folder's files, the agent's instructions), kept out of the history (see ``OpenInterpreterBackend._with_context``)."""

from __future__ import annotations

import datetime


def turn_context(home: str = "", folder: str = "", instructions: str = "") -> str:
    """A turn's extra system text (see ``Session._set_turn_context``): :func:`today_line`, then the home's context,
    the folder's files and the agent's instructions, one per line, each left out when empty."""
    return "\n".join(text for text in (today_line(), home, folder, instructions) if text)


def today_line(today: datetime.date | None = None) -> str:
    """The turn context's first line: "Today is Tuesday, 2026-12-01." (English weekday, ISO date; ``today``:
    the server's local date by default). Small models otherwise assume the year they were trained in: told
    only the year, the embedded model still counted "days until Christmas" to 25 December 2027 on 1 December
    2026 (benchmarks/agent, dev split). The line changes once a day, so llama.cpp's prompt cache keeps the
    system message before it."""
    day = today or datetime.date.today()
    return f"Today is {day:%A}, {day.isoformat()}."
