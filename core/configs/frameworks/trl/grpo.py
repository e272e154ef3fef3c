"""TRL's GRPO: its arithmetic and refusals (see the package's docstring for the sources)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from effbatch.core.configs.base.results import Check, Derivation, Rollout, World
from effbatch.core.configs.base.rules import Effect, Fix, Nothing, Rule, Syntax, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.values import Reading, fix, neighbours, whole
from effbatch.core.configs.base.versions import Pins, Since, holds
from effbatch.core.configs.base.words import split_launch
from effbatch.core.configs.base.world import program_flags
from effbatch.core.configs.frameworks._shared import hf_trainer

ID = "trl"
#: Keys only GRPO (and RLOO, read as GRPO's rule) writes; SFT has none of them.
GRPO_KEYS = ("num_generations", "generation_batch_size", "steps_per_generation", "num_iterations", "reward_funcs")
GRPO_FLAGS = tuple(f"--{key}" for key in GRPO_KEYS)
#: Flags that mark the training command of a launch line (TrainingArguments' as well as GRPO's own).
MARKERS = (*GRPO_FLAGS, "--per_device_train_batch_size", "--gradient_accumulation_steps", "--max_completion_length")
DEFAULTS = {
    "per_device_train_batch_size": 8,
    "gradient_accumulation_steps": 1,
    "num_generations": 8,
    "num_iterations": 1,
    "max_completion_length": 512,
}
NOT_DIVISIBLE = "generation_batch_size ({generation}) must be divisible by num_generations ({generations})."
NOT_MULTIPLE = "generation_batch_size ({generation}) must be divisible by the global batch size ({global_batch})."
BOTH = "'generation_batch_size' and 'steps_per_generation' can not be both configured at the same time"
ONE = (
    "{name} requires at least 2 generations per prompt to calculate the advantages. You provided {generations}, which"
    " is less than the minimum required."
)
AUTO_FIND = (
    "auto_find_batch_size is not supported by {name}, because the generation batch must contain full prompt groups of"
    " num_generations completions, and reducing the batch size on out-of-memory breaks this invariant. Set"
    " auto_find_batch_size=False and lower per_device_train_batch_size instead."
)
REMOVED = "Accelerate launch command: error: unrecognized arguments: --max_prompt_length"
SEQUENCE_PARALLEL = (
    "{name}Trainer does not support sequence-dim parallelism (`parallelism_config.cp_size > 1` or"
    " `parallelism_config.sp_size > 1`) yet. {name} builds model inputs after generation inside the trainer, so"
    " Transformers' context-parallel / Ulysses sequence-parallel input sharding cannot be applied to the raw"
    " generation batch. Set both `cp_size=1` and `sp_size=1`, or disable `parallelism_config`."
)

GENERATION = "trl/generation"  # G = b · GPUs · steps_per_generation
STEPS_FROM_G = "trl/steps-from-generation"  # steps_per_generation = G / (b · GPUs)
PROMPTS = "trl/prompts"  # P = G / n
PROMPT_BATCH = "trl/prompt-batch"  # B = b · n · GPUs · a (before 0.15)
STEPS = "trl/optimizer-steps"  # k = steps_per_generation · num_iterations / a


@context
class Divisible:
    generation: int
    generations: int


@context
class Multiple:
    generation: int
    global_batch: int


@context
class Generations:
    generations: int


@context
class Straddle:
    steps_per_generation: int
    iterations: int
    accumulation: int


@context
class Completions:
    per_device: int
    generations: int


@context
class Prompts:
    per_device: int
    generations: int
    world: int
    accumulation: int
    batch: int


@context
class Defaults:
    settings: str


@context
class TensorParallel:
    tp: int
    world: int
    data_parallel: int


NOT_DIVISIBLE_RULE = Rule("trl/generation-batch-divisible", Effect.REFUSED, Divisible)
NOT_MULTIPLE_RULE = Rule("trl/generation-batch-multiple", Effect.REFUSED, Multiple)
BOTH_RULE = Rule("trl/generation-keys-both", Effect.REFUSED, Nothing)
ONE_RULE = Rule("trl/one-generation", Effect.REFUSED, Generations)
AUTO_FIND_RULE = Rule("trl/auto-find-batch-size", Effect.REFUSED, Nothing)
REMOVED_RULE = Rule(
    "trl/max-prompt-length-removed", Effect.REFUSED, Nothing, Since("trl", since="0.28.0", change="#4847")
)
STRADDLE_RULE = Rule("trl/steps-straddle-generations", Effect.PITFALL, Straddle)
COMPLETIONS_RULE = Rule("trl/counts-completions", Effect.NOTE, Completions)
#: TRL #2776 (v0.15.0): before it, per_device_train_batch_size counted prompts, each generated n times.
BEFORE_COMPLETIONS = Since("trl", until="0.15.0", change="#2776")
COUNTS_PROMPTS_RULE = Rule("trl/counts-prompts", Effect.NOTE, Prompts)
COUNTED_PROMPTS_RULE = Rule("trl/counted-prompts-before-0-15", Effect.NOTE, Prompts, BEFORE_COMPLETIONS)
SEQUENCE_PARALLEL_RULE = Rule("trl/sequence-parallel", Effect.REFUSED, Nothing)
TENSOR_PARALLEL_RULE = Rule("trl/tensor-parallel-counted", Effect.PITFALL, TensorParallel)
DEFAULTS_RULE = Rule("trl/defaults", Effect.NOTE, Defaults)
GRPO_RULES = (
    COUNTS_PROMPTS_RULE,
    COUNTED_PROMPTS_RULE,
    NOT_DIVISIBLE_RULE,
    NOT_MULTIPLE_RULE,
    BOTH_RULE,
    ONE_RULE,
    AUTO_FIND_RULE,
    REMOVED_RULE,
    STRADDLE_RULE,
    COMPLETIONS_RULE,
    SEQUENCE_PARALLEL_RULE,
    TENSOR_PARALLEL_RULE,
    DEFAULTS_RULE,
)
#: Settings whose default decides the batch without a word, said when a config leaves them out.
SHOWN_DEFAULTS = ("per_device_train_batch_size", "gradient_accumulation_steps", "num_generations")


@dataclass(frozen=True)
class Flavour:
    """A trainer with GRPO's generation arithmetic: GRPO itself, or RLOO since TRL 0.22 (#3801) – its config class,
    its flags, its defaults, how it names itself in its messages, and what it does to the values before."""

    name: str = "GRPO"
    config: str = "GRPOConfig"
    markers: tuple[str, ...] = MARKERS
    defaults: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULTS))
    #: GRPO's own history (prompts counted before 0.15, max_prompt_length removed in 0.28).
    history: bool = True
    prepare: Callable[[Reading, _Values], None] | None = None


GRPO = Flavour()


def detect_grpo(parsed: Parsed) -> bool:
    """A GRPO config: its own keys in YAML/JSON, or ``trl grpo`` / GRPO's flags on a launch line."""
    if parsed.format in (Format.YAML, Format.JSON):
        return bool(set(GRPO_KEYS) & set(parsed.data))
    if parsed.format is Format.PYTHON:  # not AsyncGRPOConfig (trl.experimental, its own rules)
        return hf_trainer.training_arguments(parsed, frozenset({"GRPOConfig"})) is not None
    if parsed.format is Format.SHELL and parsed.script is not None:
        commands = (command.words for command in parsed.script.commands)
        return any(_trl_grpo(words) for words in commands) or bool(
            set(program_flags(parsed, GRPO_FLAGS)) & set(GRPO_FLAGS)
        )
    return False


