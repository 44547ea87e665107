"""Hints: the best few moves for the seat to move, each with its value and a reason in the game's terms.

``hint(state, n=3)`` ranks every legal action of the seat to move by the game's heuristic
(``ludus.bots.greedy.heuristic``) averaged over several determinizations,
``state.resample(seat, rng)``: the seat's view with everything it cannot see re-dealt, so
a hint never depends on other seats' hands, piles or secret choices. Where the game lets
the seat take further decisions in the same turn before anything new is shown (a tile,
then its worker), an action is valued by the seat's best follow-up, so that a first step
is rated with the follow-up it opens.

``value`` is always the heuristic's estimate of the seat's final score margin, in points:
its score less the best rival's (in a solo game: less the target), averaged over the
determinizations. Higher is better; differences between hints are what matter. ``value_text``
says it in words ("you'd finish ~3 points behind the leader").

Moves that lead to the same position for the seat (``position_key``: the explainer's, else the
seat's observation) are one hint: the best-valued stands for them, the others are its ``same``.
Each hint has ``sentence``, one plain sentence of what the move does and why: the explainer's
``sentence(before, action, after, seat, follow)``, else one from the change of the seat's score.

``why`` comes from the game's explainer, the module its Game class declares (``hooks.explainer``)
(``explain(before, action, after, seat, follow) -> str``, comparing the position before and
after the move and the seat's follow-ups, both in a re-dealt world of the seat's view, so a
reason cannot name a secret either); a game without one gets a sentence from the change of
its score and heuristic value. An explainer may also offer ``canonical(state, seat)``: a copy
whose hidden parts are laid out in a fixed order, so that two positions the seat cannot
tell apart give exactly the same hints for the same seed, and ``LOOKAHEAD``: how many own
follow-up decisions are searched when valuing (the default 2; 0 where the heuristic
finishes the turn itself), and ``EXPLAIN_STEPS``: how many the reason shows (the default
``LOOKAHEAD``).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from ..engine import Action, State
from ..engine.hooks import hook
from .greedy import heuristic, heuristic_actions

WORLDS = 8  # determinizations averaged (the same seed gives the same worlds)
LOOKAHEAD = 2  # own follow-up decisions searched, unless the game's explainer says otherwise


@cache
def explainer(game_name: str) -> Any:
    """The explainer module the game declares (``Hooks.explainer``), or None for a game without one."""
    return hook(game_name, "explainer")


def hint(
    state: State,
    n: int = 3,
    seconds: float | None = None,
    seed: int | None = None,
    worlds: int = WORLDS,
    merge: bool = True,
) -> list[dict[str, Any]]:
    """The best ``n`` moves for the seat to move, best first: ``[{"action", "value", "why", "sentence",
    "value_text", "same"}, ...]``.

    ``action`` is the move's notation, ``value`` the estimated final score margin over the
    best rival (solo: over the target) in points, ``value_text`` that in words, ``why`` the
    detailed reason, ``sentence`` one plain sentence of what the move does and why, ``same`` the
    other moves that lead to the same position (merged into this one unless ``merge`` is False,
    when every move is its own hint). ``seed`` fixes the
    determinizations: the same seed and position always give the same hints. ``seconds``
    caps the time: no determinization is begun that would not end in time at the pace
    of the ones before (at least one is always used), so a capped hint may rest on fewer.
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"n must be a whole number of at least 1, got {n!r}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds must be None or more than 0, got {seconds!r}")
    if not isinstance(worlds, int) or worlds < 1:
        raise ValueError(f"worlds must be a whole number of at least 1, got {worlds!r}")
    if state.is_terminal():
        raise ValueError("the game is over: there is no move to hint")
    deadline = None if seconds is None else time.perf_counter() + seconds
    seat = state.current_player()
    legal = state.legal_actions()
    name = state.game.name
    module = explainer(name)
    evaluate = heuristic(name)
    depth = getattr(module, "LOOKAHEAD", LOOKAHEAD)
    base = module.canonical(state, seat) if hasattr(module, "canonical") else state
    rng = random.Random(seed)
    totals = dict.fromkeys(legal, 0.0)
    done = 0
    started = time.perf_counter()
    for _ in range(worlds):
        world = base.resample(seat, rng)
        for action, value in zip(legal, _values(world, legal, seat, evaluate, depth), strict=True):
            totals[action] += value
        done += 1
        now = time.perf_counter()
        if deadline is not None and now + (now - started) / done > deadline:
            break  # another world would not end in time
    order = {a: i for i, a in enumerate(legal)}
    ranked = sorted(legal, key=lambda a: (-totals[a], order[a]))
    groups = _merged(base, ranked, seat) if merge else [[a] for a in ranked]
    shown = base.resample(seat, random.Random(seed))  # the world the explanations play on
    steps = getattr(module, "EXPLAIN_STEPS", depth)
    solo = state.game.num_players == 1
    out = []
    for action, *same in groups[:n]:
        after, follow = _follow_up(shown, action, seat, evaluate, steps, depth)
        value = round(totals[action] / done, 2)
        out.append(
            {
                "action": str(action),
                "value": value,
                "why": explain(shown, action, after, seat, follow),
                "sentence": sentence(shown, action, after, seat, follow),
                "value_text": value_text(value, solo),
                "same": [str(a) for a in same],
            }
        )  # a re-dealt world: no secrets
    return out


