"""Ratings from game results: Bradley–Terry strengths on the Elo scale, with bootstrap intervals.

A game of n seats counts as a head-to-head result for every pair of seats held by
different bots: the seat with the larger return wins, then (between seats that both
lost) the larger score, and anything equal draws (half a win each). One-seat games
(solo play) are compared across bots on the same deal: their results on one seed form
one virtual game. Bradley–Terry strengths are fitted by Hunter's (2004) minorisation–maximisation
iterations, with ``prior`` virtual draws between every pair of bots so that a bot that
won every game still gets a finite rating. Ratings are ``400 log10(strength)`` centred on
1500, so a 100-point gap means a 64 % expected score, as in Elo. Confidence intervals
come from refitting on games resampled with replacement. With an ``anchor`` bot, every fit
(the point and each resample) is shifted so that the anchor rates 0: the ratings are then
gaps to it, and their intervals those of the gap, which the centred intervals are not.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

Pair = tuple[str, str]


@dataclass(frozen=True)
class Rating:
    bot: str
    rating: float
    low: float  # bootstrap interval bounds
    high: float
    games: int
    score: float  # mean head-to-head score (wins + half draws) / encounters


def solo_duels(results: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One-seat results grouped by seed into virtual games between the bots that played that deal."""
    by_seed: dict[Any, dict[str, Any]] = {}
    for r in results:
        game = by_seed.setdefault(r["seed"], {"seats": [], "returns": [], "scores": []})
        game["seats"].append(r["seats"][0])
        game["returns"].append(r["returns"][0])
        game["scores"].append(r["scores"][0])
    return list(by_seed.values())


def pairwise(results: Iterable[dict[str, Any]]) -> list[list[tuple[str, str, float]]]:
    """Per game, its head-to-head results ``(bot a, bot b, score of a)``."""
    results = list(results)
    if results and all(len(r["seats"]) == 1 for r in results):
        results = solo_duels(results)
    out = []
    for r in results:
        seats = r["seats"]
        scores = r.get("scores") or [0] * len(seats)
        rank = [(r["returns"][i], scores[i]) for i in range(len(seats))]
        game = []
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                if seats[i] == seats[j]:
                    continue
                a = 1.0 if rank[i] > rank[j] else 0.0 if rank[i] < rank[j] else 0.5
                game.append((seats[i], seats[j], a))
        out.append(game)
    return out


def bradley_terry(
    encounters: Iterable[tuple[str, str, float]],
    bots: Sequence[str],
    prior: float = 1.0,
    iterations: int = 2000,
    tolerance: float = 1e-10,
) -> dict[str, float]:
    """Elo-scale ratings (mean 1500) maximising the Bradley–Terry likelihood of ``encounters``."""
    index = {b: i for i, b in enumerate(bots)}
    n = len(bots)
    wins = [0.0] * n
    games = [[0.0] * n for _ in range(n)]
    for a, b, score in encounters:
        i, j = index[a], index[b]
        wins[i] += score
        wins[j] += 1.0 - score
        games[i][j] += 1.0
        games[j][i] += 1.0
    for i in range(n):  # virtual draws: every pair, ``prior`` games, half a win each
        for j in range(n):
            if i != j:
                games[i][j] += prior
        wins[i] += prior * (n - 1) / 2
    strength = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            denom = sum(games[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i and games[i][j])
            new.append(wins[i] / denom if denom else strength[i])
        mean_log = sum(math.log(s) for s in new) / n
        new = [s / math.exp(mean_log) for s in new]
        change = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < tolerance:
            break
    return {b: 1500.0 + 400.0 * math.log10(strength[index[b]]) for b in bots}


def ratings(
    results: Sequence[dict[str, Any]],
    bots: Sequence[str] | None = None,
    bootstrap: int = 200,
    seed: int = 0,
    prior: float = 1.0,
    level: float = 0.95,
    anchor: str | None = None,
) -> list[Rating]:
    """Ratings of every bot with ``level`` bootstrap intervals, best first; relative to ``anchor``
    (rated 0 in every fit) when given, else centred on 1500."""
    per_game = pairwise(results)
    if bots is None:
        bots = sorted({s for r in results for s in r["seats"]})
    check_anchor(anchor, bots)
    flat = [e for g in per_game for e in g]
    point = _anchored(bradley_terry(flat, bots, prior), anchor)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {b: [] for b in bots}
    for _ in range(bootstrap if per_game else 0):
        drawn = [e for _ in per_game for e in per_game[rng.randrange(len(per_game))]]
        fit = _anchored(bradley_terry(drawn, bots, prior, iterations=300, tolerance=1e-6), anchor)
        for b in bots:
            samples[b].append(fit[b])
    tail = (1.0 - level) / 2
    out = []
    for b in bots:
        xs = sorted(samples[b])
        low = xs[int(tail * (len(xs) - 1))] if xs else point[b]
        high = xs[int(math.ceil((1 - tail) * (len(xs) - 1)))] if xs else point[b]
        mine = [(s if a == b else 1 - s) for a, c, s in flat if b in (a, c)]
        played = sum(1 for r in results if b in r["seats"])
        out.append(Rating(b, point[b], low, high, played, sum(mine) / len(mine) if mine else float("nan")))
    out.sort(key=lambda r: -r.rating)
    return out


def check_anchor(anchor: str | None, bots: Sequence[str]) -> None:
    """ValueError unless ``anchor`` is None or one of ``bots`` (a tournament asks before its games)."""
    if anchor is not None and anchor not in bots:
        raise ValueError(f"anchor {anchor!r} is not one of the bots: {', '.join(bots)}")


def _anchored(fit: dict[str, float], anchor: str | None) -> dict[str, float]:
    """``fit`` shifted so that ``anchor`` rates 0 (unchanged without one)."""
    if anchor is None:
        return fit
    zero = fit[anchor]
    return {b: r - zero for b, r in fit.items()}


def expected_score(a: float, b: float) -> float:
    """Elo expectation of a player rated ``a`` against one rated ``b``."""
    return 1.0 / (1.0 + 10 ** ((b - a) / 400.0))
