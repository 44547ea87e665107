"""Two runs of the same deals compared deal by deal (duplicate style).

Strength figures in this project rest on paired deals: two bots (or two settings) play the same
seeds, and what counts is how many deals one did better and how many worse, with a sign test,
not two win rates with wide intervals side by side. Each run is a list of per-deal records
``{"seed", "result", "digest"}``: ``result`` the bot's number for that deal (a win share, a solo
score), ``digest`` a short hash of the moves, so that two runs of one bot show at once whether
they replayed the same games (on another machine, or after a change meant to alter nothing).
"""

from __future__ import annotations

import hashlib
import json
import math
import statistics
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any


def digest(moves: Sequence[str]) -> str:
    """A short hash of a game's moves: equal digests mean the same game, move for move."""
    return hashlib.sha256("\n".join(moves).encode()).hexdigest()[:16]


def sign_test(better: int, worse: int) -> float:
    """Two-sided sign test (ties left out): the chance of a split at least this uneven by luck alone."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(better, worse) + 1)) / 2**n
    return min(1.0, 2 * tail)


def read_run(path: str | Path) -> dict[int, dict[str, Any]]:
    """A run's records by seed, from a JSON-lines file; a line that is not a record is an error
    naming its line."""
    out: dict[int, dict[str, Any]] = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                seed, result = record["seed"], float(record["result"])
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(
                    f"{path}, line {number}: not a record with a seed and a result ({exc})"
                ) from None
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise ValueError(f"{path}, line {number}: the seed must be an integer, got {seed!r}")
            out[seed] = {"result": result, "digest": record.get("digest")}
    return out


def compare(a: dict[int, dict[str, Any]], b: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """Run ``b`` against run ``a`` on the deals both played.

    Returns ``deals``, ``mean_a``, ``mean_b``, ``difference`` (mean of b − a a deal) and its 95 %
    ``half_width``, ``better`` / ``worse`` (deals where b did more / less), ``sign_p`` and ``same``
    (deals whose moves were identical, where both runs kept digests).
    """
    common = sorted(set(a) & set(b))
    if not common:
        raise ValueError("the two runs have no deal in common (their seeds differ)")
    diffs = [b[s]["result"] - a[s]["result"] for s in common]
    better = sum(d > 0 for d in diffs)
    worse = sum(d < 0 for d in diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return {
        "deals": len(common),
        "mean_a": statistics.fmean(a[s]["result"] for s in common),
        "mean_b": statistics.fmean(b[s]["result"] for s in common),
        "difference": statistics.fmean(diffs),
        "half_width": half,
        "better": better,
        "worse": worse,
        "sign_p": sign_test(better, worse),
        "same": sum(1 for s in common if a[s]["digest"] is not None and a[s]["digest"] == b[s]["digest"]),
    }


def write_run(path: str | Path, records: Iterable[dict[str, Any]]) -> None:
    """Write per-deal records (``seed``, ``result``, ``digest``) as JSON lines."""
    with open(path, "w", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps({k: record[k] for k in ("seed", "result", "digest")}) + "\n")
