"""``check_hooks`` calls every declared hook on real positions of a random game, as the layers above
call it, and names the hook and the call whose answer is wrong (``ludus.engine.conformance_hooks``)."""

from __future__ import annotations

import math
import sys
import types

import pytest

import ludus
from ludus.engine import Hooks
from ludus.engine.conformance import ConformanceError, check_hooks
from ludus.engine.conformance_hooks import positions


@pytest.fixture
def fake(monkeypatch, request):
    """A module given the test's functions, declared as garum's hooks by ``declare(renderer="fake_hooks")``:
    a module of its own for each test (a loaded hook is kept by its target, as the server keeps it)."""
    name = f"fake_hooks_{abs(hash(request.node.nodeid))}"
    module = types.ModuleType(name)
    monkeypatch.setitem(sys.modules, name, module)
    game = type(ludus.load_game("garum"))

    def declare(**hooks):
        monkeypatch.setattr(
            game, "hooks", Hooks(**{k: v.replace("fake_hooks", name) for k, v in hooks.items()})
        )
        return module

    return declare


def test_the_positions_run_from_a_games_start_to_its_end():
    states, actions = positions(ludus.load_game("garum", players=2), 5, seed=3)
    plies = [len(s.history()) for s in states]
    assert plies[0] == 0 and states[-1].is_terminal() and plies == sorted(set(plies)) and len(plies) == 5
    assert actions[-1] is None and all(
        a in {str(x) for x in s.legal_actions()} for s, a in zip(states[:-1], actions[:-1], strict=True)
    )


def test_the_renderer_draws_every_seats_view_and_the_spectators_of_each_position(fake):
    seen = []
    renderer = fake(renderer="fake_hooks")
    renderer.render_text = lambda observation: seen.append(observation) or "a board"
    assert check_hooks("garum", {"players": 2}, count=4) == {"renderer": "ok"}
    assert len(seen) == 4 * 3  # 4 positions, 2 seats and the spectator each


def _text(observation, color=False):
    return "a board"


BROKEN = [
    ({"render_text": lambda o: None}, r"render_text\(seat 0's view after 0 actions\) gave None"),
    ({"render_text": _text, "render_svg": lambda o: "<svg><text>a<b</text></svg>"}, "not well-formed SVG"),
    ({"render_text": _text, "render_svg": lambda o: "<div/>"}, "is a <div>, not an <svg>"),
    ({"render_text": _text, "board_options": lambda o: ["outline"]}, "expected a dict"),
    ({"render_text": _text, "panels": lambda s, seat: {1, 2}}, "panels.* is not JSON-serialisable"),
    ({"render_text": _text, "log_detail": lambda s, a: "a sentence"}, "log_detail gave 'a sentence'"),
    ({"render_text": _text, "automaton_turns": lambda s: [{"after": -1}]}, "automaton_turns gave"),
    (
        {"render_text": lambda o: 1 / 0},
        r"render_text\(seat 0's view after 0 actions\) raised ZeroDivisionError",
    ),
]


@pytest.mark.parametrize(
    "functions, says",
    BROKEN,
    ids=["no text", "unescaped svg", "not svg", "options", "panels", "log detail", "automaton", "raises"],
)
def test_the_kit_names_a_renderer_that_answers_wrong(fake, functions, says):
    vars(fake(renderer="fake_hooks")).update(functions)
    with pytest.raises(ConformanceError, match=says):
        check_hooks("garum", {"players": 2})


@pytest.mark.parametrize(
    "functions, says",
    [
        ({"evaluate": lambda s, seat: math.nan}, "evaluate.* gave nan: expected a finite number"),
        ({"evaluate": lambda s, seat: "good"}, "gave good: expected a finite number"),
        (
            {"evaluate": lambda s, seat: 1.0, "evaluate_all": lambda s: [0.0]},
            "evaluate_all.* expected 2 finite",
        ),
        (
            {
                "evaluate": lambda s, seat: 1.0,
                "evaluate_actions": lambda s, actions: [[5.0, 5.0]] * len(actions),
            },
            "evaluate_actions.* gives .* evaluate_all of its position",
        ),
    ],
)
def test_the_kit_names_a_heuristic_that_answers_wrong(fake, functions, says):
    vars(fake(heuristic="fake_hooks")).update(functions)
    with pytest.raises(ConformanceError, match=says):
        check_hooks("garum", {"players": 2})


def test_the_kit_refuses_a_hook_that_changes_the_position_it_reads(fake):
    def evaluate(state, seat):
        state.hands[0].append("BGYR")  # a heuristic "valuing" a hand by changing it
        return 0.0

    fake(heuristic="fake_hooks").evaluate = evaluate
    with pytest.raises(ConformanceError, match="changed a position it was given"):
        check_hooks("garum", {"players": 2})


def test_the_kit_names_an_explainer_without_a_reason(fake):
    fake(explainer="fake_hooks").explain = lambda before, action, after, seat, follow: ""
    with pytest.raises(ConformanceError, match=r"explain\(after 0 actions, '.+'\) gave ''"):
        check_hooks("garum", {"players": 2})


def test_the_kit_names_learned_terms_of_the_wrong_length(fake):
    module = fake(learned="fake_hooks")
    module.NAMES = ("one", "two", "three")
    module.features = lambda state, seat, rival: [1.0, 2.0]
    with pytest.raises(
        ConformanceError, match=r"features\(after 0 actions, 0, 1\) gave .* expected 3 finite"
    ):
        check_hooks("garum", {"players": 2})


def test_the_kit_names_an_optional_skip_that_is_not_a_legal_action(fake):
    fake(optional_skip="fake_hooks:skip").skip = lambda state: "pass over"
    with pytest.raises(ConformanceError, match="optional_skip.* gave 'pass over': not a legal action"):
        check_hooks("garum", {"players": 2})


def test_the_kit_names_report_facts_that_are_not_a_dict(fake):
    fake(report_facts="fake_hooks:facts").facts = lambda state: ["facts"]
    with pytest.raises(ConformanceError, match="report_facts gave list: expected a dict"):
        check_hooks("garum", {"players": 2})


class _ShortEncoder:
    """An encoder whose vectors are shorter than the size it announces."""

    def __init__(self, game):
        self.size = 3

    def encode(self, observation):
        return [0.0, 1.0]

    def encode_state(self, state, seat):
        return [0.0, 1.0]


def test_the_kit_names_an_encoder_whose_vectors_are_not_its_size(fake):
    fake(encoder="fake_hooks:Encoder").Encoder = _ShortEncoder
    with pytest.raises(
        ConformanceError, match=r"encode\(seat 0's view after 0 actions\) gave .* expected 3 finite"
    ):
        check_hooks("garum", {"players": 2})


def test_the_kit_names_a_browser_file_the_server_would_not_serve(fake, tmp_path, monkeypatch):
    package = tmp_path / "fake_text_board"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "board.txt").write_text("export const x = 1;\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    fake(browser="fake_text_board:board.txt")
    with pytest.raises(ConformanceError, match="'board.txt': the server serves .js files"):
        check_hooks("garum", {"players": 2})