def position_key(state: State, action: Action, seat: int) -> str:
    """What ``seat`` knows of the position after ``action``: the explainer's ``position_key`` (which may
    forget what the rules ignore, such as an order that does not matter), else its observation."""
    after = state.clone()
    after.apply_action(action)
    own = getattr(explainer(state.game.name), "position_key", None)
    seen = own(after, seat) if own is not None else after.observation(seat)
    return json.dumps(seen, sort_keys=True, default=str)


def _merged(state: State, ranked: list[Action], seat: int) -> list[list[Action]]:
    """``ranked`` grouped by the position each move leads to, each group led by its best move."""
    groups: dict[str, list[Action]] = {}
    for action in ranked:
        groups.setdefault(position_key(state, action, seat), []).append(action)
    return list(groups.values())


def value_text(value: float, solo: bool) -> str:
    """The value in words: the final margin it expects over the best rival, or over a solo target."""
    points = round(abs(value))
    amount = f"~{points} point{'' if points == 1 else 's'}"
    if solo:
        if points == 0:
            return "you'd finish right about on the target"
        return f"you'd finish {amount} {'above' if value > 0 else 'below'} the target"
    if points == 0:
        return "you'd finish about level with the leader, within a point either way"
    if value > 0:
        return f"you'd finish {amount} ahead of your nearest rival"
    return f"you'd finish {amount} behind the leader"


def _values(world: State, legal: list[Action], seat: int, evaluate: Callable, depth: int) -> list[float]:
    """Each action's heuristic value for ``seat`` in ``world``, after the seat's best follow-ups."""
    shortcut = heuristic_actions(world.game.name)
    world.legal_actions()  # listed once; the clones below inherit it
    known = shortcut(world, legal) if shortcut is not None and depth == 0 else [None] * len(legal)
    out = []
    for action, values in zip(legal, known, strict=True):
        if values is not None:
            out.append(values[seat])
            continue
        child = world.clone()
        child.apply_action(action)
        out.append(_best(child, seat, evaluate, depth))
    return out


def _own_turn(state: State, seat: int) -> bool:
    """Whether ``seat`` decides again before anything new is shown or the turn passes."""
    return (
        not state.is_terminal()
        and state.current_player() == seat
        and state.undo_barrier() < state.move_number()
    )


def _best(state: State, seat: int, evaluate: Callable, depth: int) -> float:
    """The heuristic value of ``state`` for ``seat``, after its best ``depth`` own follow-ups."""
    if depth <= 0 or not _own_turn(state, seat):
        return evaluate(state, seat)
    legal = state.legal_actions()
    shortcut = heuristic_actions(state.game.name) if depth == 1 else None
    known = shortcut(state, legal) if shortcut is not None else [None] * len(legal)
    best = float("-inf")
    for action, values in zip(legal, known, strict=True):
        if values is not None:
            value = values[seat]
        else:
            child = state.clone()
            child.apply_action(action)
            value = _best(child, seat, evaluate, depth - 1)
        best = max(best, value)
    return best


