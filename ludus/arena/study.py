"""Running the games of a study: on every core, streamed to disk as they finish, resumable.

A study is a fixed list of tasks (each a dict with an ``index`` and what makes it that game:
game, configuration, seats, seed). ``run_study`` plays them in worker processes (or on Ray)
and appends each finished game to a JSON-lines journal at once, so that a study stopped
half-way (Ctrl-C, a crash, a closed laptop) keeps its games: run again with the same
arguments, the games already in the journal are read back instead of played. A journal
that holds games of another study is refused rather than mixed in.

Progress (a bar with an ETA) is drawn on stderr only when stderr is a terminal.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path
from typing import Any

RAY_CONNECT_TIMEOUT = 10.0
"""Seconds to wait for a Ray cluster's address to answer before giving up."""

BATCH_GC = (100_000, 50, 100)
"""The garbage collector's thresholds while a study plays its games (``batch_gc``)."""


def default_jobs() -> int:
    """Worker processes by default: every core."""
    return os.cpu_count() or 1


def check_jobs(jobs: int | None) -> int:
    """``jobs`` as a positive count (None: every core); anything else is refused."""
    if jobs is None:
        return default_jobs()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"the number of jobs must be at least 1, got {jobs!r}")
    return jobs


class StudyError(RuntimeError):
    """A game of the study failed; its record (seed, seats) is in the message for a replay."""


# -- the journal ---------------------------------------------------------------------------


def read_journal(path: Path) -> list[dict[str, Any]]:
    """The complete records of a journal (a line cut short by an interruption is dropped)."""
    records = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict) and isinstance(record.get("index"), int) and "error" not in record:
                records.append(record)
    return records


def open_journal(
    path: str | Path, tasks: Sequence[dict[str, Any]], identity: Sequence[str]
) -> tuple[Any, dict[int, dict[str, Any]]]:
    """Open ``path`` for appending and return it with the games it already holds, by index.

    Raises ValueError (nothing written) when the file cannot be written or holds games of
    another study (a record whose ``identity`` fields differ from the task of its index).
    """
    path = Path(path)
    done: dict[int, dict[str, Any]] = {}
    try:
        if path.parent != Path("."):
            path.parent.mkdir(parents=True, exist_ok=True)
        existing = read_journal(path) if path.exists() else []
        by_index = {t["index"]: t for t in tasks}
        beyond: dict[int, dict[str, Any]] = {}  # games past this run's count (a longer run of the same study)
        for record in existing:
            task = by_index.get(record["index"])
            if task is None:
                beyond[record["index"]] = record
                continue
            differs = [f for f in identity if _jsonable(task.get(f)) != record.get(f)]
            if differs:
                raise ValueError(
                    f"{path} holds games of another study (game {record['index']} differs in "
                    f"{', '.join(differs)}); give another file, or remove it to start again"
                )
            done[record["index"]] = record
        if existing or (path.exists() and path.stat().st_size):
            # rewrite without a cut line or failed games, so that appends start on a fresh line
            tmp = path.with_name(path.name + ".tmp")
            kept = {**beyond, **done}
            with open(tmp, "w", encoding="utf-8") as fh:
                for i in sorted(kept):
                    fh.write(json.dumps(kept[i]) + "\n")
            os.replace(tmp, path)
        fh = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by run_study
    except OSError as exc:
        raise ValueError(f"cannot write {path}: {exc.strerror or exc}") from None
    return fh, done


def _jsonable(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


# -- progress ------------------------------------------------------------------------------


@contextmanager
def progress_bar(show: bool, description: str, total: int, done: int = 0) -> Iterator[Callable[[], None]]:
    """A function advancing a rich bar with an ETA on stderr; the bar is drawn only on a terminal."""
    if not show or not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=False,
    )
    with bar:
        job = bar.add_task(description, total=total, completed=done)
        yield lambda: bar.advance(job)


# -- running -------------------------------------------------------------------------------


