"""The conformance kit: what every game on the contract must do, checked over random games.

Plugin authors call it from their own tests, as ludus does for its games::

    from ludus.engine.conformance import check_game, check_hooks, configurations

    @pytest.mark.parametrize("config", configurations("mygame"))
    def test_mygame_conforms(config):
        check_game("mygame", config, games=3)

    def test_mygame_hooks_work():
        check_hooks("mygame")  # every hook its Game class declares loads, has its shape and answers right

    def test_mygame_routes_answer():  # needs the server extra: it plays a game through the routes
        from ludus.web.conformance import check_routes

        check_routes("mygame")  # every route a game gets answers, none with a 5xx

Each check raises ``ConformanceError`` naming the configuration, the seed, the step and what
went wrong, so that a failure can be replayed (``ludus.replay`` of the record it names).
Like OpenSpiel's random simulation test, it plays random legal actions; games stay short
enough that a few games per configuration take well under a second.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

from .conformance_hooks import EXERCISES, MAX_STEPS, Wrong, positions
from .errors import IllegalActionError, OptionError
from .game import Game
from .hooks import HookError, hook, hooks_of
from .hookspec import SHAPES
from .record import replay
from .registry import game_class, load_game
from .state import TERMINAL, State

GARBAGE = ("", " ", "\x00", "not an action", "9" * 400, "{}", "place", "move -1", "é")
AllActions = tuple[list[str], set[str]]  # all_actions() in order, and as a set
EVERY = 4  # refusals and copies are checked at every EVERY-th position
FEW = 4  # options with at most this many values are combined in full


class ConformanceError(AssertionError):
    """A game broke the contract; the message says where and how to replay it."""


def configurations(name: str) -> list[dict[str, Any]]:
    """Valid configurations covering the game's options: every combination of the options with a
    few values (at most ``FEW`` each), and every value of the others at least once, taken in
    turn across those combinations (a choice of colours need not meet every board)."""
    cls = game_class(name)
    few = [o for o in cls.options if len(o.choices) <= FEW]
    many = [o for o in cls.options if len(o.choices) > FEW]
    found: list[dict[str, Any]] = []
    for values in itertools.product(*(o.choices for o in few)):
        config = dict(zip((o.name for o in few), values, strict=True))
        if _valid(cls, config):
            found.append(config)
    for option in many:
        unused = list(option.choices)
        for config in found:
            for i, value in enumerate(unused):
                if _valid(cls, {**config, option.name: value}):
                    config[option.name] = unused.pop(i)
                    break
            else:
                config.setdefault(option.name, option.default)
        for value in unused:  # values that fit no combination found so far: one configuration each
            base = next((c for c in found if _valid(cls, {**c, option.name: value})), None)
            if base is not None:
                found.append({**base, option.name: value})
    return [cls.validate_options(c) for c in found if _valid(cls, c)]


def _valid(cls: type[Game], config: dict[str, Any]) -> bool:
    try:
        cls.validate_options(config)
    except OptionError:
        return False
    return True


def check_game(
    name: str, config: dict[str, Any] | None = None, *, games: int = 2, seed: int = 0, resamples: int = 2
) -> int:
    """Play ``games`` random games of ``name`` in ``config`` and check the contract at every step.

    Returns the number of steps checked.
    """
    game = load_game(name, **(config or {}))
    steps = 0
    for g in range(games):
        steps += _check_one(game, seed + g, resamples)
    return steps


def _fail(game: Game, seed: int, step: int, what: str) -> ConformanceError:
    return ConformanceError(f"{game!r}, seed {seed}, step {step}: {what}")


def _snapshot(state: State) -> str:
    return state.to_json()


def _views(state: State) -> list[Any]:
    return [state.observation(s) for s in range(state.game.num_players)] + [state.observation(None)]


def _check_one(game: Game, seed: int, resamples: int) -> int:
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    twin = game.new_initial_state(seed=seed)
    everything = _all_actions(game)
    step = 0
    while True:
        fail = functools.partial(_fail, game, seed, step)
        if _views(state) != _views(twin):
            raise fail("two games from the same seed and the same actions differ")
        json.dumps(_views(state))  # observations must be JSON-serialisable
        _check_turn(state, fail)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        _check_notation(game, legal, everything, fail)
        if step % EVERY == 0:  # the costlier checks on a sample of the positions
            _check_refusals(state, legal, everything, rng, fail)
            _check_copies(game, state, fail)
        if step % (2 * EVERY + 1) == 0:
            _check_resample(state, rng, resamples, fail)
        actor = state.current_player()
        barrier = state.undo_barrier()
        action = rng.choice(legal)
        state.apply_action(action)
        twin.apply_action(str(action))
        step += 1
        _check_barrier(state, actor, barrier, fail)
        if step > MAX_STEPS:
            raise fail(f"no end after {MAX_STEPS} steps")
    record = state.record()
    again = replay(json.loads(json.dumps(record)))
    if again.history() != state.history() or again.scores() != state.scores():
        raise _fail(game, seed, step, "replaying the record does not give the same game")
    if len(state.scores()) != game.num_players or len(state.returns()) != game.num_players:
        raise _fail(game, seed, step, "scores() and returns() need one entry per seat")
    if not set(state.winners()) <= set(range(game.num_players)):
        raise _fail(game, seed, step, f"winners() names seats that do not exist: {state.winners()}")
    return step


def _all_actions(game: Game) -> AllActions | None:
    try:
        texts = [str(a) for a in game.all_actions()]
    except NotImplementedError:
        return None
    return texts, set(texts)


def _check_turn(state: State, fail: Any) -> None:
    current = state.current_player()
    n = state.game.num_players
    if state.is_terminal() != (current == TERMINAL):
        raise fail("is_terminal() disagrees with current_player()")
    if not state.is_terminal():
        if not 0 <= current < n:
            raise fail(f"current_player() {current} is neither a seat nor TERMINAL")
        if not state.legal_actions():
            raise fail("a seat is to move but has no legal action")
    elif state.legal_actions():
        raise fail("a finished game still lists legal actions")
    if state.legal_actions() is state.legal_actions():
        raise fail("legal_actions() must return a fresh list (callers may change it)")


def _check_notation(game: Game, legal: list[Any], everything: AllActions | None, fail: Any) -> None:
    texts = [str(a) for a in legal]
    if len(set(texts)) != len(texts):
        raise fail("two legal actions share one notation")
    for action, text in zip(legal, texts, strict=True):
        parsed = game.parse_action(text)
        if parsed != action or hash(parsed) != hash(action) or str(parsed) != text:
            raise fail(f"notation does not round-trip: {text!r} parses to {parsed!r}")
        if everything is not None and text not in everything[1]:
            raise fail(f"the legal action {text!r} is missing from all_actions()")


def _check_refusals(
    state: State, legal: list[Any], everything: AllActions | None, rng: random.Random, fail: Any
) -> None:
    before = _snapshot(state)
    legal_texts = {str(a) for a in legal}
    pool = everything[0] if everything else []
    others = [t for t in rng.sample(pool, min(12, len(pool))) if t not in legal_texts][:5]
    for text in [*GARBAGE, *others]:
        if text in legal_texts:
            continue
        try:
            state.apply_action(text)
        except IllegalActionError as exc:
            if not str(exc):
                raise fail(f"the refusal of {text!r} does not say why") from None
        else:
            raise fail(f"the illegal action {text!r} was accepted")
        if _snapshot(state) != before:
            raise fail(f"refusing {text!r} changed the state")


def _check_copies(game: Game, state: State, fail: Any) -> None:
    saved = state.to_json()
    loaded = game.state_from_json(saved)
    if loaded.to_json() != saved or _views(loaded) != _views(state):
        raise fail("a state saved with to_json() does not load back the same")
    if loaded.undo_barrier() != state.undo_barrier():
        raise fail("the undo barrier is not saved")
    copy = state.clone()
    if copy.to_json() != saved:
        raise fail("clone() differs from the original")
    copy.apply_action(copy.legal_actions()[-1])
    if state.to_json() != saved:
        raise fail("playing on a clone changed the original")


def _check_resample(state: State, rng: random.Random, resamples: int, fail: Any) -> None:
    saved = state.to_json()
    public = state.observation(None)
    for seat in range(state.game.num_players):
        seen = state.observation(seat)
        for _ in range(resamples):
            world = state.resample(seat, rng)
            if world.observation(seat) != seen:
                raise fail(f"a world re-dealt for seat {seat} does not show that seat what it saw")
            if world.observation(None) != public:
                raise fail(f"a world re-dealt for seat {seat} changes the public view")
            if world.history() != state.history() or world.current_player() != state.current_player():
                raise fail(f"a world re-dealt for seat {seat} has another history or mover")
    if state.to_json() != saved:
        raise fail("resample() changed the state it was asked about")


def _check_barrier(state: State, actor: int, before: int, fail: Any) -> None:
    n = state.move_number()
    barrier = state.undo_barrier()
    if not before <= barrier <= n:
        raise fail(f"undo_barrier() went from {before} to {barrier} (history {n}): it may only move forward")
    if state.current_player() != actor and barrier != n:
        raise fail("the turn passed to another seat but the last decision may still be undone")


def every_game_configuration() -> Iterator[tuple[str, dict[str, Any]]]:
    """(name, config) for every installed game and every valid configuration of it."""
    from .registry import game_names

    for name in game_names():
        for config in configurations(name):
            yield name, config


def check_hooks(
    name: str, config: dict[str, Any] | None = None, *, count: int = 6, seed: int = 0
) -> dict[str, str]:
    """Load every hook the game ``name`` declares, check its shape (``ludus.engine.hooks.SHAPES``: the
    functions it must offer exist and take their arguments), then call each on real positions:
    ``count`` states spread over a random game of ``config`` (default: the game's defaults),
    from its start to its end (``EXERCISES`` says what each hook must answer there).

    Returns each hook's verdict, ``"ok"`` or why it was not checked: a hook needing a package that
    is not installed here (an optional extra, say) is reported, not failed; anything else raises
    ``ConformanceError`` naming the hook, the call and what went wrong. The server's routes are
    checked by ``ludus.web.conformance.check_routes`` (it plays a game through a server)."""
    verdicts = {}
    loaded: dict[str, Any] = {}
    for hook_name, target in hooks_of(name).declared().items():
        try:
            found = hook(name, hook_name)
        except HookError as exc:
            missing = _missing_package(exc, target)
            if missing is None:
                raise ConformanceError(f"{name}: {exc}") from None
            verdicts[hook_name] = f"not checked: needs {missing}, which is not installed"
            continue
        shape = SHAPES[hook_name]
        for func, arguments in shape.needs:
            _check_callable(name, hook_name, target, found, func, arguments, required=True)
        for func, arguments in shape.may:
            _check_callable(name, hook_name, target, found, func, arguments, required=False)
        loaded[hook_name] = found
    if loaded:
        game = load_game(name, **(config or {}))
        states, actions = positions(game, count, seed)
        saved = [state.to_json() for state in states]
        for hook_name, found in loaded.items():
            where = f"{name}: hook {hook_name}={hooks_of(name).declared()[hook_name]!r}"
            try:
                EXERCISES[hook_name](found, states, actions)
            except Wrong as exc:
                raise ConformanceError(f"{where}: {exc}") from exc.__cause__
            except Exception as exc:  # a failure of the kit's own calls on the hook's answers
                raise ConformanceError(f"{where} raised {type(exc).__name__}: {exc}") from exc
            if [state.to_json() for state in states] != saved:
                raise ConformanceError(f"{where} changed a position it was given (it must read, not write)")
            verdicts[hook_name] = "ok"
    return verdicts


def _missing_package(exc: HookError, target: str) -> str | None:
    """The third-party package whose absence made the hook fail, if that is why it failed."""
    cause = exc.__cause__
    if not isinstance(cause, ModuleNotFoundError) or not cause.name:
        return None
    top = cause.name.partition(".")[0]
    return None if top == target.partition(".")[0].partition(":")[0] else top


def _check_callable(
    game: str, hook_name: str, target: str, loaded: Any, func: str, arguments: int, required: bool
) -> None:
    where = f"{game}: hook {hook_name}={target!r}"
    obj = getattr(loaded, func, None) if func else loaded
    if obj is None:
        if required:
            raise ConformanceError(f"{where} has no {func}()")
        return
    if not callable(obj):
        raise ConformanceError(f"{where}: {func or target} is not callable")
    try:
        inspect.signature(obj).bind(*[None] * arguments)
    except TypeError:
        raise ConformanceError(
            f"{where}: {func or target} must take {arguments} positional "
            f"argument{'s' * (arguments != 1)}, not {inspect.signature(obj)}"
        ) from None
    except ValueError:
        pass  # no signature to read (a builtin): trusted
