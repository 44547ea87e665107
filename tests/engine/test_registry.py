"""The registry fails loudly: a game that is installed but does not load is reported with its entry
point and error (never quietly left out), ludus's own games are its distribution's entry points, and a
broken built-in game fails the test suite instead of skipping its tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from types import SimpleNamespace

import pytest

import ludus
from ludus.engine import registry

ROOT = Path(__file__).resolve().parents[2]


def test_a_game_whose_import_fails_is_reported_with_its_entry_point_and_error(installed):
    installed.module("ludus_test_broken", 'raise RuntimeError("the rules file is missing")\n')
    installed(broken="ludus_test_broken:BrokenGame")
    assert registry.registered("broken") and "broken" not in ludus.game_names()
    assert {"garum", "celtae"} <= set(ludus.game_names())  # the others still load
    [failure] = registry.failures()
    assert (failure.name, failure.entry_point) == ("broken", "ludus_test_broken:BrokenGame")
    assert failure.error == "RuntimeError: the rules file is missing"
    with pytest.raises(ludus.OptionError, match=r"'broken' \(ludus_test_broken:BrokenGame\) failed to load"):
        ludus.load_game("broken")
    with pytest.raises(registry.GameLoadError, match="the rules file is missing"):
        registry.game_class("broken")


@pytest.mark.parametrize(
    "source, says",
    [
        ("BrokenGame = 3\n", "ludus_test_odd:BrokenGame is not a subclass of ludus.engine.Game"),
        ("", "AttributeError: module 'ludus_test_odd' has no attribute 'BrokenGame'"),
        (
            "from ludus.games.garum.game import GarumGame as BrokenGame\n",
            "its Game class is named 'garum', not 'broken'",
        ),
    ],
)
def test_a_target_that_is_not_the_game_it_is_registered_as_is_a_failure(installed, source, says):
    installed.module("ludus_test_odd", source)
    installed(broken="ludus_test_odd:BrokenGame")
    assert [f.error for f in registry.failures()] == [says]


def test_the_built_in_games_are_the_entry_points_of_the_ludus_distribution_and_come_first(installed):
    declared = {ep.name for ep in metadata.distribution("ludus").entry_points if ep.group == registry.GROUP}
    assert set(registry.built_in()) == declared >= {"garum", "celtae"}
    installed.module(
        "ludus_test_aaa",
        "from ludus.games.garum.game import GarumGame\n\n\nclass Game(GarumGame):\n    name = 'aaa'\n",
    )
    installed(aaa="ludus_test_aaa:Game")  # another package's game, whose name sorts before them
    assert ludus.game_names() == [*registry.built_in(), "aaa"] and not registry.failures()


def test_with_no_game_installed_the_refusal_says_how_to_install_ludus(monkeypatch):
    def nothing(**select):
        return []

    def no_distribution(name):
        raise metadata.PackageNotFoundError(name)

    fake = SimpleNamespace(
        entry_points=nothing, distribution=no_distribution, PackageNotFoundError=metadata.PackageNotFoundError
    )
    monkeypatch.setattr(registry, "metadata", fake)
    registry.refresh()
    try:
        assert registry.built_in() == () and ludus.game_names() == []
        with pytest.raises(ludus.OptionError, match=r"no game is installed.*pip install -e \."):
            ludus.load_game("garum")
    finally:
        monkeypatch.undo()
        registry.refresh()
    assert "garum" in ludus.game_names()


def _broken_copy(tmp_path: Path) -> Path:
    """The package and a test file that plays both games, copied, with Celtae's import broken."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "ludus", tmp_path / "ludus", ignore=ignore)
    (tmp_path / "tests" / "engine").mkdir(parents=True)
    for name in (
        "pyproject.toml",
        "tests/conftest.py",
        "tests/engine/__init__.py",
        "tests/engine/test_log.py",
    ):
        shutil.copy(ROOT / name, tmp_path / name)
    game = tmp_path / "ludus" / "games" / "celtae" / "game.py"
    game.write_text(game.read_text() + "\nimport ludus_no_such_module  # broken on purpose\n")
    return tmp_path


def _pytest(where: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(where)}  # the copy comes before the installed checkout
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args, "tests/engine/test_log.py"],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_a_built_in_game_that_fails_to_import_fails_the_test_suite(tmp_path):
    where = _broken_copy(tmp_path)
    session = _pytest(where)
    assert session.returncode != 0
    assert "the game 'celtae' (ludus.games.celtae.game:CeltaeGame) failed to load" in session.stderr
    assert "No module named 'ludus_no_such_module'" in session.stderr
    # without the first check of tests/conftest.py, the tests themselves fail: none skips the game
    tests = _pytest(where, "--noconftest", "-rs")
    assert tests.returncode == 1 and "skipped" not in tests.stdout
    assert "failed" in tests.stdout and "[celtae]" in tests.stdout and "[garum]" not in tests.stdout
    assert "ModuleNotFoundError: No module named 'ludus_no_such_module'" in tests.stdout


def _garum_alone(tmp_path: Path) -> Path:
    """ludus copied without ``ludus/games/celtae`` and with a distribution whose entry points lack it."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "celtae")
    shutil.copytree(ROOT / "ludus", tmp_path / "ludus", ignore=ignore)
    info = tmp_path / f"ludus-{ludus.__version__}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: ludus\nVersion: {ludus.__version__}\n")
    points = metadata.distribution("ludus").read_text("entry_points.txt") or ""
    kept = [line for line in points.splitlines() if "celtae" not in line]
    (info / "entry_points.txt").write_text("\n".join(kept) + "\n")
    return tmp_path


@pytest.mark.slow
def test_deleting_a_games_folder_and_entry_point_leaves_a_working_ludus_with_the_other_game(tmp_path):
    where = _garum_alone(tmp_path)
    script = """
import ludus
from fastapi.testclient import TestClient
from ludus.server import create_app
from ludus.server.settings import Settings
from ludus.engine import registry
assert ludus.game_names() == ["garum"] and not registry.failures(), (ludus.game_names(), registry.failures())
with TestClient(create_app("sqlite:///{db}", settings=Settings(bot_seconds=0.05))) as client:
    assert [g["name"] for g in client.get("/api/meta").json()["games"]] == ["garum"]
    assert client.get("/").status_code == 200
    created = client.post("/api/games", json={{"game": "garum", "seats": ["human", "random"]}}).json()
    token = created["seats"][0]["token"]
    view = client.get(f"/api/games/{{created['id']}}", headers={{"Authorization": f"Bearer {{token}}"}}).json()
    assert view["game"] == "garum"
print("ok")
""".format(db=tmp_path / "ludus.db")
    env = {**os.environ, "PYTHONPATH": str(where)}  # the copy and its distribution come first
    served = subprocess.run(
        [sys.executable, "-c", script], cwd=where, env=env, capture_output=True, text=True, timeout=300
    )
    assert served.returncode == 0 and served.stdout.strip().endswith("ok"), served.stderr[-2000:]
    games = subprocess.run(
        [sys.executable, "-m", "ludus.cli", "games"],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert games.returncode == 0 and "Garum" in games.stdout and "Celtae" not in games.stdout + games.stderr
    simulated = subprocess.run(
        [
            sys.executable,
            "-m",
            "ludus.cli",
            "simulate",
            "garum",
            "--players",
            "2",
            "--games",
            "2",
            "--jobs",
            "1",
            "--bots",
            "random,greedy",
        ],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert simulated.returncode == 0, simulated.stderr[-2000:]
