"""Loops: ``for … in``, ``for ((…))``, ``while`` and ``until``, run pass by pass where the script's own values decide
every pass, within a share of the step budget; any other loop is read once, and what it may assign is unknown."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from effbatch.core.configs.shell.grammar import ASSIGNING, NAME, node_text
from effbatch.core.configs.shell.limits import MAX_LOOP_STEPS, MAX_STEPS
from effbatch.core.configs.shell.state import State

if TYPE_CHECKING:
    from tree_sitter import Node

#: Commands that set the variables they name.
_SETTERS = frozenset({"read", "getopts", "mapfile", "readarray", "let"})


#: A loop that may change ``$1`` …: ``shift``, ``set -- …``.
_SHIFTING = re.compile(r"\b(?:shift|set)\b")

#: A condition on the script's own arguments: ``$#``, ``$1``, ``"$@"``.
_ARGUMENTS = re.compile(r"\$(?:#|\{#\}|1|\{1\}|@|\*)")


class Loops(State):
    """A loop run as bash runs it where that is decided, else read once with what it assigns unknown."""

    def loop(self, node: Node) -> None:
        """Pass by pass while every condition and word is known, no pass meets an undecided condition and the loop
        stays within its budget (``MAX_LOOP_STEPS``, at most half of the reading's steps left); else as before it ran,
        once. The steps of a run given up are not the reading's but ``MAX_GIVEN_UP_STEPS``': a script with a few
        ``while true`` loops reads as it did before loops ran, and any number of them costs at most that much more."""
        snapshot, start = self.snapshot(), self.steps
        limit = start + min(MAX_LOOP_STEPS, self.loop_steps, (MAX_STEPS - start) // 2)
        self.loops += 1
        try:
            decided = self._passes(node, limit)
        finally:
            self.loops -= 1
        if not decided:
            self.loop_steps -= self.steps - start
            self.steps = start
            self.restore(snapshot, everything=True)
            self.jump, self.jumps = None, 0
            if self._on_arguments(node) and not self.choose(self._conditions(node), [(False, True), (True, True)]):
                self.code = 0  # started without arguments: the loop does not run, the script's defaults stay
                return
            self._once(node)

    def _conditions(self, node: Node) -> list[Node]:
        return [c for c in node.children_by_field_name("condition") if c.is_named]

    def _on_arguments(self, node: Node) -> bool:
        """``while [[ $# -gt 0 ]]; do case $1 …``: a loop over the script's arguments, which a start without any
        does not run – one choice of the branches the start decides (the first: the script's own defaults)."""
        if node.type not in ("while_statement", "until_statement") or node.children[0].type == "until":
            return False
        conditions = self._conditions(node)
        return bool(conditions) and _ARGUMENTS.search(node_text(conditions[-1])) is not None

    def _passes(self, node: Node, limit: int) -> bool:
        """The loop run to its end (True), or found undecided (False: what it did is undone by the caller)."""
        marks = (len(self.taken), len(self.undecided))
        body = node.child_by_field_name("body")
        last: int | None = 0
        for decided in self._rounds(node):
            if decided is None:  # bash refused the loop variable (readonly): the loop ends, its status 1
                last = 1
                break
            if not decided or self.steps > limit:
                return False
            if body is not None:
                self.statement(body)
            last = self.code
            if (len(self.taken), len(self.undecided)) != marks or self.steps > limit:
                return False
            if not self._go_on():
                break
        self.code = last
        return (len(self.taken), len(self.undecided)) == marks

    def _go_on(self) -> bool:
        """After a pass: on, or out (``break``; ``continue N``/``break N`` for an outer loop; ``return``; ``exit``)."""
        if self.jump in ("break", "continue"):
            if self.jumps > 1:
                self.jumps -= 1
                return False
            jump, self.jump, self.jumps = self.jump, None, 0
            return jump == "continue"
        return not (self.stopped or self.jump is not None)

    def _rounds(self, node: Node) -> Iterator[bool | None]:
        """True before each pass (its variable set), False where what decides the next pass is unknown, None where
        bash ends the loop with an error."""
        kind = node.type
        if kind == "for_statement":
            variable, values = node.child_by_field_name("variable"), node.children_by_field_name("value")
            words, known = self.expand_words(values) if values else ([], False)
            if not values and not any(child.type == "in" for child in node.children):  # ``for a; do``: "$@"
                words, known = list(self.positional or []), self.positional is not None
            if variable is None or not known:
                yield False
                return
            for word in words:
                if node_text(variable) in self.readonly:
                    yield None
                    return
                self.set(node_text(variable), word, True)
                yield True
        elif kind == "c_style_for_statement":
            yield from self._counting(node)
        else:
            until = bool(node.children) and node.children[0].type == "until"
            conditions = [c for c in node.children_by_field_name("condition") if c.is_named]
            while conditions:
                self.statements(conditions[:-1])
                holds = self.truth(conditions[-1])
                if holds is None or holds == until:
                    yield from [False] if holds is None else []
                    return
                yield True

    def _counting(self, node: Node) -> Iterator[bool]:
        """``for (( start; condition; step ))``: an empty condition holds."""
        start, condition = node.children_by_field_name("initializer"), node.children_by_field_name("condition")
        update = node.children_by_field_name("update")
        if start:
            self.arithmetic(start)
        while True:
            value = self.arithmetic(condition) if condition else 1
            if value is None:
                yield False
            if not value:
                return
            yield True
            if update:
                self.arithmetic(update)

    def _once(self, node: Node) -> None:
        """A loop not decided: its body read once, its variable and all it may assign unknown after it (how many
        passes run, and so which value is left, only the run knows: ``while [[ $# -gt 0 ]]; do case $1 …``)."""
        variable, readonly = node.child_by_field_name("variable"), set(self.readonly)
        if variable is not None:
            self.unsettle(node_text(variable))
        body = node.child_by_field_name("body")
        if body is not None:
            self.loops += 1
            try:
                self.statement(body)
            finally:
                self.loops -= 1
            if self.jump in ("break", "continue"):
                self.jumps -= 1
                self.jump = self.jump if self.jumps > 0 else None
        for name in set(self._assigned_in(node)):
            self.unsettle(name, readonly=name not in readonly)
        if _SHIFTING.search(node_text(node)):
            self.positional = None  # how often it shifted only the run knows
        self.code = None

    def _assigned_in(self, node: Node) -> Iterator[str]:
        """Every variable the loop may assign, whichever branch it is in, also in the functions it calls (bounded
        by the work budget)."""
        stack, seen = [node], set[str]()
        while stack:
            current = stack.pop()
            self.step()
            kind = current.type
            if kind in ("variable_assignment", "for_statement") and (
                target := current.child_by_field_name("name") or current.child_by_field_name("variable")
            ):
                inner = target.child_by_field_name("name") if target.type == "subscript" else target
                yield node_text(inner or target)
            elif kind in ("binary_expression", "postfix_expression", "unary_expression", "expansion"):
                if any(not c.is_named and c.type in (*ASSIGNING, ":=") for c in current.children):
                    yield from (node_text(c) for c in current.named_children[:1] if NAME.fullmatch(node_text(c)))
            elif kind in ("declaration_command", "unset_command"):
                words = map(node_text, current.named_children)
                yield from (match.group(0) for word in words if (match := NAME.match(word)))
            elif kind == "command" and (name := current.child_by_field_name("name")) is not None:
                program = node_text(name)
                if program in _SETTERS:
                    words = map(node_text, current.children_by_field_name("argument"))
                    yield from (match.group(0) for word in words if (match := NAME.match(word)))
                if program in self.functions and program not in seen:
                    seen.add(program)
                    stack.append(self.functions[program])
            stack.extend(current.named_children)