def _follow_up(
    world: State, action: Action, seat: int, evaluate: Callable, steps: int, depth: int
) -> tuple[State, list[Action]]:
    """The position after ``action`` and up to ``steps`` of the seat's best follow-ups in its turn
    (each chosen as the valuation does: by its own best follow-ups), for the reason."""
    after = world.clone()
    after.apply_action(action)
    follow: list[Action] = []
    while steps > 0 and _own_turn(after, seat):
        best, best_value, best_state = None, float("-inf"), None
        for option in after.legal_actions():
            child = after.clone()
            child.apply_action(option)
            value = _best(child, seat, evaluate, depth - len(follow) - 1)
            if value > best_value:
                best, best_value, best_state = option, value, child
        if best is None:
            break
        follow.append(best)
        after = best_state  # type: ignore[assignment]
        steps -= 1
    return after, follow


def explain(
    before: State, action: Action, after: State, seat: int, follow: list[Action] | None = None
) -> str:
    """Why ``action`` is worth playing, for ``seat``: the game's explainer, or a generic sentence."""
    module = explainer(before.game.name)
    if module is not None:
        return module.explain(before, action, after, seat, list(follow or ()))
    return generic_reason(before, action, after, seat, list(follow or ()))


def sentence(
    before: State, action: Action, after: State, seat: int, follow: list[Action] | None = None
) -> str:
    """One plain sentence of what ``action`` does and why: the game's explainer, or a generic one."""
    own = getattr(explainer(before.game.name), "sentence", None)
    if own is not None:
        return own(before, action, after, seat, list(follow or ()))
    return generic_sentence(before, action, after, seat)


def generic_sentence(before: State, action: Action, after: State, seat: int) -> str:
    """A sentence from the change of the seat's score and of the heuristic's estimate of its standing."""
    evaluate = heuristic(before.game.name)
    points = after.scores()[seat] - before.scores()[seat]
    better = evaluate(after, seat) - evaluate(before, seat)
    now = (
        f"it scores {points} point{'' if abs(points) == 1 else 's'} now"
        if points > 0
        else f"it loses {-points} point{'' if points == -1 else 's'} now"
        if points < 0
        else "it scores nothing now"
    )
    outlook = (
        "and improves your prospects"
        if better > 0
        else "and costs you a little in prospects"
        if better < 0
        else ""
    )
    return f"Play '{action}': {now}{' ' + outlook if outlook else ''}."


def generic_reason(before: State, action: Action, after: State, seat: int, follow: list[Action]) -> str:
    """A reason from the change of the seat's score and of the heuristic's estimate of its margin."""
    evaluate = heuristic(before.game.name)
    points = after.scores()[seat] - before.scores()[seat]
    margin = evaluate(after, seat) - evaluate(before, seat)
    text = f"{action}"
    if follow:
        text += ", then " + ", ".join(str(a) for a in follow)
    text += ": " + (f"scores {_signed(points)} now" if points else "no points now")
    text += f"; your expected margin over the best rival changes by {_signed(round(margin, 1))}"
    return text + "."


def _signed(x: float) -> str:
    return f"+{x:g}" if x > 0 else f"{x:g}"


TERMINAL_SECONDS = 3.0  # the terminal's cap on one hint


def hint_text(state: State, args: str = "") -> str:
    """The answer to ``hint`` (or ``hint N``) at a player's prompt: the best moves, numbered as in
    the table of legal moves, with their values and reasons; asking again in the same position
    gives the same answer."""
    words = args.split()
    if len(words) > 1 or (words and not (words[0].isdigit() and 1 <= int(words[0]) <= 20)):
        return "error: hint takes an optional number of moves from 1 to 20, e.g. 'hint' or 'hint 5'"
    n = int(words[0]) if words else 3
    hints = hint(state, n=n, seconds=TERMINAL_SECONDS, seed=state.move_number())
    number = {str(a): i for i, a in enumerate(state.legal_actions(), 1)}
    lines = ["Hints (each with the final result it expects, numbered as in the list of moves):"]
    for h in hints:
        same = f" (or {', '.join(h['same'])}: the same)" if h["same"] else ""
        lines.append(
            f"{number[h['action']]:>4}. {h['action']}{same}  {h['sentence']} Expect: {h['value_text']}."
        )
    return "\n".join(lines)
