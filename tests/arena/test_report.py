"""Balance reports: Markdown with plots for a configuration and its boards and variants."""

from __future__ import annotations

import math

import ludus
from ludus.arena.report import game_stats, seat_stats, turn_order_stats, write_report
from ludus.arena.simulate import simulate
from ludus.games.celtae.report import (
    bonus_stats,
    category_stats,
    celtae_facts,
    leader_stats,
    progress_stats,
    solo_stats,
)


def test_report_writes_markdown_and_plots(tmp_path) -> None:
    path = write_report("garum", {"players": 3, "board": "baelo_claudia"}, 4, tmp_path, bots=("random",))
    text = path.read_text()
    assert "## Win rate by seat" in text and "## By board" in text and "## By variant" in text
    assert "variant=emperor" in text and "board=troia" in text
    assert "## Win rate by place in turn order" in text
    for png in (
        "win_rate_by_seat.png",
        "win_rate_by_turn_order.png",
        "scores.png",
        "compare_board.png",
        "compare_variant.png",
    ):
        assert (tmp_path / png).read_bytes().startswith(b"\x89PNG")
        assert f"({png})" in text


def test_seat_and_game_statistics_on_known_results() -> None:
    results = [
        {"scores": [10, 4], "returns": [1.0, 0.0], "winners": [0], "actions": 80},
        {"scores": [6, 6], "returns": [0.5, 0.5], "winners": [0, 1], "actions": 90},
    ]
    seats = seat_stats(results)
    assert seats[0]["win_rate"] == 0.75 and seats[1]["mean"] == 5
    stats = game_stats(results)
    assert stats["margin"] == 3 and stats["shared_wins"] == 0.5 and stats["winner_score"] == 8


def test_turn_order_counts_places_from_the_seat_that_moves_first() -> None:
    game = ludus.load_game("garum", players=2)
    seeds = [s for s in range(40) if game.new_initial_state(seed=s).current_player() == 1][:2]
    results = [{"seed": seed, "scores": [3, 9], "returns": [0.0, 1.0]} for seed in seeds]
    order = turn_order_stats("garum", dict(game.config), results)
    assert order[0]["win_rate"] == 1.0 and order[0]["mean"] == 9  # seat 1 moved first and won
    assert order[1]["win_rate"] == 0.0


# -- Celtae sections -------------------------------------------------------------------------------

CELTAE_PNGS = (
    "celtae_leaders.png",
    "celtae_progress.png",
    "celtae_bonus.png",
    "celtae_categories.png",
    "celtae_solo.png",
)


def test_celtae_report_writes_every_section_and_plot(tmp_path) -> None:
    path = write_report("celtae", {"players": 2}, 4, tmp_path, bots=("random",))
    text = path.read_text()
    for title in (
        "## Win rate by seat",
        "## Scores",
        "## Leaders",
        "## Progress cards",
        "## Citadel bonuses",
        "## Points by scoring category",
        "## Solo against Solitairix",
    ):
        assert title in text
    assert "## Win rate by place in turn order" not in text  # seat order is turn order in Celtae
    for png in ("win_rate_by_seat.png", "scores.png", *CELTAE_PNGS):
        assert (tmp_path / png).read_bytes().startswith(b"\x89PNG")
        assert f"({png})" in text
    leader_rows = [
        line
        for line in text.split("## Leaders")[1].split("##")[0].splitlines()
        if line.startswith("| ") and not line.startswith("| leader")
    ]
    assert sum(int(line.split("|")[2]) for line in leader_rows) == 2 * 4  # every seat of every game
    for d, target in (("easy", 25), ("normal", 30), ("hard", 35)):
        assert f"| random | {d} | {target} |" in text


def test_celtae_report_takes_bot_specs_with_parameters(tmp_path) -> None:
    text = write_report("celtae", {"players": 2}, 2, tmp_path, bots=("random", "greedy:noise=5")).read_text()
    assert "## Solo against Solitairix" in text and "greedy:noise=5" in text


