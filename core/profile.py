"""Channel profiles: ``/effbatch cluster gpus=64 tp=8 gpu=h100`` remembers a channel's cluster. Pure.

A profile is a few ``key=value`` texts. The keys are one table (``PROFILE_KEYS``): the calculator's world
and parallelism keys (GPUs, TP, PP, CP, SP, by any of their aliases), nodes and GPUs per node (which
multiply to the GPUs), and the GPU model (``gpu=h100``, one the calculator knows). Values are stored as
texts, so that a key added here later needs no new storage, only a row in the table.

``with_profile`` adds a profile's values to a later command as defaults: whatever the command says
itself wins, and a command that gives d (the data-parallel size) or the GPUs describes its own cluster,
so the profile's world stays out of it. A profile only fills in what a command leaves open, it never changes
which question is answered: the laws' question (``params=7B budget=2T L=4096``) takes nothing from it. A config
check (``prüfe``) takes the profile's GPUs as its world size when the command names none.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from effbatch.core.arguments import MODEL_PARALLEL, Argument
from effbatch.core.check_command import PROFILE_GPUS, check_request, is_check
from effbatch.core.memory.gpus import find_gpu, gpu_names
from effbatch.core.numbers import NumberError, parse_whole_number
from effbatch.core.parser import (
    COMPARE_WORDS,
    HELP_WORDS,
    KEY_ALIASES,
    MAX_COMMAND_TEXT,
    RUNS_WORDS,
    GuidanceCommand,
    _Collector,
    _split_sides,
    question,
)
from effbatch.core.parser import _words as command_words
from effbatch.core.training_keys import TRAINING_KEY_ALIASES, TrainingKey

#: The first word of a profile command.
PROFILE_WORDS = frozenset({"cluster", "kanalprofil"})
#: After it: remove the channel's profile.
DELETE_WORDS = frozenset({"löschen", "loeschen", "entfernen", "delete"})
#: The calculator's arguments a profile may hold, under their canonical keys, in the order they are shown.
WORLD = (Argument.GPUS, *MODEL_PARALLEL)
NODES, PER_NODE, GPU_MODEL = "nodes", "gpus_per_node", "gpu"
#: Every key a profile may hold and how it is spelled when typed (case-insensitive). ``gpu`` is the GPU model here
#: (the calculator reads ``gpu=h100`` so too); the GPU count is ``gpus``.
PROFILE_KEYS: Mapping[str, str] = {
    **{alias: argument.key for alias, argument in KEY_ALIASES.items() if argument in WORLD and alias != "gpu"},
    **dict.fromkeys(("nodes", "nnodes", "knoten"), NODES),
    **dict.fromkeys(("gpus_per_node", "nproc_per_node", "per_node", "gpus_je_knoten"), PER_NODE),
    **dict.fromkeys(("gpu", "gpu_typ", "gpu_type", "beschleuniger", "accelerator"), GPU_MODEL),
}
#: The order keys are stored and shown in.
KEY_ORDER = (Argument.GPUS.key, NODES, PER_NODE, *(argument.key for argument in MODEL_PARALLEL), GPU_MODEL)
#: The keys ``with_profile`` adds to a calculator command (nodes and GPUs per node as their product, ``gpus``).
APPLIED = frozenset({*(argument.key for argument in WORLD), GPU_MODEL})
#: How a command names its own GPU model (besides ``gpu=`` with a name rather than a count).
_MODEL_KEYS = frozenset(key for key, meant in TRAINING_KEY_ALIASES.items() if meant is TrainingKey.GPU)
_BOUNDS = {argument.key: argument.upper_bound for argument in WORLD} | {NODES: 2**20, PER_NODE: 2**10}


class ProfileProblemKind(StrEnum):
    """What is wrong with a profile command; the German wording lives in ``bot.texts.profiles``."""

    UNKNOWN_KEY = "unknown_key"
    NOT_A_SETTING = "not_a_setting"
    NOT_A_COUNT = "not_a_count"
    NOT_A_MODEL = "not_a_model"
    DUPLICATE = "duplicate"
    NODES_WITHOUT_PER_NODE = "nodes_without_per_node"
    GPUS_CONFLICT = "gpus_conflict"
    NOT_DIVISIBLE = "not_divisible"


@dataclass(frozen=True)
class ProfileProblem:
    """One problem, with the text it is about and what the message needs (``ctx``)."""

    kind: ProfileProblemKind
    text: str = ""
    ctx: Mapping[str, object] | None = None


class ProfileError(ValueError):
    """A profile command that cannot be stored; ``problems`` lists every reason."""

    def __init__(self, problems: list[ProfileProblem]) -> None:
        self.problems = problems
        super().__init__(", ".join(problem.kind for problem in problems))


@dataclass(frozen=True)
class ShowProfile:
    """``/effbatch cluster``: what the channel's profile holds."""


