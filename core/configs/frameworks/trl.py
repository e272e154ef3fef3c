"""TRL: GRPO's generation batch (huggingface/trl f2cd57710ae345ea6428ae95363267fcf38a3dc8, run as trl 1.16.0).

``GRPOConfig.__post_init__`` (trl/trainer/grpo_config.py:1075-1120):

- ``per_device_train_batch_size`` counts **completions** (since PR #2776, v0.15.0), b; ``gradient_accumulation_steps``
  a; ``num_processes = self.world_size`` (all processes: GRPOConfig divides by no model-parallel degree), d.
- neither ``generation_batch_size`` nor ``steps_per_generation`` set: ``steps_per_generation = a`` and
  ``generation_batch_size = b · world · steps_per_generation``; only ``generation_batch_size`` set: it must be a
  multiple of b · world (refused otherwise), ``steps_per_generation = G // (b · world)``; only
  ``steps_per_generation`` set: ``G = b · world · steps_per_generation``; both set: refused.
- G must be divisible by ``num_generations`` n (refused otherwise), and n ≥ 2 (refused).
- ``auto_find_batch_size`` is refused (1068-1073); ``max_prompt_length`` was removed in v0.28.0 (PR #4847):
  ``trl grpo --config`` passes unknown keys to ``accelerate launch``, whose parser refuses them.

The trainer (grpo_trainer.py:1264-1270, 1571-1579) samples G / n prompts per generation batch (P), n completions
each; it generates every ``steps_per_generation · num_iterations`` micro-steps and the Trainer steps the optimizer
every a micro-steps, so one generation batch feeds k = steps_per_generation · num_iterations / a optimizer steps
(not checked to be whole: a fraction means optimizer steps straddle generation batches). B = b · d · a completions.
``max_completion_length`` (512) bounds completions; GRPOConfig bounds no prompt, so tokens per step are open.

Defaults: per_device_train_batch_size 8, gradient_accumulation_steps 1 (transformers TrainingArguments),
num_generations 8, num_iterations 1, max_completion_length 512 (grpo_config.py:474, 679, 488).

GRPO's keys (``num_generations`` …) tell it from an SFT config.

SFT (``SFTConfig`` = TrainingArguments + ``max_length``, ``packing``; trl/trainer/sft_config.py): the Trainer's rule
(``_shared.hf_trainer``), B = b · a · world / (TP · CP · SP). ``trl sft --config x.yaml`` hands every key that
is no field of its dataclasses to ``accelerate launch`` (trl/cli/commands/training.py:61-71): ``num_processes``,
``num_machines``, ``accelerate_config`` (a file, or a name of trl/accelerate_configs/: ``single_gpu`` one process,
the others 8; trl/cli/accelerate_config.py:19-47). L = ``max_length`` (1024, sft_config.py:205-206; null: none).
``packing`` (bfd) switches padding_free on: a micro-batch is one row of b bins of at most max_length tokens.
SFTTrainer refuses ``padding_free`` without packing while max_length is set (sft_trainer.py:1244-1249);
TrlParser refuses an ``env`` that is no mapping (trl/scripts/utils.py:332-335).
"""

from __future__ import annotations

import re
from typing import Any

