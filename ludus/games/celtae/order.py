"""Turn order and the end of the game.

Seats play in turn; once the progress track is empty the round is finished (stage 1), then
every seat takes two turns in a row (stage 2) and the game is over. In solo, Solitairix's
turns come between the human's and run on their own (``solo.solitairix_turn``).
"""

from __future__ import annotations

from . import solo
from .core import OVER, START, CeltaeBase, TurnContext


def start_turn(s: CeltaeBase) -> None:
    """The first turn, once the set-up decisions are taken."""
    s.closing = True  # the set-up is over: undo never reaches back into it
    s.ctx = TurnContext()
    s.phase = START
    if s.solo and s.turn == 1 and solitairix_step(s):
        end_turn(s)


def solitairix_step(s: CeltaeBase) -> bool:
    """Run or resume Solitairix's turn; False while the human has progress decisions to take first.

    Decisions pending from the human's own turn (a stack marker) are taken before Solitairix
    starts, and those its move triggers (a crossing, the flip) before its swap and action.
    """
    if s.pending:
        return False
    s.closing = True  # Solitairix's play is shown
    return solo.solitairix_turn(s)


def end_turn(s: CeltaeBase) -> None:
    """The action is over: the next seat's turn starts (Solitairix's run through), or the game ends."""
    s.closing = True  # undo never reaches back into a finished turn
    while True:
        if s.stage == 2:
            s.turns_left -= 1
            if s.turns_left <= 0:
                s.turn += 1
                s.turns_left = 2
                if s.turn >= s.np:
                    s.phase = OVER
                    return
        else:
            s.turn += 1
            if s.turn >= s.np:
                s.turn = 0
                if s.stage == 1:
                    s.stage = 2
                    s.turns_left = 2
        s.ctx = TurnContext()
        s.phase = START
        if s.solo and s.turn == 1 and solitairix_step(s):
            continue
        return
