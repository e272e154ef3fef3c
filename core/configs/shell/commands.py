"""Simple commands: their ``VAR=value`` prefixes, ``env``, ``exit``, ``read``/``let``, functions, ``bash -c``,
``eval``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from effbatch.core.configs.base import Command
from effbatch.core.configs.shell.grammar import NAME, node_line, node_text, statements_of
from effbatch.core.configs.shell.remote import remote_command
from effbatch.core.configs.shell.sourcing import SOURCE
from effbatch.core.configs.shell.state import ASSUMED, BashError, State

if TYPE_CHECKING:
    from tree_sitter import Node

#: Commands that set variables from what only the run knows (``let`` computes from the script's own values).
_READERS = frozenset({"read", "getopts", "mapfile", "readarray", "let"})
_FLOW = frozenset({"exit", "return", "break", "continue"})
#: Builtins that change ``$1``, ``$2`` …: ``shift`` and ``set -- …``.
_POSITIONAL = frozenset({"shift", "set"})

_ENV_WORD = re.compile(r"[A-Za-z_]\w*=.*", re.DOTALL)


#: Builtins that succeed whatever their words (their status 0).
_SUCCEED = frozenset({"true", ":", "echo", "printf", "shopt", "trap", "umask", "export", "wait"})


class Commands(State):
    """A simple command recorded with its words and environment, or followed where it runs more script."""

    def command(self, node: Node, stray: Sequence[Node] = ()) -> None:
        """A simple command: its prefixes as its environment, ``bash -c``/``eval`` and functions followed; ``stray``:
        words after a redirection's target, which bash passes to the command (the grammar gives them to the
        redirection: ``--port <your_port> --bs 4`` is ``--port 4``, its output in a file named ``--bs``)."""
        own: dict[str, tuple[str, bool]] = {}
        for child in node.named_children:
            if child.type == "variable_assignment" and (name := child.child_by_field_name("name")) is not None:
                own[node_text(name)] = self.value(child.child_by_field_name("value"))
        stray = stray or self.strays.pop(node.id, ())
        parts = [*node.children_by_field_name("name"), *node.children_by_field_name("argument"), *stray]
        words, known = self.expand_words(parts)
        if not words:  # only assignments (the command expanded to nothing): they stay set
            for key, (text, known) in own.items():
                self.set(key, text, known)
            self.code = 0
            return
        own = {key: found for key, found in own.items() if key not in self.readonly}  # bash: an error, and it runs
        env = {**self.env, **{key: text for key, (text, _) in own.items()}}
        words = _after_env(words, env)
        self.code = ASSUMED
        if not words:
            self.code = 0
        elif words[0].startswith("-"):  # a line a comment cut off its command (``--flag 4``): no such program
            self.code = 127
        elif words[0] in _FLOW:
            self._flow(words)
        elif words[0] in _READERS:
            self._read_at_start(words)
        elif words[0] in _POSITIONAL:
            self._positional(words, known)
        elif words[0] in self.functions and words[0] not in self.calling:
            self.call(words[0], env, own, words[1:] if known else None)
        elif (inner := _inline_script(words)) is not None:
            self.inline(inner, env, shell=words[0] != "eval")
        elif not (words[0] in SOURCE and self.source(words, known, env, own)):
            self._program(words, env, node)

    def _program(self, words: list[str], env: dict[str, str], node: Node) -> None:
        """A program (or a ``source`` of no file among the sources): recorded, its status assumed."""
        self.script.commands.append(Command(tuple(words), self.fixed_line or node_line(node), env))
        self.code = 1 if words[0] == "false" else 0 if words[0] in _SUCCEED else ASSUMED
        if (remote := remote_command(words)) is not None:
            self.remote(remote)

    def _flow(self, words: Sequence[str]) -> None:
        """``exit``, ``return``, ``break``, ``continue``: where the reading goes on (``return`` outside a function and
        ``break`` outside a loop: bash reports it and goes on)."""
        number = _count(words[1]) if len(words) > 1 else None
        if words[0] == "exit":
            self.stopped = True
            self.code = number if len(words) > 1 else self.code
        elif words[0] == "return":  # outside a function, it ends a sourced file; elsewhere bash refuses it
            inside = bool(self.frames or self.sourcing)
            self.code = 1 if not inside else number if len(words) > 1 else self.code
            self.jump = "return" if inside else None
        elif self.loops:
            self.jump, self.jumps, self.code = words[0], min(max(number or 1, 1), self.loops), 0

    def _positional(self, words: Sequence[str], known: bool) -> None:
        """``shift [n]`` (more than there are: status 1, nothing shifted) and ``set -- …`` (or ``set a b``): the
        positional parameters from here on; other ``set`` options change none. Unknown stays unknown."""
        if words[0] == "set":
            given = list(words[1:])
            if given[:1] == ["--"] or (given and not given[0].startswith(("-", "+"))):
                self.positional = given[1:] if given[0] == "--" else given
                self.positional = self.positional if known else None
            self.code = 0
            return
        count = _count(words[1]) if len(words) > 1 else 1
        if self.positional is None or count is None or not known:
            self.positional, self.code = None, ASSUMED
            return
        self.code = 1 if count > len(self.positional) else 0
        self.positional = self.positional if self.code else self.positional[count:]

    def _read_at_start(self, words: Sequence[str]) -> None:
        """``let`` computes (each word an arithmetic expression); ``read``, ``getopts``, ``mapfile`` set unknowns."""
        names = [word for word in words[1:] if NAME.fullmatch(word)]
        if words[0] == "let":
            for word in words[1:]:
                self.inline(f"(( {word} ))", self.env, shell=False)
            return
        if words[0] == "getopts":  # getopts OPTSTRING NAME
            names = [words[2]] if len(words) > 2 and NAME.fullmatch(words[2]) else []
        for name in names:
            self.unsettle(name)

    def inline(self, text: str, env: dict[str, str], shell: bool) -> None:
        """The text of ``bash -c "…"`` (a process of its own) or ``eval "…"`` (this shell: what it assigns stays, its
        ``exit`` ends the script), read as a script of its own, its commands on this line."""
        saved = (self.env, self.fixed_line, self.stopped, self.sourcing)
        self.env, self.fixed_line = env, self.at
        self.sourcing = 0 if shell else self.sourcing  # ``return`` ends no sourced file in a shell of its own
        snapshot = self.snapshot() if shell else None
        try:
            root = self.reparse(text)
            if shell:
                self.statement(root)  # a script of its own: an error ends the line it is on (``statements``)
            else:
                self.statements(statements_of(root))
        except BashError:  # bash ends eval at an error; the command that ran eval goes on
            self.code = 1
        finally:
            self.env, self.fixed_line, self.sourcing = saved[0], saved[1], saved[3]
            if snapshot is not None:
                self.restore(snapshot)
                self.stopped = saved[2]

    def remote(self, text: str) -> None:
        """A job launcher's command string (``remote``), read as the bash on each host reads it: a shell of its own,
        none of this script's variables, functions or environment; its commands on this line."""
        snapshot = self.snapshot()
        saved = (self.env, self.fixed_line, self.stopped, self.code, self.sourcing)
        self.script.variables, self.script.arrays, self.functions, self.sourcing = {}, {}, {}, 0
        self.unknown, self.cleared, self.readonly = set(), set(), set()
        self.env, self.fixed_line = {}, self.at
        try:
            self.statement(self.reparse(text))
        except BashError:
            pass
        finally:
            self.env, self.fixed_line, self.stopped, self.code, self.sourcing = saved
            self.restore(snapshot)


def _after_env(words: list[str], env: dict[str, str]) -> list[str]:
    """``env VAR=value … program``: the program's words, its variables put into ``env``."""
    if words[0] != "env":
        return words
    words = words[1:]
    while words and _ENV_WORD.fullmatch(words[0]):
        key, _, text = words.pop(0).partition("=")
        env[key] = text
    return words


def _count(word: str) -> int | None:
    """``exit 3``, ``return 1``, ``break 2``: the number (bash keeps its last 8 bits), None where unknown."""
    return int(word) % 256 if re.fullmatch(r"-?\d{1,18}", word) else None


def _inline_script(words: Sequence[str]) -> str | None:
    """The text ``eval …`` or ``bash -c "…"`` (``sh -c``, also behind ``srun``, ``nohup`` …) runs; else None."""
    if words[0] == "eval" and len(words) > 1:
        return " ".join(words[1:])
    shell = next((i for i, word in enumerate(words) if word.rsplit("/", 1)[-1] in ("bash", "sh")), None)
    if shell is None or "-c" not in words[shell + 1 : -1]:
        return None
    options = words[shell + 1 :]
    return options[options.index("-c") + 1]
