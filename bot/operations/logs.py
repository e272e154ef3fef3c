"""Log set-up: plain text or JSON lines, with team, channel and kind, and never a token or secret.

Each answer has its line, and the line is cheap where the answer is made: the request path only queues
the answer's fields with the time (``log_fields``, ~1 µs; any other call builds its record without looking
up the caller, and queues it); a thread of the process builds, formats (the time, the escapes, the masks)
and writes what was queued, every ``WRITE_INTERVAL`` seconds rather than woken by each line. The line was
the largest cost of an answer (2,05× the HMAC floor with it, 1,18× without). The thread does not
survive a fork: each forked worker starts its own with a fresh queue, and ``flush_logs`` writes what is
queued before a worker leaves with ``os._exit`` (``atexit`` does it at a normal exit).
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import queue
import re
import signal
import sys
import threading
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from logging.handlers import QueueHandler
from typing import Literal, TextIO

#: Fields a log call may add with ``extra=``; both formats show them.
FIELDS = ("kind", "team", "channel", "text", "call", "detail")
#: What never reaches a log line, with what stands in for it.
_SECRETS = (
    # Slack tokens, also with the dash JSON-escaped (\u002d) as in a dumped request body.
    (re.compile(r"(xox[abposr]|xapp|xoxe(?:\.xox[bp])?)(?:-|\\{1,2}u002[dD])[A-Za-z0-9\-\\]+"), r"\1-***"),
    # The one-time ticket in a Socket Mode WebSocket URL.
    (re.compile(r"\bticket=[^&\s\"'\\]+"), "ticket=***"),
    # Credentials in a URL: https://user:password@host.
    (re.compile(r"\b([a-z][a-z0-9+.-]*://)[^/\s:@]+:[^/\s@]+@"), r"\1***@"),
    # A password as a URL's query parameter or a libpq key (DATABASE_URL=…?password=…, "password=… host=…").
    (re.compile(r"\b((?:ssl)?passw(?:or)?d=)[^&\s\"'\\]+", re.IGNORECASE), r"\1***"),
)


#: What each secret pattern starts with, looked for first (C substring searches; the patterns then run only there).
_SECRET_MARKS = ("xox", "xapp", "ticket=", "://", "assword=", "asswd=", "ASSWORD=")


def mask(line: str) -> str:
    """``line`` with every token, ticket and URL password masked."""
    if not any(mark in line for mark in _SECRET_MARKS):
        return line
    for pattern, replacement in _SECRETS:
        line = pattern.sub(replacement, line)
    return line


#: Control characters (C0, DEL, C1) and Unicode's line and paragraph separators: a line break in a plain log line
#: would let typed text forge a line of its own.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escaped(text: str) -> str:
    """``text`` on one line: newlines and every control character written as escapes (\\n, \\x1b, \\u2028)."""
    if text.isprintable():  # C, and the usual case: no control character, nothing to replace
        return text
    return _CONTROL.sub(lambda m: _NAMED.get(m.group(), m.group().encode("unicode_escape").decode()), text)


class PlainFormatter(logging.Formatter):
    """'2026-12-02 13:00:00,000 INFO effbatch answered kind=calculation team=T1 channel=C1'.

    One record, one line: the message and every field escaped; a traceback follows on lines indented by two
    spaces, so that nothing in it can start a line of its own."""

    def format(self, record: logging.LogRecord) -> str:
        head = f"{self.formatTime(record)} {record.levelname} {escaped(record.name)} {escaped(record.getMessage())}"
        fields = " ".join(f"{name}={escaped(str(getattr(record, name)))}" for name in FIELDS if hasattr(record, name))
        line = f"{head} {fields}" if fields else head
        details = [self.formatException(record.exc_info)] if record.exc_info else []
        details += [self.formatStack(record.stack_info)] if record.stack_info else []
        for detail in details:
            line += "".join(f"\n  {escaped(part)}" for part in detail.splitlines())
        return mask(line)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the extra fields, and a traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry |= {name: getattr(record, name) for name in FIELDS if hasattr(record, name)}
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return mask(json.dumps(entry, ensure_ascii=False))


#: Loggers whose debug lines dump request and response bodies, and with them what users typed.
PAYLOAD_LOGGERS = ("slack_bolt", "slack_sdk", "effbatch.bolt")


def configure_logging(
    level: str,
    log_format: Literal["plain", "json"],
    payloads: bool = False,
    stream: TextIO | None = None,
    background: bool = True,
) -> None:
    """Route all logging to ``stream`` (stderr) in the chosen format, with tokens, tickets and URL passwords masked;
    with ``background`` (not in Lambda, which freezes the process after each answer) through the log thread.

    Unless ``payloads`` is set, the Slack libraries log at INFO at most even under DEBUG:
    their debug lines contain message bodies, and command text stays out of logs by default.
    """
    # Neither format shows thread or process names, nor where a call was made: not looking them up saves a few µs
    # on every line (logging._srcfile = None is the logging HOWTO's own switch for the caller's frame).
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    logging._srcfile = None
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else PlainFormatter())
    flush_logs()  # a writer of an earlier set-up: what it holds is written first
    root = logging.getLogger()
    root.handlers[:] = [_writer.start(handler) if background else handler]
    root.setLevel(level)
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(level if payloads else max(logging.INFO, logging.getLevelName(level)))


def log_fields(logger: logging.Logger, message: str, fields: Mapping[str, object]) -> None:
    """``logger.info(message, extra=fields)``, the answer's line. Through the log thread, the request path only takes
    the time and queues the fields: the record itself is built there (``Logger.info`` built it here, ~2–9 µs)."""
    if _writer.takes(logger):
        _writer.later(logger, message, fields)
    else:
        logger.info(message, extra=fields)


def flush_logs() -> None:
    """Write every record queued so far, and wait until it is written (before ``os._exit``, at exit, in tests)."""
    _writer.flush()


class _QueuedRecords(QueueHandler):
    """Queues the record as it is: QueueHandler's own ``prepare`` formats it first, on the request path."""

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        return record


