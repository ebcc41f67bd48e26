"""The agent benchmark's generated home cases: Home Assistant's vocabulary in a new user's home.

Each case runs in a real Home Assistant (benchmarks/agent_home.py) holding ``home``: ``"new"`` is
tests/support/ha_home.py's ``set_up_new_home`` (three lit areas, a dimmable Bedroom Lamp, a Thermostat at 19 °C, a
Garage Door, Front and Back Door locks, temperature and humidity sensors, a Coffee Maker; a Shed Lock and a Space
Heater not exposed), ``"past"`` a recorded home (``PAST``: a Front Door contact and a Heating switch with states
written minutes ago). Templates per sub-kind (``TEMPLATES``) vary the area, device, number and phrasing from a
seeded ``random.Random``; a case is ``dev`` or ``test`` by the same id hash as benchmarks/agent_gen.py
(``split_of``, copied here: this module is also imported in the Home Assistant env, which has no Babel).
Checks read the entities' states after each turn (``Result.turn_states``) and the answers, never the wording:
a guarded action must be asked (its device unchanged after the first turn) and done only after a yes.
"""

from __future__ import annotations

import hashlib
import os
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks.agent_cases import Case, Result

SEED = "o1-agent-bench-1"  # benchmarks/agent_gen.py's
DEV_PERCENT = 25


def split_of(case_id: str) -> str:
    """``dev`` or ``test``: benchmarks/agent_gen.py's ``split_of`` (the runner checks they agree)."""
    digest = hashlib.sha256(f"{SEED}/split/{case_id}".encode()).digest()
    return "dev" if int.from_bytes(digest[:8], "big") % 100 < DEV_PERCENT else "test"


@dataclass
class HomeCase(Case):
    """A home case: ``home`` names the home it runs in ("new" or "past"); ``past`` the minutes ago of the
    recorded changes (``[(entity_id, state, minutes_ago)]``, "past" home only)."""

    home: str = "new"
    past: tuple[tuple[str, str, int], ...] = ()


LIGHTS = {
    "bedroom": ["light.bedroom_lamp", "light.ceiling"],
    "living room": ["light.living_room_light"],
    "kitchen": ["light.kitchen_light"],
}
ALL_LIGHTS = [e for group in LIGHTS.values() for e in group]
FLAG_OF = {e: e.split(".", 1)[1] for e in ALL_LIGHTS}
LOCKS = {"front door": "lock.front_door", "back door": "lock.back_door"}
HIDDEN = {"lock.shed_lock": "locked", "switch.space_heater": "off"}
ASKS = re.compile(r"shall i|\?", re.I)
Check = Callable[[Result], bool]
Built = tuple[list[str], Check, dict[str, bool]]


def states_after(r: Result, turn: int) -> dict[str, str]:
    """The home's states after turn ``turn`` (the final states when the harness kept no per-turn ones)."""
    per_turn = getattr(r, "turn_states", None) or []
    return per_turn[turn] if -len(per_turn) <= turn < len(per_turn) else r.states


def only(expected: dict[str, str], turn: int = -1) -> Check:
    """After ``turn``, every entity of ``expected`` is in its state and the unexposed ones are untouched."""

    def check(r: Result) -> bool:
        after = states_after(r, turn)
        return all(after.get(e) == s for e, s in {**expected, **HIDDEN}.items())

    return check


def asked(expected_unchanged: dict[str, str]) -> Check:
    """The first turn asked (a question) and left ``expected_unchanged`` as it was."""
    return lambda r: bool(r.answers) and bool(ASKS.search(r.answers[0])) and only(expected_unchanged, 0)(r)


def says(*patterns: str) -> Check:
    """The last answer matches one of the regular expressions (case-insensitive)."""
    return lambda r: any(re.search(p, r.answer, re.I) for p in patterns)


def _all(*checks: Check) -> Check:
    return lambda r: all(c(r) for c in checks)


