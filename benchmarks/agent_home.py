"""The agent benchmark's home requests, run in a real Home Assistant (the HA env, phcc) through the o1
conversation agent, the way a user's Assist request reaches o1.

benchmarks/agent.py runs this file with pytest in the Home Assistant env (a harness, not a test suite: it is
never collected by ``make test`` and asserts nothing about the agent's answers)::

    ~/.cache/o1/ha-venv/bin/python -m pytest benchmarks/agent_home.py -o python_functions='bench_*'

with ``O1_BENCH_URL``/``O1_BENCH_TOKEN`` (the o1 server already running on the model under test),
``O1_BENCH_CASES`` (comma-separated ids of the ``needs_ha`` cases of benchmarks/agent_cases.py) and
``O1_BENCH_OUT`` (a JSON-lines file that gets one row per case). Each case gets a fresh Home Assistant holding
the test home of tests/support/ha_home.py (exposed Kitchen Light, Front Door lock and Outside Temperature; an
unexposed Garage Light), set to the case's ``ha_initial`` flags, and an o1 config entry with the shipped
``home`` profile's agent. Generated code reaches that Home Assistant only through the o1 server's broker and
the integration's relay (HA's LLM API tools). After the conversation the case's check sees the answers, the
code blocks (from the server's conversation API) and every entity's state.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
import uuid
from pathlib import Path

import pytest

# Import the integration first, or HA's loader finds phcc's own testing custom_components.
import custom_components.o1  # noqa: F401
from benchmarks.agent_cases import CASES, Result
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from tests.support.ha_home import home_states, set_up_home

SELECTED = [c for c in CASES if c.needs_ha and c.id in os.environ.get("O1_BENCH_CASES", "").split(",")]


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations: None) -> None:
    """Let HA load the o1 custom integration."""


@pytest.mark.parametrize("case", SELECTED, ids=[c.id for c in SELECTED])
async def bench_home_case(hass: HomeAssistant, socket_enabled: None, case) -> None:  # noqa: ANN001
    """Run one home conversation and append its row (answers, code, states, turn times) to O1_BENCH_OUT."""
    url, token = os.environ["O1_BENCH_URL"], os.environ["O1_BENCH_TOKEN"]
    row: dict = {"id": case.id, "kind": case.kind, "answers": [], "code": [], "errors": [], "turn_times": []}
    result = Result([], [], Path(tempfile.gettempdir()))
    try:
        agent_id = await set_up_home(hass, url, token, ("home",), initial=case.ha_initial)
        cid = f"bench-{case.id}-{uuid.uuid4().hex[:8]}"
        for text in case.turns:
            start = time.monotonic()
            reply = await conversation.async_converse(hass, text, cid, Context(), language="en",
                                                      agent_id=agent_id)
            row["turn_times"].append(time.monotonic() - start)
            await hass.async_block_till_done()
            cid = reply.conversation_id or cid
            result.answers.append(str(reply.response.speech.get("plain", {}).get("speech", "")))
            if reply.response.error_code is not None:
                result.errors.append(f"{reply.response.error_code}: {result.answers[-1]}")
        async with async_get_clientsession(hass).get(
                f"{url}/api/conversation/{cid}", headers={"Authorization": f"Bearer {token}"}) as r:
            turns = (await r.json())["turns"] if r.status == 200 else []
        result.replies = turns[-len(case.turns):] if turns else []
        result.states = home_states(hass)
        ok = bool(case.check(result)) and not result.errors
    except Exception as err:  # noqa: BLE001  a case that breaks counts as wrong, with the reason kept
        result.errors.append(repr(err))
        ok = False
    row.update(ok=ok, answers=result.answers, errors=result.errors, states=result.states,
               code=[[b.get("code", "") for b in t.get("code_blocks", [])] for t in result.replies])
    with open(os.environ["O1_BENCH_OUT"], "a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")
