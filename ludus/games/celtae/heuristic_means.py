"""The Celtae heuristic's value of one seat's means, and what a position offers every seat alike.

``seat_value`` is the score so far (``score_breakdown``, with the strength-and-cards category
made smooth) plus the means of future points, each scaled by how many turns the seat still
has; ``Position`` gathers once a position what every seat's value reads alike (every owner's
stats, the clock, the stack tops, the citadels, the progress cards with markers), memoised by
``position``. ``ludus.games.celtae.heuristic`` values a whole position from these.
"""

from __future__ import annotations

from itertools import chain
from operator import itemgetter
from typing import Any

from . import board as G
from .core import CeltaeBase
from .scoring import all_owner_stats, citadel_counts, leader_holds
from .scoring import stat_value as stat_of

# Weights: set by hand, checked by greedy self-play (differences of the single weights were within
# the noise of 40-game runs; the turn finish was not).
W: dict[str, float] = {
    "rival": 1.0,  # weight of the best rival's value (2-4 players)
    "build": 1.6,  # the next disc, scaled by the share of its cost in hand
    "battle": 0.9,  # per point of the cheapest reachable Roman tile, scaled by readiness
    "druid": 0.8,  # per point of a top Druid tile, scaled by the tribe's share of its needs
    "tribe": 0.6,  # toward the next tribe point space
    "builder": 0.35,  # per builder, while discs remain to be built
    "farmer": 0.25,  # per farmer (up to 5)
    "soldier": 0.2,  # per soldier (up to 4)
    "noble": 0.25,  # per noble (up to 2)
    "token": 0.7,  # per bonus token
    "open_disc": 0.4,  # per disc on a citadel not yet complete
    "progress": 0.6,  # per marker on a progress card the seat nearly meets
    "leader": 0.8,  # per leader point, scaled by progress toward the condition
    "horizon": 5.0,  # own turns left at which the means count in full
}

# The solo game's weights: W's, with the ones a coordinate step of greedy's solo score moved
# (``benchmarks/solo_weights.py``: greedy's mean rose from 26.9 to 29.0 points over the 400 deals
# searched, from 27.2 to 28.6 over 400 fresh ones; docs/strength.md, "Celtae solo"). Alone against
# Solitairix, who scores nothing, building up the tribe (its point spaces, nobles) pays more, and
# soldiers, builders and the readiness for the next disc or tile less, than in a race against rivals.
W_SOLO: dict[str, float] = {
    **W,
    "build": 0.8,
    "battle": 0.45,
    "druid": 0.4,
    "tribe": 0.96,
    "builder": 0.175,
    "soldier": 0.1,
    "noble": 0.4,
    "solo_pace": 1.3,  # points the player still makes per turn to come (centres the value on the target)
    "solo_steps": 1.8,  # marker steps per round (the player's and Solitairix's)
}


def weights(state: CeltaeBase) -> dict[str, float]:
    """The weights that value ``state``: the solo game's, or the multiplayer ones."""
    return W_SOLO if state.solo else W


def _turns_left(state: CeltaeBase) -> float:
    """About how many more turns each seat gets (the track's markers are the clock)."""
    if state.stage == 2:
        return 2.0 if state.turn <= 0 else 1.0
    steps_per_round = 1.7 * state.np
    return state.track * 4.0 / steps_per_round + 2.5 + (0.5 if state.stage == 0 else 0.0)


