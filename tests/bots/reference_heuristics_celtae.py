"""The Celtae heuristic as it was before its speed-ups: the yardstick the fast one must equal to the bit.

A frozen copy; its weights are the live module's (the solo game's in solo), so a retuning moves both.
"""

from __future__ import annotations

import random
from typing import Any

from ludus.games.celtae import board as G
from ludus.games.celtae.heuristic_means import W_SOLO, W, weights
from ludus.games.celtae.scoring import breakdown_from_stats, leader_holds, meets, stats

_FINISH_PHASE = 3  # AREA and every later step of a turn (START is 2)


def evaluate(state: Any, seat: int) -> float:
    """Heuristic value of ``state`` for ``seat`` (higher is better)."""
    return _value(_finished(state, seat), seat)


def evaluate_all(state: Any) -> list[float]:
    """Every seat's value from one position, for search on a determinization.

    The turn under way is finished once, for the seat playing it, and every seat is then
    valued with its own hand (the determinization's), each less its best rival: one finish
    and one value per seat, where ``evaluate`` for each seat would cost one each per rival.
    """
    if state.solo:
        return [evaluate(state, 0)]
    world = _finished(state, state.turn, _own_value)
    if world.is_terminal():
        values = [float(v) for v in world.scores()]
    else:
        all_stats = [stats(world, o) for o in range(world.np)]
        turns = _turns_left(world)
        values = [_seat_value(world, o, o, all_stats, turns) for o in range(world.n)]
    rival = W["rival"]
    return [v - rival * max(w for o, w in enumerate(values) if o != s) for s, v in enumerate(values)]


# -- finishing one's own turn ----------------------------------------------------------------------
def _finished(state: Any, seat: int, value_of: Any = None) -> Any:
    """``state`` with ``seat``'s turn under way played out greedily by ``value_of`` (``_value``)."""
    if state.is_terminal() or state.pending or state.phase < _FINISH_PHASE or state.turn != seat:
        return state
    value_of = value_of or _value
    world = _canonical(state, seat)
    turn, stage, left = world.turn, world.stage, world.turns_left
    while (
        not world.is_terminal()
        and world.current_player() == seat
        and world.phase != 2
        and (world.turn, world.stage, world.turns_left) == (turn, stage, left)
    ):
        legal = world.legal_actions()
        best, best_value = None, float("-inf")
        for action in legal:
            child = world.clone()
            child.apply_action(action)
            value = value_of(child, seat)
            if value > best_value:
                best, best_value = child, value
        world = best
    return world


def _own_value(state: Any, seat: int) -> float:
    """The seat's own value without its rivals': the cheap guide of the finish in ``evaluate_all``."""
    if state.is_terminal():
        return float(state.scores()[seat])
    all_stats = [stats(state, o) for o in range(state.np)]
    return _seat_value(state, seat, seat, all_stats, _turns_left(state))


def _canonical(state: Any, seat: int) -> Any:
    """A clone whose hidden parts are re-dealt from a fixed order: the same for every world of the seat."""
    world = state.clone()
    rng = random.Random(0)
    pool = list(world.deck)
    counts = []
    for q in range(world.n):
        hidden = [0] * 12 if q == seat else [world.hands[q][k] - world.known[q][k] for k in range(12)]
        for k in range(12):
            pool += [k] * hidden[k]
        counts.append(sum(hidden))
    pool.sort()
    rng.shuffle(pool)
    for q in range(world.n):
        if q != seat:
            hand = list(world.known[q])
            for _ in range(counts[q]):
                hand[pool.pop()] += 1
            world.hands[q] = hand
    world.deck = pool
    for stacks, won, tiles in (
        (world.roman, world.roman_won, world.data.roman_tiles),
        (world.druid, world.druid_won, world.data.druid_tiles),
    ):
        seen = {s[-1] for s in stacks if s} | {t for w in won for t in w}
        for pts in (1, 2):
            free = sorted(i for i in range(len(tiles)) if tiles[i][0] == pts and i not in seen)
            rng.shuffle(free)
            for s in stacks:
                for j in range(len(s) - 1):
                    if tiles[s[j]][0] == pts:
                        s[j] = free.pop()
    world.rng = random.Random(1)
    world._legal = None
    return world


# -- the static value ---------------------------------------------------------------------------------
def _value(state: Any, seat: int) -> float:
    if state.is_terminal():
        own = state.scores()[seat] if not state.solo else state.scores()[0]
        if state.solo:
            return own - state.data.targets[state.game.config["difficulty"]]
        return own - W["rival"] * max(s for i, s in enumerate(state.scores()) if i != seat)
    all_stats = [stats(state, o) for o in range(state.np)]
    turns = _turns_left(state)
    own = _seat_value(state, seat, seat, all_stats, turns)
    if state.solo:
        pace = W_SOLO["solo_pace"] * _solo_turns_left(state)
        return own + pace - state.data.targets[state.game.config["difficulty"]]
    rival = max(_seat_value(state, o, seat, all_stats, turns) for o in range(state.n) if o != seat)
    return own - W["rival"] * rival


