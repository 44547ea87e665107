"""The project's shared yardsticks, for every benchmark here: ``hearts_rate``, ``env_rate``,
``connect_four_rate`` from ``shared/bench/yardsticks.py`` beside the checkout (the repository's
parent holds ``shared/``, here and in CI). Every "x hearts" target is a ratio to that one file's
figure, so no benchmark keeps a variant of its own; without it, a benchmark stops and says so.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "bench"

if not (SHARED / "yardsticks.py").is_file():
    raise SystemExit(
        f"error: the shared yardstick {SHARED / 'yardsticks.py'} is missing: the speed targets are ratios "
        "to its hearts_rate / connect_four_rate, so nothing here can be measured without it (it lives in "
        "shared/bench/ beside the checkout)"
    )
sys.path.insert(0, str(SHARED))

from yardsticks import connect_four_rate, env_rate, hearts_rate  # noqa: E402

__all__ = ["SHARED", "Beside", "beside", "connect_four_rate", "env_rate", "hearts_rate"]


@dataclass(frozen=True)
class Beside:
    """A workload's rate and its yardstick's, measured in alternating slices."""

    rate: float  # what the workload counted per CPU second it timed, over all its slices
    yardstick: float  # the mean of the yardstick's slices (each of the same length)
    low: float  # the yardstick's slowest and fastest slice: how the machine swung meanwhile
    high: float

    @property
    def ratio(self) -> float:
        return self.rate / self.yardstick


def beside(
    work: Callable[[float], tuple[float, float]],
    seconds: float,
    yardstick: Callable[[float], float],
    slices: int = 4,
    yardstick_seconds: float = 0.75,
) -> Beside:
    """``work`` (a call runs about ``s`` CPU seconds and returns (count, CPU seconds)) for ``seconds`` in
    ``slices``, with a slice of the yardstick before each and one after the last: both meet the same
    load as a shared machine's load swings (the yardstick's docstring asks for them side by side)."""
    yards = [yardstick(yardstick_seconds)]
    count = cpu = 0.0
    for _ in range(slices):
        n, t = work(seconds / slices)
        count, cpu = count + n, cpu + t
        yards.append(yardstick(yardstick_seconds))
    return Beside(count / cpu, fmean(yards), min(yards), max(yards))