@dataclass(frozen=True)
class DeleteProfile:
    """``/effbatch cluster löschen``."""


@dataclass(frozen=True)
class SetProfile:
    """``/effbatch cluster gpus=64 tp=8``: the settings under their canonical keys, values as typed."""

    settings: tuple[tuple[str, str], ...]


ProfileCommand = ShowProfile | DeleteProfile | SetProfile


def is_profile_command(text: str) -> bool:
    words = text.split(None, 1)
    return bool(words) and words[0].casefold() in PROFILE_WORDS


def parse_profile_command(text: str) -> ProfileCommand:
    """The profile command ``text`` (which ``is_profile_command``); ``ProfileError`` for settings not to store."""
    words = text.split()[1:]
    if not words:
        return ShowProfile()
    if len(words) == 1 and words[0].casefold() in DELETE_WORDS:
        return DeleteProfile()
    settings: dict[str, str] = {}
    problems: list[ProfileProblem] = []
    for word in command_words(" ".join(words)):
        problems += _add_setting(settings, word)
    problems += _consistency(settings)
    if problems:
        raise ProfileError(problems)
    return SetProfile(tuple((key, settings[key]) for key in KEY_ORDER if key in settings))


def _add_setting(settings: dict[str, str], word: str) -> list[ProfileProblem]:
    typed_key, has_value, value = word.partition("=")
    if not has_value or not value:
        return [ProfileProblem(ProfileProblemKind.NOT_A_SETTING, word)]
    key = PROFILE_KEYS.get(typed_key.casefold().replace("-", "_"))
    if key is None:
        return [ProfileProblem(ProfileProblemKind.UNKNOWN_KEY, word, {"key": typed_key})]
    if key in settings:
        return [ProfileProblem(ProfileProblemKind.DUPLICATE, word, {"key": key, "first": settings[key]})]
    if key == GPU_MODEL:
        gpu = find_gpu(value)
        if gpu is None:
            return [ProfileProblem(ProfileProblemKind.NOT_A_MODEL, word, {"allowed": ", ".join(gpu_names())})]
        settings[key] = gpu.name
        return []
    try:
        count = parse_whole_number(value)
    except NumberError:
        count = 0
    if not 1 <= count <= _BOUNDS[key]:
        return [ProfileProblem(ProfileProblemKind.NOT_A_COUNT, word, {"key": key, "max": _BOUNDS[key]})]
    settings[key] = str(count)
    return []


def _consistency(settings: Mapping[str, str]) -> list[ProfileProblem]:
    """Nodes come with GPUs per node; their product agrees with ``gpus``; the degrees divide the GPUs."""
    if (NODES in settings) != (PER_NODE in settings):
        return [ProfileProblem(ProfileProblemKind.NODES_WITHOUT_PER_NODE)]
    gpus = world_size(settings)
    nodes = int(settings[NODES]) * int(settings[PER_NODE]) if NODES in settings else gpus
    if nodes != gpus:
        ctx = {
            "gpus": int(settings[Argument.GPUS.key]),
            "nodes": int(settings[NODES]),
            "per_node": int(settings[PER_NODE]),
        }
        return [ProfileProblem(ProfileProblemKind.GPUS_CONFLICT, ctx=ctx)]
    split = math.prod(int(settings.get(argument.key, "1")) for argument in MODEL_PARALLEL)
    if gpus is not None and gpus % split:
        return [ProfileProblem(ProfileProblemKind.NOT_DIVISIBLE, ctx={"gpus": gpus, "split": split})]
    return []


def world_size(settings: Mapping[str, str]) -> int | None:
    """The profile's GPUs: ``gpus``, or nodes × GPUs per node."""
    if Argument.GPUS.key in settings:
        return int(settings[Argument.GPUS.key])
    if NODES in settings and PER_NODE in settings:
        return int(settings[NODES]) * int(settings[PER_NODE])
    return None


