"""What a seat may see (JSON-able), and why an action is refused.

Public: the board, markets, discard pile, bag counts, stacks' top tiles and sizes,
every tribe and pool, strength, tokens, leaders and their revealed sides, Solitairix's
tile side and quarter. Hidden: other hands (only their size and the cards publicly taken
into them), deck order, the tiles under the stack tops, unrevealed leader flips.
The observation's shape is ``observation_types.CeltaeObservation``.
"""

from __future__ import annotations

from typing import Any, cast

from . import actions as A
from . import board as G
from .actions import Act, card_name
from .core import AREA, EXTRA, P_FLIP, P_STACK, REFRESH, START, SWAP, CeltaeBase, Phase
from .observation_types import CeltaeObservation, Pending, PlayerView

WORKER = "FBSND"


def _cards(counts: list[int]) -> dict[str, int]:
    return {card_name(k): c for k, c in enumerate(counts) if c}


def _workers(row: list[int]) -> list[str | None]:
    return [WORKER[t] if t >= 0 else None for t in row]


def _owner(o: int) -> int | str | None:
    return None if o == -1 else ("neutral" if o == -2 else o)


def flip_view(state: CeltaeBase, choice: int, visible: bool) -> str | None:
    """None before the flip decision; 'decided' hides another seat's choice until all reveal."""
    if not state.flip_revealed and not any(p[0] == P_FLIP for p in state.pending):
        return None
    if choice < 0:
        return "undecided"
    return ("flip" if choice else "keep") if visible else "decided"


def progress_text(state: CeltaeBase, card: int) -> str:
    d = state.data
    kind, arg, need, _slots = d.progress_cards[card]
    region = ("north", "south")
    workers = ("farmers", "builders", "soldiers", "nobles")
    if kind == "colour_maj":
        return f"majority of discs on {d.colours[arg]} citadels"
    if kind == "colour_min":
        return f"{need}+ discs on {d.colours[arg]} citadels"
    if kind == "region_maj":
        return f"majority of discs in the {region[arg]}"
    if kind == "worker_maj":
        return f"majority of {workers[arg]}"
    if kind == "garrison_min":
        return f"{need}+ garrison cubes in the {region[arg]}"
    return {
        "bonus_min": f"{need}+ bonus tiles",
        "bonus_maj": "majority of bonus tiles",
        "druid_workers_min": f"{need}+ druid workers",
        "workers_maj": "majority of workers",
        "workers_min": f"{need}+ workers",
        "druid_tiles_min": f"{need}+ druid tiles",
        "druid_tiles_maj": "majority of druid tiles",
        "roman_min": f"{need}+ Roman Army tiles",
        "roman_maj": "majority of Roman Army tiles",
    }[kind]


def observe(state: CeltaeBase, seat: int | None) -> dict[str, Any]:
    """``observation`` as the engine's ``State.observation`` types it: a plain dict."""
    return cast("dict[str, Any]", observation(state, seat))


