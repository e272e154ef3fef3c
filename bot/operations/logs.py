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
_TOKEN = re.compile(r"\b(xox[abposr]|xapp|xoxe(?:\.xox[bp])?)-[A-Za-z0-9-]+")


class RedactTokens(logging.Filter):
    """Masks anything shaped like a Slack token, whoever logged it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = _TOKEN.sub(lambda m: f"{m.group(1)}-***", message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


class PlainFormatter(logging.Formatter):
    """'2026-12-02 13:00:00,000 INFO effbatch answered kind=calculation team=T1 channel=C1'."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        fields = " ".join(f"{name}={getattr(record, name)}" for name in FIELDS if hasattr(record, name))
        line = super().format(record)
        return f"{line} {fields}" if fields else line


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
        return json.dumps(entry, ensure_ascii=False)


#: Loggers whose debug lines dump request and response bodies, and with them what users typed.
PAYLOAD_LOGGERS = ("slack_bolt", "slack_sdk", "effbatch.bolt")


def configure_logging(level: str, log_format: Literal["plain", "json"], payloads: bool = False) -> None:
    """Route all logging to stderr in the chosen format, with tokens masked.

    Unless ``payloads`` is set, the Slack libraries log at INFO at most even under DEBUG:
    their debug lines contain message bodies, and command text stays out of logs by default.
    """
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else PlainFormatter())
    handler.addFilter(RedactTokens())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(level if payloads else max(logging.INFO, logging.getLevelName(level)))
