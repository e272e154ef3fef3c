"""``argparse.ArgumentParser`` as a script builds it, and the namespace ``parse_args()`` returns, by argparse's rules
(CPython 3.11 ``Lib/argparse.py``):

- ``dest`` (``_get_optional_kwargs``): ``dest=`` where given, else the first long option (two dashes), else the
  first option string, its leading dashes stripped and ``-`` turned into ``_``; a positional's name as written.
- defaults: ``default=``, else the parser's ``set_defaults`` for that dest, else ``argument_default``
  (``add_argument``); ``set_defaults`` later changes the default of the options with that dest; the first option
  of a dest gives its default (``_parse_known_args``: ``if not hasattr(namespace, action.dest)``);
  ``argparse.SUPPRESS``: no attribute.
- ``type=`` converts each word given; a default only where it is a string (``isinstance(action.default, str)``),
  never a number or None; switches (``store_true``/``store_false``/``store_const``) take no word.
- the words of the launch line (``command_line.scan``) win over the defaults; a required option (or a positional)
  the line does not give – or no line at all – is unknown, as is a word the type refuses (argparse exits there).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from effbatch.core.configs.base import Given, Instance, Origin, Unknown
from effbatch.core.configs.read.python.arguments import convert_word, flag_values
from effbatch.core.configs.read.python.command_line import Scanned, Takes, scan
from effbatch.core.configs.read.python.objects import ModuleRef

#: Actions that take no word, and the value each stores.
SWITCHES = frozenset({"store_true", "store_false", "store_const"})


@dataclass
class Option:
    """One ``add_argument``: its option strings, where its value goes, its default and how its words convert."""

    flags: tuple[str, ...]
    dest: str
    default: Given
    #: ``int``, ``float``, ``str``, ``bool`` (a ``str2bool``), ``truthy`` (``type=bool``: any non-empty word is
    #: True), ``unknown`` (a ``type=`` the reader cannot apply), a switch, or ``action`` (another action: a given
    #: value unknown).
    kind: str = "str"
    #: argparse's ``nargs`` (None: one word; 0 for a switch).
    nargs: object = None
    required: bool = False
    const: object = None
    #: ``default=argparse.SUPPRESS``: the namespace has no such attribute unless the line gives it.
    suppressed: bool = False
    #: ``choices=``: a given word's value must be one of them (a default is not checked), else argparse exits.
    choices: tuple[object, ...] | None = None

    @property
    def positional(self) -> bool:
        return not self.flags[0].startswith("-")

    @property
    def label(self) -> str:
        """The option as a person names it: its first long option string, else its first."""
        return next((f for f in self.flags if f.startswith("--")), self.flags[0])


@dataclass(eq=False)
class ArgParser:
    """``argparse.ArgumentParser()``: the options added to it (its groups add to it too)."""

    options: list[Option] = field(default_factory=list)
    defaults: dict[str, Given] = field(default_factory=dict)
    #: A library added options the reader does not list (Lightning 1.x's ``Trainer.add_argparse_args``): a flag
    #: of the launch line none of the listed options takes is still a field, typed by its text.
    open: bool = False
    #: ``allow_abbrev``: an unambiguous prefix of a long option counts as that option.
    abbrev: bool = True
    argument_default: Given | None = None

    def set_defaults(self, keywords: Mapping[str, Given]) -> None:
        """``set_defaults(dest=…)``: the parser's default for that dest, and the default of its options so far."""
        self.defaults |= keywords
        for option in self.options:
            if option.dest in keywords:
                given = keywords[option.dest]
                option.default = Given(given.value, given.line, option.label, origin=Origin.DEFAULT)
                option.suppressed = False

    def namespace(self, argv: Sequence[str] | None, line: int) -> Instance:
        """What ``parse_args()`` returns: each option's default, the words of ``argv`` winning."""
        fields: dict[str, Given] = {}
        for option in self.options:
            if option.dest not in fields and not option.suppressed:
                fields[option.dest] = _default(option)
        for dest, given in self.defaults.items():
            fields.setdefault(dest, given)
        if argv is not None:
            scanned = self.scanned(argv)
            for index, words in scanned.words.items():
                option = self.options[index]
                if index not in scanned.refused and not (option.positional and scanned.unsure):
                    fields[option.dest] = _given(option, words)
            unsure = scanned.refused | _positionals(self.options, scanned, self.open) | self.refused_words(scanned)
            for index in unsure:
                fields[self.options[index].dest] = _unknown(self.options[index])
            fields |= self.unlisted(argv)
        return Instance("argparse.Namespace", fields, line, complete=not self.open or argv is not None)

    def extras(self, argv: Sequence[str] | None) -> object:
        """``parse_known_args()[1]``: the words no option takes (none where no launch line is known)."""
        if argv is None:
            return []
        scanned = self.scanned(argv)
        return Unknown("parse_known_args()[1]", ("the command line",)) if scanned.unsure else scanned.extras

    def refused_words(self, scanned: Scanned) -> set[int]:
        """Options the line gives a word their type refuses, at any of their places (argparse exits at the first)."""
        return {i for i, words in scanned.given if not _converts(self.options[i], words)}

    def scanned(self, argv: Sequence[str]) -> Scanned:
        return scan(argv, [Takes(o.flags, o.nargs) for o in self.options], abbrev=self.abbrev)

    def unlisted(self, argv: Sequence[str]) -> dict[str, Given]:
        """An open parser's flags none of the listed options takes, each a field typed by its text."""
        if not self.open:
            return {}
        known = [flag for option in self.options for flag in option.flags]
        fields: dict[str, Given] = {}
        for flag, words in flag_values(argv, known).items():
            if flag not in known and flag.startswith("--"):
                values = [convert_word(word, "auto") for word in words]
                value: object = (values[0] if len(values) == 1 else values) if values else True
                fields[flag[2:].replace("-", "_")] = Given(value, 0, flag, origin=Origin.LAUNCH)
        return fields


