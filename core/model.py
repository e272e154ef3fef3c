"""The validated input of a calculation and its results (bounds: ``core.arguments``)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from effbatch.core.arguments import FACTORS, Argument
from effbatch.core.training_request import TrainingRequest


def _bounded(argument: Argument) -> Any:
    return Field(ge=1, le=argument.upper_bound)


MicroBatch = Annotated[int, _bounded(Argument.MICRO_BATCH)]
DataParallel = Annotated[int, _bounded(Argument.DATA_PARALLEL)]
Accumulation = Annotated[int, _bounded(Argument.ACCUMULATION)]
SeqLen = Annotated[int, _bounded(Argument.SEQ_LEN)]
Gpus = Annotated[int, _bounded(Argument.GPUS)]
Degree = Annotated[int, _bounded(Argument.TP)]
TargetBatch = Annotated[int, _bounded(Argument.TARGET_BATCH)]
TargetTokens = Annotated[int, _bounded(Argument.TARGET_TOKENS)]
Budget = Annotated[int, _bounded(Argument.BUDGET)]
ActivationBytes = Annotated[int, _bounded(Argument.ACTIVATION)]
Params = Annotated[int, _bounded(Argument.PARAMS)]
Prompts = Annotated[int, _bounded(Argument.PROMPTS)]
Samples = Annotated[int, _bounded(Argument.SAMPLES)]
Mini = Annotated[int, _bounded(Argument.MINI)]
Epochs = Annotated[int, _bounded(Argument.EPOCHS)]


class BatchSetup(BaseModel):
    """One concrete setup: b, d, a and optionally L, each a positive whole number."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid", defer_build=True)

    micro_batch: MicroBatch
    data_parallel: DataParallel
    accumulation: Accumulation
    seq_len: SeqLen | None = None


class PlanRequest(BaseModel):
    """What a command asks: any of b, d, a, the parallel layout, a target, a budget, activations, N.

    Unlike ``BatchSetup`` a factor may be missing here: it is solved for from a target.
    """

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid", defer_build=True)

    micro_batch: MicroBatch | None = None
    data_parallel: DataParallel | None = None
    accumulation: Accumulation | None = None
    seq_len: SeqLen | None = None
    gpus: Gpus | None = None
    tp: Degree | None = None
    pp: Degree | None = None
    cp: Degree | None = None
    sp: Degree | None = None
    target_global_batch: TargetBatch | None = None
    target_tokens_per_step: TargetTokens | None = None
    budget: Budget | None = None
    activation_per_sample: ActivationBytes | None = None
    params: Params | None = None
    prompts: Prompts | None = None
    samples: Samples | None = None
    mini: Mini | None = None
    epochs: Epochs | None = None
    #: The memory and time keys, None when none was given.
    training: TrainingRequest | None = None

    def value(self, argument: Argument) -> int | None:
        """The value given for ``argument``, or None."""
        value: int | None = getattr(self, argument.value)
        return value

    @property
    def model_parallel_given(self) -> bool:
        """Whether the command speaks about GPUs at all (gpus or any of TP, PP, CP, SP)."""
        return any(v is not None for v in (self.gpus, self.tp, self.pp, self.cp, self.sp))

    @property
    def rollout_given(self) -> bool:
        """Whether the command describes a reinforcement-learning rollout (prompts, n, mini or epochs)."""
        return any(v is not None for v in (self.prompts, self.samples, self.mini, self.epochs))


class Rollout(BaseModel):
    """One rollout: P prompts, n responses each; a mini-batch of ``mini`` prompts is one optimizer step (verl's
    ``ppo_mini_batch_size``), ``epochs`` passes over the rollout."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    prompts: int
    samples: int
    mini: int
    epochs: int = 1

    @property
    def sequences(self) -> int:
        """P · n."""
        return self.prompts * self.samples

    @property
    def mini_sequences(self) -> int:
        """mini · n: the sequences of one optimizer step, B."""
        return self.mini * self.samples

    @property
    def optimizer_steps(self) -> int:
        """k = P / mini · epochs."""
        return self.prompts // self.mini * self.epochs

    def as_json(self) -> dict[str, Any]:
        return {
            "prompts_per_rollout": self.prompts,
            "samples_per_prompt": self.samples,
            "sequences_per_rollout": self.sequences,
            "optimizer_steps_per_rollout": self.optimizer_steps,
        }


class Parallelism(BaseModel):
    """The whole cluster: GPUs = d · TP · PP · CP · SP."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    gpus: int
    tp: int = 1
    pp: int = 1
    cp: int = 1
    sp: int = 1
    gpus_given: bool = True


