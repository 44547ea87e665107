"""The balance page's check of one bot's findings by another: the seat and group tables of the search bot
beside those of the study's bot, and, where they disagree, which to believe and why.

A bot's style is not the game's balance: a bot that takes the best-looking move may flip a component to a
side it then fails to pay off, and the component looks weak or strong for it alone. The groups are read
generically from the game's per-seat facts (``report_facts``: a text groups seats, e.g. by leader); the
evidence for a verdict is what the facts say each bot did with the group (each truth's share, e.g. how
often a condition held, and the share of each value of a short text fact, e.g. a side).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from .balance import config_label
from .balance_page import Page, demote, pct, places
from .report import FLAG, _interval, flagged, section

MAX_GROUPS = 30  # a text fact with more values than this is not a grouping (a name per game, say)
SHORT = 3  # a text fact with at most this many values is shown as shares in the evidence


def _seat_facts(records: Sequence[dict[str, Any]]) -> list[tuple[dict[str, Any], float]]:
    """(facts of the seat, its return) for every seat of every game that reports facts per seat."""
    out = []
    for r in records:
        seats = (r.get("facts") or {}).get("seats") if isinstance(r.get("facts"), dict) else None
        if isinstance(seats, list) and len(seats) == len(r["returns"]):
            out += [(s, ret) for s, ret in zip(seats, r["returns"], strict=True) if isinstance(s, dict)]
    return out


def _values(rows: Sequence[tuple[dict[str, Any], float]], key: str) -> list[str]:
    return sorted({s[key] for s, _ in rows if isinstance(s.get(key), str)})


def _keys(rows: Sequence[tuple[dict[str, Any], float]], kind: type) -> list[str]:
    return sorted({k for s, _ in rows for k, v in s.items() if isinstance(v, kind)})


def _groupings(rows: Sequence[tuple[dict[str, Any], float]]) -> list[str]:
    return [k for k in _keys(rows, str) if 2 <= len(_values(rows, k)) <= MAX_GROUPS]


def _evidence(
    rows: Sequence[tuple[dict[str, Any], float]], every: Sequence[tuple[dict[str, Any], float]]
) -> dict[str, float]:
    """What the seats ``rows`` did: the share of each truth they report, of each value (past the first) of
    a text fact with few values over ``every`` seat, and of each truth among the seats with that value."""
    out: dict[str, float] = {}
    if not rows:
        return out
    for k in _keys(every, bool):
        if all(isinstance(s.get(k), bool) for s, _ in rows):
            out[k.replace("_", " ")] = statistics.fmean(float(s[k]) for s, _ in rows)
    truths = [k for k in _keys(every, bool) if all(isinstance(s.get(k), bool) for s, _ in rows)]
    for k in _groupings(every):
        values = _values(every, k)
        if len(values) <= SHORT:
            for v in values[1:]:
                out[f"{k}={v}"] = statistics.fmean(1.0 if s.get(k) == v else 0.0 for s, _ in rows)
                some = [s for s, _ in rows if s.get(k) == v]
                for t in truths:  # e.g. how often the condition held when the seat took side B
                    if some:
                        out[f"{t.replace('_', ' ')} when {k}={v}"] = statistics.fmean(
                            float(s[t]) for s in some
                        )
    return out


MIN_SEATS = 10
"""Fewer seats or games than this on either side: the bots are not compared (too few to tell)."""


def _difference(a: tuple[float, int], b: tuple[float, int]) -> tuple[float, float]:
    """b − a of two independent rates (rate, count) and its 95 % half-width (Agresti-Caffo: one win and
    one loss added to each side, so that a rate of 0 or 1 over few games still has an interval)."""
    (pa, na), (pb, nb) = a, b
    ta, tb = (pa * na + 1) / (na + 2), (pb * nb + 1) / (nb + 2)
    return pb - pa, 1.96 * math.sqrt(ta * (1 - ta) / (na + 2) + tb * (1 - tb) / (nb + 2))


def _shares(ev: dict[str, float], keys: Sequence[str]) -> str:
    return ", ".join(f"{k} {100 * ev[k]:.0f}%" for k in keys if k in ev) or "–"


def against(
    page: Page, study: Any, base: dict[str, list[dict[str, Any]]], search: dict[str, list[dict[str, Any]]]
) -> list[str]:
    """The sections comparing the search bot's games with the study bot's, configuration by configuration."""
    one, two = study.bot, study.search_bot
    common = [
        config_label(c) for c in study.search_configs if config_label(c) in search and config_label(c) in base
    ]
    lines = [
        f"## Checked by the search bot ({two})",
        "",
        f"The same tables with {two} in every seat, in the default setup of each player count. Search games "
        f"are slow, so there are fewer of them ({', '.join(f'{len(search[k])} in `{k}`' for k in common) or 'none finished yet'}) "
        f"and their intervals are wider: read a {two} interval as what its games can tell, no more.",
        "",
    ]
    verdicts: list[str] = []
    told: list[str] = []  # the agreement of every row, to say when none could be told
    seat_rows = []
    for label in common:
        players = len(base[label][0]["returns"])
        for p, (pa, pb) in enumerate(zip(places(base[label]), places(search[label]), strict=True)):
            a, b = (*pa, len(base[label])), (*pb, len(search[label]))
            diff, half = _difference((a[0], a[2]), (b[0], b[2]))
            fair = 1 / players if players > 1 else None
            seat_rows.append(
                [
                    f"`{label}`",
                    p + 1,
                    pct(a[0], a[1]),
                    pct(b[0], b[1]),
                    f"{100 * diff:+.1f} ± {100 * half:.1f}",
                    _told(told, _agree(a, b, diff, half, fair)),
                ]
            )
            verdicts += _verdict(f"place {p + 1} in `{label}`", one, two, a, b, diff, half, fair, "", "")
    lines += demote(
        section(
            "Seat advantage, both bots",
            f"Win rate by place in turn order under {one} and under {two} (solo: the target reached), and the "
            "difference with its 95 % interval (the two samples are independent).",
            ("configuration", "place", one, two, f"{two} − {one}", "agreement"),
            "lrrrrl",
            seat_rows,
            "",
        )
        if seat_rows
        else []
    )
    for label in common:
        rows_a, rows_b = _seat_facts(base[label]), _seat_facts(search[label])
        fair_a = statistics.fmean(r for _, r in rows_a) if rows_a else None
        players = len(base[label][0]["returns"])
        fair = 1 / players if players > 1 else fair_a
        for key in _groupings(rows_a):
            if key not in _groupings(rows_b):
                continue
            table = []
            shown = list(_evidence(rows_a, rows_a))
            for value in _values(rows_a, key):
                ga = [(s, r) for s, r in rows_a if s.get(key) == value]
                gb = [(s, r) for s, r in rows_b if s.get(key) == value]
                if not ga or not gb:
                    continue
                a = _rate(ga)
                b = _rate(gb)
                diff, half = _difference((a[0], a[2]), (b[0], b[2]))
                ea, eb = _evidence(ga, rows_a), _evidence(gb, rows_b)
                table.append(
                    [
                        value,
                        len(ga),
                        pct(a[0], a[1]),
                        _shares(ea, shown),
                        len(gb),
                        pct(b[0], b[1]),
                        _shares(eb, shown),
                        _told(told, _agree(a, b, diff, half, fair)),
                    ]
                )
                what = f"{value} ({key.replace('_', ' ')}) in `{label}`"
                verdicts += _verdict(
                    what, one, two, a, b, diff, half, fair, _shares(ea, shown), _shares(eb, shown)
                )
            if table:
                lines += demote(
                    section(
                        f"By {key.replace('_', ' ')}, `{label}`, both bots",
                        f"The win rate of the seats by their {key.replace('_', ' ')} under each bot, with what the "
                        f"seats did (the share of each condition the game reports). Fair share "
                        f"{100 * (fair or 0):.1f}%.",
                        (
                            "",
                            f"seats, {one}",
                            one,
                            f"what {one} did",
                            f"seats, {two}",
                            two,
                            f"what {two} did",
                            "agreement",
                        ),
                        "lrrlrrll",
                        table,
                        "",
                    )
                )
    lines += [
        "### Which to believe",
        "",
        f"A balance figure is a claim about good play. {one} takes the move that looks best one step ahead; "
        f"{two}, the search bot, looks further (ismcts: over sampled hidden information). Where the two disagree beyond their "
        f"intervals, the figure says more about {one}'s style than about the components: believe {two}, and "
        f"check the 'what it did' columns, which show how each bot used the component. Where only {one} flags "
        f"a figure and {two}'s wider interval neither confirms nor refutes it, the flag is provisional: play "
        "more search games before changing the component.",
        "",
        *(
            verdicts
            or [f"- No {two} game finished yet: nothing to compare."] * (not common)
            or [
                f"- Too few {two} games to compare any row yet (each needs {MIN_SEATS} seats or games under "
                "both bots)."
            ]
            * all(t == "too few to tell" for t in told)
            or [
                f"- The two bots agree within their intervals wherever both have {MIN_SEATS} or more seats "
                "(a row with fewer says too few to tell)."
            ]
        ),
        "",
    ]
    style = [
        line
        for c in study.search_configs
        if config_label(c) in base
        for line in _style(one, config_label(c), base)
    ]
    if style:
        lines += [
            f"Whatever the search finds, these figures of {one} are its style, not the game's: its seats took a "
            "choice and then almost never met the condition that choice asks for, which a player who takes "
            "it means to meet:",
            "",
            *style,
            "",
        ]
    return demote(lines)


def _style(one: str, label: str, base: dict[str, list[dict[str, Any]]]) -> list[str]:
    """Groups (e.g. a leader) whose seats often took a choice (e.g. side B) and met the condition the game
    reports (e.g. the leader's) in at most 5 % of those seats: the bot's play, not the component."""
    rows = _seat_facts(base[label])
    lines = []
    for key in _groupings(rows):
        if len(_values(rows, key)) <= SHORT:
            continue
        for value in _values(rows, key):
            group = [(s, r) for s, r in rows if s.get(key) == value]
            for other in _groupings(rows):
                choices = _values(rows, other)
                if other == key or len(choices) > SHORT:
                    continue
                for choice in choices[1:]:
                    took = [s for s, _ in group if s.get(other) == choice]
                    for truth in _keys(rows, bool):
                        met = [bool(s.get(truth)) for s in took]
                        if len(took) >= MIN_SEATS and statistics.fmean(met) <= 0.05:
                            rate, half, n = _rate(group)
                            lines.append(
                                f"- {value} ({key.replace('_', ' ')}) in `{label}`: {one} took {other}={choice} "
                                f"in {100 * len(took) / n:.0f}% of its {n} seats and met '{truth.replace('_', ' ')}' "
                                f"in {100 * statistics.fmean(met):.0f}% of those; its win rate {pct(rate, half)} "
                                f"is {one}'s play of it."
                            )
    return lines


Rate = tuple[float, float, int]  # a rate, the half-width of its 95 % interval, the seats or games


def _rate(rows: Sequence[tuple[dict[str, Any], float]]) -> Rate:
    rate = statistics.fmean(r for _, r in rows)
    return rate, _interval(rate, len(rows)), len(rows)


def _told(told: list[str], state: str) -> str:
    told.append(state)
    return state


def _agree(a: Rate, b: Rate, diff: float, half: float, fair: float | None) -> str:
    if min(a[2], b[2]) < MIN_SEATS:
        return "too few to tell"
    if abs(diff) > half:
        return "disagree"
    fa = fair is not None and flagged(a[0], a[2], fair)
    fb = fair is not None and flagged(b[0], b[2], fair)
    if fa != fb:
        return "only the first flags it" if fa else "only the search flags it"
    return "agree"


def _verdict(
    what: str,
    one: str,
    two: str,
    a: Rate,
    b: Rate,
    diff: float,
    half: float,
    fair: float | None,
    did_a: str,
    did_b: str,
) -> list[str]:
    """A line where the bots disagree: which to believe and why; nothing where they agree."""
    state = _agree(a, b, diff, half, fair)
    if state in ("agree", "too few to tell"):
        return []
    did = f" What the seats did: {one} {did_a}; {two} {did_b}." if did_a or did_b else ""
    fair_text = f" (fair share {100 * fair:.1f}%)" if fair is not None else ""
    if state == "disagree":
        return [
            f"- {what}: {one} {pct(a[0], a[1])}, {two} {pct(b[0], b[1])}{fair_text}, a difference of {100 * diff:+.1f} ± "
            f"{100 * half:.1f}. Believe {two}: the difference is the bots' play, not the component.{did}"
        ]
    if state == "only the first flags it":
        return [
            f"- {what}: {one} {pct(a[0], a[1])} {FLAG}, {two} {pct(b[0], b[1])}{fair_text}: not confirmed by {two}, whose "
            f"interval is wider; provisional.{did}"
        ]
    return [
        f"- {what}: {two} {pct(b[0], b[1])} {FLAG}, {one} {pct(a[0], a[1])}{fair_text}: believe {two}, the stronger player.{did}"
    ]
