"""Our ISMCTS bot against OpenSpiel's ISMCTS on our games, at equal wall-clock time per move.

Both bots search from the same game: an OpenSpiel state of ``python_ludus_<game>`` whose
engine state our bot reads (it looks only at its seat's view and resamples the rest).
OpenSpiel's bot is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (random-rollout
evaluator) with its search loop bounded by time instead of a simulation count; the C++
``pyspiel.ISMCTSBot`` is not used because it crashes on Python-implemented games. Seats
alternate between games. Prints wins, mean scores and simulations per move. ``--plain``
gives our bot OpenSpiel's evaluator (random rollouts to the end) instead of its default
heuristic cutoff, to compare the searches alone.

    python benchmarks/openspiel_ismcts.py --seconds 0.2 --games 4 [--players 2] [--plain]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

import ludus.rl.openspiel as ludus_spiel
from ludus.bots import make


class TimedISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTS, searching for a fixed time per move instead of a count."""

    def __init__(self, game, seconds: float, seed: int) -> None:
        rng = np.random.RandomState(seed)
        super().__init__(
            game,
            mcts.RandomRolloutEvaluator(1, rng),
            2.0,
            max_simulations=1,
            random_state=rng,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        self.seconds = seconds
        self.simulations: list[int] = []

    def run_search(self, state):
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        count = 0
        while count < 2 or time.perf_counter() < deadline:  # the first only expands the root
            self.run_simulation(self.sample_root_state(state))
            count += 1
        self.simulations.append(count)
        return self.get_final_policy(state, self._root_node)


def play(game_name: str, params: dict, seconds: float, ours_seat: int, seed: int, ours_params: dict):
    game = ludus_spiel.load(game_name, **params)
    action_map = game.ludus.value[2]
    state = game.new_initial_state()
    state.apply_action(random.Random(seed).randrange(len(state.chance_outcomes())))
    ours = make("ismcts", seconds=seconds, seed=seed, **ours_params)
    theirs = TimedISMCTSBot(game, seconds, seed)
    iterations = []
    while not state.is_terminal():
        player = state.current_player()
        if player == ours_seat:
            action = action_map.to_index(ours.step(state.engine.state))
            iterations.append(getattr(ours, "last_iterations", 0))
        else:
            action = int(theirs.step(state))
        state.apply_action(action)
    engine = state.engine.state
    return engine.returns(), engine.scores(), iterations, theirs.simulations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="garum")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=0.2, help="search time per move for each bot")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument(
        "--plain",
        action="store_true",
        help="our bot without its heuristic: random rollouts to the end, like OpenSpiel's",
    )
    args = parser.parse_args()
    ours_params = {"rollout": "random", "cutoff": None} if args.plain else {}
    params = {"players": args.players}
    ours_total, theirs_total = 0.0, 0.0
    ours_scores, theirs_scores, ours_iters, theirs_sims = [], [], [], []
    for g in range(args.games):
        seat = g % args.players
        returns, scores, iters, sims = play(
            args.game, params, args.seconds, seat, seed=g, ours_params=ours_params
        )
        ours_total += returns[seat]
        theirs_total += sum(r for s, r in enumerate(returns) if s != seat)
        ours_scores.append(scores[seat])
        theirs_scores += [sc for s, sc in enumerate(scores) if s != seat]
        ours_iters += iters
        theirs_sims += sims
        print(f"game {g + 1}: ludus ismcts in seat {seat}; scores {scores}; returns {returns}", flush=True)
    kind = "random rollouts to the end" if args.plain else "default settings (heuristic cutoff)"
    print(
        f"\n{args.game} {args.players} players, {args.seconds} s per move, {args.games} games; "
        f"ludus ismcts with {kind}"
    )
    print(
        f"ludus ismcts:     wins {ours_total:.1f}, mean score {np.mean(ours_scores):.1f}, "
        f"iterations per move {np.mean(ours_iters) if ours_iters else 0:.0f}"
    )
    print(
        f"OpenSpiel ismcts: wins {theirs_total:.1f}, mean score {np.mean(theirs_scores):.1f}, "
        f"simulations per move {np.mean(theirs_sims) if theirs_sims else 0:.0f}"
    )


if __name__ == "__main__":
    main()
