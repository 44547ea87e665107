"""Celtae in words: the move log's sentences, each made from the state the action was played in.

``log_detail(state, action)`` is the renderer's hook (``ludus.games.celtae.render`` offers it). Each
step says what the seat did and every consequence the rules drew from it at once: cards gained and
paid, strength, tokens, the disc with its citadel and bonus, tiles won, workers moved, the river
crossed, the leaders revealed. It compares the acting seat's pieces before and after the action
(played on a copy), so a consequence is never guessed; Solitairix's own turn, which the engine plays
inside the human's last action, is told by its own entry (``observe.solitairix_turns``).

Only public facts are named: another seat's leader decision stays "a secret choice" until every
seat has chosen, and the reveal is told as a consequence of the last choice. Another seat named
in a sentence is written ``{seat:N}`` (N from 0); the server puts the seat's name there.
"""

from __future__ import annotations

from typing import Any, cast

from . import board as G
from .actions import ACT_VERBS, Act
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
    LEADER,
    P_FLIP,
    RECRUIT_PICK,
    REFRESH,
    SETUP_DISCARD,
    SWAP,
    CeltaeBase,
)

_OPTIONAL = (REFRESH, SWAP, EXTRA)  # the steps before the action itself
WORKERS = ("farmer", "builder", "soldier", "noble", "druid")
REGIONS = ("north", "south")
SOLITAIRIX = 1  # Solitairix's owner index in a solo game

# what ``done`` declines, by the phase it is played in (the log never says "passed")
DECLINED: dict[int, str] = {
    REFRESH: "kept the action area as it was",
    SWAP: "swapped no worker",
    EXTRA: "spent no token as an extra worker",
    BONUS_DRAW: "drew no more market cards",
    BONUS_RECRUIT: "recruited no worker with the bonus",
    BATTLE_DISCARD: "discarded no more cards",
    FIGHT: "did not fight the Roman army",
    GARRISON: "placed no garrison cube",
    RECRUIT_PICK: "recruited no more workers",
    DRUID: "did not take the druid tile",
    DRUID_PAY: "bought no druid worker",
}


def a(noun: str) -> str:
    """``noun`` with its indefinite article: every word of the game's vocabulary that starts with a
    vowel letter starts with a vowel sound (an orange warrior, an extra worker)."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def listed(items: list[str]) -> str:
    """``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def card(state: CeltaeBase, kind: int) -> str:
    d = state.data
    return f"{d.colours[kind // 3]} {d.icons[kind % 3]}"


def seat_ref(seat: int) -> str:
    """Another seat in a sentence: the server writes its name in (``{seat:N}``)."""
    return f"{{seat:{seat}}}"


def owner_of(state: CeltaeBase) -> int:
    """Whose turn an action belongs to: the set-up decisions are each seat's own; a progress marker
    or a leader decision belongs to the turn that asked for it (Solitairix's once it has moved)."""
    if state.phase in (LEADER, SETUP_DISCARD):
        return state.current_player()
    if state.solo and state.turn == SOLITAIRIX and not state.ctx.sx_moved:
        return 0  # the human's own turn is not over until its decisions are taken
    return state.turn


def log_detail(state: CeltaeBase, action: str) -> dict[str, Any]:
    """The log's words for ``action`` played from ``state``: ``text`` (the step in a sentence, without
    the seat's name), ``summary`` (what the turn's sentence keeps of it: the consequences of a
    declined option, nothing when there are none), ``turn`` on the step that begins a turn and
    ``owner`` when the step belongs to another seat's turn (``owner_name``: Solitairix's)."""
    act = cast(Act, state.game.parse_action(action))
    actor = state.current_player()
    after = cast(CeltaeBase, state.clone())
    after.apply_action(act)
    step = _step(state, act)
    effects = consequences(state, after, act, actor)
    out: dict[str, Any] = {"text": step + (": " + "; ".join(effects) if effects else "")}
    if act.verb == "done" and not state.pending:
        out["summary"] = "; ".join(effects)
    if act.verb in ("move", "anywhere") and not state.pending:
        out["turn"] = True
    owner = owner_of(state)
    if owner != actor:
        out["owner"] = owner
        if state.solo and owner == SOLITAIRIX:
            out["owner_name"] = "Solitairix"
    return out


# -- the step itself ------------------------------------------------------------------------------
def _step(s: CeltaeBase, act: Act) -> str:
    if s.pending:
        return _pending_step(s, act)
    for words in (_rondel_step, _card_step, _worker_step):
        text = words(s, act)
        if text is not None:
            return text
    if act.verb == "done":
        return _declined(s)
    return str(act)  # pragma: no cover  (every verb is worded above)


def _pending_step(s: CeltaeBase, act: Act) -> str:
    if act.verb == "progress":
        from .observe import progress_text

        return f"placed a progress marker on “{progress_text(s, s.prog_cards[act.a])}”"
    return "made a secret choice about their leader's side"  # flip or keep: secret until all have chosen