def _trl_grpo(words: tuple[str, ...]) -> bool:
    """``trl grpo …``, or a GRPO script (TRL's examples/scripts/grpo_*.py, gspo*.py) run by python or accelerate."""
    if any(word.rsplit("/", 1)[-1] == "trl" and words[i + 1 : i + 2] == ("grpo",) for i, word in enumerate(words)):
        return True
    program = split_launch(words).program or ""
    name = program.rsplit("/", 1)[-1]
    return name.endswith(".py") and ("grpo" in name or "gspo" in name)


def grpo(sources: list[Parsed], world: World | None, pins: Pins, flavour: Flavour = GRPO) -> Check:
    reading = Reading(ID, pins)
    values = _Values(reading, sources, flavour)
    if flavour.prepare is not None:
        flavour.prepare(reading, values)
    b, a = values.number("per_device_train_batch_size"), values.number("gradient_accumulation_steps")
    n, mu = values.number("num_generations"), values.number("num_iterations")
    given_g, given_s = values.optional("generation_batch_size"), values.optional("steps_per_generation")
    completion = values.number("max_completion_length")
    if values.raw("auto_find_batch_size") not in (None, False, "false", "False"):
        reading.add(AUTO_FIND_RULE(Nothing(), message=AUTO_FIND.format(name=flavour.name)))
    if flavour.history and values.raw("max_prompt_length") is not None:
        reading.add(REMOVED_RULE(Nothing(), message=REMOVED))
    world = reading.world(world or values.world())
    if defaulted := [key for key in SHOWN_DEFAULTS if key not in values.given]:
        shown = ", ".join(f"`{key}: {flavour.defaults[key]}`" for key in defaulted)
        reading.add(DEFAULTS_RULE(Defaults(shown)))
    reading.step(Derivation.DP_WORLD, (world.size,), world.size)
    if flavour.history and holds(BEFORE_COMPLETIONS, pins):
        return _counting_prompts(reading, world, (b, n, a), completion)
    if flavour.history:
        reading.add(COUNTED_PROMPTS_RULE(Prompts(b, n, world.size, a, b * n * world.size * a)))
    generation, steps = _generation(reading, values, (b, a, world.size, given_g, given_s))
    _generations(reading, values, generation, n)
    _parallelism(reading, values, world.size)
    reading.add(COMPLETIONS_RULE(Completions(b, n)))
    batch = b * world.size * a
    reading.step(Derivation.B_PRODUCT, (b, world.size, a), batch)
    rollout = _rollout(reading, (generation, steps, n, mu, a), completion)
    return reading.finish(
        world, data_parallel=world.size, micro_batch=b, accumulation=a, global_batch=batch, rl=rollout
    )


