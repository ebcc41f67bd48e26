"""The agent benchmark's home requests in a real Home Assistant (the HA env, phcc), the way Assist reaches o1.

benchmarks/agent.py and benchmarks/agent_home_run.py run this file with pytest in the HA env (a harness, never
collected by ``make test``): ``pytest benchmarks/agent_home.py -o python_functions='bench_*'`` with
``O1_BENCH_URL``/``O1_BENCH_TOKEN`` (the o1 server on the model under test), ``O1_BENCH_CASES`` (ids of
``needs_ha`` cases of benchmarks/agent_cases.py or agent_home_cases.py), ``O1_BENCH_OUT`` (JSON lines, a row per
case) and ``O1_BENCH_MODE``: ``o1`` (the o1 ``home`` agent; default), ``builtin`` (HA's own agent alone) or
``local`` (an Assist pipeline that prefers HA's sentences, o1 for the rest). Each case gets a fresh HA with its
home (tests/support/ha_home.py: the test home, the new user's home, or a recorded home for the past) set to the
case's flags. A row holds the answers, the code blocks (the server's conversation API), the states after each
turn and the turn times.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util

# Import the integration first, or HA's loader finds phcc's own testing custom_components.
import custom_components.o1  # noqa: F401
from benchmarks.agent_cases import CASES, Result
from benchmarks.agent_home_cases import CASES as HOME_CASES
from benchmarks.agent_home_cases import PROBES
from tests.support.ha_home import add_o1_entry, home_states, new_home_states, set_up_home, set_up_new_home

WANTED = os.environ.get("O1_BENCH_CASES", "").split(",")
SELECTED = [
    c for c in CASES + HOME_CASES + PROBES if c.needs_ha and c.id in WANTED and getattr(c, "home", "") != "past"
]
SELECTED_PAST = [c for c in HOME_CASES if c.id in WANTED and c.home == "past"]
MODE = os.environ.get("O1_BENCH_MODE", "o1")
BUILTIN_AGENT = "conversation.home_assistant"
PAST_NAMES = {
    "binary_sensor.front_door": ("Front Door", "door"),
    "switch.heating": ("Heating", None),
    "binary_sensor.garage_window": ("Garage Window", "window"),
}
PAST_HIDDEN = "binary_sensor.garage_window"


class Turns:
    """How a case's turns are said: to one agent through HA's conversation API, or through an Assist pipeline
    that prefers HA's own sentences (``local``). ``say`` returns (answer, conversation id, handled locally)."""

    def __init__(self, hass: HomeAssistant, agent_id: str, ws: Any = None, pipeline: str | None = None) -> None:
        self.hass, self.agent_id, self.ws, self.pipeline = hass, agent_id, ws, pipeline

    async def say(self, text: str, cid: str) -> tuple[str, str, bool | None, str | None]:
        if self.pipeline is None:
            reply = await conversation.async_converse(
                self.hass, text, cid, Context(), language="en", agent_id=self.agent_id
            )
            error = None if reply.response.error_code is None else str(reply.response.error_code)
            return (
                str(reply.response.speech.get("plain", {}).get("speech", "")),
                reply.conversation_id or cid,
                None,
                error,
            )
        await self.ws.send_json_auto_id(
            {
                "type": "assist_pipeline/run",
                "start_stage": "intent",
                "end_stage": "intent",
                "input": {"text": text},
                "pipeline": self.pipeline,
                "conversation_id": cid,
                "timeout": 120,
            }
        )
        assert (await self.ws.receive_json())["success"]
        ended: dict[str, Any] = {}
        while True:
            event = (await self.ws.receive_json())["event"]
            if event["type"] == "error":
                return "", cid, None, str(event.get("data"))
            if event["type"] == "intent-end":
                ended = event["data"]
            if event["type"] == "run-end":
                break
        out = ended.get("intent_output") or {}
        said = out.get("response", {}).get("speech", {}).get("plain", {}).get("speech", "")
        return str(said), out.get("conversation_id") or cid, ended.get("processed_locally"), None


async def turns_for(hass: HomeAssistant, o1_agent: str, ws_client: Any) -> Turns:
    """The Turns of this run's ``MODE``."""
    if MODE == "builtin":
        return Turns(hass, BUILTIN_AGENT)
    if MODE != "local":
        return Turns(hass, o1_agent)
    assert await async_setup_component(hass, "assist_pipeline", {})
    ws = await ws_client(hass)
    await ws.send_json_auto_id(
        {
            "type": "assist_pipeline/pipeline/create",
            "name": "local first",
            "language": "en",
            "conversation_engine": o1_agent,
            "conversation_language": "en",
            "prefer_local_intents": True,
            "stt_engine": None,
            "stt_language": None,
            "tts_engine": None,
            "tts_language": None,
            "tts_voice": None,
            "wake_word_entity": None,
            "wake_word_id": None,
        }
    )
    created = await ws.receive_json()
    assert created["success"], created
    return Turns(hass, o1_agent, ws, created["result"]["id"])


