"""Each game lives whole in its own package, reached only through the registry and its hooks.

Outside ``ludus/games/<name>/`` no module imports a game's modules or spells its name — in code,
string literals or docstrings (checked on the syntax tree; comments are not read) — and no file the
browser client ships (its HTML, CSS and JavaScript) names one: a third game brings everything of its
own and gets every layer without an edit of ludus. A game does not import another game.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import ludus
from ludus.engine.registry import game_class

PACKAGE = Path(ludus.__file__).parent
GAMES = PACKAGE / "games"
BUILT_IN = sorted(p.name for p in GAMES.iterdir() if (p / "game.py").is_file())


def _words(name: str) -> re.Pattern[str]:
    """A game's name or title as a word of its own, in any case (``garum``, ``Garum``, ``GARUM``)."""
    spellings = {name, game_class(name).display_title()}
    return re.compile(r"(?<![A-Za-z])(" + "|".join(re.escape(s) for s in spellings) + r")(?![a-z])", re.I)


def _outside(name: str) -> list[Path]:
    """Every Python module of ludus but those of game ``name``'s own package."""
    own = GAMES / name
    return [p for p in PACKAGE.rglob("*.py") if own not in p.parents]


def _imported(path: Path) -> list[str]:
    """The absolute module names a module imports (relative ones resolved from where it stands)."""
    inside = path.is_relative_to(PACKAGE.parent)
    package = path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1] if inside else ()
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            out += [module] + [f"{module}.{alias.name}" for alias in node.names]
    return out


def _spelled(path: Path, words: re.Pattern[str]) -> list[str]:
    """Where the syntax tree of a module holds one of ``words``: names, attributes and string constants."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        texts = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            texts.append(node.value)
        elif isinstance(node, ast.Name):
            texts.append(node.id)
        elif isinstance(node, ast.Attribute):
            texts.append(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef):
            texts.append(node.name)
        for text in texts:
            if words.search(text):
                found.append(f"line {getattr(node, 'lineno', '?')}: {text[:80]!r}")
    return found


def test_the_built_in_games_are_found():
    assert {"garum", "celtae"} <= set(BUILT_IN) <= set(ludus.game_names())


@pytest.mark.parametrize("name", BUILT_IN)
def test_no_module_outside_a_games_package_imports_it(name):
    own = f"ludus.games.{name}"
    bad = {
        str(path.relative_to(PACKAGE.parent)): [
            m for m in _imported(path) if m == own or m.startswith(own + ".")
        ]
        for path in _outside(name)
    }
    assert not {k: v for k, v in bad.items() if v}


@pytest.mark.parametrize("name", BUILT_IN)
def test_no_module_outside_a_games_package_spells_its_name(name):
    words = _words(name)
    bad = {str(p.relative_to(PACKAGE.parent)): _spelled(p, words) for p in _outside(name)}
    assert not {k: v for k, v in bad.items() if v}


@pytest.mark.parametrize("name", BUILT_IN)
def test_the_browser_clients_own_files_name_no_game(name):
    words = _words(name)
    static = PACKAGE / "web" / "static"
    bad = {
        str(p.relative_to(static)): [
            line for line in p.read_text(encoding="utf-8").splitlines() if words.search(line)
        ]
        for p in static.rglob("*")
        if p.suffix in (".js", ".html", ".css")
    }
    assert not {k: v for k, v in bad.items() if v}


def test_the_structure_check_finds_a_name_where_one_is_spelled(tmp_path):
    """The check itself can fail: a module naming a game in a docstring, a string or an import."""
    module = tmp_path / "m.py"
    module.write_text('"""Plays Garum."""\nimport ludus.games.celtae.state\nx = "celtae"\n')
    assert _spelled(module, _words("garum")) and _spelled(module, _words("celtae"))
    assert "ludus.games.celtae.state" in [m for m in _imported(module)]


def test_no_module_is_over_600_lines():
    """Small modules whose names say what they hold: Python and the browser's JavaScript alike."""
    long = {
        str(p.relative_to(PACKAGE.parent)): n
        for p in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.js")]
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600
    }
    assert not long
