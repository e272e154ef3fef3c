"""The source text of ``ast`` nodes, from line offsets computed once: ``ast.get_source_segment`` splits the whole
text on every call, which is quadratic over a file of assignments."""

from __future__ import annotations

import ast


class Segments:
    """Cuts nodes out of a text by their offsets (ast's columns count UTF-8 bytes)."""

    def __init__(self, text: str) -> None:
        self._data = text.encode("utf-8", "surrogatepass")
        starts = [0]
        position = self._data.find(b"\n")
        while position >= 0:
            starts.append(position + 1)
            position = self._data.find(b"\n", position + 1)
        self._starts = starts

    def written(self, node: ast.AST, limit: int = 60) -> str:
        """The node as written, its lines folded onto one, cut to ``limit`` characters (only the bytes needed are
        decoded)."""
        line, end_line = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        column, end_column = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
        if line is None or end_line is None or column is None or end_column is None or line > len(self._starts):
            return "…"
        start = self._starts[line - 1] + column
        end = min(self._starts[min(end_line, len(self._starts)) - 1] + end_column, start + 4 * limit)
        text = self._data[start:end].decode("utf-8", errors="ignore")
        return " ".join(text.split())[:limit] or "…"
