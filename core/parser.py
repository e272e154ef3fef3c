"""From the text after ``/effbatch`` to a validated request.

Grammar::

    command    := runs | laws | scaling | setup [("vs" | "gegen") (setup | run)]
    scaling    := setup with "skalierung" | "scaling" anywhere: the data-parallel table of that setup
    laws       := "params=" N "budget=" D ["L=" L]     only these: the batch-size laws' question
    runs       := ("läufe" | "laeufe" | "runs") [filter]   the published runs, optionally filtered
    run        := name ["lr=" value]                   a published run (``llama2-7b``) instead of a setup
    plan       := ("plane" | "plan") setup            as the first word: the fastest layouts that fit, B held
    setup      := word*
    word       := help | private | positional | named
    help       := "hilfe" | "help" | "?"           anywhere: the whole answer is the help
    private    := "privat" | "private"              anywhere: answer only to the caller
    positional := number                            b d a [L], before any named value
    named      := key "=" value                     any order, after the positionals

Keys are case-insensitive, except ``B`` (target global batch) and ``T`` (target
tokens per step), which differ from ``b`` (micro-batch). After ``vs`` every key not
repeated is taken from the first setup. Every problem found is reported at once.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeVar

from pydantic import ValidationError

from effbatch.core.arguments import FRAMEWORK_KEYS, Argument
from effbatch.core.errors import InputError, Problem, ProblemKind, Side
from effbatch.core.model import PlanRequest
from effbatch.core.numbers import (
    BYTE_SUFFIXES,
    GERMAN_WORD_SPELLINGS,
    SEQ_LEN_SUFFIXES,
    TOKEN_SUFFIXES,
    NumberError,
    parse_positive_decimal,
    parse_whole_number,
)
from effbatch.core.rules import memory_question, missing_factors
from effbatch.core.runs import PublishedRun, filter_runs, find_run, run_names
from effbatch.core.scaling_command import SCALING_WORDS, ScalingCommand, scaling_command
from effbatch.core.training_keys import TRAINING_KEY_ALIASES, TrainingKey, names_a_model, read_value, training_key
from effbatch.core.training_request import TrainingRequest, training_parts

HELP_WORDS = frozenset({"hilfe", "help", "?", "-h", "--help"})
#: After a help word: the full table of keys and number formats instead of the short help.
KEYS_WORDS = frozenset({"schlüssel", "schluessel", "keys", "formate"})
PRIVATE_WORDS = frozenset({"privat", "private"})
COMPARE_WORDS = frozenset({"vs", "vs.", "versus", "gegen"})
#: As the first word: list the published runs (``läufe llama`` filters them).
RUNS_WORDS = frozenset({"läufe", "laeufe", "runs"})
#: As the first word: plan the layout, b, d and a chosen (``plane llama3.1-70b gpus=256 gpu=h100 B=512 L=8k``).
PLAN_WORDS = frozenset({"plane", "plan"})
#: Standalone signs people put between factors ("8 × 64 × 4"); they carry no value.
SEPARATOR_WORDS = frozenset({"x", "×", "*", "·"})

POSITIONAL_ORDER = (
    Argument.MICRO_BATCH,
    Argument.DATA_PARALLEL,
    Argument.ACCUMULATION,
    Argument.SEQ_LEN,
)

#: Keys matched exactly: capital B and T are targets, lower-case b is the micro-batch.
CASE_SENSITIVE_KEYS = MappingProxyType({"B": Argument.TARGET_BATCH, "T": Argument.TARGET_TOKENS})

#: Every other accepted key (case-folded) and the argument it names; the help lists them.
KEY_ALIASES = MappingProxyType(
    {
        **dict.fromkeys(("b", "micro", "micro_batch", "microbatch", "mbs"), Argument.MICRO_BATCH),
        **dict.fromkeys(
            ("d", "dp", "geraete", "geräte", "devices", "replicas", "data_parallel"), Argument.DATA_PARALLEL
        ),
        **dict.fromkeys(("a", "akku", "gas", "ga", "accum", "accumulation", "grad_accum"), Argument.ACCUMULATION),
        **dict.fromkeys(("l", "seq", "len", "seq_len", "seqlen", "laenge", "länge"), Argument.SEQ_LEN),
        **dict.fromkeys(("gpus", "gpu", "world", "world_size", "ngpus"), Argument.GPUS),
        **dict.fromkeys(("tp", "tensor"), Argument.TP),
        **dict.fromkeys(("pp", "pipeline"), Argument.PP),
        **dict.fromkeys(("cp", "context"), Argument.CP),
        **dict.fromkeys(("sp", "ulysses"), Argument.SP),
        **dict.fromkeys(("gbs", "global_batch"), Argument.TARGET_BATCH),
        **dict.fromkeys(("tokens", "tokens_per_step"), Argument.TARGET_TOKENS),
        **dict.fromkeys(("budget", "total_tokens"), Argument.BUDGET),
        **dict.fromkeys(("act", "activation", "aktivierung"), Argument.ACTIVATION),
        **dict.fromkeys(("lr", "learning_rate", "lernrate"), Argument.LR),
        **FRAMEWORK_KEYS,
        **dict.fromkeys(
            ("params", "parameter", "parameters", "n_params", "modellgröße", "modellgroesse"), Argument.PARAMS
        ),
        **dict.fromkeys(("prompts", "prompt", "p_rollout"), Argument.PROMPTS),
        **dict.fromkeys(("n", "samples", "antworten", "n_samples", "num_generations"), Argument.SAMPLES),
        **dict.fromkeys(("mini", "mini_batch", "minibatch", "ppo_mini_batch_size"), Argument.MINI),
        **dict.fromkeys(("epochs", "epochen", "ppo_epochs"), Argument.EPOCHS),
    }
)

#: The same keys case-folded as they are looked up (``modellgröße`` folds to ``modellgrösse``).
_FOLDED_KEYS = MappingProxyType({key.casefold(): argument for key, argument in KEY_ALIASES.items()})

#: How each argument's value is read; everything else is a count (k = ×1.000).
_VALUE_PARSERS: Mapping[Argument, Callable[[str], Any]] = MappingProxyType(
    {
        Argument.SEQ_LEN: lambda text: parse_whole_number(text, SEQ_LEN_SUFFIXES),
        Argument.TARGET_TOKENS: lambda text: parse_whole_number(text, TOKEN_SUFFIXES),
        Argument.BUDGET: lambda text: parse_whole_number(text, TOKEN_SUFFIXES),
        Argument.PARAMS: lambda text: parse_whole_number(text, TOKEN_SUFFIXES),
        Argument.ACTIVATION: lambda text: parse_whole_number(text, BYTE_SUFFIXES, unit_required=True),
        Argument.LR: lambda text: parse_positive_decimal(text, Argument.LR.upper_bound),
    }
)

#: Giving one of these after ``vs`` replaces the inherited other: d and GPUs, B and T.
_REPLACES = MappingProxyType(
    {
        Argument.DATA_PARALLEL: Argument.GPUS,
        Argument.GPUS: Argument.DATA_PARALLEL,
        Argument.TARGET_BATCH: Argument.TARGET_TOKENS,
        Argument.TARGET_TOKENS: Argument.TARGET_BATCH,
    }
)

#: What a canonical command writes (what-if buttons carry these): every request field, in table order.
_CANONICAL_FIELDS = tuple(
    (argument.value, argument.key, "B" if argument is Argument.ACTIVATION else "")
    for argument in Argument
    if argument is not Argument.LR
)

#: Longer command text is refused before any parsing: no planning question needs more.
MAX_COMMAND_TEXT = 2000
_V = TypeVar("_V")


@dataclass(frozen=True)
class HelpRequest:
    """The user asked for the help text; ``keys`` for the table of keys and formats.

    ``topic`` is the word right after the help word when it is a word (``hilfe budget``), case-folded;
    which topics exist is the presentation's business.
    """

    keys: bool = False
    topic: str | None = None


@dataclass(frozen=True)
class PlanCommand:
    """Compute one setup; ``private`` asks for an answer only to the caller; ``planner``: search its layouts."""

    request: PlanRequest
    private: bool = False
    planner: bool = False


@dataclass(frozen=True)
class CompareCommand:
    """Compare two setups, optionally scaling a learning rate ``lr``."""

    before: PlanRequest
    after: PlanRequest
    lr: float | None = None
    private: bool = False


@dataclass(frozen=True)
class RunsRequest:
    """List the published runs, those matching ``query`` where given."""

    query: str | None = None
    private: bool = False


@dataclass(frozen=True)
class GuidanceCommand:
    """Only N and D (and L): what batch the laws suggest for a model of ``params`` trained on ``budget`` tokens."""

    params: int
    budget: int
    seq_len: int | None = None
    private: bool = False


@dataclass(frozen=True)
class RunComparisonCommand:
    """Compare a setup with a published run's (last) batch, optionally scaling a learning rate ``lr``."""

    before: PlanRequest
    run: PublishedRun
    lr: float | None = None
    private: bool = False