#: Seconds between the log thread's rounds; a line appears at most this much later.
WRITE_INTERVAL = 0.05
#: A line whose record the log thread builds: the logger, the message, the time it was logged, the fields.
_Later = tuple[logging.Logger, str, float, Mapping[str, object]]
#: What the log thread takes: a record to write, or one to build and write.
_Item = logging.LogRecord | _Later


class _Writer:
    """The log thread: takes queued records and hands them to the stream handler, one at a time."""

    def __init__(self) -> None:
        self._handler: logging.Handler | None = None
        self._queue: queue.SimpleQueue[_Item] = queue.SimpleQueue()
        self._queued = _QueuedRecords(self._queue)
        self._busy = threading.Lock()  # held while a record is written; a fork waits for it
        self._thread: threading.Thread | None = None

    def start(self, handler: logging.Handler) -> logging.Handler:
        """The handler to put on the root logger: it queues for this thread, which writes with ``handler``."""
        self._handler = handler
        if self._thread is None or not self._thread.is_alive():
            self._restart()
        return self._queued

    def takes(self, logger: logging.Logger) -> bool:
        """Whether an INFO line of ``logger`` goes to the log thread alone (not, e.g., under pytest's caplog)."""
        root = logging.root.handlers
        running = self._thread is not None and len(root) == 1 and root[0] is self._queued
        return running and not logger.handlers and logger.propagate and logger.isEnabledFor(logging.INFO)

    def later(self, logger: logging.Logger, message: str, fields: Mapping[str, object]) -> None:
        self._queue.put((logger, message, time.time(), fields))

    def flush(self) -> None:
        """Every record queued before this call written, by the calling thread."""
        self._drain()

    def _restart(self) -> None:
        """A fresh queue and thread: at the start, and in a forked child (the parent's thread was not copied)."""
        self._queue = queue.SimpleQueue()
        self._queued.queue = self._queue
        self._thread = threading.Thread(target=self._run, name="log-writer", daemon=True)
        # Started with every signal blocked, which it keeps: a Ctrl+C, the console's SIGALRM tick or SIGTERM is then
        # always delivered to the main thread, where it interrupts what that thread waits in (readline's select).
        unblocked = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
        try:
            self._thread.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)

    def _run(self) -> None:
        """Every ``WRITE_INTERVAL`` seconds, whatever was queued meanwhile. Not woken by each line: a thread woken
        per answer took the GIL from the event loop right as it sent the response, and cost more than it saved."""
        while True:
            time.sleep(WRITE_INTERVAL)
            self._drain()

    def _drain(self) -> None:
        with self._busy:
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    return
                self._write(item)

    def _write(self, item: _Item) -> None:
        if self._handler is None:
            return
        if isinstance(item, logging.LogRecord):
            self._handler.handle(item)
            return
        record = _built(*item)
        if item[0].filter(record):  # the logger's own filters, as Logger.handle applies them (Bolt adds one)
            self._handler.handle(record)

    def before_fork(self) -> None:
        self._busy.acquire()  # the fork copies no half-written line, nor a lock held by the log thread

    def after_fork_in_parent(self) -> None:
        self._busy.release()

    def after_fork_in_child(self) -> None:
        self._busy = threading.Lock()  # the copy is held (by before_fork)
        if self._thread is not None:  # only where the log thread ran: a worker of effbatch-bot
            self._restart()


def _built(logger: logging.Logger, message: str, created: float, fields: Mapping[str, object]) -> logging.LogRecord:
    """The record ``logger.info(message, extra=fields)`` would have made at ``created``."""
    record = logger.makeRecord(logger.name, logging.INFO, "(unknown file)", 0, message, (), None, "(unknown function)")
    record.__dict__.update(fields)
    record.relativeCreated -= (record.created - created) * 1000
    record.created = created
    record.msecs = int((created - int(created)) * 1000) + 0.0  # as LogRecord computes it
    return record


_writer = _Writer()
os.register_at_fork(
    before=_writer.before_fork,
    after_in_parent=_writer.after_fork_in_parent,
    after_in_child=_writer.after_fork_in_child,
)
atexit.register(flush_logs)
