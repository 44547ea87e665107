"""Shared test settings: hypothesis profiles sized for a 2-core CI machine, the markers that
make a fast loop one command, and skipping whole folders whose extras are not installed."""

from __future__ import annotations

import importlib.util
import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

# bots move at once in the tests (a served game paces them for people: LUDUS_BOT_PACE)
os.environ.setdefault("LUDUS_BOT_PACE", "0")

# folders that need an extra: with only ``.[test]`` installed they are left out, not failed
_EXTRAS = {
    "server": ("server", ("fastapi", "sqlalchemy", "httpx")),
    "web": ("server", ("fastapi", "sqlalchemy", "uvicorn")),
    "rl": ("rl", ("numpy", "gymnasium", "pettingzoo")),
}
_MISSING = {
    folder: extra
    for folder, (extra, modules) in _EXTRAS.items()
    if any(importlib.util.find_spec(m) is None for m in modules)
}
collect_ignore_glob = [f"{folder}/*" for folder in _MISSING]


def pytest_report_header(config: pytest.Config) -> list[str]:
    return [f"tests/{folder} left out: install ludus[{extra}]" for folder, extra in _MISSING.items()]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``browser`` for the Chromium tests, ``postgres`` for those on a PostgreSQL server."""
    for item in items:
        path = str(item.path)
        if "/tests/web/" in path:
            item.add_marker(pytest.mark.browser)
        callspec = getattr(item, "callspec", None)
        if "postgres_url" in item.fixturenames or (
            callspec is not None and callspec.params.get("database_url") == "postgresql"
        ):
            item.add_marker(pytest.mark.postgres)
