"""Hints: legal, best first, explained in each game's terms, and blind to what the seat cannot see."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ludus
from ludus.bots import hint
from ludus.engine import registry
from ludus.games.celtae.core import Phase
from ludus.games.garum.actions import SPECIES, Place, Worker
from ludus.games.garum.state import placement_bonus

from .helpers import random_position

HINT = sys.modules["ludus.bots.hint"]  # the module (``ludus.bots.hint`` is the function)
FEW = 2  # determinizations in these tests: enough to average, quick


def every_hint(state, seed=0):
    """A hint for every legal move, none merged into another that leads to the same position."""
    return hint(state, n=len(state.legal_actions()), seed=seed, worlds=FEW, merge=False)


def _first(game, options, seed, wanted, steps=400):
    """A position reached by random play where ``wanted(state)`` holds."""
    state = ludus.load_game(game, **options).new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if wanted(state):
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    pytest.skip("no such position in this game")


POSITIONS = [
    ("garum", {"players": 2}),
    ("garum", {"players": 3}),
    ("garum", {"players": 4, "board": "baelo_claudia"}),
    ("garum", {"players": 3, "variant": "emperor", "species_bonus": "own"}),
    ("celtae", {"players": 1}),
    ("celtae", {"players": 2}),
    ("celtae", {"players": 3}),
]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.sampled_from(POSITIONS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 60),
    n=st.integers(1, 4),
)
def test_hints_are_legal_distinct_and_best_first(which, seed, steps, n):
    state = random_position(*which, seed=seed, steps=steps)
    if state.is_terminal():
        return
    before = state.to_json()
    hints = hint(state, n=n, seed=seed, worlds=FEW)
    legal = {str(a) for a in state.legal_actions()}
    seat = state.current_player()
    positions = {HINT.position_key(state, a, seat) for a in state.legal_actions()}
    assert len(hints) == min(n, len(positions))  # one hint a position
    assert len({h["action"] for h in hints}) == len(hints)
    assert all(set(h["same"]) <= legal - {h["action"]} for h in hints)
    assert all(h["action"] in legal for h in hints)
    values = [h["value"] for h in hints]
    assert values == sorted(values, reverse=True)
    assert all(isinstance(h["why"], str) and h["why"].endswith(".") for h in hints)
    assert state.to_json() == before  # hinting changes nothing


def test_the_same_seed_gives_the_same_hints():
    state = random_position("garum", {"players": 3}, seed=5, steps=9)
    assert hint(state, seed=11, worlds=3) == hint(state, seed=11, worlds=3)


def test_the_first_hint_is_the_best_valued_of_all_moves():
    state = random_position("celtae", {"players": 2}, seed=4, steps=25)
    top = hint(state, n=1, seed=2, worlds=FEW)[0]
    assert top | {"same": []} == every_hint(state, seed=2)[0]  # merged or not, the same best move


def _hidden_swapped_garum(state):
    """The same position with another colour's hand tile swapped for one of its pile."""
    other = state.clone()
    mine = state.game.seating.colours_of(state.current_player())
    for c in range(4):
        if c not in mine and other.hands[c] and other.piles[c]:
            other.hands[c][0], other.piles[c][-1] = other.piles[c][-1], other.hands[c][0]
            if sorted(other.hands[c]) != sorted(state.hands[c]):
                return other
    pytest.skip("no hidden tile to swap")


@pytest.fixture
def nosy_heuristic(monkeypatch):
    """A heuristic that reads the hidden parts of the world it is given (others' hands, the deck):
    hints must still not depend on the true hidden state, since they value re-dealt worlds only."""
    from ludus.bots.greedy import heuristic

    def nosy(game_name):
        honest = heuristic(game_name)

        def value(world, seat):
            if game_name == "garum":
                hidden = world.hands + world.piles
            else:
                hidden = [[k for k in range(12) for _ in range(h[k])] for h in world.hands] + [world.deck]
            peek = sum(i * t for i, t in enumerate(x for h in hidden for x in h)) % 97
            return honest(world, seat) + peek / 1000

        return value

    monkeypatch.setattr(HINT, "heuristic", nosy)
    monkeypatch.setattr(HINT, "heuristic_actions", lambda game_name: None)


def test_garum_hints_are_the_same_whatever_the_others_hidden_tiles(nosy_heuristic):
    state = random_position("garum", {"players": 4}, seed=8, steps=14)
    seat = state.current_player()
    other = _hidden_swapped_garum(state)
    assert other.observation(seat) == state.observation(seat)
    assert other.hands != state.hands
    assert every_hint(other, seed=3) == every_hint(state, seed=3)


