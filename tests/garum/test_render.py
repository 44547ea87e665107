"""Garum's text and SVG boards, drawn from observations."""

from __future__ import annotations

import copy
import random
import re
import xml.etree.ElementTree as ET

import pytest

import ludus
from ludus.bots import make
from ludus.games.garum.render import render_svg, render_text

SVG = "{http://www.w3.org/2000/svg}"


def played(actions: int, **options) -> ludus.State:
    state = ludus.load_game("garum", **options).new_initial_state(seed=11)
    bot = make("random", seed=2)
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_action(bot.step(state))
    return state


def elements(svg: str, cls: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if e.get("class") == cls]


def board_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"\s*h\d+ ", line)]


def test_text_board_shows_fish_letters_where_tiles_lie():
    state = played(30)
    obs = state.observation(None)
    rows = board_rows(render_text(obs, color=False))
    assert len(rows) == 16
    for r, row in enumerate(rows):
        body = re.sub(r"[|:]", "", row[5:])  # 16 cells of 3 characters, then any worker
        shown = "".join(c if c in "BGYR" else "." for c in body[1:48:3])
        expected = obs["fish"][r].replace(" ", ".")
        assert shown == expected


def test_text_board_numbers_every_cetarium():
    text = render_text(played(0).observation(None), color=False)
    for n in range(1, 17):
        assert re.search(rf"[-=\[ ]{n}[-=\] ]", text)


def test_text_board_of_baelo_claudia_has_holes_and_twelve_cetaria():
    obs = played(0, board="baelo_claudia").observation(None)
    text = render_text(obs, color=False)
    assert re.search(r"\b12\b", text) and not re.search(r"-- 13 --", text)
    first = board_rows(text)[0]
    assert first.startswith("  h1" + " " * 14)  # cetarium column 1 of row 1 is a hole


def test_text_board_marks_empty_bonus_spaces_until_covered():
    fresh = played(0)
    obs = fresh.observation(None)
    marks = sum(len(re.findall(r" [bgyr*] ", row[5:])) for row in board_rows(render_text(obs, color=False)))
    assert marks == len(obs["bonuses"])
    final = played(10_000)
    assert not any(
        re.search(r" [bgyr*] ", row[5:])
        for row in board_rows(render_text(final.observation(None), color=False))
    )


def test_text_board_shows_workers_beside_their_lines():
    obs = played(10_000).observation(None)
    text = render_text(obs, color=False)
    rows = board_rows(text)
    for w in obs["workers"]:
        if w["line"].startswith("h"):
            assert rows[int(w["line"][1:]) - 1].endswith(w["colour"] + w["kind"])
    footer = text.split("\n\n")[0].splitlines()[-1]
    assert sum(1 for w in obs["workers"] if w["line"].startswith("v")) == len(
        re.findall(r"[BGYR][VD]", footer)
    )


def test_text_shows_own_hand_only_and_colours_with_letters():
    state = played(5)
    mine = render_text(state.observation(0), color=False)
    public = render_text(state.observation(None), color=False)
    hand = state.observation(0)["colours"][0]["hand"]
    assert " ".join(hand) in mine and " ".join(hand) not in public
    assert "(4 hidden)" in public
    for letter, species in zip("BGYR", ("tuna", "mackerel", "mollusc", "shellfish"), strict=True):
        assert re.search(rf"{letter} \w+ {species}", public)


def test_color_false_is_plain_and_color_true_is_ansi():
    obs = played(12).observation(None)
    assert "\x1b[" not in render_text(obs, color=False)
    coloured = render_text(obs, color=True)
    assert "\x1b[" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == render_text(obs, color=False)


def test_text_reports_the_end_scores_and_winners():
    state = played(10_000)
    text = render_text(state.observation(None), color=False)
    assert "The game is over." in text
    assert "Winner: " + " and ".join(f"seat {s + 1}" for s in state.winners()) in text


@pytest.mark.parametrize("actions", [0, 17, 60, 10_000])
def test_svg_parses_and_has_one_fish_element_per_placed_fish(actions):
    obs = played(actions).observation(None)
    svg = render_svg(obs)
    assert ET.fromstring(svg).tag == f"{SVG}svg"
    placed_fish = sum(ch in "BGYR" for row in obs["fish"] for ch in row)
    assert placed_fish == 4 * len(obs["placed"])
    assert len(elements(svg, "fish")) == placed_fish
    assert len(elements(svg, "worker")) == len(obs["workers"])
    assert len(elements(svg, "cetarium-number")) == 16
    empty_bonus = sum(obs["fish"][r][c] == "." for r, c in (b["cell"] for b in obs["bonuses"]))
    assert len(elements(svg, "bonus")) == empty_bonus


def test_svg_fish_carry_their_letter():
    svg = render_svg(played(40).observation(None))
    for g in elements(svg, "fish"):
        assert g.find(f"{SVG}text").text == g.get("data-species")


def test_svg_options_holes_highlight_and_size():
    obs = played(20, board="baelo_claudia").observation(None)
    svg = render_svg(obs, size=400, show_bonuses=False, show_coordinates=False, highlight=5)
    root = ET.fromstring(svg)
    assert root.get("width") == "400"
    assert len(elements(svg, "hole")) == 4
    assert elements(svg, "bonus") == [] and elements(svg, "coordinate") == []
    assert [e.get("data-cetarium") for e in elements(svg, "highlight")] == ["5"]
    assert elements(render_svg(obs), "highlight") == []


def test_renderers_are_pure():
    obs = played(33).observation(1)
    before = copy.deepcopy(obs)
    assert render_svg(obs) == render_svg(copy.deepcopy(obs))
    assert render_text(obs) == render_text(copy.deepcopy(obs))
    assert obs == before


def test_state_draws_itself_in_notebooks():
    state = played(9)
    assert state._repr_svg_() == render_svg(state.observation(None))


def test_text_board_says_why_a_cetariums_rows_or_columns_take_no_worker():
    """Ruling: a line is closed when the other cetaria of its area are full, not its own."""
    state = ludus.load_game("garum", players=2).new_initial_state(seed=5)
    rng = random.Random(5)
    while not any((state.observation(None)["closed"] or {}).values()):
        state.apply_action(rng.choice(state.legal_actions()))
    text = render_text(state.observation(None), color=False)
    assert "the other cetaria of that area are already full" in text
    assert "their area is full" not in text
