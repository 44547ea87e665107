"""Celtae component facts, read once from ``data/*.json`` (or a folder of one's own: ``DataFiles``)
and checked at load.

Rule code reads these values only; a user who owns the game corrects a reconstructed
value by editing its data file. A malformed file fails with a DataFileError naming the
file and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from ludus.engine.data import DataFiles, fields_reduced, load_data, require
from ludus.engine.errors import DataFileError

DATA_DIR = Path(__file__).parent / "data"
PACKAGE = "ludus.games.celtae:data"

WORKER_NAMES = ("farmer", "builder", "soldier", "noble", "druid")
ACTION_NAMES = ("farm", "build", "battle", "recruit")
SWAP_NAMES = ("refresh", "left", "middle", "right")
PROGRESS_KINDS = (
    "colour_maj",
    "colour_min",
    "region_maj",
    "bonus_min",
    "worker_maj",
    "druid_workers_min",
    "workers_maj",
    "workers_min",
    "bonus_maj",
    "druid_tiles_min",
    "druid_tiles_maj",
    "roman_min",
    "roman_maj",
    "garrison_min",
)
LEADER_KINDS = (
    "roman_by_points",
    "cubes",
    "druid_by_points",
    "discs_by_region",
    "tribe_nondruid",
    "bonus_tiles",
    "discs",
)
COUNTS = ("1", "2", "3", "4")


class ProgressCard(NamedTuple):
    """A progress card: ``kind`` (one of PROGRESS_KINDS) about ``arg`` (a colour, region or worker
    type; -1 when none), met at ``need``; ``slots`` markers fit on it."""

    kind: str
    arg: int
    need: int
    slots: int


class RomanTile(NamedTuple):
    """A Roman Army tile: its ``points``, and the ``strength`` a player gives up to defeat it."""

    points: int
    strength: int


class DruidTile(NamedTuple):
    """A Druid Order tile: its ``points``, the workers it ``needs`` per type (F, B, S, N), and how
    many more of any type (``wild``)."""

    points: int
    needs: tuple[int, ...]
    wild: int


@dataclass(frozen=True)
class CeltaeData:
    """Every component value the rules use, as plain tuples and ints."""

    colours: tuple[str, ...]
    icons: tuple[str, ...]
    copies: int
    market_size: int
    market_costs: tuple[int, ...]
    hand_deal: int
    setup_discard: int
    citadel_spaces: int
    citadel_blocked: dict[int, int]
    bonus_kinds: tuple[str, ...]
    tokens_total: int
    tokens_start: int
    strength_gain: int
    draw_count: int
    bonus_tile_points: int
    disc_costs: tuple[int, ...]
    disc_point_holes: tuple[int, ...]
    tribe_size: int
    tribe_point_spaces: tuple[int, ...]
    strength_max: int
    cubes: int
    move_strength: tuple[int, int, int]
    refresh_cost: int
    soldier_cap: int
    recruit_max: int
    workers: tuple[int, ...]
    area_setup: tuple[tuple[int, ...], ...]
    roman_tiles: tuple[RomanTile, ...]
    roman_stack: dict[int, tuple[int, int]]
    druid_tiles: tuple[DruidTile, ...]
    druid_stack: dict[int, tuple[int, int]]
    druid_workers: dict[int, int]
    garrison_per_icon: int
    garrison_blocked: dict[int, tuple[int, ...]]
    progress_cards: tuple[ProgressCard, ...]
    track: dict[int, int]
    dealt: dict[int, tuple[int, int]]
    flip_at: int
    solo_workers_min: int
    solo_type_min: int
    leaders: tuple[dict[str, Any], ...]
    solo_offered: int
    solo_sides: tuple[tuple[tuple[tuple[int, ...], int, tuple[int, ...]], ...], ...]
    targets: dict[str, int]

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return fields_reduced(self)


def _fail(path: Path, msg: str) -> DataFileError:
    return DataFileError(f"{path}: {msg}")


def _names(path: Path, data: dict, key: str) -> tuple[str, ...]:
    value = require(path, data, key, list)
    if not value or not all(isinstance(x, str) for x in value):
        raise _fail(path, f"{key!r} must be a non-empty list of names")
    return tuple(value)


def _ints(
    path: Path, data: dict, key: str, length: int | None = None, lo: int | None = None
) -> tuple[int, ...]:
    value = require(path, data, key, list)
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in value):
        raise _fail(path, f"{key!r} must be a list of integers, got {value!r}")
    if length is not None and len(value) != length:
        raise _fail(path, f"{key!r} must have {length} entries, got {len(value)}")
    if lo is not None and any(x < lo for x in value):
        raise _fail(path, f"{key!r} entries must be >= {lo}, got {value!r}")
    return tuple(value)


def _pos(path: Path, data: dict, key: str) -> int:
    value = require(path, data, key, int)
    if value < 0:
        raise _fail(path, f"{key!r} must be >= 0, got {value}")
    return value


def _by_count(path: Path, data: dict, key: str, conv) -> dict[int, Any]:
    value = require(path, data, key, dict)
    missing = [c for c in COUNTS if c not in value]
    if missing:
        raise _fail(path, f"{key!r} lacks player counts {', '.join(missing)}")
    try:
        return {int(c): conv(value[c]) for c in COUNTS}
    except (TypeError, ValueError, IndexError) as exc:
        raise _fail(path, f"{key!r} has a bad entry: {exc}") from None


# Set-up step 6: the druid-track spaces left empty by player count (solo is set up as 2 players).
_DRUID_ICONS_LEFT_EMPTY = {1: ("north", "south"), 2: ("north", "south"), 3: ("south",), 4: ()}


def _druids_per_region(path: Path, track: list) -> dict[int, int]:
    """Druid workers placed on each region's track, by player count (set-up step 6)."""
    if any(icon not in ("", "north", "south") for icon in track):
        raise _fail(path, f"druid track spaces show '', 'north' or 'south', got {track!r}")
    return {n: sum(icon not in empty for icon in track) for n, empty in _DRUID_ICONS_LEFT_EMPTY.items()}


