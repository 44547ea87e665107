"""The server's garbage collections run on a clock (ludus.server.tune_gc), in a process of their own."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_tune_gc_collects_every_generation_on_its_clock_and_none_on_allocations() -> None:
    code = textwrap.dedent("""
        import gc, time
        from ludus.server import tune_gc
        seen = []
        gc.callbacks.append(lambda phase, info: phase == "stop" and seen.append(info["generation"]))
        thread = tune_gc(young=0.01, middle=0.03, full=0.09)
        assert not gc.isenabled(), "automatic collection is still on"
        keep = [[i] for i in range(200_000)]  # far past any allocation threshold: no collection by itself
        time.sleep(0.5)
        print(thread.name, thread.daemon, sorted(set(seen)), seen.count(0) > seen.count(1) > seen.count(2) > 0)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["ludus-gc", "True", "[0,", "1,", "2]", "True"]
