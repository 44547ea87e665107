"""Helpers of the tables' tests: accounts on devices of their own, views and moves by session or token."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

PASSWORD = "correct horse battery"


def person(client: TestClient, name: str) -> TestClient:
    """A device of its own (cookies) signed up as ``name``."""
    device = TestClient(client.app)
    r = device.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return device


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def view(device: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    r = device.get(f"/api/games/{game_id}", headers=bearer(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def created(device: TestClient, **body: Any) -> dict[str, Any]:
    r = device.post("/api/games", json={"game": "garum", **body})
    assert r.status_code == 201, r.text
    return r.json()


def statuses(device: TestClient) -> dict[str, str]:
    r = device.get("/api/me/games")
    assert r.status_code == 200, r.text
    return {g["id"]: g["status"] for g in r.json()}
