"""Helpers shared by the server tests (a module of its own: conftest is not for importing)."""

from __future__ import annotations

import time
from typing import Any

import pytest


def wait_for(
    client: Any, gid: str, predicate: Any, seconds: float = 30.0, every: float = 0.05
) -> dict[str, Any]:
    """Poll the spectator view of game ``gid`` until ``predicate(view)``; that view."""
    deadline = time.monotonic() + seconds
    view = None
    while time.monotonic() < deadline:
        view = client.get(f"/api/games/{gid}").json()
        if predicate(view):
            return view
        time.sleep(every)
    pytest.fail(f"game {gid} did not get there: {view}")
