"""A config file read from disk (or standard input) as the terminal tools read it: capped, UTF-8.

``effbatch check`` and the console's ``prüfe PATH`` share it, so both refuse the same files the same way.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.texts import operator as texts
from core.configs import MAX_FILE_BYTES, CheckError, ProblemKind, Source

#: The name standing for standard input.
STDIN_NAME = "-"


class UnreadableFileError(ValueError):
    """A file that is missing or not text; the message is German."""


def read_source(name: str) -> Source:
    """The file ``name`` (``-``: standard input) as a source; larger than ``MAX_FILE_BYTES`` is refused."""
    shown = texts.STDIN if name == STDIN_NAME else name
    try:
        raw = sys.stdin.buffer.read() if name == STDIN_NAME else Path(name).expanduser().read_bytes()
    except OSError:
        raise UnreadableFileError(texts.CHECK_NO_FILE.format(name=shown)) from None
    if len(raw) > MAX_FILE_BYTES:
        raise CheckError(ProblemKind.TOO_LARGE, name=shown, size=len(raw), max=MAX_FILE_BYTES)
    try:
        return Source(shown, raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise UnreadableFileError(texts.CHECK_NOT_TEXT.format(name=shown)) from None
