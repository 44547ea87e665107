"""Celtae drawn from an observation dict: text for terminals, SVG for browsers.

Both functions are pure: they read only ``CeltaeState.observation(seat)``, so the
server and web client draw exactly what a seat may see. Cards are written as a colour
letter (O orange, P pink, U purple, T teal) and an icon letter (w warrior, t trap,
f fortress); workers as F B S N D, so the board reads without colour vision.
"""

from __future__ import annotations

from functools import cache
from html import escape as _html_escape
from typing import Any
from xml.sax.saxutils import escape

from .words import log_detail as log_detail  # the log's details: a renderer hook

_ANSI = {
    "O": "\x1b[38;5;208m",
    "P": "\x1b[38;5;205m",
    "U": "\x1b[35m",
    "T": "\x1b[36m",
    "F": "\x1b[32m",
    "B": "\x1b[33m",
    "S": "\x1b[31m",
    "N": "\x1b[34m",
    "D": "\x1b[37m",
    "bold": "\x1b[1m",
    "dim": "\x1b[2m",
}
_RESET = "\x1b[0m"
_FILL = {
    "O": "#f28c28",
    "P": "#e86fa8",
    "U": "#8e5bbf",
    "T": "#2aa198",
    "F": "#4caf50",
    "B": "#e6c229",
    "S": "#d64541",
    "N": "#3f6fd1",
    "D": "#f0f0f0",
}
_SEAT = ("#c0392b", "#2471a3", "#229954", "#b7950b", "#555555")


def _paint(text: str, style: str | None, color: bool) -> str:
    if not color or not style or style not in _ANSI:
        return text
    return f"{_ANSI[style]}{text}{_RESET}"


def _card(name: str | None, color: bool) -> str:
    return "--" if name is None else _paint(name, name[0], color)


def _workers(row: list[str | None], color: bool) -> str:
    return " ".join("." if w is None else _paint(w, w, color) for w in row)


def _roman(stack: dict[str, Any], empty: str) -> str:
    top = stack["top"]
    return f"{top[0]}p str {top[1]}" if top else empty


def _druid(stack: dict[str, Any], empty: str) -> str:
    top = stack["top"]
    return f"{top['points']}p {top['needs']}" if top else empty


def _owner(o: Any) -> str:
    return "." if o is None else ("x" if o == "neutral" else str(o))


