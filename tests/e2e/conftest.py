"""Fixtures of the end-to-end tests: HA core (phcc) in the test process, the real o1 server as a child process."""

from __future__ import annotations

import logging

import pytest

# pytest-homeassistant-custom-component turns SQLAlchemy's statement log on (INFO) when it loads, and the
# recorder's thread then prints every SQL statement, some of them outside pytest's capture. No test reads them.
logging.getLogger("sqlalchemy.engine").setLevel(logging.WARNING)

# Import the integration first, or HA's loader finds phcc's own testing custom_components.
import custom_components.o1  # noqa: F401
from tests.support.ha_fixtures import o1_server, scripted_llm  # noqa: F401  (session fixtures)


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations: None) -> None:
    """Let HA load the o1 custom integration."""