def _pair(x: Any) -> tuple[int, int]:
    if not (isinstance(x, list) and len(x) == 2 and all(isinstance(i, int) and i >= 0 for i in x)):
        raise ValueError(f"{x!r} is not a pair of counts")
    return (x[0], x[1])


def _is_count(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def _count(x: Any) -> int:
    if not isinstance(x, int) or isinstance(x, bool) or x < 0:
        raise ValueError(f"{x!r} is not a count")
    return x


def load(source: Path | DataFiles = DATA_DIR) -> CeltaeData:
    """Read and check every Celtae data file: of the folder ``source``, or of ``DataFiles``.

    A value of the wrong form that a reader's own checks miss still fails naming its file."""
    fields: dict[str, Any] = {}
    for name, read in _READERS:
        if isinstance(source, DataFiles):
            path, values = source.where(name), source.values(name)
        else:
            path = source / name
            values = load_data(path)
        try:
            fields.update(read(path, values, fields))
        except DataFileError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise _fail(
                path, f"a value is not of the form the rules read ({type(exc).__name__}: {exc})"
            ) from None
    return CeltaeData(**fields)


def _cards(p: Path, cards: dict[str, Any], _got: dict[str, Any]) -> dict[str, Any]:
    colours = _names(p, cards, "colours")
    icons = _names(p, cards, "icons")
    if len(colours) != 4 or len(icons) != 3:
        raise _fail(p, "the rules need 4 colours and 3 icons")
    copies = _pos(p, cards, "copies")
    if copies * 12 != require(p, cards, "total", int):
        raise _fail(p, f"colours x icons x copies = {copies * 12}, but 'total' says {cards['total']}")
    market_size = _pos(p, cards, "market_size")
    return {
        "colours": colours,
        "icons": icons,
        "copies": copies,
        "market_size": market_size,
        "market_costs": _ints(p, cards, "market_costs", market_size, 0),
        "hand_deal": _pos(p, cards, "hand_deal"),
        "setup_discard": _pos(p, cards, "setup_discard"),
    }


def _citadels(p: Path, cit: dict[str, Any], _got: dict[str, Any]) -> dict[str, Any]:
    spaces = _pos(p, cit, "spaces")
    blocked = _by_count(p, cit, "blocked", _count)
    if any(b >= spaces for b in blocked.values()):
        raise _fail(p, "a citadel must keep at least one open space")
    return {"citadel_spaces": spaces, "citadel_blocked": blocked}


def _bonus(p: Path, bonus: dict[str, Any], _got: dict[str, Any]) -> dict[str, Any]:
    bonus_kinds = _names(p, bonus, "kinds")
    if sorted(bonus_kinds) != sorted(("token", "recruit", "draw", "strength")):
        raise _fail(p, f"'kinds' must be token, recruit, draw and strength, got {bonus_kinds}")
    return {
        "bonus_kinds": bonus_kinds,
        "tokens_total": _pos(p, bonus, "tokens_total"),
        "tokens_start": _pos(p, bonus, "tokens_start"),
        "strength_gain": _pos(p, bonus, "strength_gain"),
        "draw_count": _pos(p, bonus, "draw_count"),
        "bonus_tile_points": _pos(p, bonus, "tile_points"),
    }


def _board(p: Path, board: dict[str, Any], _got: dict[str, Any]) -> dict[str, Any]:
    workers = require(p, board, "workers", dict)
    if sorted(workers) != sorted(WORKER_NAMES) or not all(_is_count(n) for n in workers.values()):
        raise _fail(p, f"'workers' must count {', '.join(WORKER_NAMES)}, each a whole number >= 0")
    area_setup = require(p, board, "area_setup", list)
    if len(area_setup) != 5 or any(not isinstance(a, list) or len(a) != 3 for a in area_setup):
        raise _fail(p, "'area_setup' must list 3 spaces for each of the 4 areas and the centre")
    try:
        areas = tuple(tuple(-1 if w is None else WORKER_NAMES.index(w) for w in a) for a in area_setup)
    except ValueError as exc:
        raise _fail(p, f"'area_setup' names an unknown worker type: {exc}") from None
    move = _ints(p, board, "move_strength", 3)
    return {
        "disc_costs": _ints(p, board, "disc_costs", None, 1),
        "disc_point_holes": _ints(p, board, "disc_point_holes", None, 1),
        "tribe_size": _pos(p, board, "tribe_size"),
        "tribe_point_spaces": _ints(p, board, "tribe_point_spaces", None, 1),
        "strength_max": _pos(p, board, "strength_max"),
        "cubes": _pos(p, board, "cubes"),
        "move_strength": (move[0], move[1], move[2]),
        "refresh_cost": _pos(p, board, "refresh_cost"),
        "soldier_cap": _pos(p, board, "soldier_cap"),
        "recruit_max": _pos(p, board, "recruit_max"),
        "workers": tuple(workers[w] for w in WORKER_NAMES),
        "area_setup": areas,
    }


def _roman(p: Path, roman: dict[str, Any], _got: dict[str, Any]) -> dict[str, Any]:
    rtiles = require(p, roman, "tiles", list)
    try:
        roman_tiles = tuple(RomanTile(int(t["points"]), int(t["strength"])) for t in rtiles)
    except (TypeError, KeyError, ValueError) as exc:
        raise _fail(p, f"each tile needs integer 'points' and 'strength': {exc!r}") from None
    roman_stack = _by_count(p, roman, "stack", _pair)
    _check_stacks(p, roman_stack, [t.points for t in roman_tiles])
    return {"roman_tiles": roman_tiles, "roman_stack": roman_stack}


def _druid_tile(p: Path, t: Any) -> DruidTile:
    """One druid tile of the data file."""
    if (
        not isinstance(t, dict)
        or not isinstance(t.get("needs"), list)
        or not isinstance(t.get("points"), int)
    ):
        raise _fail(p, f"each druid tile needs 'points' and a list 'needs', got {t!r}")
    needs = [0, 0, 0, 0]
    wild = 0
    for w in t["needs"]:
        if w == "any":
            wild += 1
        elif w in WORKER_NAMES[:4]:
            needs[WORKER_NAMES.index(w)] += 1
        else:
            raise _fail(p, f"druid tile needs unknown worker {w!r}")
    return DruidTile(t["points"], tuple(needs), wild)


def _druids(p: Path, dr: dict[str, Any], got: dict[str, Any]) -> dict[str, Any]:
    dtiles = tuple(_druid_tile(p, t) for t in require(p, dr, "tiles", list))
    druid_stack = _by_count(p, dr, "stack", _pair)
    _check_stacks(p, druid_stack, [t.points for t in dtiles])
    druid_workers = _druids_per_region(p, require(p, dr, "track", list))
    if any(2 * n > got["workers"][WORKER_NAMES.index("druid")] for n in druid_workers.values()):
        raise _fail(p, "more druid workers placed than exist")
    return {"druid_tiles": dtiles, "druid_stack": druid_stack, "druid_workers": druid_workers}


def _garrisons(p: Path, gar: dict[str, Any], got: dict[str, Any]) -> dict[str, Any]:
    per_icon = _pos(p, gar, "spaces_per_icon")
    icons = got["icons"]

    def icon_list(x: Any) -> tuple[int, ...]:
        out = tuple(icons.index(i) for i in x)
        if any(out.count(i) > per_icon for i in out):
            raise ValueError("more blocked spaces than spaces")
        return out

    return {"garrison_per_icon": per_icon, "garrison_blocked": _by_count(p, gar, "blocked", icon_list)}


def _progress(p: Path, prog: dict[str, Any], _got: dict[str, Any]) -> dict[str, Any]:
    pcards = []
    for c in require(p, prog, "cards", list):
        if (
            not isinstance(c, dict)
            or c.get("kind") not in PROGRESS_KINDS
            or c.get("slots") not in (2, 3)
            or not all(type(c.get(k, 0)) is int for k in ("arg", "need"))
        ):
            raise _fail(
                p,
                f"'cards': bad progress card {c!r}: kind must be one of {PROGRESS_KINDS}, slots 2 or 3, "
                "arg and need whole numbers",
            )
        pcards.append(ProgressCard(c["kind"], int(c.get("arg", -1)), int(c.get("need", 1)), c["slots"]))
    track = _by_count(p, prog, "track", _count)
    dealt = _by_count(p, prog, "dealt", _pair)
    two = sum(1 for c in pcards if c.slots == 2)
    for n in (1, 2, 3, 4):
        if dealt[n][0] > two or dealt[n][1] > len(pcards) - two:
            raise _fail(p, f"more progress cards dealt for {n} players than exist")
        if dealt[n][0] * 2 + dealt[n][1] * 3 < track[n]:
            raise _fail(p, f"fewer progress slots than track markers for {n} players")
    return {
        "progress_cards": tuple(pcards),
        "track": track,
        "dealt": dealt,
        "flip_at": _pos(p, prog, "flip_at"),
        "solo_workers_min": _pos(p, prog, "solo_workers_min"),
        "solo_type_min": _pos(p, prog, "solo_type_min"),
    }


def _leaders(p: Path, lead: dict[str, Any], _got: dict[str, Any]) -> dict[str, Any]:
    leaders = require(p, lead, "leaders", list)
    for ld in leaders:
        for side in ("A", "B"):
            s = ld.get(side) if isinstance(ld, dict) else None
            if (
                not isinstance(s, dict)
                or s.get("kind") not in LEADER_KINDS
                or not isinstance(s.get("need"), list)
            ):
                raise _fail(
                    p,
                    f"'leaders': leader {ld!r} side {side} needs a kind in {LEADER_KINDS} and a list 'need'",
                )
    return {"leaders": tuple(leaders), "solo_offered": _pos(p, lead, "solo_offered")}


def _solo_quarter(p: Path, q: Any, market_size: int) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """(actions in priority, swap, market positions discarded) of one quarter of a solo tile side."""
    try:
        acts = tuple(ACTION_NAMES.index(a) for a in q["actions"])
        swap = SWAP_NAMES.index(q["swap"])
        disc = tuple(int(i) - 1 for i in q["discards"])
    except (KeyError, TypeError, ValueError) as exc:
        raise _fail(p, f"bad solo quarter {q!r}: {exc!r}") from None
    if not acts or acts[-1] != 0:
        raise _fail(p, f"solo quarter {q!r} must end with farm (always possible)")
    if any(not 0 <= i < market_size for i in disc):
        raise _fail(p, f"solo quarter {q!r} discards a position outside the market")
    return (acts, swap, disc)


def _solo(p: Path, solo: dict[str, Any], got: dict[str, Any]) -> dict[str, Any]:
    sides = []
    for side in require(p, solo, "sides", list):
        if not isinstance(side, list) or len(side) != 4:
            raise _fail(p, "each solo tile side must have 4 quarters")
        sides.append(tuple(_solo_quarter(p, q, got["market_size"]) for q in side))
    targets = require(p, solo, "targets", dict)
    if sorted(targets) != ["easy", "hard", "normal"] or not all(_is_count(n) for n in targets.values()):
        raise _fail(p, "'targets' must give easy, normal and hard, each a whole number of points >= 0")
    return {"solo_sides": tuple(sides), "targets": dict(targets)}


def _check_stacks(path: Path, stacks: dict[int, tuple[int, int]], points: list[int]) -> None:
    for n, (one, two) in stacks.items():
        if 2 * one > points.count(1) or 2 * two > points.count(2):
            raise _fail(path, f"the stacks for {n} players need more tiles than exist")


_READERS = (
    ("cards.json", _cards),
    ("citadels.json", _citadels),
    ("bonus.json", _bonus),
    ("board.json", _board),
    ("roman.json", _roman),
    ("druids.json", _druids),
    ("garrisons.json", _garrisons),
    ("progress.json", _progress),
    ("leaders.json", _leaders),
    ("solo.json", _solo),
)

_CACHE: dict[Path | DataFiles, CeltaeData] = {}


def get(source: Path | DataFiles = DATA_DIR) -> CeltaeData:
    """The loaded data, read once per directory, or per ``DataFiles`` (which hash by their values)."""
    if source not in _CACHE:
        _CACHE[source] = load(source)
    return _CACHE[source]
