"""A command line as argparse reads it: which option takes which words, which words are positionals, what is left.

CPython 3.11's ``Lib/argparse.py``, ``ArgumentParser._parse_known_args``: each word is an option (``O``) or an
argument (``A``) – ``_parse_optional``: an option string of the parser, ``--name=value``, an unambiguous prefix of a
long option (``allow_abbrev``; ambiguous: argparse exits), a single-dash option with its value attached (``-b4``);
a negative number, a word with a space, ``-`` and the empty word are arguments; another word that starts with
``-`` is an option the parser does not have (an extra, its following words arguments). An option takes what
``_match_argument`` lets it: a switch none, ``nargs=None`` one, ``?`` one or none, ``*`` all following, ``+`` at
least one, ``N`` exactly N; ``--name=value`` exactly that one. The arguments between options fill the positionals
(each taking one word) in order; what they leave is extra. What this scan does not follow – ``--``, short switches
run together (``-ab``) – it says (``unsure``), so nothing is guessed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

#: ``_negative_number_matcher``: such a word is an argument (no option of these parsers looks like a number).
_NEGATIVE = re.compile(r"^-\d+$|^-\d*\.\d+$")
#: The option's index where argparse finds none (an extra), or finds several (ambiguous: it exits).
_EXTRA, _AMBIGUOUS = -1, -2


@dataclass(frozen=True)
class Takes:
    """What one option takes: its option strings (a positional's name alone) and its ``nargs`` (0: a switch)."""

    flags: tuple[str, ...]
    nargs: object = None

    @property
    def positional(self) -> bool:
        return not self.flags[0].startswith("-")


@dataclass
class Scanned:
    """Each option's words, in the order the command line gives them (the last one counts), as argparse splits it."""

    words: dict[int, list[str]] = field(default_factory=dict)
    #: Options whose words argparse refuses (a missing value, an ambiguous prefix, a value given to a switch).
    refused: set[int] = field(default_factory=set)
    extras: list[str] = field(default_factory=list)
    #: The scan met what it does not follow: positionals and extras are not known.
    unsure: bool = False

    #: Every time the line gives an option, in order (argparse converts each one: any refused word exits).
    given: list[tuple[int, list[str]]] = field(default_factory=list)

    def give(self, index: int, words: list[str]) -> None:
        """An option's words, after what the line gave before (two options of one ``dest``: the later wins)."""
        self.words.pop(index, None)
        self.words[index] = words
        self.given.append((index, words))


def scan(argv: Sequence[str], options: Sequence[Takes], *, abbrev: bool = True) -> Scanned:
    """``argv`` split over ``options`` as ``parse_known_args`` does it."""
    strings = {flag: index for index, option in enumerate(options) for flag in option.flags if flag.startswith("-")}
    positionals = [index for index, option in enumerate(options) if option.positional]
    found = Scanned(unsure="--" in argv or any(options[i].nargs is not None for i in positionals))
    kinds = [_classify(word, strings, abbrev) for word in argv]
    at = 0
    while at < len(argv):
        kind = kinds[at]
        if kind is None:
            end = _arguments_end(kinds, at)
            taken = min(len(positionals), end - at)
            for index, word in zip(positionals, argv[at : at + taken], strict=False):
                found.give(index, [word])
            positionals = positionals[taken:]
            found.extras += argv[at + taken : end]
            at = end
            continue
        at = _option(argv, kinds, at, options, found)
    return found


_Kind = tuple[str, int, str | None] | None


def _option(argv: Sequence[str], kinds: Sequence[_Kind], at: int, options: Sequence[Takes], found: Scanned) -> int:
    """The option at ``at`` takes its words (``consume_optional``); where the scan goes on."""
    kind = kinds[at]
    assert kind is not None
    flag, index, explicit = kind
    if index == _EXTRA:
        found.extras.append(argv[at])
        return at + 1
    if index == _AMBIGUOUS:
        found.refused |= {i for i, o in enumerate(options) if any(f.startswith(flag) for f in o.flags)}
        return at + 1
    nargs = options[index].nargs
    if explicit is not None:
        if nargs == 0 or (isinstance(nargs, int) and nargs > 1):
            found.refused.add(index)  # ``ignored explicit argument`` (or ``-ab``, switches run together)
            found.unsure |= nargs == 0 and not flag.startswith("--")
        else:
            found.give(index, [explicit])
        return at + 1
    following = _arguments_end(kinds, at + 1) - (at + 1)
    count = _count(nargs, following)
    if count is None:
        found.refused.add(index)  # ``expected one argument`` and its kin
        return at + 1
    found.give(index, list(argv[at + 1 : at + 1 + count]))
    return at + 1 + count


def _count(nargs: object, following: int) -> int | None:
    """How many of the ``following`` arguments an option takes (``_match_argument``); None where it refuses."""
    if nargs is None:
        return 1 if following else None
    if nargs == "?":
        return min(1, following)
    if nargs == "*":
        return following
    if nargs == "+":
        return following or None
    if isinstance(nargs, int) and not isinstance(nargs, bool) and nargs >= 0:
        return nargs if following >= nargs else None
    return None


def _arguments_end(kinds: Sequence[_Kind], start: int) -> int:
    end = start
    while end < len(kinds) and kinds[end] is None:
        end += 1
    return end


def _classify(word: str, strings: dict[str, int], abbrev: bool) -> tuple[str, int, str | None] | None:
    """``_parse_optional``: None for an argument, else (the option string, the option's index, the value given
    with it)."""
    if not word.startswith("-") or word == "--":
        return None
    if word in strings:
        return word, strings[word], None
    if len(word) == 1:
        return None
    name, equals, value = word.partition("=")
    if equals and name in strings:
        return name, strings[name], value
    matches = _prefixed(word, strings, abbrev)
    if len(matches) > 1:
        return name, _AMBIGUOUS, None
    if matches:
        return matches[0]
    if _NEGATIVE.match(word) or " " in word:
        return None
    return word, _EXTRA, None


def _prefixed(word: str, strings: dict[str, int], abbrev: bool) -> list[tuple[str, int, str | None]]:
    """``_get_option_tuples``: a long option's unambiguous prefix (``--seq=4``), a short option with its value
    attached (``-b4``) or a prefix of a single-dash option."""
    if word.startswith("--"):
        if not abbrev:
            return []
        prefix, equals, value = word.partition("=")
        return [(flag, index, value if equals else None) for flag, index in strings.items() if flag.startswith(prefix)]
    found: list[tuple[str, int, str | None]] = []
    for flag, index in strings.items():
        if flag == word[:2]:
            found.append((flag, index, word[2:]))
        elif flag.startswith(word):
            found.append((flag, index, None))
    return found
