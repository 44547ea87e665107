"""Celtae position value for one seat: points so far, plus what the seat's means promise.

The score so far (``score_breakdown``, with the strength-and-cards category made smooth)
is the base. On top come the means of future points, each scaled by how many turns the
seat still has: cards of one colour toward the next disc's cost (after builders),
strength (and soldiers times cards of one icon) toward the cheapest Roman tile on top,
tribe workers toward the top Druid tile's needs and the next tribe point space, workers
by type in pool and tribe (builders cut build costs, farmers take more cards, soldiers
multiply battle strength, nobles recruit more), tokens, discs on citadels still open,
progress cards with markers whose requirement the seat nearly meets, and the leader's
condition. Rivals are valued the same way from what is public (hand sizes, not hands),
and their best value is subtracted. In the solo game the value is measured from the
difficulty's target, counting the points still to come at a steady pace per turn left,
so it stays near 0 in a game on course (ISMCTS turns margins into win chances).

A position in the middle of a seat's own turn (the marker moved, the action not done) is
valued by finishing that turn greedily, step by step on the static value, because the
marker's move or a worker swap alone says little about the action they open. The finish plays on a canonical re-deal of what the seat cannot see
(fixed from what it can), so the value depends only on the seat's information.

Everything read here is in ``state.observation(seat)``: own hand, public board, tribes,
pools, strength, tokens, stack tops and sizes, progress marks, revealed leader sides and
the seat's own leader choice. The weights and each seat's value from its means are in
``ludus.games.celtae.heuristic_means``; this module values whole positions from them.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import chain
from typing import Any, cast

from ludus.engine import load_game

from . import board as G
from .core import OVER, CeltaeBase
from .heuristic_means import W_SOLO, Position, W, position, seat_value
from .heuristic_means import forget as _forget_positions

_FINISH_PHASE = 3  # AREA and every later step of a turn (START is 2)

# ISMCTS grows its tree by this heuristic in solo and 2-player games (``ludus.bots.ismcts``,
# ``expand``): every seat starts out playing its heuristic move, and a turn's later steps are valued
# by their best continuation. At equal time it beat greedy more often than random expansion on the
# same deals, and scored more in solo (docs/strength.md); in 3-player games random expansion stays.
HEURISTIC_EXPANSION_PLAYERS = (1, 2)

# In solo, ISMCTS values a finish short of the target by a tenth of its margin's value on the curve
# it values its leaves by, not at 0: a game that will miss 35 still plays for every point (the 30 of
# the normal difficulty among them), where a 0 for every such finish left the last decisions to
# chance (docs/strength.md).
MARGIN_FINISH_PLAYERS = (1,)

# In 2-player games ISMCTS plays its rollout preset by default, player count -> its
# ``ludus.bots.rollout.Plan``: the three best moves each played on twenty decisions by greedy moves
# of both seats, in 6 worlds (~0.2 s). A Celtae turn is many small decisions, so ten saw too little:
# 72.5 % against greedy on the deals where twenty won 92.5 % and the tree 77.5 %. The positions
# reached are scored by the learned model, which foresees the final margin better than the
# heuristic: 67.5 % of 80 against the classic search where the heuristic's scores won 59.2 % of 60
# (docs/strength.md, "Greedy playouts").
ROLLOUT = {2: {"worlds": 6, "horizon": 20, "leaf": "learned"}}


def search_world(world: Any) -> Any:
    """The position ISMCTS values in place of ``world``, a determinization of its own: in solo, the
    same game played for the hardest target (35) at every difficulty, so that leaves are valued by
    the chance of reaching 35 and finished games by whether they did. Valued by its chance of
    reaching a target it mostly reached, the search stopped caring once a game looked won or lost;
    played for 35 it reached 30 in more games and scored more (docs/strength.md)."""
    if world.solo:
        world.game = _hardest(world.game)
    return world


@lru_cache(maxsize=16)  # the games of the last few searches: a game object per solo game played
def _hardest(game: Any) -> Any:
    """``game`` (a solo Celtae) at its hardest difficulty: the same rules and tables, another target."""
    targets = game.data.targets
    hardest = max(targets, key=targets.get)
    if game.config["difficulty"] == hardest:
        return game
    return load_game(game.name, **{**game.config, "difficulty": hardest})


def evaluate(state: CeltaeBase, seat: int) -> float:
    """Heuristic value of ``state`` for ``seat`` (higher is better)."""
    world, value = _finish(state, seat, _value)
    return _value(world, seat) if value is None else value


def evaluate_owned(state: CeltaeBase, seat: int) -> float:
    """``evaluate`` for a caller's own scratch copy, which it may change (the turn's finish then
    starts on it instead of on a copy): the greedy bot's children are such copies."""
    world, value = _finish(state, seat, _value, owned=True)
    return _value(world, seat) if value is None else value


