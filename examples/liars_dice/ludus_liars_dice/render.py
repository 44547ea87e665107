"""Liar's Dice boards (declared as the game's ``renderer`` hook): text for the ``ludus`` command,
SVG for the browser and ``ludus render``. Both draw an observation only, so a seat's board shows
its own dice and the others' cups closed; every text drawn is escaped."""

from __future__ import annotations

from html import escape
from typing import Any

WIDTH = 440  # narrow enough to stay legible on a phone
ROW = 56  # one seat's row
DIE = 34  # a die's side
DICE_X = 150  # where a row's dice begin
# where the pips of each face sit on a 3 x 3 grid (0..2, 0..2)
PIPS = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def _seat(seat: int) -> str:
    return f"Seat {seat + 1}"  # as the browser names seats (the SVG board is drawn for it)


def _cli_seat(seat: int) -> str:
    return f"seat {seat}"  # as the ``ludus`` command names seats (the text board is printed there)


def _call_text(call: dict[str, Any]) -> str:
    """One sentence for the last call: who called whom, what the cups showed, who lost a die."""
    (q, face), seat = call["bid"], _cli_seat
    return (
        f"round {call['round']}: {seat(call['caller'])} called {seat(call['bidder'])}'s {q} x {face}; "
        f"{call['shown']} showed {face}: {seat(call['loser'])} lost a die"
    )


def render_text(observation: dict[str, Any], color: bool = False) -> str:
    """Each seat's dice (the seat's own faces, the others' as ``?``), the bids of the round and the last call."""
    o = observation
    over = sum(1 for n in o["dice_left"] if n) <= 1
    lines = [f"Liar's Dice, round {o['round']}" + (" (over)" if over else "")]
    for seat, count in enumerate(o["dice_left"]):
        mark = ">" if seat == o["turn"] and not over else " "
        own = o["your_dice"] if seat == o.get("seat") else None
        cup = " ".join(str(d) for d in own) if own is not None else " ".join("?" * count)
        lines.append(f"{mark} {_cli_seat(seat)}: {count} dice  [{cup}]")
    if o["bids"]:
        lines.append("bids: " + ", ".join(f"{_cli_seat(s)} {q} x {f}" for s, q, f in o["bids"]))
    if o["last_call"]:
        lines.append("last call: " + _call_text(o["last_call"]))
    return "\n".join(lines)


def _die(x: float, y: float, face: int | None, size: float = DIE, dim: bool = False) -> str:
    """A die at (x, y): its pips, or a closed cup's ``?`` when ``face`` is None (hidden)."""
    fill = "#7a4a2a" if face is None else "#d9d4c7" if dim else "#ffffff"
    out = [
        f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="{size / 6:.1f}" fill="{fill}" stroke="#333"/>'
    ]
    if face is None:
        out.append(_text(x + size / 2, y + size * 0.68, "?", size * 0.55, fill="#fff", anchor="middle"))
        return "".join(out)
    step = size / 4
    for col, row in PIPS.get(face, ()):
        out.append(
            f'<circle cx="{x + step * (col + 1):.1f}" cy="{y + step * (row + 1):.1f}" r="{size / 11:.1f}"/>'
        )
    return "".join(out)


def _text(
    x: float,
    y: float,
    text: str,
    size: float = 15,
    bold: bool = False,
    fill: str = "#222",
    anchor: str = "start",
) -> str:
    weight = ' font-weight="700"' if bold else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.0f}" fill="{fill}" text-anchor="{anchor}"'
        f"{weight}>{escape(text)}</text>"
    )


def render_svg(observation: dict[str, Any], **options: Any) -> str:
    """The table as SVG: a row per seat (its dice, the seat's own face up, the others under their
    cups), the standing bid, the round's earlier bids, and the last call with every cup it lifted."""
    o = observation
    over = sum(1 for n in o["dice_left"] if n) <= 1
    parts = [
        _text(
            16, 32, f"Liar's Dice · round {o['round']}" + (" · game over" if over else ""), 20, True, "#fff"
        )
    ]
    y = 48
    for seat, count in enumerate(o["dice_left"]):
        parts.append(_seat_row(o, seat, count, y, moving=seat == o["turn"] and not over, cups=not over))
        y += ROW
    if not over:
        y += 28
        parts.append(_text(24, y, "Bid", 17, True, "#fff"))
        if o["bid"]:
            quantity = f"{o['bid'][0]} ×"
            at = DICE_X + 11 * len(quantity) + 8
            parts.append(_text(DICE_X, y, quantity, 20, True, "#fff"))
            parts.append(_die(at, y - 23, o["bid"][1], 30))
            parts.append(_text(at + 40, y, f"by {_seat(o['bids'][-1][0])}", 17, True, "#fff"))
        else:
            parts.append(_text(DICE_X, y, f"none yet: {_seat(o['turn'])} opens", 16, fill="#fff"))
        if len(o["bids"]) > 1:
            y += 24
            parts.append(
                _text(
                    DICE_X,
                    y,
                    "before: " + ", ".join(f"{q}x{f}" for _, q, f in o["bids"][-7:-1]),
                    14,
                    fill="#dfeee4",
                )
            )
    if o["last_call"]:
        parts.extend(_last_call(o["last_call"], y + 36))
        y += 36 + 34 + 26 * len(o["last_call"]["dice"])
    height = y + 16
    return "".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" '
            f'height="{height}" font-family="sans-serif" role="img" aria-label="Liar\'s Dice table">',
            f'<rect width="{WIDTH}" height="{height}" fill="#2f6b47" rx="12"/>',
            *parts,
            "</svg>",
        ]
    )


def _seat_row(o: dict[str, Any], seat: int, count: int, y: float, moving: bool, cups: bool) -> str:
    """A seat's row: its name, its dice count and (``cups``: while the game goes on) its dice, face up
    in the seat's own view only."""
    you = seat == o.get("seat")
    fill, stroke = ("#fff3c4", "#d08a00") if moving else ("#e7efe9", "none")
    parts = [
        f'<rect x="10" y="{y}" width="{WIDTH - 20}" height="{ROW - 6}" rx="8" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="3"/>',
        _text(22, y + 22, ("▶ " if moving else "") + _seat(seat) + (" (you)" if you else ""), 16, you),
        _text(22, y + 41, f"{count} {'die' if count == 1 else 'dice'}" if count else "out", 14),
    ]
    faces = o["your_dice"] if you and o["your_dice"] is not None else [None] * count
    faces = faces if cups else []  # the game is over: the last call below showed every die
    parts.extend(_die(DICE_X + i * (DIE + 8), y + 8, face) for i, face in enumerate(faces))
    return "".join(parts)


def _last_call(call: dict[str, Any], y: float) -> list[str]:
    """The last call in two lines, then every die it revealed (those of the face bid in white)."""
    q, face = call["bid"]
    shown = f"{call['shown']} {'die' if call['shown'] == 1 else 'dice'} showed {face}"
    parts = [
        _text(16, y, f"Last call (round {call['round']}): {_seat(call['caller'])} called", 15, True, "#fff"),
        _text(
            16,
            y + 20,
            f"{_seat(call['bidder'])}'s {q} x {face}; {shown}: {_seat(call['loser'])} lost a die",
            15,
            fill="#fff",
        ),
    ]
    for seat, dice in enumerate(call["dice"]):
        row = y + 32 + seat * 26
        parts.append(_text(24, row + 17, _seat(seat), 14, fill="#fff"))
        parts.extend(_die(DICE_X + i * 26, row, d, 22, dim=d != face) for i, d in enumerate(dice))
    return parts
