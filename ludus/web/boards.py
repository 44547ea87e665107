"""The observation a page's board is drawn from: the view at the version the page holds.

A page draws the board of each view it is sent; when bots move at once, the game is often a
version or more further on by the time the page asks for the drawing. The server keeps every
game's actions, so it draws the view the page holds rather than refusing it: the page then asks
only for what it holds and never meets an error in the normal flow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ludus.server.caller import Credential
    from ludus.server.service import GameService


def view_at(
    service: GameService, game_id: str, who: Credential, version: int, ply: int | None
) -> dict[str, Any] | None:
    """``game``, ``seat``, ``version`` and ``observation`` of the view at ``version`` of the caller's
    seat (the spectator's without a token), or None: that view is not on the game's line.

    ``ply`` is the number of actions of that view (its ``ply``). Every action adds one to both the
    version and the ply; an undo adds one to the version and takes actions away. So a view whose
    version less its ply is the game's now is on the game's line, and its state is the first
    ``ply`` actions replayed (a few milliseconds for a whole game): those a seat saw then, secrets
    as they were. A later version, or one from before an undo, is not (the caller answers 409).
    """
    rt = service.games.read(game_id)
    with rt.lock:
        seat = service.games.viewer(rt, who)
        plies = len(rt.owners)
        if ply is None or ply > plies or version - ply != rt.version - plies:
            return None
        name, game, seed, actions = rt.row.game, rt.state.game, rt.row.seed, rt.state.history()[:ply]
    state = game.new_initial_state(seed=seed)
    for action in actions:
        state.apply_action(action)
    return {"game": name, "seat": seat, "version": version, "observation": state.observation(seat)}