def render_text(observation: dict[str, Any], color: bool = True) -> str:
    """A readable summary of board, markets, workers, player boards and scores."""
    o = observation
    out = []
    cur = o["current_player"]
    title = "Celtae solo" if o["solo"] else f"Celtae, {o['players']} players"
    doing = "game over" if cur < 0 else f"seat {cur + 1} to {o['phase']}"
    out.append(_paint(f"{title} -- {doing}", "bold", color))
    out.append(
        f"marker {o['marker']}  track {o['track']} markers left  final: {o['final']}"
        + (f"  Teutates: seat {o['teutates'] + 1}" if o["teutates"] is not None else "")
    )
    if o.get("action"):
        out.append(f"current action: {o['action']}")
    names = ("Farm/Build N", "Battle", "Farm/Build S", "Recruit")
    out.append(
        "areas: "
        + "  ".join(f"{n}[{_workers(a, color)}]" for n, a in zip(names, o["areas"], strict=False))
        + f"  centre[{_workers(o['centre'], color)}]"
    )
    out.append(
        "bag: "
        + " ".join(f"{k}{v}" for k, v in o["bag"].items())
        + f"   deck {o['deck_size']}"
        + f"   discard top {_card(o['discard'][-1] if o['discard'] else None, color)}"
    )
    for r, row in zip("NS", o["markets"], strict=False):
        out.append(
            f"market {r}: "
            + " ".join(_card(c, color) for c in row)
            + "   (farmers "
            + "/".join(str(c) for c in o["market_costs"])
            + ")"
        )
    for r in "NS":
        cits = [c for c in o["citadels"] if c["region"] == r]
        out.append(
            f"citadels {r}: "
            + "  ".join(
                _paint(c["colour"][:3], c["colour"][0].upper() if c["colour"] != "purple" else "U", color)
                + "["
                + "".join(_owner(x) for x in c["spaces"])
                + "]"
                + c["bonus"][:3]
                + ("*" if c["bonus_owner"] is not None else "")
                for c in cits
            )
        )
    for i, r in enumerate("NS"):
        rt, dt = o["roman"][i], o["druid"][i]
        out.append(
            f"{r}: Roman {_roman(rt, '-')} ({rt['size']})"
            f"  Druid {_druid(dt, '-')}"
            f" ({dt['size']}, {o['druid_supply'][i]} druids)  garrison ["
            + " ".join(
                f"{ic[0]}:{_owner(x)}" for ic, x in zip(o["garrison_icons"], o["garrison"][i], strict=False)
            )
            + "]"
        )
    out.append(
        "progress: "
        + "; ".join(f"{j + 1}) {p['card']} {p['marks']}/{p['slots']}" for j, p in enumerate(o["progress"]))
    )
    for s, pl in enumerate(o["players_info"]):
        hand = (
            " ".join(f"{_card(k, color)}x{v}" for k, v in pl["hand"].items())
            if pl["hand"] is not None
            else f"{pl['hand_size']} cards"
        )
        out.append(
            _paint(f"seat {s + 1}", "bold", color) + f": score {o['scores'][s]}  str {pl['strength']}"
            f"  tokens {pl['tokens']}  active [{_workers(pl['active'], color)}]  tribe "
            + " ".join(f"{k}{v}" for k, v in pl["tribe"].items())
            + f"  discs {pl['discs_placed']} (next {pl['next_disc_cost']})  cubes {pl['cubes_placed']}"
            f"  Roman {len(pl['roman_tiles'])} Druid {len(pl['druid_tiles'])} bonus {pl['bonus_tiles']}"
            f"  leader {pl['leader']} {pl['leader_side']} ({pl['flip']})  hand: {hand}"
        )
    sx = o.get("solitairix")
    if sx:
        last = sx["last_turn"]
        out.append(
            f"Solitairix: tile side {sx['side']} quarter {sx['quarter']}  worker {sx['worker']}"
            f"  discs {sx['discs_placed']} cubes {sx['cubes_placed']} Roman {sx['roman_tiles']}"
            f" Druid {sx['druid_tiles']} druids {sx['druids']}  target {sx['target']}"
            + (f"  last: {last['card']} +{last['steps']} {last['action']}" if last else "")
        )
    if o.get("legal"):
        out.append("legal: " + ", ".join(o["legal"]))
    return "\n".join(out)


def _a(value: Any) -> str:
    """An SVG attribute value: quotes escaped too, so no value can end its attribute early."""
    return _html_escape(str(value), quote=True)


@cache
def leader_texts() -> dict[str, tuple[str, str]]:
    """Each leader's side A and side B in words, from the data file: the one source for this
    drawing, the browser's board and its rules help (served with /api/meta)."""
    from .data import load

    return {ld["name"]: (ld["A"].get("text", ""), ld["B"].get("text", "")) for ld in load().leaders}


# Final Scoring in the rulebook, letter by letter: (short name, what scores).
CATEGORIES = {
    "A": ("citadels", "1 point for each of your discs on completed citadels"),
    "B": ("bonus tiles", "1 point for each bonus tile you collected"),
    "C": ("druid tiles", "the points of your Druid tiles (1 or 2 each)"),
    "D": ("Roman armies", "the points of the Roman Army tiles you defeated (1 or 2 each)"),
    "E": (
        "garrison majorities",
        "in each region where you have the most garrison cubes (ties count): "
        "1 point for each of your cubes there",
    ),
    "F": ("tribe spaces", "the tribe spaces with a point icon that have a worker"),
    "G": ("empty disc spaces", "the empty disc spaces of your board with a point icon"),
    "H": ("all cubes placed", "1 point if all your garrison cubes are on the board"),
    "I": ("strength + cards", "1 point for every 5 of your strength points and cards in hand together"),
    "J": (
        "progress",
        "for each progress card whose requirement you meet, 1 point per marker on it "
        "(solo: an unmet card with markers costs its markers)",
    ),
    "K": (
        "leader",
        "side A: 1 point if its condition holds; flipped to side B: 3 points if B's holds, else 0",
    ),
}


