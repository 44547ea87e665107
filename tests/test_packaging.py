"""Packaging that matches the commands: extras by audience with ``all`` holding every one, and a wheel
that carries every file of the package, so that ``pip install 'ludus[server]'`` from it alone serves a
playable lobby."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import venv
import zipfile
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
EXTRAS = PYPROJECT["project"]["optional-dependencies"]


def _requirement_names(extra: str) -> set[str]:
    return {re.split(r"[<>=!~\[;]", r, maxsplit=1)[0].strip().lower() for r in EXTRAS[extra]}


def test_the_all_extra_holds_every_other_extra_and_only_them():
    [requirement] = EXTRAS["all"]
    held = set(re.fullmatch(r"ludus\[(.+)\]", requirement).group(1).split(","))
    assert held == set(EXTRAS) - {"all"}


def test_each_extra_serves_its_audience():
    assert "matplotlib" in _requirement_names("arena")
    assert "open_spiel" in _requirement_names("openspiel") and "open_spiel" not in _requirement_names("rl")
    assert not {"httpx", "websockets"} & _requirement_names("server")  # the tests' clients, not the server's
    assert {"ruff", "mypy", "pre-commit"} <= _requirement_names("dev")
    assert not {"mypy", "pre-commit"} & _requirement_names("test")


def _package_files() -> set[str]:
    """Every file of the package in the source tree, as the wheel names it."""
    return {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "ludus").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel ``python -m build`` makes from a copy of the sources (via the sdist, as an index
    would): the checkout itself is left untouched."""
    tmp = tmp_path_factory.mktemp("build")
    source = tmp / "source"
    shutil.copytree(ROOT / "ludus", source / "ludus", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(tmp / "dist"), str(source)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    [found] = (tmp / "dist").glob("ludus-*.whl")
    return found


@pytest.mark.slow
def test_the_wheel_carries_every_file_of_the_package_and_its_entry_points(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        [entry_points] = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
        declared = archive.read(entry_points).decode()
    missing = _package_files() - names
    assert not missing, f"files left out of the wheel: {sorted(missing)}"
    for group in ("ludus.games", "ludus.commands", "console_scripts"):
        assert all(f"{name} = {target}" in declared for name, target in _entry_points(group).items()), group


def _entry_points(group: str) -> dict[str, str]:
    if group == "console_scripts":
        return PYPROJECT["project"]["scripts"]
    return PYPROJECT["project"]["entry-points"][group]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(url: str, server: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"ludus serve exited with {server.returncode}: {server.stdout.read()}")
        try:
            httpx.get(url, timeout=2)
            return
        except httpx.TransportError:
            time.sleep(0.2)
    pytest.fail(f"ludus serve did not answer at {url} within {seconds} s")


@pytest.mark.slow
def test_the_wheel_installed_with_only_the_server_extra_serves_a_playable_lobby(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    installing = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "-q", f"{wheel}[server]"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert installing.returncode == 0, installing.stderr[-3000:]
    where = subprocess.run(
        [str(bin_dir / "python"), "-c", "import ludus; print(ludus.__file__)"],
        check=True,
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    ).stdout
    assert where.startswith(str(env_dir)), where  # the installed wheel, not the checkout
    port = _free_port()
    server = subprocess.Popen(
        [
            str(bin_dir / "ludus"),
            "serve",
            "--port",
            str(port),
            "--database",
            f"sqlite:///{tmp_path / 'ludus.db'}",
        ],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(base + "/api/meta", server)
        _check_a_playable_lobby(base)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _check_a_playable_lobby(base: str) -> None:
    lobby = httpx.get(base + "/")
    assert lobby.status_code == 200 and 'data-testid="create"' in lobby.text
    static = ROOT / "ludus" / "web" / "static"
    for path in sorted(p for p in static.rglob("*") if p.is_file()):
        url = f"{base}/static/{path.relative_to(static).as_posix()}"
        assert httpx.get(url).status_code == 200, url
    games = httpx.get(base + "/api/meta").json()["games"]
    assert {g["name"] for g in games} == set(PYPROJECT["project"]["entry-points"]["ludus.games"])
    for game in games:
        for key in ("board", "styles", "rules"):
            assert httpx.get(base + game[key]).status_code == 200, (game["name"], key, game[key])
        made = httpx.post(base + "/api/games", json={"game": game["name"], "seats": ["human", "random"]})
        assert made.status_code in (200, 201), made.text
        body = made.json()
        token = next(seat["token"] for seat in body["seats"] if seat["kind"] == "human")
        mine = _my_turn(f"{base}/api/games/{body['id']}", {"Authorization": f"Bearer {token}"})
        played = httpx.post(
            f"{base}/api/games/{body['id']}/actions",
            json={"action": mine["legal_actions"][0], "version": mine["version"]},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert played.status_code == 200 and played.json()["version"] > mine["version"], played.text
        assert httpx.get(f"{base}/games/{body['id']}").status_code == 200


def _my_turn(url: str, auth: dict[str, str], seconds: float = 60) -> dict:
    """The seat's view once it may move (the bot seat moves first in some deals)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view = httpx.get(url, headers=auth)
        assert view.status_code == 200, view.text
        if view.json()["legal_actions"]:
            return view.json()
        time.sleep(0.2)
    pytest.fail(f"the human seat of {url} got no turn within {seconds} s")