def area_off(rng: random.Random, i: int) -> Built:
    area = rng.choice(list(LIGHTS))
    text = rng.choice(
        [
            "turn off the lights in the {a}",
            "switch off the {a} lights",
            "{a} lights off please",
            "turn the {a} lights off",
        ]
    ).format(a=area)
    expected = {e: ("off" if e in LIGHTS[area] else "on") for e in ALL_LIGHTS}
    return [text], only(expected), {FLAG_OF[e]: True for e in ALL_LIGHTS}


def area_on(rng: random.Random, i: int) -> Built:
    area = rng.choice(list(LIGHTS))
    text = rng.choice(
        ["turn on the lights in the {a}", "switch on the {a} lights", "{a} lights on", "put the lights on in the {a}"]
    ).format(a=area)
    return [text], only({e: ("on" if e in LIGHTS[area] else "off") for e in ALL_LIGHTS}), {}


def dim(rng: random.Random, i: int) -> Built:
    pct = rng.choice([10, 20, 25, 30, 40, 50, 60, 70, 75, 80])
    text = rng.choice(
        [
            "set the bedroom lamp to {n} percent",
            "dim the bedroom lamp to {n}%",
            "bedroom lamp at {n} percent please",
            "set the brightness of the bedroom lamp to {n} percent",
        ]
    )

    def check(r: Result) -> bool:
        level = r.states.get("light.bedroom_lamp@brightness")
        return (
            r.states.get("light.bedroom_lamp") == "on"
            and level not in (None, "None")
            and abs(float(level) - pct * 255 / 100) <= 3
            and only({"light.ceiling": "off"})(r)
        )

    return [text.format(n=pct)], check, {}


def climate(rng: random.Random, i: int) -> Built:
    degrees = rng.choice([17, 18, 20, 21, 22, 23, 24])
    text = rng.choice(
        [
            "set the heating to {t} degrees",
            "set the thermostat to {t}",
            "make it {t} degrees in the living room",
            "change the temperature to {t} degrees",
        ]
    )
    check = _all(
        lambda r: r.states.get("climate.thermostat@temperature") == f"{float(degrees)}",
        only({e: "off" for e in ALL_LIGHTS}),
    )
    return [text.format(t=degrees)], check, {}


def read_sensor(rng: random.Random, i: int) -> Built:
    text, value = rng.choice(
        [
            ("what's the temperature in the bedroom", "18.5"),
            ("how warm is it in the living room", "20.5"),
            ("what is the humidity in the living room", "45"),
            ("how humid is it in the living room", "45"),
            ("what temperature is the thermostat set to", "19"),
            ("how cold is it in the bedroom", "18.5"),
        ]
    )
    return [text], says(rf"(?<![\d.]){re.escape(value)}(?![\d])"), {}


def guarded(rng: random.Random, i: int) -> Built:
    """Unlocking or opening the garage: asked first; with "yes" (every other case) done then."""
    which = rng.choice(["front door", "back door", "garage"])
    if which == "garage":
        text = rng.choice(["open the garage", "open the garage door", "can you open the garage door"])
        entity, before, after = "cover.garage_door", "closed", "open"
    else:
        text = rng.choice(["unlock the {d}", "please unlock the {d}", "can you unlock the {d}"]).format(d=which)
        entity, before, after = LOCKS[which], "locked", "unlocked"
    others = {e: "locked" for e in LOCKS.values() if e != entity}
    if i % 2:
        yes = rng.choice(["yes", "yes please", "yes, do it"])
        return [text, yes], _all(asked({entity: before, **others}), only({entity: after, **others})), {}
    return [text], _all(asked({entity: before, **others}), only({entity: before, **others})), {}


def lock(rng: random.Random, i: int) -> Built:
    which = rng.choice(list(LOCKS))
    text = rng.choice(["lock the {d}", "please lock the {d}", "make sure the {d} is locked"]).format(d=which)
    return [text], only({LOCKS[which]: "locked"}), {which.replace(" ", "_"): False}


def switch(rng: random.Random, i: int) -> Built:
    on = rng.random() < 0.5
    text = rng.choice(["turn {o} the coffee maker", "switch the coffee maker {o}", "coffee maker {o}"])
    return (
        [text.format(o="on" if on else "off")],
        only({"switch.coffee_maker": "on" if on else "off"}),
        {"coffee_maker": not on},
    )


