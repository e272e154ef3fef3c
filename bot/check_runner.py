"""Where a config check runs: in this process (console, Lambda; the CLI bounded by a timer and a cap) or in a pool of
processes (the bot).

A check reads text anyone in a workspace may paste; however well the readers are bounded, a
check must never take the process that answers everyone else with it. ``CheckPool`` runs each
check in a separate process with a deadline and a memory cap (``RLIMIT_AS``); a process that
exceeds either is killed and replaced, and the caller gets ``CheckAborted`` (a German message
says what to do instead). The unit of work is ``core.configs.check_config``'s call, and
``check_config`` itself is the in-process runner.

Processes are started from the process that uses the pool (an HTTP worker after the fork) as
fresh interpreters (``python -c``), no copy of the bot's threads or memory; jobs and outcomes
travel pickled over a socket pair (``multiprocessing.connection``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

# What only the pool needs (sockets, processes, logging) is imported where a check process is started: the CLI
# checks in its own process and imports none of it.
if TYPE_CHECKING:
    import subprocess
    from multiprocessing.connection import Connection

from effbatch.core.configs import MAX_CONFIG_BYTES, Check, CheckError, ProblemKind, Source, World, check_config

#: CPU seconds one check may use: the bound on a hostile input, counted in the check's own CPU time (a timer
#: signal on ``ITIMER_PROF``), so that a loaded machine – the check process runs at the lowest priority – does not
#: turn a real config into one that is "zu aufwendig".
CHECK_SECONDS = 2.0
#: Seconds of wall-clock time the bot waits for a check's answer beyond its CPU seconds (Slack waits 3 s for the
#: acknowledgement that carries it); a check not answered by then is "slow" (the machine is busy), not too costly.
WALL_GRACE = 0.5
#: Address space of a check process; an import of the readers takes ~60 MB of it, a real check a few more.
CHECK_MEMORY = 256 * 1024 * 1024
#: Check processes per bot process.
CHECK_PROCESSES = 2
#: Seconds a check waits for a free, started process before it is answered "busy": with the deadline, the answer
#: comes within Slack's 3 s.
WAIT_SECONDS = 0.5
#: Seconds the first checks may wait for the first process to start (an import on a loaded machine).
START_SECONDS = 15.0


class CheckRunner(Protocol):
    """Runs ``check_config``; raises ``CheckError`` for the config, ``CheckAborted`` when it was stopped."""

    def __call__(
        self,
        sources: Sequence[Source],
        world: World | None = None,
        framework: str | None = None,
        max_bytes: int = MAX_CONFIG_BYTES,
        *,
        gpu: str | None = None,
    ) -> Check: ...


class Abort(StrEnum):
    """Why a check was stopped before it had an answer."""

    DEADLINE = "deadline"  # it ran longer than the deadline
    MEMORY = "memory"  # it needed more memory than the cap
    BUSY = "busy"  # every check process was busy for longer than a check may wait
    SLOW = "slow"  # no answer in wall-clock time while the check had CPU time left: the machine is loaded


class CheckAborted(Exception):  # noqa: N818 - a stop, not a bug: named by what happened
    """The check was stopped (``reason``) before it had an answer; nothing else was affected."""

    def __init__(self, reason: Abort, seconds: float = CHECK_SECONDS, memory: int = CHECK_MEMORY) -> None:
        self.reason = reason
        self.seconds = seconds
        self.memory = memory
        super().__init__(reason.value)


class _PastDeadline(BaseException):
    """Raised into a check in this process by its timer: a BaseException, so no reader's ``except`` catches it."""


class _Bounded:
    """``check_config``'s call under a deadline and a memory cap, however a runner keeps them."""

    seconds: float
    memory: int

    def __call__(
        self,
        sources: Sequence[Source],
        world: World | None = None,
        framework: str | None = None,
        max_bytes: int = MAX_CONFIG_BYTES,
        *,
        gpu: str | None = None,
        settings: Mapping[str, str] | None = None,
        versions: Mapping[str, str] | None = None,
    ) -> Check:
        """``check_config``'s call; ``settings`` and ``versions`` (the CLI's ``--set`` and ``--framework-version``)
        are passed on only where given; ``CheckAborted`` at the deadline or the cap."""
        given = {"settings": dict(settings or {}), "versions": dict(versions or {})}
        options: dict[str, Any] = {"gpu": gpu} | {key: value for key, value in given.items() if value}
        return self._bounded((list(sources), world, framework, max_bytes), options)

    def _bounded(self, job: tuple[Any, ...], options: dict[str, Any]) -> Check:
        raise NotImplementedError


