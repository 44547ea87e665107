"""Names people can read: what a display name needs beyond its length and characters, and when two
names read the same.

A name shows at least two letters or digits, stacks at most two combining marks on a character,
holds no invisible filler, and does not read as a bot's or a strength level's name. Two names read
the same when their letters and digits match after NFKC, case folding and folding letters that look
alike (Unicode's confusables, from ``confusable_homoglyphs``): 'Ann', 'ANN', 'Аnn' (Cyrillic А)
and 'A.nn' are one name at a table.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

from .. import bots

MIN_VISIBLE = 2  # letters or digits a name shows
MAX_MARKS = 2  # combining marks on one character
# Characters that show nothing although they count as letters or symbols: the Hangul fillers, the
# blank Braille pattern, the Khmer inherent vowels, the Khitan filler.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\U00016fe4")
# words that say "bot" around a bot's name: 'greedy (bot)', 'Expert CPU', 'Robot' alone
BOT_WORDS = ("bot", "bots", "robot", "robots", "cpu", "computer", "level")
_CLASS_MOST = 256  # the confusables of one character, followed transitively: a bound, never reached


def readable(text: str) -> None:
    """Raise ValueError saying why ``text`` (a trimmed, NFC display name) is not a name people can read."""
    hidden = next((c for c in text if c in INVISIBLE), None)
    if hidden is not None:
        raise ValueError(
            f"a display name may not hold invisible characters "
            f"(U+{ord(hidden):04X} {unicodedata.name(hidden, '')} shows nothing)"
        )
    run = 0
    for c in text:
        run = run + 1 if unicodedata.category(c)[0] == "M" else 0
        if run > MAX_MARKS:
            raise ValueError(f"a display name stacks at most {MAX_MARKS} combining marks on one character")
    visible = sum(unicodedata.category(c)[0] in "LN" for c in text)
    if visible < MIN_VISIBLE:
        raise ValueError(f"a display name shows at least {MIN_VISIBLE} letters or digits, not {visible}")
    bot = imitated_bot(text)
    if bot is not None:
        raise ValueError(
            f"{text!r} reads as {bot!r}, a bot's or a level's name: a person's name may not look like one"
        )


def reading(name: str) -> frozenset[str]:
    """What ``name`` reads as: its letters and digits after NFKC, confusables folded and case folded.
    Two spellings, folded before and after case folding ('I' looks like 'l' but is the letter 'i');
    two names read the same when they share one."""
    text = unicodedata.normalize("NFKC", name)
    return frozenset({_letters(_fold(text.casefold())), _letters(_fold(text).casefold())})


def same_reading(a: str, b: str) -> bool:
    """Whether names ``a`` and ``b`` read the same (``reading``)."""
    return not reading(a).isdisjoint(reading(b))


def imitated_bot(name: str) -> str | None:
    """The bot or level whose name ``name`` reads as, with or without words like 'bot' around it
    ('greedy (bot)', 'Ｇｒｅｅｄｙ', 'Robot'); None if none."""
    known, words = _bots()
    for key in reading(name):
        core = _strip(key, words)
        if key and core in known:
            return known[core]
    return None


@lru_cache(maxsize=1)
def _bots() -> tuple[dict[str, str], tuple[str, ...]]:
    """The readings of every bot and level name (each to its name; '' to 'bot'), and of the bot words."""
    known = {"": "bot"}
    for name in [*bots.names(), *bots.levels()]:
        known.update(dict.fromkeys(reading(name), name))
    words = {key for word in BOT_WORDS for key in reading(word)}
    return known, tuple(sorted(words, key=len, reverse=True))


def _strip(key: str, words: tuple[str, ...]) -> str:
    """``key`` without the bot words at its start and end."""
    changed = True
    while changed:
        changed = False
        for word in words:
            if key.startswith(word):
                key, changed = key[len(word) :], True
            if key.endswith(word):
                key, changed = key[: -len(word)], True
    return key


def _letters(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c)[0] in "LN" and c not in INVISIBLE)


def _fold(text: str) -> str:
    return "".join(_prototype(c) for c in text)


@lru_cache(maxsize=4096)
def _prototype(char: str) -> str:
    """The one character that stands for every character confusable with ``char`` (the lowest of them,
    e.g. 'a' for Cyrillic 'а'; '1' for 'l', 'I' and '|')."""
    seen, todo = {char}, [char]
    while todo and len(seen) < _CLASS_MOST:
        for found in confusables.is_confusable(todo.pop(), greedy=True) or ():
            for glyph in found["homoglyphs"]:
                other = glyph["c"]
                if len(other) == 1 and other not in seen:  # one character for one: 'rn' for 'm' is not
                    seen.add(other)
                    todo.append(other)
    return min(seen)
