"""Paired differences between two runs of the same deals: each figure of a game played under data A and
under data B, deal by deal, with the 95 % interval of B − A and a one-line verdict.

Every figure is a ratio over deals: a sum of what counts in a deal (a seat's win share, the points of
the seats that played a leader) over how many count (1 for a seat, the seats that played that leader),
so that figures per seat and per group of seats are handled alike. The interval is that of the paired
ratio estimator, linearised (the delta method) with Student's t over the deals; for a figure per seat
it is the paired t interval of the mean difference. The same deal under A and under B differs only by
the data (same seed, same seats, same bots), so most of the luck cancels out of B − A.

What a game's ``report_facts`` gives per seat (``{"seats": [{key: value}, ...]}``) is read generically:
a text groups seats (win rate by leader), a list of texts puts a seat in each group it names (bonus
tiles), a truth is a share of seats (how often a condition held) and a number an amount per seat.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

# Student's t, 97.5 % quantile, for 1..30 degrees of freedom (beyond, the Cornish-Fisher expansion).
_T975 = (
    *(
        12.706,
        4.303,
        3.182,
        2.776,
        2.571,
        2.447,
        2.365,
        2.306,
        2.262,
        2.228,
        2.201,
        2.179,
        2.160,
        2.145,
        2.131,
    ),
    *(
        2.120,
        2.110,
        2.101,
        2.093,
        2.086,
        2.080,
        2.074,
        2.069,
        2.064,
        2.060,
        2.056,
        2.052,
        2.048,
        2.045,
        2.042,
    ),
)
_Z975 = 1.959964
NOT_DETECTED = "no difference detected at 95 %"


def t975(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom (a 95 % two-sided interval)."""
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def paired_ratio(
    wa: Sequence[float], na: Sequence[int], wb: Sequence[float], nb: Sequence[int]
) -> tuple[float, float, float, float]:
    """``(ratio under A, ratio under B, B − A, half-width of its 95 % interval)`` of the ratios
    sum(w) / sum(n), deal ``i`` giving ``wa[i], na[i]`` under A and ``wb[i], nb[i]`` under B."""
    deals = len(wa)
    ra, rb = sum(wa) / sum(na), sum(wb) / sum(nb)
    ma, mb = sum(na) / deals, sum(nb) / deals
    z = [(wb[i] - rb * nb[i]) / mb - (wa[i] - ra * na[i]) / ma for i in range(deals)]
    half = t975(deals - 1) * statistics.stdev(z) / math.sqrt(deals) if deals > 1 else math.inf
    return ra, rb, rb - ra, half


@dataclass(frozen=True)
class Row:
    """One figure under A and B: ``kind`` "win" (a win rate: who it favours), "share" (a share of
    seats) or "amount" (in ``unit``); rates and shares are fractions, shown as percentages."""

    label: str
    subject: str  # how the verdict names it ("seat 1", "Caratacus (leader)", "the mean score")
    kind: str
    unit: str
    a: float
    b: float
    difference: float
    half_width: float
    seats_a: int
    seats_b: int

    @property
    def scale(self) -> float:
        return 1.0 if self.kind == "amount" else 100.0

    @property
    def detected(self) -> bool:
        """Whether the 95 % interval of B − A leaves out 0."""
        return math.isfinite(self.half_width) and abs(self.difference) > self.half_width

    def shown(self, value: float) -> str:
        """A value of this row as the tables write it."""
        return f"{value * self.scale:.1f}%" if self.kind != "amount" else f"{value:.{self._digits()}f}"

    def interval(self) -> str:
        """``B − A ± half-width`` in the row's unit (percentage points for rates and shares)."""
        if not math.isfinite(self.half_width):
            return f"{self.difference * self.scale:+.{self._digits()}f} (one deal: no interval)"
        return f"{self.difference * self.scale:+.{self._digits()}f} ± {self.half_width * self.scale:.{self._digits()}f}"

    def verdict(self) -> str:
        """One line: no difference detected, or who B favours (what B raises or lowers) and by how much."""
        if not self.detected:
            return NOT_DETECTED
        size = f"{abs(self.difference) * self.scale:.{self._digits()}f} ± {self.half_width * self.scale:.{self._digits()}f}"
        unit = "points" if self.kind != "amount" else self.unit
        if self.kind == "win":
            return f"{'B' if self.difference > 0 else 'A'} favours {self.subject} by {size} {unit}"
        return f"B {'raises' if self.difference > 0 else 'lowers'} {self.subject} by {size} {unit}"

    def _digits(self) -> int:
        """One decimal, or two where the interval is narrower than one unit (but not nil)."""
        half = self.half_width * self.scale
        return 2 if 0 < half < 0.95 else 1


@dataclass(frozen=True)
class Table:
    """Rows of one kind, with the title and sentence a report shows above them."""

    key: str  # a name for files (the plot's)
    title: str
    intro: str
    rows: list[Row]
    left_out: tuple[str, ...] = ()  # groups seen under one side only


Figures = dict[tuple[str, str], tuple[float, int]]


def _add(out: Figures, key: tuple[str, str], value: float, count: int = 1) -> None:
    total, seen = out.get(key, (0.0, 0))
    out[key] = (total + value, seen + count)


