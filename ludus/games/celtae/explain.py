"""Why a Celtae move is good, in the game's terms: cards, discs, citadels, strength, tiles, final scoring.

``explain`` names the decision (the marker's move, the action area, the card or citadel
chosen), the seat's best follow-up decisions of the same turn, and what the turn then
changes for the seat: cards taken and paid, the disc placed with its citadel and bonus,
strength, Roman Army and Druid tiles won, workers recruited, tokens, garrison cubes, and
the final-scoring categories A-K (``score_breakdown``) that would change if the game ended
then. Only what the seat may see is named: its own hand and the public board.

``sentence`` says the same in one plain sentence for a player (the decisions that matter, what
they bring, the points they are worth); ``position_key`` is what the seat knows of a position,
with each action area's workers unordered where their order never matters (every game but solo,
whose Solitairix swaps by place), so that two swaps for workers of one kind are one hint.
"""

from __future__ import annotations

from typing import Any

from ludus.engine.errors import IllegalActionError

from . import board as G
from .actions import Act
from .core import (
    BATTLE_DISCARD,
    BONUS_DRAW,
    BONUS_RECRUIT,
    DRUID,
    DRUID_PAY,
    EXTRA,
    FARM_PICK,
    FIGHT,
    GARRISON,
    RECRUIT_PICK,
    REFRESH,
    SWAP,
    Phase,
)
from .heuristic import canonical as canonical  # the explainer hook's re-deal: the heuristic's fixed order
from .scoring import score_breakdown
from .words import a as _a
from .words import listed

LOOKAHEAD = 0  # the heuristic finishes the seat's turn itself when valuing
EXPLAIN_STEPS = 12  # the reason shows that finish: the seat's decisions up to the end of its turn

CATEGORY = {
    "A": "discs on completed citadels",
    "B": "bonus tiles",
    "C": "Druid tiles",
    "D": "Roman Army tiles",
    "E": "garrison majorities",
    "F": "tribe spaces",
    "G": "disc spaces",
    "H": "all cubes placed",
    "I": "strength and cards",
    "J": "progress cards",
    "K": "leader",
}
WORKERS = ("farmer", "builder", "soldier", "noble", "druid")
KINDS = ("Farm", "Build", "Battle", "Recruit")
REGIONS = ("North", "South")
# what ``done`` declines, by the phase it is played in, as a player would say it
DECLINED = {
    REFRESH: "keep the action area as it is",
    SWAP: "keep your workers as they are",
    EXTRA: "keep your bonus tokens",
    BONUS_DRAW: "draw no more market cards",
    BONUS_RECRUIT: "recruit no worker with the bonus",
    BATTLE_DISCARD: "discard no more cards",
    FIGHT: "leave the Roman army alone",
    GARRISON: "place no garrison cube",
    RECRUIT_PICK: "recruit no more workers",
    DRUID: "leave the druid tile",
    DRUID_PAY: "buy no druid worker",
    FARM_PICK: "buy no more cards",
}
BONUS = {
    "token": "a bonus token",
    "recruit": "recruit a worker",
    "draw": "draw 2 market cards",
    "strength": "strength",
}


def card(state: Any, kind: int) -> str:
    d = state.data
    return f"{d.colours[kind // 3]} {d.icons[kind % 3]}"


def position_key(state: Any, seat: int) -> dict[str, Any]:
    """What ``seat`` knows of ``state``, each area's workers sorted unless Solitairix plays (it swaps by place)."""
    seen = state.observation(seat)
    if not state.solo and isinstance(seen.get("areas"), list):
        seen = dict(seen, areas=[sorted(area, key=str) for area in seen["areas"]])
    return seen


def explain(before: Any, action: Act, after: Any, seat: int, follow: list[Any]) -> str:
    """A sentence saying what ``action`` and the seat's follow-ups bring, in Celtae's terms."""
    text = _decision(before, action, seat)
    if follow:
        text += ", then " + ", ".join(_follow_texts(before, action, follow, seat))
    effects = _effects(before, after, seat)
    scoring = _scoring(before, after, seat)
    if effects:
        text += ": " + ", ".join(effects)
    if scoring:
        text += "; " + scoring
    return text[0].upper() + text[1:] + "."


def _follow_texts(before: Any, action: Act, follow: list[Act], seat: int) -> list[str]:
    """The follow-up decisions in words, each read in the position where it is taken."""
    state = before.clone()
    out = []
    try:
        state.apply_action(action)
        for a in follow:
            out.append(_decision(state, a, seat))
            state.apply_action(a)
    except IllegalActionError:
        out += [str(a) for a in follow[len(out) :]]
    return out


def _decision(state: Any, a: Act, seat: int) -> str:
    for words in (_rondel_decision, _card_decision, _worker_decision, _turn_decision):
        text = words(state, a)
        if text is not None:
            return text
    return str(a)