@dataclass(frozen=True)
class WithProfile:
    """A command with a profile's defaults added, and which (key, value) pairs they were; none: unchanged."""

    text: str
    applied: tuple[tuple[str, str], ...] = ()


def with_profile(text: str, settings: Mapping[str, str]) -> WithProfile:
    """``text`` with the profile's values added where the command gives none (see the module's docstring)."""
    if is_check(text):
        return _check_with_profile(text, settings)
    added = _calculator_additions(text, settings)
    if not added:
        return WithProfile(text)
    tokens = text.split()
    end = next((i for i, token in enumerate(tokens) if token.casefold() in COMPARE_WORDS), len(tokens))
    merged = " ".join([*tokens[:end], *(f"{key}={value}" for key, value in added), *tokens[end:]])
    if len(merged) > MAX_COMMAND_TEXT or not _same_question(text, merged):
        return WithProfile(text)
    return WithProfile(merged, added)


def _same_question(text: str, merged: str) -> bool:
    """Whether the profile only fills in what ``text`` leaves open: the same question (or, where ``text`` cannot be
    answered as it stands, any) – never the laws' question turned into a setup's memory."""
    asked = question(text)
    return asked is None or question(merged) is asked


@lru_cache(maxsize=1024)
def may_take_a_profile(text: str) -> bool:
    """Whether some channel profile could add a value to ``text`` – else no profile need be looked up (the plain
    ``8 64 4 4096`` names d: no profile changes it). A check may always take one (its GPUs as the world size).
    Cached: every plain command asks it, and parsing a text costs more than the rest of its answer."""
    return is_check(text) or bool(_calculator_additions(text, _EVERY_SETTING))


#: A profile that sets every key a calculator command may take from it.
_EVERY_SETTING = {**dict.fromkeys(APPLIED, "1"), GPU_MODEL: "h100"}


def _calculator_additions(text: str, settings: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """The profile's (key, value) pairs a calculator command takes: none for help, runs, profile commands and a
    command that names d or the GPUs; a GPU model only where the command names none."""
    words = command_words(text)
    folded = {word.casefold() for word in words}
    if not words or folded & HELP_WORDS or words[0].casefold() in RUNS_WORDS | PROFILE_WORDS:
        return ()
    given = _Collector(_split_sides(words)[0], None).given
    if given & {Argument.DATA_PARALLEL, Argument.GPUS} or question(text) is GuidanceCommand:
        return ()  # its own cluster; or the laws' question, which has no cluster to fill in
    defaults = dict(_calculator_defaults(settings))
    if _names_a_gpu_model(_split_sides(words)[0]):
        defaults.pop(GPU_MODEL, None)
    return tuple((key, value) for key, value in defaults.items() if key == GPU_MODEL or _argument(key) not in given)


def _calculator_defaults(settings: Mapping[str, str]) -> list[tuple[str, str]]:
    """The profile's values a calculator command may take; nodes × GPUs per node as ``gpus``."""
    pairs = [(key, settings[key]) for key in KEY_ORDER if key in settings and key in APPLIED]
    if Argument.GPUS.key not in settings and (gpus := world_size(settings)) is not None:
        pairs.insert(0, (Argument.GPUS.key, str(gpus)))
    return pairs


def _names_a_gpu_model(words: list[str]) -> bool:
    """``gpu=h100``, ``gpu_type=…``, ``accelerator=…``: the command's own GPU model (``gpu=64`` is a count)."""
    for word in words:
        key, _, value = word.casefold().partition("=")
        if key in _MODEL_KEYS or (key == GPU_MODEL and value and not value[0].isdigit()):
            return True
    return False


def _argument(key: str) -> Argument:
    return next(argument for argument in WORLD if argument.key == key)


def _check_with_profile(text: str, settings: Mapping[str, str]) -> WithProfile:
    """``prüfe …`` without a world size: the profile's GPUs as ``gpus=`` right after the check word."""
    gpus = world_size(settings)
    if gpus is None or check_request(text).world is not None:
        return WithProfile(text)
    stripped = text.lstrip()
    first = stripped.split(None, 1)[0]
    merged = f"{first} {PROFILE_GPUS}={gpus}{stripped[len(first) :]}"
    return WithProfile(merged, ((Argument.GPUS.key, str(gpus)),))
