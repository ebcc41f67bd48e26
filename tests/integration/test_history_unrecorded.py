"""Reads of the home's past in a Home Assistant without its recorder: a clear refusal that names what is
missing, never an exception or an empty history that looks like "nothing happened"."""

from __future__ import annotations

from datetime import timedelta
from custom_components.o1.home import HomeToolRunner
from homeassistant.core import Context, HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util

DOOR = "binary_sensor.front_door"


def period() -> dict[str, str]:
    now = dt_util.utcnow()
    return {"start": (now - timedelta(hours=2)).isoformat(), "end": now.isoformat()}


async def test_without_the_recorder_history_is_refused(hass: HomeAssistant) -> None:
    assert await async_setup_component(hass, "homeassistant", {})
    assert "recorder" not in hass.config.components
    tools = HomeToolRunner(hass, None, Context(), may_control=False)
    for name, args in (("o1.history", {"entity_ids": [DOOR], **period()}),
                       ("o1.logbook", {"entity_ids": [DOOR], **period()})):
        answer = await tools.async_run(name, args)
        assert answer == {"error": "denied",
                          "message": "Home Assistant's recorder is not running, so it keeps no history."}, name
