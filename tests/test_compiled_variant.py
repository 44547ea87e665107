"""Which build of the hot modules a run tests: the checkout's pure Python by default, and the copy that
``benchmarks/mypyc_build.py`` compiles when ``scripts/test`` runs the rules' and bots' tests on it
(``LUDUS_COMPILED=1``). Neither run may test the other build by mistake: a stale ``.so`` in the
checkout would shadow its sources, and a compiled run that imported the checkout would prove nothing."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sysconfig
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("mypyc_build", CHECKOUT / "benchmarks" / "mypyc_build.py")
assert _spec is not None and _spec.loader is not None
_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_build)
MODULES: tuple[str, ...] = _build.MODULES


@pytest.mark.parametrize("module", MODULES)
def test_each_hot_module_is_the_build_the_run_tests(module: str) -> None:
    loaded = Path(
        str(importlib.import_module("ludus." + module.removesuffix(".py").replace("/", ".")).__file__)
    )
    if os.environ.get("LUDUS_COMPILED") == "1":
        assert loaded.name.endswith(str(sysconfig.get_config_var("EXT_SUFFIX"))), f"{loaded} is not compiled"
        assert CHECKOUT not in loaded.parents, f"{loaded} is the checkout's, not the compiled copy's"
    else:
        assert loaded == CHECKOUT / "ludus" / module, f"{loaded} shadows the checkout's source"


@pytest.mark.parametrize("game_name", ["celtae", "garum"])
def test_a_state_clones_by_the_copy_of_its_build(game_name: str) -> None:
    """Compiled, a built-in game's state keeps its fields in slots; interpreted, in a dict. Celtae
    copies them by a way for each build (``_copy_slots`` compiled, the dict at once interpreted), and
    a clone that took the other build's way would lose its fields; Garum's one copy sets attributes,
    which both builds keep."""
    import ludus

    if game_name == "celtae":
        state = importlib.import_module("ludus.games.celtae.state")
        assert state._SLOTS is (os.environ.get("LUDUS_COMPILED") == "1")
    game = ludus.load_game(game_name, players=3)
    original = game.new_initial_state(seed=5)
    for _ in range(40):
        original.apply_action(original.legal_actions()[-1])
    clone = original.clone()
    assert clone.to_json() == original.to_json()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.to_json() != original.to_json()
