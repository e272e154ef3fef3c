"""A DeepSpeed config as DeepSpeed and the frameworks that hand one to it (the Hugging Face Trainer, accelerate)
know it: its batch keys, and how it is told from other JSON and YAML (``deepspeed/runtime/config.py``)."""

from __future__ import annotations

from effbatch.core.configs.base.pyscript import CallSite
from effbatch.core.configs.base.source import Format, Parsed

TRAIN = "train_batch_size"
MICRO = "train_micro_batch_size_per_gpu"
ACCUMULATION = "gradient_accumulation_steps"
SEQUENCE_PARALLEL = "sequence_parallel_size"
AUTOTP = "tensor_parallel.autotp_size"
#: Top-level keys of a DeepSpeed config (``deepspeed/runtime/constants.py``): a JSON of nothing else is one.
TOP_KEYS = frozenset(
    {TRAIN, MICRO, ACCUMULATION, SEQUENCE_PARALLEL, "optimizer", "scheduler", "fp16", "bf16", "amp"}
    | {"zero_optimization", "gradient_clipping", "steps_per_print", "wall_clock_breakdown", "prescale_gradients"}
    | {
        "activation_checkpointing",
        "flops_profiler",
        "communication_data_type",
        "tensor_parallel",
        "zero_allow_untested_optimizer",
    }
)
#: Keys only a DeepSpeed config has.
OWN_KEYS = frozenset(
    {MICRO, "zero_optimization", "zero_allow_untested_optimizer", "steps_per_print", "wall_clock_breakdown"}
)


def is_deepspeed_config(parsed: Parsed) -> bool:
    """DeepSpeed's own keys, or a JSON with a batch size at the top that DeepSpeed could read (a whole number or
    ``"auto"``): a torchtune recipe is neither, nor a JSON of labels that happens to name ``train_batch_size``."""
    if parsed.format not in (Format.JSON, Format.YAML):
        return False
    keys = set(parsed.data)
    if OWN_KEYS & keys:
        return True
    return parsed.format is Format.JSON and TRAIN in keys and (_batch_like(parsed.data[TRAIN]) or keys <= TOP_KEYS)


def _batch_like(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return True
    return isinstance(value, str) and (value == "auto" or value.strip().isdigit())


def deepspeed_config(sources: list[Parsed]) -> Parsed | None:
    """The DeepSpeed config among the sources, if any."""
    return next((p for p in sources if is_deepspeed_config(p)), None)


INITIALIZE = "deepspeed.initialize"


def initialize_call(parsed: Parsed, *, run: bool = False) -> CallSite | None:
    """The ``deepspeed.initialize`` call a script makes (the last one a run reaches, else the last one): the call
    that hands DeepSpeed its config, whatever batch names the script sets besides. ``run``: only one a run of the
    script reaches – a module whose functions only others call (Megatron-DeepSpeed's ``megatron/training.py``,
    OpenRLHF's strategy) is a library's, not the run."""
    if parsed.format is not Format.PYTHON or parsed.python is None:
        return None
    calls = [call for call in parsed.python.called(INITIALIZE) if call.callee == INITIALIZE]
    chosen = [call for call in calls if call.reached] or ([] if run else calls)
    return chosen[-1] if chosen else None
