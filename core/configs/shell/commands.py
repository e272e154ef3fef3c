"""Simple commands: their ``VAR=value`` prefixes, ``env``, ``exit``, ``read``/``let``, functions, ``bash -c``,
``eval``."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.configs.base import Command
from core.configs.shell.grammar import NAME, node_line, node_text, parse
from core.configs.shell.state import State

if TYPE_CHECKING:
    from tree_sitter import Node

#: Commands that set variables from what only the run knows (``let`` computes from the script's own values).
_READERS = frozenset({"read", "getopts", "mapfile", "readarray", "let"})

_ENV_WORD = re.compile(r"[A-Za-z_]\w*=.*", re.DOTALL)


class Commands(State):
    """A simple command recorded with its words and environment, or followed where it runs more script."""

    def command(self, node: Node) -> None:
        """A simple command: its prefixes as its environment, ``bash -c``/``eval`` and functions followed."""
        own: dict[str, tuple[str, bool]] = {}
        for child in node.named_children:
            if child.type == "variable_assignment" and (name := child.child_by_field_name("name")) is not None:
                own[node_text(name)] = self.value(child.child_by_field_name("value"))
        env = {**self.env, **{key: text for key, (text, _) in own.items()}}
        words = self.words([*node.children_by_field_name("name"), *node.children_by_field_name("argument")])
        if words[:1] == ["env"]:  # env VAR=value … program
            words = words[1:]
            while words and _ENV_WORD.fullmatch(words[0]):
                key, _, text = words.pop(0).partition("=")
                env[key] = text
        if not words:  # only assignments (the command expanded to nothing): they stay set
            for key, (text, known) in own.items():
                self.set(key, text, known)
                self.script.lines[key] = self.at
            return
        if words[0] == "exit":
            self.stopped = True
        elif words[0] in _READERS:
            self._read_at_start(words)
        elif words[0] in self.functions and words[0] not in self.calling:
            self._call(words[0], env)
        elif (inner := _inline_script(words)) is not None:
            self.inline(inner, env)
        else:
            line = self.fixed_line or node_line(node)
            self.script.commands.append(Command(tuple(words), line, env))

    def _read_at_start(self, words: Sequence[str]) -> None:
        """``let`` computes (each word an arithmetic expression); ``read``, ``getopts``, ``mapfile`` set unknowns."""
        names = [word for word in words[1:] if NAME.fullmatch(word)]
        if words[0] == "let":
            for word in words[1:]:
                self.inline(f"(( {word} ))", self.env)
            return
        if words[0] == "getopts":  # getopts OPTSTRING NAME
            names = [words[2]] if len(words) > 2 and NAME.fullmatch(words[2]) else []
        for name in names:
            self.set(name, "$" + name, False)
            self.script.lines[name] = self.at

    def _call(self, name: str, env: dict[str, str]) -> None:
        """A function's body where it is called, with the call's prefixes (``NNODES=2 train``); not recursively."""
        saved, self.env = self.env, env
        self.calling.add(name)
        try:
            self.statement(self.functions[name])
        finally:
            self.calling.discard(name)
            self.env = saved

    def inline(self, text: str, env: dict[str, str]) -> None:
        """The text of ``bash -c "…"`` or ``eval "…"``, read as a script of its own (its commands on this line)."""
        saved = (self.env, self.fixed_line, self.stopped)
        self.env, self.fixed_line = env, self.at
        self.charge(len(text))
        self.step(1 + len(text) // 64)
        try:
            started = time.thread_time()
            root = parse(text, self.parse_seconds)
            self.parse_seconds -= time.thread_time() - started
            self.statement(root)
        finally:
            self.env, self.fixed_line, self.stopped = saved


def _inline_script(words: Sequence[str]) -> str | None:
    """The text ``eval …`` or ``bash -c "…"`` (``sh -c``, also behind ``srun``, ``nohup`` …) runs; else None."""
    if words[0] == "eval" and len(words) > 1:
        return " ".join(words[1:])
    shell = next((i for i, word in enumerate(words) if word.rsplit("/", 1)[-1] in ("bash", "sh")), None)
    if shell is None or "-c" not in words[shell + 1 : -1]:
        return None
    options = words[shell + 1 :]
    return options[options.index("-c") + 1]
