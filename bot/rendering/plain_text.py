"""The document laid out as terminal text, for the console and the CLI; every text agreeing in number („1 Sequenz“)."""

from __future__ import annotations

from effbatch.bot.document import (
    Bullet,
    ChangedBy,
    Columns,
    Divider,
    Document,
    Fields,
    Formula,
    Line,
    Note,
    Part,
    Section,
)
from effbatch.bot.rendering.grammar import singular_after_one
from effbatch.bot.texts import answers as texts

RULE = "-" * 40


def plain_text(document: Document, *, choices: bool = True) -> str:
    """Title underlined, fields as 'Name: Wert', sections as paragraphs, small print indented, choices numbered."""
    title = _unquoted(singular_after_one(document.title))
    parts = [f"{title}\n{'=' * len(title)}", *(_part(part) for part in document.parts)]
    if choices and document.choices:
        parts.append("\n".join(f"[{n}] {choice.label}" for n, choice in enumerate(document.choices, start=1)))
    if document.changed_by is not None:
        parts.append(_changed_by(document.changed_by))
    return "\n\n".join(part for part in parts if part)


def _part(part: Part) -> str:
    match part:
        case Fields(fields=fields):
            return "\n".join(
                singular_after_one(f"{f.name}: {f.value}" + (f" ({f.mark})" if f.mark else "")) for f in fields
            )
        case Section():
            return _section(part)
        case Columns(columns=columns):
            return "\n\n".join(_section(column) for column in columns)
        case Note(text=text, user=user):
            return "  " + _unquoted(singular_after_one(text.replace("{user}", f"@{user}") if user else text))
        case Divider():
            return RULE


def _section(section: Section) -> str:
    lines = [("⚠ " if section.warning else "") + _unquoted(singular_after_one(section.title))] if section.title else []
    return "\n".join(lines + [_line(line) for line in section.lines])


def _line(line: Line) -> str:
    match line:
        case Formula(text=text, remark=remark):  # joined here, so agreement once more: „= 1 Optimierer-Schritt …“
            return singular_after_one(text + (f" {remark}" if remark else ""))
        case Bullet(text=text):
            return f"• {_unquoted(singular_after_one(text))}"
        case str():
            return _unquoted(singular_after_one(line))


def _unquoted(text: str) -> str:
    """Prose without its `code` marks: a terminal shows commands as they are typed."""
    return text.replace("`", "")


def _changed_by(changed_by: ChangedBy) -> str:
    return texts.CHANGED_BY.format(user=f"@{changed_by.user_id}", action=changed_by.action)
