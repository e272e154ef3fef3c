"""A command line as ``fire.Fire(function)`` hands it to the function (fire 0.7, ``fire/core.py``).

``_ParseKeywordArgs``: a word that starts with ``-`` (and is no negative number, ``_IsFlag``) is a flag; its name is
the word without its dashes and up to ``=``, ``-`` turned into ``_``. A name the function takes (or any name, where
it takes ``**kwargs``) is a keyword: its value is after ``=``, else the next word – unless the flag is the last word
or the next word is a flag too, then it is ``True`` (``--noname`` of a parameter ``name``: ``False``). Other words
fill the positional parameters in order (``_ParseArgs``). ``parser.DefaultParseValue``: a value that reads as a
Python literal (bare words turned into strings) is that literal, else the text itself. A word nothing consumes makes
fire exit (``Could not consume arg``); so does a single-letter flag here: those the binding leaves to fire (None).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

_NEGATIVE = re.compile(r"^-\d+(\.\d*)?$|^-\.\d+$")


def fire_keywords(parameters: ast.arguments, argv: Sequence[str]) -> dict[str, object] | None:
    """The keywords ``fire.Fire`` calls the function with; None where a word is not consumed or not followed."""
    names = [a.arg for a in (*parameters.posonlyargs, *parameters.args, *parameters.kwonlyargs)]
    anything = parameters.kwarg is not None
    bound: dict[str, object] = {}
    positional: list[str] = []
    index = 0
    while index < len(argv):
        word = argv[index]
        if not _is_flag(word):
            positional.append(word)
            index += 1
            continue
        key, equals, value = word.lstrip("-").partition("=")
        key = key.replace("-", "_")
        alone = not equals and (index + 1 == len(argv) or _is_flag(argv[index + 1]))
        if len(key) == 1 or not (key in names or anything or (alone and key[2:] in names and key.startswith("no"))):
            return None
        if alone:
            key, value = (key, "True") if key in names or anything else (key[2:], "False")
        elif not equals:
            value, index = argv[index + 1], index + 1
        bound[key] = parse_value(value)
        index += 1
    free = [name for name in names[: len(parameters.posonlyargs) + len(parameters.args)] if name not in bound]
    if len(positional) > len(free):
        return None
    bound |= {name: parse_value(word) for name, word in zip(free, positional, strict=False)}
    return bound


def _is_flag(word: str) -> bool:
    return word.startswith("-") and not _NEGATIVE.match(word)


def parse_value(text: str) -> object:
    """``DefaultParseValue``: a Python literal (bare words as strings), else the text."""
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError):
        return text
    tree = _BareWords().visit(tree)
    try:
        return ast.literal_eval(tree)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return text


class _BareWords(ast.NodeTransformer):
    """fire's ``_Replacement``: a bare word (a name) is its own string."""

    def visit_Name(self, node: ast.Name) -> ast.Constant:
        return ast.copy_location(ast.Constant(node.id), node)