ParsedCommand = (
    HelpRequest | PlanCommand | CompareCommand | RunsRequest | RunComparisonCommand | GuidanceCommand | ScalingCommand
)

#: The arguments of the laws' question; a command giving nothing else asks it (``params=7B budget=2T``).
GUIDANCE_ARGUMENTS = frozenset({Argument.PARAMS, Argument.BUDGET, Argument.SEQ_LEN})


def parse_command(text: str) -> ParsedCommand:
    """Parse the command text; raise ``InputError`` listing every problem found."""
    if len(text) > MAX_COMMAND_TEXT:
        raise InputError([Problem(ProblemKind.TEXT_TOO_LONG, ctx={"length": len(text), "max": MAX_COMMAND_TEXT})])
    words = _words(text)
    if any(word.casefold() in HELP_WORDS | SCALING_WORDS for word in words):
        return _help_or_scaling(words)
    private = any(word.casefold() in PRIVATE_WORDS for word in words)
    if words and (meant := _mistyped_word(words[0])):
        raise InputError([Problem(ProblemKind.UNKNOWN_WORD, text=words[0], ctx={"meant": meant})])
    if words and words[0].casefold() in RUNS_WORDS:
        query = " ".join(w for w in words[1:] if w.casefold() not in PRIVATE_WORDS)
        return RunsRequest(query=query or None, private=private)
    planner = bool(words) and words[0].casefold() in PLAN_WORDS  # b, d and a are the plan's to choose: none missing
    sides = _split_sides(words[int(planner) :])
    if len(sides) == 2 and (compared := _run_comparison(sides, private)) is not None:
        return compared
    labels: tuple[Side | None, ...] = (Side.BEFORE, Side.AFTER) if len(sides) > 1 else (None,)
    collectors = [_Collector(side, label) for side, label in zip(sides, labels, strict=False)]
    if len(collectors) == 1 and (laws := _guidance(collectors[0], private)) is not None:
        return laws
    problems = [p for c in collectors for p in c.problems]
    if len(sides) > 2:
        problems.append(Problem(ProblemKind.TOO_MANY_COMPARISONS))
    if len(sides) > 1 and any(not side for side in sides):
        problems.append(Problem(ProblemKind.EMPTY_SIDE))
    lr_values = [c.values.pop(Argument.LR) for c in collectors if Argument.LR in c.values]
    if lr_values and len(sides) == 1:
        problems.append(Problem(ProblemKind.LR_WITHOUT_COMPARISON, argument=Argument.LR))
    stray = any(p.kind is ProblemKind.POSITIONAL_AFTER_NAMED for p in problems)  # the cause of anything missing
    validated = _validated(collectors, stray or planner)
    requests = [r for r in validated if isinstance(r, PlanRequest)]
    problems += [p for r in validated if not isinstance(r, PlanRequest) for p in r]
    if problems:
        raise InputError(problems)
    if len(requests) == 1:
        return PlanCommand(request=requests[0], private=private, planner=planner)
    before, after = requests
    return CompareCommand(before=before, after=after, lr=lr_values[0] if lr_values else None, private=private)


