"""The actions README.md's YAML examples call are valid for the real services they name: each `data` passes
the schema Home Assistant registered for the action (o1's own and ai_task.generate_data)."""

from __future__ import annotations

import re

from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from .test_package import REPO


def _readme_actions() -> list[tuple[str, str, dict[str, object]]]:
    """Return (domain, service, data) of each action step in README.md's yaml blocks."""
    import yaml

    steps: list[tuple[str, str, dict[str, object]]] = []
    for block in re.findall(r"```yaml\n(.*?)```", (REPO / "README.md").read_text(), re.S):
        loaded = yaml.safe_load(re.sub(r"^  ", "", block, flags=re.M))
        for step in loaded if isinstance(loaded, list) else []:
            if isinstance(step, dict) and "action" in step:
                domain, service = step["action"].split(".", 1)
                steps.append((domain, service, step.get("data") or {}))
    return steps


async def test_readme_actions_pass_their_service_schemas(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """o1.ask and ai_task.generate_data examples validate against the schemas Home Assistant registered."""
    assert await async_setup_component(hass, "ai_task", {})
    services = hass.services.async_services()
    checked = set()
    for domain, service, data in _readme_actions():
        if domain not in ("o1", "ai_task"):
            continue  # notify.notify and the like: not this integration's
        schema = services[domain][service].schema
        assert schema is not None
        schema(data)
        checked.add(f"{domain}.{service}")
    assert checked == {"o1.ask", "ai_task.generate_data"}
