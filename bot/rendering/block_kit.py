"""The document laid out as Slack Block Kit, through slack_sdk's typed block classes.

All text the document holds is plain; here it is escaped once for mrkdwn, so nothing a
user typed can become a mention, a link or a broadcast.

Every text is bounded by construction, so Slack takes any answer, however large: a section longer
than Slack's 3.000 characters is split into several at line ends (a single longer line is cut),
more than ten fields into several sections, headers, field texts, button labels and values are cut
to their limits (a button whose value does not fit is left out), and a message keeps within 50
blocks (a modal within 100), saying how many sections it left out. The limits are Slack's
(https://api.slack.com/reference/block-kit/blocks, …/block-elements, …/surfaces/views), the same
slack_sdk's classes check; the content is shortened before this (a finding names a few keys, then
„und 107 weitere“), so these cuts are the last guard, not the usual case.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
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

from effbatch.bot.document import (
    Bullet,
    ChangedBy,
    Choice,
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
from effbatch.bot.rendering.grammar import singular_after_one
from effbatch.bot.texts import answers as texts

#: The block of what-if buttons; its id travels back with every click.
ACTIONS_BLOCK = "whatif"


@dataclass(frozen=True)
class Limits:
    """Slack's limits for what a surface shows (characters, or counts)."""

    blocks: int = 50  # a message; a modal or the App Home holds 100
    section_text: int = 3000
    fields: int = 10
    field_text: int = 2000
    header_text: int = 150
    context_text: int = 3000
    button_text: int = 75
    button_value: int = 2000
    buttons: int = 25
    #: The notification text beside the blocks: Slack cuts at 40.000, a notification shows far less.
    fallback_text: int = 3000


MESSAGE = Limits()
#: A modal's or the App Home's view: 100 blocks.
VIEW = Limits(blocks=100)
ELLIPSIS = "…"


def message(document: Document) -> dict[str, Any]:
    """The payload Slack receives for a new answer (``ack(message(document))``)."""
    return {"response_type": document.visibility.value, **_content(document)}


def cut(text: str, limit: int, render: Callable[[str], str] = str) -> str:
    """``text`` shortened with „…“ until ``render`` of it fits into ``limit`` characters (escaping grows text)."""
    if len(text) * 5 <= limit or len(render(text)) <= limit:  # escaping at most quintuples („&“ → „&amp;“)
        return text
    low, high = 0, min(len(text), limit)  # the longest prefix whose rendering still fits, by bisection
    while low < high:
        middle = (low + high + 1) // 2
        if len(render(text[:middle] + ELLIPSIS)) <= limit:
            low = middle
        else:
            high = middle - 1
    return text[:low] + ELLIPSIS


def replacing(document: Document) -> dict[str, Any]:
    """The payload that replaces the message a button was clicked on (its visibility stays)."""
    return {"replace_original": True, **_content(document)}


def blocks(document: Document, *, choices: bool = True, limits: Limits = MESSAGE, reserved: int = 0) -> list[Block]:
    """Header, parts, buttons and who changed it last; without buttons where nothing can be clicked (a modal).

    Within ``limits``, ``reserved`` blocks left for what the caller adds (a modal's warning).
    """
    return _blocks(document, choices, limits, reserved)


def _blocks(document: Document, choices: bool, limits: Limits, reserved: int) -> list[Block]:
    tail: list[Block] = []
    buttons = [_button(c, limits) for c in document.choices if len(c.value) <= limits.button_value] if choices else []
    if buttons:
        tail.append(ActionsBlock(block_id=ACTIONS_BLOCK, elements=buttons[: limits.buttons]))
    if document.changed_by is not None:
        tail.append(_context(_changed_by(document.changed_by), limits))
    body = [block for part in document.parts for block in _part(part, limits)]
    room = limits.blocks - reserved - 1 - len(tail)  # the header, and what follows the parts
    if len(body) > room:
        left_out = len(body) - (room - 1)
        body = [*body[: room - 1], _context(escape(texts.LEFT_OUT.format(count=left_out)), limits)]
    return [HeaderBlock(text=singular_after_one(cut(document.title, limits.header_text))), *body, *tail]


def _say(text: str) -> str:
    """A text of the document as mrkdwn: „1 Sequenz“ after a lone 1 (``bot.rendering.grammar``), then escaped."""
    return escape(singular_after_one(text))