@cache
def rules_help() -> dict[str, Any]:
    """What the browser's rules help and tooltips show: leaders, scoring categories, cards, the
    citadels' bonus tiles, the rondel's strength per step and the refresh's cost, and Solitairix's
    tile, both sides' quarters (their numbers from the data files)."""
    from .data import load

    d = load()
    return {
        "bonus": {
            "token": "gain 1 bonus token: spend it later as 1 extra worker of your choice, or to act on any "
            "action space as if the marker were beside it",
            "recruit": "recruit 1 worker from your active pool, then refill to 3 active workers from the centre",
            "draw": f"draw any {d.draw_count} cards, free, from this region's market",
            "strength": f"gain {d.strength_gain} strength points",
        },
        "leaders": {name: list(texts) for name, texts in leader_texts().items()},
        "rondel": {"move_strength": list(d.move_strength), "refresh_cost": d.refresh_cost},
        "solo_tile": [
            [
                {
                    "actions": [("farm", "build", "battle", "recruit")[k] for k in actions],
                    "swap": ("refresh", "left", "middle", "right")[swap],
                    "discards": [i + 1 for i in discards],
                }
                for actions, swap, discards in side
            ]
            for side in d.solo_sides
        ],
        "categories": {k: {"name": name, "text": text} for k, (name, text) in CATEGORIES.items()},
        "colours": {"O": "orange", "P": "pink", "U": "purple", "T": "teal"},
        "icons": {"w": "warrior", "t": "trap", "f": "fortress"},
    }


def panels(state: Any, seat: int | None) -> dict[str, Any]:
    """Each seat's scoring categories A..K as things stand, by the end scoring itself
    (``CeltaeState.score_breakdown``); everything it reads is public (hand sizes, not cards)."""
    return {"categories": [state.score_breakdown(s) for s in range(state.game.num_players)]}


_COLOUR_NAME = {"O": "orange", "P": "pink", "U": "purple", "T": "teal"}
_ICON_NAME = {"w": "warrior", "t": "trap", "f": "fortress"}
_DARK = {"U", "T", "S", "N"}  # fills that take white letters
_MIN_FONT = 14  # in a 1000-unit drawing: 12.6 px when drawn 900 px wide


def _rect(x: float, y: float, w: float, h: float, fill: str, stroke: str = "#333", rx: float = 0) -> str:
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{rx:g}" fill="{_a(fill)}" '
        f'stroke="{_a(stroke)}"/>'
    )


def _text(
    x: float,
    y: float,
    s: Any,
    size: float = _MIN_FONT,
    anchor: str = "start",
    fill: str = "#111",
    bold: bool = False,
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{max(size, _MIN_FONT):g}" text-anchor="{_a(anchor)}" '
        f'fill="{_a(fill)}" font-weight="{"bold" if bold else "normal"}" font-family="sans-serif">'
        f"{escape(str(s))}</text>"
    )


def _circle(x: float, y: float, r: float, fill: str, stroke: str = "#222", dashed: bool = False) -> str:
    return (
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:g}" fill="{_a(fill)}" stroke="{_a(stroke)}" '
        f'stroke-dasharray="{"3" if dashed else "none"}"/>'
    )


def _worker(x: float, y: float, w: str | None, r: float = 13) -> str:
    if w is None:
        return _circle(x, y, r, "none", "#999", dashed=True)
    return _circle(x, y, r, _FILL.get(w, "#ccc")) + _text(
        x, y + 5, w, 14, "middle", "#fff" if w in _DARK else "#000", bold=True
    )


def _seat_piece(x: float, y: float, owner: Any, r: float = 10) -> str:
    """A disc or cube: the seat's colour with its number (from 1), x for neutral, dashed when free."""
    if owner is None:
        return _circle(x, y, r, "#fff", "#888", dashed=True)
    if owner == "neutral":
        return _circle(x, y, r, "#777") + _text(x, y + 5, "x", 14, "middle", "#fff", bold=True)
    seat = owner if isinstance(owner, int) else -1
    return _circle(x, y, r, _SEAT[seat % 5] if seat >= 0 else "#777") + _text(
        x, y + 5, seat + 1 if seat >= 0 else "?", 14, "middle", "#fff", bold=True
    )


def _card_face(x: float, y: float, name: Any, w: float = 82, h: float = 80) -> str:
    """A card face: its colour, the colour's letter and the icon's name."""
    if not isinstance(name, str) or len(name) != 2:
        return _rect(x, y, w, h, "#eee", "#bbb", 6)
    ink = "#fff" if name[0] in _DARK else "#000"
    return (
        _rect(x, y, w, h, _FILL.get(name[0], "#ccc"), "#222", 6)
        + _text(x + w / 2, y + h * 0.38, name[0], 20, "middle", ink, bold=True)
        + _text(x + w / 2, y + h * 0.72, _ICON_NAME.get(name[1], name[1]), 14, "middle", ink)
    )


