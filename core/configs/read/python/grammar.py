"""Python's own grammar, without the warnings it gives on old spellings.

``ast.parse`` warns about an invalid escape such as ``'\\.'`` (a ``DeprecationWarning`` in Python 3.11, a
``SyntaxWarning`` since 3.12) and Python runs the file all the same; where warnings are errors (``python -W
error``, a test suite's ``filterwarnings = error``) the warning would become a ``SyntaxError`` and a file Python
runs would be called unreadable.
"""

from __future__ import annotations

import ast
import warnings


def parse_module(text: str) -> ast.Module:
    """``ast.parse(text)``, the old spellings' warnings silenced (``SyntaxError`` where Python's grammar refuses)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        return ast.parse(text)