class Position:
    """What every seat's value reads alike, gathered once a position: every owner's stats,
    the clock, the stack tops, the citadels complete and open, and for each progress card
    with markers the figure it counts for every owner (whether it is met, how near).

    It keeps its figures in tuples (the owners' stats in dicts of them), never changed: positions are
    kept by the thousand, and the garbage collector stops walking a tuple of numbers, and a dict of
    such tuples, once it has seen them (lists it walks on every full pass)."""

    __slots__ = (
        "all_stats",
        "tile_points",
        "g",
        "w",
        "complete",
        "open",
        "open_colours",
        "roman_tops",
        "druid_tops",
        "cards",
        "_rival_keys",
        "_seat_terms",
        "rival_values",
    )

    def __init__(self, state: CeltaeBase) -> None:
        d = state.data
        np_ = state.np
        counts = citadel_counts(state)
        self.all_stats = all_stats = all_owner_stats(state, counts)
        rt, dt = d.roman_tiles, d.druid_tiles
        self.tile_points = tuple(  # scores C and D, by owner
            sum(dt[t][0] for t in state.druid_won[o]) + sum(rt[t][0] for t in state.roman_won[o])
            for o in range(np_)
        )
        self.complete = counts[2]  # discs on complete citadels (score A), by owner
        self.open = counts[3]  # discs on citadels still open, by owner
        self.w = w = weights(state)
        self.g = min(1.0, _turns_left(state) / w["horizon"])
        citadels = state.citadels
        self.open_colours = tuple(c for c in range(4) if any(-1 in citadels[r * 4 + c] for r in (0, 1)))
        self.roman_tops = tuple(d.roman_tiles[s[-1]] for s in state.roman if s)
        tops = []
        for s in state.druid:
            if s:
                pts, needs, wild = d.druid_tiles[s[-1]]
                tops.append((pts, needs, wild, sum(needs) + wild))
        self.druid_tops = tuple(tops)
        cards = []
        n, solo = state.n, state.solo
        for i, card in enumerate(state.prog_cards):
            marks = state.prog_marks[i]
            if not marks:
                continue
            kind, arg, need, _slots = d.progress_cards[card]
            getter = _STAT_GETTERS.get((kind, arg))
            if getter is None:
                getter = _STAT_GETTERS[kind, arg] = _stat_getter(kind, arg)
            vals = [getter(st) for st in all_stats]
            if not kind.endswith("_maj"):
                over = need + 0.5
                cards.append(
                    (
                        marks,
                        tuple([mine >= need for mine in vals]),
                        tuple([min(0.9, mine / over) for mine in vals]),
                    )
                )
                continue
            if not solo:  # np == n: every owner is a player
                top = max(vals)
                lead = vals.index(top)
                second = max(vals[:lead] + vals[lead + 1 :])
                bars = [max(top, 1) + 0.5] * n
                bars[lead] = max(second, 1) + 0.5
                cards.append(
                    (
                        marks,
                        tuple([mine >= 1 and mine >= top for mine in vals]),
                        tuple([min(0.9, mine / bar) for mine, bar in zip(vals, bars, strict=True)]),
                    )
                )
                continue
            met = []
            near = []
            for o in range(np_):
                mine = vals[o]
                if kind == "worker_maj":
                    bar = d.solo_type_min
                    met.append(mine >= bar)
                elif kind == "workers_maj":
                    bar = d.solo_workers_min
                    met.append(mine >= bar)
                else:
                    bar = vals[1]
                    met.append(mine >= 1 and mine >= bar)
                near.append(min(0.9, mine / (max(bar, 1) + 0.5)))
            cards.append((marks, tuple(met), tuple(near)))
        self.cards = tuple(cards)
        self._rival_keys: dict[int, tuple] = {}
        self._seat_terms: dict[int, tuple] = {}
        self.rival_values: dict[tuple, float] = {}  # (owner, what else a rival's value reads) -> value

    def seat_terms(self, state: CeltaeBase, o: int) -> tuple:
        """``_seat_terms(state, o, self)``, once per owner (a leader's term once per leader and side)."""
        terms = self._seat_terms.get(o)
        if terms is None:
            terms = self._seat_terms[o] = _seat_terms(state, o, self)
        return terms

    def rival_key(self, state: CeltaeBase, o: int) -> tuple:
        """What a rival's value reads of the position (with ``state.game``): the memo key's fixed part."""
        key = self._rival_keys.get(o)
        if key is None:
            st = self.all_stats[o]
            shared = (
                state.game,
                self.g,
                tuple(x[-1] for x in state.roman if x),
                tuple(x[-1] for x in state.druid if x),
                tuple(tuple(st["garrison"]) for st in self.all_stats),
            )
            key = self._rival_keys[o] = (
                shared,
                o,
                self.complete[o],
                self.open[o],
                self.tile_points[o],
                tuple([(marks, met[o], near[o]) for marks, met, near in self.cards]),
                st["bonus"],
                tuple(st["region"]),
                tuple(st["roman_by_points"]),
                tuple(st["druid_by_points"]),
                tuple(state.tribe[o]),
                state.discs[o],
                state.cubes[o],
            )
        return key


