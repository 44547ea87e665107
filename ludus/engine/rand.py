"""``random.Random``'s ``shuffle`` and ``randrange(n)`` as functions of the generator.

The same draws give the same results as the methods (``tests/engine/test_rand.py`` holds them
equal), so a game may call either. The games' re-deals and draws call these: a search re-deals
its hidden cards thousands of times a decision, and the compiled build
(``benchmarks/mypyc_build.py``) runs them as native loops where the methods stay Python code.
"""

from __future__ import annotations

import random
from typing import Any


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``: ``k``-bit draws until one falls below ``n``."""
    if n < 1:
        raise ValueError(f"cannot draw below {n}: the bound must be 1 or more")
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``: each place from the last down swapped with one at or below it."""
    for i in range(len(x) - 1, 0, -1):
        j = below(rng, i + 1)
        x[i], x[j] = x[j], x[i]