def question(text: str) -> type[ParsedCommand] | None:
    """Which question ``text`` asks – the kind of command it parses to (the laws', a setup, a comparison …); None
    where it cannot be answered as it stands (a value missing or wrong)."""
    try:
        return type(parse_command(text))
    except InputError:
        return None


def _validated(collectors: list[_Collector], stray: bool) -> list[PlanRequest | list[Problem]]:
    """Each side's request; after ``vs`` what the second side leaves out is inherited from the first."""
    first = collectors[0]
    validated = [_request(first.values, first.raw, first.given, first.side, stray, first.training)]
    if len(collectors) > 1:
        second = collectors[1]
        values, raw = _inherit(first.values, second.values), _inherit(first.raw, second.raw)
        given = {a for a in first.given if _REPLACES.get(a) not in second.given} | second.given
        training = _Training(
            first.training.values | second.training.values, first.training.tried | second.training.tried
        )
        validated.append(_request(values, raw, given, second.side, stray, training))
    return validated


def _run_comparison(sides: list[list[str]], private: bool) -> RunComparisonCommand | None:
    """``<setup> vs llama2-7b [lr=…]``: None when the second side names no run (then it is a setup)."""
    names = [word for word in sides[1] if _names_a_run(word)]
    if not names:
        return None
    problems: list[Problem] = []
    run = find_run(names[0])
    if run is None:
        close = difflib.get_close_matches(names[0].casefold(), run_names(), n=3, cutoff=0.5)
        close += [r.name for r in filter_runs(names[0]) if r.name not in close][: max(0, 3 - len(close))]
        problems.append(Problem(ProblemKind.UNKNOWN_RUN, text=names[0], ctx={"suggestions": close}, side=Side.AFTER))
    rest = _Collector([w for w in sides[1] if w != names[0]], Side.AFTER)
    extra = [a for a in rest.raw if a is not Argument.LR]
    if extra or len(names) > 1:
        problems.append(Problem(ProblemKind.RUN_WITH_VALUES, text=names[-1], side=Side.AFTER))
    first = _Collector(sides[0], Side.BEFORE)
    lr_values = [c.values.pop(Argument.LR) for c in (first, rest) if Argument.LR in c.values]
    stray = any(p.kind is ProblemKind.POSITIONAL_AFTER_NAMED for p in first.problems)
    validated = _request(first.values, first.raw, first.given, Side.BEFORE, stray, first.training)
    problems = first.problems + rest.problems + problems
    if not isinstance(validated, PlanRequest):
        problems += validated
    if problems or run is None or not isinstance(validated, PlanRequest):
        raise InputError(problems)
    return RunComparisonCommand(before=validated, run=run, lr=lr_values[0] if lr_values else None, private=private)