def test_celtae_hints_are_the_same_whatever_the_others_hidden_cards(nosy_heuristic):
    state = _first(
        "celtae",
        {"players": 2},
        6,
        lambda s: (
            s.phase > 2
            and s.current_player() >= 0
            and sum(s.hands[1 - s.current_player()]) - sum(s.known[1 - s.current_player()]) > 0
        ),
    )
    seat = state.current_player()
    other = state.clone()
    rival = 1 - seat
    hidden = [k for k in range(12) if other.hands[rival][k] > other.known[rival][k]]
    swap = next((i for i, k in enumerate(other.deck) if k != hidden[0]), None)
    if swap is None:
        pytest.skip("the deck holds only the same card")
    k, j = hidden[0], other.deck[swap]
    other.hands[rival][k] -= 1
    other.hands[rival][j] += 1
    other.deck[swap] = k
    other._legal = None
    assert other.observation(seat) == state.observation(seat)
    assert every_hint(other, seed=1) == every_hint(state, seed=1)


# -- Garum's reasons ---------------------------------------------------------------------------------
def test_a_garum_tile_on_its_own_species_bonus_names_the_bonus_and_its_points():
    def bonus_move(s):
        return s.phase == "place" and any(
            isinstance(a, Place)
            and placement_bonus(s.game, a, s.current_colour()) == s.game.board.species_bonus
            and any(
                s.game.board.bonus_cells.get(cell) == SPECIES.index(letter)
                for cell, letter in zip(s.game.board.slot_cells[a.cetarium, a.slot], a.fish, strict=True)
            )
            for a in s.legal_actions()
        )

    state = _first("garum", {"players": 4}, 2, bonus_move)
    board = state.game.board
    hints = {h["action"]: h["why"] for h in every_hint(state)}
    for a in state.legal_actions():
        cells = board.slot_cells[a.cetarium, a.slot]
        matched = [
            board.bonus_cells[c]
            for c, letter in zip(cells, a.fish, strict=True)
            if board.bonus_cells.get(c) == SPECIES.index(letter)
        ]
        if matched and placement_bonus(state.game, a, state.current_colour()):
            name = state.game.tiles.species[matched[0]].name
            assert f"the {name} bonus (+{board.species_bonus})" in hints[str(a)]
        else:
            assert f"bonus (+{board.species_bonus})" not in hints[str(a)]


def test_a_garum_worker_names_its_line_fish_and_points_now():
    state = _first("garum", {"players": 4}, 3, lambda s: s.phase == "worker" and s.round >= 4)
    seat = state.current_player()
    obs = state.observation(seat)
    letter = obs["current_colour"]
    species = next(c["species"] for c in obs["colours"] if c["colour"] == letter)
    board = state.game.board
    hints = {h["action"]: h["why"] for h in every_hint(state)}
    for action in state.legal_actions():
        if not isinstance(action, Worker):
            assert "keep" in hints[str(action)]  # pass
            continue
        axis, number = action.name[0], int(action.name[1:])
        line = obs["fish"][number - 1] if axis == "h" else "".join(row[number - 1] for row in obs["fish"])
        count = line.count(letter)
        word = "row" if axis == "h" else "column"
        why = hints[str(action)]
        assert f"claims {word} {action.name}, which holds {count} {species}" in why
        assert f"worth {board.points(count, action.dominus)} if the game ended now" in why
        assert ("dominus" if action.dominus else "vilicus") in why


def test_a_garum_tile_is_valued_with_the_worker_it_opens():
    state = _first(
        "garum",
        {"players": 2},
        5,
        lambda s: (
            s.phase == "place" and s.round >= 2 and sum(s.pool[s.game.pool_owner(s.current_colour())]) > 0
        ),
    )
    hints = every_hint(state)
    assert any("then your" in h["why"] or "then pass" in h["why"] for h in hints)


def test_an_emperor_choice_names_the_cetarium_and_the_tile_it_opens():
    state = ludus.load_game("garum", players=3, variant="emperor").new_initial_state(seed=7)
    assert state.phase == "choose"
    for h in every_hint(state):
        number = h["action"].split("c")[-1]
        assert h["why"].startswith(f"Names cetarium {number} for this round; then c{number}.")


# -- Celtae's reasons ---------------------------------------------------------------------------------
def test_a_celtae_build_names_the_citadel_its_region_and_bonus():
    state = _first("celtae", {"players": 2}, 1, lambda s: any(a.verb == "citadel" for a in s.legal_actions()))
    d = state.data
    region = ("North", "South")[state.ctx.region]
    for h in every_hint(state):
        colour = d.colours["OPUT".index(h["action"].split()[1])]
        assert f"build on the {colour} citadel in the {region}".lower() in h["why"].lower()
        assert f"a disc on the {colour} citadel in the {region} (its bonus:" in h["why"]


