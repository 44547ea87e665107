"""Live views sent as JSON patches (RFC 6902): a move's update is a few hundred bytes, not the whole view.

A WebSocket client that asks for patches (``/ws?patches=1``) receives the whole view first, then
after each change ``{"patch": [...], "seat": s, "base": v0, "version": v1}``: the operations that
turn the view of version ``v0`` it last received into the new one. A client whose view is not at
``base`` (a message dropped by a full queue, a view fetched over HTTP meanwhile) asks for the
whole view again. A change that keeps the version (a seat joined or left) is sent whole, since
the client could not tell its two views of one version apart.

The diff is this module's own: dictionaries by key, lists element by element with items added
or removed at the end (the log grows) unless most of the list changed, anything else replaced. ``jsonpatch.make_patch`` gives
patches of the same size but took 4.3 ms per view of a 2-player game against 0.1 ms here
(benchmarks/update_size.py); its ``apply_patch`` is the reference the tests check against.
"""

from __future__ import annotations

import difflib
import functools
import gzip
import threading
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from starlette.responses import Response

# A list whose elements mostly changed (or grew or shrank by much) is replaced whole rather than
# patched element by element: a move list of 40 new moves is one operation, not 40.
REPLACE_RATIO = 0.5


def diff(old: Any, new: Any) -> list[dict[str, Any]]:
    """RFC 6902 operations (add, remove, replace) that turn JSON value ``old`` into ``new``."""
    ops: list[dict[str, Any]] = []
    _diff(old, new, "", ops)
    return ops


def _key(key: Any) -> str:
    """A dictionary key as a JSON pointer token (as orjson writes non-string keys: 3 -> "3")."""
    if isinstance(key, bool):
        text = "true" if key else "false"
    elif key is None:
        text = "null"
    else:
        text = str(key)
    return text.replace("~", "~0").replace("/", "~1")


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]]) -> None:
    if type(old) is dict and type(new) is dict:
        differ = [key for key, value in new.items() if key not in old or not _same(old[key], value)]
        if (
            len(differ) > 1
            and len(differ) > REPLACE_RATIO * len(new)
            and not any(type(new[k]) in (dict, list) for k in differ)
        ):  # a record mostly rewritten
            ops.append({"op": "replace", "path": path, "value": new})
            return
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_key(key)}"})
        for key in differ:
            if key not in old:
                ops.append({"op": "add", "path": f"{path}/{_key(key)}", "value": new[key]})
            else:
                _diff(old[key], new[key], f"{path}/{_key(key)}", ops)
    elif type(old) is list and type(new) is list:
        if abs(len(new) - len(old)) == 1 and _one_moved(old, new, path, ops):
            return
        common = min(len(old), len(new))
        changed = [i for i in range(common) if not _same(old[i], new[i])]
        edits = len(changed) + abs(len(new) - len(old))  # one operation each, ~40 bytes of path and name
        if edits > 1 and edits > REPLACE_RATIO * max(len(new), 1):
            ops.append({"op": "replace", "path": path, "value": new})
            return
        for i in changed:
            _diff(old[i], new[i], f"{path}/{i}", ops)
        for i in range(common, len(new)):
            ops.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})
        for i in range(len(old) - 1, common - 1, -1):  # from the end, so that each index still exists
            ops.append({"op": "remove", "path": f"{path}/{i}"})
    elif not _same(old, new):
        ops.append({"op": "replace", "path": path, "value": new})


def _one_moved(old: list[Any], new: list[Any], path: str, ops: list[dict[str, Any]]) -> bool:
    """One item inserted into or removed from the middle of a list (the rest shifted): one operation."""
    short, long = (old, new) if len(old) < len(new) else (new, old)
    i = next((i for i in range(len(short)) if not _same(short[i], long[i])), len(short))
    if i == len(short) or not all(_same(short[j], long[j + 1]) for j in range(i, len(short))):
        return False  # an item at the end (added or removed as usual), or more than one change
    ops.append(
        {"op": "add", "path": f"{path}/{i}", "value": new[i]}
        if long is new
        else {"op": "remove", "path": f"{path}/{i}"}
    )
    return True


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: Python's == takes 1 == 1.0 == True, which JSON writes differently."""
    return type(a) is type(b) and a == b


# -- the hub's side -------------------------------------------------------------------------------
_sent: weakref.WeakKeyDictionary[Any, tuple[Any, dict[str, Any]]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()  # publishes of different games run in different threads


def messages(
    subs: Iterable[Any], view_for: Callable[[int | None], dict[str, Any]], encode: Callable[[Any], str]
) -> list[tuple[Any, str]]:
    """The text to push to each subscriber: its seat's whole view, or a patch for those that asked.

    Each seat's view is made and encoded at most once, and each patch computed once per seat and
    base, however many subscribers share them. ``subs`` have ``seat`` and ``patches`` (bool).
    """
    views: dict[int | None, dict[str, Any]] = {}
    whole: dict[int | None, str] = {}
    patched: dict[tuple[int | None, int], str | None] = {}
    out: list[tuple[Any, str]] = []
    for sub in subs:
        seat = sub.seat
        view = views.get(seat)
        if view is None:
            view = views[seat] = view_for(seat)
        text = None
        if getattr(sub, "patches", False):
            with _lock:
                last = _sent.get(sub)
                _sent[sub] = (seat, view)
            if last is not None and last[0] == seat and last[1].get("version") != view.get("version"):
                base = last[1]
                key = (seat, id(base))
                if key not in patched:
                    patched[key] = encode(
                        {
                            "patch": diff(base, view),
                            "seat": seat,
                            "base": base.get("version"),
                            "version": view.get("version"),
                        }
                    )
                text = patched[key]
        if text is None:
            if seat not in whole:
                whole[seat] = encode(view)
            text = whole[seat]
        out.append((sub, text))
    return out


# -- boards and replays ---------------------------------------------------------------------------
def svg_splices(old: str, new: str) -> list[list[Any]]:
    """Line edits turning SVG text ``old`` into ``new``: ``[start, count, [lines]]`` on ``old``'s
    lines (each drawn element is one line), applied from the last to the first."""
    a, b = old.split("\n"), new.split("\n")
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    return [[i1, i2 - i1, b[j1:j2]] for tag, i1, i2, j1, j2 in ops if tag != "equal"]


@functools.lru_cache(maxsize=64)
def _gzipped(text: str) -> bytes:
    return gzip.compress(text.encode(), compresslevel=6)


def svg_response(svg: str, accept_encoding: str | None) -> Response:
    """A board's SVG, gzipped for a client that takes it (a large board: 42 KB of text, 3 KB sent)."""
    headers = {"Cache-Control": "no-store", "Vary": "Accept-Encoding"}
    if "gzip" in (accept_encoding or ""):
        return Response(
            _gzipped(svg), media_type="image/svg+xml", headers={**headers, "Content-Encoding": "gzip"}
        )
    return Response(svg, media_type="image/svg+xml", headers=headers)