def _help_or_scaling(words: list[str]) -> HelpRequest | ScalingCommand:
    """A help word anywhere asks for the help (``hilfe skalierung`` too); else ``<setup> skalierung`` the table: the
    setup without the word, parsed as a plain one – one setup, or refused."""
    if any(word.casefold() in HELP_WORDS for word in words):
        return HelpRequest(keys=any(word.casefold() in KEYS_WORDS for word in words), topic=_help_topic(words))
    parsed = parse_command(" ".join(word for word in words if word.casefold() not in SCALING_WORDS))
    private = any(word.casefold() in PRIVATE_WORDS for word in words)
    return scaling_command(parsed.request if isinstance(parsed, PlanCommand) else None, private)


def _guidance(collector: _Collector, private: bool) -> GuidanceCommand | None:
    """The budget with N (and L) alone: the laws' question; None when anything of a setup or a memory or time key
    was given, or no budget (``params=7B`` alone is a memory question)."""
    given = collector.given
    if Argument.BUDGET not in given or not given <= GUIDANCE_ARGUMENTS or collector.training.tried:
        return None
    problems = list(collector.problems)
    if Argument.PARAMS not in given:
        problems.append(Problem(ProblemKind.GUIDANCE_INCOMPLETE, ctx={"missing": [Argument.PARAMS]}))
    if problems:
        raise InputError(problems)
    values = collector.values
    return GuidanceCommand(values[Argument.PARAMS], values[Argument.BUDGET], values.get(Argument.SEQ_LEN), private)