def test_a_celtae_market_take_names_the_card_and_the_changed_scoring_categories():
    state = _first(
        "celtae",
        {"players": 3},
        2,
        lambda s: any(a.verb == "take" for a in s.legal_actions()) and s.phase == Phase.FARM_PICK,
    )
    seat = state.current_player()
    obs = state.observation(seat)
    d = state.data
    row = state.market[state.ctx.region]
    for h in every_hint(state):
        if not h["action"].startswith("take"):
            continue
        k = row[int(h["action"].split()[1]) - 1]
        name = f"{d.colours[k // 3]} {d.icons[k % 3]}"
        assert f"take the {name} from market position" in h["why"].lower()
        assert "final scoring" in h["why"]
    assert obs["seat"] == seat


def test_celtae_solo_reasons_measure_against_the_target():
    state = random_position("celtae", {"players": 1, "difficulty": "hard"}, seed=3, steps=12)
    for h in every_hint(state):
        assert "toward the hard target of 35" in h["why"]


def test_celtae_reasons_name_the_final_scoring_category_that_changes():
    state = _first("celtae", {"players": 2}, 9, lambda s: any(a.verb == "fight" for a in s.legal_actions()))
    why = {h["action"]: h["why"] for h in every_hint(state)}["fight"]
    assert "wins a" in why and "Roman Army tile" in why
    assert "D +" in why and "(Roman Army tiles)" in why


# -- games without an explainer ----------------------------------------------------------------------
def test_a_game_without_an_explainer_gets_a_reason_from_its_score(monkeypatch):
    monkeypatch.setattr(HINT, "explainer", lambda name: None)
    state = _first(
        "garum",
        {"players": 4},
        2,
        lambda s: (
            s.phase == "place"
            and any(placement_bonus(s.game, a, s.current_colour()) for a in s.legal_actions())
        ),
    )
    for h in every_hint(state):
        gained = placement_bonus(state.game, state.game.parse_action(h["action"]), state.current_colour())
        assert (f"scores +{gained} now" if gained else "no points now") in h["why"]
        assert "expected margin" in h["why"]


def test_bad_requests_are_refused():
    state = random_position("garum", {"players": 2}, seed=1, steps=3)
    for bad in ({"n": 0}, {"n": "3"}, {"seconds": 0}, {"worlds": 0}):
        with pytest.raises(ValueError):
            hint(state, **bad)
    over = random_position("garum", {"players": 2, "board": "baelo_claudia"}, seed=1, steps=10_000)
    with pytest.raises(ValueError, match="over"):
        hint(over)


# -- the terminal ------------------------------------------------------------------------------------
def test_hint_at_the_prompt_lists_numbered_moves_with_values_and_sentences():
    from click.testing import CliRunner

    from ludus.cli import main

    result = CliRunner().invoke(
        main,
        ["play", "garum", "--seats", "human,human", "--seed", "4", "--no-color"],
        input="hint 2\nhint zero\nquit\n",
        prog_name="ludus",
    )
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Hints (each with the final result"))
    shown = lines[start + 1 : start + 3]
    state = ludus.load_game("garum", players=2).new_initial_state(seed=4)
    legal = [str(a) for a in state.legal_actions()]
    expected = hint(state, n=2, seed=0)
    for line, h in zip(shown, expected, strict=True):
        number, _, rest = line.strip().partition(". ")
        action = rest.split("  ")[0].split(" (or ")[0]
        assert legal[int(number) - 1] == action == h["action"]
        assert h["sentence"] in line and f"Expect: {h['value_text']}." in line
    assert "error: hint takes an optional number" in result.output


@pytest.fixture
def pig(tmp_path):
    """The example plugin game (examples/pig) installed in a folder of its own, as its tests do."""
    example = Path(__file__).resolve().parents[2] / "examples" / "pig"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(tmp_path), str(example)],
        check=True,
    )
    sys.path.insert(0, str(tmp_path))
    registry.refresh()
    yield
    sys.path.remove(str(tmp_path))
    for name in [m for m in sys.modules if m.startswith("ludus_pig")]:
        del sys.modules[name]
    registry.refresh()


def test_the_example_plugin_game_gets_hints_with_a_generic_reason(pig):
    state = ludus.load_game("pig", players=2, target=20).new_initial_state(seed=3)
    state.apply_action("roll")
    turn_total = state.turn_total
    hints = {h["action"]: h for h in hint(state, n=2, seed=1)}
    assert set(hints) == {"roll", "hold"}
    assert hints["hold"]["why"].startswith(f"hold: scores +{turn_total} now")
    assert hints["hold"]["value"] == turn_total  # banked, nothing left at risk: pig's heuristic is the margin
    assert "expected margin over the best rival" in hints["roll"]["why"]
