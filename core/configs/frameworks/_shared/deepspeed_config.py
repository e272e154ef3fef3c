"""A DeepSpeed config as DeepSpeed and the frameworks that hand one to it (the Hugging Face Trainer, accelerate)
know it: its batch keys, and how it is told from other JSON and YAML (``deepspeed/runtime/config.py``)."""

from __future__ import annotations

from core.configs.base import Format, Parsed

TRAIN = "train_batch_size"
MICRO = "train_micro_batch_size_per_gpu"
ACCUMULATION = "gradient_accumulation_steps"
SEQUENCE_PARALLEL = "sequence_parallel_size"
AUTOTP = "tensor_parallel.autotp_size"
#: Keys only a DeepSpeed config has.
OWN_KEYS = frozenset(
    {MICRO, "zero_optimization", "zero_allow_untested_optimizer", "steps_per_print", "wall_clock_breakdown"}
)


def is_deepspeed_config(parsed: Parsed) -> bool:
    """DeepSpeed's own keys, or a JSON with ``train_batch_size`` at the top (a torchtune recipe is neither)."""
    if parsed.format not in (Format.JSON, Format.YAML):
        return False
    keys = set(parsed.data)
    return bool(OWN_KEYS & keys) or (parsed.format is Format.JSON and TRAIN in keys)


def deepspeed_config(sources: list[Parsed]) -> Parsed | None:
    """The DeepSpeed config among the sources, if any."""
    return next((p for p in sources if is_deepspeed_config(p)), None)
