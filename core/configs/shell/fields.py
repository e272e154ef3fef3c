"""Words as bash builds them from the parts of an argument: quoted text joins, unquoted values split."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from effbatch.core.configs.shell.limits import MAX_ARRAY, MAX_VALUE_CHARS, too_much


class Budget(Protocol):
    """What building words charges: the characters produced, against the reading's budget, and the line."""

    at: int

    def charge(self, characters: int) -> None: ...


class Fields:
    """The words one argument expands to, built part by part."""

    def __init__(self, run: Budget) -> None:
        self.run = run
        self.words: list[str] = []
        self.open = False
        self.unknown = False

    def literal(self, text: str) -> None:
        self.run.charge(len(text))
        if self.open:
            if len(self.words[-1]) + len(text) > MAX_VALUE_CHARS:
                raise too_much("shell_long_value", MAX_VALUE_CHARS, self.run.at)
            self.words[-1] += text
        else:
            if len(self.words) >= MAX_ARRAY:
                raise too_much("shell_long_array", MAX_ARRAY, self.run.at)
            self.words.append(text)
            self.open = True

    def split(self, text: str) -> None:
        """An unquoted value: split at white space (the default IFS), its ends joining the words around it."""
        if text[:1].isspace():
            self.open = False
        pieces = text.split()
        if pieces:
            self.literal(pieces[0])
            self._extend(pieces[1:])
        if text[-1:].isspace():
            self.open = False

    def elements(self, items: Sequence[str], quoted: bool) -> None:
        """``"${ARR[@]}"``: one word per element; unquoted, all of them split again as one text."""
        if not items:
            return
        if quoted:
            self.literal(items[0])  # joins the text before it; the rest are words of their own
            self._extend(items[1:])
        else:
            self.split(" ".join(items))

    def _extend(self, words: Sequence[str]) -> None:
        """Whole words after the current one (each already within the length bound)."""
        if not words:
            return
        if len(self.words) + len(words) > MAX_ARRAY:
            raise too_much("shell_long_array", MAX_ARRAY, self.run.at)
        self.run.charge(sum(map(len, words)) + len(words))
        self.words += words
        self.open = True

    def known(self, value: str | None, written: str) -> None:
        """``value`` where it is known; else the text as written, and the word unknown."""
        if value is None:
            self.unknown = True
            self.literal(written)
        else:
            self.literal(value)