def _rondel_decision(state: Any, a: Act) -> str | None:
    """The marker's move and the action area chosen."""
    v = a.verb
    if v == "move":
        corner = G.CORNER_NAMES[(state.marker + a.a) % 4]
        change = state.data.move_strength[a.a - 1]
        gain = f" ({'+' if change > 0 else ''}{change} strength)" if change else ""
        crosses = any((state.marker + i) % 4 == G.CROSSING_FROM for i in range(a.a))
        return f"move the action marker {a.a} corner{'s' if a.a > 1 else ''} to {corner}{gain}" + (
            ", crossing the river (progress)" if crosses else ""
        )
    if v == "anywhere":
        return "spend a bonus token to act on any action area"
    if v == "act":
        return f"{KINDS[a.a]} in the {REGIONS[a.b]}"
    return None


def _card_decision(state: Any, a: Act) -> str | None:
    """Cards taken, paid or discarded, citadels built on, the Roman Army fought."""
    d = state.data
    v = a.verb
    if v == "take":
        row = state.market[state.ctx.region]
        return f"take the {card(state, row[a.a])} from market position {a.a + 1}" if row[a.a] >= 0 else str(a)
    if v == "citadel":
        return f"build on the {d.colours[a.a]} citadel in the {REGIONS[state.ctx.region]}"
    if v in ("pay", "discard", "garrison"):
        word = {"pay": "pay", "discard": "discard", "garrison": "garrison a cube with"}[v]
        purpose = {
            Phase.BATTLE_DISCARD: " for strength",
            Phase.BUILD_PAY: " for the disc",
            Phase.DRUID_PAY: " for a druid worker",
            Phase.SETUP_DISCARD: " (set-up)",
        }.get(state.phase, "")
        return f"{word} {_a(card(state, a.a))}{purpose}"
    if v == "fight":
        stack = state.roman[state.ctx.region]
        pts, cost = d.roman_tiles[stack[-1]] if stack else (0, 0)
        return f"fight the Roman Army ({pts}-point tile for {cost} strength)"
    return None


def _worker_decision(state: Any, a: Act) -> str | None:
    """Workers recruited, swapped, taken from the centre or released; the Druid tile."""
    v = a.verb
    if v == "enlist":
        return f"recruit {_a(WORKERS[a.a])} into your tribe"
    if v == "druid":
        return "take the Druid tile" + (f", giving up {_a(WORKERS[a.a])}" if a.a >= 0 else "")
    if v == "swap":
        area = state.areas[state.ctx.area] if state.ctx.area >= 0 else None
        got = WORKERS[area[a.b]] if area and area[a.b] >= 0 else "worker"
        return f"swap your {WORKERS[a.a]} for the {got}"
    if v == "centre":
        return f"take the {WORKERS[state.centre[a.a]]} from the centre"
    if v == "release":
        return f"release {_a(WORKERS[a.a])} from your tribe"
    return None


def _turn_decision(state: Any, a: Act) -> str | None:
    """The rest: refresh, an extra worker, progress, the leader, done."""
    d = state.data
    v = a.verb
    if v == "refresh":
        return f"refresh the action area ({d.refresh_cost} strength)"
    if v == "extra":
        return "spend a bonus token as an extra worker"
    if v == "progress":
        from .observe import progress_text

        return f"place the progress marker on '{progress_text(state, state.prog_cards[a.a])}'"
    if v in ("flip", "keep"):
        return "flip your leader to side B" if v == "flip" else "keep your leader on side A"
    if v == "leader":
        return f"choose {d.leaders[a.a]['name']} as your leader"
    if v == "done":
        return DECLINED.get(state.phase, "go on to the next step")
    return None


