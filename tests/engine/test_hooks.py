"""Games declare what they add (renderer, heuristic, encoder ...) in one place; the kit checks it."""

from __future__ import annotations

import importlib.util
import re
import sys
import types

import pytest

import ludus
from ludus.engine import Hooks
from ludus.engine.conformance import ConformanceError, check_hooks
from ludus.engine.hooks import SHAPES, HookError, hook, hooks_of


@pytest.mark.parametrize("name", ludus.game_names())
def test_every_installed_games_declared_hooks_load_with_their_shapes(name):
    verdicts = check_hooks(name)
    assert set(verdicts) == set(hooks_of(name).declared())
    for hook_name, verdict in verdicts.items():  # a hook left unchecked only for a package missing here
        missing = re.fullmatch(r"not checked: needs (\S+), which is not installed", verdict)
        assert verdict == "ok" or (missing and importlib.util.find_spec(missing[1]) is None), (
            hook_name,
            verdict,
        )


def test_the_look_ups_read_the_declaration_not_the_module_name():
    """garum's heuristic is whatever GarumGame.hooks names, found through ``hook``."""
    from ludus.bots.greedy import heuristic

    declared = hooks_of("garum").heuristic
    assert heuristic("garum").__module__ == declared
    assert hook("garum", "heuristic").__name__ == declared


class _Bare(ludus.engine.Game):
    """A game with only the Game/State hooks: it declares nothing."""

    name = "bare"
    options = ()


def test_a_game_declaring_nothing_gets_none_for_every_hook():
    assert _Bare.hooks == Hooks()
    assert all(hook(_Bare, name) is None for name in SHAPES)


def test_a_game_used_without_registering_it_gets_the_generic_versions():
    """Bots look hooks up by the game's name; a class not registered under it declares nothing."""
    from ludus.bots.greedy import heuristic, score_margin

    assert all(hook("bare", name) is None for name in SHAPES)
    assert heuristic("bare") is score_margin


@pytest.fixture
def fake_module(monkeypatch):
    """A module ``fake_hooks`` whose functions the test gives it."""
    module = types.ModuleType("fake_hooks")
    monkeypatch.setitem(sys.modules, "fake_hooks", module)
    return module


def _declaring(monkeypatch, **hooks):
    game = type(ludus.load_game("garum"))
    monkeypatch.setattr(game, "hooks", Hooks(**hooks))
    return game


def test_the_kit_refuses_a_heuristic_taking_the_wrong_arguments(monkeypatch, fake_module):
    fake_module.evaluate = lambda state: 0.0
    _declaring(monkeypatch, heuristic="fake_hooks")
    with pytest.raises(ConformanceError, match="evaluate must take 2 positional arguments"):
        check_hooks("garum")


def test_the_kit_refuses_a_module_missing_a_required_function(monkeypatch, fake_module):
    fake_module.render_svg = lambda observation: ""
    _declaring(monkeypatch, renderer="fake_hooks")
    with pytest.raises(ConformanceError, match="has no render_text"):
        check_hooks("garum")


def test_the_kit_refuses_a_hook_that_does_not_import(monkeypatch):
    _declaring(monkeypatch, explainer="ludus.no_such_module")
    with pytest.raises(ConformanceError, match="cannot be loaded"):
        check_hooks("garum")
    with pytest.raises(HookError):  # an ImportError: callers that treat it as "not here" still may
        hook("garum", "explainer")


def test_a_hook_needing_an_uninstalled_package_is_reported_not_failed(monkeypatch, tmp_path):
    """An encoder needs the rl extra: without it the hook is told as not checked, not as broken."""
    (tmp_path / "fake_encoder.py").write_text("import not_installed_here\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    _declaring(monkeypatch, encoder="fake_encoder:Encoder")
    assert check_hooks("garum") == {
        "encoder": "not checked: needs not_installed_here, which is not installed"
    }


@pytest.mark.parametrize(
    "hooks, says",
    [
        ({"renderer": "pkg.render:render_text"}, "must be a module path"),
        ({"encoder": "pkg.encoder"}, "must be 'module:attr'"),
        ({"heuristic": ""}, "must name a target as text"),
        ({"heuristic": 3}, "must name a target as text"),
    ],
)
def test_a_malformed_declaration_is_refused_when_written(hooks, says):
    with pytest.raises((TypeError, ValueError), match=says):
        Hooks(**hooks)


def test_an_unknown_hook_name_is_refused():
    with pytest.raises(ValueError, match="no hook 'renderr'"):
        hook("garum", "renderr")
    with pytest.raises(TypeError):
        Hooks(renderr="ludus.games.garum.render")


def test_sixteen_threads_asking_for_a_hook_while_it_first_loads_all_get_it_whole(tmp_path, monkeypatch):
    """The first hints after a start once answered 500: a thread read a module that another thread
    was still importing, half-made, from ``sys.modules``. Here the module stops half-made until the
    other fifteen threads have asked for it."""
    import threading

    from ludus.engine import hooks

    (tmp_path / "hook_gate.py").write_text(
        "import threading\nstarted = threading.Event()\ngo = threading.Event()\n"
    )
    (tmp_path / "half_made_module.py").write_text(
        "import hook_gate\nhook_gate.started.set()\nhook_gate.go.wait(30)\nVALUE = 42\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import hook_gate

    found: list[object] = []

    def ask() -> None:
        try:
            found.append(hooks._load("heuristic", "half_made_module").VALUE)
        except Exception as exc:  # the failure this guards against: AttributeError on a half-made module
            found.append(exc)

    first = threading.Thread(target=ask)
    first.start()
    assert hook_gate.started.wait(30)
    others = [threading.Thread(target=ask) for _ in range(15)]
    for thread in others:
        thread.start()
    for thread in others:
        thread.join(0.5)  # a half-made module would be read (and fail) by now; a whole one waits
    hook_gate.go.set()
    for thread in [first, *others]:
        thread.join()
    assert found == [42] * 16