def _counting_prompts(reading: Reading, world: World, numbers: tuple[int, int, int], completion: int) -> Check:
    """TRL before 0.15.0 (#2776): per_device_train_batch_size counts prompts, each generated n times in its own
    micro-step: b · n completions a device, B = b · n · GPUs · a, a generation every micro-step (k = 1 / a)."""
    b, n, a = numbers
    batch = b * n * world.size * a
    reading.add(COUNTS_PROMPTS_RULE(Prompts(b, n, world.size, a, batch)))
    reading.step(PROMPT_BATCH, (b, n, world.size, a), batch)
    rollout = Rollout(b * world.size, n, 1 / a, response_len=completion)
    return reading.finish(
        world, data_parallel=world.size, micro_batch=b * n, accumulation=a, global_batch=batch, rl=rollout
    )


def _generations(reading: Reading, values: _Values, generation: int | None, n: int) -> None:
    """G divisible by ``num_generations`` (grpo_config.py:1110), and at least 2 of them (1116)."""
    if n < 2:
        message = ONE.format(name=values.flavour.name, generations=n)
        reading.add(ONE_RULE(Generations(n), message=message, fix=values.fix("num_generations", 2)))
    if generation is not None and generation % n:
        below = max((g for g in range(2, n) if generation % g == 0), default=None)
        above = next(g for g in range(n, generation + 1) if generation % g == 0) if generation >= n else None
        message = NOT_DIVISIBLE.format(generation=generation, generations=n)
        fixed = values.fix("num_generations", below, above)
        reading.add(NOT_DIVISIBLE_RULE(Divisible(generation, n), message=message, fix=fixed))