def _effects(before: Any, after: Any, seat: int) -> list[str]:
    """What the seat's turn changed for it: cards, discs, strength, tiles, workers, tokens, cubes."""
    d = before.data
    out = []
    gained = [k for k in range(12) for _ in range(max(0, after.hands[seat][k] - before.hands[seat][k]))]
    spent = sum(max(0, before.hands[seat][k] - after.hands[seat][k]) for k in range(12))
    if gained:
        out.append("takes " + ", ".join(card(before, k) for k in gained))
    if spent:
        out.append(f"spends {spent} card{'s' if spent > 1 else ''}")
    for idx, (was, now) in enumerate(zip(before.citadels, after.citadels, strict=True)):
        if now.count(seat) > was.count(seat):
            colour, region = d.colours[idx % 4], REGIONS[idx // 4]
            bonus = d.bonus_kinds[before.bonus_at[idx]]
            text = f"a disc on the {colour} citadel in the {region} (its bonus: {BONUS.get(bonus, bonus)})"
            if -1 not in now and -1 in was:
                text += ", completing it for its bonus tile"
            out.append(text)
    strength = after.strength[seat] - before.strength[seat]
    if strength:
        out.append(f"strength {before.strength[seat]} -> {after.strength[seat]}")
    for won, name, tiles in (
        ("roman_won", "Roman Army", d.roman_tiles),
        ("druid_won", "Druid", d.druid_tiles),
    ):
        new = getattr(after, won)[seat][len(getattr(before, won)[seat]) :]
        for t in new:
            out.append(f"wins a {tiles[t][0]}-point {name} tile")
    recruited = [
        WORKERS[t] for t in range(5) for _ in range(max(0, after.tribe[seat][t] - before.tribe[seat][t]))
    ]
    if recruited:
        out.append("tribe gains " + ", ".join(recruited))
    tokens = after.tokens[seat] - before.tokens[seat]
    if tokens:
        out.append(f"{'+' if tokens > 0 else ''}{tokens} bonus token{'s' if abs(tokens) > 1 else ''}")
    if after.cubes[seat] > before.cubes[seat]:
        out.append("a garrison cube placed")
    return out


def _scoring(before: Any, after: Any, seat: int) -> str:
    """The final-scoring categories that change, and the total, if the game ended now."""
    was, now = score_breakdown(before, seat), score_breakdown(after, seat)
    changes = [f"{c} {now[c] - was[c]:+d} ({CATEGORY[c]})" for c in CATEGORY if now[c] != was[c]]
    target = ""
    if before.solo:
        difficulty = before.game.config["difficulty"]
        target = f" toward the {difficulty} target of {before.data.targets[difficulty]}"
    if not changes:
        return f"final scoring unchanged at {now['total']}{target}"
    return f"final scoring if the game ended now: {', '.join(changes)}, total {was['total']} -> {now['total']}{target}"


# -- one plain sentence ------------------------------------------------------------------------------
# said by their effects (cards, discs, workers gained) or not at all (an option declined)
UNSAID = ("done", "pay", "discard", "garrison", "take", "citadel", "enlist", "centre")


def sentence(before: Any, action: Act, after: Any, seat: int, follow: list[Any]) -> str:
    """What the move and the seat's best follow-ups do, what they bring and what that is worth."""
    steps = [_plain(before, action, seat)]
    state = before.clone()
    try:
        state.apply_action(action)
        for a in follow:
            if a.verb not in UNSAID:
                steps.append(_plain(state, a, seat))
            state.apply_action(a)
    except IllegalActionError:
        pass  # the reason names what it could read
    gains = _gains(before, after, seat)
    worth = _worth(before, after, seat)
    text = listed([steps[0]] + [t[0].lower() + t[1:] for t in steps[1:4]])
    text += ": " + listed(gains) + "; " + worth if gains else ": " + worth
    return text[0].upper() + text[1:] + "."


def _plain(state: Any, a: Act, seat: int) -> str:
    """A decision as a player says it: the marker's steps and their strength as words, not signs."""
    if a.verb == "move":
        corner = G.CORNER_NAMES[(state.marker + a.a) % 4]
        change = state.data.move_strength[a.a - 1]
        crosses = any((state.marker + i) % 4 == G.CROSSING_FROM for i in range(a.a))
        text = f"move the marker {a.a} step{'s' if a.a > 1 else ''} to {corner}"
        if change:
            text += f", {'gaining' if change > 0 else 'paying'} {abs(change)} strength"
        return text + (", crossing the river" if crosses else "")
    if a.verb == "refresh":
        return f"refresh the action area for {state.data.refresh_cost} strength"
    return _decision(state, a, seat)


def _gains(before: Any, after: Any, seat: int) -> list[str]:
    """What the turn brings the seat, in plain words (at most four things)."""
    d = before.data
    out = []
    gained = [k for k in range(12) for _ in range(max(0, after.hands[seat][k] - before.hands[seat][k]))]
    if gained:
        counts = {k: gained.count(k) for k in gained}
        out.append(
            "you gain "
            + listed(
                [_a(card(before, k)) if c == 1 else f"{c} {card(before, k)}s" for k, c in counts.items()]
            )
        )
    for idx, (was, now) in enumerate(zip(before.citadels, after.citadels, strict=True)):
        if now.count(seat) > was.count(seat):
            done = " and complete it" if -1 not in now and -1 in was else ""
            out.append(
                f"you place a disc on the {d.colours[idx % 4]} citadel in the {REGIONS[idx // 4]}{done}"
            )
    for won, name in (("roman_won", "Roman army"), ("druid_won", "druid")):
        if len(getattr(after, won)[seat]) > len(getattr(before, won)[seat]):
            out.append(f"you win {_a(name)} tile")
    recruited = [
        WORKERS[t] for t in range(5) for _ in range(max(0, after.tribe[seat][t] - before.tribe[seat][t]))
    ]
    if recruited:
        out.append("your tribe gains " + listed([_a(w) for w in recruited]))
    strength = after.strength[seat] - before.strength[seat]
    if strength:
        out.append(f"your strength goes from {before.strength[seat]} to {after.strength[seat]}")
    if after.tokens[seat] > before.tokens[seat]:
        out.append("you gain a bonus token")
    return out[:4]


def _worth(before: Any, after: Any, seat: int) -> str:
    """What the turn is worth at the final count, were the game to end now."""
    was, now = score_breakdown(before, seat)["total"], score_breakdown(after, seat)["total"]
    change = now - was
    if change > 0:
        return f"worth {change} more point{'s' if change > 1 else ''} if the game ended now"
    if change < 0:
        return f"{-change} point{'s' if change < -1 else ''} less if the game ended now, but it sets up your next turns"
    return "no points yet, but it sets up your next turns"
