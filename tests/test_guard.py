"""The guard in front of the request path's database calls, in-process on a real SQLite file: a call that does not
come back in time is given up (the caller told in German), the database is then not asked for a while, calls
stuck on every thread fail at once, a lock that SQLite refuses is told without that pause, and ``ready()`` – what
/readyz asks – never waits and reports what the probe found."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from effbatch.bot.storage.database import engine_for, migrate
from effbatch.bot.storage.errors import DatabaseUnavailableError
from effbatch.bot.storage.guard import DatabaseGuard
from effbatch.bot.storage.profiles import ChannelProfile, ProfileStore, now
from effbatch.bot.texts import storage as texts

#: Seconds a test waits for what should happen soon: generous for a loaded machine.
HANG_GUARD = 30.0


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[sa.Engine]:
    engine = engine_for(f"sqlite:///{tmp_path / 'effbatch.sqlite3'}")
    migrate(engine)
    yield engine
    engine.dispose()


def test_a_call_that_does_not_come_back_is_given_up_and_the_database_rested(engine: sa.Engine) -> None:
    """A call stuck past its seconds raises DatabaseUnavailableError with the caller's German message; during the
    cool-down the next call fails without running; afterwards calls run again."""
    guard = DatabaseGuard(engine, seconds=0.2, cool_down=HANG_GUARD)
    release, ran = threading.Event(), []
    with pytest.raises(DatabaseUnavailableError) as raised:
        guard.read(lambda: release.wait(HANG_GUARD), texts.PROFILE_NOT_READ)
    assert raised.value.message == texts.PROFILE_NOT_READ
    with pytest.raises(DatabaseUnavailableError):
        guard.read(lambda: ran.append(1))
    assert ran == []  # not even started: the database rests
    release.set()
    rested = DatabaseGuard(engine, seconds=0.2, cool_down=0)
    assert rested.read(lambda: 42) == 42


def test_when_every_thread_is_stuck_calls_fail_at_once(engine: sa.Engine) -> None:
    """With all threads held by calls that never came back, a further call fails without waiting its seconds."""
    guard = DatabaseGuard(engine, seconds=HANG_GUARD, threads=2, cool_down=0)
    release, started = threading.Event(), threading.Semaphore(0)

    def stuck_call() -> bool:
        started.release()
        return release.wait(HANG_GUARD)

    stuck = [threading.Thread(target=guard.read, args=(stuck_call,)) for _ in range(2)]
    for thread in stuck:
        thread.start()
    try:
        assert all(started.acquire(timeout=HANG_GUARD) for _ in stuck)  # both threads taken
        with pytest.raises(DatabaseUnavailableError):
            guard.read(lambda: 1)  # would wait HANG_GUARD seconds if it queued behind them
    finally:
        release.set()
        for thread in stuck:
            thread.join(HANG_GUARD)


def test_a_held_write_lock_is_told_without_resting_the_database(engine: sa.Engine, tmp_path: Path) -> None:
    """SQLite refuses a write while another process holds its lock: the writer is told in German, and reads go on."""
    store = ProfileStore(engine, DatabaseGuard(engine, seconds=HANG_GUARD))
    profile = ChannelProfile((("gpus", "64"),), "U1", now())
    holder = sqlite3.connect(tmp_path / "effbatch.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(DatabaseUnavailableError) as raised:
            store.put("T1", "C1", profile)
        assert raised.value.message == texts.PROFILE_NOT_STORED
        assert store.get("T1", "C1") is None
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    store.put("T1", "C1", profile)
    assert store.get("T1", "C1") == profile


def test_ready_never_waits_and_reports_the_probe(engine: sa.Engine) -> None:
    """``ready()`` answers at once; a probe it starts finds the database answering, and after a call ran out of
    time it says not ready."""
    guard = DatabaseGuard(engine, seconds=0.2, cool_down=HANG_GUARD)
    assert guard.ready()
    release = threading.Event()
    with pytest.raises(DatabaseUnavailableError):
        guard.read(lambda: release.wait(HANG_GUARD))
    release.set()
    assert not guard.ready()
