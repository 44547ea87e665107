"""Solitairix's turns in words and as steps the board can show one by one.

The engine plays a whole Solitairix turn inside one action (``solo.solitairix_turn``) and keeps each
turn's facts (``solo.turns``). Here each becomes a log entry: a sentence for the turn and its steps,
each step with the pieces of the board it moved (their ``data-key`` in the browser's board), so the
page can replay the turn step by step with the moved pieces marked, as a bot's turn is seen.
"""

from __future__ import annotations

from typing import Any, cast

from . import board as G
from .actions import ACT_VERBS, card_name
from .core import CeltaeBase
from .observation_types import SolitairixStep, SolitairixTurn
from .solo import MAX_DISCARDS, SX, TURN_FIELDS, turns, won
from .words import REGIONS, WORKERS, a, card, listed, plural

NAME = "Solitairix"
SPACES = ("first", "second", "third")
AREA_WORDS = ("north Farm / Build area", "Battle area", "south Farm / Build area", "Recruit area")
COLOUR_LETTERS = "OPUT"


def solitairix_turns(state: CeltaeBase) -> list[dict[str, Any]]:
    """Every turn Solitairix played, for the move log: each after ``after`` actions of the record,
    with its facts (``turn``), its steps (``play``: a sentence and the board's pieces each) and the
    whole turn as a sentence (each an ``observation_types.SolitairixTurn``)."""
    out: list[SolitairixTurn] = []
    quarter = 0  # the tile starts on its first quarter; only Solitairix turns it
    for entry in turns(state):
        t = dict(zip(TURN_FIELDS, entry, strict=False))
        kinds = [k for k in entry[len(TURN_FIELDS) : len(TURN_FIELDS) + MAX_DISCARDS] if k >= 0]
        play = _play(state, t, kinds, won(entry), quarter)
        region = "NS"[t["region"]]
        out.append(
            {
                "seat": SX,
                "name": NAME,
                "after": t["ply"],
                "auto": True,
                "solitairix": True,
                "action": f"solitairix {ACT_VERBS[t['kind']]} {region}",
                "text": "; ".join(step["text"] for step in play),
                "turn": {
                    "card": card_name(t["card"]) if t["card"] >= 0 else None,
                    "steps": t["steps"],
                    "side": state.sx_side + 1,
                    "quarter": t["quarter"] + 1,
                    "quarter_before": quarter + 1,
                    "marker_before": G.CORNER_NAMES[(t["marker"] - t["steps"]) % 4],
                    "marker": G.CORNER_NAMES[t["marker"]],
                    "swap": t["swap"],
                    "action": f"{ACT_VERBS[t['kind']]} {region}",
                    "discarded": [card_name(k) for k in kinds],
                },
                "play": play,
            }
        )
        quarter = t["quarter"]
    return cast("list[dict[str, Any]]", out)  # the server's move log merges them with the record's entries


def _play(
    state: CeltaeBase, t: dict[str, int], kinds: list[int], gains: dict[str, int], quarter: int
) -> list[SolitairixStep]:
    """The turn's steps: the card drawn, the marker's move, the tile turned, the swap, the action."""
    start = (t["marker"] - t["steps"]) % 4
    crosses = any((start + i) % 4 == G.CROSSING_FROM for i in range(t["steps"]))
    drawn = f"drew {a(card(state, t['card']))}" if t["card"] >= 0 else "drew no card (the deck is empty)"
    turned = t["quarter"] - quarter
    steps: list[SolitairixStep] = [
        {"text": drawn, "keys": ["solitairix-card"]},
        {
            "text": f"moved the marker {plural(t['steps'], 'step')} from {G.CORNER_NAMES[start]} to "
            f"{G.CORNER_NAMES[t['marker']]}" + (", crossing the river" if crosses else ""),
            "keys": [f"corner-{G.CORNER_NAMES[t['marker']]}"],
            "marker": [G.CORNER_NAMES[start], G.CORNER_NAMES[t["marker"]]],
        },
        {
            "text": f"turned its tile {'twice' if turned % 4 == 2 else 'once'}, to quarter {t['quarter'] + 1}",
            "keys": ["solitairix-tile"],
            "quarter": [quarter + 1, t["quarter"] + 1],
        },
        _swap(t),
        _action(state, t, kinds, gains),
    ]
    return steps


def _swap(t: dict[str, int]) -> SolitairixStep:
    area = G.area_of(t["kind"], t["region"])
    if t["swap"] == 0:
        return {
            "text": f"refreshed the {AREA_WORDS[area]} from the centre",
            "keys": [f"area-{area}", "centre"],
        }
    slot = t["swap"] - 1
    if t["gave"] < 0:
        return {"text": f"swapped no worker (nothing to swap in the {SPACES[slot]} space)", "keys": []}
    return {
        "text": f"swapped its {WORKERS[t['gave']]} for the {WORKERS[t['took']]} in the {SPACES[slot]} "
        f"space of the {AREA_WORDS[area]}",
        "keys": [f"area-{area}-{slot}"],
    }


def _action(state: CeltaeBase, t: dict[str, int], kinds: list[int], gains: dict[str, int]) -> SolitairixStep:
    d = state.data
    r = t["region"]
    where = REGIONS[r]
    region = "NS"[r]
    kind = t["kind"]
    if kind == G.FARM:
        dropped = (
            f", discarding {listed([a(card(state, k)) for k in kinds])} from the market" if kinds else ""
        )
        return {"text": f"farmed in the {where}{dropped}", "keys": [f"market-{region}", f"act-farm-{region}"]}
    if kind == G.BUILD:
        colour = t["card"] // 3
        return {
            "text": f"built a disc on the {d.colours[colour]} citadel in the {where}",
            "keys": [f"citadel-{region}-{COLOUR_LETTERS[colour]}", f"act-build-{region}"],
        }
    if kind == G.BATTLE:
        tile = gains["tile"]
        what = f"the {d.roman_tiles[tile].points}-point Roman army tile" if tile >= 0 else "a Roman army tile"
        cube = gains["cube"]
        keys = [f"roman-{region}", f"act-battle-{region}"]
        text = f"went to battle in the {where} and won {what}"
        if cube >= 0:
            text += f", placing a garrison cube on {a(d.icons[cube])} space"
            keys.append(f"garrison-{region}")
        return {"text": text, "keys": keys}
    tile = gains["tile"]
    what = f"the {d.druid_tiles[tile].points}-point druid tile" if tile >= 0 else "a druid tile"
    return {
        "text": f"recruited in the {where}, taking {what}",
        "keys": [f"druid-{region}", f"act-recruit-{region}"],
    }
