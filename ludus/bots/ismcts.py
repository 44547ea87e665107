"""Information-set Monte Carlo tree search (single-observer ISMCTS).

After Cowling, Powley & Whitehouse (2012), "Information Set Monte Carlo Tree Search",
IEEE TCIAIG 4(2). One tree over the bot's information set: every iteration re-deals the
hidden parts with ``state.resample(seat, rng)`` and walks the tree using only the actions
legal in that determinization. Selection is UCB1 where a child's exploration term uses
its *availability* count (how often it was legal when its parent was visited) instead of
the parent's visits, so rarely-possible actions are not over-explored. Each node keeps
the reward of the seat that chose it, so in games of 3 or 4 every seat maximises its own
return (``state.returns()``: 1 for a win, shared on ties). Rollouts are random, or
"greedy-light" (the best of a few sampled actions by the game's heuristic); an optional
cut-off ends a rollout early and scores the position with the heuristic through a
logistic curve, which gives far more signal per iteration in long games.
The tree grows by one random action an iteration or, where the game asks for it, by its
heuristic, so that rivals start out playing their heuristic moves (``expand``).

Three presets. "learned" scores leaves with the learned value model of the
game and player count (``ludus.bots.learned``: a small network over the position and the
heuristic's values, trained on self-play to predict final margins) and orders the root's
actions by it (their prior visits; ``width`` can also cut the search to the best few);
"classic" is the search as it was before the model, leaves scored by the heuristic alone.
Where no model is shipped (or NumPy is missing) "learned" plays as "classic". "rollout" is no tree
but flat Monte Carlo over the same determinizations (``ludus.bots.rollout``): the root's best few
actions by the heuristic, each played on by greedy moves of every seat for ``horizon`` decisions in
the same worlds. "auto" (the default) is "rollout" for the player counts the game's heuristic
module plans in ``ROLLOUT`` (player count -> ``ludus.bots.rollout.Plan``: the counts where it wins
far more against greedy than the tree at equal time; docs/strength.md, "Greedy playouts") and
"learned" otherwise. Every default below was measured against its alternatives on the built-in
games; the runs, with their counts and commands, are in docs/strength.md.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..engine import Action, State
from . import learned
from .greedy import (
    heuristic,
    heuristic_actions,
    heuristic_all,
    heuristic_expansion_players,
    margin_finish_players,
    rollout_plan,
    search_world,
)
from .rollout import LEAVES, Plan, spent
from .rollout import search as rollout_search

PRESETS = ("auto", "learned", "classic", "rollout")
EXPANSIONS = ("auto", "random", "heuristic", "turn")
AIMS = ("auto", "target")
ITERATIONS = 300  # a decision's iterations by default (the tree presets)
SHORT_FINISH = 0.1  # the weight of a short finish's margin (``_returns``)


class _Node:
    """A node of the search tree. It holds no link to its parent: an iteration backs up along the
    path it walked, so a tree has no cycles and is freed as soon as its decision is made (with
    parent links, each tree waited for the garbage collector)."""

    __slots__ = ("action", "player", "children", "visits", "avail", "total")

    def __init__(self, action: Action | None, player: int) -> None:
        self.action = action
        self.player = player  # the seat that chose ``action``
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class ISMCTSBot:
    """Single-observer ISMCTS.

    Parameters:
      ``seed``: fixes every determinization and rollout: the same seed, state and
        iteration budget always give the same action.
      ``iterations`` (300; with the rollout preset the game's plan, ``ROLLOUT``, else 16):
        iterations per decision, unless ``seconds`` is given; with the rollout preset, the
        budget in worlds of three candidates (``ludus.bots.rollout.Plan``).
      ``seconds`` (None): a time budget per decision instead (not reproducible).
      ``exploration`` (0.1): the UCB1 constant, for rewards in [0, 1]. Small, because
        the heuristic's win chances differ by a few hundredths between sensible moves: larger
        constants were no better beyond the noise, 0.5 worse; where the leaves' chances are a
        few thousandths (a solo game's hardest target), 0.1 spreads the visits almost evenly,
        and a focused search (0.01, 0.002) did worse there.
      ``rollout`` ("random" or "greedy-light"): the playout policy; greedy-light rates
        ``sample`` (3) random legal actions with the heuristic and plays the best.
      ``cutoff`` (0): playout decisions before the heuristic scores the position; 0
        scores the newly expanded node at once (the strongest setting measured: random
        moves only blur the heuristic); None plays every rollout to the
        end and uses the real returns.
      ``scale`` (8.0): heuristic margin that counts as a 73 % win (logistic scale).
      ``prior`` (True): before searching, give every root action one virtual visit worth
        its one-ply heuristic value, so that a small budget is never worse than greedy
        (100 iterations won 25 % of 12 games against greedy without it and 79 % with it).
      ``prior_visits`` (1): the virtual visits that prior counts, each worth the action's
        one-ply value, so that the search needs that much evidence to leave the prior's best
        move. 20 and 100 showed no gain the games could tell from noise, so 1 stays.
      ``expand`` ("auto", "random", "heuristic" or "turn"): how the tree grows. "auto" (the
        default) is "heuristic" for the player counts the game's heuristic module lists in
        ``HEURISTIC_EXPANSION_PLAYERS`` (the counts where random expansion left the bot level
        with greedy, or where heuristic expansion won or scored more at equal time) and "random"
        otherwise. "random" adds one untried action per iteration and scores it (rollout /
        cut-off as above). "heuristic" expands
        a leaf by rating every legal action there with the heuristic (one ply, as greedy)
        and backs up the mover's best, so every seat, opponents included, starts out
        playing its heuristic move and follow-up decisions (a tile then its worker) are
        valued by their best continuation, not the average of random ones. An iteration
        then costs a whole one-ply sweep (through the heuristic's ``evaluate_actions`` shortcut
        where the game has one, about 6 times a "random" one), so use fewer iterations
        for the same time. "turn" is "random" except where the seat that just moved moves
        again (a tile, then its worker): the search, on reaching such a node, rates all its
        actions as "heuristic" does and backs up the best, so a first step is valued by its best
        follow-up, not by the average of random ones. An iteration costs about 1.3 times a
        "random" one; its gain over the default did not hold on fresh deals, so "auto" does not
        choose it.
      ``preset`` ("auto", "learned", "classic" or "rollout"): leaf values and root ordering by the
        learned model of the game and player count (heuristic ones where there is none), or by the
        heuristic alone, as before the model; or no tree but greedy playouts of the root's best
        ``width`` actions. "auto" is "rollout" for the player counts in the game's ``ROLLOUT``,
        else "learned".
      ``horizon`` (the game's plan, else 10): with the rollout preset, the greedy decisions
        played after each candidate before the position is scored.
      ``width`` (0): the root actions searched, the best by their one-ply value (learned, else
        heuristic); 0 searches all (the rollout preset: the game's plan, else 3). Off by default
        in the tree: the learned preset won 52 % of 20 games against greedy with width 8 and 72 %
        without.
      ``halving`` (None: the game's plan, else False): with the rollout preset, narrow the
        ``width`` candidates by sequential halving within the same budget (docs/strength.md).
      ``leaf`` ("auto", "heuristic" or "learned"): with the rollout preset, what scores a playout
        cut short: "auto" the game's plan (its heuristic or its learned model), else the heuristic.
      ``aim`` ("auto" or "target"): what the search plays for. "auto" values the position the
        game's heuristic module makes of each determinization (``search_world``; a solo game may
        be played for its hardest target at every difficulty) and, where the game asks for it
        (``MARGIN_FINISH_PLAYERS``), a finish short of the target by a tenth of its margin's value
        on the leaves' curve rather than 0; "target" values the game as it is (the difficulty's
        own target, a finish by whether it reached it), as before. Playing for the hardest target
        reached the normal one more often (docs/strength.md).
      ``peek`` (False): search the true state, its coming draws included, instead of re-dealt
        ones: Cowling et al.'s "cheating" player, a ceiling for studies of what the hidden parts
        cost the search. It sees what its seat may not, so it is no fair opponent; the server
        offers no such seat (its seat kinds are ``name`` or ``name:seconds=S``).
    Games that declare no heuristic (``hooks.heuristic``) always play rollouts to the end.
    """

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.1,
        rollout: str = "random",
        cutoff: int | None = 0,
        sample: int = 3,
        scale: float = 8.0,
        prior: bool = True,
        expand: str = "auto",
        preset: str = "auto",
        width: int = 0,
        prior_visits: int = 1,
        aim: str = "auto",
        peek: bool = False,
        horizon: int | None = None,
        halving: bool | None = None,
        leaf: str = "auto",
    ) -> None:
        if rollout not in ("random", "greedy-light"):
            raise ValueError(f"rollout must be 'random' or 'greedy-light', not {rollout!r}")
        if expand not in EXPANSIONS:
            raise ValueError(f"expand must be one of {', '.join(EXPANSIONS)}, not {expand!r}")
        if aim not in AIMS:
            raise ValueError(f"aim must be one of {', '.join(AIMS)}, not {aim!r}")
        if preset not in PRESETS:
            raise ValueError(f"preset must be one of {', '.join(PRESETS)}, not {preset!r}")
        if leaf not in ("auto", *LEAVES):
            raise ValueError(f"leaf must be one of auto, {', '.join(LEAVES)}, not {leaf!r}")
        if width < 0:
            raise ValueError("width must be >= 0")
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if horizon is not None and horizon < 0:
            raise ValueError("horizon must be >= 0")
        if prior_visits < 1:
            raise ValueError("prior_visits must be at least 1")
        if cutoff is not None and cutoff < 0:
            raise ValueError("cutoff must be None or >= 0")
        self.rng = random.Random(seed)
        self.iterations = iterations  # None: the preset's own (``plan``; the tree: ITERATIONS)
        self.horizon = horizon  # None: the game's plan (``plan``)
        self.halving = halving  # None: the game's plan
        self.leaf = leaf  # "auto": the game's plan
        self.seconds = seconds
        self.exploration = float(exploration)
        self.rollout = rollout
        self.cutoff = cutoff
        self.sample = max(1, int(sample))
        self.scale = float(scale)
        self.prior = bool(prior)
        self.expand = expand
        self.preset = preset
        self.width = int(width)
        self.prior_visits = int(prior_visits)
        self.aim = aim
        self.peek = bool(peek)
        self.net: learned.ValueModel | None = None  # the model of the game being searched, if any
        self.by_margin = False  # finished games valued by their margin (``_returns``), in this search
        self.last_iterations = 0  # iterations run by the last ``step``, for benchmarks

    # -- the decision -------------------------------------------------------------------------
    def step(self, state: State) -> Action:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("the game is over: there is no action to choose")
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        seat = state.current_player()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        preset = self.resolved(state.game)
        rng = self.rng
        aimed = search_world(state.game.name) if self.aim == "auto" else None

        def deal() -> State:  # a determinization of the seat's view, as the search values it
            world = state.clone() if self.peek else state.resample(seat, rng)
            return world if aimed is None else aimed(world)

        if preset == "rollout":
            action, self.last_iterations = rollout_search(
                state, deal, rng, self.plan(state.game), deadline, self.scale
            )
            return action
        root = _Node(None, seat)
        evaluate = self._evaluator(state.game.name)
        self.net = self.model(state.game) if evaluate is not None else None
        heuristic_tree = self.expansion(state.game) == "heuristic" and evaluate is not None
        self.by_margin = (
            self.aim == "auto"
            and evaluate is not None
            and state.game.num_players in margin_finish_players(state.game.name)
        )
        keep = None
        width = self.width
        if evaluate is not None and (self.net is not None or width) and (self.prior or width):
            keep = self._seed_root(root, deal(), evaluate, self.prior, width)
        elif self.prior and evaluate is not None and not heuristic_tree:
            self._seed_root(root, deal(), evaluate)
        iterate = self._iterate_heuristic if heuristic_tree else self._iterate
        iterations = ITERATIONS if self.iterations is None else self.iterations
        done = 0
        while True:
            iterate(root, deal(), evaluate, keep)
            done += 1
            if spent(done, iterations, deadline):
                break
        self.last_iterations = done
        allowed = set(legal)
        best = max(
            (c for a, c in root.children.items() if a in allowed),
            key=lambda c: (c.visits, c.total),
            default=None,
        )
        return best.action if best is not None else self.rng.choice(legal)  # type: ignore[return-value]

    def expansion(self, game: Any) -> str:
        """The way the tree grows in ``game``: ``expand``, with "auto" resolved for the game."""
        if self.expand != "auto":
            return self.expand
        return "heuristic" if game.num_players in heuristic_expansion_players(game.name) else "random"

    def resolved(self, game: Any) -> str:
        """The preset this bot plays in ``game``: ``preset``, with "auto" resolved for the game."""
        if self.preset != "auto":
            return self.preset
        return "rollout" if rollout_plan(game.name, game.num_players) else "learned"

    def plan(self, game: Any) -> Plan:
        """The rollout preset's settings in ``game``: the game's plan for its player count (``ROLLOUT``;
        else ``Plan()``), with what this bot was given in place of the plan's."""
        plan = Plan(**rollout_plan(game.name, game.num_players))
        given: dict[str, Any] = {
            "worlds": self.iterations,
            "horizon": self.horizon,
            "width": self.width or None,
            "halving": self.halving,
            "leaf": None if self.leaf == "auto" else self.leaf,
        }
        return plan._replace(**{k: v for k, v in given.items() if v is not None})

    def model(self, game: Any) -> learned.ValueModel | None:
        """The learned value model this bot uses in ``game`` (None: "classic", or none shipped)."""
        return learned.load(game.name, game.num_players) if self.resolved(game) == "learned" else None

    def _seed_root(
        self, root: _Node, world: State, evaluate: Any, prior: bool = True, width: int = 0
    ) -> frozenset | None:
        """Give every root action one virtual visit worth its one-ply value (heuristic, as greedy,
        or learned), and with ``width`` keep only the best ``width`` of them for the search.

        Returns the actions kept (None: all). With ``prior`` False the values only choose them.
        """
        legal = world.legal_actions()
        shortcut = heuristic_actions(world.game.name)
        known = shortcut(world, legal) if shortcut is not None else [None] * len(legal)
        net = self.net
        values_of: list[list[float]] = []
        pending: list[tuple[int, State, list[float] | None]] = []  # valued by the model, all at once
        for i, (action, margins) in enumerate(zip(legal, known, strict=True)):
            if margins is not None and net is None:  # the heuristic's shortcut valued it without playing it
                values_of.append(self._squash(margins))
                continue
            child = world.clone()
            child.apply_action(action)
            if child.is_terminal():
                values_of.append(self._returns(child, evaluate))
            elif net is not None:
                pending.append((i, child, margins))
                values_of.append([])
            else:
                values_of.append(self._score(child, evaluate))
        if pending:
            chances = self._learned([p[1] for p in pending], [p[2] for p in pending])
            for (i, _, _), values in zip(pending, chances, strict=True):
                values_of[i] = values
        order = sorted(range(len(legal)), key=lambda i: (-values_of[i][root.player], i))
        if width and len(order) > width:
            order = order[:width]
        if prior:
            weight = self.prior_visits
            for i in order:
                node = _Node(legal[i], root.player)
                node.visits = node.avail = weight
                node.total = weight * values_of[i][root.player]
                root.children[legal[i]] = node
                root.visits += weight
        return frozenset(legal[i] for i in order) if width else None

    def _learned(self, states: list[State], heuristics: list[list[float] | None]) -> list[list[float]]:
        """The model's win chances of non-terminal ``states``, valued in one product; ``heuristics``
        are their heuristic margins where already known (else computed)."""
        net = self.net
        assert net is not None
        known = [
            h if h is not None else learned.heuristic_values(st)
            for st, h in zip(states, heuristics, strict=True)
        ]
        return [net.squash(m) for m in net.margins_many(states, known)]

    def _evaluator(self, game_name: str) -> Any:
        if self.cutoff is None and self.rollout == "random":
            return None
        try:
            return heuristic(game_name)
        except ValueError:
            return None

    # -- one iteration ------------------------------------------------------------------------
    def _iterate(self, root: _Node, world: State, evaluate: Any, keep: frozenset | None = None) -> None:
        rng = self.rng
        node = root
        path = [root]  # the nodes walked, which the iteration's values are backed up along
        c = self.exploration
        sweep = self.expand == "turn" and evaluate is not None
        # Selection and expansion over the actions legal in this determinization (at the root: those kept).
        while not world.is_terminal():
            legal = world.legal_actions()
            if keep is not None and node is root:
                legal = [a for a in legal if a in keep] or legal
            children = node.children
            player = world.current_player()
            if sweep and not children and player == node.player and node is not root and len(legal) > 1:
                # the same seat goes on with its turn: rate all its follow-ups, back up the best
                _backpropagate(path, self._seed(node, world, legal, player, evaluate))
                return
            untried = _untried(children, legal)
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = _Node(action, player)
                child.avail = 1
                children[action] = child
                world.apply_action(action)
                path.append(child)
                break
            best = _select(children, legal, c)
            world.apply_action(best.action)  # type: ignore[arg-type]
            node = best
            path.append(node)
        _backpropagate(path, self._playout(world, evaluate))

    def _iterate_heuristic(
        self, root: _Node, world: State, evaluate: Any, keep: frozenset | None = None
    ) -> None:
        """One iteration where every node's actions start with one virtual visit worth their heuristic value.

        A leaf is expanded by rating all its legal actions (one ply, as greedy does) and backs
        up the value of the mover's best one, so every seat, opponents included, is first
        modelled as playing its heuristic move, and the search spends its budget on the
        replies that matter rather than on trying each of up to 70 actions once. With a learned
        model the value backed up is the model's of the position after that best action.
        """
        node = root
        path = [root]
        c = self.exploration
        values: list[float] | None = None
        while not world.is_terminal():
            legal = world.legal_actions()
            if keep is not None and node is root:
                legal = [a for a in legal if a in keep] or legal
            player = world.current_player()
            children = node.children
            if len(legal) == 1 and not children:
                child = _Node(legal[0], player)
                children[legal[0]] = child
            if not children:
                values = self._seed(node, world, legal, player, evaluate)
                break
            untried = _untried(children, legal)
            if untried:
                self._seed(node, world, untried, player, evaluate)
            best = children[legal[0]] if len(legal) == 1 else _select(children, legal, c)
            world.apply_action(best.action)  # type: ignore[arg-type]
            node = best
            path.append(node)
        if values is None:
            values = self._returns(world, evaluate)
        _backpropagate(path, values)

    def _seed(
        self, node: _Node, world: State, actions: list[Action], player: int, evaluate: Any
    ) -> list[float]:
        """Add ``actions`` as children of ``node``, each with one visit worth its heuristic value.

        Returns the values (every seat) after the mover's best of them: the heuristic's, or the
        learned model's where the bot has one.
        """
        best: list[float] | None = None  # every seat's values after the best action (None: its margins')
        best_action = None
        best_value = -1.0
        best_margins = None  # the heuristic's margins after the best action, where the shortcut gave them
        shortcut = heuristic_actions(world.game.name) if evaluate is not None else None
        known = shortcut(world, actions) if shortcut is not None else [None] * len(actions)
        # the scale _squash uses: each child's value is the mover's win chance alone, the best's squashed whole
        scale = self.scale if self.net is None else self.net.win_scale
        for action, margins in zip(actions, known, strict=True):
            values: list[float] | None = None
            if margins is None:
                child_state = world.clone()
                child_state.apply_action(action)
                values = (
                    self._returns(child_state, evaluate)
                    if child_state.is_terminal()
                    else self._score(child_state, evaluate)
                )
                value = values[player]
            else:
                value = learned.win_chance(margins[player], scale)
            child = _Node(action, player)
            child.visits = child.avail = 1
            child.total = value
            node.children[action] = child
            if value > best_value:
                best, best_value, best_action, best_margins = values, value, action, margins
        if best is None:
            best = self._squash(best_margins) if best_margins is not None else []
        if self.net is not None and best_margins is not None and best_action is not None:
            # valued by the shortcut, without the model: the model values the position after it, from the
            # shortcut's margins (equal to the heuristic's there); an action played out has its model value
            after = world.clone()
            after.apply_action(best_action)
            if not after.is_terminal():
                best = self.net.squash(self.net.margins(after, best_margins))
        return best

    def _playout(self, world: State, evaluate: Any) -> list[float]:
        rng = self.rng
        depth = 0
        cutoff = self.cutoff if evaluate is not None else None
        greedy = self.rollout == "greedy-light" and evaluate is not None
        while not world.is_terminal():
            if cutoff is not None and depth >= cutoff:
                return self._score(world, evaluate)
            legal = world.legal_actions()
            if greedy and len(legal) > 1:
                player = world.current_player()
                best, best_value = legal[0], -math.inf  # legal[0] only if every sample is valued -inf
                for _ in range(self.sample):
                    action = legal[rng.randrange(len(legal))]
                    child = world.clone()
                    child.apply_action(action)
                    value = evaluate(child, player)
                    if value > best_value:
                        best, best_value = action, value
                action = best
            else:
                action = legal[rng.randrange(len(legal))]
            world.apply_action(action)
            depth += 1
        return self._returns(world, evaluate)

    def _returns(self, world: State, evaluate: Any) -> list[float]:
        """A finished game's value to the search: its returns, where the game asks for it
        (``MARGIN_FINISH_PLAYERS``, with ``aim`` "auto") raised for a seat that fell
        short by a tenth of its final margin's value on the leaves' curve: finishes short of the
        target, each worth 0 before, are told apart by their points (at the last decision the search
        had thrown points away), while a chance at the target still outweighs them."""
        returns = world.returns()
        if not self.by_margin:
            return returns
        finish = self._squash(_margins(world, evaluate))
        return [max(r, SHORT_FINISH * v) for r, v in zip(returns, finish, strict=True)]

    def _score(self, world: State, evaluate: Any) -> list[float]:
        """Heuristic (or, with a model, learned) margins turned into win chances in [0, 1]."""
        margins = _margins(world, evaluate)
        net = self.net
        if net is not None:
            return net.squash(net.margins(world, margins))
        return self._squash(margins)

    def _squash(self, margins: list[float]) -> list[float]:
        scale = self.scale if self.net is None else self.net.win_scale
        return [learned.win_chance(m, scale) for m in margins]


def _margins(world: State, evaluate: Any) -> list[float]:
    """The heuristic's margin of every seat in ``world``: in one call where the game has one for all."""
    every = heuristic_all(world.game.name)
    return every(world) if every else [evaluate(world, s) for s in range(world.game.num_players)]


def _untried(children: dict[Action, _Node], legal: list[Action]) -> list[Action]:
    """The legal actions not yet in the tree; each one already there counts one more availability."""
    untried = []
    for action in legal:
        child = children.get(action)
        if child is None:
            untried.append(action)
        else:
            child.avail += 1
    return untried


def _select(children: dict[Action, _Node], legal: list[Action], c: float) -> _Node:
    """UCB1 over the children legal in this determinization, exploring by availability counts."""
    best = None
    best_value = -1.0
    for action in legal:
        child = children[action]
        value = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
        if value > best_value:
            best, best_value = child, value
    assert best is not None
    return best


def _backpropagate(path: list[_Node], values: list[float]) -> None:
    """Each node on the path learns the reward of the seat that chose it."""
    for node in path:
        node.visits += 1
        node.total += values[node.player]
