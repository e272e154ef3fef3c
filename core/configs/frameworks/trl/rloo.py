"""TRL's RLOO by release (huggingface/trl; numbers by TRL's own code, see tests/test_frameworks_trl_rloo.py).

- Before 0.22.0 (#3801, the on-policy RLOOTrainer; rloo_trainer.py at v0.21.0 lines 128-151): b · a ·
  ``num_mini_batches`` m completions a device per rollout (``local_batch_size``), refused unless a multiple of
  ``rloo_k`` ("`local_batch_size` must be a multiple of rloo_k, inexact division: …"); P = local / rloo_k · world
  prompts, n = ``rloo_k`` (2); each mini-batch of b · a a device is one optimizer step (``accelerator.accumulate``):
  B = b · a · world, k = m · ``num_ppo_epochs`` (4) steps a rollout.
- From 0.22.0 RLOOConfig has GRPO's generation batch (rloo_config.py ``__post_init__``; ``num_generations`` 2);
  until 0.25.0 it maps the old names onto it (``rloo_k`` → ``num_generations``, ``num_mini_batches`` →
  ``steps_per_generation``, ``num_ppo_epochs`` → ``num_iterations``, v0.22.2 rloo_config.py:584-623); #4301 (0.25.0)
  removed them: ``RLOOConfig(rloo_k=…)`` is a TypeError, a flag or key an unknown argument.
"""

from __future__ import annotations

from dataclasses import replace

from effbatch.core.configs.base.results import Check, Rollout, World
from effbatch.core.configs.base.rules import Effect, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.values import Reading
from effbatch.core.configs.base.versions import Pins, Since, holds
from effbatch.core.configs.base.words import split_launch
from effbatch.core.configs.base.world import program_flags
from effbatch.core.configs.frameworks._shared import hf_trainer
from effbatch.core.configs.frameworks.trl.grpo import DEFAULTS, ID, MARKERS, Flavour, _Values, grpo

#: The names RLOOConfig had before 0.22 and the fields 0.22 to 0.24 mapped them onto.
OLD_NAMES = {
    "rloo_k": "num_generations",
    "num_mini_batches": "steps_per_generation",
    "num_ppo_epochs": "num_iterations",
}
OLD_DEFAULTS = {"rloo_k": 2, "num_mini_batches": 1, "num_ppo_epochs": 4, "response_length": 53}
RLOO_FLAGS = tuple(f"--{name}" for name in (*OLD_NAMES, "response_length"))
BEFORE_0_22 = Since("trl", until="0.22.0", change="#3801")
REMOVED_0_25 = Since("trl", since="0.25.0", change="#4301")
INEXACT = "`local_batch_size` must be a multiple of rloo_k, inexact division: {local} / {k} = {quotient}"
UNEXPECTED = "RLOOConfig.__init__() got an unexpected keyword argument '{key}'"
UNUSED = "Some specified arguments are not used by the HfArgumentParser: ['--{key}', '{value}']"
#: ``trl rloo --config`` hands a key no dataclass has to ``accelerate launch`` (trl/cli/commands/training.py:61-71).
UNRECOGNIZED = "Accelerate launch command: error: unrecognized arguments: --{key}"


@context
class OldRloo:
    prompts: int
    samples: int
    batch: int
    steps: int


@context
class Inexact:
    local: int
    samples: int


@context
class Renamed:
    key: str
    field: str


OLD_RULE = Rule("trl/rloo-before-0-22", Effect.NOTE, OldRloo, BEFORE_0_22)
OLD_NUMBERS_RULE = Rule("trl/rloo-counted-before-0-22", Effect.NOTE, OldRloo, BEFORE_0_22)
INEXACT_RULE = Rule("trl/rloo-local-batch-multiple", Effect.REFUSED, Inexact, BEFORE_0_22)
REMOVED_RULE = Rule("trl/rloo-old-name-removed", Effect.REFUSED, Renamed, REMOVED_0_25)
RLOO_RULES = (OLD_RULE, OLD_NUMBERS_RULE, INEXACT_RULE, REMOVED_RULE)


