"""The Celtae engine's own shape: named phases, the turn context, its saved form, and the rules
modules (one per rulebook section) importing each other only downwards, by public names."""

from __future__ import annotations

import ast
import json
import os
import random
from pathlib import Path

import pytest

import ludus
from ludus.games.celtae.core import CONTEXT_FIELDS, Phase

from .helpers import CONFIGS

PACKAGE = Path(ludus.__file__).parent / "games" / "celtae"


def _positions(config: dict, seed: int):
    """Every state of one random game (the state itself, played on)."""
    state = ludus.load_game("celtae", **config).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        yield state
        state.apply_action(rng.choice(state.legal_actions()))
    yield state


@pytest.mark.parametrize("config", CONFIGS)
def test_each_phase_says_what_the_seat_to_move_does(config):
    seen = set()
    for s in _positions(config, 3):
        if not s.pending and not s.is_terminal():
            assert s.observation(None)["phase"] == Phase(s.phase).text
            seen.add(s.phase)
    assert Phase.START in seen and Phase.AREA in seen


@pytest.mark.parametrize("config", CONFIGS)
def test_the_turn_context_is_saved_as_the_earlier_list_of_15_numbers(config):
    game = ludus.load_game("celtae", **config)
    for i, s in enumerate(_positions(config, 5)):
        if i % 5:
            continue
        saved = json.loads(s.to_json())["state"]
        assert len(saved["ctx"]) == 15 and saved["ctx"][4] == 0
        assert s.ctx.to_list() == saved["ctx"]
        back = game.state_from_json(s.to_json())
        assert back.phase == s.phase
        assert {f: getattr(back.ctx, f) for f in CONTEXT_FIELDS} == {
            f: getattr(s.ctx, f) for f in CONTEXT_FIELDS
        }


def test_solitairix_turn_waiting_for_the_human_is_saved_and_resumed():
    config = {"players": 1}
    game = ludus.load_game("celtae", **config)
    waiting = None
    for seed in range(40):
        waiting = next((s.clone() for s in _positions(config, seed) if s.turn == 1 and s.ctx.sx_moved), None)
        if waiting is not None:
            break
    assert waiting is not None, "no game had Solitairix wait for the human's decision"
    ctx = waiting.ctx
    saved = json.loads(waiting.to_json())["state"]["ctx"]
    assert (saved[7], saved[6], saved[14]) == (
        ctx.sx_card,
        ctx.sx_steps,
        1,
    )  # the slots of colour, budget, taken
    back = game.state_from_json(waiting.to_json())
    assert (back.ctx.sx_card, back.ctx.sx_steps, back.ctx.sx_moved) == (ctx.sx_card, ctx.sx_steps, 1)
    assert (back.ctx.colour, back.ctx.budget, back.ctx.taken) == (-1, 0, 0)
    rng = random.Random(1)
    while not waiting.is_terminal():
        action = rng.choice(waiting.legal_actions())
        waiting.apply_action(action)
        back.apply_action(str(action))
    assert back.to_json() == waiting.to_json()


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:`` (imports for annotations only,
    never run: an encoder and its state writer name each other's types)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            continue
        yield node
        yield from _runtime_nodes(node)


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every relative import run in a module of the package, wherever it stands."""
    out = []
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = [a.name for a in node.names]
            if node.module:
                out.append((node.module, names))
            else:
                out += [(name, []) for name in names]  # from . import x
    return out


def test_the_packages_modules_import_downwards_only_and_by_public_names():
    graph = {}
    for path in PACKAGE.glob("*.py"):
        graph[path.stem] = set()
        for module, names in _imports(path):
            assert not [n for n in names if n.startswith("_")], (
                f"{path.name} imports private names of {module}"
            )
            graph[path.stem].add(module)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and (seen.add(nxt) or reaches(nxt, goal, seen))):
                return True
        return False

    cycles = sorted(m for m in graph if reaches(m, m, set()))
    assert not cycles, f"modules in an import cycle: {cycles}"


def test_an_action_pickled_in_another_process_hashes_as_this_ones():
    """A string's hash differs from process to process (``PYTHONHASHSEED``): an action made in one (a
    worker's record, a state sent to a Ray task) must find its equal in this one's dicts and sets."""
    import pickle
    import subprocess
    import sys

    from ludus.games.celtae.actions import Act

    made = subprocess.run(
        [
            sys.executable,
            "-c",
            "import pickle, sys; from ludus.games.celtae.actions import Act; "
            "sys.stdout.buffer.write(pickle.dumps([Act('swap', 1, 2), Act('done')]))",
        ],
        capture_output=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    ).stdout
    theirs = pickle.loads(made)
    ours = [Act("swap", 1, 2), Act("done")]
    assert theirs == ours
    assert {a: i for i, a in enumerate(ours)}[theirs[0]] == 0
    assert [hash(a) for a in theirs] == [hash(a) for a in ours]
