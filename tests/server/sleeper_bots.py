"""Bots for the tests of the bots' worker processes: ``create_app(bot_factory="sleeper_bots:make")``.

They are built in the pool's worker processes (a monkeypatch would not reach them there), think by
sleeping (no CPU) and write each decision's start and end to the file named by ``LUDUS_SLEEPER_LOG``
(read back with ``events``), so that tests count decisions instead of timing them. By the seat's
bot name:

- ``random``: answers at once, the first legal action;
- ``greedy`` (the stand-in): answers at once, the last legal action;
- ``ismcts``: sleeps exactly its budget, then the first legal action (a slow bot within its budget);
- ``expert``: sleeps ten minutes, far past any budget (a bot that must be killed).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

LOG = "LUDUS_SLEEPER_LOG"
STUCK_SECONDS = 600.0


class Sleeper:
    def __init__(self, name: str, seconds: float) -> None:
        self.name = name
        self.seconds = seconds

    def step(self, state: Any) -> Any:
        _write("start", self.name, self.seconds)
        if self.name == "ismcts":
            time.sleep(self.seconds)
        elif self.name == "expert":
            time.sleep(STUCK_SECONDS)
        legal = state.legal_actions()
        action = legal[-1] if self.name == "greedy" else legal[0]
        _write("done", self.name, self.seconds, str(action))
        return action


def make(kind: str, seconds: float, seed: int) -> Sleeper:
    """The bot factory (``module:function(kind, seconds, seed)``) the tests name."""
    return Sleeper(kind.split(":")[0], seconds)


def _write(event: str, name: str, seconds: float, action: str | None = None) -> None:
    path = os.environ.get(LOG)
    if not path:
        return
    line = json.dumps({"event": event, "bot": name, "seconds": seconds, "action": action, "pid": os.getpid()})
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (line + "\n").encode())  # one write of an appended line: never interleaved
    finally:
        os.close(fd)


def events(path: Path, event: str | None = None, bot: str | None = None) -> list[dict[str, Any]]:
    """The logged events, oldest first (only ``event`` ones of ``bot``, if given)."""
    if not path.exists():
        return []
    complete = path.read_text().split("\n")[:-1]  # a line still being written is left for next time
    found = [json.loads(line) for line in complete if line.strip()]
    return [e for e in found if event in (None, e["event"]) and bot in (None, e["bot"])]