def observation(state: CeltaeBase, seat: int | None) -> CeltaeObservation:
    """What ``seat`` may see (``None``: the spectator)."""
    d = state.data
    ctx = state.ctx
    cur = state.current_player()
    players: list[PlayerView] = []
    for o in range(state.n):
        own = seat == o
        fc = state.flip_choice[o]
        players.append(
            {
                "hand": _cards(state.hands[o]) if own else None,
                "hand_size": sum(state.hands[o]),
                "known_cards": _cards(state.known[o]),
                "strength": state.strength[o],
                "tokens": state.tokens[o],
                "active": [WORKER[t] for t in range(4) for _ in range(state.active[o][t])],
                "tribe": {WORKER[t]: c for t, c in enumerate(state.tribe[o]) if c},
                "discs_placed": state.discs[o],
                "discs_left": len(d.disc_costs) - state.discs[o],
                "next_disc_cost": d.disc_costs[state.discs[o]]
                if state.discs[o] < len(d.disc_costs)
                else None,
                "cubes_placed": state.cubes[o],
                "roman_tiles": [list(d.roman_tiles[t]) for t in state.roman_won[o]],
                "druid_tiles": [d.druid_tiles[t].points for t in state.druid_won[o]],
                "bonus_tiles": state.bonus_owner.count(o),
                "leader": d.leaders[state.leaders[o]]["name"] if state.leaders[o] >= 0 else None,
                "leader_side": "AB"[state.leader_side[o]],
                "flip": flip_view(state, fc, own or bool(state.flip_revealed)),
            }
        )
    pending: Pending | None = None
    if state.pending:
        kind, who = state.pending[0]
        pending = {
            "kind": ("progress", "stack marker", "leader flip")[kind],
            "seat": cur if kind == P_FLIP else who,
        }
        if kind == P_STACK:
            pending["kind"] = "progress"
    obs: CeltaeObservation = {
        "game": "celtae",
        "players": state.n,
        "solo": bool(state.solo),
        "seat": seat,
        "current_player": cur,
        "phase": "over" if cur < 0 else ("decide" if pending else Phase(state.phase).text),
        "pending": pending,
        "turn": state.turn,
        "final": ("no", "finishing the round", "double turns")[state.stage],
        "marker": G.CORNER_NAMES[state.marker],
        "action": None if ctx.kind < 0 else f"{A.ACT_VERBS[ctx.kind]} {'NS'[ctx.region]}",
        "areas": [_workers(a) for a in state.areas],
        "centre": _workers(state.centre),
        "bag": {WORKER[t]: state.bag[t] for t in range(4)},
        "markets": [[card_name(k) if k >= 0 else None for k in row] for row in state.market],
        "market_costs": list(d.market_costs),
        "deck_size": len(state.deck),
        "discard": [card_name(k) for k in state.discard],
        "citadels": [
            {
                "region": "NS"[i // 4],
                "colour": d.colours[i % 4],
                "spaces": [_owner(o) for o in cit],
                "bonus": d.bonus_kinds[state.bonus_at[i]],
                "bonus_owner": None if state.bonus_owner[i] < 0 else state.bonus_owner[i],
            }
            for i, cit in enumerate(state.citadels)
        ],
        "roman": [{"top": list(d.roman_tiles[s[-1]]) if s else None, "size": len(s)} for s in state.roman],
        "druid": [
            {
                "top": {
                    "points": d.druid_tiles[s[-1]].points,
                    "needs": "".join(WORKER[t] * c for t, c in enumerate(d.druid_tiles[s[-1]].needs))
                    + "*" * d.druid_tiles[s[-1]].wild,
                }
                if s
                else None,
                "size": len(s),
            }
            for s in state.druid
        ],
        "druid_supply": list(state.druid_supply),
        "garrison": [[_owner(o) for o in row] for row in state.garrison],
        "garrison_icons": [d.icons[i // d.garrison_per_icon] for i in range(3 * d.garrison_per_icon)],
        "track": state.track,
        "progress": [
            {"card": progress_text(state, c), "marks": state.prog_marks[i], "slots": d.progress_cards[c][3]}
            for i, c in enumerate(state.prog_cards)
        ],
        "teutates": None if state.solo else state.teutates,
        "offered_leaders": [d.leaders[i]["name"] for i in state.offered] if state.phase <= 1 else [],
        "players_info": players,
        "scores": state.scores(),
        "token_supply": state.token_supply,
    }
    if state.solo:
        card, steps, quarter, kind, region, swap = (state.last_sx + [-1] * 6)[:6]
        obs["solitairix"] = {
            "side": state.sx_side + 1,
            "quarter": state.sx_quarter + 1,
            "worker": WORKER[state.sx_worker] if state.sx_worker >= 0 else None,
            "discs_placed": state.discs[1],
            "cubes_placed": state.cubes[1],
            "roman_tiles": len(state.roman_won[1]),
            "druid_tiles": len(state.druid_won[1]),
            "druids": state.tribe[1][4],
            "bonus_tiles": state.bonus_owner.count(1),
            "discarded_markers": state.sx_discarded_markers,
            "last_turn": None
            if card is None or kind < 0
            else {
                "card": card_name(card) if card >= 0 else None,
                "steps": steps,
                "action": f"{A.ACT_VERBS[kind]} {'NS'[region]}",
            },
            "target": d.targets[state.game.config["difficulty"]],
            # its card, public while its turn waits for the human's progress decisions (ruling 5)
            "drawn": card_name(ctx.sx_card)
            if state.turn == 1 and ctx.sx_moved and ctx.sx_card >= 0
            else None,
        }
    if seat is not None and seat == cur:
        obs["legal"] = [str(a) for a in state.legal_actions()]
    return obs


def why_illegal(state: CeltaeBase, action: Act) -> str:
    """A message naming the rule that refuses ``action`` now."""
    legal = state.legal_actions()
    shown = ", ".join(str(a) for a in legal[:14]) + (" ..." if len(legal) > 14 else "")
    who = state.current_player()
    if state.pending:
        task = "decide whether to flip the leader" if state.pending[0][0] == 2 else "place a progress marker"
        if action.verb == "progress":
            if action.a >= len(state.prog_cards):
                return f"{action}: there are only {len(state.prog_cards)} progress cards"
            return f"{action}: that progress card is full; choose one of {shown}"
        return f"{action} is not legal now: Seat {who + 1} must first {task}; legal: {shown}"
    p = state.turn
    if state.phase == START:
        if action.verb == "move" and action.a == 3:
            return f"move 3: moving 3 corners costs 3 strength and Seat {p + 1} has {state.strength[p]}"
        if action.verb == "anywhere":
            return (
                "anywhere: no bonus token left"
                if not state.tokens[p]
                else "anywhere: a token was already used to act anywhere this turn"
            )
    if state.phase == AREA and action.verb == "act":
        kind, region = action.a, action.b
        if not state.ctx.anywhere and (kind, region) not in G.ADJACENT[state.marker]:
            return f"{action}: that action is not beside the marker at {G.CORNER_NAMES[state.marker]}; legal: {shown}"
        if kind == G.BUILD:
            return (
                f"{action}: Seat {p + 1} cannot pay for a disc on a citadel with a free space in that region"
            )
        if kind == G.RECRUIT:
            return f"{action}: Seat {p + 1} has no active worker to recruit"
    return f"{action} is not legal now: Seat {who + 1} must {Phase(state.phase).text}; legal: {shown}"


def optional_skip(state: CeltaeBase) -> str | None:
    """``done`` when the seat to move faces an optional step that its action's own choices skip
    (refresh, swap, extra worker), else None: a client may offer the action's targets at once."""
    if state.pending or state.phase not in (REFRESH, SWAP, EXTRA):
        return None
    legal = state.legal_actions()
    return "done" if len(legal) > 1 and any(str(a) == "done" for a in legal) else None