class BoundedCheck(_Bounded):
    """A check in this process, under a deadline and a memory cap as in a check process: for a command-line process
    that has no one else to answer (``effbatch check``). The deadline is a timer signal on the process's CPU time
    (so: the main thread; a pre-commit hook on a busy machine is not cut short), the cap ``RLIMIT_AS`` above what
    the process already maps (Linux); both are lifted after each check."""

    def __init__(
        self, seconds: float = CHECK_SECONDS, memory: int = CHECK_MEMORY, work: CheckRunner = check_config
    ) -> None:
        self.seconds, self.memory = seconds, memory
        self._work = work

    def _bounded(self, job: tuple[Any, ...], options: dict[str, Any]) -> Check:
        try:
            with _deadline(self.seconds), _capped(self.memory):
                return self._work(*job, **options)
        except _PastDeadline:
            raise CheckAborted(Abort.DEADLINE, self.seconds, self.memory) from None
        except MemoryError:
            raise CheckAborted(Abort.MEMORY, self.seconds, self.memory) from None


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    def stop(_signum: int, _frame: object) -> None:
        raise _PastDeadline

    previous = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)  # CPU time of this process, user and system
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


@contextlib.contextmanager
def _capped(memory: int) -> Iterator[None]:
    """``RLIMIT_AS`` at what this process maps now plus ``memory``; unchanged where the mapping is not known."""
    import resource

    try:
        with open("/proc/self/statm") as statm:  # Linux: the first field, the mapped size in pages
            mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        yield
        return
    limits = resource.getrlimit(resource.RLIMIT_AS)
    hard = limits[1]
    cap = mapped + memory if hard == resource.RLIM_INFINITY else min(mapped + memory, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, limits)


class CheckCrashedError(RuntimeError):
    """A check process raised something unexpected; its traceback, for the log."""


@dataclass(eq=False)
class _Worker:
    process: subprocess.Popen[bytes]
    connection: Connection
    ready: bool = False


class CheckPool(_Bounded):
    """``processes`` check processes, each check at most ``seconds`` of CPU time and ``memory`` bytes, answered
    within ``wall`` seconds (default: ``seconds`` + ``WALL_GRACE``); thread-safe."""

    def __init__(
        self,
        processes: int = CHECK_PROCESSES,
        seconds: float = CHECK_SECONDS,
        memory: int = CHECK_MEMORY,
        wait: float = WAIT_SECONDS,
        work: CheckRunner = check_config,
        wall: float | None = None,
    ) -> None:
        """``work`` is what a check process calls with the job, by reference (tests pass their stand-ins)."""
        self.seconds, self.memory, self.wait = seconds, memory, wait
        self.wall = wall if wall is not None else seconds + WALL_GRACE
        self._work = work
        self._size = processes
        self._owner = 0
        self._started = False
        self._lock = threading.Lock()
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._free = threading.Semaphore(processes)

    def start(self) -> None:
        """Start the processes now (else the first check does); in the process that will use them."""
        with self._lock:
            self._adopt()

    def _bounded(self, job: tuple[Any, ...], options: dict[str, Any]) -> Check:
        """The job in a check process (``CheckAborted`` "busy" when none is free in time)."""
        import logging

        self.start()
        waited_until = time.monotonic() + self.wait
        if not self._free.acquire(timeout=self.wait):
            raise CheckAborted(Abort.BUSY, self.seconds, self.memory)
        try:
            worker = self._take(waited_until)
            outcome = self._run(worker, (self._work, job, options, self.seconds))
        except BaseException:
            self._free.release()
            raise
        if outcome[0] in (Abort.DEADLINE, Abort.MEMORY, Abort.SLOW):
            logging.getLogger("effbatch").warning("config check stopped", extra={"detail": outcome[0]})
            # killing it and starting another takes a while: not on the caller's time (Slack waits 3 s)
            threading.Thread(target=self._replace_then_free, args=(worker,), daemon=True).start()
        else:
            self._give_back(worker)
            self._free.release()
        return _result(outcome, self)

    def pids(self) -> set[int]:
        """The process ids of this pool's check processes (for an operator's ``ps``, and the tests)."""
        with self._lock:
            return {worker.process.pid for worker in self._all}

    def running(self) -> int:
        """How many checks are running now."""
        with self._lock:
            return len(self._all) - len(self._idle)

    def close(self) -> None:
        """Stop every process, busy or not (a check still running is answered as stopped)."""
        with self._lock:
            workers, self._all, self._idle = self._all, set(), []
        for worker in workers:
            _stop(worker)

    def _adopt(self) -> None:
        """After a fork the parent's processes are not ours: start this process's own (under the lock)."""
        if self._owner == os.getpid():
            return
        self._owner = os.getpid()
        self._started = False
        self._all = set()
        self._idle = [self._spawn() for _ in range(self._size)]
        self._free = threading.Semaphore(self._size)

    def _spawn(self) -> _Worker:
        """A fresh interpreter (no copy of this process's threads or memory), talking over a socket pair."""
        import socket
        import subprocess

        ours, theirs = socket.socketpair()
        with theirs:
            code = f"from effbatch.bot.check_runner import serve_checks; serve_checks({theirs.fileno()}, {self.memory})"
            # the modules this process sees (the package, or a test's stand-ins), whatever the working directory
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(path for path in sys.path if path)}
            process = subprocess.Popen(
                [sys.executable, "-P", "-c", code], pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, env=env
            )
        from multiprocessing.connection import Connection

        worker = _Worker(process, Connection(ours.detach()))
        self._all.add(worker)
        return worker

    def _take(self, waited_until: float) -> _Worker:
        """An idle process, one that has started first; waits for a starting one (a replacement) until
        ``waited_until``, then gives up ("busy"; the process goes on starting for the next check)."""
        with self._lock:
            started = [w for w in self._idle if _ready(w, 0)]
            worker = started[0] if started else self._idle[0] if self._idle else self._spawn()
            if worker in self._idle:
                self._idle.remove(worker)
        if not self._started:  # the pool's first processes are still importing: worth the wait, once
            waited_until = time.monotonic() + START_SECONDS
        if not _ready(worker, max(0.0, waited_until - time.monotonic())):
            if worker.process.poll() is None:
                self._give_back(worker)  # still starting: ready for a later check
            else:
                self._replace(worker)
            raise CheckAborted(Abort.BUSY, self.seconds, self.memory)
        self._started = True
        return worker

    def _run(self, worker: _Worker, job: tuple[Any, ...]) -> tuple[Any, ...]:
        """The job's outcome: ``check_config``'s, or ``("deadline",)``, or ``("memory",)``."""
        try:
            worker.connection.send(job)
            answered = worker.connection.poll(self.wall)
            outcome: tuple[Any, ...] = worker.connection.recv() if answered else (Abort.SLOW.value,)
        except (OSError, EOFError):  # it died (the kernel's OOM killer, a signal): as if out of memory
            outcome = ("memory",)
        return outcome

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            if worker in self._all:  # else the pool was closed meanwhile
                self._idle.append(worker)

    def _replace_then_free(self, worker: _Worker) -> None:
        try:
            self._replace(worker)
        finally:
            self._free.release()

    def _replace(self, worker: _Worker) -> None:
        _stop(worker)
        with self._lock:
            if worker in self._all:  # else the pool was closed meanwhile: nothing to replace
                self._all.discard(worker)
                self._idle.append(self._spawn())