def _names_a_run(word: str) -> bool:
    """A word after ``vs`` meant as a run: a run's name, a family (``llama``), or letters with digits (``llama9``)."""
    if "=" in word or not word[:1].isalpha():
        return False
    return find_run(word) is not None or bool(filter_runs(word)) or any(c.isdigit() for c in word)


def command_text(request: PlanRequest, lr: float | None = None) -> str:
    """The canonical command for ``request``: named keys and plain integers, read back by ``parse_command``."""
    parts = [f"{key}={value}{unit}" for field, key, unit in _CANONICAL_FIELDS if (value := getattr(request, field))]
    parts += training_parts(request.training)
    if lr is not None:
        parts.append(f"lr={lr!r}")
    return " ".join(parts)


def comparison_text(before: PlanRequest, after: PlanRequest, lr: float | None) -> str:
    """The canonical command comparing two requests; the second is written out in full."""
    return f"{command_text(before)} vs {command_text(after, lr)}"


def parse_fields(fields: Mapping[Argument, str]) -> PlanRequest:
    """Values typed into a form, one text per argument; ``InputError`` exactly as for a typed command."""
    collector = _Collector([], None, preset={a: text.strip() for a, text in fields.items() if text.strip()})
    validated = _request(collector.values, collector.raw, collector.given, None, stray=False)
    if isinstance(validated, PlanRequest) and not collector.problems:
        return validated
    raise InputError([*collector.problems, *([] if isinstance(validated, PlanRequest) else validated)])


def _words(text: str) -> list[str]:
    """The words of ``text``, with ``key = value`` joined to ``key=value``; linear in the length of the text."""
    joined: list[str] = []
    for word in unicodedata.normalize("NFC", text).split():
        # `b = 8` is b=8, but `b= d=64` is an empty b and d=64, not b="d=64"
        if joined and (word.startswith("=") or (joined[-1].endswith("=") and "=" not in word)):
            joined[-1] += word
        else:
            joined.append(word)
    words = [word.rstrip(",") for word in _number_words(joined)]
    return [word for word in words if word and word not in SEPARATOR_WORDS]


def _number_words(words: list[str]) -> list[str]:
    """``budget=2 Billionen``, ``2 Bio.``, ``2Bio.`` → ``budget=2Bio``: a German number word joins its number."""
    joined: list[str] = []
    for word in words:
        bare = word.rstrip(",")
        if joined and joined[-1][-1:].isdigit() and (suffix := GERMAN_WORD_SPELLINGS.get(bare.casefold())):
            joined[-1] += suffix + word[len(bare) :]
            continue
        head = word.rstrip(".,")
        if head != word.rstrip(",") and head[-3:].casefold() in {"mio", "mrd", "bio"} and head[-4:-3].isdigit():
            word = head + word[len(word.rstrip(",")) :]  # "2Bio." → "2Bio"
        joined.append(word)
    return joined


#: First words a mistyped word is compared with (``laufe`` on a keyboard without umlauts), and what is shown.
_COMMAND_WORDS = MappingProxyType({"läufe": "läufe", "laeufe": "läufe", "hilfe": "hilfe", "help": "hilfe"})


def _mistyped_word(word: str) -> str | None:
    """``laufe`` → ``läufe``: a first word of letters close to a command word, and not one itself; else None."""
    folded = word.casefold()
    if not folded.isalpha() or folded in RUNS_WORDS | HELP_WORDS | PRIVATE_WORDS | COMPARE_WORDS | PLAN_WORDS:
        return None
    close = difflib.get_close_matches(folded, _COMMAND_WORDS, n=1, cutoff=0.75)
    return _COMMAND_WORDS[close[0]] if close else None


def _help_topic(words: list[str]) -> str | None:
    """The word after the first help word, if it names something rather than a value (``hilfe budget``)."""
    folded = [word.casefold() for word in words]
    after = next((i + 1 for i, word in enumerate(folded) if word in HELP_WORDS), len(folded))
    if after >= len(folded):
        return None
    topic = folded[after]
    if topic in HELP_WORDS | PRIVATE_WORDS or "=" in topic or any(c.isdigit() for c in topic):
        return None
    return topic


