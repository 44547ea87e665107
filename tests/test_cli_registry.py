"""The ``ludus`` command takes its games from the registry: ``ludus games`` lists them with their
options and any that fails to load, the help and its examples name the installed games, a game's own
command comes from its entry point, and a command whose extra is missing says which to install."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata

import click
import pytest
from click.testing import CliRunner

import ludus
from ludus.cli import main, plugins
from ludus.engine import registry
from ludus.engine.registry import game_class

BROKEN = 'raise RuntimeError("the rules file is missing")\n'


def run(args):
    return CliRunner().invoke(main, args, prog_name="ludus")


def test_ludus_games_lists_each_game_with_its_title_tagline_and_options():
    result = run(["games"])
    assert result.exit_code == 0 and result.stderr == ""
    for name in ludus.game_names():
        cls = game_class(name)
        assert f"{name}  {cls.display_title()}: {cls.display_tagline()}" in result.stdout
        for option in cls.options:
            flag = "--" + option.name.replace("_", "-")
            lines = [line for line in result.stdout.splitlines() if line.startswith(f"  {flag}")]
            assert lines, (name, option.name)
            default = "none" if option.default is None else str(option.default).lower()
            assert any(f"(default {default})" in line.lower() for line in lines), (name, option.name)
            assert " ".join(option.doc.split()[:4]) in result.stdout


def test_ludus_games_reports_a_game_that_fails_to_load_and_still_succeeds(installed):
    installed.module("ludus_test_broken", BROKEN)
    installed(broken="ludus_test_broken:BrokenGame")
    result = run(["games"])
    assert result.exit_code == 0
    assert result.stderr == (
        "error: the game 'broken' (ludus_test_broken:BrokenGame) failed to load: "
        "RuntimeError: the rules file is missing\n"
    )
    assert all(f"{name}  " in result.stdout for name in ludus.game_names())


def test_ludus_games_fails_when_no_game_is_installed(monkeypatch):
    monkeypatch.setattr(registry, "_targets", dict)  # no entry point at all
    result = run(["games"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: no game is installed") and "pip install -e ." in result.stderr


def test_a_command_naming_a_game_that_fails_to_load_says_why_in_one_line(installed):
    installed.module("ludus_test_broken", BROKEN)
    installed(broken="ludus_test_broken:BrokenGame")
    result = run(["simulate", "broken", "--games", "1"])
    assert result.exit_code == 2
    assert result.output == (
        "error: the game 'broken' (ludus_test_broken:BrokenGame) failed to load: "
        "RuntimeError: the rules file is missing\n"
    )


def test_the_help_names_the_installed_games_and_its_examples_play_one_of_them():
    top = run(["--help"]).output
    assert all(game_class(name).display_title() in top for name in ludus.game_names())
    first = ludus.game_names()[0]
    for command in ("play", "simulate", "tournament", "report"):
        text = run([command, "--help"]).output
        assert f"Example: ludus {command} {first} " in " ".join(text.split()), command
    for name in main.list_commands(click.Context(main)):
        help_text = main.get_command(click.Context(main), name).help or ""
        assert "{game}" not in help_text and "{titles}" not in help_text, name


def test_a_games_own_command_is_found_through_its_entry_point():
    declared = {ep.name: ep.value for ep in metadata.entry_points(group=plugins.GROUP)}
    assert "solo-challenge" in declared  # Celtae's, declared by the ludus distribution
    assert "solo-challenge" in run(["--help"]).output
    command = main.get_command(click.Context(main), "solo-challenge")
    module, _, attr = declared["solo-challenge"].partition(":")
    assert command.callback.__module__ == module and attr in command.callback.__qualname__


def test_a_command_that_fails_to_load_is_listed_and_refused_in_one_line(monkeypatch):
    broken = metadata.EntryPoint("nope-cmd", "ludus_test_no_such_module:cmd", plugins.GROUP)
    monkeypatch.setattr(plugins, "_entry_points", lambda: {"nope-cmd": broken})
    group = plugins.PluginGroup("ludus")
    listing = CliRunner().invoke(group, ["--help"], prog_name="ludus")
    assert listing.exit_code == 0 and "nope-cmd" in listing.output and "failed to load" in listing.output
    result = CliRunner().invoke(group, ["nope-cmd", "--whatever"], prog_name="ludus")
    assert result.exit_code == 2
    assert result.output == (
        "error: the command 'nope-cmd' (ludus_test_no_such_module:cmd) failed to load: "
        "ModuleNotFoundError: No module named 'ludus_test_no_such_module'\n"
    )


@pytest.mark.parametrize(
    "args, missing, extra, what",
    [
        (["report", "garum", "--games", "1"], "matplotlib", "arena", "ludus report"),
        (["tournament", "garum", "--bots", "random,greedy"], "matplotlib", "arena", "ludus tournament"),
        (["tournament", "garum", "--bots", "random,greedy", "--ray", "local"], "ray", "ray", "--ray"),
        (["simulate", "garum", "--ray", "local"], "ray", "ray", "--ray"),
    ],
)
def test_a_command_whose_extra_is_missing_names_it_in_one_line(
    monkeypatch, tmp_path, args, missing, extra, what
):
    monkeypatch.setitem(sys.modules, missing, None)  # as if not installed
    result = run([*args, "--out", str(tmp_path / "out")] if args[0] != "simulate" else args)
    assert result.exit_code == 2
    assert (
        result.output
        == f"error: {what} needs {missing}, from the '{extra}' extra (pip install 'ludus[{extra}]')\n"
    )
    assert not (tmp_path / "out").exists()


def _without(module: str, code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run in a fresh interpreter where ``module`` cannot be imported."""
    return subprocess.run(
        [sys.executable, "-c", f"import sys; sys.modules[{module!r}] = None\n{code}"],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_serve_without_the_server_extra_names_it_in_one_line():
    done = _without("fastapi", "from ludus.cli import main; main(['serve', '--port', '8999'])")
    assert done.returncode == 2 and done.stdout == ""
    assert (
        done.stderr
        == "error: ludus serve needs fastapi, from the 'server' extra (pip install 'ludus[server]')\n"
    )


@pytest.mark.parametrize(
    "module, code, extra",
    [
        ("pettingzoo", "from ludus.rl import pettingzoo_env; pettingzoo_env('garum')", "rl"),
        ("gymnasium", "from ludus.rl import gym_env; gym_env('garum')", "rl"),
        ("pyspiel", "import ludus.rl.openspiel", "openspiel"),
    ],
)
def test_a_research_adapter_without_its_extra_names_it(module, code, extra):
    done = _without(module, code)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        f"ImportError: ludus.rl{'.openspiel' if extra == 'openspiel' else ''} needs {module}, "
        f"from the '{extra}' extra (pip install 'ludus[{extra}]')"
    )
