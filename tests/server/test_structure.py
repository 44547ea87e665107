"""The server package stays small enough to read: short modules, simple functions, imports that
point one way (no module needs one that needs it back)."""

from __future__ import annotations

import ast
import subprocess
import sys
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import ludus.server

SERVER = Path(ludus.server.__file__).parent
MODULES = sorted(p for p in SERVER.glob("*.py"))
MAX_LINES = 600
MAX_COMPLEXITY = 15


def test_every_server_module_is_at_most_600_lines():
    long = {p.name: n for p in MODULES if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_every_server_function_has_complexity_at_most_15():
    found = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--isolated",
            "--select",
            "C901",
            "--output-format",
            "concise",
            "--config",
            f"lint.mccabe.max-complexity={MAX_COMPLEXITY}",
            str(SERVER),
        ],
        capture_output=True,
        text=True,
    )
    assert found.returncode == 0, found.stdout + found.stderr


def _runtime_imports(path: Path) -> set[str]:
    """The server modules ``path`` imports when it runs (imports under ``if TYPE_CHECKING`` left out)."""
    tree = ast.parse(path.read_text())
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and ast.unparse(block.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
        for stmt in block.body
        for node in ast.walk(stmt)
    }
    names = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names |= {node.module} if node.module else {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ludus.server."):
            names.add(node.module.split(".")[2])
    return {name.split(".")[0] for name in names} & {p.stem for p in MODULES}


def test_the_server_modules_import_one_another_without_a_cycle():
    graph = {p.stem: _runtime_imports(p) - {p.stem} for p in MODULES}
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as exc:
        raise AssertionError(f"import cycle among server modules: {exc.args[1]}") from None
