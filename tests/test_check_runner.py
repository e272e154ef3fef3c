"""Config checks in check processes: a deadline, a memory cap, a full pool, and a replacement after each stop.

The stand-ins in ``fake_checks`` take the place of ``check_config`` inside the processes. No timing is
asserted (``make bench`` measures); every wait has a guard so that a hang fails instead of blocking.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import fake_checks
import pytest

from effbatch.bot.check_runner import Abort, CheckAborted, CheckCrashedError, CheckPool
from effbatch.bot.document import Visibility
from effbatch.bot.rendering.block_kit import message
from effbatch.bot.rendering.checks import check_reply
from effbatch.bot.texts import checks as texts
from effbatch.core.check_command import CheckRequest
from effbatch.core.configs import CheckError, ProblemKind, Source

from slack_checks import all_text

#: Far above a stand-in's own start (~1 s on a loaded machine), far below a hang.
GUARD = 30


@pytest.fixture
def pool() -> Iterator[CheckPool]:
    """Two processes, half a second of CPU time per check, 256 MiB each (an import of the readers takes ~60 MB);
    answers awaited as long as a hang guard, so a loaded machine does not make a stopped check "slow"."""
    checks = CheckPool(
        processes=2, seconds=0.5, memory=256 * 1024 * 1024, wait=GUARD, work=fake_checks.scripted, wall=GUARD
    )
    try:
        yield checks
    finally:
        checks.close()


def run(pool: CheckPool, script: str) -> object:
    """A check of ``script`` (``fake_checks.SCRIPT``: endless, hungry …) in ``pool``; its result or exception."""
    try:
        return pool([Source("ds_config.json", script)])
    except Exception as error:
        return error


def test_an_answer_comes_back_from_another_process(pool: CheckPool) -> None:
    """The check's result crosses the process boundary whole; the same process answers the next one."""
    first = run(pool, "answers")
    second = run(pool, "answers")
    assert first.global_batch == 256  # type: ignore[attr-defined]
    assert first.world.where != str(__import__("os").getpid())  # type: ignore[attr-defined]
    assert {first.world.where, second.world.where} <= {str(pid) for pid in pool.pids()}  # type: ignore[attr-defined]


def test_a_check_error_keeps_its_kind_and_context(pool: CheckPool) -> None:
    """CheckError does not pickle with its context; the pool rebuilds it on this side."""
    error = run(pool, "refuses")
    assert isinstance(error, CheckError)
    assert (error.kind, error.ctx) == (ProblemKind.EMPTY, {"name": "ds_config.json"})


@pytest.mark.parametrize(
    ("work", "reason"),
    [
        ("spins", Abort.DEADLINE),  # a loop that never ends: stopped when its CPU time runs out
        ("hungry", Abort.MEMORY),  # asks for 8 GiB under a 256 MiB cap: MemoryError inside
    ],
)
def test_a_stopped_check_is_replaced_and_the_next_one_answered(pool: CheckPool, work: str, reason: Abort) -> None:
    """Three stopped checks in a row, then an ordinary one: answered by a fresh process."""
    pids = pool.pids()
    for _ in range(3):
        stopped = run(pool, work)
        assert isinstance(stopped, CheckAborted)
        assert stopped.reason is reason
    check = run(pool, "answers")
    assert check.global_batch == 256  # type: ignore[attr-defined]
    assert len(pool.pids()) == 2
    if reason is Abort.DEADLINE:
        assert not pids & pool.pids()


def test_a_check_that_gets_no_answer_in_wall_time_is_slow_not_too_costly() -> None:
    """A check that has CPU time left but no answer when the wall-clock wait ends (here: it waits without
    computing, as a check does on a machine too loaded to run it) is answered "slow" – the machine is busy, the
    config is not too costly – and its process is replaced, so the next check is answered."""
    checks = CheckPool(
        processes=1, seconds=5, memory=256 * 1024 * 1024, wait=GUARD, work=fake_checks.scripted, wall=0.5
    )
    try:
        stopped = run(checks, "endless")
        assert isinstance(stopped, CheckAborted)
        assert stopped.reason is Abort.SLOW
        deadline = time.monotonic() + GUARD
        while isinstance(answer := run(checks, "answers"), CheckAborted) and time.monotonic() < deadline:
            assert answer.reason is Abort.BUSY  # the replacement is still starting
        assert answer.global_batch == 256  # type: ignore[attr-defined]
    finally:
        checks.close()


def test_a_full_pool_answers_busy_and_recovers() -> None:
    """One process busy with an endless check: a second check waits its short wait, then is told "busy";
    once the endless one is stopped and its replacement has started, checks are answered again."""
    checks = CheckPool(processes=1, seconds=3, memory=256 * 1024 * 1024, wait=0.2, work=fake_checks.scripted)
    try:
        checks.start()
        outcomes: list[object] = []
        first = threading.Thread(target=lambda: outcomes.append(run(checks, "endless")))
        first.start()
        deadline = time.monotonic() + GUARD
        while not checks.running() and time.monotonic() < deadline:
            time.sleep(0.01)
        busy = [run(checks, "endless") for _ in range(3)]
        first.join(GUARD)
        assert [b.reason for b in busy if isinstance(b, CheckAborted)] == [Abort.BUSY] * 3
        assert isinstance(outcomes[0], CheckAborted)
        # the killed process's replacement is starting: "busy" until it has, then answered
        deadline = time.monotonic() + GUARD
        while isinstance(answer := run(checks, "answers"), CheckAborted) and time.monotonic() < deadline:
            assert answer.reason is Abort.BUSY
        assert answer.global_batch == 256  # type: ignore[attr-defined]
    finally:
        checks.close()


def test_an_unexpected_exception_is_a_crash_with_its_traceback(pool: CheckPool) -> None:
    """A bug is not hidden as "too complex": it reaches the error handler with the child's traceback."""
    crashed = run(pool, "crashes")
    assert isinstance(crashed, CheckCrashedError)
    assert "KeyError: 'a bug in a reader'" in str(crashed)


@pytest.mark.parametrize(
    ("reason", "fragment"),
    [
        (Abort.DEADLINE, "mehr als 0,5 s Rechenzeit"),
        (Abort.MEMORY, "mehr als 256\u00a0MiB Speicher"),
        (Abort.BUSY, "zu viele Prüfungen gleichzeitig"),
        (Abort.SLOW, "gerade ausgelastet; die Prüfung kam nicht rechtzeitig dran"),
    ],
)
def test_a_stopped_check_is_answered_in_german_with_what_to_do(reason: Abort, fragment: str) -> None:
    """The caller learns why, and that `effbatch check DATEI` on their own machine has more memory but the same
    deadline (never a promise of no limits)."""

    def stopped(*_: object, **__: object) -> None:
        raise CheckAborted(reason, 0.5, 256 * 1024 * 1024)

    reply = check_reply(CheckRequest("{}"), Visibility.IN_CHANNEL, runner=stopped)  # type: ignore[arg-type]
    payload = message(reply.answer.document)
    text = all_text(payload)
    assert payload["response_type"] == "ephemeral"
    assert texts.ABORTED_TITLE in text
    assert fragment in text
    assert "`effbatch check DATEI` die Datei mit mehr Speicher, aber derselben Zeitgrenze" in text
    assert "Ohne diese Grenzen" not in text
