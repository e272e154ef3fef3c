"""From text to data: clean-up and size caps, the format, JSON/TOML, the bounded YAML loader, Python's literals
and calls (read with ``ast``), shell through ``core.configs.shell``. Nothing here executes anything.

- ``reader.parse``: one ``Source`` into a ``Parsed`` (its format, its mapping or its script);
- ``cleanup.clean``: pasted text as it was typed;
- ``bounds``: the limits every reader keeps (size, digits, nesting) and the errors that say so;
- ``python``: Python files read by one evaluator over ``ast`` (``python.sites``: where a launch script or recipe
  writes its numbers, for the frameworks that read a function on its own).
"""

from effbatch.core.configs.read.bounds import MAX_CONFIG_BYTES, MAX_DIGITS, MAX_FILE_BYTES, MAX_NESTING
from effbatch.core.configs.read.cleanup import clean
from effbatch.core.configs.read.reader import parse

__all__ = ["MAX_CONFIG_BYTES", "MAX_DIGITS", "MAX_FILE_BYTES", "MAX_NESTING", "clean", "parse"]