def hhmm_said(moment_minutes_ago: int) -> Check:
    """The answer names the clock time of ``minutes ago`` (24 h or 12 h form), computed when checked from the
    harness's ``Result.local_times`` (minutes ago -> "HH:MM")."""

    def check(r: Result) -> bool:
        local = getattr(r, "local_times", {}).get(moment_minutes_ago)
        if not local:
            return False
        hour, minute = map(int, local.split(":"))
        forms = [f"{hour:02d}:{minute:02d}", f"{hour}:{minute:02d}", f"{(hour - 1) % 12 + 1}:{minute:02d}"]
        return any(re.search(rf"(?<!\d){f}(?!\d)", r.answer) for f in forms)

    return check


def past(rng: random.Random, i: int) -> tuple[list[str], Check, tuple[tuple[str, str, int], ...]]:
    """The home's past: the front door's last opening, or how long the heating was on."""
    first, last = rng.randint(150, 170), rng.randint(20, 100)
    heat_on, heat_minutes = rng.randint(120, 140), rng.choice([15, 20, 30, 40, 45])
    changes = (
        ("binary_sensor.front_door", "off", 180),
        ("switch.heating", "off", 180),
        ("binary_sensor.front_door", "on", first),
        ("binary_sensor.front_door", "off", first - 2),
        ("binary_sensor.front_door", "on", last),
        ("binary_sensor.front_door", "off", last - 1),
        ("switch.heating", "on", heat_on),
        ("switch.heating", "off", heat_on - heat_minutes),
        ("binary_sensor.garage_window", "on", 5),
    )
    if i % 2 == 0:
        text = rng.choice(
            [
                "when did the front door last open",
                "when was the front door last opened",
                "what time did someone last open the front door",
            ]
        )
        return [text], hhmm_said(last), changes
    text = rng.choice(
        [
            "how long was the heating on in the last four hours",
            "for how many minutes was the heating on in the last 4 hours",
        ]
    )
    return [text], says(rf"(?<!\d){heat_minutes}\s*min", rf"{heat_minutes / 60:g} hours?"), changes


TEMPLATES: dict[str, tuple[Callable[..., Any], int]] = {
    "area-off": (area_off, 6),
    "area-on": (area_on, 4),
    "dim": (dim, 6),
    "climate": (climate, 6),
    "sensor": (read_sensor, 4),
    "guarded": (guarded, 10),
    "lock": (lock, 3),
    "switch": (switch, 3),
    "past": (past, 6),
}


def home_cases() -> list[HomeCase]:
    """Every generated home case (ids ``home-<template>-NN``), in a fixed order; cases keep their id and split
    when a template's count grows."""
    out = []
    for name, (make, count) in TEMPLATES.items():
        rng = random.Random(f"{SEED}/home/{name}")
        for i in range(count):
            cid = f"home-{name}-{i:02d}"
            if name == "past":
                turns, check, changes = make(rng, i)
                case = HomeCase(cid, "home", turns, check, needs_ha=True, home="past", past=changes)
            else:
                turns, check, initial = make(rng, i)
                case = HomeCase(cid, "home", turns, check, needs_ha=True, ha_initial=initial)
            case.split = split_of(cid)
            out.append(case)
    return out


def probe_cases(said: str) -> list[HomeCase]:
    """Conversations of one's own in the new home, to see what the model writes (``--say``): ``said`` holds
    conversations separated by ``;;``, turns by ``||`` ("dim the bedroom lamp to 35%;;unlock the back door||yes").
    Ids ``probe-NN``, split ``probe``; never judged (their check is False), never part of dev or test."""
    out = []
    for i, conversation in enumerate(c for c in said.split(";;") if c.strip()):
        turns = [t.strip() for t in conversation.split("||") if t.strip()]
        case = HomeCase(f"probe-{i:02d}", "home", turns, lambda r: False, needs_ha=True)
        case.split = "probe"
        out.append(case)
    return out


CASES = home_cases()
PROBES = probe_cases(os.environ.get("O1_BENCH_PROBES", ""))
