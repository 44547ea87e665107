"""The shape of Celtae's observation (``CeltaeState.observation(seat)``), as TypedDicts.

The observation is public API that outside tools read; these types say what each key
holds, so that its consumers can be checked against it by mypy, and
tests/celtae/test_observation_types.py checks real observations against them (every player
count, solo against Solitairix, each option, each seat and the spectator).
``observation(None)`` has the keys of a seat's view: what a seat may not see is ``None`` there
(``hand``) or ``"decided"`` (another seat's leader flip before all reveal). Two keys are
sometimes absent: ``legal``, there only for the seat to move, and ``solitairix``, there only in
a solo game. ``ludus.games.celtae.solo_words.solitairix_turns`` (the move log's Solitairix turns) returns
a list of ``SolitairixTurn``.

Workers are letters F B S N D (farmer, builder, soldier, noble, druid); cards are their
notation, colour letter and icon letter (``"Ow"``: an orange warrior).
"""

from __future__ import annotations

from typing import Any, NotRequired, TypeAlias, TypedDict


class Pending(TypedDict):
    kind: str  # "progress" (a track or stack marker to place) or "leader flip"
    seat: int  # the seat that decides


class PlayerView(TypedDict):
    hand: dict[str, int] | None  # card -> count; None unless the view is this player's own
    hand_size: int
    known_cards: dict[str, int]  # the part of the hand taken in view of everyone
    strength: int
    tokens: int  # bonus tokens
    active: list[str]  # active workers, a letter each
    tribe: dict[str, int]  # worker letter -> count (F B S N D), only those present
    discs_placed: int
    discs_left: int
    next_disc_cost: int | None  # None once every disc is placed
    cubes_placed: int
    roman_tiles: list[list[int]]  # each tile won: [points, strength]
    druid_tiles: list[int]  # each tile won: its points
    bonus_tiles: int
    leader: str | None  # None before the leader is chosen
    leader_side: str  # "A" or "B"
    flip: str | None  # None before the flip decision; "undecided", "decided" (hidden), "flip", "keep"


class Citadel(TypedDict):
    region: str  # "N" or "S"
    colour: str  # orange, pink, purple, teal
    spaces: list[int | str | None]  # a seat, "neutral" (a blocked space) or None (free)
    bonus: str  # token, recruit, draw, strength
    bonus_owner: int | None


class RomanStack(TypedDict):
    top: list[int] | None  # the top tile, [points, strength]; None when the stack is empty
    size: int


class DruidTile(TypedDict):
    points: int
    needs: str  # worker letters, "*" for a worker of any type


class DruidStack(TypedDict):
    top: DruidTile | None  # None when the stack is empty
    size: int


class ProgressView(TypedDict):
    card: str  # what the card asks, in words
    marks: int  # markers on it
    slots: int  # markers that fit on it


class SolitairixLastTurn(TypedDict):
    card: str | None  # the card it drew; None when the deck was empty
    steps: int  # corners its marker moved
    action: str  # "farm N", "build S", ...


class SolitairixView(TypedDict):
    side: int  # its tile's side, 1 or 2
    quarter: int  # 1..4
    worker: str | None  # its worker's letter, None when it has none
    discs_placed: int
    cubes_placed: int
    roman_tiles: int
    druid_tiles: int
    druids: int
    bonus_tiles: int
    discarded_markers: int
    last_turn: SolitairixLastTurn | None  # None before its first turn
    target: int  # the points the player must reach at the game's difficulty
    drawn: str | None  # its card, while its turn waits for the player's progress decisions


class CeltaeObservation(TypedDict):
    game: str  # "celtae"
    players: int
    solo: bool
    seat: int | None
    current_player: int  # -1 once the game is over
    phase: str  # what the seat to move does (core.Phase's text), "decide" (pending) or "over"
    pending: Pending | None
    turn: int  # the seat whose turn it is
    final: str  # "no", "finishing the round", "double turns"
    marker: str  # the action marker's corner: NE SE SW NW
    action: str | None  # the action chosen this turn ("farm N", ...), None before
    areas: list[list[str | None]]  # the 4 action areas' 3 spaces, a worker letter or None
    centre: list[str | None]
    bag: dict[str, int]  # worker letter -> count (F B S N)
    markets: list[list[str | None]]  # per region, the card at each position or None
    market_costs: list[int]
    deck_size: int
    discard: list[str]
    citadels: list[Citadel]  # region * 4 + colour
    roman: list[RomanStack]  # per region
    druid: list[DruidStack]  # per region
    druid_supply: list[int]
    garrison: list[list[int | str | None]]  # per region: a seat, "neutral" or None at each space
    garrison_icons: list[str]  # the icon each garrison space shows
    track: int  # markers left on the track
    progress: list[ProgressView]
    teutates: int | None  # the seat holding Teutates; None in a solo game
    offered_leaders: list[str]  # during the leader choice, else empty
    players_info: list[PlayerView]  # one per player (Solitairix is under "solitairix")
    scores: list[int]
    token_supply: int
    legal: NotRequired[list[str]]  # the legal actions' notation; only in the view of the seat to move
    solitairix: NotRequired[SolitairixView]  # only in a solo game


class SolitairixTurnDetail(TypedDict):
    card: str | None  # None when the deck was empty
    steps: int
    side: int  # its tile's side, 1..2
    quarter: int  # 1..4, after the turn
    quarter_before: int  # 1..4, before it
    marker_before: str  # the corner its marker moved from
    marker: str  # the corner its marker moved to
    swap: int  # 0 refreshed the action area, else the space it swapped at
    action: str  # "farm N", ...
    discarded: list[str]  # cards discarded from the market


class SolitairixStep(TypedDict):
    """One step of a Solitairix turn, as the board replays it."""

    text: str  # the step in words
    keys: list[str]  # the board's pieces it moved (the browser board's data-key)
    marker: NotRequired[list[str]]  # the marker's move: [from, to]
    quarter: NotRequired[list[int]]  # the tile's turn: [from, to]


class SolitairixTurn(TypedDict):
    """An entry of the move log for a turn Solitairix played (``solo_words.solitairix_turns``)."""

    seat: int  # Solitairix's owner index (1)
    name: str  # "Solitairix"
    after: int  # played after this many actions of the record
    auto: bool
    solitairix: bool
    action: str  # "solitairix farm N", ...
    text: str  # the turn as a sentence
    turn: SolitairixTurnDetail
    play: list[SolitairixStep]  # its steps, in order


# What consumers accept: the engine's observation, or a dict of the same shape (decoded JSON, a test's own).
CeltaeObservationLike: TypeAlias = CeltaeObservation | dict[str, Any]
