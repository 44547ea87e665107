"""Celtae drawn from an observation dict: text for terminals, SVG for browsers.

Both functions are pure: they read only ``CeltaeState.observation(seat)``, so the
server and web client draw exactly what a seat may see. Cards are written as a colour
letter (O orange, P pink, U purple, T teal) and an icon letter (w warrior, t trap,
f fortress); workers as F B S N D, so the board reads without colour vision.
"""

from __future__ import annotations

from html import escape as _html_escape
from typing import Any
from xml.sax.saxutils import escape

_ANSI = {"O": "\x1b[38;5;208m", "P": "\x1b[38;5;205m", "U": "\x1b[35m", "T": "\x1b[36m",
         "F": "\x1b[32m", "B": "\x1b[33m", "S": "\x1b[31m", "N": "\x1b[34m", "D": "\x1b[37m",
         "bold": "\x1b[1m", "dim": "\x1b[2m"}
_RESET = "\x1b[0m"
_FILL = {"O": "#f28c28", "P": "#e86fa8", "U": "#8e5bbf", "T": "#2aa198",
         "F": "#4caf50", "B": "#e6c229", "S": "#d64541", "N": "#3f6fd1", "D": "#f0f0f0"}
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
    doing = "game over" if cur < 0 else f"seat {cur} to {o['phase']}"
    out.append(_paint(f"{title} -- {doing}", "bold", color))
    out.append(f"marker {o['marker']}  track {o['track']} markers left  final: {o['final']}"
               + (f"  Teutates: seat {o['teutates']}" if o["teutates"] is not None else ""))
    if o.get("action"):
        out.append(f"current action: {o['action']}")
    names = ("Farm/Build N", "Battle", "Farm/Build S", "Recruit")
    out.append("areas: " + "  ".join(f"{n}[{_workers(a, color)}]" for n, a in zip(names, o["areas"], strict=False))
               + f"  centre[{_workers(o['centre'], color)}]")
    out.append("bag: " + " ".join(f"{k}{v}" for k, v in o["bag"].items()) + f"   deck {o['deck_size']}"
               + f"   discard top {_card(o['discard'][-1] if o['discard'] else None, color)}")
    for r, row in zip("NS", o["markets"], strict=False):
        out.append(f"market {r}: " + " ".join(_card(c, color) for c in row) + "   (farmers "
                   + "/".join(str(c) for c in o["market_costs"]) + ")")
    for r in "NS":
        cits = [c for c in o["citadels"] if c["region"] == r]
        out.append(f"citadels {r}: " + "  ".join(
            _paint(c["colour"][:3], c["colour"][0].upper() if c["colour"] != "purple" else "U", color)
            + "[" + "".join(_owner(x) for x in c["spaces"]) + "]" + c["bonus"][:3]
            + ("*" if c["bonus_owner"] is not None else "") for c in cits))
    for i, r in enumerate("NS"):
        rt, dt = o["roman"][i], o["druid"][i]
        out.append(f"{r}: Roman {_roman(rt, '-')} ({rt['size']})"
                   f"  Druid {_druid(dt, '-')}"
                   f" ({dt['size']}, {o['druid_supply'][i]} druids)  garrison ["
                   + " ".join(f"{ic[0]}:{_owner(x)}" for ic, x in zip(o["garrison_icons"], o["garrison"][i], strict=False))
                   + "]")
    out.append("progress: " + "; ".join(f"{j + 1}) {p['card']} {p['marks']}/{p['slots']}"
                                        for j, p in enumerate(o["progress"])))
    for s, pl in enumerate(o["players_info"]):
        hand = (" ".join(f"{_card(k, color)}x{v}" for k, v in pl["hand"].items())
                if pl["hand"] is not None else f"{pl['hand_size']} cards")
        out.append(_paint(f"seat {s}", "bold", color) + f": score {o['scores'][s]}  str {pl['strength']}"
                   f"  tokens {pl['tokens']}  active [{_workers(pl['active'], color)}]  tribe "
                   + " ".join(f"{k}{v}" for k, v in pl["tribe"].items())
                   + f"  discs {pl['discs_placed']} (next {pl['next_disc_cost']})  cubes {pl['cubes_placed']}"
                   f"  Roman {len(pl['roman_tiles'])} Druid {len(pl['druid_tiles'])} bonus {pl['bonus_tiles']}"
                   f"  leader {pl['leader']} {pl['leader_side']} ({pl['flip']})  hand: {hand}")
    sx = o.get("solitairix")
    if sx:
        last = sx["last_turn"]
        out.append(f"Solitairix: tile side {sx['side']} quarter {sx['quarter']}  worker {sx['worker']}"
                   f"  discs {sx['discs_placed']} cubes {sx['cubes_placed']} Roman {sx['roman_tiles']}"
                   f" Druid {sx['druid_tiles']} druids {sx['druids']}  target {sx['target']}"
                   + (f"  last: {last['card']} +{last['steps']} {last['action']}" if last else ""))
    if o.get("legal"):
        out.append("legal: " + ", ".join(o["legal"]))
    return "\n".join(out)


