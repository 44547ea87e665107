"""What a Celtae game in progress is made of: its phases, the turn's context and the state's fields.

Every rules module works on a ``CeltaeBase`` (the fields below); ``state.CeltaeState`` adds the
engine's hooks. State is plain lists and ints (fast to clone). Cards are kinds 0..11
(colour * 3 + icon); hands are counts per kind; workers are types F B S N D; the bag is counts
per type (its draws come from the state's RNG). Owners index players; in solo mode owner 1 is
Solitairix, whose turns run automatically (see ``solo.py``).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Protocol

from ludus.engine.state import State

from .data import CeltaeData


class Phase(IntEnum):
    """A step of the game, with what the seat to move does in it (``text``, shown to players)."""

    LEADER = 0
    SETUP_DISCARD = 1
    START = 2
    AREA = 3
    REFRESH = 4
    SWAP = 5
    EXTRA = 6
    FARM_PICK = 7
    BUILD_COLOUR = 8
    BUILD_PAY = 9
    BONUS_RECRUIT = 10
    BONUS_DRAW = 11
    BATTLE_DISCARD = 12
    FIGHT = 13
    GARRISON = 14
    RECRUIT_PICK = 15
    DRUID = 16
    DRUID_PAY = 17
    REFILL = 18
    RELEASE = 19
    OVER = 20

    @property
    def text(self) -> str:
        return _PHASE_TEXTS[self]


# what the seat to move does in each phase; beside the enum, not in its members' values, so that
# mypyc compiles this module (benchmarks/mypyc_build.py: an enum with its own __new__ it cannot)
_PHASE_TEXTS = {
    Phase.LEADER: "choose a leader",
    Phase.SETUP_DISCARD: "discard a set-up card",
    Phase.START: "move the action marker (or use a token to act anywhere)",
    Phase.AREA: "choose an action beside the marker",
    Phase.REFRESH: "refresh the action area or not",
    Phase.SWAP: "swap a worker or not",
    Phase.EXTRA: "spend a bonus token as an extra worker or not",
    Phase.FARM_PICK: "take market cards",
    Phase.BUILD_COLOUR: "choose a citadel colour",
    Phase.BUILD_PAY: "pay cards of the citadel's colour",
    Phase.BONUS_RECRUIT: "recruit a worker with the citadel bonus or not",
    Phase.BONUS_DRAW: "draw market cards with the citadel bonus",
    Phase.BATTLE_DISCARD: "discard cards of one icon for strength",
    Phase.FIGHT: "fight the Roman Army or not",
    Phase.GARRISON: "place a garrison cube or not",
    Phase.RECRUIT_PICK: "recruit workers into the tribe",
    Phase.DRUID: "send tribe workers to the Druid Order or not",
    Phase.DRUID_PAY: "pay cards for a druid worker",
    Phase.REFILL: "take a worker from the centre",
    Phase.RELEASE: "release tribe workers down to 8",
    Phase.OVER: "the game is over",
}


# Members as module constants: the rules compare phases on every step, and a module global is
# read faster than an attribute of the enum class.
(
    LEADER,
    SETUP_DISCARD,
    START,
    AREA,
    REFRESH,
    SWAP,
    EXTRA,
    FARM_PICK,
    BUILD_COLOUR,
    BUILD_PAY,
    BONUS_RECRUIT,
    BONUS_DRAW,
    BATTLE_DISCARD,
    FIGHT,
    GARRISON,
    RECRUIT_PICK,
    DRUID,
    DRUID_PAY,
    REFILL,
    RELEASE,
    OVER,
) = Phase
# phases inside a Recruit (or the recruit bonus) where the tribe may exceed 8 until RELEASE
ENLIST_PHASES = (BONUS_RECRUIT, RECRUIT_PICK, DRUID, DRUID_PAY, REFILL, RELEASE)

# pending interrupts are [kind, seat]: a track marker to place (crossing the river), a stack
# marker to place (a stack emptied), the leader flip (seat -1: every seat decides in turn)
P_TRACK, P_STACK, P_FLIP = 0, 1, 2


# the turn context's fields (its __slots__; a class compiled by mypyc keeps no __slots__ to read)
CONTEXT_FIELDS = (
    "anywhere",
    "kind",
    "region",
    "area",
    "boost",
    "budget",
    "colour",
    "pay",
    "icon",
    "recruited",
    "recruit_max",
    "druid_paid",
    "draws",
    "taken",
    "sx_card",
    "sx_steps",
    "sx_moved",
)


class TurnContext:
    """What the turn under way has chosen so far; a new one starts every turn.

    The player's fields, then Solitairix's (its drawn card, its steps, and whether it has moved:
    its turn pauses after the move while the human places markers or decides the flip, rulings
    5, 16, 30). Saved as the 15-number list of earlier versions (``to_list``/``from_list``).
    """

    __slots__ = CONTEXT_FIELDS

    def __init__(self) -> None:
        self.anywhere = 0  # 1 once a token is spent to act anywhere
        self.kind = -1  # the action chosen (board.FARM ...), -1 before
        self.region = -1  # its region (board.NORTH / SOUTH)
        self.area = -1  # its action area (board.AREA_...)
        self.boost = 0  # bonus tokens spent as extra workers
        self.budget = 0  # Farm: market cost left; Battle: strength a discard gives
        self.colour = -1  # Build: the citadel's colour
        self.pay = 0  # Build: cards still to pay; set-up: cards still to discard
        self.icon = -1  # Battle: the icon discarded so far
        self.recruited = 0  # Recruit: workers enlisted so far
        self.recruit_max = 0  # Recruit: workers that may be enlisted
        self.druid_paid = 0  # cards paid for the druid worker so far
        self.draws = 0  # draw bonus: cards left to take
        self.taken = 0  # market positions taken this action (bit i: position i)
        self.sx_card = -1  # Solitairix: the card it drew (-1: none)
        self.sx_steps = 0  # Solitairix: corners its marker moves
        self.sx_moved = 0  # Solitairix: 1 once it has moved

    def copy(self) -> TurnContext:
        other = TurnContext.__new__(TurnContext)  # no __init__ (compiled: __init__, then the copy)
        (
            other.anywhere,
            other.kind,
            other.region,
            other.area,
            other.boost,
            other.budget,
            other.colour,
            other.pay,
            other.icon,
            other.recruited,
            other.recruit_max,
            other.druid_paid,
            other.draws,
            other.taken,
            other.sx_card,
            other.sx_steps,
            other.sx_moved,
        ) = (
            self.anywhere,
            self.kind,
            self.region,
            self.area,
            self.boost,
            self.budget,
            self.colour,
            self.pay,
            self.icon,
            self.recruited,
            self.recruit_max,
            self.druid_paid,
            self.draws,
            self.taken,
            self.sx_card,
            self.sx_steps,
            self.sx_moved,
        )
        return other

    def to_list(self) -> list[int]:
        """The saved form: Solitairix's card, steps and move share the slots of colour, budget and
        taken (a turn is either the player's or Solitairix's), and slot 4 is always 0."""
        sx = self.sx_moved
        return [
            self.anywhere,
            self.kind,
            self.region,
            self.area,
            0,
            self.boost,
            self.sx_steps if sx else self.budget,
            self.sx_card if sx else self.colour,
            self.pay,
            self.icon,
            self.recruited,
            self.recruit_max,
            self.druid_paid,
            self.draws,
            1 if sx else self.taken,
        ]

    @classmethod
    def from_list(cls, row: list[int], solitairix: bool) -> TurnContext:
        """Read ``to_list`` output; ``solitairix``: the turn is Solitairix's."""
        if len(row) != SAVED_CONTEXT_SIZE:
            raise ValueError(f"a turn context has {SAVED_CONTEXT_SIZE} numbers, got {len(row)}")
        ctx = cls()
        (
            ctx.anywhere,
            ctx.kind,
            ctx.region,
            ctx.area,
            _refreshed,
            ctx.boost,
            budget,
            colour,
            ctx.pay,
            ctx.icon,
            ctx.recruited,
            ctx.recruit_max,
            ctx.druid_paid,
            ctx.draws,
            taken,
        ) = (int(x) for x in row)
        if solitairix and taken:
            ctx.sx_steps, ctx.sx_card, ctx.sx_moved = budget, colour, 1
        else:
            ctx.budget, ctx.colour, ctx.taken = budget, colour, taken
        return ctx

    def __repr__(self) -> str:
        return "TurnContext(" + ", ".join(f"{f}={getattr(self, f)}" for f in CONTEXT_FIELDS) + ")"


