"""Scopes: subshells and pipeline stages (what they assign stays in them), function calls with their ``local``s,
and the declaring builtins ``local``, ``declare``, ``typeset``, ``export``, ``readonly``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from effbatch.core.configs.shell.grammar import node_text
from effbatch.core.configs.shell.state import BashError, State

if TYPE_CHECKING:
    from tree_sitter import Node

#: ``declare`` options that change what a value becomes (integer, case, name reference, associative): not followed.
_TRANSFORMING = frozenset("ilucnAt")


class Scopes(State):
    """Where an assignment reaches: this shell, a subshell, a function's call."""

    def subshell(self, nodes: Sequence[Node]) -> None:
        """``( … )`` and each stage of a pipeline: a process of its own. Its commands are the script's; what it
        assigns, defines, ``exit``s or ``return``s ends with it; an error bash reports ends it too."""
        snapshot = self.snapshot()
        frames = [dict(frame) for frame in self.frames]
        flow = (self.stopped, self.jump, self.jumps)
        try:
            self.statements(nodes)
        except BashError:
            self.code = 1
        finally:
            self.restore(snapshot)
            self.frames = frames
            self.stopped, self.jump, self.jumps = flow

    def call(
        self, name: str, env: dict[str, str], prefixes: Mapping[str, tuple[str, bool]], arguments: list[str] | None
    ) -> None:
        """A function's body where it is called (not recursively), with the call's ``VAR=value`` prefixes as its own
        variables and its words as ``$1`` … (None: only the run knows them); its ``local``s (and the prefixes) are
        undone when it returns, and the caller's positional parameters are back."""
        saved_env, self.env = self.env, env
        outer, self.positional = self.positional, arguments
        self.calling.add(name)
        self.frames.append({})
        try:
            for key, (text, known) in prefixes.items():
                self._local(key)
                self.set(key, text, known)
            self.statement(self.functions[name])
            if self.jump == "return":
                self.jump = None
        finally:
            frame = self.frames.pop()
            for key, saved in frame.items() if not self.stopped else ():  # exit inside: the script ends in here
                self.put_back(key, saved)
            self.calling.discard(name)
            self.env, self.positional = saved_env, outer

    def declare(self, node: Node) -> None:
        """``local``/``declare``/``typeset`` (in a function: its own variables, unless ``-g``), ``export``,
        ``readonly`` (``declare -r``). Where bash refuses one (a readonly variable, ``local`` outside a function) it
        reports it, leaves that variable as it was and goes on."""
        keyword = node.children[0].type if node.children else ""
        options = "".join(node_text(c)[1:] for c in node.named_children if node_text(c).startswith("-"))
        if keyword == "local" and not self.frames:  # bash expands the values, then refuses
            for child in node.named_children:
                self._expand_only(child)
            self.code = 1
            return
        local = bool(self.frames) and (keyword == "local" or (keyword in ("declare", "typeset") and "g" not in options))
        readonly = keyword == "readonly" or "r" in options
        code = 0
        for child in node.named_children:
            name = _declared(child)
            if name is None:
                continue
            if name in self.readonly and (local or child.type == "variable_assignment"):
                self._expand_only(child)
                code = 1  # bash: readonly variable
                continue
            fresh = local and self._local(name)
            if child.type == "variable_assignment":
                self.assign(child)
                if _TRANSFORMING & set(options):
                    self.unsettle(name)
            elif fresh:
                self.forget(name)  # bash 5: a new local is unset until assigned
            if readonly:
                self.readonly.add(name)
        self.code = code

    def _expand_only(self, node: Node) -> None:
        """An assignment bash refuses: its value is expanded all the same (``$(( A++ ))`` counts)."""
        if node.type == "variable_assignment" and (value := node.child_by_field_name("value")) is not None:
            self.expand_words(value.named_children) if value.type == "array" else self.value(value)

    def _local(self, name: str) -> bool:
        """``name`` made the current function's own (its outer value kept for the return); False if it already is."""
        frame = self.frames[-1]
        if name in frame:
            return False
        frame[name] = self.save(name)
        return True


def _declared(node: Node) -> str | None:
    """The variable a ``declare``'s argument names (``X``, ``X=1``, ``A=(…)``); None for an option."""
    if node.type == "variable_name":
        return node_text(node)
    if node.type == "variable_assignment" and (name := node.child_by_field_name("name")) is not None:
        inner = name.child_by_field_name("name") if name.type == "subscript" else name
        return node_text(inner) if inner is not None else None
    return None
