"""argparse, speaking German: usage, option titles and its own error messages (exit code 2)."""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, NoReturn

from effbatch.bot.texts import operator as texts

EXIT_USAGE = 2


class GermanArgumentParser(argparse.ArgumentParser):
    """argparse, speaking German: usage, option titles and its error messages."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(add_help=False, formatter_class=_GermanHelpFormatter, **kwargs)
        self._optionals.title = texts.OPTIONS_TITLE
        self._positionals.title = texts.POSITIONALS_TITLE
        self.add_argument("-h", "--help", action="help", help=texts.HELP_OPTION)

    def error(self, message: str) -> NoReturn:
        for pattern, german in texts.ARGPARSE_MESSAGES:
            if match := re.fullmatch(pattern, message):
                message = re.sub(r"'([^']*)'", r"„\1“", german.format(*match.groups()))
                break
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, texts.ARGUMENT_ERROR.format(prog=self.prog, message=message))


class _GermanHelpFormatter(argparse.HelpFormatter):
    def add_usage(self, usage: str | None, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, prefix=texts.USAGE_PREFIX)
