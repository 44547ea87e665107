"""Liar's Dice as a ludus plugin: a game of hidden dice, bids and calls.

Every player rolls their dice under a cup: each sees only their own. In turn, a player either
raises the bid, a claim that at least QUANTITY of all the dice on the table show FACE (more
dice, or as many of a higher face), or calls the last bid a lie. A call lifts every cup: if
fewer dice show the face than were bid, the bidder loses a die, otherwise the caller does. The
loser opens the next round and everyone rolls again. A player without dice is out; the last
one with dice wins.

It shows what hidden information asks of a game on the contract: an observation that shows
a seat only its own dice (``_observation``), a re-deal of everything else that keeps what the
seat saw (``_resample``), and the undo barrier: every bid hands the turn on and a call lifts
the cups and rolls anew, so each action closes the door behind it (the base class's
``_settles``, True for every step, is right as it is).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from ludus.engine import TERMINAL, Action, Game, Hooks, IllegalActionError, Option, State

FACES = 6


@dataclass(frozen=True)
class Bid(Action):
    """At least ``quantity`` of all the dice on the table show ``face``: ``bid 3x5``."""

    quantity: int
    face: int

    def __str__(self) -> str:
        return f"bid {self.quantity}x{self.face}"


@dataclass(frozen=True)
class Call(Action):
    """The last bid is a lie: every cup is lifted (``liar``)."""

    def __str__(self) -> str:
        return "liar"


LIAR = Call()
# at most three digits: a quantity is checked against the table only once it is a small number
_BID = re.compile(r"bid\s+([0-9]{1,3})\s*x\s*([0-9]{1,3})")


class LiarsDiceGame(Game):
    """Bid on dice nobody sees all of, or call the last bid a lie."""

    name = "liars_dice"
    title = "Liar's Dice"
    tagline = "Bid on dice nobody sees all of, or call the last bid a lie"
    options = (
        Option("players", (2, 3, 4), 2, "number of seats"),
        Option("dice", (1, 2, 3, 4, 5), 3, "dice each player starts with"),
    )
    # what Liar's Dice adds for the layers above, by module name (imported only when used): text
    # and SVG boards, a heuristic for greedy, ISMCTS and hints, and the rules summary a click away
    # in the browser (a file shipped in the package: see package-data in pyproject.toml)
    hooks = Hooks(
        renderer="ludus_liars_dice.render",
        heuristic="ludus_liars_dice.heuristic",
        rules="ludus_liars_dice:rules.html",
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        # every bid the table can hold, lowest first: a bid raises exactly those after it here
        self.bids = tuple(Bid(q, f) for q in range(1, self.most_dice + 1) for f in range(1, FACES + 1))

    @property
    def num_players(self) -> int:
        return int(self.config["players"])

    @property
    def most_dice(self) -> int:
        """The dice on the table at the start: no bid can claim more."""
        return self.num_players * int(self.config["dice"])

    def _new_state(self, seed: int) -> LiarsDiceState:
        return LiarsDiceState(self, seed)

    def parse_action(self, text: str) -> Action:
        words = str(text).strip().lower()
        if words == "liar":
            return LIAR
        found = _BID.fullmatch(words)
        if found is None:
            raise IllegalActionError(f"{text!r} is not Liar's Dice notation: say 'bid 3x5' or 'liar'")
        quantity, face = int(found[1]), int(found[2])
        if not 1 <= face <= FACES or not 1 <= quantity <= self.most_dice:
            raise IllegalActionError(
                f"{text!r}: a bid is 1 to {self.most_dice} dice of a face 1 to {FACES}, e.g. 'bid 3x5'"
            )
        return self.bids[_index(quantity, face)]

    def all_actions(self) -> list[Action]:
        return [*self.bids, LIAR]


def _index(quantity: int, face: int) -> int:
    """Where a bid stands in ``LiarsDiceGame.bids``."""
    return (quantity - 1) * FACES + face - 1


class LiarsDiceState(State):
    game: LiarsDiceGame

    def __init__(self, game: LiarsDiceGame, seed: int) -> None:
        super().__init__(game, seed)
        self.dice = [self._roll(game.config["dice"]) for _ in range(game.num_players)]
        self.turn = 0
        self.round = 1
        self.bid = -1  # the standing bid's index in game.bids; -1 before the round's first bid
        self.bids: list[list[int]] = []  # this round's bids: [seat, quantity, face]
        self.reveal: dict[str, Any] | None = None  # the last call's lifted cups (public since)

    def _roll(self, count: int) -> list[int]:
        """``count`` dice rolled with the state's own RNG, sorted (their order tells nothing)."""
        return sorted(self.rng.randint(1, FACES) for _ in range(count))

    def current_player(self) -> int:
        return TERMINAL if sum(1 for d in self.dice if d) <= 1 else self.turn

    def _on_table(self) -> int:
        return sum(len(d) for d in self.dice)

    def _legal_actions(self) -> list[Action]:
        raises = list(self.game.bids[self.bid + 1 : _index(self._on_table(), FACES) + 1])
        return raises + [LIAR] if self.bid >= 0 else raises

    def _why_illegal(self, action: Action) -> str:
        if action == LIAR:
            return "liar: there is no bid to call yet; open the round with a bid"
        if not isinstance(action, Bid):
            return f"{action} is not a Liar's Dice action: bid (e.g. 'bid 3x5') or call 'liar'"
        if action.quantity > self._on_table():
            return f"{action}: there are only {self._on_table()} dice on the table"
        return (
            f"{action} does not raise {self.game.bids[self.bid]}: bid more dice, or as many of a higher face"
        )

    def _apply(self, action: Action) -> None:
        if isinstance(action, Bid):
            self.bid = _index(action.quantity, action.face)
            self.bids.append([self.turn, action.quantity, action.face])
            self.turn = self._next_alive(self.turn)
            return
        bidder = self.bids[-1][0]
        standing = self.game.bids[self.bid]
        shown = sum(d.count(standing.face) for d in self.dice)
        loser = self.turn if shown >= standing.quantity else bidder
        self.reveal = {
            "round": self.round,
            "dice": [list(d) for d in self.dice],
            "bid": [standing.quantity, standing.face],
            "bidder": bidder,
            "caller": self.turn,
            "shown": shown,
            "loser": loser,
        }
        left = len(self.dice[loser]) - 1
        self.dice[loser] = self.dice[loser][:left]
        self.bid, self.bids = -1, []
        if self.current_player() == TERMINAL:
            return
        self.round += 1
        self.dice = [self._roll(len(d)) for d in self.dice]
        self.turn = loser if left else self._next_alive(loser)

    def _next_alive(self, seat: int) -> int:
        """The next seat round the table that still has dice."""
        n = self.game.num_players
        for step in range(1, n + 1):
            if self.dice[(seat + step) % n]:
                return (seat + step) % n
        return seat

    def scores(self) -> list[int]:
        """The dice each seat has left: the last player holding any wins."""
        return [len(d) for d in self.dice]

    def _observation(self, seat: int | None) -> dict[str, Any]:
        standing = self.game.bids[self.bid] if self.bid >= 0 else None
        return {
            "seat": seat,  # whose view this is (None: a spectator's)
            "round": self.round,
            "turn": self.turn,
            "dice_left": self.scores(),
            "your_dice": None if seat is None else list(self.dice[seat]),  # a seat sees its own only
            "bid": None if standing is None else [standing.quantity, standing.face],
            "bids": [list(b) for b in self.bids],
            "last_call": _copy_reveal(self.reveal),
        }

    def _resample(self, seat: int, rng: random.Random) -> None:
        """Roll again every die ``seat`` cannot see: the other seats' cups (the bids could hint at
        them, but every roll they could come from stays possible)."""
        for other, dice in enumerate(self.dice):
            if other != seat:
                self.dice[other] = sorted(rng.randint(1, FACES) for _ in dice)

    def _copy_into(self, other: State) -> None:
        assert isinstance(other, LiarsDiceState)
        other.dice = [list(d) for d in self.dice]
        other.turn, other.round, other.bid = self.turn, self.round, self.bid
        other.bids = [list(b) for b in self.bids]
        other.reveal = _copy_reveal(self.reveal)

    def _dump(self) -> dict[str, Any]:
        return {
            "dice": self.dice,
            "turn": self.turn,
            "round": self.round,
            "bid": self.bid,
            "bids": self.bids,
            "reveal": self.reveal,
        }

    def _load(self, data: dict[str, Any]) -> None:
        self.dice = [[int(x) for x in d] for d in data["dice"]]
        self.turn, self.round, self.bid = int(data["turn"]), int(data["round"]), int(data["bid"])
        self.bids = [[int(x) for x in b] for b in data["bids"]]
        self.reveal = _copy_reveal(data["reveal"])
        if len(self.dice) != self.game.num_players or not -1 <= self.bid < len(self.game.bids):
            raise ValueError("the saved dice or bid do not fit this table")


def _copy_reveal(reveal: dict[str, Any] | None) -> dict[str, Any] | None:
    """A copy sharing no list with ``reveal`` (an observation or a clone may be changed by its holder)."""
    if reveal is None:
        return None
    return {**reveal, "dice": [list(d) for d in reveal["dice"]], "bid": list(reveal["bid"])}


LiarsDiceGame.state_class = LiarsDiceState  # saved states load into it (Game.state_from_json)