def _small_card(x: float, y: float, name: Any) -> str:
    """A card in a hand: its colour and its notation (colour letter, icon letter)."""
    name = str(name)
    return _rect(x, y, 36, 34, _FILL.get(name[:1], "#ccc"), "#222", 4) + _text(
        x + 18, y + 23, name, 14, "middle", "#fff" if name[:1] in _DARK else "#000", bold=True
    )


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in str(text).split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _seat_name(s: int) -> str:
    return f"Seat {s + 1}"


def render_svg(observation: dict[str, Any], width: int = 900, **options: Any) -> str:
    """The board as an SVG string (pure): rondel, markets, progress, citadels, stacks and garrisons,
    and a board per seat; every seat's pieces carry its number as well as its colour. ``width``
    scales the 1000-unit drawing (text at least 14 units)."""
    o = observation
    W = 1000
    parts: list[str] = []
    cur = o["current_player"]
    title = "Celtae solo" if o["solo"] else f"Celtae, {o['players']} players"
    doing = "game over" if cur < 0 else f"{_seat_name(cur)} to {o['phase']}"
    parts.append(_text(10, 26, f"{title} · {doing}", 18, bold=True))
    # rondel: corners, the four action areas between them, the centre
    parts.append(_rect(10, 40, 420, 420, "#e4efd6", "#8aa06a", 16))
    areas = (
        ("Farm / Build · North", 95, 45, 250, 80),
        ("Battle", 355, 130, 70, 240),
        ("Farm / Build · South", 95, 375, 250, 80),
        ("Recruit", 15, 130, 70, 240),
    )
    acting = o.get("action") or ""
    current_area = None
    if acting:
        verb, region = (acting.split() + ["", ""])[:2]
        current_area = 1 if verb == "battle" else 3 if verb == "recruit" else 0 if region == "N" else 2
    for i, ((name, x, y, w, h), row) in enumerate(zip(areas, o["areas"], strict=False)):
        here = i == current_area
        parts.append(_rect(x, y, w, h, "#e8f0fb" if here else "#fafcf5", "#1f5fa8" if here else "#9aaa80", 8))
        if w > h:
            parts.append(_text(x + w / 2, y + 20, name, 14, "middle", bold=True))
            parts += [_worker(x + w / 2 + (k - 1) * 32, y + 52, wk) for k, wk in enumerate(row)]
        else:
            parts.append(_text(x + w / 2, y + 22, name, 14, "middle", bold=True))
            parts += [_worker(x + w / 2, y + 70 + k * 40, wk) for k, wk in enumerate(row)]
    parts.append(_rect(100, 135, 240, 230, "#e6eef8", "#9ab0cc", 8))
    parts.append(_text(220, 158, "Centre", 14, "middle", bold=True))
    parts += [_worker(220 + (k - 1) * 32, 186, wk) for k, wk in enumerate(o["centre"])]
    bag = " · ".join(f"{k} {v}" for k, v in o["bag"].items())
    discard = o["discard"][-1] if o["discard"] else "none"
    for k, line in enumerate(
        (
            f"bag {bag}",
            f"deck {o['deck_size']} · discard {discard}",
            f"action: {acting or 'none'}",
            f"final: {o['final']}",
            "river: NE → SE moves progress",
        )
    ):
        parts.append(_text(220, 232 + k * 24, line, 14, "middle"))
    corners = {"NW": (50, 80), "NE": (390, 80), "SE": (390, 420), "SW": (50, 420)}
    for name, (x, y) in corners.items():
        here = name == o["marker"]
        parts.append(_circle(x, y, 30 if here else 24, "#222" if here else "#fff", "#222"))
        parts.append(
            _text(x, y + (0 if here else 5), name, 15, "middle", "#fff" if here else "#111", bold=True)
        )
        if here:
            parts.append(_text(x, y + 16, "marker", 14, "middle", "#ffcf5c"))
    # markets
    for r, row in enumerate(o["markets"]):
        y = 44 + r * 150
        parts.append(_text(448, y + 16, f"{'North' if r == 0 else 'South'} market", 15, bold=True))
        for j, c in enumerate(row):
            x = 448 + j * 90
            parts.append(_card_face(x, y + 24, c))
            cost = o["market_costs"][j] if j < len(o["market_costs"]) else 0
            parts.append(_text(x + 41, y + 122, f"{cost} F" if cost else "free", 14, "middle", "#555"))
    # progress
    parts.append(_text(448, 356, f"Progress · {o['track']} markers left on the track", 15, bold=True))
    for j, p in enumerate(o["progress"]):
        parts.append(
            _text(448, 380 + j * 22, f"{j + 1}. {p['card']} — {p['marks']} of {p['slots']} markers", 14)
        )
    parts += _citadels_svg(o)
    parts += _armies_svg(o)
    # the seats' boards
    panels = list(enumerate(o["players_info"]))
    sx = o.get("solitairix")
    y_seats = 846
    for s, pl in panels:
        parts += _seat_board_svg(o, s, pl, 10 + (s % 2) * 495, y_seats + (s // 2) * 262)
    rows = (len(panels) + (1 if sx else 0) + 1) // 2
    if sx:
        k = len(panels)
        parts += _solitairix_svg(sx, 10 + (k % 2) * 495, y_seats + (k // 2) * 262)
    H = y_seats + rows * 262
    height = round(width * H / W)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_a(width)}" height="{height}" viewBox="0 0 {W} {H}">'
        + _rect(0, 0, W, H, "#f7f1e1", "none")
        + "".join(parts)
        + "</svg>"
    )


def _seat_board_svg(o: dict[str, Any], s: int, pl: dict[str, Any], x0: int, y0: int) -> list[str]:
    """Seat ``s``'s board at (``x0``, ``y0``): leader, strength and tokens, workers, tiles, hand."""
    parts = [_rect(x0, y0, 485, 252, "#fff", _SEAT[s % 5], 8), _seat_piece(x0 + 22, y0 + 22, s, 12)]
    mark = " · to move" if s == o["current_player"] else ""
    parts.append(_text(x0 + 42, y0 + 28, f"{_seat_name(s)}{mark}", 16, bold=True))
    parts.append(
        _text(
            x0 + 475, y0 + 28, f"{o['scores'][s] if s < len(o['scores']) else 0} points", 16, "end", bold=True
        )
    )
    leader = pl["leader"]
    side = pl["leader_side"]
    parts.append(
        _text(x0 + 12, y0 + 54, f"{leader} · side {side}" if leader else "no leader yet", 14, bold=True)
    )
    texts = leader_texts().get(leader, ("", "")) if isinstance(leader, str) else ("", "")
    text = texts[1] if side == "B" else texts[0]
    parts += [_text(x0 + 12, y0 + 74 + k * 18, line, 14) for k, line in enumerate(_wrap(text, 58)[:2])]
    cubes = 4 - pl["cubes_placed"] if isinstance(pl["cubes_placed"], int) else "?"
    parts.append(
        _text(
            x0 + 12,
            y0 + 118,
            f"strength {pl['strength']} · tokens {pl['tokens']} · discs left "
            f"{pl['discs_left']} · cubes left {cubes} · hand {pl['hand_size']}",
            14,
        )
    )
    parts.append(_text(x0 + 12, y0 + 146, "Active", 14, bold=True))
    parts += [_worker(x0 + 84 + k * 32, y0 + 141, wk) for k, wk in enumerate(pl["active"])]
    parts.append(_text(x0 + 12, y0 + 176, "Tribe", 14, bold=True))
    for k, (wk, n) in enumerate(pl["tribe"].items()):
        parts.append(_worker(x0 + 84 + k * 60, y0 + 171, wk))
        parts.append(_text(x0 + 100 + k * 60, y0 + 176, f"x{n}", 14))
    tiles = " ".join(f"{t[0]}p" for t in pl["roman_tiles"]) or "none"
    druids = " ".join(f"{t}p" for t in pl["druid_tiles"]) or "none"
    parts.append(
        _text(
            x0 + 12,
            y0 + 204,
            f"Roman tiles {tiles} · druid tiles {druids} · bonus tiles {pl['bonus_tiles']}",
            14,
        )
    )
    if pl["hand"] is not None:
        cards = [c for c, n in pl["hand"].items() for _ in range(n if isinstance(n, int) else 1)]
        parts += [_small_card(x0 + 12 + k * 40, y0 + 212, c) for k, c in enumerate(cards[:11])]
    else:
        known = ", ".join(f"{k}x{v}" for k, v in pl["known_cards"].items())
        parts.append(
            _text(
                x0 + 12,
                y0 + 234,
                f"{pl['hand_size']} cards in hand" + (f" (known: {known})" if known else ""),
                14,
            )
        )
    return parts


def _solitairix_svg(sx: dict[str, Any], x0: int, y0: int) -> list[str]:
    """Solitairix's board at (``x0``, ``y0``): its target, tile, worker, what it has won, its last turn."""
    parts = [
        _rect(x0, y0, 485, 252, "#fff", _SEAT[1], 8),
        _text(x0 + 12, y0 + 28, f"Solitairix · target {sx['target']}", 16, bold=True),
    ]
    last = sx["last_turn"]
    lines = [
        f"tile side {sx['side']} · quarter {sx['quarter']} · worker {sx['worker'] or 'none'}",
        f"discs {sx['discs_placed']} · cubes {sx['cubes_placed']} · Roman {sx['roman_tiles']}",
        f"druid tiles {sx['druid_tiles']} · druids {sx['druids']} · bonus {sx['bonus_tiles']}",
        (
            f"last turn: card {last['card']}, {last['steps']} step(s), {last['action']}"
            if last
            else "no turn yet"
        ),
    ]
    parts += [_text(x0 + 12, y0 + 56 + i * 24, line, 14) for i, line in enumerate(lines)]
    return parts


def _citadels_svg(o: dict[str, Any]) -> list[str]:
    """Each region's citadels: the seats' discs on their spaces, the bonus and who took it."""
    parts: list[str] = []
    for r, region in enumerate("NS"):
        x0 = 10 + r * 495
        parts.append(_text(x0, 566, f"{'North' if region == 'N' else 'South'} citadels", 15, bold=True))
        for k, cit in enumerate(c for c in o["citadels"] if c["region"] == region):
            x, y = x0 + k * 122, 576
            letter = {"orange": "O", "pink": "P", "purple": "U", "teal": "T"}.get(cit["colour"], "O")
            ink = "#fff" if letter in _DARK else "#000"
            parts.append(_rect(x, y, 116, 108, _FILL[letter], "#222", 6))
            parts.append(_text(x + 58, y + 20, str(cit["colour"]).capitalize(), 15, "middle", ink, bold=True))
            parts += [_seat_piece(x + 14 + j * 22, y + 44, sp) for j, sp in enumerate(cit["spaces"])]
            parts.append(_text(x + 58, y + 76, f"bonus {cit['bonus']}", 14, "middle", ink))
            if cit["bonus_owner"] is not None:
                owner = cit["bonus_owner"]
                parts.append(
                    _text(
                        x + 58,
                        y + 98,
                        _seat_name(owner) if isinstance(owner, int) else owner,
                        14,
                        "middle",
                        ink,
                        bold=True,
                    )
                )
    return parts


def _armies_svg(o: dict[str, Any]) -> list[str]:
    """Each region's Roman army and druid order (the tiles on top) and its garrison."""
    parts: list[str] = []
    for r in (0, 1):
        x0 = 10 + r * 495
        rt, dt = o["roman"][r], o["druid"][r]
        parts.append(_text(x0, 712, "North" if r == 0 else "South", 15, bold=True))
        top = rt["top"]
        parts.append(
            _text(
                x0,
                734,
                f"Roman army: {f'{top[0]} point(s), strength {top[1]}' if top else 'beaten'}"
                f" ({rt['size']} tiles)",
                14,
            )
        )
        dtop = dt["top"]
        parts.append(
            _text(
                x0,
                756,
                "Druid order: "
                + (
                    f"{dtop['points']} point(s), needs {' '.join('any' if n == '*' else n for n in dtop['needs'])}"
                    if dtop
                    else "empty"
                )
                + f" ({dt['size']} tiles, {o['druid_supply'][r]} druids)",
                14,
            )
        )
        parts.append(_text(x0, 792, "Garrison", 14))
        for j, sp in enumerate(o["garrison"][r]):
            x = x0 + 72 + j * 46
            parts.append(_rect(x, 772, 40, 56, "#fff", "#999", 4))
            icon = o["garrison_icons"][j] if j < len(o["garrison_icons"]) else "?"
            parts.append(_text(x + 20, 790, str(icon)[:1].upper(), 14, "middle", bold=True))
            parts.append(_seat_piece(x + 20, 810, sp))
    return parts


def automaton_turns(state: Any) -> list[dict[str, Any]]:
    """The turns Solitairix played in a solo game (none in a game of several), for the move log:
    each after ``after`` actions of the record, as data, a plain sentence and the steps the board
    replays one by one (``solo_words``)."""
    if not getattr(state, "solo", False):
        return []
    from .solo_words import solitairix_turns

    return solitairix_turns(state)  # type: ignore[return-value]  # TypedDicts, read as plain dicts