def _rondel_step(s: CeltaeBase, act: Act) -> str | None:
    d = s.data
    v = act.verb
    if v == "move":
        corner = G.CORNER_NAMES[(s.marker + act.a) % 4]
        crosses = any((s.marker + i) % 4 == G.CROSSING_FROM for i in range(act.a))
        return f"moved the marker {plural(act.a, 'step')} to {corner}" + (
            ", crossing the river" if crosses and s.track > 0 else ""
        )
    if v == "anywhere":
        return "spent a bonus token to act anywhere"
    if v == "act":
        return f"chose to {ACT_VERBS[act.a]} in the {REGIONS[act.b]}"
    if v == "refresh":
        return f"refreshed the action area from the centre for {plural(d.refresh_cost, 'strength point')}"
    if v == "extra":
        return "spent a bonus token as an extra worker"
    if v == "leader":
        return f"chose {d.leaders[act.a]['name']} as leader"
    return None


def _card_step(s: CeltaeBase, act: Act) -> str | None:
    d = s.data
    v = act.verb
    region = REGIONS[s.ctx.region] if s.ctx.region >= 0 else ""
    if v == "take":
        k = s.market[s.ctx.region][act.a]
        if s.phase == BONUS_DRAW:
            return f"drew {a(card(s, k))} from the {region} market with the bonus"
        cost = d.market_costs[act.a]
        return f"bought {a(card(s, k))} from the {region} market for {plural(cost, 'farmer')}"
    if v == "citadel":
        return f"chose the {d.colours[act.a]} citadel in the {region}"
    if v == "pay":
        return f"paid {a(card(s, act.a))}" + (" towards a druid worker" if s.phase == DRUID_PAY else "")
    if v == "discard":
        if s.phase == SETUP_DISCARD:
            return f"discarded {a(card(s, act.a))} from their starting hand"
        return f"discarded {a(card(s, act.a))} for strength"
    if v == "fight":
        return f"fought the Roman army in the {region}"
    if v == "garrison":
        icon = d.icons[act.a % 3]
        return f"placed a garrison cube on {a(icon)} space in the {region}, paying {a(card(s, act.a))}"
    return None


def _worker_step(s: CeltaeBase, act: Act) -> str | None:
    v = act.verb
    if v == "swap":
        took = s.areas[s.ctx.area][act.b]
        return f"swapped their {WORKERS[act.a]} for the area's {WORKERS[took]}"
    if v == "enlist":
        return f"recruited {a(WORKERS[act.a])}" + (
            " with the citadel's bonus" if s.phase == BONUS_RECRUIT else " into the tribe"
        )
    if v == "druid":
        stack = s.druid[s.ctx.region]
        points = s.data.druid_tiles[stack[-1]].points if stack else 0
        wild = f", giving {a(WORKERS[act.a])} for the wildcard" if act.a >= 0 else ""
        return f"took the {points}-point druid tile in the {REGIONS[s.ctx.region]}{wild}"
    if v == "centre":
        return f"took the {WORKERS[s.centre[act.a]]} from the centre"
    if v == "release":
        return f"released {a(WORKERS[act.a])} from the tribe"
    return None


def _declined(s: CeltaeBase) -> str:
    if s.phase == FARM_PICK:
        return "bought no card" if s.ctx.taken <= 1 else "bought no more cards"
    if s.phase == BATTLE_DISCARD and s.ctx.icon < 0:
        return "discarded no card for strength"
    return DECLINED.get(s.phase, "went on")


# -- what followed from it ---------------------------------------------------------------------------
def consequences(s: CeltaeBase, t: CeltaeBase, act: Act, p: int) -> list[str]:
    """What changed for seat ``p`` (and for everyone) from ``s`` to ``t`` beyond the step's own words."""
    out: list[str] = []
    out += _cards(s, t, act, p)
    out += _discs(s, t, p)
    out += _tiles(s, t, p)
    out += _workers(s, t, act, p)
    out += _strength_tokens(s, t, act, p)
    if act.verb == "refresh":
        out.append("the area now holds " + listed([a(WORKERS[w]) for w in t.areas[s.ctx.area] if w >= 0]))
    out += _shared(s, t, p)
    return out


def _counts(before: list[int], after: list[int]) -> tuple[list[int], list[int]]:
    """The kinds gained and lost between two count lists, one entry per piece."""
    gained = [k for k in range(len(after)) for _ in range(max(0, after[k] - before[k]))]
    lost = [k for k in range(len(after)) for _ in range(max(0, before[k] - after[k]))]
    return gained, lost


