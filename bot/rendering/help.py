"""The help as documents: the short one, and every key with its aliases (from the parser's tables) and formats."""

from __future__ import annotations

from bot.document import Answer, AnswerKind, Bullet, Divider, Document, Formula, Note, Section, Visibility
from bot.rendering.formatting import number
from bot.texts import help as texts
from bot.texts.glossary import ARGUMENT_NAMES
from core import Argument
from core.parser import CASE_SENSITIVE_KEYS, KEY_ALIASES


def help_answer(default_visibility: Visibility, *, keys: bool = False) -> Answer:
    """The short help (usage, examples), or with ``keys`` the table of keys and formats; only to the caller."""
    document = _keys_document() if keys else _short_document(default_visibility)
    return Answer(AnswerKind.HELP, document)


def _short_document(default_visibility: Visibility) -> Document:
    visibility = texts.SHARED_BY_DEFAULT if default_visibility is Visibility.IN_CHANNEL else texts.PRIVATE_BY_DEFAULT
    return Document(
        title=texts.HELP_TITLE,
        summary=texts.HELP_TITLE,
        visibility=Visibility.EPHEMERAL,
        parts=(
            Section(lines=(texts.HELP_INTRO, *(Formula(f) for f in texts.HELP_FORMULAS))),
            Divider(),
            Section(title=texts.USAGE_TITLE, lines=texts.USAGE),
            Section(title=texts.EXAMPLES_TITLE, lines=texts.EXAMPLES),
            Section(title=texts.RL_TITLE, lines=(texts.RL_HELP,)),
            Section(lines=(texts.MORE_HELP,)),
            Note(texts.WHATIF_HELP),
            Note(visibility + texts.ALWAYS_PRIVATE),
        ),
    )


def _keys_document() -> Document:
    bounds = ", ".join(f"{a.symbol} {number(a.upper_bound)}" for a in texts.BOUNDS_SHOWN)
    return Document(
        title=texts.KEYS_TITLE,
        summary=texts.KEYS_TITLE,
        visibility=Visibility.EPHEMERAL,
        parts=(
            *_key_sections(),
            Note(texts.HELP_CASE),
            Section(title=texts.PARALLELISM_TITLE, lines=tuple(Bullet(line) for line in texts.PARALLELISM)),
            Section(title=texts.NUMBERS_TITLE, lines=(*texts.NUMBERS, texts.BOUNDS.format(bounds=bounds))),
        ),
    )


def keys_of(argument: Argument) -> list[str]:
    """Every key the parser accepts for ``argument``, the case-sensitive ones first."""
    exact = [key for key, target in CASE_SENSITIVE_KEYS.items() if target is argument]
    return exact + [key for key, target in KEY_ALIASES.items() if target is argument]


def _key_sections() -> tuple[Section, ...]:
    sections = []
    for title, arguments, example in texts.KEY_GROUPS:
        keys = [
            Bullet(texts.KEY_LINE.format(name=ARGUMENT_NAMES[a], keys=", ".join(f"`{key}`" for key in keys_of(a))))
            for a in arguments
        ]
        sections.append(Section(title=title, lines=(*keys, texts.EXAMPLE.format(example=example))))
    return tuple(sections)