def _ready(worker: _Worker, timeout: float) -> bool:
    """Whether the process has said it is ready, waiting up to ``timeout`` seconds for it."""
    if not worker.ready:
        try:
            worker.ready = worker.connection.poll(timeout) and worker.connection.recv() == "ready"
        except (OSError, EOFError):
            return False
    return worker.ready


def _stop(worker: _Worker) -> None:
    import subprocess

    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        worker.process.kill()
        worker.process.wait(5)
        worker.connection.close()


def _result(outcome: tuple[Any, ...], pool: CheckPool) -> Check:
    kind = outcome[0]
    if kind == "ok":
        check: Check = outcome[1]
        return check
    if kind == "error":
        raise CheckError(outcome[1], **outcome[2])
    if kind == "crashed":
        raise CheckCrashedError(outcome[1])
    raise CheckAborted(Abort(kind), pool.seconds, pool.memory)


def serve_checks(descriptor: int, memory: int) -> None:
    """A check process: capped, at a lower priority than the bot, answering jobs until its socket closes."""
    import resource
    import traceback
    from multiprocessing.connection import Connection

    connection = Connection(descriptor)
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    with contextlib.suppress(OSError):
        os.nice(19)  # the lowest priority: under load, the bot's own answers come first
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as adjust:  # Linux
        adjust.write("1000")  # if the pod's memory runs out, the kernel ends a check, never the bot
    import effbatch.core.configs  # noqa: F401 - the readers imported under the cap, before saying ready

    try:
        connection.send("ready")
    except OSError:  # the bot process went away while this one started
        return
    while True:
        try:
            work, job, options, seconds = connection.recv()
        except (EOFError, OSError):
            return
        outcome = _checked(work, job, options, seconds)
        try:
            connection.send(outcome)
        except (EOFError, OSError):
            return
        except Exception:  # an outcome that does not pickle
            connection.send(("crashed", traceback.format_exc()))


def _checked(work: CheckRunner, job: tuple[Any, ...], options: dict[str, Any], seconds: float) -> tuple[Any, ...]:
    """One job's outcome as plain picklable data (``CheckError`` keeps its kind and context apart), stopped after
    ``seconds`` of its CPU time."""
    import traceback

    try:
        with _deadline(seconds):
            return ("ok", work(*job, **options))
    except _PastDeadline:
        return (Abort.DEADLINE.value,)
    except CheckError as error:
        return ("error", ProblemKind(error.kind), dict(error.ctx))
    except MemoryError:
        return ("memory",)
    except Exception:
        return ("crashed", traceback.format_exc())
