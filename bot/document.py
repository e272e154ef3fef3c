"""What an answer says, decided once, before any medium: the presentation document.

A ``Document`` holds German lines with every number already formatted: a title, a
one-line summary for notifications, parts (fields, titled sections, small print,
dividers) and the choices that follow (what-if buttons in Slack, numbered choices in
the console). ``bot.rendering.block_kit`` lays it out for Slack, ``bot.rendering.plain_text``
for the console and the CLI. Text is plain: no Slack escaping, no markup but `code`
spans, which each layout renders its own way.

Dependency-free, so that settings and entry points can name these types cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum


class Visibility(StrEnum):
    """Slack's ``response_type``: the whole channel or only the caller."""

    IN_CHANNEL = "in_channel"
    EPHEMERAL = "ephemeral"


class AnswerKind(StrEnum):
    """What kind of answer a command got, for logs and metrics."""

    CALCULATION = "calculation"
    SOLVE = "solve"
    OPTIONS = "options"
    COMPARISON = "comparison"
    HELP = "help"
    INPUT_ERROR = "input_error"
    NOT_FETCHED = "not_fetched"  # a linked file that could not be read: nothing was checked
    CHECK = "check"
    RUNS = "runs"
    GUIDANCE = "guidance"
    MEMORY = "memory"
    SCALING = "scaling"
    PLAN = "plan"
    PROFILE = "profile"
    NOT_INSTALLED = "not_installed"


@dataclass(frozen=True)
class Field:
    """One value as understood, e.g. 'Batch je Gerät (b)': '8', marked 'berechnet' where it was solved for."""

    name: str
    value: str
    mark: str = ""


@dataclass(frozen=True)
class Fields:
    """Values side by side."""

    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Formula:
    """A formula with its numbers filled in, shown as code; ``remark`` follows it as prose."""

    text: str
    remark: str = ""


@dataclass(frozen=True)
class Bullet:
    """One point of a list."""

    text: str


#: A line of a section: prose, a formula or a bullet point.
Line = str | Formula | Bullet


@dataclass(frozen=True)
class Section:
    """A titled paragraph of lines; a warning stands out."""

    title: str = ""
    lines: tuple[Line, ...] = ()
    warning: bool = False


@dataclass(frozen=True)
class Columns:
    """Short blocks of lines side by side (before and after in a comparison), each with its title."""

    columns: tuple[Section, ...]


@dataclass(frozen=True)
class Note:
    """Small print: limits, hints, who may click; ``{user}`` in the text names ``user`` (a Slack user id, checked
    before it gets here), a mention in Slack."""

    text: str
    user: str = ""


@dataclass(frozen=True)
class Divider:
    """A rule between the answer and its small print."""


Part = Fields | Section | Columns | Note | Divider


@dataclass(frozen=True)
class Choice:
    """A next question, one click (or one number) away; ``value`` is the canonical command it answers."""

    label: str
    action_id: str
    value: str


@dataclass(frozen=True)
class ChangedBy:
    """Who changed a shared answer last, and how (a Slack user id, checked before it gets here)."""

    user_id: str
    action: str


@dataclass(frozen=True)
class Document:
    """Everything an answer says, in German, numbers formatted."""

    title: str
    summary: str
    visibility: Visibility
    parts: tuple[Part, ...] = ()
    choices: tuple[Choice, ...] = ()
    changed_by: ChangedBy | None = None

    def changed(self, changed_by: ChangedBy | None) -> Document:
        """This document, closed by who changed it last."""
        return replace(self, changed_by=changed_by)


@dataclass(frozen=True)
class Answer:
    """A command's answer: its kind (for logs and metrics) and its document."""

    kind: AnswerKind
    document: Document
