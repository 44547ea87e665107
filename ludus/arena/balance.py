"""A balance study of every configuration of a game: the games played, resumably, for ``balance_page``.

A designer's question "is it balanced?" is asked of every setup the box allows: each player count and
each choice of the compared options (board, variant, difficulty), read from the game's declared
options, so a new game needs no change here. Every configuration plays ``games`` games between equal
bots (one spec in every seat) and, for the default setup of each player count, ``search_games`` games
of a search bot, whose figures check that a finding is the game's and not one bot's style.

The games are streamed to a JSON-lines journal per game, bot and configuration under ``results``, in
rounds of growing size over all games and configurations (a hundredth of the target for all, then a
fortieth, ...),
so that a study stopped at any time has comparable counts everywhere, and a second run with the same
seed reads back the games already played and plays only the rest. ``finished`` reads what a journal
holds without playing (the page is written from it; ``with_facts`` replays a game journaled before its
game reported facts, for them).
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import load_game
from ..engine.data import DataFiles
from ..engine.errors import OptionError
from ..engine.hooks import hook
from ..engine.record import replay
from ..engine.registry import game_class
from .report import COMPARED, journal_name
from .simulate import lineup, simulate
from .study import read_journal

AXES = ("players", *COMPARED)
"""The options a balance study plays every choice of (the other options keep their defaults)."""

ROUNDS = (0.01, 0.025, 0.05, 0.125, 0.25, 0.5, 1.0)
"""The shares of the target played over every configuration in turn."""


@dataclass(frozen=True)
class Study:
    """What a balance study of one game plays: every configuration, bots, counts, seed, folders."""

    game: str
    bot: str = "greedy"
    games: int = 2000
    search_bot: str = "ismcts"
    search_games: int = 100
    seed: int = 0
    results: Path = Path("balance-results")
    data: DataFiles | None = None
    configs: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.configs:
            object.__setattr__(self, "configs", configurations(self.game, self.data))

    @property
    def search_configs(self) -> list[dict[str, Any]]:
        """The configurations the search bot plays: the default setup of each player count."""
        return [c for c in self.configs if is_default_setup(self.game, c, self.data)]

    def journal(self, bot: str, config: dict[str, Any]) -> Path:
        """The file a configuration's games by ``bot`` are streamed to (and resumed from)."""
        return self.results / self.game / slug(bot) / journal_name(config)

    def runs(self) -> list[tuple[str, int, list[dict[str, Any]]]]:
        """``(bot, target games, configurations)`` of each bot the study plays (a count of 0 plays none)."""
        out = [(self.bot, self.games, self.configs)]
        if self.search_games > 0:
            out.append((self.search_bot, self.search_games, self.search_configs))
        return out


def slug(text: str) -> str:
    """``text`` as a file or folder name (a bot spec's ``:`` and ``=`` and the like become ``-``)."""
    return re.sub(r"[^A-Za-z0-9_.]+", "-", text).strip("-") or "x"


def config_label(config: dict[str, Any]) -> str:
    """The options of a configuration that a balance study varies, as ``key=value`` words."""
    return " ".join(f"{k}={v}" for k, v in config.items() if k in AXES and v is not None)


def configurations(game: str, data: DataFiles | None = None) -> list[dict[str, Any]]:
    """Every valid configuration over the choices of the game's ``AXES`` options, each once (as the game
    completes it: two choices the game makes the same, e.g. no difficulty and the default one, are one)."""
    axes = [o for o in game_class(game).options if o.name in AXES]
    seen: dict[str, dict[str, Any]] = {}
    for combo in itertools.product(*(o.choices for o in axes)):
        try:
            config = dict(
                load_game(game, data=data, **{o.name: c for o, c in zip(axes, combo, strict=True)}).config
            )
        except OptionError:
            continue
        seen.setdefault(json.dumps(config, sort_keys=True), config)
    return list(seen.values())


def is_default_setup(game: str, config: dict[str, Any], data: DataFiles | None = None) -> bool:
    """Whether ``config`` is the game's default for its player count (the compared options as they come)."""
    given = {"players": config["players"]} if "players" in config else {}
    return dict(load_game(game, data=data, **given).config) == config


def play(
    studies: Sequence[Study],
    jobs: int | None = None,
    progress: bool = False,
    rounds: Sequence[float] = ROUNDS,
) -> dict[str, int]:
    """Play what the studies' journals still lack, round by round over every game and configuration (so
    that a study stopped at any time has like counts everywhere; in each round the study's bot in every
    game, then the slower search bot); the games played, by game."""
    before = {s.game: sum(map(len, load_all(s).values())) for s in studies}
    for share in rounds:
        for run, study in [(run, study) for run in (0, 1) for study in studies]:  # the fast bot first
            facts = hook(study.game, "report_facts")
            for bot, target, configs in study.runs()[run : run + 1]:
                for config in configs:
                    simulate(
                        study.game,
                        config,
                        [bot],
                        max(1, math.ceil(share * target)),
                        jobs=jobs,
                        seed=study.seed,
                        progress=progress,
                        facts=facts,
                        out=study.journal(bot, config),
                        data=study.data,
                    )
    return {s.game: sum(map(len, load_all(s).values())) - before[s.game] for s in studies}


def finished(study: Study, bot: str, target: int, config: dict[str, Any]) -> list[dict[str, Any]]:
    """The games of one configuration already in its journal, in game order: only those the study would
    play (game index below ``target``, same seed, seats and data), so a stale journal adds nothing."""
    path = study.journal(bot, config)
    if not path.exists():
        return []
    master = random.Random(study.seed)
    seeds = [master.getrandbits(63) for _ in range(target)]
    tag = study.data.tag if study.data is not None else None
    kept: dict[int, dict[str, Any]] = {}
    for record in read_journal(path):
        i = record["index"]
        if (
            i < target
            and record.get("seed") == seeds[i]
            and record.get("config") == config
            and record.get("data") == tag
            and record.get("seats") == lineup([bot], len(record.get("scores") or ()), i)
        ):
            kept[i] = record
    return [kept[i] for i in sorted(kept)]


def load_all(study: Study) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Every configuration's finished games, by ``(bot, journal name)``."""
    return {
        (bot, journal_name(config)): finished(study, bot, target, config)
        for bot, target, configs in study.runs()
        for config in configs
    }


def with_facts(game: str, records: Iterable[dict[str, Any]], data: DataFiles | None) -> list[dict[str, Any]]:
    """The records, each with ``facts`` where the game reports them (its ``report_facts`` hook): a record
    from a journal made before the game had the hook gets them from its final state, replayed."""
    facts = hook(game, "report_facts")
    if facts is None:
        return list(records)
    return [r if "facts" in r else {**r, "facts": facts(replay(r, data=data))} for r in records]


def with_first(game: str, records: Iterable[dict[str, Any]], data: DataFiles | None) -> list[dict[str, Any]]:
    """The records, each with ``first``: the seat that takes its deal's first decision (re-created from the
    seed), for the tables by place in turn order."""
    out = []
    cache: dict[str, Any] = {}
    for r in records:
        key = json.dumps(r["config"], sort_keys=True)
        if key not in cache:
            cache[key] = load_game(game, data=data, **r["config"])
        out.append({**r, "first": cache[key].new_initial_state(seed=r["seed"]).current_player()})
    return out
