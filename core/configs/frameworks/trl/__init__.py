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

A script that builds one of TRL's preference trainers (``DPOTrainer``, ORPO, KTO, CPO, BCO, Reward) is counted by
the Trainer's rule on the arguments it hands over, the repository's own subclass of ``TrainingArguments`` or
``DPOConfig`` included (``preference``).

GRPO's keys (``num_generations`` …) tell it from an SFT config. RLOO (``rloo_k``, ``RLOOConfig``, ``trl rloo``) is
counted by its release (``rloo``): the on-policy trainer before 0.22, GRPO's generation batch since.

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

from typing import Any

from effbatch.core.configs.base.results import Check, World
from effbatch.core.configs.base.rules import Rule
from effbatch.core.configs.base.source import Parsed
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.frameworks.trl.grpo import GRPO_RULES, ID, detect_grpo, grpo
from effbatch.core.configs.frameworks.trl.preference import detect_preference, preference
from effbatch.core.configs.frameworks.trl.rloo import RLOO_RULES, detect_rloo, rloo
from effbatch.core.configs.frameworks.trl.sft import SFT_RULES, detect_sft, sft

RULES: tuple[Rule[Any], ...] = (*GRPO_RULES, *RLOO_RULES, *SFT_RULES)
__all__ = ["ID", "RULES", "check", "detect"]


def detect(parsed: Parsed) -> bool:
    """A GRPO, RLOO or SFT config of TRL, or a script that builds one of TRL's preference trainers (DPO …)."""
    return detect_rloo(parsed) or detect_grpo(parsed) or detect_sft(parsed) or detect_preference(parsed)


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    """RLOO's rule where RLOO's keys, class or command are there, GRPO's where GRPO's are, a preference trainer's
    (the Trainer's) where a script builds one and no SFT config is there, else SFT's (the Trainer's)."""
    if any(detect_rloo(parsed) for parsed in sources):
        return rloo(sources, world, pins)
    if any(detect_grpo(parsed) for parsed in sources):
        return grpo(sources, world, pins)
    if any(detect_preference(parsed) for parsed in sources) and not any(detect_sft(p) for p in sources):
        return preference(sources, world, pins)
    return sft(sources, world, pins)
