"""Celtae data files: provenance on every value, checked at load, clear errors when broken."""

from __future__ import annotations

import json
import shutil

import pytest

from ludus.engine.data import PROVENANCES, provenance
from ludus.engine.errors import DataFileError
from ludus.games.celtae import data

FILES = ("cards", "citadels", "bonus", "board", "roman", "druids", "garrisons", "progress", "leaders", "solo")


def test_every_file_loads_and_every_value_has_a_provenance():
    d = data.load()
    assert len(d.colours) == 4 and len(d.icons) == 3 and d.copies * 12 == 60
    for name in FILES:
        tags = provenance(data.DATA_DIR / f"{name}.json")
        assert tags and all(t in PROVENANCES for t in tags.values())


def test_component_counts_match_the_rulebook():
    d = data.load()
    assert len(d.roman_tiles) == 10 and len(d.druid_tiles) == 10
    assert len(d.leaders) == 8 and len(d.progress_cards) == 26
    assert sum(d.workers) == 66 and d.workers[4] == 10 and d.tokens_total == 10
    assert d.market_costs == (0, 1, 1, 1, 2, 2)
    assert [d.track[n] for n in (2, 3, 4)] == [8, 9, 12]
    assert d.targets == {"easy": 25, "normal": 30, "hard": 35}
    # every Solitairix action leads at least one quarter
    leads = {q[0][0] for side in d.solo_sides for q in side}
    assert leads == {0, 1, 2, 3}


def _broken(tmp_path, name, change):
    target = tmp_path / "data"
    shutil.copytree(data.DATA_DIR, target)
    path = target / f"{name}.json"
    raw = json.loads(path.read_text())
    change(raw)
    path.write_text(json.dumps(raw))
    return target


@pytest.mark.parametrize(
    "name,change,message",
    [
        ("cards", lambda r: r["copies"].update(value=4), "total"),
        ("cards", lambda r: r["market_costs"].update(value=[0, 1, 1]), "market_costs"),
        ("cards", lambda r: r["colours"].update(provenance="guess"), "provenance"),
        ("roman", lambda r: r["stack"]["value"].update({"4": [3, 3]}), "more tiles than exist"),
        ("druids", lambda r: r["tiles"]["value"][0].update(needs=["wizard"]), "unknown worker"),
        ("progress", lambda r: r["cards"]["value"][0].update(kind="nonsense"), "bad progress card"),
        ("progress", lambda r: r["track"]["value"].update({"4": 40}), "fewer progress slots"),
        ("solo", lambda r: r["sides"]["value"][0][0].update(actions=["build"]), "must end with farm"),
        ("leaders", lambda r: r["leaders"]["value"][0]["A"].update(kind="luck"), "leader"),
        ("board", lambda r: r.pop("workers"), "missing value 'workers'"),
        ("garrisons", lambda r: r["blocked"]["value"].update({"3": ["dragon"]}), "blocked"),
    ],
)
def test_a_broken_file_fails_naming_the_file_and_the_problem(tmp_path, name, change, message):
    folder = _broken(tmp_path, name, change)
    with pytest.raises(DataFileError) as err:
        data.load(folder)
    assert f"{name}.json" in str(err.value) and message in str(err.value)


def test_invalid_json_fails_with_the_file_name(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(data.DATA_DIR, target)
    (target / "citadels.json").write_text("{not json")
    with pytest.raises(DataFileError, match="citadels.json: not valid JSON"):
        data.load(target)


def test_ruling_26_the_26th_progress_card_is_a_tagged_second_copy():
    d = data.load()
    kinds = [(c[0], c[1], c[2]) for c in d.progress_cards]
    dupes = {k for k in kinds if kinds.count(k) > 1}
    assert dupes == {("roman_min", -1, 3)}
    assert provenance(data.DATA_DIR / "progress.json")["cards"] == "reconstructed"
    raw = json.loads((data.DATA_DIR / "progress.json").read_text())
    assert "26th" in raw["cards"]["note"]
