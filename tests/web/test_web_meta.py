"""``/api/meta`` in a player's words: every option's label and the words of each value (a game's
own, or its name and values as written for an option without), the rulings-level options marked
advanced, no ruling numbers shown; and each game's board preview for the lobby's cards."""

from __future__ import annotations

import re

import pytest

import ludus
from ludus.engine import Hooks, Option
from ludus.engine.registry import game_class
from ludus.web import meta as meta_module


@pytest.fixture(scope="module")
def meta(client):
    return client.get("/api/meta").json()


def test_every_option_has_a_label_and_words_for_each_value(meta):
    for g in meta["games"]:
        for o in g["options"]:
            assert o["label"] and isinstance(o["advanced"], bool), (g["name"], o["name"])
            assert len(o["choice_labels"]) == len(o["choices"]), (g["name"], o["name"])
            assert all(isinstance(w, str) and w for w in o["choice_labels"]), (g["name"], o["name"])


def test_the_built_in_games_show_no_ruling_numbers_nor_raw_values(meta):
    for g in meta["games"]:
        for o in g["options"]:
            shown = [o["label"], *o["choice_labels"]]
            assert not any(re.search(r"\bruling\b|\bTrue\b|\bFalse\b|\bNone\b|_", w) for w in shown), shown
    celtae = {o["name"]: o for o in next(g for g in meta["games"] if g["name"] == "celtae")["options"]}
    assert celtae["token_moves_marker"]["label"] == "A token played to act anywhere also moves your marker"
    assert celtae["token_moves_marker"]["advanced"] and celtae["solo_adjacent"]["advanced"]
    difficulty = dict(
        zip(map(str, celtae["difficulty"]["choices"]), celtae["difficulty"]["choice_labels"], strict=True)
    )
    assert difficulty["easy"] == "Easy — beat 25 points" and difficulty["hard"] == "Hard — beat 35 points"
    assert difficulty["None"] == difficulty["normal"]  # no difficulty is the rules' Normal Mode
    garum = {o["name"]: o for o in next(g for g in meta["games"] if g["name"] == "garum")["options"]}
    assert "Baelo Claudia (12 rounds, hand of 3)" in garum["board"]["choice_labels"]
    assert not garum["colours"]["advanced"] and garum["rotation"]["advanced"]


def test_an_option_without_words_shows_its_name_and_values_as_written():
    shown = meta_module._option(
        game_class("garum"), Option("dice_count", (None, True, "two_by_two"), None, "doc")
    )
    assert shown["label"] == "dice count" and shown["doc"] == "doc" and shown["advanced"] is False
    assert shown["choice_labels"] == ["none", "yes", "two by two"]
    partly = meta_module._option(
        game_class("garum"), Option("x", (1, 2), 1, label="Ex", choice_labels=("one",))
    )
    assert partly["label"] == "Ex" and partly["choice_labels"] == ["one", "2"]


def test_more_words_than_choices_is_refused():
    with pytest.raises(ValueError, match="more choice_labels than choices"):
        Option("x", (1, 2), 1, choice_labels=("a", "b", "c"))


def test_each_game_drawing_boards_has_a_preview_drawn_once(client, meta):
    for g in meta["games"]:
        assert g["preview"] == f"/api/meta/{g['name']}/preview.svg"
        before = meta_module.preview.cache_info().misses
        first = client.get(g["preview"])
        again = client.get(g["preview"])
        assert first.status_code == 200 and first.headers["content-type"] == "image/svg+xml"
        assert first.text.startswith("<svg") and first.text == again.text
        assert meta_module.preview.cache_info().misses <= before + 1  # the second is the cached drawing


def test_a_preview_of_no_installed_game_is_a_404(client):
    answer = client.get("/api/meta/chess/preview.svg")
    assert answer.status_code == 404 and "no game named 'chess'" in answer.json()["detail"]


def test_a_game_without_an_svg_renderer_gets_no_preview_and_no_error(client, monkeypatch):
    cls = type(ludus.load_game("garum"))
    monkeypatch.setattr(cls, "hooks", Hooks())
    garum = next(g for g in client.get("/api/meta").json()["games"] if g["name"] == "garum")
    assert garum["preview"] is None and garum["svg"] is False
    assert client.get("/api/meta/garum/preview.svg").status_code == 404


def test_a_renderer_that_fails_costs_the_card_its_drawing_only(monkeypatch):
    monkeypatch.setattr(
        meta_module, "_svg", lambda game, observation: (_ for _ in ()).throw(ValueError("broken"))
    )
    meta_module.preview.cache_clear()
    try:
        assert meta_module.preview("garum") is None
        garum = next(g for g in meta_module.meta()["games"] if g["name"] == "garum")
        assert garum["preview"] is None and garum["svg"] is True  # the card asks for no drawing
    finally:
        meta_module.preview.cache_clear()