def test_an_interrupted_report_resumes_from_its_games_files(tmp_path) -> None:
    first = write_report(
        "garum", {"players": 2, "board": "baelo_claudia"}, 3, tmp_path, bots=("random",), compare=False
    ).read_text()
    journals = sorted(tmp_path.glob("games_*.jsonl"))
    assert len(journals) == 1 and len(journals[0].read_text().splitlines()) == 3
    lines = journals[0].read_text().splitlines()
    journals[0].write_text("\n".join(lines[:1]) + "\n")  # as if stopped after one game
    again = write_report(
        "garum", {"players": 2, "board": "baelo_claudia"}, 3, tmp_path, bots=("random",), compare=False
    ).read_text()
    assert again == first
    assert len(journals[0].read_text().splitlines()) == 3


def test_celtae_solo_report_compares_difficulties_and_adds_its_sections(tmp_path) -> None:
    text = write_report("celtae", {"players": 1}, 2, tmp_path, bots=("random",)).read_text()
    assert "## By difficulty" in text and "difficulty=hard" in text and "## Leaders" in text
    assert "In solo an unmet card with markers costs its markers." in text


def test_celtae_facts_agree_with_the_final_scores() -> None:
    results = simulate("celtae", {"players": 3}, ["random"], 4, seed=2, progress=False, facts=celtae_facts)
    leaders = {x["name"]: x for x in ludus.load_game("celtae", players=3).data.leaders}
    for r in results:
        facts = r["facts"]
        for s, seat in enumerate(facts["seats"]):
            b = seat["breakdown"]
            assert b["total"] == r["scores"][s]
            assert len(seat["bonus_tiles"]) == b["B"]
            assert b["K"] == (leaders[seat["leader"]][seat["side"]]["points"] if seat["leader_met"] else 0)
            assert b["J"] == sum(card["marks"] for card in facts["progress"] if card["met"][s])
        assert sum(sum(seat["build_bonuses"].values()) for seat in facts["seats"]) > 0


def test_facts_from_worker_processes_equal_those_played_in_line() -> None:
    one = simulate(
        "celtae", {"players": 2}, ["random"], 2, seed=4, jobs=1, progress=False, facts=celtae_facts
    )
    two = simulate(
        "celtae", {"players": 2}, ["random"], 2, seed=4, jobs=2, progress=False, facts=celtae_facts
    )
    assert one == two and all("facts" in r for r in one)


def _seat(leader: str, side: str, met: bool, k: int, tiles=(), builds=None, **points) -> dict:
    breakdown = dict.fromkeys("ABCDEFGHIJK", 0) | {"K": k} | points
    breakdown["total"] = sum(breakdown.values())
    return {
        "leader": leader,
        "side": side,
        "leader_met": met,
        "breakdown": breakdown,
        "bonus_tiles": list(tiles),
        "build_bonuses": builds or {},
    }


# three two-player games, counted by hand in the tests below
HAND = [
    {
        "scores": [12, 8],
        "returns": [1.0, 0.0],
        "facts": {
            "seats": [
                _seat("Boudica", "B", True, 3, tiles=["token"], builds={"token": 2, "draw": 1}, A=4, J=5),
                _seat("Avarus", "A", True, 1, builds={"draw": 1}, A=2, J=0),
            ],
            "progress": [
                {"card": "2+ bonus tiles", "marks": 2, "met": [True, False]},
                {"card": "majority of farmers", "marks": 3, "met": [True, True]},
            ],
        },
    },
    {
        "scores": [6, 10],
        "returns": [0.0, 1.0],
        "facts": {
            "seats": [
                _seat("Boudica", "A", False, 0, builds={"strength": 1}, A=1),
                _seat("Viriato", "B", False, 0, tiles=["token", "draw"], builds={"token": 1}, A=3, J=4),
            ],
            "progress": [{"card": "2+ bonus tiles", "marks": 1, "met": [False, True]}],
        },
    },
    {
        "scores": [9, 9],
        "returns": [0.5, 0.5],
        "facts": {
            "seats": [_seat("Avarus", "B", True, 3, A=2), _seat("Viriato", "A", True, 1, A=2)],
            "progress": [{"card": "majority of farmers", "marks": 2, "met": [False, False]}],
        },
    },
]