def _solo_turns_left(state: Any) -> float:
    """The solo player's turns still to come, from the marker's steps left before the track runs out."""
    if state.stage == 2:
        return float(max(0, state.turns_left - (state.phase > 2))) if state.turn == 0 else 0.0
    steps = max(0, state.track - 1) * 4 + (G.CROSSING_FROM - state.marker) % 4 + 1 if state.track else 0
    return steps / W_SOLO["solo_steps"] + 2.0 + (0.5 if state.stage == 0 else 0.0)


def _turns_left(state: Any) -> float:
    """About how many more turns each seat gets (the track's markers are the clock)."""
    if state.stage == 2:
        return 2.0 if state.turn <= 0 else 1.0
    steps_per_round = 1.7 * state.np
    return state.track * 4.0 / steps_per_round + 2.5 + (0.5 if state.stage == 0 else 0.0)


def _seat_value(state: Any, o: int, viewer: int, all_stats: list[dict], turns: float) -> float:
    d = state.data
    bd = breakdown_from_stats(state, o, all_stats)
    own_view = o == viewer
    hand_size = sum(state.hands[o])
    value = float(bd["total"] - bd["I"] - bd["K"]) + (state.strength[o] + hand_size) / 5.0
    w = weights(state)
    g = min(1.0, turns / w["horizon"])
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
            best = max(
                (
                    sum(hand[3 * c : 3 * c + 3])
                    for c in range(4)
                    if any(-1 in state.citadels[r * 4 + c] for r in (0, 1))
                ),
                default=0,
            )
        else:
            best = hand_size / 2.5  # a rival's hand: about 40 % of it in its best colour
        value += g * w["build"] * min(1.0, best / need)
        value += g * w["builder"] * min(builders, 4)
    # the cheapest Roman tile on top
    tops = [d.roman_tiles[s[-1]] for s in state.roman if s]
    if tops:
        icon_cards = max(sum(hand[i::3]) for i in range(3)) if hand is not None else hand_size / 2.0
        strength = state.strength[o] + soldiers * icon_cards
        value += g * w["battle"] * max(pts * min(1.0, strength / need) ** 2 for pts, need in tops)
    # Druid tiles on top
    best_druid = 0.0
    for s in state.druid:
        if not s:
            continue
        pts, needs, wild = d.druid_tiles[s[-1]]
        total = sum(needs) + wild
        have = sum(min(tr[t], needs[t]) for t in range(4))
        spare = sum(max(0, tr[t] - needs[t]) for t in range(4))
        have += min(wild, spare)
        best_druid = max(best_druid, pts * (have / total) ** 2)
    value += g * w["druid"] * best_druid
    # tribe toward its next point space, workers by type, tokens
    size = sum(tr)
    prev = 0
    for sp in d.tribe_point_spaces:
        if size < sp:
            value += g * w["tribe"] * (size - prev) / (sp - prev)
            break
        prev = sp
    value += g * (w["farmer"] * min(farmers, 5) + w["soldier"] * soldiers + w["noble"] * min(nobles, 2))
    value += g * w["token"] * state.tokens[o]
    # discs on citadels still open: a share of their completion points
    open_discs = sum(cit.count(o) for cit in state.citadels if -1 in cit)
    value += g * w["open_disc"] * open_discs
    # progress cards with markers, not met yet
    for i, card in enumerate(state.prog_cards):
        marks = state.prog_marks[i]
        if marks and not meets(state, o, card, all_stats):
            value += g * w["progress"] * marks * _closeness(state, o, card, all_stats)
    # the leader (own choice of side counts before it is revealed)
    lid = state.leaders[o]
    if lid >= 0:
        side = state.leader_side[o]
        if own_view and not state.flip_revealed and state.flip_choice[o] >= 0:
            side = state.flip_choice[o]
        cond = d.leaders[lid]["AB"[side]]
        if leader_holds(state, o, side, all_stats[o]):
            value += cond["points"]
        else:
            value += g * w["leader"] * cond["points"] * _leader_progress(cond, all_stats[o])
    return value


def _closeness(state: Any, o: int, card: int, all_stats: list[dict]) -> float:
    """How near ``o`` is to a progress card's requirement, in [0, 1)."""
    from ludus.games.celtae.scoring import stat_value as stat_of

    kind, arg, need, _slots = state.data.progress_cards[card]
    mine = stat_of(all_stats[o], kind, arg)
    if kind.endswith("_maj"):
        if state.solo:
            if kind == "worker_maj":
                need = state.data.solo_type_min
            elif kind == "workers_maj":
                need = state.data.solo_workers_min
            else:
                need = stat_of(all_stats[1], kind, arg)
        else:
            need = max(stat_of(all_stats[q], kind, arg) for q in range(state.n) if q != o)
        need = max(need, 1)
    return min(0.9, mine / (need + 0.5))


def _leader_progress(cond: dict, st: dict) -> float:
    kind, need = cond["kind"], cond["need"]
    have = {
        "roman_by_points": st["roman_by_points"],
        "druid_by_points": st["druid_by_points"],
        "discs_by_region": st["region"],
    }.get(kind)
    if have is None:
        have = [
            {
                "cubes": st["cubes"],
                "tribe_nondruid": st["workers"],
                "bonus_tiles": st["bonus"],
                "discs": st["discs"],
            }[kind]
        ]
    got = sum(min(h, n) for h, n in zip(have, need, strict=False))
    return (got / max(1, sum(need))) ** 2
