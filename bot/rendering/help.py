"""The help as documents: the short one, and every key with its aliases (from the parser's tables) and formats."""

from __future__ import annotations

from effbatch.bot.document import Answer, AnswerKind, Bullet, Divider, Document, Formula, Note, Section, Visibility
from effbatch.bot.rendering.formatting import number, quote
from effbatch.bot.texts import help as texts
from effbatch.bot.texts import memory as memory_texts
from effbatch.bot.texts.glossary import ARGUMENT_NAMES, COMMAND, PROGRAM, SETTING_NAMES
from effbatch.core import Argument
from effbatch.core.memory import GPUS, MODELS
from effbatch.core.parser import CASE_SENSITIVE_KEYS, KEY_ALIASES
from effbatch.core.training_keys import GPU_COUNT_KEY, TRAINING_KEY_ALIASES, TrainingKey


def help_answer(
    default_visibility: Visibility, *, keys: bool = False, topic: str | None = None, command: str = COMMAND
) -> Answer:
    """The short help, or the help on ``topic`` (``keys``: the table of keys and formats); only to the caller.

    ``command`` is how the surface spells the command: ``/effbatch`` in Slack and the console, ``effbatch``
    in a terminal, where the short help is the terminal's own.
    """
    chosen = topic_of(topic) if topic else ("keys" if keys else None)
    if topic and chosen is None:
        return Answer(AnswerKind.HELP, _unknown_topic_document(topic, command))
    match chosen:
        case "keys":
            document = _keys_document()
        case "check" | "budget" | "vs" | "memory":
            document = _topic_document(chosen, command)
        case _:
            document = _short_document(default_visibility) if command == COMMAND else terminal_help_document()
    return Answer(AnswerKind.HELP, document)


def topic_of(word: str) -> str | None:
    """The topic (its id) a word asks for: ``formate`` → ``keys``; None for no topic."""
    folded = word.casefold()
    return next((topic for topic, (_, words) in texts.TOPICS.items() if folded in words), None)


def _topic_list(command: str) -> str:
    return ", ".join(texts.TOPIC_ENTRY.format(command=command, topic=name) for name, _ in texts.TOPICS.values())


def _topics_line(command: str) -> str:
    return texts.TOPICS_LINE.format(topics=_topic_list(command))


def _help_document(title: str, parts: tuple[Section | Note | Divider, ...]) -> Document:
    return Document(title=title, summary=title, visibility=Visibility.EPHEMERAL, parts=parts)


def _unknown_topic_document(topic: str, command: str) -> Document:
    # the typed word only quoted (escaped) in the text, never in the header, which Slack shows as it is
    line = texts.UNKNOWN_TOPIC.format(topic=quote(topic[:40]), topics=_topic_list(command), command=command)
    return _help_document(texts.UNKNOWN_TOPIC_TITLE, (Section(lines=(line,)),))


def _topic_document(topic: str, command: str) -> Document:
    terminal = command != COMMAND
    lines, example = {
        "check": (
            (*(texts.CHECK_TOPIC_TERMINAL if terminal else texts.CHECK_TOPIC_SLACK), texts.CHECK_TOPIC_FRAMEWORKS),
            texts.CHECK_TOPIC_EXAMPLE if terminal else texts.CHECK_TOPIC_EXAMPLE_SLACK,
        ),
        "budget": (texts.BUDGET_TOPIC, texts.BUDGET_TOPIC_EXAMPLE),
        "vs": (texts.VS_TOPIC, texts.VS_TOPIC_EXAMPLE),
        "memory": (memory_texts.HELP_TOPIC, memory_texts.HELP_TOPIC_EXAMPLE),
    }[topic]
    names = {"models": ", ".join(f"`{n}`" for n in MODELS), "gpus": "|".join(GPUS)}
    shown = tuple(Bullet(line.format(command=command, **names, **_frameworks())) for line in lines)
    return _help_document(
        texts.TOPIC_TITLE.format(topic=texts.TOPICS[topic][0]),
        (
            Section(lines=shown),
            Section(lines=(texts.EXAMPLE.format(example=example.format(command=command)),)),
            Note(_topics_line(command)),
        ),
    )


def terminal_help_document() -> Document:
    """``effbatch --help``: the calculator, ``check`` with its exit codes, ``--json``, ``--version``; no form."""

    def section(title: str, lines: tuple[str, ...]) -> Section:
        return Section(title=title, lines=tuple(Bullet(line.format(command=PROGRAM)) for line in lines))

    return _help_document(
        texts.TERMINAL_TITLE,
        (
            Section(lines=(texts.TERMINAL_INTRO,)),
            section(texts.TERMINAL_CALCULATE_TITLE, texts.TERMINAL_CALCULATE),
            section(texts.TERMINAL_CHECK_TITLE, texts.TERMINAL_CHECK),
            section(texts.TERMINAL_OPTIONS_TITLE, texts.TERMINAL_OPTIONS),
            Section(lines=(texts.MORE_HELP_TERMINAL.format(command=PROGRAM), _topics_line(PROGRAM))),
        ),
    )


def _short_document(default_visibility: Visibility) -> Document:
    visibility = texts.SHARED_BY_DEFAULT if default_visibility is Visibility.IN_CHANNEL else texts.PRIVATE_BY_DEFAULT
    return Document(
        title=texts.HELP_TITLE,
        summary=texts.HELP_TITLE,
        visibility=Visibility.EPHEMERAL,
        parts=(
            Section(lines=(texts.HELP_INTRO, *(Formula(f) for f in texts.HELP_FORMULAS))),
            Divider(),
            Section(title=texts.USAGE_TITLE, lines=tuple(line.format(**_frameworks()) for line in texts.USAGE)),
            Section(title=texts.EXAMPLES_TITLE, lines=texts.EXAMPLES),
            Section(title=texts.RL_TITLE, lines=(texts.RL_HELP,)),
            Section(lines=(texts.MORE_HELP, _topics_line(COMMAND))),
            Note(texts.WHATIF_HELP),
            Note(visibility + texts.ALWAYS_PRIVATE),
        ),
    )


def _frameworks() -> dict[str, str]:
    """The frameworks a check knows, from the registry: read only where the help names them (it loads them all)."""
    from effbatch.bot.texts.checks import framework_list

    count, frameworks = framework_list()
    return {"count": str(count), "frameworks": frameworks}


def _keys_document() -> Document:
    bounds = ", ".join(f"{a.symbol} {number(a.upper_bound)}" for a in texts.BOUNDS_SHOWN)
    return Document(
        title=texts.KEYS_TITLE,
        summary=texts.KEYS_TITLE,
        visibility=Visibility.EPHEMERAL,
        parts=(
            *_key_sections(),
            *_training_key_sections(),
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


def _training_key_sections() -> tuple[Section, ...]:
    """The memory and time keys with every spelling the parser accepts (``core.training_keys``)."""
    sections = []
    for title, names in texts.TRAINING_KEY_GROUPS:
        lines = []
        for name in names:
            keys = [GPU_COUNT_KEY] if name == TrainingKey.GPU else []  # gpu=h100 (gpu=8 stays the count)
            keys += [key for key, target in TRAINING_KEY_ALIASES.items() if target.value == name]
            lines.append(
                Bullet(texts.KEY_LINE.format(name=SETTING_NAMES[name], keys=", ".join(f"`{k}`" for k in keys)))
            )
        sections.append(Section(title=title, lines=tuple(lines)))
    return tuple(sections)