SAVED_CONTEXT_SIZE = 15  # numbers in a saved turn context (``to_list``)


class CeltaeRules(Protocol):
    """What the rules read from the game: its component data and its options."""

    data: CeltaeData
    config: dict[str, Any]


class CeltaeBase(State):
    """The fields of a Celtae game in progress (set by ``setup.setup`` or a saved state)."""

    data: CeltaeData
    n: int  # players
    np: int  # owners: players, and Solitairix in solo
    solo: int  # 1 in a solo game
    # a Phase; an int, so that compiled (benchmarks/mypyc_build.py) a saved or test position may set one
    phase: int
    turn: int  # the seat whose turn it is
    turns_left: int  # turns the seat still takes (double turns at the end)
    stage: int  # 0 playing, 1 finishing the round, 2 double turns
    marker: int  # the action marker's corner
    ctx: TurnContext
    closing: bool  # the step under way shows something new or ends a turn (undo stops there)
    # cards
    deck: list[int]
    discard: list[int]
    market: list[list[int]]  # per region, a card kind or -1 at each position
    hands: list[list[int]]  # per owner, counts per card kind
    known: list[list[int]]  # the part of each hand taken in view of everyone
    # workers
    areas: list[list[int]]  # the 4 action areas' 3 spaces, a worker type or -1
    centre: list[int]
    bag: list[int]  # counts per type F B S N
    active: list[list[int]]  # per owner, counts per type F B S N
    tribe: list[list[int]]  # per owner, counts per type F B S N D
    sx_worker: int  # Solitairix's worker, -1 if none
    # player boards
    strength: list[int]
    tokens: list[int]
    token_supply: int
    discs: list[int]
    cubes: list[int]
    # the board
    citadels: list[list[int]]  # region * 4 + colour: owner at each space, -1 free, -2 blocked
    bonus_at: list[int]  # bonus tile kind at each citadel
    bonus_owner: list[int]
    roman: list[list[int]]  # per region, tile ids, top last
    roman_won: list[list[int]]
    druid: list[list[int]]
    druid_won: list[list[int]]
    druid_supply: list[int]
    druid_box: int
    garrison: list[list[int]]  # per region: space i shows icon i // per_icon; owner, -1 free, -2 neutral
    # progress
    track: int  # markers left on the track
    stack_markers: list[int]  # Roman N, Roman S, Druid N, Druid S
    prog_cards: list[int]
    prog_marks: list[int]
    teutates: int
    pending: list[list[int]]  # interrupts, [kind, seat] (P_*)
    # leaders
    leaders: list[int]
    leader_side: list[int]
    flip_choice: list[int]
    flip_revealed: int
    offered: list[int]
    pick_order: list[int]
    # Solitairix
    sx_side: int
    sx_quarter: int
    sx_discarded_markers: int
    last_sx: list[Any]
