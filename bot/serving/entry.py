"""``effbatch-bot``'s first module: light, so that a Ctrl+C while the bot still imports ends it quietly.

Importing ``bot.serving.main`` loads Bolt and pydantic (a few hundred milliseconds); a Ctrl+C pressed
meanwhile – the console not yet shown – ends the process on a fresh line, not with a traceback.
Once running, each mode handles Ctrl+C itself (the console: on a fresh line, exit code 0).
"""

from __future__ import annotations

import sys

#: The shell's convention for a process ended by Ctrl+C (128 + SIGINT).
EXIT_INTERRUPTED = 130


def bot_main() -> int:
    """``effbatch-bot``: ``bot.serving.main.main``, with a Ctrl+C during start-up ending it quietly."""
    try:
        from effbatch.bot.serving.main import main

        return main()
    except KeyboardInterrupt:
        sys.stdout.write("\n")
        return EXIT_INTERRUPTED