_POSITIONS: dict[tuple, Position] = {}
_POSITIONS_MAX = 2_000


def position(state: CeltaeBase) -> Position:
    """``Position(state)``, memoised on what it reads: most steps of a turn (cards taken, workers
    swapped, strength spent) leave it as it was, and so do the sibling moves of one step."""
    s = state
    roman, druid = s.roman, s.druid
    key = (
        s.game,
        s.turn,
        s.stage,
        s.track,
        *s.prog_cards,
        *s.prog_marks,
        *chain(*s.citadels, *s.tribe, *s.garrison),
        *s.bonus_owner,
        *s.cubes,
        *s.discs,
        roman[0][-1] if roman[0] else -1,
        roman[1][-1] if roman[1] else -1,
        druid[0][-1] if druid[0] else -1,
        druid[1][-1] if druid[1] else -1,
        *map(tuple, s.roman_won),
        *map(tuple, s.druid_won),
    )
    pos = _POSITIONS.get(key)
    if pos is None:
        if len(_POSITIONS) >= _POSITIONS_MAX:
            _POSITIONS.clear()
        pos = _POSITIONS[key] = Position(state)
    return pos


def forget() -> None:
    """Drop the memoised positions: each holds the weights it was made with (``Position.w``)."""
    _POSITIONS.clear()


_STAT_GETTERS: dict[tuple[str, int], Any] = {}


def _stat_getter(kind: str, arg: int) -> Any:
    """``scoring.stat_value(st, kind, arg)`` as a function of ``st`` alone (the kind is read once)."""
    probe = {
        "colour": [10, 11, 12, 13],
        "region": [20, 21],
        "bonus": 30,
        "types": [40, 41, 42, 43],
        "druids": 50,
        "workers": 60,
        "druid_tiles": 70,
        "roman": 80,
        "garrison": [90, 91],
    }
    found = stat_of(probe, kind, arg)
    for name, value in probe.items():
        if value == found:
            return itemgetter(name)
        if isinstance(value, list) and found in value:
            index = value.index(found)
            return lambda st, name=name, index=index: st[name][index]
    raise ValueError(f"progress card kind {kind!r} reads no known figure")  # pragma: no cover


def seat_value(state: CeltaeBase, o: int, viewer: int, pos: Position) -> float:
    d = state.data
    score, druid_term, tribe_term, open_term, progress_terms, leader_terms = pos.seat_terms(state, o)
    own_view = o == viewer
    hand_size = sum(state.hands[o])
    value = float(score) + (state.strength[o] + hand_size) / 5.0
    g, w = pos.g, pos.w
    act, tr = state.active[o], state.tribe[o]
    builders = act[G.B] + tr[G.B] + tr[G.D]
    farmers = act[G.F] + tr[G.F] + tr[G.D]
    soldiers = min(d.soldier_cap, act[G.S] + tr[G.S] + tr[G.D])
    nobles = act[G.N] + tr[G.N]
    discs_left = len(d.disc_costs) - state.discs[o]
    hand = state.hands[o] if own_view else None
    # the next disc
    if discs_left:
        need = max(1, d.disc_costs[state.discs[o]] - builders)
        if hand is not None:
            best = float(
                max((hand[3 * c] + hand[3 * c + 1] + hand[3 * c + 2] for c in pos.open_colours), default=0)
            )
        else:
            best = hand_size / 2.5  # a rival's hand: about 40 % of it in its best colour
        value += g * w["build"] * min(1.0, best / need)
        value += g * w["builder"] * min(builders, 4)
    # the cheapest Roman tile on top
    tops = pos.roman_tops
    if tops:
        if hand is not None:
            icon_cards = float(
                max(
                    hand[0] + hand[3] + hand[6] + hand[9],
                    hand[1] + hand[4] + hand[7] + hand[10],
                    hand[2] + hand[5] + hand[8] + hand[11],
                )
            )
        else:
            icon_cards = hand_size / 2.0
        strength = state.strength[o] + soldiers * icon_cards
        value += g * w["battle"] * max(pts * min(1.0, strength / need) ** 2 for pts, need in tops)
    # Druid tiles on top; the tribe toward its next point space (both read the position only)
    value += druid_term
    if tribe_term is not None:
        value += tribe_term
    # workers by type, tokens
    value += g * (w["farmer"] * min(farmers, 5) + w["soldier"] * soldiers + w["noble"] * min(nobles, 2))
    value += g * w["token"] * state.tokens[o]
    # discs on citadels still open: a share of their completion points
    value += open_term
    # progress cards with markers, not met yet
    for term in progress_terms:
        value += term
    # the leader (own choice of side counts before it is revealed)
    lid = state.leaders[o]
    if lid >= 0:
        side = state.leader_side[o]
        if own_view and not state.flip_revealed and state.flip_choice[o] >= 0:
            side = state.flip_choice[o]
        term = leader_terms.get((lid, side))
        if term is None:
            cond = d.leaders[lid]["AB"[side]]
            if leader_holds(state, o, side, pos.all_stats[o]):
                term = leader_terms[lid, side] = (True, cond["points"])
            else:
                term = leader_terms[lid, side] = (
                    False,
                    g * w["leader"] * cond["points"] * _leader_progress(cond, pos.all_stats[o]),
                )
        value += term[1]
    return value


