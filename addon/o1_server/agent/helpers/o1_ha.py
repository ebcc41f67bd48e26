"""Home Assistant from generated code: ``import o1_ha``.

A small helper the agent's code can import inside the sandbox. It talks to Home Assistant's REST API
(https://developers.home-assistant.io/docs/api/rest/) with the URL and token the o1 server hands to the
sandboxed process (``O1_HA_URL``, ``O1_HA_TOKEN``), limited by the profile's access level
(``O1_HA_ACCESS``: ``none``, ``read`` or ``control``). Standard library only.

    import o1_ha
    print(o1_ha.get_state("light.kitchen")["state"])
    o1_ha.call_service("light", "turn_on", entity_id="light.kitchen", brightness_pct=40)

Errors: ``PermissionError`` when the profile's access level does not allow the call, ``LookupError`` for an
unknown entity, ``ConnectionError`` when Home Assistant cannot be reached or answers with an error.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from typing import Any

TIMEOUT = 10.0  # seconds per request


def _config() -> tuple[str, str, str]:
    return (os.environ.get("O1_HA_URL", "").rstrip("/"), os.environ.get("O1_HA_TOKEN", ""),
            os.environ.get("O1_HA_ACCESS", "none"))


def _request(method: str, path: str, body: dict[str, Any] | None = None, need: str = "read") -> Any:
    url, token, access = _config()
    allowed = {"none": set(), "read": {"read"}, "control": {"read", "control"}}.get(access, set())
    if need not in allowed:
        raise PermissionError(f"this profile's Home Assistant access is '{access}', '{need}' is needed")
    if not url or not token:
        raise ConnectionError("no Home Assistant URL or token is configured for o1")
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"{url}/api/{path}", data=data, method=method, headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as err:
        if err.code == 404:
            raise LookupError(f"Home Assistant has no {path}") from None
        raise ConnectionError(f"Home Assistant answered {err.code} for {path}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as err:
        raise ConnectionError(f"cannot reach Home Assistant: {err}") from None


def get_state(entity_id: str) -> dict[str, Any]:
    """Return one entity's state object: ``{"entity_id", "state", "attributes", "last_changed", ...}``."""
    return _request("GET", f"states/{entity_id}")


def states(domain: str | None = None) -> list[dict[str, Any]]:
    """Return every entity's state object, or those of one domain (``"light"``, ``"sensor"``...)."""
    found = _request("GET", "states")
    return [s for s in found if domain is None or s["entity_id"].startswith(f"{domain}.")]


def call_service(domain: str, service: str, **data: Any) -> list[dict[str, Any]]:
    """Call a Home Assistant service (needs 'control' access); return the states it changed."""
    return _request("POST", f"services/{domain}/{service}", data, need="control")