def _default(option: Option) -> Given:
    """An option's value where the line does not give it: its default (a string converted by its type)."""
    if option.required or option.positional:
        return _unknown(option)  # given on a command line only (argparse exits without it), or read from it
    default = option.default
    if isinstance(default.value, str) and option.kind not in SWITCHES and option.kind != "action":
        return Given(convert_word(default.value, option.kind), default.line, default.written, origin=Origin.DEFAULT)
    return default


def _given(option: Option, words: list[str]) -> Given:
    """The value the words of the line give an option (``written`` its option string, line 0)."""
    value: object
    if option.kind in SWITCHES:
        value = option.kind == "store_true" if option.kind != "store_const" else option.const
    elif option.kind == "action":
        value = Unknown(" ".join([option.label, *words]), (option.label,))
    elif option.nargs in (None, "?"):
        value = convert_word(words[0], option.kind) if words else option.const
    else:
        value = [convert_word(word, option.kind) for word in words]
    return Given(value, 0, option.label, via=option.default, origin=Origin.LAUNCH)


def _converts(option: Option, words: list[str]) -> bool:
    if option.kind in SWITCHES or option.kind == "action":
        return True
    values = [convert_word(word, option.kind) for word in words]
    return not any(isinstance(v, Unknown) and not v.needs for v in values) and _chosen(option, values)


def _unknown(option: Option) -> Given:
    return Given(Unknown(option.label, (option.label,)), option.default.line, option.label, origin=Origin.DEFAULT)


def _positionals(options: Sequence[Option], scanned: Scanned, open_parser: bool) -> set[int]:
    """The positionals a scan that was not sure of them leaves unknown (an open parser's unlisted options take
    words the reader cannot count)."""
    return {i for i, option in enumerate(options) if option.positional and (scanned.unsure or open_parser)}


def _chosen(option: Option, values: list[object]) -> bool:
    """Each value among the option's ``choices`` (``_check_value``), where it has them."""
    return option.choices is None or all(v in option.choices for v in values if not isinstance(v, Unknown))


def build_option(parser: ArgParser, args: Sequence[Given], keywords: Mapping[str, Given], line: int) -> Option | None:
    """``add_argument(*flags, **keywords)`` as argparse records it (``_get_optional_kwargs``,
    ``_get_positional_kwargs``), or None where its option strings are not known."""
    flags = tuple(a.value for a in args if isinstance(a.value, str))
    if not flags or len(flags) != len(args) or any(not f for f in flags):
        return None
    action = keywords["action"].value if "action" in keywords else "store"
    kind = option_kind(keywords)
    long = next((f for f in flags if f.startswith("--")), flags[0])
    dest_given = keywords.get("dest")
    positional = not flags[0].startswith("-")
    dest = str(dest_given.value) if dest_given is not None and not positional else long.lstrip("-")
    dest = dest if positional or dest_given is not None else dest.replace("-", "_")
    written = keywords.get("default")
    if written is None:
        written = parser.defaults.get(dest, parser.argument_default)
    if written is None:
        written = Given(action == "store_false" if action in ("store_true", "store_false") else None, line, "")
    suppressed = written.value == "==SUPPRESS==" or (
        isinstance(written.value, ModuleRef) and written.value.path.endswith("SUPPRESS")
    )
    default = Given(written.value, line, long, origin=Origin.DEFAULT)
    nargs = 0 if kind in SWITCHES or action in ("count", "append_const") else _value(keywords, "nargs")
    required = bool(_value(keywords, "required")) if not positional else nargs not in ("?", "*")
    const, choices = _value(keywords, "const"), _value(keywords, "choices")
    known_choices = tuple(choices) if isinstance(choices, list | tuple) else None
    return Option(flags, dest, default, kind, nargs, required, const, suppressed, known_choices)


def _value(keywords: Mapping[str, Given], key: str) -> object:
    given = keywords.get(key)
    return given.value if given is not None else None


def option_kind(keywords: Mapping[str, Given]) -> str:
    """How an ``add_argument``'s words convert: its switch, another ``action`` (unknown), or its ``type``."""
    action = keywords.get("action")
    if action is not None and action.value in SWITCHES:
        return str(action.value)
    if action is not None and action.value not in ("store", None):
        return "action"
    kind = keywords.get("type")
    if kind is None:
        return "str"  # argparse keeps the word as text: no type, no conversion
    written = kind.written.rsplit(".", 1)[-1]
    if written in ("int", "float", "str"):
        return written
    if written == "bool":
        return "truthy"
    return "bool" if written in ("str2bool", "strtobool") else "unknown"


#: ``deepspeed.add_config_arguments(parser)`` (deepspeed/__init__.py ``_add_core_arguments``, unchanged from 0.3 to
#: 0.16.5): its options as ``add_argument`` is given them – two switches and two paths, each default False or None.
DEEPSPEED_OPTIONS = (
    ("--deepspeed", "store_true", False),
    ("--deepspeed_config", "store", None),
    ("--deepscale", "store_true", False),
    ("--deepscale_config", "store", None),
)


def add_deepspeed_arguments(parser: ArgParser, line: int) -> ArgParser:
    """``deepspeed.add_config_arguments(parser)``: DeepSpeed's options added to the parser, which it returns."""
    for flag, action, default in DEEPSPEED_OPTIONS:
        keywords = {"action": Given(action, line), "default": Given(default, line)}
        option = build_option(parser, [Given(flag, line)], keywords, line)
        if option is not None:
            parser.options.append(option)
    return parser
