"""Final scoring A..K (and the solo changes), computed from the state at any time.

Majorities need at least 1 item and all tied at the top score (ruling 23). In solo,
majority cards not about workers compare with Solitairix (a tie counts for the player,
0 against 0 fails), worker-majority cards need the printed minimum, and an unmet card
with markers scores its markers as negative points (ruling 31).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from .board import D
from .core import CeltaeBase

CATEGORIES = ("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K")


def stats(state: CeltaeBase, o: int) -> dict[str, Any]:
    """What progress cards and leaders look at, for owner ``o``."""
    colour = [0, 0, 0, 0]
    region = [0, 0]
    for idx, cit in enumerate(state.citadels):
        k = cit.count(o)
        colour[idx % 4] += k
        region[idx // 4] += k
    tr = state.tribe[o]
    rt = state.data.roman_tiles
    dt = state.data.druid_tiles
    return {
        "colour": colour,
        "region": region,
        "bonus": state.bonus_owner.count(o),
        "types": tr[:4],
        "workers": tr[0] + tr[1] + tr[2] + tr[3],
        "druids": tr[D],
        "druid_tiles": len(state.druid_won[o]),
        "roman": len(state.roman_won[o]),
        "roman_by_points": [sum(1 for t in state.roman_won[o] if rt[t][0] == p) for p in (1, 2)],
        "druid_by_points": [sum(1 for t in state.druid_won[o] if dt[t][0] == p) for p in (1, 2)],
        "garrison": [state.garrison[r].count(o) for r in (0, 1)],
        "cubes": state.cubes[o],
        "discs": state.discs[o],
    }


def stat_value(st: dict, kind: str, arg: int) -> int:
    """The figure of ``stats`` output that a progress card of ``kind`` about ``arg`` compares."""
    if kind.startswith("colour"):
        return st["colour"][arg]
    if kind == "region_maj":
        return st["region"][arg]
    if kind.startswith("bonus"):
        return st["bonus"]
    if kind == "worker_maj":
        return st["types"][arg]
    if kind == "druid_workers_min":
        return st["druids"]
    if kind.startswith("workers"):
        return st["workers"]
    if kind.startswith("druid_tiles"):
        return st["druid_tiles"]
    if kind.startswith("roman"):
        return st["roman"]
    return st["garrison"][arg]  # garrison_min


def meets(state: CeltaeBase, seat: int, card: int, all_stats: list[dict] | None = None) -> bool:
    """Whether ``seat`` fulfils progress card ``card`` (an index into the data's cards)."""
    d = state.data
    kind, arg, need, _slots = d.progress_cards[card]
    if all_stats is None:
        all_stats = [stats(state, o) for o in range(state.np)]
    mine = stat_value(all_stats[seat], kind, arg)
    if not kind.endswith("_maj"):
        return mine >= need
    if state.solo:
        if kind == "worker_maj":
            return mine >= d.solo_type_min
        if kind == "workers_maj":
            return mine >= d.solo_workers_min
        return mine >= 1 and mine >= stat_value(all_stats[1], kind, arg)
    return mine >= 1 and all(mine >= stat_value(all_stats[o], kind, arg) for o in range(state.n))


def leader_holds(state: CeltaeBase, seat: int, side: int, st: dict | None = None) -> bool:
    """Whether the condition on ``side`` (0 = A, 1 = B) of the seat's leader is met."""
    lid = state.leaders[seat]
    if lid < 0:
        return False
    cond = state.data.leaders[lid]["AB"[side]]
    st = st or stats(state, seat)
    need = cond["need"]
    kind = cond["kind"]
    if kind == "roman_by_points":
        return all(x >= y for x, y in zip(st["roman_by_points"], need, strict=False))
    if kind == "druid_by_points":
        return all(x >= y for x, y in zip(st["druid_by_points"], need, strict=False))
    if kind == "discs_by_region":
        return all(x >= y for x, y in zip(st["region"], need, strict=False))
    value = {
        "cubes": st["cubes"],
        "tribe_nondruid": st["workers"],
        "bonus_tiles": st["bonus"],
        "discs": st["discs"],
    }[kind]
    return value >= need[0]


def score_breakdown(state: CeltaeBase, seat: int) -> dict[str, int]:
    return breakdown_from_stats(state, seat, [stats(state, o) for o in range(state.np)])


def breakdown_from_stats(state: CeltaeBase, seat: int, all_stats: list[dict]) -> dict[str, int]:
    """Categories A..K and the total from every seat's ``stats`` (gathered once by callers that
    score several seats, such as the bots' heuristic)."""
    d = state.data
    st = all_stats[seat]
    out = dict.fromkeys(CATEGORIES, 0)
    out["A"] = sum(cit.count(seat) for cit in state.citadels if -1 not in cit)
    out["B"] = st["bonus"] * d.bonus_tile_points
    out["C"] = sum(d.druid_tiles[t][0] for t in state.druid_won[seat])
    out["D"] = sum(d.roman_tiles[t][0] for t in state.roman_won[seat])
    rivals = [1] if state.solo else [o for o in range(state.n) if o != seat]
    for r in (0, 1):
        mine = st["garrison"][r]
        if mine >= 1 and all(mine >= all_stats[o]["garrison"][r] for o in rivals):
            out["E"] += mine
    tribe_size = st["workers"] + st["druids"]
    out["F"] = sum(1 for sp in d.tribe_point_spaces if tribe_size >= sp)
    out["G"] = sum(1 for h in d.disc_point_holes if state.discs[seat] >= h)
    out["H"] = 1 if state.cubes[seat] >= d.cubes else 0
    out["I"] = (state.strength[seat] + sum(state.hands[seat])) // 5
    for i, card in enumerate(state.prog_cards):
        marks = state.prog_marks[i]
        if not marks:
            continue
        if meets(state, seat, card, all_stats):
            out["J"] += marks
        elif state.solo:
            out["J"] -= marks
    lid = state.leaders[seat]
    if lid >= 0:
        side = state.leader_side[seat]
        if leader_holds(state, seat, side, st):
            out["K"] = d.leaders[lid]["AB"[side]]["points"]
    out["total"] = sum(out[c] for c in CATEGORIES)
    return out


_TOTALS: dict[tuple, tuple[int, ...]] = {}
_TOTALS_MAX = 1_024  # entries of about 1 KiB; consecutive steps share their layout


def totals(state: CeltaeBase) -> list[int]:
    """Every seat's ``score_breakdown(...)["total"]``, the categories but I memoised on what they read.

    Only category I (strength and cards) moves on most steps; the rest changes when a disc,
    tile, worker, cube or marker does, so it is worked out once for each such layout.
    """
    s = state
    key = (
        s.game,
        s.n,
        s.solo,
        *chain(*s.citadels, *s.tribe, *s.garrison),
        *s.bonus_owner,
        *s.discs,
        *s.cubes,
        *s.prog_cards,
        *s.prog_marks,
        *s.leaders,
        *s.leader_side,
        *map(tuple, s.roman_won),
        *map(tuple, s.druid_won),
    )
    base = _TOTALS.get(key)
    if base is None:
        all_stats = [stats(s, o) for o in range(s.np)]
        rest = []
        for seat in range(s.n):
            out = breakdown_from_stats(s, seat, all_stats)
            rest.append(out["total"] - out["I"])
        if len(_TOTALS) >= _TOTALS_MAX:
            _TOTALS.clear()
        base = _TOTALS[key] = tuple(rest)
    strength, hands = s.strength, s.hands
    return [b + (strength[seat] + sum(hands[seat])) // 5 for seat, b in enumerate(base)]
