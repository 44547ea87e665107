"""What a table's waiting room says about a game in memory: whether it waits, for whom, and the table's
part of every view. A table waits while a person's seat is still free or offered (``storage_tables``);
nobody moves meanwhile, and no turn timer runs."""

from __future__ import annotations

from typing import Any

from .errors import Conflict
from .runtime import Runtime
from .storage_tables import INVITE, TableRow


def table_of(rt: Runtime) -> TableRow | None:
    table: TableRow | None = rt.table
    return table


def waiting(rt: Runtime) -> bool:
    """The table waits for its players: no legal actions for anyone, no bot moves, no turn timer."""
    table = table_of(rt)
    if table is None or not table.waits or rt.abandoned or rt.state.is_terminal():
        return False
    return bool(table.offers) or any(s.free for s in rt.seats)


def waiting_for(rt: Runtime) -> list[dict[str, Any]]:
    """The seats still to be taken: ``{seat, offer, name}``, offer ``invite`` (to the account ``name``),
    ``link`` (anyone with the link) or ``open`` (listed in the open lobby)."""
    table = table_of(rt)
    offers = {} if table is None else table.offers
    out = []
    for s in rt.seats:
        offer = offers.get(s.seat)
        if offer is not None:
            out.append({"seat": s.seat, "offer": offer.offer, "name": offer.account_name})
        elif s.free:
            out.append({"seat": s.seat, "offer": "open", "name": None})
    return out


def refuse_while_waiting(rt: Runtime) -> None:
    """409 while the table waits, saying for whom."""
    if waiting(rt):
        raise Conflict(
            f"the table is waiting for its players ({describe(waiting_for(rt))}): nobody moves yet"
        )


def describe(seats: list[dict[str, Any]]) -> str:
    parts = []
    for s in seats:
        if s["offer"] == INVITE:
            parts.append(f"Seat {s['seat'] + 1}: {s['name'] or 'an invited player'} is invited")
        else:
            parts.append(
                f"Seat {s['seat'] + 1}: {'anyone with the link' if s['offer'] == 'link' else 'open'}"
            )
    return "; ".join(parts)


def table_view(rt: Runtime) -> dict[str, Any]:
    """The table's part of every view (the same for every seat): ``waiting`` and ``waiting_for``,
    ``rematch`` (the id of the game a rematch made), and ``table`` (host seat, turn-based settings)."""
    table = table_of(rt)
    is_waiting = waiting(rt)
    return {
        "waiting": is_waiting,
        "waiting_for": waiting_for(rt) if is_waiting else [],
        "rematch": None if table is None else table.rematch_id,
        "table": None
        if table is None
        else {"host_seat": table.host_seat, "turn_hours": table.turn_hours, "on_timeout": table.on_timeout},
    }
