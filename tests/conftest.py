"""Shared test settings: hypothesis profiles sized for a 2-core CI machine, the markers that
make a fast loop one command, leaving out whole folders whose extras are not installed, and a first
check that every game of ludus's own loads (a broken one stops the session: never a green run of
tests that quietly left a game out)."""

from __future__ import annotations

import importlib.util
import os
import sys
from importlib import metadata
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, settings

from ludus.engine import registry

settings.register_profile("ci", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

# bots move at once in the tests (a served game paces them for people: LUDUS_BOT_PACE)
os.environ.setdefault("LUDUS_BOT_PACE", "0")

# folders that need an extra: with only ``.[test]`` installed they are left out, not failed
_EXTRAS = {
    "server": ("server", ("fastapi", "sqlalchemy")),
    "web": ("server", ("fastapi", "sqlalchemy", "uvicorn")),
    "rl": ("rl", ("numpy", "gymnasium", "pettingzoo")),
}
_MISSING = {
    folder: extra
    for folder, (extra, modules) in _EXTRAS.items()
    if any(importlib.util.find_spec(m) is None for m in modules)
}
collect_ignore_glob = [f"{folder}/*" for folder in _MISSING]


def pytest_configure(config: pytest.Config) -> None:
    """Every built-in game (an entry point of the ludus distribution) loads, or nothing runs."""
    if not registry.built_in():
        raise pytest.UsageError(registry.NOTHING_INSTALLED)
    broken = [str(f) for f in registry.failures() if f.name in registry.built_in()]
    if broken:
        raise pytest.UsageError("a built-in game does not load: " + "; ".join(broken))


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


@pytest.fixture
def installed(monkeypatch, tmp_path):
    """Games installed beside the real ones for one test, without pip: ``installed(name="module:attr")``,
    their modules written with ``installed.module(name, source)``; all gone after the test."""
    real = metadata.entry_points

    def entry_points(**select):
        found = list(real(**select))
        if select.get("group") == registry.GROUP:
            found += [metadata.EntryPoint(name, value, registry.GROUP) for name, value in extra.items()]
        return found

    extra: dict[str, str] = {}
    fake = SimpleNamespace(
        entry_points=entry_points,
        distribution=metadata.distribution,
        PackageNotFoundError=metadata.PackageNotFoundError,
    )
    monkeypatch.setattr(registry, "metadata", fake)
    monkeypatch.syspath_prepend(str(tmp_path))

    def install(**targets: str) -> None:
        extra.update(targets)
        registry.refresh()

    def module(name: str, source: str) -> None:
        (tmp_path / f"{name}.py").write_text(source)
        written.append(name)

    written: list[str] = []
    install.module = module
    yield install
    monkeypatch.undo()
    for name in written:
        sys.modules.pop(name, None)
    registry.refresh()
