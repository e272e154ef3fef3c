"""The log line of each answer stays, and costs the request little: records are queued on the request path and
formatted and written by a thread of their own (the line made the bot 2,05× the HMAC floor)."""

from __future__ import annotations

import io
import logging
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from effbatch.bot.operations.logs import configure_logging, flush_logs
from effbatch.bot.slack.listeners import answered

from bot_process import start_http_bot
from fake_slack import FakeWebAPI


class WatchedStream(io.StringIO):
    """stderr as a fake: what was written, and by which threads."""

    def __init__(self) -> None:
        super().__init__()
        self.writers: set[str] = set()

    def write(self, text: str) -> int:
        self.writers.add(threading.current_thread().name)
        return super().write(text)


@pytest.fixture
def stream() -> Iterator[WatchedStream]:
    """Logging configured onto a watched stream, as effbatch-bot configures it; the test's own set-up after."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    watched = WatchedStream()
    configure_logging("INFO", "plain", stream=watched)
    try:
        yield watched
    finally:
        flush_logs()
        root.handlers[:] = handlers
        root.setLevel(level)


def test_the_answer_line_is_written_off_the_request_path(stream: WatchedStream) -> None:
    """answered() on the request's thread: the line comes out whole, formatted and written by the log thread."""
    answered("calculation", "T1", "C1")
    deadline = time.monotonic() + 10  # the log thread writes within WRITE_INTERVAL: a hang guard
    while not stream.getvalue():
        assert time.monotonic() < deadline, "the line was never written"
        time.sleep(0.01)
    assert stream.getvalue().endswith(" INFO effbatch answered kind=calculation team=T1 channel=C1\n")
    assert stream.writers == {"log-writer"}


def test_a_queued_line_is_the_line_logging_makes(stream: WatchedStream) -> None:
    """The record the log thread builds from the queued fields is the one ``log.info(…, extra=…)`` makes: same
    time, same fields, in JSON too; flush_logs writes whatever is queued at once."""
    import json

    from effbatch.bot.operations.logs import log_fields

    configure_logging("INFO", "json", stream=stream)
    log = logging.getLogger("effbatch")
    log_fields(log, "answered", {"kind": "check_ok", "team": None, "channel": "C1", "text": "a\nb"})
    log.info("answered", extra={"kind": "check_ok", "team": None, "channel": "C1", "text": "a\nb"})
    flush_logs()
    queued, direct = stream.getvalue().splitlines()
    assert json.loads(queued) | {"time": ""} == json.loads(direct) | {"time": ""}
    assert queued.split('"time": ')[1][:20] == direct.split('"time": ')[1][:20]  # to the second


def test_no_line_is_lost_at_exit_or_in_a_forked_worker(tmp_path: Path) -> None:
    """Two forked workers (the log thread does not survive a fork: each starts its own) answer, then SIGTERM: every
    worker's lines are there, its last ones written just before it leaves with os._exit."""
    with FakeWebAPI() as api:
        bot = start_http_bot(api.url, tmp_path, WEB_CONCURRENCY="2")
        from test_hardening import signed_command

        for _ in range(20):
            assert signed_command(bot.port)[0] == 200
        output = bot.stop()
    assert output.count("answered kind=calculation") == 20, output[-2000:]
    assert output.count("Finished server process") == 2, output[-2000:]


def test_the_log_thread_takes_no_signal(stream: WatchedStream) -> None:
    """The log thread blocks every signal (Linux: its SigBlk in /proc): a Ctrl+C or the console's SIGALRM tick
    always reaches the main thread, whose readline waits in select() – delivered to another thread, it would
    not interrupt that wait (the console's Ctrl+C race)."""
    writer = next(thread for thread in threading.enumerate() if thread.name == "log-writer")
    status = Path(f"/proc/self/task/{writer.native_id}/status").read_text()
    blocked = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigBlk:")), 16)
    for signum in (signal.SIGINT, signal.SIGALRM, signal.SIGTERM):
        assert blocked & (1 << (signum - 1)), signum
    main = Path(f"/proc/self/task/{threading.main_thread().native_id}/status").read_text()
    assert "SigBlk:\t0000000000000000" in main  # the main thread's own mask is left as it was


def test_the_bots_own_logger_builds_no_record_on_the_request_path(stream: WatchedStream) -> None:
    """With the app built (Bolt copies its filter onto the "effbatch" logger), an answer's record is still built by
    the log thread, not on the request's thread; the filter still applies there."""
    from pydantic import SecretStr
    from slack_bolt.authorization import AuthorizeResult
    from slack_sdk import WebClient

    from effbatch.bot.operations.settings import Settings
    from effbatch.bot.slack.app import BotParts, create_app

    offline = AuthorizeResult(enterprise_id=None, team_id="T1", bot_token="xoxb-test", bot_user_id="U0BOT")
    settings = Settings(slack_signing_secret=SecretStr("test-signing-secret"))
    create_app(settings, BotParts(client=WebClient(base_url="http://127.0.0.1:9/api/"), authorize=lambda **_: offline))
    assert logging.getLogger("effbatch").filters  # Bolt's copy of the filter is there
    configure_logging("INFO", "plain", stream=stream)  # as the bot runs: pytest's own handlers off the root again
    made_on: list[str] = []
    factory = logging.getLogRecordFactory()

    def recording(*args: object, **kwargs: object) -> logging.LogRecord:
        made_on.append(threading.current_thread().name)
        return factory(*args, **kwargs)

    logging.setLogRecordFactory(recording)
    try:
        answered("calculation", "T1", "C1")
        deadline = time.monotonic() + 10  # a hang guard
        while "answered" not in stream.getvalue():
            assert time.monotonic() < deadline, "the line was never written"
            time.sleep(0.01)
    finally:
        logging.setLogRecordFactory(factory)
    assert made_on == ["log-writer"]
