"""Progress: the marker's steps round the rondel, the river crossing, stack markers and the leader flip.

Crossing the river (a step from NE) makes the Teutates holder place the track's top marker on a
progress card, then pass the tile left; the marker at ``flip_at`` asks every seat, in secret, to
flip their leader or not; the last marker starts the end of the game. Emptying a Roman or Druid
stack places its stack marker. These decisions interrupt the turn (``state.pending``) and are
taken at once, inside the move (ruling 5).
"""

from __future__ import annotations

from . import board as G
from .actions import ACT, Act
from .core import P_FLIP, P_STACK, P_TRACK, CeltaeBase


def move(s: CeltaeBase, mover: int, steps: int) -> None:
    """The action marker ``steps`` corners clockwise; each step from NE crosses the river."""
    for _ in range(steps):
        if s.marker == G.CROSSING_FROM:
            crossing(s)
        s.marker = (s.marker + 1) % 4


def crossing(s: CeltaeBase) -> None:
    """Progress: the Teutates holder places the top track marker, then passes the tile left."""
    if s.track <= 0:
        return
    s.track -= 1
    holder = 0 if s.solo else s.teutates
    s.pending.append([P_TRACK, holder])
    if not s.solo:
        s.teutates = (s.teutates + 1) % s.n
    if s.track == s.data.flip_at:
        s.flip_choice = [-1] * s.n + [0] * s.solo
        s.pending.append([P_FLIP, -1])
    if s.track == 0 and s.stage == 0:
        s.stage = 1


def stack_emptied(s: CeltaeBase, p: int, region: int, druid: bool = False) -> None:
    """``p`` took a stack's last tile: its marker goes to a progress card (Solitairix discards it)."""
    idx = region + (2 if druid else 0)
    if not s.stack_markers[idx]:
        return
    s.stack_markers[idx] = 0
    if s.solo and p == 1:
        s.sx_discarded_markers += 1
    else:
        s.pending.append([P_STACK, p])


def has_free_slot(s: CeltaeBase) -> bool:
    """Whether some progress card can still take a marker."""
    slots = s.data.progress_cards
    return any(s.prog_marks[i] < slots[c][3] for i, c in enumerate(s.prog_cards))


def pending_actions(s: CeltaeBase) -> list[Act]:
    """The decision the first interrupt asks for."""
    if s.pending[0][0] == P_FLIP:
        return [ACT[("keep", -1, -1)], ACT[("flip", -1, -1)]]
    d = s.data
    return [
        ACT[("progress", i, -1)]
        for i, c in enumerate(s.prog_cards)
        if s.prog_marks[i] < d.progress_cards[c][3]
    ]


def apply_pending(s: CeltaeBase, a: Act) -> None:
    """Take the first interrupt's decision: a marker placed, or one seat's secret flip choice."""
    if s.pending[0][0] == P_FLIP:
        seat = s.flip_choice.index(-1)
        s.flip_choice[seat] = 1 if a.verb == "flip" else 0
        if -1 not in s.flip_choice[: s.n]:
            for q in range(s.n):
                s.leader_side[q] = s.flip_choice[q]
            s.flip_revealed = 1
            s.closing = True  # every seat's secret choice is shown
            s.pending.pop(0)
        return
    s.prog_marks[a.a] += 1
    s.pending.pop(0)


def drop_unplaceable(s: CeltaeBase) -> None:
    """Markers with no free progress slot are discarded (up to the flip, which always waits)."""
    while s.pending and s.pending[0][0] != P_FLIP:
        if has_free_slot(s):
            return
        s.pending.pop(0)
