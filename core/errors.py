"""Input errors of the core, as data a presentation layer can translate.

Hierarchy::

    InputError            the command text cannot be turned into a calculation
      └─ .problems        one or more Problem records (kind, argument, text, side, ctx)

The core never words a message for people: each Problem names its kind, the
argument it concerns and the offending text, and the bot renders that in German.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from effbatch.core.arguments import Argument


class ProblemKind(StrEnum):
    """What went wrong, machine-readable; the German wording lives in ``bot.texts.problems``."""

    TEXT_TOO_LONG = "text_too_long"
    MISSING_VALUES = "missing_values"
    TOO_MANY_VALUES = "too_many_values"
    POSITIONAL_AFTER_NAMED = "positional_after_named"
    UNKNOWN_KEY = "unknown_key"
    DUPLICATE = "duplicate"
    EMPTY_VALUE = "empty_value"
    NOT_A_NUMBER = "not_a_number"
    BAD_GROUPING = "bad_grouping"
    NOT_WHOLE = "not_whole"
    NOT_POSITIVE = "not_positive"
    THOUSANDS_COMMA = "thousands_comma"
    UNKNOWN_SUFFIX = "unknown_suffix"
    TOO_LONG = "too_long"
    TOO_LARGE = "too_large"
    MISSING_UNIT = "missing_unit"
    GPUS_NOT_DIVISIBLE = "gpus_not_divisible"
    DATA_PARALLEL_CONFLICT = "data_parallel_conflict"
    TARGET_CONFLICT = "target_conflict"
    NOT_ENOUGH_FACTORS = "not_enough_factors"
    NEEDS_SEQ_LEN = "needs_seq_len"
    TWO_TARGETS = "two_targets"
    SOLVED_OUT_OF_RANGE = "solved_out_of_range"
    LR_WITHOUT_COMPARISON = "lr_without_comparison"
    TOO_MANY_COMPARISONS = "too_many_comparisons"
    EMPTY_SIDE = "empty_side"
    NOT_EXACT_IN_COMPARISON = "not_exact_in_comparison"
    UNKNOWN_RUN = "unknown_run"
    RUN_WITH_VALUES = "run_with_values"
    ROLLOUT_INCOMPLETE = "rollout_incomplete"
    MINI_ABOVE_ROLLOUT = "mini_above_rollout"
    MINI_NOT_DIVIDING = "mini_not_dividing"
    ROLLOUT_NOT_DIVISIBLE = "rollout_not_divisible"
    ROLLOUT_WITH_TARGET = "rollout_with_target"
    ROLLOUT_CONFLICT = "rollout_conflict"
    GUIDANCE_INCOMPLETE = "guidance_incomplete"
    UNKNOWN_WORD = "unknown_word"
    # the memory and time keys
    UNKNOWN_CHOICE = "unknown_choice"
    UNKNOWN_MODEL = "unknown_model"
    SHAPE_INCOMPLETE = "shape_incomplete"
    RULES_NEED_SHAPE = "rules_need_shape"
    DEEPSPEED_NEEDS_ZERO = "deepspeed_needs_zero"
    OFFLOAD_PARAMS_NEEDS_ZERO3 = "offload_params_needs_zero3"
    TIME_KEYS_CONFLICT = "time_keys_conflict"
    MOE_INCOMPLETE = "moe_incomplete"
    TIME_NEEDS_PEAK = "time_needs_peak"
    STEP_TIME_NEEDS_TOKENS = "step_time_needs_tokens"
    # set-ups that cannot exist: no run has them, so no memory is estimated for them
    PIPELINE_ABOVE_LAYERS = "pipeline_above_layers"
    LAYERS_NOT_DIVISIBLE = "layers_not_divisible"
    TOPK_ABOVE_EXPERTS = "topk_above_experts"
    EP_NOT_DIVIDING = "ep_not_dividing"
    ETP_NOT_DIVIDING = "etp_not_dividing"
    KV_HEADS_NOT_DIVIDING = "kv_heads_not_dividing"
    HEADS_NOT_DIVIDING = "heads_not_dividing"
    OFFLOAD_NEEDS_ZERO = "offload_needs_zero"
    MFU_ABOVE_PEAK = "mfu_above_peak"
    # the scaling question (``… skalierung``)
    SCALING_INCOMPLETE = "scaling_incomplete"


class Side(StrEnum):
    """Which setup of a comparison (``… vs …``) a problem belongs to."""

    BEFORE = "before"
    AFTER = "after"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input.

    ``argument`` is the argument concerned, or None when the problem is not tied to
    one; ``text`` is the user's text as typed; ``side`` is set inside a comparison;
    ``ctx`` carries what the message needs (limits, suggestions, missing names); ``setting`` names a
    memory or time key (a ``core.training_keys.TrainingKey`` value) where ``argument`` cannot.
    """

    kind: ProblemKind
    argument: Argument | None = None
    text: str | None = None
    ctx: dict[str, Any] = field(default_factory=dict)
    side: Side | None = None
    setting: str | None = None

    def on_side(self, side: Side) -> Problem:
        """This problem, marked as belonging to one setup of a comparison."""
        return replace(self, side=side)


class InputError(ValueError):
    """The command text is not a valid effbatch request; see ``problems``."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        if not problems:
            msg = "InputError needs at least one problem"
            raise ValueError(msg)
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("; ".join(p.kind.value for p in self.problems))
