"""Hints in plain words: one sentence a move, its value said as a finishing margin, no jargon, and moves
that lead to the same position merged into one hint."""

from __future__ import annotations

import random
import re
import sys

import pytest

import ludus
from ludus.bots import hint
from ludus.games.celtae.core import Phase

from .helpers import random_position

HINT = sys.modules["ludus.bots.hint"]
SIGNED = re.compile(r"(?<![\w'])[+\-−]\s?\d")  # "+3", "-39.3", "− 2": a number with a sign and no words
JARGON = ("decline", "(done)")


def _twin_swaps(seed: int):
    """A 2-player Celtae position where one worker may be swapped for either of two workers of the
    same kind in the area (the same position either way), and those two swaps; None if none came."""
    state = ludus.load_game("celtae", players=2).new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(300):
        if state.is_terminal():
            return None
        if state.phase == Phase.SWAP:
            area = state.areas[state.ctx.area]
            swaps = [a for a in state.legal_actions() if a.verb == "swap"]
            for one in swaps:
                for two in swaps:
                    if one.a == two.a and one.b < two.b and area[one.b] == area[two.b]:
                        return state, str(one), str(two)
        state.apply_action(rng.choice(state.legal_actions()))
    return None


def test_two_swaps_that_lead_to_the_same_position_are_one_hint():
    found = next(filter(None, (_twin_swaps(seed) for seed in range(40))), None)
    assert found is not None, "no position with two swaps for workers of one kind"
    state, one, two = found
    hints = hint(state, n=len(state.legal_actions()), seed=1, worlds=1)
    listed = [h["action"] for h in hints]
    assert (one in listed) != (two in listed)  # exactly one of the twins is listed
    kept = next(h for h in hints if h["action"] in (one, two))
    assert {kept["action"], *kept["same"]} == {one, two}
    unmerged = [h["action"] for h in hint(state, n=len(state.legal_actions()), seed=1, worlds=1, merge=False)]
    assert one in unmerged and two in unmerged
    assert len(unmerged) == len(listed) + sum(len(h["same"]) for h in hints)


CONFIGS = [
    ("garum", {"players": 2}),
    ("garum", {"players": 3, "variant": "emperor"}),
    ("garum", {"players": 4, "board": "baelo_claudia"}),
    ("celtae", {"players": 1}),
    ("celtae", {"players": 2}),
    ("celtae", {"players": 3}),
]


def _random_hints(game: str, options: dict, seeds=range(6)):
    """The hints of random positions of one configuration, from its first moves to late in the game."""
    for seed in seeds:
        state = random_position(game, options, seed=seed, steps=seed * 23)
        if not state.is_terminal():
            yield state, hint(state, n=4, seed=seed, worlds=1)


@pytest.mark.parametrize("game, options", CONFIGS, ids=lambda x: str(x))
def test_hints_speak_plain_words_without_jargon_or_bare_signed_numbers(game, options):
    seen = 0
    for _state, hints in _random_hints(game, options):
        for h in hints:
            seen += 1
            for field in ("sentence", "value_text", "why"):
                assert not any(word in h[field].lower() for word in JARGON), (field, h[field])
            for field in ("sentence", "value_text"):
                assert not SIGNED.search(h[field]), (field, h[field])
            assert h["sentence"][0].isupper() and h["sentence"].endswith(".")
            assert not re.search(r"[.!?]\s+[A-Z]", h["sentence"]), h["sentence"]  # one sentence
            if " " in h["action"]:  # a notation of more than one word ("swap S 1", "c15.3 YYYY")
                assert h["action"] not in h["sentence"], h  # the move in words, not its notation
    assert seen


def _expected_direction(value: float, solo: bool) -> str:
    if round(abs(value)) == 0:
        return "on the target" if solo else "level"
    if solo:
        return "above the target" if value > 0 else "below the target"
    return "ahead of" if value > 0 else "behind the leader"


@pytest.mark.parametrize("value", [-39.3, -2.6, -1.2, -0.4, 0.0, 0.49, 0.51, 1.0, 3.2, 12.7])
@pytest.mark.parametrize("solo", [False, True])
def test_the_value_sentence_says_the_margin_with_its_sign_in_words(value, solo):
    text = HINT.value_text(value, solo)
    assert _expected_direction(value, solo) in text
    points = round(abs(value))
    if points:
        assert f"~{points} point" in text
    assert not SIGNED.search(text)


@pytest.mark.parametrize("game, options", [CONFIGS[1], CONFIGS[3], CONFIGS[4]], ids=lambda x: str(x))
def test_each_hints_value_sentence_matches_its_value(game, options):
    for state, hints in _random_hints(game, options, seeds=range(3)):
        for h in hints:
            assert _expected_direction(h["value"], state.game.num_players == 1) in h["value_text"], h
