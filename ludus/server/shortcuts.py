"""What the seat to move can reach in one request: its optional steps passed over, one or two of its own
decisions ahead, so that a board can offer a move's real targets at once.

A game that declares ``optional_skip`` (the action that passes over an optional step, such as a
refresh, a swap or an extra worker) gets, for the seat to move:

- ``after_skip``: the decision past the optional steps now put to it (``stage``);
- ``ahead``: for each action the seat may take there, the stage it then faces, and one level
  further, while it stays the seat's own decision and nothing new is shown.

A page sends a route as one request (``action`` then ``then``). Each stage is reached by actions
that show nothing new and leave the seat to move (the engine's undo barrier stays where the request
began), so a request never has an action after one that crosses the barrier, and no stage tells the
seat what it could not see. The look is bounded (``MAX_LOOKS`` positions a view).
"""

from __future__ import annotations

from typing import Any

from ludus.engine import State
from ludus.engine.hooks import hook

from .runtime import play_forced

MAX_SKIPS = 6  # optional steps passed over to reach a move's targets (the request's sequence stays short)
MAX_LOOKS = 48  # positions looked at for one view's ``ahead``, every level together
MAX_WIDE = 16  # a stage with more actions than this is not looked past (a placement among many)


def optional_skip(state: State) -> str | None:
    """The action that passes over the optional step now put to the seat to move (None if it is not one)."""
    skip = hook(state.game, "optional_skip")  # games whose optional steps a move skips declare one
    if skip is None or state.is_terminal():
        return None
    found: str | None = skip(state)
    return found


def _own(state: State, seat: int, start: int) -> bool:
    """Whether ``seat`` still decides in ``state`` with nothing shown since ``start`` actions."""
    return not state.is_terminal() and state.current_player() == seat and state.undo_barrier() <= start


def stage(state: State, seat: int, start: int) -> dict[str, Any] | None:
    """The decision ``seat`` faces in ``state`` past its optional steps: ``skip`` (sent first), ``legal``,
    ``optional`` (each optional step on the way: its ``skip`` and ``legal``) when it passed any, and
    ``finish`` when passing over them ends the seat's run by itself (then no ``legal``). ``state`` is
    not changed; None when the seat does not decide there or the steps do not end in time."""
    if not _own(state, seat, start):
        return None
    skip = optional_skip(state)
    legal = [str(a) for a in state.legal_actions()]
    if skip is None:
        return {"skip": [], "legal": legal}
    copy = state.clone()
    sent: list[str] = []
    steps = [{"skip": [], "legal": legal}]
    while skip is not None and len(sent) < MAX_SKIPS:
        copy.apply_action(skip)
        sent.append(skip)
        play_forced(copy)
        if not _own(copy, seat, start):
            return {"skip": sent[:-1], "finish": sent[-1], "legal": [], "optional": steps}
        skip = optional_skip(copy)
        if skip is not None:
            steps.append({"skip": list(sent), "legal": [str(a) for a in copy.legal_actions()]})
    if skip is not None:
        return None
    return {"skip": sent, "legal": [str(a) for a in copy.legal_actions()], "optional": steps}


def skip_targets(state: State) -> dict[str, Any] | None:
    """What the seat to move may do at once by passing over its optional steps (None: nothing to pass).

    ``skip`` is the actions to send before one of ``legal`` (one request, all or nothing). When
    passing over shows something new or ends the seat's turn (the engine's undo barrier moves: a
    Farm that only takes its free card), there are no targets: ``finish`` is the last skip, sent
    after ``skip`` and ending the request. ``optional`` lists each optional step on the way, the one
    now first: its ``legal`` actions, reached by sending its ``skip`` first (so a later step, a swap
    after the refresh, is one request away too).
    """
    if optional_skip(state) is None:
        return None
    found = stage(state, state.current_player(), state.move_number())
    return found if found is not None and (found["skip"] or "finish" in found) else None


class _Looks:
    """The positions a view may still look at."""

    def __init__(self) -> None:
        self.left = MAX_LOOKS


def ahead(state: State, levels: int = 2) -> dict[str, Any] | None:
    """For the seat to move: each action it may take at its decision past the optional steps now
    (``after_skip``'s ``legal``, else the legal actions), with the stage it then faces, itself with
    its ``ahead`` one level further. Only where the game declares ``optional_skip``; None elsewhere."""
    if hook(state.game, "optional_skip") is None or state.is_terminal():
        return None
    seat = state.current_player()
    start = state.move_number()
    now = stage(state, seat, start)
    if now is None or "finish" in now:
        return None
    base = state
    if now["skip"]:
        base = state.clone()
        for text in now["skip"]:
            base.apply_action(text)
            play_forced(base)
    return _ahead(base, now["legal"], seat, start, levels, _Looks())


def _ahead(
    state: State, legal: list[str], seat: int, start: int, levels: int, looks: _Looks
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if len(legal) > MAX_WIDE:
        return out
    later: list[tuple[str, State, dict[str, Any]]] = []
    for text in legal:
        if looks.left <= 0:
            break
        looks.left -= 1
        child = state.clone()
        child.apply_action(text)
        play_forced(child)
        found = stage(child, seat, start)
        if found is not None:
            out[text] = found
            later.append((text, child, found))
    if levels > 1:  # breadth first: every action of this level is looked at before any further one
        for _text, child, found in later:
            if "finish" in found or looks.left <= 0:
                continue
            base = child
            if found["skip"]:
                base = child.clone()
                for skip in found["skip"]:
                    base.apply_action(skip)
                    play_forced(base)
            deeper = _ahead(base, found["legal"], seat, start, levels - 1, looks)
            if deeper:
                found["ahead"] = deeper
    return out