def test_leader_statistics_match_a_hand_count() -> None:
    rows = {x["leader"]: x for x in leader_stats(HAND)}
    assert list(rows) == ["Avarus", "Boudica", "Viriato"]
    b = rows["Boudica"]  # won (B, held, 3 points), lost (A, failed)
    assert b["games"] == 2 and b["win_rate"] == 0.5 and b["points"] == 1.5 and b["flipped"] == 0.5
    assert b["a_success"] == 0.0 and b["b_success"] == 1.0
    v = rows["Viriato"]  # won (B, failed), shared (A, held)
    assert v["win_rate"] == 0.75 and v["points"] == 0.5 and v["b_success"] == 0.0 and v["a_success"] == 1.0
    a = rows["Avarus"]  # lost (A, held), shared (B, held)
    assert a["win_rate"] == 0.25 and a["points"] == 2.0 and a["flipped"] == 0.5


def test_progress_card_statistics_match_a_hand_count() -> None:
    rows = {x["card"]: x for x in progress_stats(HAND)}
    bonus = rows["2+ bonus tiles"]  # game 1: 2 markers, seat 0 (won) met; game 2: 1 marker, seat 1 (won) met
    assert (
        bonus["games"] == 2 and bonus["marks"] == 1.5 and bonus["scored"] == 1.0 and bonus["met_rate"] == 0.5
    )
    assert bonus["points_when_met"] == 1.5 and bonus["win_met"] == 1.0 and bonus["win_unmet"] == 0.0
    farmers = rows["majority of farmers"]  # game 1: both met 3 markers; game 3: nobody met
    assert farmers["scored"] == 0.5 and farmers["met_rate"] == 0.5 and farmers["points_when_met"] == 3
    assert farmers["win_met"] == 0.5 and farmers["win_unmet"] == 0.5


def test_bonus_statistics_match_a_hand_count() -> None:
    rows = {x["kind"]: x for x in bonus_stats(HAND, ("token", "recruit", "draw", "strength"))}
    token = rows["token"]  # tiles: seat 0 of game 1 (won, 12), seat 1 of game 2 (won, 10)
    assert (
        token["tiles"] == 2
        and token["tile_seats"] == 2
        and token["tile_win"] == 1.0
        and token["tile_score"] == 11
    )
    assert token["no_tile_win"] == 0.25  # 0 + 0 + 0.5 + 0.5 over four seats
    assert token["build_seats"] == 2 and token["builds"] == 3 and token["build_per_seat"] == 0.5
    draw = rows["draw"]  # tile: game 2 seat 1; built: game 1 both seats (won 12, lost 8)
    assert draw["tile_seats"] == 1 and draw["build_seats"] == 2 and draw["build_win"] == 0.5
    assert draw["build_score"] == 10
    assert rows["recruit"]["tile_win"] is None and rows["recruit"]["build_seats"] == 0
    assert rows["strength"]["build_win"] == 0.0 and rows["strength"]["build_score"] == 6


def test_category_means_split_winners_from_the_others() -> None:
    rows = {x["category"]: x for x in category_stats(HAND)}
    assert rows["A"]["mean"] == (4 + 2 + 1 + 3 + 2 + 2) / 6
    assert rows["A"]["winners"] == (4 + 3 + 2 + 2) / 4 and rows["A"]["others"] == (2 + 1) / 2
    assert rows["K"]["winners"] == (3 + 0 + 3 + 1) / 4 and rows["J"]["others"] == 0


def test_solo_win_rates_count_scores_reaching_each_target() -> None:
    rows = solo_stats([24, 25, 30, 34, 35, 40], {"easy": 25, "normal": 30, "hard": 35})
    assert [(x["difficulty"], x["wins"]) for x in rows] == [("easy", 5), ("normal", 4), ("hard", 2)]
    assert rows[2]["win_rate"] == 2 / 6 and rows[0]["target"] == 25


def test_a_rates_interval_is_never_zero_over_few_games_and_normal_over_many():
    from ludus.arena.report import _interval

    assert _interval(0.0, 10) > 0.15 and _interval(1.0, 10) > 0.15  # 0 of 10 says little
    assert math.isclose(_interval(0.0, 10), _interval(1.0, 10))  # a win rate and its loss rate alike
    normal = 1.96 * math.sqrt(0.5 * 0.5 / 2000)
    assert abs(_interval(0.5, 2000) - normal) < 1e-4  # over many games, the normal interval
    assert _interval(0.3, 0) == 0.0
