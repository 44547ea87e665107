"""Bots and hints think in worker processes of their own (``BotPool``), never in the server's.

In the server's process a thinking bot shares one GIL with every request: three games of 5-second
bots made honest moves ten times slower. A job here carries the position as ``state.to_json()``
with the game's name and configuration; the worker loads the game once (kept), builds the bot with
the bot factory named by dotted path (``module:function(kind, seconds, seed)``, by default
``seatbots.make_seat_bot``), runs ``bot.step`` and answers the action's notation; a hint job
answers ``ludus.bots.hint``'s list; a "call" job (``call_job``) runs other CPU work the server keeps
out of its own process (a replay's step) and answers what it returns.

Jobs wait in a ``FairQueue``: hosts (the digest of a game's creator's address) are served
round-robin, and within a host its games round-robin; urgent jobs (a stand-in's move after a bot
failed) go first. A free worker takes the next job, so one address's flood of slow bots makes
another address's job wait at most for the jobs already running.

Each worker is fed and watched by a thread of the server. A job's budget counts from when the
worker says it started (the position loaded); a worker still busy ``overrun_seconds(budget)``
later is killed (SIGKILL) and replaced, and its job fails with ``BotFailed``, as does the job of a
worker that died; a replacement is started at once. Workers are started with "spawn" (the server
has threads: no plain fork) when first needed; ``close`` cancels waiting jobs, stops idle workers
and kills busy ones.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import orjson

import ludus
from ludus.engine import Game, State

log = logging.getLogger("ludus.server")

DEFAULT_FACTORY = "ludus.server.seatbots:make_seat_bot"
START_SECONDS = 60.0  # a new worker must be ready, and a job's position loaded, within this
UNKNOWN_HOST = "unknown"  # the one queue of the games made before their host was kept
_CONTEXT = multiprocessing.get_context("spawn")
# Workers are background work: on a machine short of cores the request process (moves, views) runs
# first and a worker thinks in what is left (its budget is wall-clock time all the same).
WORKER_NICE = 10


def overrun_seconds(budget: float) -> float:
    """How long after it started a job may think before its worker is killed."""
    return budget * 2 + 1


class BotFailed(Exception):
    """A job got no answer: its worker overran the budget (and was killed) or died, or it raised."""


def resolve_factory(path: str) -> Callable[..., Any]:
    """The callable at ``module:name`` (ValueError saying what is wrong)."""
    module, sep, name = path.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"a bot factory is named 'module:function', not {path!r}")
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"bot factory {path!r}: {exc}") from None
    if not callable(found):
        raise ValueError(f"bot factory {path!r} is not callable")
    return found  # type: ignore[no-any-return]


@dataclass(eq=False)
class Job:
    """One decision to think about: ``kind`` "bot" (``params``: bot, seconds, seed) or "hint" (n,
    seconds, seed); ``seconds`` is its budget; ``done`` gets the answer or ``BotFailed``."""

    kind: str
    host: str | None
    game_id: str
    state: State | None  # None for a "call" job
    params: dict[str, Any]
    seconds: float
    done: Future[Any] = field(default_factory=Future)

    def message(self) -> tuple[str, str, dict[str, Any], str, dict[str, Any]]:
        if self.state is None:  # a "call": params are the target and its arguments
            return (self.kind, "", {}, "", self.params)
        game = self.state.game
        return (self.kind, game.name, dict(game.config), self.state.to_json(), self.params)


def call_job(host: str, key: str, target: str, args: tuple[Any, ...], seconds: float) -> Job:
    """A job that calls ``target`` (``module:function``, importable in a worker) with ``args`` (picklable)
    and answers what it returns: other CPU work the server keeps out of its own process (replays)."""
    return Job("call", host, key, None, {"target": target, "args": args}, seconds)


class FairQueue:
    """Jobs served round-robin by host, then round-robin by game within a host; urgent jobs first.

    Round-robin with a memory: the next job is of the host served longest ago (or never), and of
    that host's game served longest ago, so a host whose only game has just been served and asks
    again goes ahead of the hosts served since. Not locked: the pool holds its condition around
    every call.
    """

    REMEMBERED = 10_000  # hosts and games whose last service is kept (the oldest forgotten first)

    def __init__(self) -> None:
        self._urgent: deque[Job] = deque()
        self._hosts: dict[str, dict[str, deque[Job]]] = {}  # host -> game -> its waiting jobs
        self._served: OrderedDict[tuple[str, str | None], int] = OrderedDict()  # oldest first
        self._clock = 0
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def put(self, job: Job, urgent: bool = False) -> None:
        if urgent:
            self._urgent.append(job)
        else:
            games = self._hosts.setdefault(job.host or UNKNOWN_HOST, {})
            games.setdefault(job.game_id, deque()).append(job)
        self._count += 1

    def take(self) -> Job | None:
        """The next job (None if there is none)."""
        if self._urgent:
            self._count -= 1
            return self._urgent.popleft()
        if not self._hosts:
            return None
        host = min(self._hosts, key=lambda h: self._served.get((h, None), 0))
        games = self._hosts[host]
        game = min(games, key=lambda g: self._served.get((host, g), 0))
        jobs = games[game]
        job = jobs.popleft()
        if not jobs:
            del games[game]
            if not games:
                del self._hosts[host]
        for key in ((host, None), (host, game)):
            self._clock += 1
            self._served.pop(key, None)
            self._served[key] = self._clock
        while len(self._served) > self.REMEMBERED:
            self._served.popitem(last=False)
        self._count -= 1
        return job

    def drain(self) -> list[Job]:
        jobs = [*self._urgent, *(job for games in self._hosts.values() for q in games.values() for job in q)]
        self._urgent.clear()
        self._hosts.clear()
        self._count = 0
        return jobs


class BotPool:
    """``processes`` worker processes fed from one ``FairQueue``; each is started when first needed."""

    def __init__(self, processes: int, factory: str = DEFAULT_FACTORY) -> None:
        resolve_factory(factory)  # a wrong name is an error now, not in every worker
        self.processes = max(1, processes)
        self.factory = factory
        self.stats: Counter[str] = Counter()  # "bot", "hint" answered; "overran", "died", "failed"
        self._queue = FairQueue()
        self._cond = threading.Condition()
        self._workers: list[_Worker] = []
        self._closed = False

    def submit(self, job: Job, urgent: bool = False) -> Future[Any]:
        """Queue ``job``; its ``done`` future gets the answer. Cancel it to take it out of the queue."""
        with self._cond:
            if self._closed:
                raise RuntimeError("the bot pool is closed")
            self._queue.put(job, urgent)
            idle = len(self._workers) - sum(worker.busy for worker in self._workers)
            if len(self._queue) > idle and len(self._workers) < self.processes:
                worker = _Worker(self, len(self._workers))
                self._workers.append(worker)
                worker.thread.start()
            self._cond.notify()
        return job.done

    def waiting(self) -> int:
        with self._cond:
            return len(self._queue)

    def pids(self) -> list[int]:
        """The worker processes alive now."""
        return [w.process.pid for w in list(self._workers) if w.process is not None and w.process.is_alive()]

    @property
    def closed(self) -> bool:
        return self._closed

    def _take(self, worker: _Worker) -> Job | None:
        """The next job for ``worker`` (then busy), waiting for one; None once the pool is closed."""
        with self._cond:
            worker.busy = False
            while not self._closed:
                job = self._queue.take()
                if job is not None:
                    worker.busy = True
                    return job
                self._cond.wait()
            return None

    def _count(self, what: str) -> None:
        with self._cond:
            self.stats[what] += 1

    def close(self) -> None:
        """Cancel the waiting jobs, stop idle workers, kill busy ones, and wait for all of them."""
        with self._cond:
            self._closed = True
            for job in self._queue.drain():
                job.done.cancel()
            self._cond.notify_all()
            workers = list(self._workers)
        for worker in workers:
            worker.stop()
        for worker in workers:
            worker.thread.join(timeout=10)
        for worker in workers:
            worker.reap()


class _Worker:
    """One worker process and the server thread that feeds it jobs and watches its time."""

    def __init__(self, pool: BotPool, index: int) -> None:
        self.pool = pool
        self.index = index
        self.process: Any = None  # a multiprocessing Process, once started
        self.conn: Any = None  # the server's end of its pipe
        self.busy = False  # holding a job (set under the pool's condition)
        self._lock = threading.Lock()  # held while a job is in the pipe
        self.thread = threading.Thread(target=self._run, name=f"ludus-botpool-{index}", daemon=True)

    def _run(self) -> None:
        while (job := self.pool._take(self)) is not None:
            if not job.done.set_running_or_notify_cancel():
                continue
            with self._lock:
                try:
                    answer = self._think(job)
                except BotFailed as exc:
                    self.pool._count("failed")
                    job.done.set_exception(exc)
                except BaseException as exc:  # a bug here must not end the thread with a job unanswered
                    log.exception("bot pool worker %d failed", self.index)
                    self._replace("failed", "failed")  # its pipe may be out of step
                    job.done.set_exception(BotFailed(f"the pool failed: {exc}"))
                else:
                    self.pool._count(job.kind)
                    job.done.set_result(answer)
                if self.process is None and not self.pool.closed:  # killed or dead: replace it now
                    with contextlib.suppress(BotFailed):
                        self._ensure()

    def _think(self, job: Job) -> Any:
        self._ensure()
        try:
            self.conn.send(job.message())
            status, value = self._answer(START_SECONDS, "did not load the position")
            if status == "started":
                limit = overrun_seconds(job.seconds)
                status, value = self._answer(limit, f"was still thinking {limit:g} s after it started")
        except _Overran as exc:
            self._replace("overran", str(exc))
            raise BotFailed(f"its worker {exc} and was killed") from None
        except (EOFError, OSError):
            self._replace("died", "died")
            raise BotFailed("its worker process died") from None
        if status != "done":
            raise BotFailed(f"it failed: {value}")
        return value

    def _answer(self, seconds: float, late: str) -> tuple[str, Any]:
        if not self.conn.poll(seconds):
            raise _Overran(late)
        return self.conn.recv()  # type: ignore[no-any-return]

    def _ensure(self) -> None:
        """A live worker process: started if there is none, replaced if it died while idle."""
        if self.process is not None and not self.process.is_alive():
            self._replace("died", "died while idle")
        if self.process is not None:
            return
        if self.pool.closed:
            raise BotFailed("the bot pool is closed")
        parent, child = _CONTEXT.Pipe()
        process = _CONTEXT.Process(
            target=serve, args=(child, self.pool.factory), name=f"ludus-bot-{self.index}", daemon=True
        )
        process.start()
        child.close()
        self.process, self.conn = process, parent
        try:
            status, value = self._answer(START_SECONDS, "did not start")
        except (_Overran, EOFError, OSError) as exc:
            self._replace("failed", f"could not start: {exc}")
            raise BotFailed(f"a worker process could not start: {exc}") from None
        if status != "ready":
            self._replace("failed", f"could not start: {value}")
            raise BotFailed(f"a worker process could not start: {value}")

    def _replace(self, why: str, detail: str) -> None:
        """Kill the worker process (if it still runs) and forget it."""
        process, conn = self.process, self.conn
        self.process = self.conn = None
        if process is not None:
            if why != "failed" and not self.pool.closed:  # closing: it was killed on purpose
                self.pool._count(why)
                log.warning("bot worker process %s %s; it is replaced", process.pid, detail)
            if process.is_alive():
                process.kill()
            process.join(timeout=10)
        if conn is not None:
            conn.close()

    def stop(self) -> None:
        """The pool closes: an idle worker is told to stop, a busy one is killed."""
        if self._lock.acquire(blocking=False):
            try:
                if self.conn is not None:
                    self.conn.send(None)
            except OSError:
                pass
            finally:
                self._lock.release()
        elif (process := self.process) is not None and process.is_alive():
            process.kill()

    def reap(self) -> None:
        """After its thread ended: wait for the process to exit (killed if it does not)."""
        process, conn = self.process, self.conn
        self.process = self.conn = None
        if process is not None:
            if process.is_alive() and conn is not None:  # one started as the pool closed
                with contextlib.suppress(OSError):
                    conn.send(None)
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join(timeout=10)
        if conn is not None:
            conn.close()


class _Overran(Exception):
    pass


# -- the worker process ------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _game(name: str, config: bytes) -> Game:
    return ludus.load_game(name, **orjson.loads(config))


def serve(conn: Any, factory_path: str) -> None:
    """A worker process's life: answer jobs until told to stop or the server is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C of the server: the server stops its workers
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)  # the server's own process (every request) goes first for the CPU
    try:
        factory = resolve_factory(factory_path)
        from ludus.bots.hint import hint
    except Exception as exc:
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
        return
    conn.send(("ready", os.getpid()))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return  # the server is gone
        if message is None:
            return
        kind, name, config, text, params = message
        try:
            if kind == "call":
                conn.send(("started", None))
                reply: tuple[str, Any] = ("done", resolve_factory(params["target"])(*params["args"]))
            elif kind == "bot":
                state = _game(name, orjson.dumps(config, option=orjson.OPT_SORT_KEYS)).state_from_json(text)
                conn.send(("started", None))
                bot = factory(params["bot"], params["seconds"], params["seed"])
                reply = ("done", str(bot.step(state)))
            else:
                state = _game(name, orjson.dumps(config, option=orjson.OPT_SORT_KEYS)).state_from_json(text)
                conn.send(("started", None))
                started = time.perf_counter()
                hints = hint(state, n=params["n"], seconds=params["seconds"], seed=params["seed"])
                reply = ("done", {"hints": hints, "seconds": round(time.perf_counter() - started, 3)})
        except Exception as exc:
            reply = ("error", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except OSError:
            return