def _split_sides(words: list[str]) -> list[list[str]]:
    sides: list[list[str]] = [[]]
    for word in words:
        if word.casefold() in COMPARE_WORDS:
            sides.append([])
        elif word.casefold() not in PRIVATE_WORDS:
            sides[-1].append(word)
    return sides


def _inherit(first: dict[Argument, _V], second: dict[Argument, _V]) -> dict[Argument, _V]:
    """The second setup: its own values, the rest from the first (d and GPUs, B and T replace each other)."""
    kept = {a: v for a, v in first.items() if _REPLACES.get(a) not in second}
    return kept | second


def _request(
    values: dict[Argument, Any],
    raw: dict[Argument, str],
    given: set[Argument],
    side: Side | None,
    stray: bool,
    training: _Training | None = None,
) -> PlanRequest | list[Problem]:
    """Validate ``values`` into a request, or the problems found (each marked with ``side``).

    ``given`` holds every argument the user tried to set: a bad or empty value still counts,
    so its own problem is not followed by a second one saying it is missing. With memory or time keys
    (``training``) the factors of B may be missing: then it is a memory question.
    """
    found = []
    asked = training.request if training else None
    memory = memory_question(given, asked) or bool(training and training.tried)
    if not stray and not memory and (missing := missing_factors(given)) is not None:
        found.append(missing)
    try:
        data = {a.value: v for a, v in values.items()} | ({"training": asked} if asked else {})
        request = PlanRequest.model_validate(data)
        if request.training is not None:  # the memory and time model loads only for a question that asks it
            from effbatch.core.training import training_problems

            found.extend(training_problems(request))
    except ValidationError as error:
        found.extend(_bound_problems(error, raw))
    if found:
        return [p.on_side(side) if side else p for p in found]
    return request


def _bound_problems(error: ValidationError, raw: dict[Argument, str]) -> list[Problem]:
    """Translate pydantic's machine-readable errors into problems quoting the typed text."""
    problems = []
    for detail in error.errors():
        argument = Argument(str(detail["loc"][0]))
        kind = ProblemKind.TOO_LARGE if detail["type"] == "less_than_equal" else ProblemKind.NOT_A_NUMBER
        problems.append(Problem(kind, argument=argument, text=raw.get(argument), ctx=dict(detail.get("ctx", {}))))
    return problems


#: Unknown keys that mean a batch without saying which: suggested as b= (per device) or B= (the target).
_BATCH_WORDS = frozenset({"batch", "batch_size", "batchsize", "bs"})


@dataclass(frozen=True)
class _Training:
    """The memory and time keys of one setup: values read, and every key tried (a bad value counts too)."""

    values: dict[TrainingKey, Any]
    tried: frozenset[TrainingKey]

    @property
    def request(self) -> TrainingRequest | None:
        return TrainingRequest(**{key.value: value for key, value in self.values.items()}) if self.values else None


