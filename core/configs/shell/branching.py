"""Branches: ``if``/``elif``/``else`` and ``case``, and the choices at conditions the script's values do not decide."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from effbatch.core.configs.base import Undecided
from effbatch.core.configs.shell.grammar import arms, condition_text, exits, item_body, node_text, short
from effbatch.core.configs.shell.limits import MAX_UNDECIDED, too_much
from effbatch.core.configs.shell.state import State

if TYPE_CHECKING:
    from tree_sitter import Node


class Branching(State):
    """The branch a condition takes, or a recorded choice where the script's values do not decide it."""

    def branches(self, node: Node) -> None:
        """``if``/``elif``/``else``: the first branch whose condition holds; unknown conditions are choices."""
        found = list(arms(node))
        for index, (condition, body) in enumerate(found):
            if condition:
                self.statements(condition[:-1])  # the last statement of a condition list decides
                holds = self.truth(condition[-1])
                rest = found[index + 1 :]
                otherwise_exits = bool(rest) and not rest[0][0] and exits(rest[0][1])
                if holds is None or self.requires(condition, exits(body) if holds else otherwise_exits):
                    holds = self.choose(condition, [(True, not exits(body)), (False, not otherwise_exits)])
            if not condition or holds:
                self.code = 0
                self.statements(body)
                return
        self.code = 0  # no branch taken

    def choose(self, condition: Sequence[Node], options: Sequence[tuple[bool, bool]]) -> bool:
        """An undecided condition: the branch ``choices`` names, else the first feasible (not ``exit``-ing) one."""
        feasible = [value for value, ok in options if ok] or [options[0][0]]
        if len(feasible) == 1:
            return feasible[0]
        text = condition_text(condition)
        index = self.pick(len(feasible), lambda i: f"{'' if feasible[i] else 'not '}{text} (line {self.at})")
        self.note_undecided(condition)
        return feasible[index]

    def requires(self, condition: Sequence[Node], leaves: bool) -> bool:
        """A decided branch that ``exit``s on a variable holding an environment default (``MODEL=${MODEL:-}``, then
        ``[ -z "$MODEL" ] && exit 1``): the script requires that environment, so whoever ran it had it set –
        the condition is a choice, and the variables it names are unknown from here on."""
        if not leaves or not self.defaulted:
            return False
        names = {node_text(n) for c in condition for n in _variables(c)}
        required = [n for n in names if n in self.defaulted and self.scalar(n) == self.defaulted[n]]
        for name in required:
            self.unsettle(name)
        return bool(required)

    def pick(self, count: int, label: Callable[[int], str]) -> int:
        """The choice ``choices`` names at this point (else the first), recorded with its label."""
        position = len(self.taken)
        index = self.choices[position] if position < len(self.choices) else 0
        index = index if 0 <= index < count else 0
        self.taken.append((index, count))
        self.labels.append(label(index))
        return index

    def note_undecided(self, condition: Sequence[Node]) -> None:
        if len(self.undecided) >= MAX_UNDECIDED:
            raise too_much("shell_branches", MAX_UNDECIDED, self.at)
        text = condition_text(condition)
        names = tuple(dict.fromkeys(n for c in condition for n in self._unknown_names(c)))
        self.undecided.append(Undecided(text, names, self.at))

    def _unknown_names(self, node: Node) -> Iterator[str]:
        """The variables a condition names that the script does not set (bounded by the work budget)."""
        stack = [node]
        while stack:
            current = stack.pop()
            self.step()
            if current.type in ("variable_name", "special_variable_name"):
                name = node_text(current)
                if name in self.unknown or (name not in self.script.variables and name not in self.script.arrays):
                    yield name
            stack.extend(reversed(current.named_children))

    def case(self, node: Node) -> None:
        """``case … esac``: the first matching pattern (``;&`` runs the next body too, ``;;&`` tests the items after
        it); an unknown subject makes each item a choice."""
        subject_node = node.child_by_field_name("value")
        subject = self.word(subject_node) if subject_node is not None else None
        items = [child for child in node.named_children if child.type == "case_item"]
        if subject is None:
            self._choose_item(subject_node, items)
            return
        falling = False
        ran = False
        for position, item in enumerate(items):
            self.step()
            if not falling:
                patterns = [self.word(p) for p in item.children_by_field_name("value")]
                matches = [None if p is None else self.matches(subject, p) for p in patterns]
                if None in matches:
                    self._choose_item(subject_node, items[position:])
                    return
                if not any(matches):
                    continue
            ran = True
            self._body(item_body(item))
            ending = _ending(item)
            if ending == ";;" or self.stopped or self.jump is not None:
                return
            falling = ending == ";&"
        if not ran:
            self.code = 0  # no pattern matched

    def _body(self, body: Sequence[Node]) -> None:
        """An item's body (``$?`` in it is the status before ``case``; an empty body's status is 0)."""
        self.statements(body)
        if not body:
            self.code = 0

    def _choose_item(self, subject: Node | None, items: Sequence[Node]) -> None:
        """Each item that does not ``exit`` is a choice, and so is matching none where no ``*)`` catches all."""
        options: list[tuple[Node | None, list[Node]]] = []
        for item in items:
            self.step()
            body = item_body(item)
            if not exits(body):
                options.append((item, body))
        if not any(node_text(p) == "*" for item in items for p in item.children_by_field_name("value")):
            options.append((None, []))
        if not options:
            return
        index = 0
        if len(options) > 1:
            subject_text = node_text(subject) if subject is not None else "?"

            def label(index: int) -> str:
                item = options[index][0]
                patterns = "|".join(node_text(p) for p in item.children_by_field_name("value")) if item else ""
                return short(f"{subject_text} matches {patterns or 'no pattern'}") + f" (line {self.at})"

            index = self.pick(len(options), label)
            self.note_undecided([subject] if subject is not None else [])
        chosen = options[index][0]
        self.statements(options[index][1])
        after = [i for i, item in enumerate(items) if chosen is not None and item.id == chosen.id]
        if after and not (self.stopped or self.jump is not None):
            self._after_chosen(subject, items, after[0])

    def _after_chosen(self, subject: Node | None, items: Sequence[Node], position: int) -> None:
        """What follows a chosen item: ``;&`` runs the next body, ``;;&`` tests the items after it (choices again)."""
        while position + 1 < len(items) and not (self.stopped or self.jump is not None):
            ending = _ending(items[position])
            if ending == ";&":
                position += 1
                self.statements(item_body(items[position]))
            else:
                if ending == ";;&":
                    self.enter()
                    try:
                        self._choose_item(subject, items[position + 1 :])
                    finally:
                        self.depth -= 1
                return


def _variables(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "variable_name":
            yield current
        stack.extend(current.named_children)


def _ending(item: Node) -> str:
    """How a ``case`` item ends: ``;;``, ``;&`` or ``;;&`` (the last item may end with nothing: ``;;``)."""
    return next((child.type for child in item.children if child.type in (";&", ";;&")), ";;")