def run_study(
    tasks: Sequence[dict[str, Any]],
    work: Callable[[dict[str, Any]], dict[str, Any]],
    *,
    jobs: int | None = None,
    journal: str | Path | None = None,
    identity: Sequence[str] = ("seed",),
    ray_address: str | None = None,
    progress: bool = True,
    description: str = "games",
) -> list[dict[str, Any]]:
    """Play every task with ``work`` (a module-level function) and return the records in task order.

    ``work(task)`` returns the game's record (with the task's ``index``), or a record with an
    ``"error"`` text if the game failed. Records are appended to ``journal`` as they finish;
    games already there (same ``identity`` fields) are not played again. ``jobs`` processes
    (default: every core), or Ray at ``ray_address``. A failed game raises StudyError once
    the others are done (failed games are not journalled, so a rerun plays them again).
    """
    jobs = check_jobs(jobs)
    fh, done = open_journal(journal, tasks, identity) if journal is not None else (None, {})
    todo = [t for t in tasks if t["index"] not in done]
    results = dict(done)
    failed: list[dict[str, Any]] = []

    def finish(record: dict[str, Any]) -> None:
        if "error" in record:
            failed.append(record)
            return
        results[record["index"]] = record
        if fh is not None:
            fh.write(json.dumps(record) + "\n")
            fh.flush()

    try:
        with progress_bar(progress, description, len(tasks), len(done)) as tick:
            if not todo:
                pass
            elif ray_address is not None:
                for record in _ray_results(todo, work, ray_address, jobs):
                    finish(record)
                    tick()
            elif jobs == 1 or len(todo) == 1:
                for task in todo:
                    finish(_play(work, task))
                    tick()
            else:
                for record in _pool_results(todo, work, jobs):
                    finish(record)
                    tick()
    finally:
        if fh is not None:
            fh.close()
    if failed:
        first = min(failed, key=lambda r: r["index"])
        raise StudyError(
            f"{len(failed)} game(s) failed; first: game {first['index']} (seed {first.get('seed')}, "
            f"seats {','.join(map(str, first.get('seats', [])))}): {first['error']}"
        )
    return [results[t["index"]] for t in tasks]


@contextmanager
def batch_gc() -> Iterator[None]:
    """Python's garbage collector set for playing games in bulk (``BATCH_GC``), then set back.

    The bots' look-ahead copies states by the thousand (short-lived lists, freed by reference
    counting) while their memos keep thousands of values alive, and every full pass of the
    collector walks those: at Python's default thresholds (700, 10, 10) the passes took ~10 % of
    a 4-player greedy study's time. Young objects are collected every 100,000 allocations here and
    the older generations seldom: the same games, in the same memory (docs/benchmarks.md). The
    built-in games' states and the search's trees hold no cycles (``ludus.bots.ismcts._Node``), so
    reference counting frees them when a decision is made; a game whose states hold cycles leaves
    them to wait for the collector.
    """
    before = gc.get_threshold()
    gc.set_threshold(*BATCH_GC)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _play(work: Callable[[dict[str, Any]], dict[str, Any]], task: dict[str, Any]) -> dict[str, Any]:
    """``work(task)`` under ``batch_gc``: one game in a worker process or a Ray task."""
    with batch_gc():
        return work(task)


def _pool_results(tasks: Sequence[dict[str, Any]], work: Callable, jobs: int) -> Iterator[dict[str, Any]]:
    """Records as the worker processes finish them.

    On Ctrl-C (or any error) the workers are stopped at once: the games they were playing
    are lost, the finished ones are already in the journal, and a rerun plays the rest.
    """
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(tasks)))
    try:
        pending = {pool.submit(_play, work, task) for task in tasks}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
    except BaseException:
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()  # else each worker would go on with the games already queued to it
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def check_ray_address(address: str, timeout: float = RAY_CONNECT_TIMEOUT) -> None:
    """Refuse (ValueError) a ``host:port`` or ``ray://host:port`` that does not answer in ``timeout`` s.

    ``ray.init`` on an address nobody listens at retries for minutes and does not stop on
    SIGTERM; a plain TCP connection with a timeout says at once that the cluster is not there.
    """
    if address in ("local", "auto"):
        return
    target = address.split("://", 1)[-1]
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"Ray address {address!r} is not 'local', 'auto', host:port or ray://host:port")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        reason = (
            f"no answer within {timeout:g} s" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        )
        raise ValueError(f"no Ray cluster answers at {address}: {reason}") from None


def _ray_results(
    tasks: Sequence[dict[str, Any]], work: Callable, address: str, jobs: int
) -> Iterator[dict[str, Any]]:
    """Records as Ray tasks finish them.

    An already initialised Ray (``ray.init`` by the caller) is used as it is. Otherwise
    ``"local"`` starts a private instance with ``jobs`` CPUs, and any other address
    (``"auto"``, ``"host:6379"``, ``"ray://host:10001"``) joins a running cluster once it
    answers; either way the connection made here is closed at the end.
    """
    try:
        import ray
    except ImportError:
        raise RuntimeError(
            "ray_address was given but ray is not installed (pip install 'ludus[ray]')"
        ) from None
    started = not ray.is_initialized()
    if started:
        check_ray_address(address)
        try:
            if address == "local":
                ray.init(address="local", num_cpus=jobs, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        except (
            ConnectionError
        ) as exc:  # something answers there, but not a Ray cluster (after ~20 s of retries)
            raise ValueError(f"no Ray cluster answers at {address}: {exc}") from None
    try:
        remote = ray.remote(_play)
        waiting = [remote.remote(work, task) for task in tasks]
        while waiting:
            ready, waiting = ray.wait(waiting, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()
