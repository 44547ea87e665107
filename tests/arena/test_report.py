"""Balance reports: Markdown with plots for a configuration and its boards and variants."""

from __future__ import annotations

import ludus
from ludus.arena.report import game_stats, seat_stats, turn_order_stats, write_report


def test_report_writes_markdown_and_plots(tmp_path) -> None:
    path = write_report("garum", {"players": 3, "board": "baelo_claudia"}, 4, tmp_path, bots=("random",))
    text = path.read_text()
    assert "## Win rate by seat" in text and "## By board" in text and "## By variant" in text
    assert "variant=emperor" in text and "board=troia" in text
    assert "## Win rate by place in turn order" in text
    for png in ("win_rate_by_seat.png", "win_rate_by_turn_order.png", "scores.png", "compare_board.png",
                "compare_variant.png"):
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
