"""The example plugins (examples/pig, examples/liars_dice) installed as packages of their own, as a
plugin author's users install them: ``pip install`` into a folder, then that folder on the path
(``sys.path`` reaches the server's worker processes too: they are spawned with it)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ludus.engine import registry

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {"pig": "ludus_pig", "liars_dice": "ludus_liars_dice"}  # game name -> its package


def install(target: Path) -> Path:
    """``pip install`` every example into ``target`` (no dependencies: ludus is here already)."""
    paths = [str(ROOT / "examples" / name) for name in EXAMPLES]
    command = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), *paths]
    subprocess.run(command, check=True)
    return target


@contextmanager
def on_path(target: Path) -> Iterator[Path]:
    """The installed examples found by ludus (the registry looked up again), then forgotten."""
    sys.path.insert(0, str(target))
    registry.refresh()
    try:
        yield target
    finally:
        sys.path.remove(str(target))
        for name in [m for m in sys.modules if m.split(".")[0] in EXAMPLES.values()]:
            del sys.modules[name]
        registry.refresh()