def _parallelism(reading: Reading, values: _Values, world: int) -> None:
    """accelerate's ParallelismConfig: CP or SP refused (grpo_config.py:1049-1055); TP counted in the world.

    GRPOConfig takes ``num_processes = self.world_size``, all processes with the TP ranks, while the Trainer's
    "Total train batch size" divides by TP (transformers trainer.py:2602-2618): both are said, as not run on GPUs.
    """
    cp, sp, tp = (values.optional(key) or 1 for key in ("cp_size", "sp_size", "tp_size"))
    if cp > 1 or sp > 1:
        reading.add(SEQUENCE_PARALLEL_RULE(Nothing(), message=SEQUENCE_PARALLEL.format(name=values.flavour.name)))
    if tp > 1:
        reading.add(TENSOR_PARALLEL_RULE(TensorParallel(tp, world, world // tp)))


def _generation(
    reading: Reading, values: _Values, numbers: tuple[int, int, int, int | None, int | None]
) -> tuple[int | None, int | None]:
    """G and steps_per_generation by ``__post_init__``'s four cases; (None, None) where it refuses."""
    b, a, world, given_g, given_s = numbers
    per_step = b * world
    if given_g is not None and given_s is not None:
        reading.add(BOTH_RULE(Nothing(), message=BOTH))
        return None, None
    if given_g is not None:
        if given_g % per_step:
            message = NOT_MULTIPLE.format(generation=given_g, global_batch=per_step)
            fixed = values.fix("generation_batch_size", *neighbours(given_g, per_step))
            reading.add(NOT_MULTIPLE_RULE(Multiple(given_g, per_step), message=message, fix=fixed))
            return None, None
        reading.step(STEPS_FROM_G, (given_g, b, world), given_g // per_step)
        return given_g, given_g // per_step
    steps = a if given_s is None else given_s
    reading.step(GENERATION, (b, world, steps), per_step * steps)
    return per_step * steps, steps


def _rollout(reading: Reading, numbers: tuple[int | None, int | None, int, int, int], completion: int) -> Rollout:
    """P = G / n prompts, n completions each, k = steps_per_generation · num_iterations / a optimizer steps."""
    generation, steps, n, iterations, accumulation = numbers
    if generation is None or steps is None or generation % n:
        return Rollout(None, n, None, response_len=completion)
    reading.step(PROMPTS, (generation, n), generation // n)
    optimizer_steps = steps * iterations / accumulation
    if (steps * iterations) % accumulation:
        reading.add(STRADDLE_RULE(Straddle(steps, iterations, accumulation)))
    else:
        reading.step(STEPS, (steps, iterations, accumulation), steps * iterations // accumulation)
    return Rollout(generation // n, n, optimizer_steps, response_len=completion)


class _Values:
    """GRPOConfig's arguments from a YAML/JSON config and from a launch line's flags (the flags win, as in
    ``TrlParser``), each recorded with where it was written when it is used; TRL's default where absent."""

    def __init__(self, reading: Reading, sources: list[Parsed], flavour: Flavour = GRPO) -> None:
        self.reading = reading
        self.flavour = flavour
        self.given: dict[str, tuple[Parsed, Any, str]] = {}
        self.noted: set[str] = set()
        #: Where a key not written yet would go: the config file, else the launch line.
        self.main = next((p for p in sources if p.format is not Format.SHELL), sources[0] if sources else None)
        for parsed in sorted(sources, key=lambda p: p.format is Format.SHELL):
            if parsed.format in (Format.YAML, Format.JSON):
                for key, value in parsed.data.items():
                    self.given[key] = (parsed, value, where_key(parsed, key))
            elif parsed.format is Format.PYTHON:
                for kind in (flavour.config, "ParallelismConfig"):
                    instance = hf_trainer.training_arguments(parsed, frozenset({kind}))
                    for key, given in instance.fields.items() if instance is not None else ():
                        self.given[key] = (parsed, given.value, f"{parsed.source.name}:{given.line}")
            elif parsed.format is Format.SHELL:
                for flag, words in program_flags(parsed, flavour.markers).items():
                    value = words[0] if len(words) == 1 else " ".join(words) if words else True
                    self.given[flag.removeprefix("--").replace("-", "_")] = (parsed, value, parsed.where(flag))

    def raw(self, key: str) -> Any:
        if key not in self.given:
            return None
        _, value, where = self.given[key]
        if key not in self.noted:
            self.noted.add(key)
            self.reading.note(key, value, where)
        return value

    def number(self, key: str, default: int | None = None) -> int:
        value = self.optional(key)
        if value is not None:
            return value
        return self.flavour.defaults[key] if default is None else default

    def optional(self, key: str) -> int | None:
        value = self.raw(key)
        return None if value is None else whole(value, key, self.given[key][2])

    def world(self) -> World | None:
        """``num_processes`` in the config or after ``trl grpo``: ``trl grpo`` hands it to ``accelerate launch``."""
        if "num_processes" not in self.given:
            return None
        _, value, where = self.given["num_processes"]
        return World(whole(value, "num_processes", where), where)

    def fix(self, key: str, *candidates: int | None) -> Fix | None:
        """The fix written as the config names ``key``: a YAML key, or a flag where only a launch line is given."""
        parsed = self.given[key][0] if key in self.given else self.main
        if parsed is not None and parsed.format is Format.SHELL:
            return fix(parsed, f"--{key}", *candidates)
        given = tuple(v for v in candidates if v is not None and v >= 1)
        return Fix(key, given, Syntax.YAML) if given else None


def where_key(parsed: Parsed, key: str) -> str:
    """``name:line`` of the line that sets ``key`` (``key:`` or ``"key":``), not a comment naming it."""
    pattern = re.compile(rf"""^\s*["']?{re.escape(key)}["']?\s*:""", re.MULTILINE)
    found = pattern.search(parsed.source.text)
    if found is None:
        return parsed.where(key)
    return f"{parsed.source.name}:{parsed.source.text.count(chr(10), 0, found.start()) + 1}"
