"""Words and values: quoting, word splitting, strings, and the parts a word is built from."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from effbatch.core.configs.shell.fields import Fields
from effbatch.core.configs.shell.grammar import NAME, dangling_dollar, is_all_elements, node_text, plain_text
from effbatch.core.configs.shell.limits import MAX_ARRAY, MAX_VALUE_CHARS, too_much
from effbatch.core.configs.shell.state import State

if TYPE_CHECKING:
    from tree_sitter import Node

_ESCAPED_IN_DOUBLE = re.compile(r"\\([$`\"\\\n])")

_ESCAPED = re.compile(r"\\(.)", re.DOTALL)
_C_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "e": "\x1b", "r": "\r", "a": "\a", "0": "\0"}


class Words(State):
    """The words and values the script's nodes expand to (unknown parts kept as written)."""

    def words(self, nodes: Sequence[Node]) -> list[str]:
        """The words the arguments expand to (unknown parts kept as written)."""
        return self.expand_words(nodes)[0]

    def expand_words(self, nodes: Sequence[Node]) -> tuple[list[str], bool]:
        """The words, and whether all of them are known. Parts the grammar splits without a blank between them
        (``$DIR/$NAME.out``) are one word, as bash reads them."""
        words: list[str] = []
        known, end, previous, plain = True, -1, None, 0
        fields: Fields | None = None  # the word being built from parts (None: the last word is complete)
        for node in nodes:
            if node.type == "comment":
                continue
            if node.type == "command_name" and node.named_child_count == 1:
                node = node.named_children[0]
            adjacent = node.start_byte == end
            if not adjacent and fields is not None:
                words, fields = self._flush(words, fields), None
            if not adjacent and (text := plain_text(node)) is not None:
                words.append(text)  # most words: nothing to expand, unquote or split
                plain += len(text)
                self.step()
            else:
                if fields is None:  # a part joined to a plain word before it continues that word
                    fields = Fields(self)
                    if adjacent and words:
                        fields.words, fields.open = [words.pop()], True
                if adjacent and previous is not None and dangling_dollar(previous) and node.type == "word":
                    self._after_dollar(node, fields)  # the grammar's split of $DIR/$NAME.out: "$DIR/$" "NAME.out"
                else:
                    self.part(node, fields, quoted=False)
                known = known and not fields.unknown
            previous, end = node, node.end_byte
        words = self._flush(words, fields) if fields is not None else words
        if len(words) > MAX_ARRAY:
            raise too_much("shell_long_array", MAX_ARRAY, self.at)
        self.charge(plain)
        return words, known

    def _after_dollar(self, node: Node, fields: Fields) -> None:
        """``NAME.out`` after a ``$`` the grammar left at the end of the word before: ``$NAME`` and ``.out``."""
        text = node_text(node)
        match = NAME.match(text)
        if match is None or not fields.words or not fields.words[-1].endswith("$"):
            fields.literal(text)
            return
        fields.words[-1] = fields.words[-1][:-1]
        name = match.group(0)
        value = self.scalar(name)
        if value is None or name in self.unknown:
            fields.unknown = True
        if value is None:
            fields.literal("$" + name)
        else:
            fields.split(value)
        fields.literal(_ESCAPED.sub(r"\1", text[match.end() :]))

    def _flush(self, words: list[str], fields: Fields) -> list[str]:
        if len(words) + len(fields.words) > MAX_ARRAY:
            raise too_much("shell_long_array", MAX_ARRAY, self.at)
        words += fields.words
        return words

    def _plain(self, node: Node) -> str:
        text = node_text(node)
        if len(text) > MAX_VALUE_CHARS:
            raise too_much("shell_long_value", MAX_VALUE_CHARS, self.at)
        self.charge(len(text))
        self.step()
        return text

    def known_words(self, node: Node) -> list[str] | None:
        parts = [*node.children_by_field_name("name"), *node.children_by_field_name("argument")]
        words, known = self.expand_words(parts)
        return words if known else None

    def word(self, node: Node) -> str | None:
        """One operand as a string, or None where it depends on something unknown."""
        text, known = self.value(node)
        return text if known else None

    def value(self, node: Node | None) -> tuple[str, bool]:
        """An assignment's value: expanded, not split; and whether every part of it is known."""
        if node is None:
            return "", True
        if node.type in ("word", "number") and not node.named_children and b"\\" not in (node.text or b"\\"):
            return self._plain(node), True  # most values: nothing to expand
        fields = Fields(self)
        self.part(node, fields, quoted=True)
        return " ".join(fields.words), not fields.unknown

    def part(self, node: Node, fields: Fields, quoted: bool) -> None:
        self.enter()
        self.step()
        try:
            kind = node.type
            if kind in ("word", "command_name"):
                if kind == "command_name" or node.named_children:
                    for child in node.named_children:
                        self.part(child, fields, quoted)
                else:
                    fields.literal(_ESCAPED.sub(r"\1", node_text(node)))
            elif kind == "raw_string":
                fields.literal(node_text(node)[1:-1])
            elif kind == "ansi_c_string":
                fields.literal(
                    re.sub(r"\\(.)", lambda m: _C_ESCAPES.get(m.group(1), m.group(0)), node_text(node)[2:-1])
                )
            elif kind in ("string", "translated_string"):
                self.string(node, fields)
            elif kind == "concatenation":
                for child in node.children:
                    self.part(child, fields, quoted)
            elif kind in ("simple_expansion", "expansion"):
                self.expansion(node, fields, quoted)
            elif kind == "arithmetic_expansion":
                value = self.arithmetic([node])
                fields.known(None if value is None else str(value), node_text(node))
            elif kind in ("command_substitution", "process_substitution"):
                fields.known(None, node_text(node))
            else:
                fields.literal(node_text(node))
        finally:
            self.depth -= 1

    def string(self, node: Node, fields: Fields) -> None:
        """``"…"``: the text between the quotes with its expansions; ``\\$ \\" \\\\ \\` `` and ``\\``-newline undone."""
        inner = list(node.named_children)
        if not (inner and all(is_all_elements(c) for c in inner)):
            fields.literal("")  # "" is a word of its own; "${EMPTY[@]}" alone is none
        raw, start = node.text or b"", node.start_byte
        position = 1 if node_text(node).startswith('"') else 2
        for child in inner:
            if child.type != "string_content":
                text = child.children[0].text or b"" if child.children else b""
                lead = len(text) - len(text.lstrip(_BLANKS))  # tree-sitter-bash's `$` token takes the blanks before it
                _gap(fields, raw[position : child.start_byte - start + lead])
                self.part(child, fields, quoted=True)
                position = child.end_byte - start
        _gap(fields, raw[position:-1])


#: What tree-sitter-bash puts into the ``$``/``${`` token of an expansion inside ``"…"`` before its ``$``: the
#: string's own blanks and ``\\``-newlines.
_BLANKS = b" \t\\\n"


def _gap(fields: Fields, raw: bytes) -> None:
    """Literal text inside ``"…"``: only ``\\$ \\` \\" \\\\`` and ``\\``-newline are escapes there."""
    if raw:
        text = raw.decode("utf-8", "replace")
        fields.literal(_ESCAPED_IN_DOUBLE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text))
