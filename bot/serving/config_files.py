"""A config file read from disk (or standard input) as the terminal tools read it: capped, UTF-8.

``effbatch check`` and the console's ``prüfe PATH`` share it, so both refuse the same files the same way. Only
regular files are read (a symlink counts as what it points to): a device such as /dev/zero never ends, a FIFO
without a writer blocks its reader forever, and either could sit in a pull request that CI checks with
``--each``. Nothing is read beyond the cap and one byte more, which says that there was more.

A name is the path as given, relative to the working directory: ``~`` is never expanded (a shell does that for
whoever types it; CI and pre-commit pass a repository's own file names, and ``~/ds.json`` there is a file in the
repository's folder ``~``, not one of the runner's home – else a pull request could probe which home files exist).
``pathlib`` is not used for the name either: ``Path("./~/ds.json")`` drops the ``./`` and reads as ``~/ds.json``.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import BinaryIO

from effbatch.bot.texts import operator as texts
from effbatch.core.configs import MAX_FILE_BYTES, CheckError, ProblemKind, Source

#: The name standing for standard input.
STDIN_NAME = "-"


class UnreadableFileError(ValueError):
    """A file that is missing, not a regular file, too large to say how large, or not text; the message is German."""


def read_source(name: str) -> Source:
    """The file ``name`` (``-``: standard input) as a source; larger than ``MAX_FILE_BYTES`` is refused."""
    raw = _read_stdin() if name == STDIN_NAME else _read_file(name)
    shown = texts.STDIN if name == STDIN_NAME else name
    try:
        return Source(shown, raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise UnreadableFileError(texts.CHECK_NOT_TEXT.format(name=shown)) from None


def _read_file(name: str) -> bytes:
    """A regular file's bytes; opened without blocking (a FIFO's open waits for a writer) and looked at before
    anything is read."""
    try:
        descriptor = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        raise UnreadableFileError(texts.CHECK_NO_FILE.format(name=name)) from None
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):
        os.close(descriptor)
        raise UnreadableFileError(texts.CHECK_NOT_A_FILE.format(name=name))
    with os.fdopen(descriptor, "rb") as file:
        if status.st_size > MAX_FILE_BYTES:
            raise CheckError(ProblemKind.TOO_LARGE, name=name, size=status.st_size, max=MAX_FILE_BYTES)
        raw = _at_most(file, MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:  # it grew since it was looked at
        raise CheckError(ProblemKind.TOO_LARGE, name=name, size=len(raw), max=MAX_FILE_BYTES)
    return raw


def _read_stdin() -> bytes:
    """Standard input, whatever it is (a pipe, a file, a device), up to the cap and one byte more."""
    raw = _at_most(sys.stdin.buffer, MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        from effbatch.bot.rendering.formatting import byte_size  # only here: the numbers' formats load on first use

        raise UnreadableFileError(texts.CHECK_STREAM_TOO_LARGE.format(name=texts.STDIN, max=byte_size(MAX_FILE_BYTES)))
    return raw


def _at_most(file: BinaryIO, size: int) -> bytes:
    """Up to ``size`` bytes, reading until the end or that many (a pipe gives them in pieces)."""
    chunks: list[bytes] = []
    left = size
    try:
        while left > 0 and (chunk := file.read(min(left, 1 << 16))):
            chunks.append(chunk)
            left -= len(chunk)
    except OSError:
        raise UnreadableFileError(texts.CHECK_NO_FILE.format(name=getattr(file, "name", ""))) from None
    return b"".join(chunks)
