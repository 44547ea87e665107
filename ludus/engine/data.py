"""Component data files: every value carries its provenance, and each file can be replaced by one's own.

A data value is written ``{"value": ..., "provenance": "rulebook"|"review"|"reconstructed",
"note": "..."}`` so that a user who owns the physical game can correct a reconstructed value.
``load_data`` checks the tags and returns the bare values.

A game declares where its own files are (``Game.data_package``, ``"package:folder"``); the files it
plays with are a ``DataFiles``: the package's, each replaced by the file of the same name in a folder
of one's own (``load_game(name, data=FOLDER)``, ``--data FOLDER``). Data is named by a hash of its
values (``DataFiles.digest``: notes and provenance tags left out), so that a record or a study made
under other data says so, and games cache what they build from data by that hash, never by a folder
or a game name alone: one folder's values never reach a game played with another's.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Union

from .errors import DataFileError, OptionError

PROVENANCES = ("rulebook", "review", "reconstructed")
DATA_ENV = "LUDUS_DATA"
"""A folder every game of the process plays with when none is named (``ludus serve --data`` sets it,
so that the server's worker processes play with it too)."""
PRINTED = "the printed components"


def parse_data(text: str, where: Path | str) -> dict[str, Any]:
    """A data file's text checked and stripped of its provenance tags; fail naming the file and the key."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataFileError(f"{where}: not valid JSON: {exc}") from None
    if not isinstance(raw, dict):
        raise DataFileError(f"{where}: the top level must be an object")
    out: dict[str, Any] = {}
    for key, entry in raw.items():
        if key.startswith("_"):  # comments and file-level notes
            continue
        if not isinstance(entry, dict) or "value" not in entry:
            raise DataFileError(f"{where}: {key!r} must be an object with 'value' and 'provenance'")
        prov = entry.get("provenance")
        if prov not in PROVENANCES:
            raise DataFileError(
                f"{where}: {key!r} has provenance {prov!r}; expected one of {', '.join(PROVENANCES)}"
            )
        out[key] = entry["value"]
    return out


def _read_text(path: Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataFileError(f"{path}: data file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(f"{path}: cannot be read: {getattr(exc, 'strerror', None) or exc}") from None


def load_data(path: Path) -> dict[str, Any]:
    """Load a data file and strip provenance tags; fail naming the file and the key."""
    return parse_data(_read_text(path), path)


def provenance(path: Path) -> dict[str, str]:
    """The provenance tag of every value in a data file (for reports and docs)."""
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    return {k: v["provenance"] for k, v in raw.items() if not k.startswith("_")}


def require(path: Path, data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """Fetch ``data[key]`` and check its type, naming the file when it is wrong."""
    if key not in data:
        raise DataFileError(f"{path}: missing value {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise DataFileError(f"{path}: {key!r} must be {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


# -- a game's files ----------------------------------------------------------------------------


@cache
def package_dir(package: str) -> Path:
    """The folder a ``"package:folder"`` names (a game's own data files)."""
    module, _, sub = package.partition(":")
    found = Path(str(resources.files(module).joinpath(sub)))
    if not found.is_dir():
        raise DataFileError(f"{package}: the game's data folder {found} does not exist")
    return found


@cache
def _package_names(package: str) -> tuple[str, ...]:
    return tuple(sorted(p.name for p in package_dir(package).glob("*.json")))


@cache
def _package_text(package: str, name: str) -> str:
    return _read_text(package_dir(package) / name)


class DataFiles:
    """The data files one game plays with: its package's (``package``, ``"module:folder"``), each
    replaced by a text of ``replaced`` (file name -> its text, read from ``folder``).

    Pickled as its package's name and the replacing texts (never a path of this machine), so that
    worker processes and Ray workers elsewhere play with the same data. Equal, and hashed alike, when
    the values are the same.
    """

    def __init__(self, package: str, replaced: Mapping[str, str] | None = None, folder: str | None = None):
        self.package = package
        self.replaced = dict(replaced or {})
        self.folder = folder
        self._values: dict[str, dict[str, Any]] = {}
        unknown = sorted(set(self.replaced) - set(self.names()))
        if unknown:
            raise DataFileError(f"{folder}: no data file of that name to replace: {', '.join(unknown)}")

    @classmethod
    def from_folder(
        cls, package: str, folder: str | os.PathLike[str], game: str, strict: bool = True
    ) -> DataFiles:
        """The package's files, each replaced by ``folder``'s file of the same name, read and checked now.

        ``strict``: a folder holding none of the game's files is refused (it is surely not the one
        meant); else the game plays with its package's files.
        """
        where = Path(folder)
        if not where.is_dir():
            raise DataFileError(f"{folder}: no such data folder")
        names = _package_names(package)
        replaced = {name: _read_text(where / name) for name in names if (where / name).is_file()}
        if strict and not replaced:
            raise DataFileError(f"{folder}: holds none of {game}'s data files ({', '.join(names)})")
        files = cls(package, replaced, str(where))
        for name in replaced:
            files.values(name)  # every file checked at once, naming it
        return files

    @staticmethod
    @cache
    def of_package(package: str) -> DataFiles:
        """The package's own files (one object per process)."""
        return DataFiles(package)

    def names(self) -> tuple[str, ...]:
        """The names of the game's data files (the package's)."""
        return _package_names(self.package)

    def where(self, name: str) -> Path:
        """The file ``name`` is read from: the folder's, or the package's."""
        if name in self.replaced and self.folder is not None:
            return Path(self.folder) / name
        return package_dir(self.package) / name

    def text(self, name: str) -> str:
        if name in self.replaced:
            return self.replaced[name]
        if name not in self.names():
            raise DataFileError(f"{self.package}: no data file {name}")
        return _package_text(self.package, name)

    def values(self, name: str) -> dict[str, Any]:
        """The file's values, provenance checked (``load_data``); read once."""
        found = self._values.get(name)
        if found is None:
            found = self._values[name] = parse_data(self.text(name), self.where(name))
        return found

    @cached_property
    def digest(self) -> str:
        """A hash of every value in effect (notes and provenance tags left out)."""
        canonical = {name: self.values(name) for name in self.names()}
        text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def printed(self) -> bool:
        """Whether these are the package's values (a folder that changes nothing is)."""
        return not self.replaced or self.digest == DataFiles.of_package(self.package).digest

    @property
    def tag(self) -> str | None:
        """What a record holds of its data: None for the package's values, else their hash."""
        return None if self.printed else self.digest

    @property
    def label(self) -> str:
        """The data as people read it: ``data <hash>``, or the printed components."""
        return PRINTED if self.printed else f"data {self.digest}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DataFiles):
            return NotImplemented
        return self.package == other.package and self.digest == other.digest

    def __hash__(self) -> int:
        return hash((self.package, self.digest))

    def __reduce__(self) -> tuple[Any, ...]:
        return (DataFiles, (self.package, self.replaced, self.folder))

    def __repr__(self) -> str:
        return f"DataFiles({self.package!r}, folder={self.folder!r}, {self.label})"


DataSource = Union[str, "os.PathLike[str]", DataFiles, None]


def game_data(game: str, package: str | None, data: DataSource = None) -> DataFiles | None:
    """The data files game ``game`` (its files in ``package``) plays with: ``data`` (a folder, or a
    ``DataFiles``), else the folder ``LUDUS_DATA`` names, else the package's. None for a game
    without data files."""
    if package is None:
        if data is not None:
            raise OptionError(f"{game} has no data files to replace")
        return None
    if isinstance(data, DataFiles):
        if data.package != package:
            raise OptionError(f"{game}: the data given are the files of {data.package}, not {package}")
        return data
    if data is not None:
        return DataFiles.from_folder(package, data, game)
    default = os.environ.get(DATA_ENV)
    if default:
        return _default(package, game, default)
    return DataFiles.of_package(package)


@cache
def _default(package: str, game: str, folder: str) -> DataFiles:
    """``LUDUS_DATA``'s folder, read once per process: a server's tables keep their data while it runs."""
    return DataFiles.from_folder(package, folder, game, strict=False)


# -- what a folder changes -----------------------------------------------------------------------

_ABSENT = object()


def differences(a: DataFiles, b: DataFiles) -> list[tuple[str, str, Any, Any]]:
    """Each value that differs from ``a`` to ``b``: ``(file, key, value in a, value in b)``, the key a
    path into the value (``bonus_points.species``, ``patterns[3]``); absent is ``None`` there."""
    out = []
    for name in a.names():
        va, vb = a.values(name), b.values(name)
        for key, x, y in _walk("", va, vb):
            out.append((name, key, x, y))
    return out


def _walk(path: str, a: Any, b: Any) -> Iterator[tuple[str, Any, Any]]:
    if type(a) is type(b) and a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            sub = f"{path}.{key}" if path else str(key)
            x, y = a.get(key, _ABSENT), b.get(key, _ABSENT)
            if x is _ABSENT or y is _ABSENT:
                yield sub, None if x is _ABSENT else x, None if y is _ABSENT else y
            else:
                yield from _walk(sub, x, y)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from _walk(f"{path}[{i}]", x, y)
    else:
        yield path, a, b


def strangers(files: DataFiles) -> list[str]:
    """The JSON files of ``files``' folder that are none of the game's (a misspelt name, say)."""
    if files.folder is None or not Path(files.folder).is_dir():
        return []
    return sorted(p.name for p in Path(files.folder).glob("*.json") if p.name not in files.names())


def export(files: DataFiles, folder: str | os.PathLike[str], force: bool = False) -> list[Path]:
    """Write ``files`` (each as its text) into ``folder``, flat, under the package's file names.

    An existing file is not overwritten unless ``force`` (a designer's edits are not lost)."""
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise DataFileError(f"{folder} is a file; give a folder")
    there = [target / name for name in files.names() if (target / name).exists()]
    if there and not force:
        raise DataFileError(
            f"{there[0]} exists: export into a new or empty folder (or overwrite with --force)"
        )
    try:
        target.mkdir(parents=True, exist_ok=True)
        for name in files.names():
            (target / name).write_text(files.text(name), encoding="utf-8")
    except OSError as exc:
        raise DataFileError(f"cannot write into {folder}: {exc.strerror or exc}") from None
    return [target / name for name in files.names()]


def fields_reduced(record: Any) -> tuple[type, tuple[Any, ...]]:
    """``__reduce__`` of a frozen dataclass of component facts: made again from its fields. Compiled by
    mypyc (benchmarks/mypyc_build.py), such a class cannot be unpickled the default way, which sets
    its frozen fields one by one."""
    return type(record), tuple(getattr(record, f.name) for f in dataclasses.fields(record))