def _cards(s: CeltaeBase, t: CeltaeBase, act: Act, p: int) -> list[str]:
    gained, lost = _counts(s.hands[p], t.hands[p])
    if act.verb == "take":
        taken = s.market[s.ctx.region][act.a]
        if taken in gained:
            gained.remove(taken)
    elif act.verb in ("pay", "discard", "garrison") and act.a in lost:
        lost.remove(act.a)
    out = []
    if gained:
        farm = (act.verb == "act" and act.a == G.FARM) or (s.ctx.kind == G.FARM and s.phase in _OPTIONAL)
        what = listed([a(card(s, k)) for k in gained])
        out.append(f"took the market's free card, {what}" if farm else f"gained {what}")
    if lost:
        out.append("paid " + listed([a(card(s, k)) for k in lost]))
    return out


def _discs(s: CeltaeBase, t: CeltaeBase, p: int) -> list[str]:
    d = s.data
    out = []
    for idx, (was, now) in enumerate(zip(s.citadels, t.citadels, strict=True)):
        if now.count(p) <= was.count(p):
            continue
        text = f"placed a disc on the {d.colours[idx % 4]} citadel in the {REGIONS[idx // 4]}"
        if t.bonus_owner[idx] == p and s.bonus_owner[idx] != p:
            text += ", completing it and winning its bonus tile"
        bonus = d.bonus_kinds[s.bonus_at[idx]]
        if bonus == "recruit":
            text += "; its bonus lets them recruit a worker"
        elif bonus == "draw":
            text += f"; its bonus lets them draw {plural(d.draw_count, 'market card')}"
        out.append(text)
    return out


def _tiles(s: CeltaeBase, t: CeltaeBase, p: int) -> list[str]:
    d = s.data
    out = []
    for tile in t.roman_won[p][len(s.roman_won[p]) :]:
        points, strength = d.roman_tiles[tile]
        out.append(f"won the {points}-point Roman army tile for {plural(strength, 'strength point')}")
    if len(t.druid_won[p]) > len(s.druid_won[p]):
        sent, _ = _counts(t.tribe[p][:4], s.tribe[p][:4])
        if sent:
            out.append("sent " + listed([a(WORKERS[w]) for w in sent]) + " to the druid order")
    return out


def _workers(s: CeltaeBase, t: CeltaeBase, act: Act, p: int) -> list[str]:
    out = []
    joined, _ = _counts(s.active[p], t.active[p])
    v = act.verb
    if v == "swap" and act.b >= 0:
        took = s.areas[s.ctx.area][act.b]
        if took in joined:
            joined.remove(took)
    if v == "centre" and s.centre[act.a] in joined:
        joined.remove(s.centre[act.a])
    if joined:
        out.append("took " + listed([a(WORKERS[w]) for w in joined]) + " from the centre")
    druids = t.tribe[p][G.D] - s.tribe[p][G.D]
    if druids > 0:
        out.append(f"gained {a('druid worker')}")
    return out


def _strength_tokens(s: CeltaeBase, t: CeltaeBase, act: Act, p: int) -> list[str]:
    out = []
    change = t.strength[p] - s.strength[p]
    if change > 0:
        out.append(f"gained {plural(change, 'strength point')} (now {t.strength[p]})")
    elif change < 0 and act.verb not in ("refresh", "fight"):  # their own words name the cost
        out.append(f"spent {plural(-change, 'strength point')} (now {t.strength[p]})")
    tokens = t.tokens[p] - s.tokens[p]
    if tokens > 0:
        out.append(f"gained {'a bonus token' if tokens == 1 else plural(tokens, 'bonus token')}")
    return out


def _shared(s: CeltaeBase, t: CeltaeBase, p: int) -> list[str]:
    """What the step brought about for the whole table: progress, the leaders revealed, the end.
    What Solitairix's move asks for (a solo human's marker, the flip) is told with its own turn."""
    out = []
    # the progress markers are placed at once, by their seats' own steps; the leader decision is secret
    if not _solitairix_moved(s, t) and any(kind == P_FLIP for kind, _seat in _added(s.pending, t.pending)):
        out.append("every seat now decides in secret whether to flip their leader")
    if t.flip_revealed and not s.flip_revealed:
        sides = [
            f"{seat_ref(q)} {'flipped to side B' if t.leader_side[q] else 'kept side A'}" for q in range(t.n)
        ]
        out.append("the leaders are revealed: " + listed(sides))
    if s.stage == 0 and t.stage > 0:
        out.append("the progress track is empty: the round is finished, then every seat takes two turns")
    if t.is_terminal() and not s.is_terminal():
        out.append("the game is over")
    return out


def _added(before: list[list[int]], after: list[list[int]]) -> list[list[int]]:
    """The decisions ``after`` waits for that ``before`` did not."""
    rest = [list(x) for x in before]
    new = []
    for item in after:
        if item in rest:
            rest.remove(item)
        else:
            new.append(item)
    return new


def _solitairix_moved(s: CeltaeBase, t: CeltaeBase) -> bool:
    """Whether Solitairix moved inside this step (a solo human's step that ended the turn)."""
    return bool(t.solo) and t.turn == SOLITAIRIX and bool(t.ctx.sx_moved) and not s.ctx.sx_moved
