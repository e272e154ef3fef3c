"""The document laid out as Slack Block Kit, through slack_sdk's typed block classes.

All text the document holds is plain; here it is escaped once for mrkdwn, so nothing a
user typed can become a mention, a link or a broadcast.
"""

from __future__ import annotations

from typing import Any

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    ContextBlock,
    DividerBlock,
    HeaderBlock,
    MarkdownTextObject,
    SectionBlock,
)

from bot.document import (
    Bullet,
    ChangedBy,
    Columns,
    Divider,
    Document,
    Field,
    Fields,
    Formula,
    Line,
    Note,
    Part,
    Section,
)
from bot.texts import answers as texts

#: The block of what-if buttons; its id travels back with every click.
ACTIONS_BLOCK = "whatif"


def message(document: Document) -> dict[str, Any]:
    """The payload Slack receives for a new answer (``ack(message(document))``)."""
    return {"response_type": document.visibility.value, **_content(document)}


def replacing(document: Document) -> dict[str, Any]:
    """The payload that replaces the message a button was clicked on (its visibility stays)."""
    return {"replace_original": True, **_content(document)}


def blocks(document: Document, *, choices: bool = True) -> list[Block]:
    """Header, parts, buttons and who changed it last; without buttons where nothing can be clicked (a modal)."""
    laid_out: list[Block] = [HeaderBlock(text=document.title)]
    laid_out += [_part(part) for part in document.parts]
    if choices and document.choices:
        buttons = [ButtonElement(text=c.label, action_id=c.action_id, value=c.value) for c in document.choices]
        laid_out.append(ActionsBlock(block_id=ACTIONS_BLOCK, elements=buttons))
    if document.changed_by is not None:
        laid_out.append(_context(_changed_by(document.changed_by)))
    return laid_out


def escape(text: str) -> str:
    """Escape the three characters Slack treats as control sequences in mrkdwn."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def section(text: str) -> SectionBlock:
    """A section of plain text (escaped here)."""
    return SectionBlock(text=MarkdownTextObject(text=escape(text)))


def _content(document: Document) -> dict[str, Any]:
    return {"text": escape(document.summary), "blocks": [block.to_dict() for block in blocks(document)]}


def _part(part: Part) -> Block:
    match part:
        case Fields(fields=fields):
            return SectionBlock(fields=[MarkdownTextObject(text=_field(field)) for field in fields])
        case Section():
            return SectionBlock(text=MarkdownTextObject(text=_mrkdwn(part)))
        case Columns(columns=columns):
            return SectionBlock(fields=[MarkdownTextObject(text=_mrkdwn(column)) for column in columns])
        case Note(text=text, user=user):
            return _context(escape(text).replace("{user}", f"<@{user}>") if user else escape(text))
        case Divider():
            return DividerBlock()


def _field(field: Field) -> str:
    """'*Datenparallele Geräte (d)*\n8 _aus den GPUs_'."""
    return f"*{escape(field.name)}*\n{escape(field.value)}" + (f" _{escape(field.mark)}_" if field.mark else "")


def _mrkdwn(section: Section) -> str:
    lines = []
    if section.title:
        lines.append((":warning: " if section.warning else "") + f"*{escape(section.title)}*")
    lines += [_line(line) for line in section.lines]
    return "\n".join(lines)


def _line(line: Line) -> str:
    match line:
        case Formula(text=text, remark=remark):
            return f"`{escape(text)}`" + (f" {escape(remark)}" if remark else "")
        case Bullet(text=text):
            return f"• {escape(text)}"
        case str():
            return escape(line)


def _context(mrkdwn: str) -> ContextBlock:
    return ContextBlock(elements=[MarkdownTextObject(text=mrkdwn)])


def _changed_by(changed_by: ChangedBy) -> str:
    """'Zuletzt geändert von <@U…>: Akkumulation ×2' – the one mention the bot writes itself."""
    return texts.CHANGED_BY.format(user=f"<@{changed_by.user_id}>", action=escape(changed_by.action))
