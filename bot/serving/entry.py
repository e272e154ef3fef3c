"""``effbatch-bot``'s first module: light, so that a Ctrl+C while the bot still imports ends it quietly.

Importing ``bot.serving.main`` loads Bolt and pydantic (a few hundred milliseconds); a Ctrl+C pressed
meanwhile – the console not yet shown – ends the process on a fresh line, not with a traceback.
Once running, each mode handles Ctrl+C itself (the console: on a fresh line, exit code 0).
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from types import FrameType

#: The shell's convention for a process ended by Ctrl+C (128 + SIGINT).
EXIT_INTERRUPTED = 130


def bot_main() -> int:
    """``effbatch-bot``: ``bot.serving.main.main``, with a Ctrl+C during start-up ending it quietly."""
    hear_ctrl_c()
    try:
        main = _imported_main()
        return main()
    except KeyboardInterrupt:
        sys.stdout.write("\n")
        return EXIT_INTERRUPTED


def _imported_main() -> Callable[[], int]:
    """``main``, imported with Ctrl+C remembered: a KeyboardInterrupt that strikes inside a callback of the import
    machinery (importlib's module-lock weakref callback) is printed as „Exception ignored“ and lost, so a key
    pressed while importing is raised again once the import is done. Where Ctrl+C is not Python's default (ignored,
    or a handler of the caller's), nothing changes."""
    pressed: list[int] = []

    def remember(signum: int, frame: FrameType | None) -> None:
        pressed.append(signum)
        raise KeyboardInterrupt

    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        from effbatch.bot.serving.main import main

        return main
    signal.signal(signal.SIGINT, remember)
    try:
        from effbatch.bot.serving.main import main
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if pressed:
        raise KeyboardInterrupt
    return main


def hear_ctrl_c() -> None:
    """At a terminal, Ctrl+C ends effbatch-bot, even where it was started with Ctrl+C ignored.

    A shell without job control (a script, ``bash -c '… &'``, a CI runner's step) starts a background command
    with SIGINT ignored, and Python keeps an ignored SIGINT ignored: the console, which says „Beenden mit …
    Strg+C“, would go on after the key. The server modes install their own handlers anyway; without a terminal
    the inherited choice stays.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN and sys.stdin is not None and sys.stdin.isatty():
        signal.signal(signal.SIGINT, signal.default_int_handler)
