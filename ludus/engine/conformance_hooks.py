"""What ``check_hooks`` (``ludus.engine.conformance``) asks of each declared hook on real positions:
``EXERCISES`` maps each hook to the check that calls it on the states of one random game
(``positions``) and says, by raising ``Wrong``, which call answered what it must not. Pure engine
code: a hook is called as the layers above call it, without importing them."""

from __future__ import annotations

import json
import math
import numbers
import random
import re
from typing import Any
from xml.etree import ElementTree

from .game import Game
from .registry import game_class
from .state import State

MAX_STEPS = 20_000  # a random game longer than this is cut there (the rules kit fails such a game)


class Wrong(Exception):
    """A hook answered wrong (or failed) on a real position; ``check_hooks`` names the hook."""


def positions(game: Game, count: int, seed: int) -> tuple[list[State], list[str | None]]:
    """``count`` states of one random game (its start, its end and plies evenly between) and the
    action played next from each (None at the end)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal() and state.move_number() < MAX_STEPS:
        state.apply_action(rng.choice(state.legal_actions()))
    history = state.history()
    plies = {round(i * len(history) / max(1, count - 1)) for i in range(count)}
    states: list[State] = []
    replayed = game.new_initial_state(seed=seed)
    for ply in range(len(history) + 1):
        if ply in plies:
            states.append(replayed.clone())
        if ply < len(history):
            replayed.apply_action(history[ply])
    return states, [history[s.move_number()] if s.move_number() < len(history) else None for s in states]


def _call(what: str, func: Any, *args: Any, **options: Any) -> Any:
    """``func(*args, **options)``; a failure is reported as the call ``what``."""
    try:
        return func(*args, **options)
    except Exception as exc:
        raise Wrong(f"{what} raised {type(exc).__name__}: {exc}") from exc


def _expect(holds: Any, what: str) -> None:
    if not holds:
        raise Wrong(what)


def _at(state: State, seat: int | None = None, view: bool = True) -> str:
    """Words for a position (and whose view of it) in a message."""
    who = "" if not view else "the spectator's view " if seat is None else f"seat {seat}'s view "
    return f"{who}after {state.move_number()} actions"


def _json(value: Any, what: str) -> None:
    try:
        json.dumps(value)
    except (TypeError, ValueError) as exc:
        raise Wrong(f"{what} is not JSON-serialisable: {exc}") from None


def _numbers(values: Any, count: int | None, what: str) -> list[float]:
    """``values`` as finite floats (``count`` of them unless None); Wrong saying what is wrong."""
    given = [values] if count is None else values
    ok = isinstance(given, (list, tuple)) and (count is None or len(given) == count)
    ok = ok and all(
        isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v) for v in given
    )
    _expect(ok, f"{what} gave {str(values)[:120]}: expected {count or 'a'} finite number{'s' * bool(count)}")
    return [float(v) for v in given]


def _seats(state: State) -> list[int | None]:
    return [*range(state.game.num_players), None]


def _renderer(module: Any, states: list[State], actions: list[str | None]) -> None:
    """Every seat's view and the spectator's drawn as text (and as well-formed SVG with the board's
    options, where the renderer draws SVG); panels, rules help, log details and automaton turns
    answered as the server sends them (JSON)."""
    options_of = getattr(module, "board_options", None)
    render_svg = getattr(module, "render_svg", None)
    panels = getattr(module, "panels", None)
    for state in states:
        for seat in _seats(state):
            observation, at = state.observation(seat), _at(state, seat)
            text = _call(f"render_text({at})", module.render_text, observation)
            _expect(isinstance(text, str) and text.strip(), f"render_text({at}) gave {text!r}: expected text")
            options: Any = {}
            if options_of is not None:
                options = _call(f"board_options({at})", options_of, observation)
                _expect(isinstance(options, dict), f"board_options({at}) gave {options!r}: expected a dict")
            if render_svg is not None:
                _svg(_call(f"render_svg({at})", render_svg, observation, **options), f"render_svg({at})")
            if panels is not None:
                _json(_call(f"panels({_at(state, seat)})", panels, state, seat), f"panels({at})")
    if callable(getattr(module, "rules_help", None)):
        _json(_call("rules_help()", module.rules_help), "rules_help()")
    detail = getattr(module, "log_detail", None)
    for state, action in zip(states, actions, strict=True):
        if detail is not None and action is not None:
            found = _call(f"log_detail(state {_at(state, view=False)}, {action!r})", detail, state, action)
            _expect(isinstance(found, dict), f"log_detail gave {found!r}: expected a dict")
            _json(found, f"log_detail({action!r})")
        turns = getattr(module, "automaton_turns", None)
        if turns is not None:
            _automaton_turns(_call(f"automaton_turns({_at(state, view=False)})", turns, state), state)


def _svg(drawn: Any, what: str) -> None:
    """``drawn`` is an SVG document that parses as XML (text in it escaped)."""
    _expect(isinstance(drawn, str), f"{what} gave {type(drawn).__name__}: expected SVG text")
    try:
        root = ElementTree.fromstring(drawn)
    except ElementTree.ParseError as exc:
        raise Wrong(f"{what} is not well-formed SVG ({exc}): is every text escaped?") from None
    _expect(root.tag.rpartition("}")[2] == "svg", f"{what} is a <{root.tag}>, not an <svg>")


def _automaton_turns(turns: Any, state: State) -> None:
    plies = state.move_number()
    ok = isinstance(turns, list) and all(
        isinstance(t, dict) and isinstance(t.get("after"), int) and 0 <= t["after"] <= plies for t in turns
    )
    _expect(
        ok, f"automaton_turns gave {str(turns)[:120]}: expected a list of dicts, each with 'after' 0..{plies}"
    )
    _json(turns, "automaton_turns")


def _heuristic(module: Any, states: list[State], actions: list[str | None]) -> None:
    """A finite value for every seat of every position; ``evaluate_all`` one per seat, and
    ``evaluate_actions`` the same figures as ``evaluate_all`` of the positions the actions lead to."""
    every = getattr(module, "evaluate_all", None)
    shortcut = getattr(module, "evaluate_actions", None)
    for state in states:
        n, at = state.game.num_players, _at(state, view=False)
        for seat in range(n):
            _numbers(
                _call(f"evaluate({at}, {seat})", module.evaluate, state, seat),
                None,
                f"evaluate({at}, {seat})",
            )
        if state.is_terminal():
            continue
        if every is not None:
            _numbers(_call(f"evaluate_all({at})", every, state), n, f"evaluate_all({at})")
        if shortcut is not None:
            legal = state.legal_actions()
            answers = _call(f"evaluate_actions({at}, legal)", shortcut, state, legal)
            _expect(
                isinstance(answers, list) and len(answers) == len(legal),
                f"evaluate_actions({at}, legal) must give one entry (a list or None) per action",
            )
            for action, margins in list(zip(legal, answers, strict=True))[:8]:
                if margins is None:
                    continue
                child = state.clone()
                child.apply_action(action)
                played = every(child) if every is not None else [module.evaluate(child, s) for s in range(n)]
                values = _numbers(played, n, f"the values after {action}")
                figures = _numbers(margins, n, f"evaluate_actions({at}) for {action}")
                _expect(
                    all(
                        math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
                        for a, b in zip(figures, values, strict=True)
                    ),
                    f"evaluate_actions({at}) gives {figures} for {action}, evaluate_all of its position {values}",
                )


def _explainer(module: Any, states: list[State], actions: list[str | None]) -> None:
    """A reason (text) for the move played from each position; ``canonical`` a state the seat sees
    as it saw the original."""
    canonical = getattr(module, "canonical", None)
    for state, played in zip(states, actions, strict=True):
        if played is None:
            continue
        seat, at = state.current_player(), _at(state, view=False)
        action = next(a for a in state.legal_actions() if str(a) == played)
        after = state.clone()
        after.apply_action(action)
        why = _call(f"explain({at}, {played!r})", module.explain, state, action, after, seat, [])
        _expect(
            isinstance(why, str) and why.strip(), f"explain({at}, {played!r}) gave {why!r}: expected text"
        )
        if canonical is not None:
            world = _call(f"canonical({at}, {seat})", canonical, state, seat)
            _expect(
                isinstance(world, State) and world.observation(seat) == state.observation(seat),
                f"canonical({at}, {seat}) does not show seat {seat} what it saw",
            )


def _encoder(cls: Any, states: list[State], actions: list[str | None]) -> None:
    """The encoder built with the game; every seat's observation a vector of its ``size`` finite
    numbers, the same whether read from the observation (``encode``) or the state (``encode_state``)."""
    encoder = _call(f"{getattr(cls, '__name__', cls)}(game)", cls, states[0].game)
    size = getattr(encoder, "size", None)
    _expect(isinstance(size, int) and size > 0, f"the encoder's size is {size!r}: expected a positive int")
    for state in states:
        for seat in range(state.game.num_players):
            at = _at(state, seat)
            vector = _numbers(
                list(_call(f"encode({at})", encoder.encode, state.observation(seat))), size, f"encode({at})"
            )
            direct = _numbers(list(_call(f"encode_state({at})", encoder.encode_state, state, seat)), size, at)
            _expect(vector == direct, f"encode_state({at}) differs from encode of the same observation")


def _report_facts(facts: Any, states: list[State], actions: list[str | None]) -> None:
    for state in states:
        if state.is_terminal():
            found = _call("report_facts(the final state)", facts, state)
            _expect(isinstance(found, dict), f"report_facts gave {type(found).__name__}: expected a dict")
            _json(found, "report_facts(the final state)")


def _optional_skip(skip: Any, states: list[State], actions: list[str | None]) -> None:
    for state in states:
        if not state.is_terminal():
            at = _at(state, view=False)
            found = _call(f"optional_skip({at})", skip, state)
            legal = {str(a) for a in state.legal_actions()}
            _expect(
                found is None or found in legal, f"optional_skip({at}) gave {found!r}: not a legal action"
            )


def _learned(module: Any, states: list[State], actions: list[str | None]) -> None:
    """``features(state, seat, rival)`` one finite number per name of ``NAMES``; ``training_options``
    options the game accepts."""
    names = getattr(module, "NAMES", None)
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        raise Wrong(f"NAMES is {str(names)[:80]}: expected the feature names (a list of text)")
    for state in states:
        n = state.game.num_players
        for seat in range(n) if not state.is_terminal() else ():
            rival = 1 if n == 1 else (seat + 1) % n  # solo: the game's automaton
            at = f"features({_at(state, view=False)}, {seat}, {rival})"
            _numbers(_call(at, module.features, state, seat, rival), len(names), at)
    choose = getattr(module, "training_options", None)
    if choose is not None:
        game = states[0].game
        options = _call("training_options", choose, game.num_players, random.Random(0))
        _expect(isinstance(options, dict), f"training_options gave {options!r}: expected options")
        _call(f"the options {options} from training_options", game_class(game.name).validate_options, options)


def _file(suffix: str) -> Any:
    """The check of a browser file: a plain file name ending in ``suffix`` (the server serves no
    other), UTF-8 text."""

    def check(path: Any, states: list[State], actions: list[str | None]) -> None:
        name = str(getattr(path, "name", path))
        _expect(
            _SERVED.fullmatch(name) and name.endswith(suffix), f"{name!r}: the server serves {suffix} files"
        )
        _expect(_call(f"reading {name}", path.read_text, encoding="utf-8").strip(), f"{name} is empty")

    return check


def _shape_only(found: Any, states: list[State], actions: list[str | None]) -> None:
    """Nothing more to call: the report's sections need a whole report's results (the shape is checked)."""


_SERVED = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")  # the file names /plugins/<game>/ serves
EXERCISES: dict[str, Any] = {
    "renderer": _renderer,
    "heuristic": _heuristic,
    "explainer": _explainer,
    "encoder": _encoder,
    "report_facts": _report_facts,
    "report_sections": _shape_only,
    "optional_skip": _optional_skip,
    "browser": _file(".js"),
    "styles": _file(".css"),
    "rules": _file(".html"),
    "learned": _learned,
}
"""What ``check_hooks`` calls each declared hook with, and what it must answer: ``(hook, states,
actions)``, the states of one random game and the action played from each."""