def figures(record: dict[str, Any]) -> Figures:
    """Every figure of one game, ``(table, row) -> (sum, count)``, from its result record (``scores``,
    ``returns``, ``actions``, and if present ``first``, ``breakdown``, ``facts``)."""
    scores, returns = record["scores"], record["returns"]
    players = len(scores)
    out: Figures = {}
    for s in range(players):
        _add(out, ("seat", f"seat {s + 1}"), returns[s])
        _add(out, ("score", f"seat {s + 1}"), scores[s])
    first = record.get("first", 0)
    for place in range(players):
        _add(out, ("place", f"place {place + 1}"), returns[(first + place) % players])
    _add(out, ("score", "all seats"), sum(scores), players)
    _add(out, ("score", "winner"), max(scores))
    actions = record["actions"]
    _add(out, ("length", "decisions"), actions if isinstance(actions, int) else len(actions))
    for breakdown in record.get("breakdown") or []:
        for category, points in breakdown.items():
            if category != "total":  # the final score, in its own table
                _add(out, ("category", str(category)), points)
    facts = record.get("facts")
    seats = facts.get("seats") if isinstance(facts, dict) else None
    if isinstance(seats, list) and len(seats) == players:
        for s, seat in enumerate(seats):
            for key, value in seat.items() if isinstance(seat, dict) else ():
                _fact(out, str(key), value, returns[s])
    return out


def _fact(out: Figures, key: str, value: Any, won: float) -> None:
    """One seat's fact: a group it belongs to (a text, or each text of a list), a share or an amount."""
    if isinstance(value, str):
        _add(out, (f"by {key}", value), won)
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        for member in sorted(set(value)):
            _add(out, (f"by {key}", member), won)
    elif isinstance(value, bool):
        _add(out, ("shares", key.replace("_", " ")), float(value))
    elif isinstance(value, int | float):
        _add(out, ("amounts", key.replace("_", " ")), value)


# table -> (title, sentence, row kind, unit)
_TABLES = {
    "seat": ("Win rate by seat", "Each seat's win rate (a shared win counts 1/k).", "win", "points"),
    "place": (
        "Win rate by place in turn order",
        "Place 1 is the seat that takes the deal's first decision, 2 the next, and so on.",
        "win",
        "points",
    ),
    "score": (
        "Final score",
        "Mean final score of each seat, of all seats and of the winner.",
        "amount",
        "points",
    ),
    "category": (
        "Points by scoring category",
        "Mean points a seat scores in each category.",
        "amount",
        "points",
    ),
    "length": ("Game length", "Decisions per game, every seat's together.", "amount", "decisions"),
    "shares": (
        "Shares of seats",
        "How often each condition the game reports held, over the seats.",
        "share",
        "",
    ),
    "amounts": ("Amounts per seat", "The mean of each number the game reports per seat.", "amount", ""),
}


def _subject(table: str, label: str) -> str:
    if table == "seat":
        return label
    if table == "place":
        return f"{label} (first to move)" if label == "place 1" else label
    if table == "score":
        return {"all seats": "the mean score", "winner": "the winner's score"}.get(label, f"{label}'s score")
    if table == "category":
        return f"category {label}"
    if table == "length":
        return "game length"
    if table.startswith("by "):
        return f"{label} ({table[3:].replace('_', ' ')})"
    return label


def _table_info(table: str) -> tuple[str, str, str, str]:
    if table.startswith("by "):
        what = table[3:].replace("_", " ")
        return (
            f"Win rate by {what}",
            f"The win rate of the seats by their {what}, as the game reports it; the seats columns count "
            "how many seats it was under each side.",
            "win",
            "points",
        )
    return _TABLES[table]


def compare_tables(pairs: Sequence[tuple[dict[str, Any], dict[str, Any]]]) -> list[Table]:
    """Every table of B − A over ``pairs`` of result records, ``(under A, under B)`` for each deal.

    The table by place in turn order is left out when the first seat never changes (it is then the
    table by seat)."""
    per_deal = deal_figures(pairs)
    keys: dict[tuple[str, str], None] = {}
    for fa, fb in per_deal:
        keys.update(dict.fromkeys(fa))
        keys.update(dict.fromkeys(fb))
    firsts = {r.get("first", 0) for pair in pairs for r in pair}
    order = [t for t in _TABLES if t != "shares" and t != "amounts"]
    groups = sorted({t for t, _ in keys if t.startswith("by ")})
    out = []
    for table in [*order, *groups, "shares", "amounts"]:
        if table == "place" and len(firsts) < 2:
            continue
        labels = [label for t, label in keys if t == table]
        if table.startswith("by "):
            labels.sort(key=_natural)
        rows, left_out = [], []
        for label in labels:
            row = figure_row(per_deal, (table, label))
            if row is None:
                left_out.append(label)
            else:
                rows.append(row)
        if rows:
            title, intro, _, _ = _table_info(table)
            out.append(Table(table.replace(" ", "_"), title, intro, rows, tuple(left_out)))
    return out


def _natural(label: str) -> list[Any]:
    """A group's label as it sorts for people: its numbers by value ("2 R" before "10 *")."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", label)]


def figure_row(
    per_deal: Sequence[tuple[Figures, Figures]],
    key: tuple[str, str],
    label: str | None = None,
    subject: str | None = None,
) -> Row | None:
    """The row of one figure over the deals (None if it is seen under one side only); ``label`` and
    ``subject`` name it otherwise than its table does."""
    table, name = key
    wa, na, wb, nb = [], [], [], []
    for fa, fb in per_deal:
        x, m = fa.get(key, (0.0, 0))
        y, n = fb.get(key, (0.0, 0))
        wa.append(x)
        na.append(m)
        wb.append(y)
        nb.append(n)
    if not sum(na) or not sum(nb):
        return None
    ra, rb, diff, half = paired_ratio(wa, na, wb, nb)
    _, _, kind, unit = _table_info(table)
    shown = label or name
    return Row(shown, subject or _subject(table, shown), kind, unit, ra, rb, diff, half, sum(na), sum(nb))


def deal_figures(pairs: Iterable[tuple[dict[str, Any], dict[str, Any]]]) -> list[tuple[Figures, Figures]]:
    """``figures`` of both sides of each deal (for ``figure_row``)."""
    return [(figures(a), figures(b)) for a, b in pairs]