def evaluate_all(state: CeltaeBase) -> list[float]:
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
        pos = position(world)
        values = [_own(world, o, pos) for o in range(world.n)]
    rival = W["rival"]
    return [v - rival * max(w for o, w in enumerate(values) if o != s) for s, v in enumerate(values)]


# -- finishing one's own turn ----------------------------------------------------------------------
def _finished(state: CeltaeBase, seat: int, value_of: Any = None, owned: bool = False) -> CeltaeBase:
    """``state`` with ``seat``'s turn under way played out greedily by ``value_of`` (``_value``);
    ``owned``: ``state`` is the caller's scratch copy and may be played on."""
    return _finish(state, seat, value_of or _value, owned)[0]


def _finish(
    state: CeltaeBase, seat: int, value_of: Any, owned: bool = False
) -> tuple[CeltaeBase, float | None]:
    """``_finished``, and ``value_of`` the position it reached if the walk took a step (else None):
    the walk valued it already, and the callers value it next."""
    if state.is_terminal() or state.pending or state.phase < _FINISH_PHASE or state.turn != seat:
        return state, None
    world = canonical(state, seat, owned)
    clock = world.turn, world.stage, world.turns_left
    best_value = None
    while (
        world.current_player() == seat  # never TERMINAL: a seat is >= 0
        and world.phase != 2
        and (world.turn, world.stage, world.turns_left) == clock
    ):
        legal = world.legal_actions()
        best: CeltaeBase | None = None
        best_value = float("-inf")
        last = len(legal) - 1
        for i, action in enumerate(legal):
            # the walk's own world: the last child plays on it
            child = cast(CeltaeBase, world.clone()) if i < last else world
            child.apply_action(action)
            value = value_of(child, seat)
            if value > best_value:
                best, best_value = child, value
        world = cast(CeltaeBase, best)  # there is a legal action: the seat is to move
    return world, best_value


def _own_value(state: CeltaeBase, seat: int) -> float:
    """The seat's own value without its rivals': the cheap guide of the finish in ``evaluate_all``."""
    if state.is_terminal():
        return float(state.scores()[seat])
    return _own(state, seat, position(state))


_OWN: dict[tuple, float] = {}
_OWN_MAX = 2_000  # as many as the positions kept (``heuristic_means._POSITIONS_MAX``): each key holds one


def _own(state: CeltaeBase, seat: int, pos: Position) -> float:
    """``seat_value`` of ``seat`` seen by itself, memoised on what it reads beyond the position (the
    finish's sibling moves and the search's iterations meet the same figures again and again)."""
    key = (
        pos,
        seat,
        state.strength[seat],
        state.tokens[seat],
        state.leaders[seat],
        state.leader_side[seat],
        state.flip_choice[seat],
        state.flip_revealed,
        *state.hands[seat],
        *state.active[seat],
    )
    value = _OWN.get(key)
    if value is None:
        if len(_OWN) >= _OWN_MAX:
            _OWN.clear()
        value = _OWN[key] = seat_value(state, seat, seat, pos)
    return value


def canonical(state: CeltaeBase, seat: int, owned: bool = False) -> CeltaeBase:
    """A clone whose hidden parts are re-dealt from a fixed order: the same for every world of the seat
    (``owned``: ``state`` itself, re-dealt in place)."""
    world = state if owned else cast(CeltaeBase, state.clone())
    hands, known = world.hands, world.known
    pool = list(world.deck)
    counts = []
    for q in range(world.n):
        count = 0
        if q != seat:
            for k, (held, shown) in enumerate(zip(hands[q], known[q], strict=True)):
                if held != shown:
                    pool += [k] * (held - shown)
                    count += held - shown
        counts.append(count)
    pool.sort()
    kinds = []  # (stacks, tiles, points, the free tiles of those points in order)
    for stacks, won, tiles in (
        (world.roman, world.roman_won, world.data.roman_tiles),
        (world.druid, world.druid_won, world.data.druid_tiles),
    ):
        seen = {s[-1] for s in stacks if s} | {t for w in won for t in w}
        for pts in (1, 2):
            kinds.append(
                (stacks, tiles, pts, [i for i in range(len(tiles)) if tiles[i][0] == pts and i not in seen])
            )
    order, *tile_orders = _shuffles(len(pool), *(len(k[3]) for k in kinds))
    pool = [pool[i] for i in order]
    for q in range(world.n):
        if q != seat:
            hand = list(known[q])
            for _ in range(counts[q]):
                hand[pool.pop()] += 1
            hands[q] = hand
    world.deck = pool
    for (stacks, tiles, pts, free), tile_order in zip(kinds, tile_orders, strict=True):
        free = [free[i] for i in tile_order]
        for s in stacks:
            for j in range(len(s) - 1):
                if tiles[s[j]][0] == pts:
                    s[j] = free.pop()
    world.share_rng(_RNG1)
    world._legal = None
    return world