class _Collector:
    """Assigns the words of one setup to arguments, reads their values, gathers problems."""

    def __init__(self, words: list[str], side: Side | None, preset: Mapping[Argument, str] | None = None) -> None:
        self.side = side
        self.raw: dict[Argument, str] = dict(preset or {})
        #: How each argument was given: its position among the bare numbers (1, 2 …) or the word ("d=64").
        self.origins: dict[Argument, int | str] = {}
        self.values: dict[Argument, Any] = {}
        self._empty: set[Argument] = set()
        self.problems: list[Problem] = []
        self._positionals = 0
        self._seen_named = False
        self._stray: list[str] = []
        self._training = _TrainingCollector(self)
        for word in words:
            self._add(word)
        if self._stray:
            self._problem(ProblemKind.POSITIONAL_AFTER_NAMED, text=self._stray[0], ctx={"texts": self._stray})
        for argument, text in self.raw.items():
            self._read(argument, text)
        self.training = self._training.read()

    @property
    def given(self) -> set[Argument]:
        """Every argument the words tried to set, whether its value was readable or not."""
        return set(self.raw) | self._empty

    def _problem(self, kind: ProblemKind, **fields: Any) -> None:
        self._add_problem(Problem(kind, **fields))

    def _add_problem(self, problem: Problem) -> None:
        self.problems.append(problem.on_side(self.side) if self.side else problem)

    def _add(self, word: str) -> None:
        if names_a_model(word):  # ``llama3.1-8b`` alone: the model, anywhere
            self._training.assign(TrainingKey.MODEL, word, word)
        elif "=" in word:
            self._seen_named = True
            self._add_named(word)
        elif self._seen_named:
            self._stray.append(word)
        elif self._positionals >= len(POSITIONAL_ORDER):
            self._problem(ProblemKind.TOO_MANY_VALUES, text=word)
        else:
            self._positionals += 1
            self._assign(POSITIONAL_ORDER[self._positionals - 1], word, self._positionals)

    def _add_named(self, word: str) -> None:
        key, _, value = word.partition("=")
        if (setting := training_key(key, value)) is not None:
            self._training.add(setting, value, word)
            return
        argument = CASE_SENSITIVE_KEYS.get(key) or _FOLDED_KEYS.get(key.casefold().replace("-", "_"))
        if argument is None:
            close = difflib.get_close_matches(key.casefold(), [*KEY_ALIASES, *TRAINING_KEY_ALIASES], n=3, cutoff=0.6)
            if key.upper() in CASE_SENSITIVE_KEYS:
                close.insert(0, key.upper())
            if key.casefold() in _BATCH_WORDS:  # the micro-batch or the target, not the RL mini-batch
                close = ["b", "B"]
            self._problem(ProblemKind.UNKNOWN_KEY, text=word, ctx={"key": key, "suggestions": close})
        elif not value:
            self._empty.add(argument)
            self._problem(ProblemKind.EMPTY_VALUE, argument=argument, text=word)
        else:
            self._assign(argument, value, word)

    def _assign(self, argument: Argument, text: str, origin: int | str) -> None:
        if argument in self.raw:
            first, first_origin = self.raw[argument], self.origins.get(argument, self.raw[argument])
            ctx = {"first": first, "first_origin": first_origin, "second_origin": origin}
            self._problem(ProblemKind.DUPLICATE, argument=argument, text=text, ctx=ctx)
        else:
            self.raw[argument] = text
            self.origins[argument] = origin

    def _read(self, argument: Argument, text: str) -> None:
        parse = _VALUE_PARSERS.get(argument, parse_whole_number)
        try:
            self.values[argument] = parse(text)
        except NumberError as error:
            self._add_problem(error.for_argument(argument, text))


class _TrainingCollector:
    """The memory and time keys of one setup, apart from the batch keys: raw texts, then values."""

    def __init__(self, owner: _Collector) -> None:
        self._owner = owner
        self.raw: dict[TrainingKey, str] = {}
        self.origins: dict[TrainingKey, str] = {}
        self.tried: set[TrainingKey] = set()

    def add(self, key: TrainingKey, value: str, word: str) -> None:
        self.tried.add(key)
        if not value:
            self._owner._add_problem(Problem(ProblemKind.EMPTY_VALUE, text=word, setting=key.value))
        else:
            self.assign(key, value, word)

    def assign(self, key: TrainingKey, value: str, word: str) -> None:
        self.tried.add(key)
        if key in self.raw:
            ctx = {"first": self.raw[key], "first_origin": self.origins[key], "second_origin": word}
            self._owner._add_problem(Problem(ProblemKind.DUPLICATE, text=value, ctx=ctx, setting=key.value))
            return
        self.raw[key], self.origins[key] = value, word

    def read(self) -> _Training:
        values: dict[TrainingKey, Any] = {}
        for key, text in self.raw.items():
            try:
                values[key] = read_value(key, text)
            except NumberError as error:
                problem = Problem(error.kind, text=text, ctx=dict(error.ctx), setting=key.value)
                self._owner._add_problem(problem)
        return _Training(values, frozenset(self.tried))
