"""Reading component data files: every value carries its provenance.

A data value is written ``{"value": ..., "provenance": "rulebook"|"review"|"reconstructed",
"note": "..."}`` so that a user who owns the physical game can correct a reconstructed
value by editing data. ``load_data`` checks the tags and returns the bare values.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import DataFileError

PROVENANCES = ("rulebook", "review", "reconstructed")


def load_data(path: Path) -> dict[str, Any]:
    """Load a data file and strip provenance tags; fail naming the file and the key."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataFileError(f"{path}: data file not found") from None
    except json.JSONDecodeError as exc:
        raise DataFileError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(raw, dict):
        raise DataFileError(f"{path}: the top level must be an object")
    out: dict[str, Any] = {}
    for key, entry in raw.items():
        if key.startswith("_"):  # comments and file-level notes
            continue
        if not isinstance(entry, dict) or "value" not in entry:
            raise DataFileError(f"{path}: {key!r} must be an object with 'value' and 'provenance'")
        prov = entry.get("provenance")
        if prov not in PROVENANCES:
            raise DataFileError(
                f"{path}: {key!r} has provenance {prov!r}; expected one of {', '.join(PROVENANCES)}"
            )
        out[key] = entry["value"]
    return out


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