async def run_case(
    hass: HomeAssistant,
    case,
    agent_id: str,
    ws_client: Any,
    states,
    result: Result,
    row: dict[str, Any],
) -> None:
    """Say the case's turns; fill ``result`` (answers, per-turn states, replies) and ``row``."""
    url, token = os.environ["O1_BENCH_URL"], os.environ["O1_BENCH_TOKEN"]
    turns = await turns_for(hass, agent_id, ws_client)
    cid = f"bench-{case.id}-{uuid.uuid4().hex[:8]}"
    result.turn_states = []  # type: ignore[attr-defined]
    for text in case.turns:
        start = time.monotonic()
        answer, cid, local, error = await turns.say(text, cid)
        row["turn_times"].append(time.monotonic() - start)
        row["local"].append(local)
        await hass.async_block_till_done()
        result.answers.append(answer)
        result.turn_states.append(states(hass))  # type: ignore[attr-defined]
        if error is not None:
            result.errors.append(f"{error}: {answer}")
    if MODE != "builtin":
        async with async_get_clientsession(hass).get(
            f"{url}/api/conversation/{cid}", headers={"Authorization": f"Bearer {token}"}
        ) as r:
            replies = (await r.json())["turns"] if r.status == 200 else []
        result.replies = replies[-len(case.turns) :] if replies else []
    result.states = states(hass)


def write_row(case, result: Result, row: dict[str, Any]) -> None:
    """Judge the case and append its row to O1_BENCH_OUT."""
    try:
        ok = bool(case.check(result)) and not result.errors
    except Exception as err:  # noqa: BLE001  a check that trips over an odd answer counts as wrong
        result.errors.append(repr(err))
        ok = False
    row.update(
        ok=ok,
        answers=result.answers,
        errors=result.errors,
        states=result.states,
        turn_states=getattr(result, "turn_states", []),
        code=[[b.get("code", "") for b in t.get("code_blocks", [])] for t in result.replies],
    )
    with open(os.environ["O1_BENCH_OUT"], "a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")


def new_row(case) -> dict[str, Any]:
    return {
        "id": case.id,
        "kind": case.kind,
        "mode": MODE,
        "answers": [],
        "code": [],
        "errors": [],
        "turn_times": [],
        "local": [],
    }


@pytest.mark.parametrize("case", SELECTED, ids=[c.id for c in SELECTED])
async def bench_home_case(
    enable_custom_integrations: None, hass: HomeAssistant, socket_enabled: None, hass_ws_client: Any, case
) -> None:
    """Run one home conversation and append its row (answers, code, states, turn times) to O1_BENCH_OUT."""
    url, token = os.environ["O1_BENCH_URL"], os.environ["O1_BENCH_TOKEN"]
    row, result = new_row(case), Result([], [], Path(tempfile.gettempdir()))
    try:
        if getattr(case, "home", "") == "new":
            agent_id = await set_up_new_home(hass, url, token, ("home",), initial=case.ha_initial)
            states = new_home_states
        else:
            agent_id = await set_up_home(hass, url, token, ("home",), initial=case.ha_initial)
            states = home_states
        await run_case(hass, case, agent_id, hass_ws_client, states, result, row)
    except Exception as err:  # noqa: BLE001  a case that breaks counts as wrong, with the reason kept
        result.errors.append(repr(err))
    write_row(case, result, row)


@pytest.mark.parametrize("case", SELECTED_PAST, ids=[c.id for c in SELECTED_PAST])
async def bench_home_past_case(
    recorder_mock: Any,
    enable_custom_integrations: None,
    hass: HomeAssistant,
    socket_enabled: None,
    hass_ws_client: Any,
    case,
) -> None:
    """A question about the home's past: the case's changes written with their timestamps, recorder on."""
    from pytest_homeassistant_custom_component.components.recorder.common import async_wait_recording_done

    url, token = os.environ["O1_BENCH_URL"], os.environ["O1_BENCH_TOKEN"]
    row, result = new_row(case), Result([], [], Path(tempfile.gettempdir()))
    try:
        await hass.config.async_set_time_zone("Europe/Amsterdam")
        for component in ("homeassistant", "conversation", "intent"):
            assert await async_setup_component(hass, component, {})
        now = dt_util.utcnow().replace(second=0, microsecond=0)
        for entity_id, state, minutes in sorted(case.past, key=lambda c: -c[2]):
            name, klass = PAST_NAMES[entity_id]
            hass.states.async_set(
                entity_id,
                state,
                {"friendly_name": name, **({"device_class": klass} if klass else {})},
                timestamp=(now - timedelta(minutes=minutes)).timestamp(),
            )
        await hass.async_block_till_done()
        await async_wait_recording_done(hass)
        for entity_id in PAST_NAMES:
            async_expose_entity(hass, conversation.DOMAIN, entity_id, entity_id != PAST_HIDDEN)
        result.local_times = {
            m: dt_util.as_local(now - timedelta(minutes=m)).strftime("%H:%M")  # type: ignore[attr-defined]
            for _, _, m in case.past
        }
        agent_id = await add_o1_entry(hass, url, token)
        await run_case(
            hass,
            case,
            agent_id,
            hass_ws_client,
            lambda h: {e: s.state for e in PAST_NAMES if (s := h.states.get(e))},
            result,
            row,
        )
    except Exception as err:  # noqa: BLE001
        result.errors.append(repr(err))
    write_row(case, result, row)
