"""``source FILE`` and ``. FILE``: a file among the sources read in this shell, as bash runs it.

What the sourced file assigns, defines and exports stays in the sourcing script; its ``exit`` ends the script, its
``return`` (outside a function) ends only the file; words after the file are its ``$1`` … while it runs, else it
shares the caller's. Nothing is executed: the file's text is one of the sources the check was given.

Which source is meant: the path as bash resolves it from the working directory the launch implies – the sourcing
script's folder or the repository's root – when a source has that path; else the sources whose path ends as the
sourced path does (the most folders in common; a source given by its name alone, ``train.sh`` for
``scripts/setups/train.sh``). A path only the run knows in part (``$(dirname "$0")/common.sh``) is matched by what
follows its last unknown folder. Several equally good: an undecided choice (``alternatives`` reads each); none: the
command is recorded and not followed (what the file would set stays unknown or unset, as before).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence

from effbatch.core.configs.base import Command, Undecided
from effbatch.core.configs.shell.limits import MAX_SOURCE_DEPTH, MAX_SOURCED_CHARS, MAX_UNDECIDED, too_much
from effbatch.core.configs.shell.state import State

#: The builtins that read a file into this shell.
SOURCE = frozenset({"source", "."})


def resolve(path: str, script: str, files: Iterable[str]) -> list[str]:
    """The sources ``path`` (a ``source`` command's word in ``script``) may be, best first; several: undecided."""
    names = [name for name in files if name]
    parts = [part for part in path.replace("\\", "/").split("/") if part not in ("", ".")]
    unknown = [i for i, part in enumerate(parts) if "$" in part or "`" in part]
    if not parts or (unknown and unknown[-1] == len(parts) - 1):
        return []
    if not unknown:
        folders = {posixpath.dirname(_normal(script)), ""}
        wanted = {_normal(posixpath.join(folder, path)) for folder in folders} if not path.startswith("/") else set()
        exact = sorted(name for name in names if _normal(name) in wanted)
        if exact:
            return exact
    tail = parts[unknown[-1] + 1 :] if unknown else parts
    scored = [(_common_tail(_normal(name).split("/"), tail), name) for name in names if name != script]
    best = max((score for score, _ in scored), default=0)
    return sorted(name for score, name in scored if score == best and best > 0)


def _normal(name: str) -> str:
    return posixpath.normpath(name.replace("\\", "/")).lstrip("/")


def _common_tail(name: Sequence[str], tail: Sequence[str]) -> int:
    """How many trailing folders (and the file's name) ``name`` and ``tail`` share."""
    count = 0
    while count < min(len(name), len(tail)) and name[-1 - count] == tail[-1 - count] and tail[-1 - count] != "..":
        count += 1
    return count


class Sourcing(State):
    """``source FILE [WORDS]`` followed into the file among the sources it names."""

    def source(
        self, words: Sequence[str], known: bool, env: dict[str, str], prefixes: Mapping[str, tuple[str, bool]]
    ) -> bool:
        """Whether ``source``/``.`` ``words`` named a source it read, the command recorded before what it runs (else
        the caller records the command). ``X=1 source FILE``: bash (not in POSIX mode) gives the file ``X`` for its
        duration, exported, and puts back what ``X`` was after it – what the file assigns to ``X`` included."""
        if self.files is None or len(words) < 2:
            return False
        found = resolve(words[1], self.name, self.files)
        if not found:
            return False
        self.script.commands.append(Command(tuple(words), self.fixed_line or self.at, env))
        if len(found) > 1:
            if len(self.undecided) >= MAX_UNDECIDED:
                raise too_much("shell_branches", MAX_UNDECIDED, self.at)
            index = self.pick(len(found), lambda i: f"{words[0]} {words[1]}: {found[i]} (line {self.at})")
            self.undecided.append(Undecided(f"{words[0]} {words[1]}", (), self.at))
            found = [found[index]]
        saved = {key: self.save(key) for key in prefixes}
        outer, self.env = self.env, env
        try:
            for key, (text, value_known) in prefixes.items():
                self.set(key, text, value_known)
            self._read_sourced(self.files[found[0]], words[2:] if known and len(words) > 2 else None, len(words) > 2)
        finally:
            self.env = outer
            for key, value in saved.items() if not self.stopped else ():
                self.put_back(key, value)
        return True

    def _read_sourced(self, text: str, arguments: Sequence[str] | None, given: bool) -> None:
        """The file's statements in this shell, on the ``source`` line, with its words as ``$1`` … where given."""
        if self.sourcing >= MAX_SOURCE_DEPTH:
            raise too_much("shell_nesting", MAX_SOURCE_DEPTH, self.at)
        self.sourced_chars += len(text)
        if self.sourced_chars > MAX_SOURCED_CHARS:
            raise too_much("shell_chars", MAX_SOURCED_CHARS, self.at)
        saved = (self.fixed_line, self.positional)
        self.fixed_line, self.sourcing = self.at, self.sourcing + 1
        if given:
            self.positional = None if arguments is None else list(arguments)
        try:
            self.statement(self.reparse(text))
        finally:
            self.sourcing -= 1
            self.fixed_line = saved[0]
            self.positional = saved[1] if given else self.positional
            if self.jump == "return":  # ``return`` outside a function ends the file
                self.jump = None