def escape(text: str) -> str:
    """Escape the three characters Slack treats as control sequences in mrkdwn."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def section(text: str, limits: Limits = MESSAGE) -> SectionBlock:
    """A section of plain text (escaped here)."""
    return SectionBlock(text=MarkdownTextObject(text=escape(cut(text, limits.section_text, escape))))


def _content(document: Document) -> dict[str, Any]:
    """The notification text and the blocks; the text is plain (a notification shows `code` marks as they are)."""
    text = _say(cut(document.summary.replace("`", ""), MESSAGE.fallback_text, escape))
    return {"text": text, "blocks": [block.to_dict() for block in _blocks(document, True, MESSAGE, 0)]}


def _button(choice: Choice, limits: Limits) -> ButtonElement:
    return ButtonElement(text=cut(choice.label, limits.button_text), action_id=choice.action_id, value=choice.value)


def _part(part: Part, limits: Limits) -> list[Block]:
    """One part as one block, or several where it outgrows a block's limits."""
    match part:
        case Fields(fields=fields):
            texts_ = [_field(field, limits.field_text) for field in fields]
            return _field_sections(texts_, limits)
        case Section():
            return [
                SectionBlock(text=MarkdownTextObject(text=chunk)) for chunk in _chunks(_mrkdwn(part, limits), limits)
            ]
        case Columns(columns=columns):
            texts_ = [cut_rendered(_mrkdwn(column, limits), limits.field_text) for column in columns]
            return _field_sections(texts_, limits)
        case Note(text=text, user=user):
            said = _say(cut(text, limits.context_text - 32, escape))  # room for the mention {user} becomes
            return [_context(said.replace("{user}", f"<@{user}>") if user else said, limits)]
        case Divider():
            return [DividerBlock()]


def _field_sections(texts_: list[str], limits: Limits) -> list[Block]:
    """Ten fields a section (Slack's limit), as many sections as needed."""
    groups = [texts_[i : i + limits.fields] for i in range(0, len(texts_), limits.fields)]
    return [SectionBlock(fields=[MarkdownTextObject(text=text) for text in group]) for group in groups]


def _field(field: Field, limit: int) -> str:
    """'*Datenparallele Geräte (d)*\n8 _aus den GPUs_', each part cut so that the whole stays within ``limit``."""
    share = limit // 3 - 8  # name, value and mark each get a third, less their markup
    name, value = cut(field.name, share, escape), cut(field.value, share, escape)
    mark = f" _{_say(cut(field.mark, share, escape))}_" if field.mark else ""
    return f"*{_say(name)}*\n{_say(value)}{mark}"


def _mrkdwn(section: Section, limits: Limits) -> list[str]:
    """The section's lines as mrkdwn, each within a section's limit."""
    lines = []
    if section.title:
        title = cut(section.title, limits.header_text, escape)
        lines.append((":warning: " if section.warning else "") + f"*{_say(title)}*")
    lines += [_line(line, limits.section_text) for line in section.lines]
    return lines


def _chunks(lines: list[str], limits: Limits) -> Iterator[str]:
    """Lines joined into as few texts as fit a section each (Slack's 3.000 characters)."""
    chunk: list[str] = []
    size = 0
    for line in lines:
        if chunk and size + 1 + len(line) > limits.section_text:
            yield "\n".join(chunk)
            chunk, size = [], 0
        size += (1 if chunk else 0) + len(line)
        chunk.append(line)
    if chunk:
        yield "\n".join(chunk)


def cut_rendered(lines: list[str], limit: int) -> str:
    """Rendered lines joined, the lines that do not fit into ``limit`` left out (a column of a comparison)."""
    kept: list[str] = []
    for line in lines:
        if len("\n".join([*kept, line])) > limit - len(ELLIPSIS) - 1:
            return "\n".join([*kept, ELLIPSIS])
        kept.append(line)
    return "\n".join(kept)


def _line(line: Line, limit: int) -> str:
    """One line as mrkdwn, its text cut so that the line stays within ``limit`` (markup and escaping counted)."""
    match line:
        case Formula(text=text, remark=remark):
            shown = cut(text, limit - 2, escape) if len(escape(text)) + 2 > limit else text
            rest = limit - len(escape(shown)) - 3
            tail = f" {_say(cut(remark, rest, escape))}" if remark and rest > len(ELLIPSIS) else ""
            return f"`{_say(shown)}`{tail}"
        case Bullet(text=text):
            return f"• {_say(cut(text, limit - 2, escape))}"
        case str():
            return _say(cut(line, limit, escape))


def _context(mrkdwn: str, limits: Limits = MESSAGE) -> ContextBlock:
    return ContextBlock(elements=[MarkdownTextObject(text=mrkdwn[: limits.context_text])])


def _changed_by(changed_by: ChangedBy) -> str:
    """'Zuletzt geändert von <@U…>: Akkumulation ×2' – the one mention the bot writes itself."""
    return texts.CHANGED_BY.format(user=f"<@{changed_by.user_id}>", action=escape(changed_by.action))