class Activation(BaseModel):
    """Activation memory: per sequence as given, per device = b · per sequence."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    per_sample: int
    per_device: int


class Outcome(BaseModel):
    """One concrete setup and everything that follows from it."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    setup: BatchSetup
    global_batch: int
    tokens_per_step: int | None
    parallelism: Parallelism | None = None
    budget: int | None = None
    optimizer_steps: int | None = None
    activation: Activation | None = None
    rollout: Rollout | None = None

    def as_json(self) -> dict[str, Any]:
        """Flat JSON: the first issue's keys, plus the others where they apply."""
        data: dict[str, Any] = {
            **self.setup.model_dump(),
            "global_batch": self.global_batch,
            "tokens_per_step": self.tokens_per_step,
        }
        if self.parallelism is not None:
            data |= self.parallelism.model_dump(exclude={"gpus_given"})
        if self.optimizer_steps is not None:
            data["optimizer_steps"] = self.optimizer_steps
        if self.activation is not None:
            data["activation_memory_bytes"] = self.activation.per_device
        if self.rollout is not None:
            data["rl"] = self.rollout.as_json()
        return data


class Target(BaseModel):
    """A global batch or a token count per step to reach by solving for one factor."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    argument: Argument  # TARGET_BATCH or TARGET_TOKENS
    value: int
    #: What one sequence of b · d · a contributes to the target: 1 for B, L tokens for T.
    per_sequence: int = 1


class Solution(BaseModel):
    """How a missing factor was found: value = target / (product of the others [· L])."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    argument: Argument
    target: Target
    divisor: int

    @property
    def quotient(self) -> Fraction:
        return Fraction(self.target.value, self.divisor)


class BinaryTarget(BaseModel):
    """A decimal target (``T=4M``) that misses, read with binary units (``T=4Mi``), where it divides."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    text: str  # how to type it: "4Mi"
    value: int
    solved: int


class Plan(BaseModel):
    """The answer to one setup: an outcome when everything is whole, else the nearest options."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    request: PlanRequest
    outcome: Outcome | None
    target: Target | None = None
    solution: Solution | None = None
    options: tuple[Outcome, ...] = ()
    binary: BinaryTarget | None = None

    @property
    def exact(self) -> bool:
        return self.outcome is not None

    @property
    def reference(self) -> Outcome | None:
        """The outcome, or (not exact) the first option: what the values not solved for come from."""
        return self.outcome or (self.options[0] if self.options else None)

    def as_json(self) -> dict[str, Any]:
        """The outcome's JSON, or (not exact) the known and derived values with the solved one as null."""
        if self.outcome is not None:
            data = self.outcome.as_json()
        else:
            reference = self.reference.as_json() if self.reference else {}
            solved = self.solution.argument.value if self.solution else None
            data = {
                a.value: reference.get(a.value) if a.value != solved else None for a in (*FACTORS, Argument.SEQ_LEN)
            }
            data |= {"global_batch": None, "tokens_per_step": None}
            data |= {key: reference[key] for key in ("gpus", "tp", "pp", "cp", "sp") if key in reference}
        if self.target is not None:
            data["solved_for"] = self.solution.argument.value if self.solution else None
            data["exact"] = self.exact
            if not self.request.rollout_given:  # a rollout's B = mini · n is no target anyone typed
                data[self.target.argument.value] = self.target.value
        if not self.exact:
            data["options"] = [option.as_json() for option in self.options]
        return data


class LearningRates(BaseModel):
    """A learning rate scaled with the batch: linearly (×k) and by the square root (×√k)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    base: float
    linear: float
    sqrt: float


class Comparison(BaseModel):
    """Two setups side by side and what the change of B means for the learning rate."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    before: Outcome
    after: Outcome
    before_plan: Plan
    after_plan: Plan
    lr: LearningRates | None = None

    @property
    def factor(self) -> Fraction:
        """k = B₂ / B₁."""
        return Fraction(self.after.global_batch, self.before.global_batch)

    @property
    def sqrt_factor(self) -> float:
        return math.sqrt(self.factor)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "before": self.before_plan.as_json(),
            "after": self.after_plan.as_json(),
            "factor": float(self.factor),
        }
        if self.lr is not None:
            data["lr"] = {"linear": self.lr.linear, "sqrt": self.lr.sqrt}
        return data