@lru_cache(maxsize=1024)  # a few dozen new sequences a game, ~1 KiB each
def _shuffles(*lengths: int) -> tuple[tuple[int, ...], ...]:
    """The orders ``random.Random(0)`` shuffles lists of these lengths into, one after the other:
    a shuffle's order depends only on the lengths, so each sequence of them is drawn once."""
    rng = random.Random.__new__(random.Random)
    rng.setstate(_RNG0)
    orders = []
    for n in lengths:
        order = list(range(n))
        rng.shuffle(order)
        orders.append(tuple(order))  # tuples: kept in the cache, the collector skips them
    return tuple(orders)


_RNG0 = random.Random(0).getstate()
_RNG1 = random.Random(1)  # every canonical world's draws set out from it (never drawn from: share_rng)


# -- the static value ---------------------------------------------------------------------------------
_VALUES: dict[tuple, float] = {}
_VALUES_MAX = 1_000  # entries of a few KiB each; the hits come from the same turn (500 lose 1 %)


def _value(state: CeltaeBase, seat: int) -> float:
    """The static value, memoised on what it reads (the finishes of sibling moves meet the same
    positions again, and so do the finishes of successive decisions in one turn)."""
    s = state
    pos = position(s)  # a memoised object: what the position reads is in the key by identity
    hands = s.hands
    terminal = s.phase == OVER and not s.pending  # is_terminal()
    # the phase within a turn, the marker and pending steps do not count, but for the game's end (and in solo)
    clock = (s.phase, s.turns_left, s.marker, terminal) if s.solo else terminal
    key = (
        pos,
        seat,
        clock,
        s.flip_choice[seat],
        s.flip_revealed,
        *hands[seat],
        *map(sum, hands),
        *chain(*s.active),
        *s.strength,
        *s.tokens,
        *s.leaders,
        *s.leader_side,
    )
    value = _VALUES.get(key)
    if value is None:
        if len(_VALUES) >= _VALUES_MAX:
            _VALUES.clear()
        value = _VALUES[key] = _static_value(state, seat, pos)
    return value


def _static_value(state: CeltaeBase, seat: int, pos: Position | None = None) -> float:
    if state.is_terminal():
        scores = state.scores()
        if state.solo:
            return scores[0] - state.data.targets[state.game.config["difficulty"]]
        return scores[seat] - W["rival"] * max(s for i, s in enumerate(scores) if i != seat)
    pos = pos or position(state)
    own = seat_value(state, seat, seat, pos)
    if state.solo:
        pace = W_SOLO["solo_pace"] * _solo_turns_left(state)
        return own + pace - state.data.targets[state.game.config["difficulty"]]
    rival = max(_rival_value(state, o, pos) for o in range(state.n) if o != seat)
    return own - W["rival"] * rival


_RIVALS: dict[tuple, float] = {}
_RIVALS_MAX = 2_000


def forget() -> None:
    """Drop every memoised value: they hold the weights they were computed with (``W``, ``W_SOLO``),
    so a caller that changes a weight must call this before valuing again."""
    _VALUES.clear()
    _RIVALS.clear()
    _OWN.clear()
    _forget_positions()


def _rival_value(state: CeltaeBase, o: int, pos: Position) -> float:
    """``seat_value`` of ``o`` seen by another seat, memoised on what it reads: a seat's moves
    seldom change its rivals' values, which the turn finish otherwise recomputes at every step."""
    mine = (
        o,
        sum(state.hands[o]),
        state.strength[o],
        *state.active[o],
        state.tokens[o],
        state.leaders[o],
        state.leader_side[o],
    )
    value = pos.rival_values.get(mine)  # first on the position itself: a short key, quick to hash
    if value is None:
        key = (pos.rival_key(state, o), *mine[1:])
        value = _RIVALS.get(key)
        if value is None:
            if len(_RIVALS) >= _RIVALS_MAX:
                _RIVALS.clear()
            value = _RIVALS[key] = seat_value(state, o, -1, pos)
        pos.rival_values[mine] = value
    return value


def _solo_turns_left(state: CeltaeBase) -> float:
    """The solo player's turns still to come, from the marker's steps left before the track runs out."""
    if state.stage == 2:
        return float(max(0, state.turns_left - (state.phase > 2))) if state.turn == 0 else 0.0
    steps = max(0, state.track - 1) * 4 + (G.CROSSING_FROM - state.marker) % 4 + 1 if state.track else 0
    return steps / W_SOLO["solo_steps"] + 2.0 + (0.5 if state.stage == 0 else 0.0)
