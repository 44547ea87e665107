"""Ratings math: Bradley–Terry on constructed results gives the known order and gaps."""

from __future__ import annotations

import math

import pytest

from ludus.arena.ratings import bradley_terry, expected_score, pairwise, ratings


def _games(a: str, b: str, a_wins: int, b_wins: int, draws: int = 0) -> list[dict]:
    out = [{"seats": [a, b], "returns": [1.0, 0.0]} for _ in range(a_wins)]
    out += [{"seats": [b, a], "returns": [1.0, 0.0]} for _ in range(b_wins)]
    out += [{"seats": [a, b], "returns": [0.5, 0.5]} for _ in range(draws)]
    return out


def test_two_bots_rating_gap_is_the_elo_of_their_win_ratio() -> None:
    """3 wins to 1 without a prior: strength ratio 3, a gap of 400 log10(3) = 190.8 points."""
    enc = [e for g in pairwise(_games("a", "b", 3, 1)) for e in g]
    fit = bradley_terry(enc, ["a", "b"], prior=0.0)
    assert fit["a"] - fit["b"] == pytest.approx(400 * math.log10(3), abs=0.01)
    assert (fit["a"] + fit["b"]) / 2 == pytest.approx(1500)
    assert expected_score(fit["a"], fit["b"]) == pytest.approx(0.75, abs=1e-6)


def test_constructed_round_robin_gives_the_known_order() -> None:
    results = (
        _games("strong", "middle", 14, 6) + _games("middle", "weak", 14, 6) + _games("strong", "weak", 18, 2)
    )
    table = ratings(results, bootstrap=60, seed=1)
    assert [r.bot for r in table] == ["strong", "middle", "weak"]
    for r in table:
        assert r.low <= r.rating <= r.high
        assert r.games == 40
    assert table[0].score == pytest.approx(32 / 40)


def test_equal_records_give_equal_ratings_and_draws_count_half() -> None:
    fit = bradley_terry([e for g in pairwise(_games("x", "y", 5, 5, draws=4)) for e in g], ["x", "y"])
    assert fit["x"] == pytest.approx(fit["y"])


def test_the_prior_keeps_a_perfect_record_finite() -> None:
    fit = bradley_terry([e for g in pairwise(_games("x", "y", 20, 0)) for e in g], ["x", "y"], prior=1.0)
    assert math.isfinite(fit["x"]) and fit["x"] > fit["y"] + 300


def test_multiplayer_games_count_every_pair_of_seats() -> None:
    game = {"seats": ["a", "b", "c", "a"], "returns": [0.0, 1.0, 0.0, 0.0]}
    pairs = pairwise([game])[0]
    assert ("a", "b", 0.0) in pairs and ("b", "c", 1.0) in pairs and ("a", "c", 0.5) in pairs
    assert len(pairs) == 5  # the two seats held by "a" do not meet


def test_losers_of_a_multiplayer_game_are_ranked_by_score() -> None:
    game = {"seats": ["a", "b", "c"], "returns": [1.0, 0.0, 0.0], "scores": [30, 12, 20]}
    assert ("b", "c", 0.0) in pairwise([game])[0]


def test_solo_results_on_the_same_deal_meet_as_one_game() -> None:
    results = [
        {"seed": s, "seats": [bot], "returns": [0.0], "scores": [score]}
        for s in range(6)
        for bot, score in (("good", 20 + s), ("bad", 5))
    ]
    table = ratings(results, bootstrap=10)
    assert [r.bot for r in table] == ["good", "bad"] and table[0].score == 1.0


def test_an_anchor_rates_zero_and_the_others_by_their_gap_to_it() -> None:
    """Anchored at "weak", every fit is shifted: the gaps are those of the centred fit, the anchor's
    interval is exactly 0, and the others' intervals are those of their gap to it."""
    results = (
        _games("strong", "middle", 14, 6) + _games("middle", "weak", 14, 6) + _games("strong", "weak", 18, 2)
    )
    centred = {r.bot: r for r in ratings(results, bootstrap=60, seed=1)}
    anchored = {r.bot: r for r in ratings(results, bootstrap=60, seed=1, anchor="weak")}
    assert (anchored["weak"].rating, anchored["weak"].low, anchored["weak"].high) == (0.0, 0.0, 0.0)
    for bot in ("strong", "middle"):
        gap = centred[bot].rating - centred["weak"].rating
        assert anchored[bot].rating == pytest.approx(gap)
        assert anchored[bot].low < gap < anchored[bot].high
        assert anchored[bot].low > 0  # both won clearly more than half their games against "weak"
    with pytest.raises(ValueError, match="anchor 'oracle' is not one of the bots: strong, middle, weak"):
        ratings(results, bots=["strong", "middle", "weak"], anchor="oracle")
