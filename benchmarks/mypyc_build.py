"""The optional compiled variant: the hot rules, heuristic and observation modules built with mypyc, into a copy.

Pure Python stays the default and the only thing in the checkout: this copies the ``ludus``
package to ``OUT/ludus`` and compiles ``MODULES`` there (``.so`` files beside their sources, which
Python imports first), so that a run with ``PYTHONPATH=OUT`` uses the compiled modules and every
other run the pure-Python ones. Built in place, stale ``.so`` files would shadow every later edit.
Each game's state becomes a native class (its fields slots the compiled code reads directly), over
the engine's ``State``, compiled with them and open to interpreted subclasses (plugins', tests');
mypyc compiles the same arithmetic in the same order, so decisions are unchanged (run the bots'
reference tests with ``PYTHONPATH=OUT`` to check).

    .venv/bin/python benchmarks/mypyc_build.py /tmp/ludus-compiled       # needs mypyc and a C compiler
    PYTHONPATH=/tmp/ludus-compiled .venv/bin/python benchmarks/targets.py
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "ludus"

# measured with benchmarks/targets.py beside the pure-Python build; kept where they paid
MODULES = (
    "engine/state.py",
    "engine/rand.py",
    "games/garum/data.py",
    "games/garum/state.py",
    "games/garum/heuristic.py",
    "games/garum/encoder_state.py",
    "games/celtae/encoder_state.py",
) + tuple(
    f"games/celtae/{name}.py"
    for name in (
        "data",
        "core",
        "state",
        "heuristic",
        "heuristic_means",
        "scoring",
        "turn",
        "farm",
        "build",
        "battle",
        "recruit",
        "supply",
        "progress",
        "order",
        "hidden",
    )
)


def build(out: Path, modules: tuple[str, ...] = MODULES) -> None:
    """Copy the package to ``out/ludus`` (replacing an older copy) and compile ``modules`` there."""
    mypyc = Path(sys.executable).with_name("mypyc")
    if not mypyc.exists():
        raise SystemExit(f"error: {mypyc} is missing: install mypy (it ships mypyc) and a C compiler")
    target = out / "ludus"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    sources = [f"ludus/{m}" for m in modules]
    subprocess.run([str(mypyc), *sources], cwd=out, check=True, stdout=subprocess.DEVNULL)
    print(f"compiled {len(sources)} modules into {target}; run with PYTHONPATH={out}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to build the compiled copy in (not the checkout)")
    args = parser.parse_args(argv)
    out = args.out.resolve()
    if out == PACKAGE.parent or PACKAGE.parent in out.parents:
        parser.error("build the compiled copy outside the checkout: its .so files would shadow the sources")
    out.mkdir(parents=True, exist_ok=True)
    build(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
