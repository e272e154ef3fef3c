"""Log set-up: plain text or JSON lines, with team, channel and kind, and never a token or secret."""

from __future__ import annotations

import json
import logging
import re
import sys
from datetime import UTC, datetime
from typing import Literal

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
)


#: What each secret pattern starts with, looked for first (C substring searches; the patterns then run only there).
_SECRET_MARKS = ("xox", "xapp", "ticket=", "://")


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


def configure_logging(level: str, log_format: Literal["plain", "json"], payloads: bool = False) -> None:
    """Route all logging to stderr in the chosen format, with tokens, tickets and URL passwords masked.

    Unless ``payloads`` is set, the Slack libraries log at INFO at most even under DEBUG:
    their debug lines contain message bodies, and command text stays out of logs by default.
    """
    # Neither format shows thread or process names: not looking them up saves a few µs on every line.
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else PlainFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(level if payloads else max(logging.INFO, logging.getLevelName(level)))
