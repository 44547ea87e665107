"""Final scoring A..K (and the solo changes), computed from the state at any time.

Majorities need at least 1 item and all tied at the top score (ruling 23). In solo,
majority cards not about workers compare with Solitairix (a tie counts for the player,
0 against 0 fails), worker-majority cards need the printed minimum, and an unmet card
with markers scores its markers as negative points (ruling 31).
"""

from __future__ import annotations

from functools import cache
from itertools import chain
from typing import Any

from .board import D
from .core import CeltaeBase

CATEGORIES = ("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K")
# the figure of ``stats`` that a leader's single-number condition compares
_LEADER_FIGURE = {"cubes": "cubes", "tribe_nondruid": "workers", "bonus_tiles": "bonus", "discs": "discs"}


_CITADELS: dict[tuple, tuple] = {}
_CITADELS_MAX = 1_000


def citadel_counts(
    state: CeltaeBase,
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    """By owner (``state.np``): discs by colour and by region, and discs on complete and on open
    citadels; counted once for each layout (the citadels change only when a disc is built), the
    figures shared, as tuples (read only; the collector skips tuples of numbers)."""
    np_ = state.np
    key = (np_, *map(tuple, state.citadels))
    counted = _CITADELS.get(key)
    if counted is None:
        colour = [[0, 0, 0, 0] for _ in range(np_)]
        region = [[0, 0] for _ in range(np_)]
        complete = [0] * np_
        open_ = [0] * np_
        for idx, cit in enumerate(state.citadels):
            c, r = idx % 4, idx // 4
            discs = complete if -1 not in cit else open_
            for o in range(np_):
                k = cit.count(o)
                if k:
                    colour[o][c] += k
                    region[o][r] += k
                    discs[o] += k
        if len(_CITADELS) >= _CITADELS_MAX:
            _CITADELS.clear()
        counted = _CITADELS[key] = (
            tuple(map(tuple, colour)),
            tuple(map(tuple, region)),
            tuple(complete),
            tuple(open_),
        )
    return counted


def all_owner_stats(state: CeltaeBase, counts: tuple | None = None) -> list[dict[str, Any]]:
    """What progress cards and leaders look at, for every owner (``state.np``): read only (the
    citadels' figures are ``citadel_counts``'s, given as ``counts`` by a caller that has them)."""
    colour, region, _complete, _open = counts or citadel_counts(state)
    rt = state.data.roman_tiles
    dt = state.data.druid_tiles
    bonus_owner, garrison, tribe, cubes, discs = (
        state.bonus_owner,
        state.garrison,
        state.tribe,
        state.cubes,
        state.discs,
    )
    out = []
    for o in range(state.np):
        tr = tribe[o]
        roman_won, druid_won = state.roman_won[o], state.druid_won[o]
        roman_pts = [rt[t][0] for t in roman_won]
        druid_pts = [dt[t][0] for t in druid_won]
        out.append(
            {
                "colour": colour[o],
                "region": region[o],
                "bonus": bonus_owner.count(o),
                "types": (tr[0], tr[1], tr[2], tr[3]),
                "workers": tr[0] + tr[1] + tr[2] + tr[3],
                "druids": tr[D],
                "druid_tiles": len(druid_won),
                "roman": len(roman_won),
                "roman_by_points": (roman_pts.count(1), roman_pts.count(2)),
                "druid_by_points": (druid_pts.count(1), druid_pts.count(2)),
                "garrison": (garrison[0].count(o), garrison[1].count(o)),
                "cubes": cubes[o],
                "discs": discs[o],
            }
        )
    return out


def stats(state: CeltaeBase, o: int) -> dict[str, Any]:
    """``all_owner_stats`` of owner ``o``."""
    return all_owner_stats(state)[o]


def stat_value(st: dict, kind: str, arg: int) -> int:
    """The figure of ``stats`` output that a progress card of ``kind`` about ``arg`` compares."""
    key, by_arg = _figure(kind)
    value = st[key]
    return value[arg] if by_arg else value


@cache
def _figure(kind: str) -> tuple[str, bool]:
    """The ``stats`` key a progress card of ``kind`` compares, and whether it is a list indexed by
    the card's argument (worked out once for each kind)."""
    if kind.startswith("colour"):
        return "colour", True
    if kind == "region_maj":
        return "region", True
    if kind.startswith("bonus"):
        return "bonus", False
    if kind == "worker_maj":
        return "types", True
    if kind == "druid_workers_min":
        return "druids", False
    if kind.startswith("workers"):
        return "workers", False
    if kind.startswith("druid_tiles"):
        return "druid_tiles", False
    if kind.startswith("roman"):
        return "roman", False
    return "garrison", True  # garrison_min


def meets(state: CeltaeBase, seat: int, card: int, all_stats: list[dict] | None = None) -> bool:
    """Whether ``seat`` fulfils progress card ``card`` (an index into the data's cards)."""
    d = state.data
    kind, arg, need, _slots = d.progress_cards[card]
    if all_stats is None:
        all_stats = all_owner_stats(state)
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
    return st[_LEADER_FIGURE[kind]] >= need[0]


def score_breakdown(state: CeltaeBase, seat: int) -> dict[str, int]:
    return breakdown_from_stats(state, seat, all_owner_stats(state))


def breakdown_from_stats(state: CeltaeBase, seat: int, all_stats: list[dict]) -> dict[str, int]:
    """Categories A..K and the total from every seat's ``stats`` (gathered once by callers that
    score several seats, such as the bots' heuristic)."""
    d = state.data
    st = all_stats[seat]
    a = 0
    for cit in state.citadels:
        if -1 not in cit:
            a += cit.count(seat)
    druid_tiles, roman_tiles = d.druid_tiles, d.roman_tiles
    c = 0
    for t in state.druid_won[seat]:
        c += druid_tiles[t][0]
    d_points = 0
    for t in state.roman_won[seat]:
        d_points += roman_tiles[t][0]
    tribe_size = st["workers"] + st["druids"]
    f = 0
    for space in d.tribe_point_spaces:
        if tribe_size >= space:
            f += 1
    discs = state.discs[seat]
    g = 0
    for hole in d.disc_point_holes:
        if discs >= hole:
            g += 1
    e = _garrison_points(state, seat, all_stats)
    j = _progress_points(state, seat, all_stats)
    k = 0
    lid = state.leaders[seat]
    if lid >= 0:
        side = state.leader_side[seat]
        if leader_holds(state, seat, side, st):
            k = d.leaders[lid]["AB"[side]]["points"]
    out = {
        "A": a,
        "B": st["bonus"] * d.bonus_tile_points,
        "C": c,
        "D": d_points,
        "E": e,
        "F": f,
        "G": g,
        "H": 1 if state.cubes[seat] >= d.cubes else 0,
        "I": (state.strength[seat] + sum(state.hands[seat])) // 5,
        "J": j,
        "K": k,
    }
    out["total"] = a + out["B"] + c + d_points + e + f + g + out["H"] + out["I"] + j + k
    return out


def _garrison_points(state: CeltaeBase, seat: int, all_stats: list[dict]) -> int:
    """Category E: the seat's soldiers in each region where it has the most (ties count for it)."""
    points = 0
    mine_both = all_stats[seat]["garrison"]
    rivals = [1] if state.solo else [o for o in range(state.n) if o != seat]
    for r in (0, 1):
        mine = mine_both[r]
        if mine >= 1 and all(mine >= all_stats[o]["garrison"][r] for o in rivals):
            points += mine
    return points


def _progress_points(state: CeltaeBase, seat: int, all_stats: list[dict]) -> int:
    """Category J: the markers on the progress cards the seat fulfils (in solo, less the others')."""
    points = 0
    prog_marks = state.prog_marks
    for i, card in enumerate(state.prog_cards):
        marks = prog_marks[i]
        if not marks:
            continue
        if meets(state, seat, card, all_stats):
            points += marks
        elif state.solo:
            points -= marks
    return points


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
        if len(_TOTALS) >= _TOTALS_MAX:
            _TOTALS.clear()
        base = _TOTALS[key] = _rest(s)
    strength, hands = s.strength, s.hands
    return [b + (strength[seat] + sum(hands[seat])) // 5 for seat, b in enumerate(base)]


def _rest(s: CeltaeBase) -> tuple[int, ...]:
    """Every seat's ``breakdown_from_stats`` total less category I, the seats added up side by side.

    The same figures as the breakdown (tests/celtae/test_speed_paths.py holds them equal at every
    step of random games); the solo game, with its own rules for E and J, takes the breakdown itself.
    """
    counts = citadel_counts(s)
    all_stats = all_owner_stats(s, counts)
    n = s.n
    if s.solo:
        outs = [breakdown_from_stats(s, seat, all_stats) for seat in range(n)]
        return tuple(out["total"] - out["I"] for out in outs)
    complete = counts[2]  # A: discs in complete citadels
    rest = [_own_points(s, o, all_stats[o]) + complete[o] for o in range(n)]
    for r in (0, 1):  # E: the soldiers of the seats with the most in a region (at least 1; ties count)
        soldiers = [all_stats[o]["garrison"][r] for o in range(n)]
        most = max(soldiers)
        if most >= 1:
            for o in range(n):
                if soldiers[o] == most:
                    rest[o] += most
    _add_progress_points(s, all_stats[:n], rest)
    return tuple(rest)


def _own_points(s: CeltaeBase, o: int, st: dict) -> int:
    """Categories B, C, D, F, G, H and K of seat ``o`` (none of them compares seats)."""
    d = s.data
    points = st["bonus"] * d.bonus_tile_points  # B
    druid_tiles, roman_tiles = d.druid_tiles, d.roman_tiles
    for t in s.druid_won[o]:  # C
        points += druid_tiles[t][0]
    for t in s.roman_won[o]:  # D
        points += roman_tiles[t][0]
    tribe_size = st["workers"] + st["druids"]
    for space in d.tribe_point_spaces:  # F
        if tribe_size >= space:
            points += 1
    discs = s.discs[o]
    for hole in d.disc_point_holes:  # G
        if discs >= hole:
            points += 1
    if s.cubes[o] >= d.cubes:  # H
        points += 1
    lid = s.leaders[o]
    if lid >= 0:  # K
        side = s.leader_side[o]
        if leader_holds(s, o, side, st):
            points += d.leaders[lid]["AB"[side]]["points"]
    return points


def _add_progress_points(s: CeltaeBase, seat_stats: list[dict], rest: list[int]) -> None:
    """Category J (not solo): to each seat, the markers of the cards it fulfils."""
    cards = s.data.progress_cards
    for i, card in enumerate(s.prog_cards):
        marks = s.prog_marks[i]
        if not marks:
            continue
        kind, arg, need, _slots = cards[card]
        key, by_arg = _figure(kind)
        values = [st[key][arg] if by_arg else st[key] for st in seat_stats]
        if kind.endswith("_maj"):
            need = max(max(values), 1)  # the most (ties count), and at least 1
        for o, value in enumerate(values):
            if value >= need:
                rest[o] += marks
