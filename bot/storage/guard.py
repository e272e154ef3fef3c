"""The database on the request path, bounded in time: a frozen database never holds up an answer.

The driver's own timeouts (``bot.storage.database``) end a statement on a live server and notice a dead
connection; a server that is stopped but still accepts (SIGSTOP, a proxy that stopped forwarding) answers
no statement and closes nothing. So each call the request path makes runs on one of a few threads of its
own, and the caller waits at most its ``seconds``: then it gets ``DatabaseUnavailableError`` (its German
message says what was not done), and for ``COOL_DOWN`` seconds every call does at once, without asking the
database again. A call that is still stuck keeps its thread; when all are stuck, calls fail at once too.

``ready()`` is what ``/readyz`` asks: it never waits; it starts a probe (``SELECT 1``) when the last is older
than ``PROBE_INTERVAL`` and answers with what the probes and the calls last found.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TypeVar

from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from effbatch.bot.storage.errors import DatabaseUnavailableError
from effbatch.bot.texts import storage as texts

log = logging.getLogger("effbatch")

T = TypeVar("T")
_inside = threading.local()

#: Seconds a read on the request path may wait (a profile, an installation): an answer has 3 s in all
#: (``EFFBATCH_DATABASE_SECONDS``). A write may wait twice as long: above SQLite's busy timeout and PostgreSQL's lock
#: timeout, so that a write held by a lock fails in the database, not after its user was told it failed.
READ_SECONDS = 1.0
#: Seconds after a call ran out of time during which the database counts as unavailable without being asked.
COOL_DOWN = 5.0
#: Threads per process that run database calls for the request path.
THREADS = 4
#: Seconds between two readiness probes, and what one may take.
PROBE_INTERVAL = 2.0
PROBE_SECONDS = 1.0


class DatabaseGuard:
    """Runs the request path's database calls with a deadline, and knows whether the database answers."""

    def __init__(
        self, engine: Engine, seconds: float = READ_SECONDS, threads: int = THREADS, cool_down: float = COOL_DOWN
    ) -> None:
        self._engine = engine
        self.seconds = seconds
        self._threads = threads
        self._cool_down = cool_down
        self._lock = threading.Lock()
        self._busy = 0
        self._down_until = 0.0
        self._healthy = True
        self._probed = 0.0
        self._probing = False
        self._pool: ThreadPoolExecutor | None = None
        self._pid = 0

    def read(self, work: Callable[[], T], message: str = texts.DATABASE_UNAVAILABLE) -> T:
        """``work()``, a read, within ``seconds``; else ``DatabaseUnavailableError(message)``."""
        return self.call(work, self.seconds, message)

    def write(self, work: Callable[[], T], message: str = texts.DATABASE_UNAVAILABLE) -> T:
        """``work()``, a write, within twice ``seconds``; else ``DatabaseUnavailableError(message)``."""
        return self.call(work, 2 * self.seconds, message)

    def call(self, work: Callable[[], T], seconds: float, message: str = texts.DATABASE_UNAVAILABLE) -> T:
        """``work()``'s result within ``seconds``, or ``DatabaseUnavailableError(message)``. A call made from within
        another (slack_sdk's store calls itself) runs where it is."""
        if getattr(_inside, "call", False):
            return work()
        if time.monotonic() < self._down_until:
            raise DatabaseUnavailableError(message)
        future = self._submit(work)
        if future is None:
            raise DatabaseUnavailableError(message)
        try:
            return future.result(timeout=seconds)
        except FutureTimeout:
            self._failed("no answer in time", seconds)
            raise DatabaseUnavailableError(message) from None
        except PoolTimeout as error:
            self._failed("no free connection", seconds)
            raise DatabaseUnavailableError(message) from error
        except DBAPIError as error:  # a refused or lost connection, a lock or statement timeout, "database is locked"
            if error.connection_invalidated:
                self._failed("connection lost", seconds)
            elif not isinstance(error, OperationalError):
                raise  # a programming error: the error handler logs it with its traceback
            raise DatabaseUnavailableError(message) from error

    def ready(self) -> bool:
        """Whether the database answered the last probe (or call); starts the next probe when due, never waits."""
        now = time.monotonic()
        with self._lock:
            due = not self._probing and now - self._probed >= PROBE_INTERVAL
            self._probing |= due
        if due:
            threading.Thread(target=self._probe, name="database-probe", daemon=True).start()
        return self._healthy

    def _probe(self) -> None:
        try:
            self.call(self._ping, min(PROBE_SECONDS, self.seconds))
            self._healthy = True
            self._down_until = 0.0
        except DatabaseUnavailableError:
            self._healthy = False
        finally:
            with self._lock:
                self._probing = False
                self._probed = time.monotonic()

    def _ping(self) -> None:
        with self._engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    def _submit(self, work: Callable[[], T]) -> Future[T] | None:
        """``work`` on a free thread of this process (after a fork: new threads); None when all are stuck."""
        with self._lock:
            if self._busy >= self._threads:
                return None
            self._busy += 1
            if self._pool is None or self._pid != os.getpid():
                self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="database")
                self._pid = os.getpid()
            pool = self._pool
        return pool.submit(self._counted, work)

    def _counted(self, work: Callable[[], T]) -> T:
        _inside.call = True
        try:
            return work()
        finally:
            _inside.call = False
            with self._lock:
                self._busy -= 1

    def _failed(self, reason: str, seconds: float) -> None:
        self._down_until = time.monotonic() + self._cool_down
        self._healthy = False
        log.warning("database unavailable", extra={"detail": f"{reason} within {seconds:g} s"})