def detect_rloo(parsed: Parsed) -> bool:
    """An RLOO config: ``rloo_k`` in YAML/JSON, ``RLOOConfig(…)`` in Python, ``trl rloo``, an rloo*.py script or
    ``--rloo_k`` on a launch line."""
    if parsed.format in (Format.YAML, Format.JSON):
        return "rloo_k" in parsed.data
    if parsed.format is Format.PYTHON:
        return hf_trainer.training_arguments(parsed, frozenset({"RLOOConfig"})) is not None
    if parsed.format is Format.SHELL and parsed.script is not None:
        for command in parsed.script.commands:
            words = command.words
            if any(w.rsplit("/", 1)[-1] == "trl" and words[i + 1 : i + 2] == ("rloo",) for i, w in enumerate(words)):
                return True
            if (split_launch(words).program or "").rsplit("/", 1)[-1].startswith("rloo"):
                return True
        return "--rloo_k" in program_flags(parsed, RLOO_FLAGS)
    return False


def _renamed(reading: Reading, values: _Values) -> None:
    """0.22 to 0.24: the old names set the new fields (with a warning); from 0.25 they are refused."""
    for old, new in OLD_NAMES.items():
        if old not in values.given:
            continue
        parsed, value, _ = values.given[old]
        message = {Format.PYTHON: UNEXPECTED, Format.SHELL: UNUSED}.get(parsed.format, UNRECOGNIZED)
        reading.add(REMOVED_RULE(Renamed(old, new), message=message.format(key=old, value=value)))
        values.given.setdefault(new, values.given[old])


RLOO = Flavour(
    name="RLOO",
    config="RLOOConfig",
    markers=(*MARKERS, *RLOO_FLAGS),
    defaults=DEFAULTS | {"num_generations": 2},
    history=False,
    prepare=_renamed,
)


def rloo(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    """The release's arithmetic: before 0.22 the on-policy trainer's, else GRPO's generation batch (the old names
    mapped or refused); without a pin, a config with the old names hears the old numbers beside."""
    if holds(BEFORE_0_22, pins):
        return _before_0_22(sources, world, pins)

    def prepare(reading: Reading, values: _Values) -> None:
        _renamed(reading, values)
        if holds(BEFORE_0_22, pins) is None and set(OLD_NAMES) & set(values.given):
            given = world or values.world()
            old = _before_0_22(sources, given, pins) if given is not None else None
            if old is not None and old.rl is not None and old.global_batch is not None:
                steps = int(old.rl.optimizer_steps or 0)
                reading.add(
                    OLD_NUMBERS_RULE(OldRloo(old.rl.prompts or 0, old.rl.samples or 0, old.global_batch, steps))
                )

    return grpo(sources, world, pins, replace(RLOO, prepare=prepare))


def _before_0_22(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    """RLOOTrainer.__init__ before #3801: local batch b · a · m, prompts local / rloo_k a device, one optimizer step
    per mini-batch of b · a, m · num_ppo_epochs steps a rollout."""
    reading = Reading(ID, pins)
    values = _Values(reading, sources, RLOO)
    b, a = values.number("per_device_train_batch_size"), values.number("gradient_accumulation_steps")
    k, m, epochs, response = (values.number(key, OLD_DEFAULTS[key]) for key in OLD_DEFAULTS)
    world = reading.world(world or values.world())
    local = b * a * m
    if local % k:
        message = INEXACT.format(local=local, k=k, quotient=local / k)
        reading.add(INEXACT_RULE(Inexact(local, k), message=message, fix=values.fix("rloo_k", *_divisors(local, k))))
        return reading.finish(world, data_parallel=world.size, rl=Rollout(None, k, None, response_len=response))
    batch, steps = b * a * world.size, m * epochs
    reading.add(OLD_RULE(OldRloo(local // k * world.size, k, batch, steps)))
    rollout = Rollout(local // k * world.size, k, steps, response_len=response)
    return reading.finish(
        world, data_parallel=world.size, micro_batch=b, accumulation=a, global_batch=batch, rl=rollout
    )


def _divisors(local: int, k: int) -> tuple[int | None, int | None]:
    below = max((d for d in range(2, k) if local % d == 0), default=None)
    above = next((d for d in range(k + 1, local + 1) if local % d == 0), None)
    return below, above