def _seat_terms(state: CeltaeBase, o: int, pos: Position) -> tuple:
    """The parts of ``seat_value`` of owner ``o`` that read the position only: the score so far
    without the categories I and K, then each term as ``seat_value`` adds it (same float order)."""
    d = state.data
    all_stats = pos.all_stats
    st = all_stats[o]
    # the score so far without the strength-and-cards category (I) and the leader (K): ``score_breakdown``
    score = pos.complete[o] + st["bonus"] * d.bonus_tile_points + pos.tile_points[o]
    rivals = [1] if state.solo else [q for q in range(state.n) if q != o]
    for r in (0, 1):
        mine = st["garrison"][r]
        if mine >= 1 and all(mine >= all_stats[q]["garrison"][r] for q in rivals):
            score += mine
    tribe_size = st["workers"] + st["druids"]
    score += sum(1 for sp in d.tribe_point_spaces if tribe_size >= sp)
    score += sum(1 for h in d.disc_point_holes if state.discs[o] >= h)
    score += 1 if state.cubes[o] >= d.cubes else 0
    for marks, met, _near in pos.cards:
        if met[o]:
            score += marks
        elif state.solo:
            score -= marks
    g, w = pos.g, pos.w
    tr = state.tribe[o]
    best_druid = 0.0
    for pts, needs, wild, total in pos.druid_tops:
        have = 0
        spare = 0
        for t in range(4):
            x, y = tr[t], needs[t]
            if x < y:
                have += x
            else:
                have += y
                spare += x - y
        have += min(wild, spare)
        best_druid = max(best_druid, pts * (have / total) ** 2)
    druid_term = g * w["druid"] * best_druid
    size = sum(tr)
    prev = 0
    tribe_term = None
    for sp in d.tribe_point_spaces:
        if size < sp:
            tribe_term = g * w["tribe"] * (size - prev) / (sp - prev)
            break
        prev = sp
    open_term = g * w["open_disc"] * pos.open[o]
    progress_terms = tuple(
        [g * w["progress"] * marks * near[o] for marks, met, near in pos.cards if not met[o]]
    )
    return score, druid_term, tribe_term, open_term, progress_terms, {}


_LEADER_FIGURES = {  # a leader condition's kind -> (its stats figure, whether that figure is a list)
    "roman_by_points": ("roman_by_points", True),
    "druid_by_points": ("druid_by_points", True),
    "discs_by_region": ("region", True),
    "cubes": ("cubes", False),
    "tribe_nondruid": ("workers", False),
    "bonus_tiles": ("bonus", False),
    "discs": ("discs", False),
}


def _leader_progress(cond: dict, st: dict) -> float:
    kind, need = cond["kind"], cond["need"]
    name, many = _LEADER_FIGURES[kind]
    have = st[name] if many else [st[name]]
    got = sum(min(h, n) for h, n in zip(have, need, strict=False))
    return (got / max(1, sum(need))) ** 2
