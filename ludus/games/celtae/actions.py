"""Celtae decisions as small immutable actions, and their notation.

Every decision of a turn is one ``Act``: a verb and up to two small integer arguments.
Each distinct action exists once (``ACT``), so legal lists are built from cached
instances and ``parse_action`` is a dictionary look-up.

Notation (case-insensitive): ``move 2``, ``anywhere``, ``farm N``, ``build S``,
``battle N``, ``recruit S``, ``refresh``, ``swap F 2``, ``extra``, ``take 3``,
``citadel O``, ``pay Ow``, ``discard Tf``, ``fight``, ``garrison Pw``,
``enlist F``, ``druid``, ``druid N``, ``centre 1``, ``release D``, ``progress 2``, ``flip``, ``keep``,
``leader boudica``, ``done``. Cards are a colour letter (O orange, P pink, U purple,
T teal) and an icon letter (w warrior, t trap, f fortress); workers F B S N D;
market, area and centre positions and progress cards count from 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ludus.engine.action import Action
from ludus.engine.errors import IllegalActionError

COLOUR_LETTERS = "OPUT"
ICON_LETTERS = "wtf"
WORKER_LETTERS = "FBSND"
REGION_LETTERS = "NS"
ACT_VERBS = ("farm", "build", "battle", "recruit")
MAX_PROGRESS_CARDS = 8


def card_name(kind: int) -> str:
    """Notation of a card kind (colour * 3 + icon)."""
    return COLOUR_LETTERS[kind // 3] + ICON_LETTERS[kind % 3]


@dataclass(frozen=True, slots=True, eq=False)
class Act(Action):
    """One Celtae decision: ``verb`` with arguments ``a`` and ``b`` (-1 when unused).

    Equality and hash are written out (not generated): every legality check compares the
    action with the legal ones, which are nearly always the very same cached instances, and
    searches key their trees by actions (the hash is made once).
    """

    verb: str
    a: int = -1
    b: int = -1
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.verb, self.a, self.b)))

    def __reduce__(self) -> tuple[type, tuple[str, int, int]]:
        """Pickled as its fields: another process hashes strings with another seed, so the hash is
        made again there, never carried over."""
        return Act, (self.verb, self.a, self.b)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if other.__class__ is not Act:
            return NotImplemented
        return self.verb == other.verb and self.a == other.a and self.b == other.b  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        text = TEXT.get((self.verb, self.a, self.b))
        return text if text is not None else self._notation()

    def _notation(self) -> str:
        v, a, b = self.verb, self.a, self.b
        if v == "act":
            return f"{ACT_VERBS[a]} {REGION_LETTERS[b]}"
        if v in ("discard", "pay", "garrison"):
            return f"{v} {card_name(a)}"
        if v in ("move",):
            return f"move {a}"
        if v in ("take", "centre", "progress"):
            return f"{v} {a + 1}"
        if v == "swap":
            return f"swap {WORKER_LETTERS[a]} {b + 1}"
        if v in ("enlist", "release"):
            return f"{v} {WORKER_LETTERS[a]}"
        if v == "druid":
            return "druid" if a < 0 else f"druid {WORKER_LETTERS[a]}"
        if v == "citadel":
            return f"citadel {COLOUR_LETTERS[a]}"
        if v == "leader":
            return f"leader {LEADER_NAMES[a].lower()}"
        return v


LEADER_NAMES: list[str] = []


def _universe() -> list[Act]:
    out: list[Act] = [Act("leader", i) for i in range(len(LEADER_NAMES))]
    out += [Act("discard", k) for k in range(12)]
    out += [Act("move", k) for k in (1, 2, 3)]
    out += [Act("anywhere")]
    out += [Act("act", k, r) for r in (0, 1) for k in range(4)]
    out += [Act("refresh"), Act("done")]
    out += [Act("swap", t, i) for t in range(4) for i in range(3)]
    out += [Act("extra")]
    out += [Act("take", i) for i in range(6)]
    out += [Act("citadel", c) for c in range(4)]
    out += [Act("pay", k) for k in range(12)]
    out += [Act("fight")]
    out += [Act("garrison", k) for k in range(12)]
    out += [Act("enlist", t) for t in range(4)]
    out += [Act("druid", t) for t in (-1, 0, 1, 2, 3)]
    out += [Act("centre", i) for i in range(3)]
    out += [Act("release", t) for t in range(5)]
    out += [Act("progress", i) for i in range(MAX_PROGRESS_CARDS)]
    out += [Act("flip"), Act("keep")]
    return out


ALL: list[Act] = []
BY_TEXT: dict[str, Act] = {}
ACT: dict[tuple, Act] = {}
TEXT: dict[tuple, str] = {}  # (verb, a, b) -> notation, for every action of the universe


def init(leader_names: list[str]) -> None:
    """Build the action universe once the leader names are known (from data)."""
    if ALL:
        return
    LEADER_NAMES.extend(leader_names)
    ALL.extend(_universe())
    for a in ALL:
        text = a._notation()
        BY_TEXT[text.lower()] = a
        ACT[(a.verb, a.a, a.b)] = a
        TEXT[(a.verb, a.a, a.b)] = text


def parse(text: str) -> Act:
    """Notation to the cached Act; anything else raises IllegalActionError saying why."""
    if not isinstance(text, str):
        raise IllegalActionError(f"{text!r} is not Celtae notation: expected a string")
    key = " ".join(text.split()).lower()
    act = BY_TEXT.get(key)
    if act is None:
        verbs = sorted({s.split()[0] for s in BY_TEXT})
        raise IllegalActionError(
            f"{text!r} is not Celtae notation; an action starts with one of: {', '.join(verbs)} "
            "(e.g. 'move 2', 'farm N', 'swap F 2', 'take 3', 'pay Ow', 'done')"
        )
    return act
