"""The Celtae state: the engine's hooks over the rules modules, one per section of the rulebook.

``setup`` (set-up and the set-up decisions), ``turn`` (the rondel: move, choose, refresh, swap,
extra workers), ``farm``, ``build`` (and its bonus tiles), ``battle``, ``recruit`` (the Druid
Order, refill, release), ``progress`` (crossings, stack markers, the leader flip), ``order``
(turn order and the end), ``scoring``, ``solo`` (Solitairix), ``hidden`` and ``observe`` (hidden
information). Each phase names the functions that list its choices and apply one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

from ludus.engine.errors import IllegalActionError
from ludus.engine.state import TERMINAL

from . import battle, build, farm, hidden, observe, order, progress, recruit, scoring, setup, turn
from .actions import Act
from .core import (
    AREA,
    BATTLE_DISCARD,
    BONUS_DRAW,
    BONUS_RECRUIT,
    BUILD_COLOUR,
    BUILD_PAY,
    DRUID,
    DRUID_PAY,
    EXTRA,
    FARM_PICK,
    FIGHT,
    GARRISON,
    LEADER,
    OVER,
    P_FLIP,
    RECRUIT_PICK,
    REFILL,
    REFRESH,
    RELEASE,
    SETUP_DISCARD,
    START,
    SWAP,
    CeltaeBase,
    CeltaeRules,
    Phase,
    TurnContext,
)
from .render import render_svg

__all__ = ["CeltaeState"]


def _no_actions(s: CeltaeBase) -> list[Act]:
    return []


def _cannot_apply(s: CeltaeBase, a: Act) -> None:
    raise IllegalActionError(f"{a} cannot be applied now")  # pragma: no cover


_PHASES: dict[Phase, tuple[Callable[[CeltaeBase], list[Act]], Callable[[CeltaeBase, Act], None]]] = {
    # phase: (its choices, applying one)
    LEADER: (setup.leader_actions, setup.choose_leader),
    SETUP_DISCARD: (setup.discard_actions, setup.discard_setup_card),
    START: (turn.start_actions, turn.start),
    AREA: (turn.area_actions, turn.choose_area),
    REFRESH: (turn.refresh_actions, turn.refresh),
    SWAP: (turn.swap_actions, turn.swap),
    EXTRA: (turn.extra_actions, turn.extra),
    FARM_PICK: (farm.pick_actions, farm.pick),
    BUILD_COLOUR: (build.colour_actions, build.choose_colour),
    BUILD_PAY: (build.pay_actions, build.pay),
    BONUS_RECRUIT: (recruit.enlist_actions, build.bonus_recruit),
    BONUS_DRAW: (build.draw_actions, build.bonus_draw),
    BATTLE_DISCARD: (battle.discard_actions, battle.discard),
    FIGHT: (battle.fight_actions, battle.fight),
    GARRISON: (battle.garrison_actions, battle.garrison),
    RECRUIT_PICK: (recruit.enlist_actions, recruit.enlist),
    DRUID: (recruit.druid_actions, recruit.druid),
    DRUID_PAY: (recruit.druid_pay_actions, recruit.druid_pay),
    REFILL: (recruit.refill_actions, recruit.refill),
    RELEASE: (recruit.release_actions, recruit.release),
    OVER: (_no_actions, _cannot_apply),
}
# indexed by phase number: a tuple look-up per step instead of an enum-keyed dict
_LEGAL = tuple(_PHASES[ph][0] for ph in Phase)
_APPLY = tuple(_PHASES[ph][1] for ph in Phase)

# fields saved by ``_dump``; those in _NESTED2 are lists of lists
_FIELDS = (
    "n",
    "np",
    "solo",
    "phase",
    "turn",
    "turns_left",
    "stage",
    "marker",
    "areas",
    "centre",
    "bag",
    "deck",
    "discard",
    "market",
    "hands",
    "known",
    "strength",
    "tokens",
    "token_supply",
    "active",
    "tribe",
    "discs",
    "citadels",
    "bonus_at",
    "bonus_owner",
    "roman",
    "roman_won",
    "druid",
    "druid_won",
    "druid_supply",
    "druid_box",
    "garrison",
    "cubes",
    "track",
    "stack_markers",
    "prog_cards",
    "prog_marks",
    "teutates",
    "leaders",
    "leader_side",
    "flip_choice",
    "flip_revealed",
    "offered",
    "pick_order",
    "pending",
    "sx_side",
    "sx_quarter",
    "sx_worker",
    "sx_discarded_markers",
    "ctx",
    "last_sx",
)
_NESTED2 = {
    "areas",
    "market",
    "hands",
    "known",
    "active",
    "tribe",
    "citadels",
    "roman",
    "roman_won",
    "druid",
    "druid_won",
    "garrison",
    "pending",
}


# compiled by mypyc (benchmarks/mypyc_build.py), the fields are slots of the class, not a dict to copy
_SLOTS = "n" in vars(CeltaeBase)


class CeltaeState(CeltaeBase):
    """A game of Celtae in progress (2-4 players, or 1 against Solitairix)."""

    def setup(self) -> None:
        setup.setup(self)

    # -- whose turn ------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.pending:
            kind, seat = self.pending[0]
            if kind == P_FLIP:
                return self.flip_choice.index(-1)
            return seat
        if self.phase == LEADER or self.phase == SETUP_DISCARD:
            return self.pick_order[0]
        if self.phase == OVER:
            return TERMINAL
        return self.turn

    # -- legal actions and applying one -------------------------------------------------------
    def _legal_actions(self) -> list[Act]:  # type: ignore[override]  # Celtae's own Action type
        if self.pending:
            return progress.pending_actions(self)
        return _LEGAL[self.phase](self)

    def _apply(self, action: Act) -> None:  # type: ignore[override]
        self.closing = False  # set by every step that shows anyone something new or ends a turn
        if self.pending:
            progress.apply_pending(self, action)
        else:
            _APPLY[self.phase](self, action)
        self._settle()

    def _settles(self, actor: int) -> bool:
        """Undo stays within a seat's run of decisions and stops at anything shown."""
        return self.closing or self.current_player() != actor

    def _settle(self) -> None:
        """Drop placements with no free progress slot (the marker is discarded); resume Solitairix."""
        progress.drop_unplaceable(self)
        if (
            not self.pending
            and self.solo
            and self.turn == 1
            and self.phase == START
            and order.solitairix_step(self)
        ):
            order.end_turn(self)  # Solitairix's turn waited for the human's decisions: it resumes now

    # -- results -------------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return scoring.totals(self)

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Points of ``seat`` in each final-scoring category A..K, and the total."""
        self._check_seat(seat)
        return scoring.score_breakdown(self, seat)

    def _tiebreak(self, seat: int) -> tuple[int, int]:
        return (
            self.discs[seat] + sum(self.tribe[seat]),
            len(self.roman_won[seat]) + len(self.druid_won[seat]),
        )

    def winners(self) -> list[int]:
        """Solo: [0] once the game is over if the difficulty's target is reached, else []."""
        if self.solo:
            if not self.is_terminal():
                return []
            return [0] if self.scores()[0] >= self.data.targets[self.game.config["difficulty"]] else []
        return super().winners()

    # -- information -----------------------------------------------------------------------------------
    def _observation(self, seat: int | None) -> dict[str, Any]:
        return observe.observe(self, seat)

    def _resample(self, seat: int, rng: random.Random) -> None:
        hidden.resample(self, seat, rng)

    def _public_action(self, text: str, actor: int, seat: int | None) -> str:
        """Another seat's leader decision stays secret until every seat has chosen (ruling 21)."""
        if text in ("flip", "keep") and actor != seat and not self.flip_revealed:
            return "decided"
        return text

    def _why_illegal(self, action: Act) -> str:  # type: ignore[override]
        return observe.why_illegal(self, action)

    def _repr_svg_(self) -> str:
        """The public view as SVG (notebooks)."""
        return render_svg(self.observation(None))

    # -- copies and saving -------------------------------------------------------------------------------
    def _copy_into(self, other: CeltaeState) -> None:  # type: ignore[override]
        if _SLOTS:
            _copy_slots(self, other)
            return
        # every field at once, into a dict of the right size (the engine's fields, already on ``other``,
        # kept); then new copies of the lists play changes. list(map(list.copy, rows)) copies a list of
        # rows about twice as fast as a comprehension; bonus_at and prog_cards never change after the
        # set-up, so clones share them
        fields = self.__dict__.copy()
        fields.update(other.__dict__)
        other.__dict__ = fields
        rows = list.copy
        other.areas = list(map(rows, self.areas))
        other.centre = self.centre[:]
        other.bag = self.bag[:]
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.market = list(map(rows, self.market))
        other.hands = list(map(rows, self.hands))
        other.known = list(map(rows, self.known))
        other.strength = self.strength[:]
        other.tokens = self.tokens[:]
        other.active = list(map(rows, self.active))
        other.tribe = list(map(rows, self.tribe))
        other.discs = self.discs[:]
        other.citadels = list(map(rows, self.citadels))
        other.bonus_owner = self.bonus_owner[:]
        other.roman = list(map(rows, self.roman))
        other.roman_won = list(map(rows, self.roman_won))
        other.druid = list(map(rows, self.druid))
        other.druid_won = list(map(rows, self.druid_won))
        other.druid_supply = self.druid_supply[:]
        other.garrison = list(map(rows, self.garrison))
        other.cubes = self.cubes[:]
        other.stack_markers = self.stack_markers[:]
        other.prog_marks = self.prog_marks[:]
        other.leaders = self.leaders[:]
        other.leader_side = self.leader_side[:]
        other.flip_choice = self.flip_choice[:]
        other.offered = self.offered[:]
        other.pick_order = self.pick_order[:]
        other.pending = list(map(rows, self.pending))
        other.ctx = self.ctx.copy()
        other.last_sx = list(self.last_sx)

    def _dump(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in _FIELDS:
            v = getattr(self, f)
            if f in _NESTED2:
                v = [list(x) for x in v]
            elif isinstance(v, list):
                v = list(v)
            out[f] = v
        out["phase"] = int(self.phase)
        out["ctx"] = self.ctx.to_list()
        return out

    def _load(self, data: dict[str, Any]) -> None:
        self.data = cast(CeltaeRules, self.game).data
        for f in _FIELDS:
            v = data[f]
            if f == "phase":
                v = Phase(v)
            elif f == "ctx":
                continue  # read last: it depends on the turn
            elif f in _NESTED2:
                v = [list(x) for x in v]
            elif isinstance(v, list):
                v = list(v)
            setattr(self, f, v)
        self.ctx = TurnContext.from_list(data["ctx"], solitairix=bool(self.solo) and self.turn == 1)
        self.closing = False  # between steps, as a new game starts (the compiled copy reads it)


def _copy_slots(self: CeltaeState, other: CeltaeState) -> None:
    """``_copy_into`` of the class compiled by mypyc: field by field, rows copied by comprehensions
    (compiled, faster than ``list(map(list.copy, rows))``, the faster of the two interpreted)."""
    other.data = self.data
    other.n = self.n
    other.np = self.np
    other.solo = self.solo
    other.phase = self.phase
    other.turn = self.turn
    other.turns_left = self.turns_left
    other.stage = self.stage
    other.marker = self.marker
    other.closing = self.closing
    other.sx_worker = self.sx_worker
    other.token_supply = self.token_supply
    other.bonus_at = self.bonus_at
    other.druid_box = self.druid_box
    other.track = self.track
    other.prog_cards = self.prog_cards
    other.teutates = self.teutates
    other.flip_revealed = self.flip_revealed
    other.sx_side = self.sx_side
    other.sx_quarter = self.sx_quarter
    other.sx_discarded_markers = self.sx_discarded_markers
    other.ctx = self.ctx.copy()
    other.deck = self.deck[:]
    other.discard = self.discard[:]
    other.market = [r[:] for r in self.market]
    other.hands = [r[:] for r in self.hands]
    other.known = [r[:] for r in self.known]
    other.areas = [r[:] for r in self.areas]
    other.centre = self.centre[:]
    other.bag = self.bag[:]
    other.active = [r[:] for r in self.active]
    other.tribe = [r[:] for r in self.tribe]
    other.strength = self.strength[:]
    other.tokens = self.tokens[:]
    other.discs = self.discs[:]
    other.cubes = self.cubes[:]
    other.citadels = [r[:] for r in self.citadels]
    other.bonus_owner = self.bonus_owner[:]
    other.roman = [r[:] for r in self.roman]
    other.roman_won = [r[:] for r in self.roman_won]
    other.druid = [r[:] for r in self.druid]
    other.druid_won = [r[:] for r in self.druid_won]
    other.druid_supply = self.druid_supply[:]
    other.garrison = [r[:] for r in self.garrison]
    other.stack_markers = self.stack_markers[:]
    other.prog_marks = self.prog_marks[:]
    other.pending = [r[:] for r in self.pending]
    other.leaders = self.leaders[:]
    other.leader_side = self.leader_side[:]
    other.flip_choice = self.flip_choice[:]
    other.offered = self.offered[:]
    other.pick_order = self.pick_order[:]
    other.last_sx = list(self.last_sx)