from core.configs.base import (
    PINS,
    Check,
    Derivation,
    Effect,
    Fix,
    Format,
    Nothing,
    Parsed,
    Reading,
    Rollout,
    Rule,
    Since,
    Syntax,
    World,
    context,
    fix,
    holds,
    neighbours,
    program_flags,
    split_launch,
    whole,
)
from core.configs.frameworks._shared import accelerate_launch, hf_trainer

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
    "GRPO requires at least 2 generations per prompt to calculate the advantages. You provided {generations}, which"
    " is less than the minimum required."
)
AUTO_FIND = (
    "auto_find_batch_size is not supported by GRPO, because the generation batch must contain full prompt groups of"
    " num_generations completions, and reducing the batch size on out-of-memory breaks this invariant. Set"
    " auto_find_batch_size=False and lower per_device_train_batch_size instead."
)
REMOVED = "Accelerate launch command: error: unrecognized arguments: --max_prompt_length"
SEQUENCE_PARALLEL = (
    "GRPOTrainer does not support sequence-dim parallelism (`parallelism_config.cp_size > 1` or"
    " `parallelism_config.sp_size > 1`) yet. GRPO builds model inputs after generation inside the trainer, so"
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


def detect(parsed: Parsed) -> bool:
    """A GRPO or an SFT config of TRL."""
    return _detect_grpo(parsed) or _detect_sft(parsed)


def check(sources: list[Parsed], world: World | None) -> Check:
    """GRPO's rule where GRPO's keys or command are there, else SFT's (the Trainer's)."""
    if any(_detect_grpo(parsed) for parsed in sources):
        return _grpo(sources, world)
    return _sft(sources, world)


def _detect_grpo(parsed: Parsed) -> bool:
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


def _grpo(sources: list[Parsed], world: World | None) -> Check:
    reading = Reading(ID)
    values = _Values(reading, sources)
    b, a = values.number("per_device_train_batch_size"), values.number("gradient_accumulation_steps")
    n, mu = values.number("num_generations"), values.number("num_iterations")
    given_g, given_s = values.optional("generation_batch_size"), values.optional("steps_per_generation")
    completion = values.number("max_completion_length")
    for flag, rule in (("auto_find_batch_size", AUTO_FIND_RULE), ("max_prompt_length", REMOVED_RULE)):
        if values.raw(flag) not in (None, False, "false", "False"):
            reading.add(rule(Nothing(), message=AUTO_FIND if rule is AUTO_FIND_RULE else REMOVED))
    world = reading.world(world or values.world())
    if defaulted := [key for key in SHOWN_DEFAULTS if key not in values.given]:
        reading.add(DEFAULTS_RULE(Defaults(", ".join(f"`{key}: {DEFAULTS[key]}`" for key in defaulted))))
    reading.step(Derivation.DP_WORLD, (world.size,), world.size)
    if holds(BEFORE_COMPLETIONS, PINS.get()):
        return _counting_prompts(reading, world, (b, n, a), completion)
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
        reading.add(ONE_RULE(Generations(n), message=ONE.format(generations=n), fix=values.fix("num_generations", 2)))
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
        reading.add(SEQUENCE_PARALLEL_RULE(Nothing(), message=SEQUENCE_PARALLEL))
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

    def __init__(self, reading: Reading, sources: list[Parsed]) -> None:
        self.reading = reading
        self.given: dict[str, tuple[Parsed, Any, str]] = {}
        self.noted: set[str] = set()
        #: Where a key not written yet would go: the config file, else the launch line.
        self.main = next((p for p in sources if p.format is not Format.SHELL), sources[0] if sources else None)
        for parsed in sorted(sources, key=lambda p: p.format is Format.SHELL):
            if parsed.format in (Format.YAML, Format.JSON):
                for key, value in parsed.data.items():
                    self.given[key] = (parsed, value, _where(parsed, key))
            elif parsed.format is Format.PYTHON:
                for kind in ("GRPOConfig", "ParallelismConfig"):
                    instance = hf_trainer.training_arguments(parsed, frozenset({kind}))
                    for key, given in instance.fields.items() if instance is not None else ():
                        self.given[key] = (parsed, given.value, f"{parsed.source.name}:{given.line}")
            elif parsed.format is Format.SHELL:
                for flag, words in program_flags(parsed, MARKERS).items():
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

    def number(self, key: str) -> int:
        value = self.optional(key)
        return DEFAULTS[key] if value is None else value

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


def _where(parsed: Parsed, key: str) -> str:
    """``name:line`` of the line that sets ``key`` (``key:`` or ``"key":``), not a comment naming it."""
    pattern = re.compile(rf"""^\s*["']?{re.escape(key)}["']?\s*:""", re.MULTILINE)
    found = pattern.search(parsed.source.text)
    if found is None:
        return parsed.where(key)
    return f"{parsed.source.name}:{parsed.source.text.count(chr(10), 0, found.start()) + 1}"


# --- SFT ---------------------------------------------------------------------------------------------------------

#: Keys only SFTConfig and TRL's scripts write (a plain TrainingArguments YAML has none of them).
SFT_KEYS = {
    "packing_strategy",
    "padding_free",
    "eval_packing",
    "dataset_text_field",
    "completion_only_loss",
    "assistant_only_loss",
    "dataset_kwargs",
    "model_init_kwargs",
    "chat_template_path",
    "activation_offloading",
    "accelerate_config",
    "dataset_mixture",
    "dataset_train_split",
}
#: Keys of the Hugging Face example scripts (run_clm …), which write dataset_name and model_name_or_path too.
HF_SCRIPT_KEYS = {"dataset_config_name", "block_size", "max_seq_length", "train_file"}
SFT_MARKERS = ("--config", "--per_device_train_batch_size", "--max_length", "--packing", "--accelerate_config")
#: trl/accelerate_configs/*.yaml: processes each starts (single_gpu is distributed_type NO: one process).
NAMED_CONFIGS = {"single_gpu": 1, "multi_gpu": 8, "fsdp1": 8, "fsdp2": 8, "zero1": 8, "zero2": 8, "zero3": 8}
SFT_LENGTH = 1024
PADDING_FREE = (
    "When `padding_free=True` without packing, `max_length` is not enforced. Either enable packing (e.g., "
    "`packing=True, packing_strategy='bfd'`), provide already truncated inputs, or set `max_length=None`."
)
ENV = "`env` field should be a dict in the YAML file."
#: The batch keys SFTConfig (TrainingArguments) has; another ``*batch_size*`` key is a typo ``trl sft`` hands to
#: ``accelerate launch``, whose parser refuses it (run: fixtures/05_typo_key.yaml).
BATCH_FIELDS = {"per_device_train_batch_size", "per_device_eval_batch_size", "auto_find_batch_size"}
UNRECOGNIZED = "Accelerate launch command: error: unrecognized arguments: --{key}"
#: Keys ``trl sft`` hands to ``accelerate launch``; a script run another way has no field for them.
LAUNCH_KEYS = ("accelerate_config", "num_processes", "num_machines", "config_file", "machine_rank")
SCRIPT_UNKNOWN = (
    "Unknown arguments from config file: {remaining}. Please remove them, add them to the dataclass, or set "
    "`fail_with_unknown_args=False`."
)
UNKNOWN_CONFIG = (
    "Accelerate config {name} is neither a file nor a valid config in the `trl` package. Please provide a valid "
    "config name or a path to a config file."
)


@context
class Named:
    name: str
    processes: int


@context
class Length:
    max_length: int


@context
class ConfigName:
    name: str


@context
class Unknown:
    key: str


@context
class Keys:
    keys: str


SFT_PADDING_FREE = Rule("trl/sft-padding-free-without-packing", Effect.REFUSED, Nothing)
SFT_ENV = Rule("trl/sft-env-not-a-mapping", Effect.REFUSED, Nothing)
SFT_UNKNOWN_CONFIG = Rule("trl/sft-accelerate-config-unknown", Effect.REFUSED, ConfigName)
SFT_NAMED_CONFIG = Rule("trl/sft-accelerate-config", Effect.NOTE, Named)
SFT_PACKING = Rule("trl/sft-packing", Effect.NOTE, Length)
SFT_DEFAULT_LENGTH = Rule("trl/sft-max-length-default", Effect.NOTE, Length)
SFT_UNKNOWN_KEY = Rule("trl/sft-unknown-batch-key", Effect.REFUSED, Unknown)
SFT_SCRIPT_UNKNOWN = Rule("trl/sft-unknown-keys-in-script", Effect.REFUSED, Keys)
SFT_RULES = (
    SFT_PADDING_FREE,
    SFT_ENV,
    SFT_UNKNOWN_CONFIG,
    SFT_NAMED_CONFIG,
    SFT_PACKING,
    SFT_DEFAULT_LENGTH,
    SFT_UNKNOWN_KEY,
    SFT_SCRIPT_UNKNOWN,
)
RULES: tuple[Rule[Any], ...] = (*GRPO_RULES, *SFT_RULES)


def _detect_sft(parsed: Parsed) -> bool:
    """An SFT YAML by SFTConfig's own keys (or TRL's script keys without the HF examples'), or ``trl sft`` /
    one of TRL's sft*.py scripts on a launch line."""
    if parsed.format in (Format.YAML, Format.JSON):
        keys = set(parsed.data)
        script = {"dataset_name", "model_name_or_path"} <= keys and not HF_SCRIPT_KEYS & keys
        return bool(SFT_KEYS & keys) or script
    if parsed.format is Format.SHELL and parsed.script is not None:
        return any(_trl_sft(command.words) for command in parsed.script.commands)
    if parsed.format is Format.PYTHON:
        return hf_trainer.training_arguments(parsed, SFT_CLASSES) is not None
    return False


def _trl_sft(words: tuple[str, ...]) -> bool:
    if any(word.rsplit("/", 1)[-1] == "trl" and words[i + 1 : i + 2] == ("sft",) for i, word in enumerate(words)):
        return True
    name = (split_launch(words).program or "").rsplit("/", 1)[-1]
    return name.endswith(".py") and name.startswith("sft")


def _sft(sources: list[Parsed], world: World | None) -> Check:
    """The Trainer's batch with the SFT YAML's arguments; the world from the keys ``trl sft`` hands to accelerate."""
    reading = Reading(ID)
    config = next((p for p in sources if p.format in (Format.YAML, Format.JSON) and _detect_sft(p)), None)
    values = _sft_values(sources, config)
    if "env" in values and not isinstance(values["env"][0], dict):
        reading.add(SFT_ENV(Nothing(), message=ENV))
    by_script = any(_sft_script(p) for p in sources)
    if by_script and config is not None:
        _unknown_in_script(reading, config)
    for key in sorted(k for k in values if "batch_size" in k and k not in BATCH_FIELDS and not by_script):
        fixed = Fix("per_device_train_batch_size", (whole(values[key][0], key, values[key][1]),), Syntax.YAML)
        reading.add(SFT_UNKNOWN_KEY(Unknown(key), message=UNRECOGNIZED.format(key=key), fix=fixed))
    world = world or (None if by_script else _sft_world(reading, values))
    if any(finding.effect is Effect.REFUSED for finding in reading.findings):
        return reading.finish(world)
    batch = hf_trainer.trainer_batch(reading, sources, world, config)
    seq_len = _max_length(reading, values)
    packing = _truthy(values.get("packing"))
    if _truthy(values.get("padding_free")) and not packing and seq_len is not None:
        reading.add(SFT_PADDING_FREE(Nothing(), message=PADDING_FREE))
    elif packing and seq_len is not None:
        reading.add(SFT_PACKING(Length(seq_len)))
    return batch.finish(reading, seq_len)


def _sft_script(parsed: Parsed) -> bool:
    """A launch line that runs an SFT script (``accelerate launch … sft.py``, ``python sft.py``), not ``trl sft``."""
    commands = parsed.script.commands if parsed.format is Format.SHELL and parsed.script is not None else []
    return any(_trl_sft(c.words) and not any(w.rsplit("/", 1)[-1] == "trl" for w in c.words) for c in commands)


def _unknown_in_script(reading: Reading, config: Parsed) -> None:
    """TrlParser (``fail_with_unknown_args``) refuses what ``trl sft`` would hand to accelerate: its launcher keys
    and misspelt batch keys in the YAML (trl/scripts/utils.py:353-357, ``set_defaults_with_config``)."""
    unknown = [k for k in config.data if k in LAUNCH_KEYS or ("batch_size" in k and k not in BATCH_FIELDS)]
    if unknown:
        remaining = [item for key in unknown for item in (f"--{key}", str(config.data[key]))]
        message = SCRIPT_UNKNOWN.format(remaining=remaining)
        reading.add(SFT_SCRIPT_UNKNOWN(Keys(", ".join(unknown)), message=message))


def _truthy(value: tuple[Any, str] | None) -> bool:
    return value is not None and value[0] in (True, "true", "True")


def _sft_values(sources: list[Parsed], config: Parsed | None) -> dict[str, tuple[Any, str]]:
    """SFT's arguments as written: the YAML's, then the flags of ``trl sft`` (which win), then the ``SFTConfig(…)``
    a script builds, each with where."""
    values = {str(key): (value, _where(config, str(key))) for key, value in config.data.items()} if config else {}
    for parsed in sources:
        if parsed.format is Format.SHELL:
            for flag, words in program_flags(parsed, SFT_MARKERS).items():
                value = words[0] if len(words) == 1 else " ".join(words) if words else True
                values[flag.removeprefix("--").replace("-", "_")] = (value, parsed.where(flag))
        elif (instance := hf_trainer.training_arguments(parsed, SFT_CLASSES)) is not None:
            name = parsed.source.name
            values |= {key: (given.value, given.where(name)) for key, given in instance.fields.items()}
    return values


#: TRL's SFT arguments as a script builds them.
SFT_CLASSES = frozenset({"SFTConfig"})


def _sft_world(reading: Reading, values: dict[str, tuple[Any, str]]) -> World | None:
    """``num_processes``/``num_machines`` or ``accelerate_config`` as ``trl sft`` forwards them to accelerate."""
    if "num_processes" in values:
        processes, where = values["num_processes"]
        reading.note("num_processes", processes, where)
        machines = (
            whole(values["num_machines"][0], "num_machines", values["num_machines"][1])
            if "num_machines" in values
            else 1
        )
        return accelerate_launch.processes_world(
            reading, whole(processes, "num_processes", where), machines, None, where
        )
    if "accelerate_config" not in values:
        return None
    name, where = str(values["accelerate_config"][0]), values["accelerate_config"][1]
    reading.note("accelerate_config", name, where)
    if name in NAMED_CONFIGS:
        reading.add(SFT_NAMED_CONFIG(Named(name, NAMED_CONFIGS[name])))
        return World(NAMED_CONFIGS[name], f"accelerate_config {name}, {where}")
    if not re.search(r"[/.]", name):  # a path is read where the accelerate config is given beside it
        reading.add(SFT_UNKNOWN_CONFIG(ConfigName(name), message=UNKNOWN_CONFIG.format(name=name)))
    return None


def _max_length(reading: Reading, values: dict[str, tuple[Any, str]]) -> int | None:
    """``max_length``: SFTConfig's 1024 where absent, none where null."""
    if "max_length" not in values:
        reading.add(SFT_DEFAULT_LENGTH(Length(SFT_LENGTH)))
        return SFT_LENGTH
    value, where = values["max_length"]
    reading.note("max_length", value, where)
    return None if value in (None, "None", "null") else whole(value, "max_length", where)