def _a(value: Any) -> str:
    """An SVG attribute value: quotes escaped too, so no value can end its attribute early."""
    return _html_escape(str(value), quote=True)


def _rect(x: float, y: float, w: float, h: float, fill: str, stroke: str = "#333", extra: str = "") -> str:
    # ``extra``: fixed attribute text of this module only
    return (f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{_a(fill)}" stroke="{_a(stroke)}" '
            f'{extra}/>')


def _text(x: float, y: float, s: str, size: float = 11, anchor: str = "start", fill: str = "#111") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" text-anchor="{_a(anchor)}" fill="{_a(fill)}" '
            f'font-family="sans-serif">{escape(s)}</text>')


def _worker(x: float, y: float, w: str | None) -> str:
    if w is None:
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="8" fill="none" stroke="#999" stroke-dasharray="2"/>'
    return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="8" fill="{_a(_FILL[w])}" stroke="#222"/>'
            + _text(x, y + 4, w, 9, "middle"))


def _cardbox(x: float, y: float, name: str | None) -> str:
    if name is None:
        return _rect(x, y, 26, 36, "#eee", "#bbb")
    return _rect(x, y, 26, 36, _FILL[name[0]], "#222", 'rx="3"') + _text(x + 13, y + 23, name, 11, "middle")


def render_svg(observation: dict[str, Any], width: int = 900, **options: Any) -> str:
    """The board as an SVG string (pure); ``width`` scales the 900 x 720 drawing."""
    o = observation
    W, H = 900, 720
    parts: list[str] = [_rect(0, 0, W, H, "#f7f1e1", "none")]
    # markets
    for i, row in enumerate(o["markets"]):
        y = 10 if i == 0 else 420
        parts.append(_text(10, y + 24, "North" if i == 0 else "South", 13))
        for j, c in enumerate(row):
            parts.append(_cardbox(60 + j * 32, y, c))
            parts.append(_text(73 + j * 32, y + 48, str(o["market_costs"][j]), 9, "middle"))
    # island with areas and corners
    cx, cy = 450, 230
    parts.append(_rect(cx - 150, cy - 150, 300, 300, "#bfe3f2", "#4a90a4", 'rx="30"'))
    parts.append(_rect(cx - 110, cy - 110, 220, 220, "#d9c99a", "#7a6a3a", 'rx="12"'))
    area_pos = [(cx, cy - 80), (cx + 80, cy), (cx, cy + 80), (cx - 80, cy)]
    for (ax, ay), row, name in zip(area_pos, o["areas"], ("Farm/Build N", "Battle", "Farm/Build S", "Recruit"),
                                   strict=False):
        parts.append(_text(ax, ay - 12, name, 9, "middle"))
        parts += [_worker(ax - 18 + k * 18, ay + 2, w) for k, w in enumerate(row)]
    parts += [_worker(cx - 18 + k * 18, cy, w) for k, w in enumerate(o["centre"])]
    parts.append(_text(cx, cy + 22, "centre", 9, "middle"))
    corners = {"NE": (cx + 130, cy - 130), "SE": (cx + 130, cy + 130), "SW": (cx - 130, cy + 130),
               "NW": (cx - 130, cy - 130)}
    for name, (x, y) in corners.items():
        here = name == o["marker"]
        parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="{14 if here else 8}" fill="{"#222" if here else "#fff"}" '
                     f'stroke="#222"/>')
        parts.append(_text(x, y - 18, name, 10, "middle"))
    parts.append(f'<line x1="{cx + 110}" y1="{cy}" x2="{cx + 150}" y2="{cy}" stroke="#2a6f97" stroke-width="4"/>')
    # citadels
    for k, cit in enumerate(o["citadels"]):
        region = 0 if cit["region"] == "N" else 1
        x = 640 + (k % 4) * 62
        y = 20 + region * 300
        letter = "U" if cit["colour"] == "purple" else cit["colour"][0].upper()
        parts.append(_rect(x, y, 56, 70, _FILL[letter], "#222", 'rx="5"'))
        parts.append(_text(x + 28, y + 12, f"{cit['colour']} {cit['bonus']}", 8, "middle"))
        for j, sp in enumerate(cit["spaces"]):
            fill = "#fff" if sp is None else ("#777" if sp == "neutral" else _SEAT[sp % 5])
            parts.append(f'<circle cx="{x + 8 + j * 10:g}" cy="{y + 30:g}" r="4.5" fill="{_a(fill)}" stroke="#222"/>')
        if cit["bonus_owner"] is not None:
            parts.append(_text(x + 28, y + 55, f"tile: seat {cit['bonus_owner']}", 8, "middle"))
    # stacks and garrisons
    for r in (0, 1):
        y = 110 + r * 300
        rt, dt = o["roman"][r], o["druid"][r]
        parts.append(_text(640, y, f"Roman: {_roman(rt, 'empty')} ({rt['size']})", 11))
        parts.append(_text(640, y + 16, "Druid: " + (f"{dt['top']['points']}p {dt['top']['needs']}" if dt["top"]
                                                     else "empty") + f" ({dt['size']}), druids {o['druid_supply'][r]}", 11))
        for j, sp in enumerate(o["garrison"][r]):
            fill = "#fff" if sp is None else ("#777" if sp == "neutral" else _SEAT[sp % 5])
            parts.append(_rect(640 + j * 22, y + 24, 18, 18, fill))
            parts.append(_text(649 + j * 22, y + 54, o["garrison_icons"][j][0], 9, "middle"))
    # progress
    parts.append(_text(10, 480, f"Progress track: {o['track']} markers", 12))
    for j, p in enumerate(o["progress"]):
        parts.append(_text(10, 498 + j * 15, f"{j + 1}. {p['card']}  [{p['marks']}/{p['slots']}]", 11))
    # players
    for s, pl in enumerate(o["players_info"]):
        x = 330 + (s % 2) * 290
        y = 500 + (s // 2) * 100
        parts.append(_rect(x, y, 280, 92, "#fff", _SEAT[s], 'rx="6" stroke-width="2"'))
        hand = (" ".join(f"{k}x{v}" for k, v in pl["hand"].items()) if pl["hand"] is not None
                else f"{pl['hand_size']} cards")
        lines = [f"seat {s}{' *' if s == o['current_player'] else ''}  score {o['scores'][s]}  "
                 f"strength {pl['strength']}  tokens {pl['tokens']}",
                 "active " + " ".join(w or "." for w in pl["active"]) + "  tribe "
                 + " ".join(f"{k}{v}" for k, v in pl["tribe"].items()),
                 f"discs {pl['discs_placed']}  cubes {pl['cubes_placed']}  Roman {len(pl['roman_tiles'])}  "
                 f"Druid {len(pl['druid_tiles'])}  bonus {pl['bonus_tiles']}",
                 f"{pl['leader']} {pl['leader_side']}  hand: {hand}"]
        parts += [_text(x + 8, y + 18 + i * 18, t, 11) for i, t in enumerate(lines)]
    sx = o.get("solitairix")
    if sx:
        parts.append(_text(10, 700, f"Solitairix: side {sx['side']} quarter {sx['quarter']}, worker {sx['worker']}, "
                                    f"discs {sx['discs_placed']}, Roman {sx['roman_tiles']}, Druid {sx['druid_tiles']}, "
                                    f"target {sx['target']}", 11))
    height = round(width * H / W)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_a(width)}" height="{height}" viewBox="0 0 {W} {H}">'
            + "".join(parts) + "</svg>")
