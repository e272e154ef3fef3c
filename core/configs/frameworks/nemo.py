"""NeMo's (Megatron-based) YAML: the trainer gives the world size, the model Megatron's batch arithmetic.

``trainer.devices`` × ``trainer.num_nodes`` processes; ``model.micro_batch_size``,
``model.global_batch_size``, ``model.tensor_model_parallel_size``, ``pipeline_model_parallel_size``,
``context_parallel_size``; the sequence length from ``model.encoder_seq_length`` (or
``model.seq_length``, ``model.data.seq_length``). The checks are Megatron core's
(``num_microbatches_calculator.py``), which NeMo calls with these values.
"""

from __future__ import annotations

from effbatch.core.configs.base import (
    Check,
    Derivation,
    Effect,
    Format,
    ModelShape,
    Parsed,
    Reading,
    Rule,
    World,
    fix,
    lookup,
)
from effbatch.core.configs.frameworks._shared.megatron_core import (
    DEFAULT_GBS,
    Default,
    Divisor,
    ModelParallel,
    microbatches,
    model_parallel,
    nemo_yaml,
)
from effbatch.core.configs.frameworks._shared.memory_facts import megatron_facts, nemo_arguments

ID = "nemo"
SEQ_LEN_KEYS = ("model.encoder_seq_length", "model.seq_length", "model.data.seq_length")
GBS = Rule("nemo/global-batch-size-divisible", Effect.REFUSED, Divisor)
NEMO_WORLD = Rule("nemo/world-size-divisible", Effect.REFUSED, ModelParallel)
RULES = (GBS, NEMO_WORLD)


def detect(parsed: Parsed) -> bool:
    """A NeMo YAML: a ``trainer`` section and a ``model`` section with Megatron's batch keys."""
    return parsed.format is Format.YAML and nemo_yaml(parsed.data)


def check(sources: list[Parsed], world: World | None) -> Check:
    parsed = next((p for p in sources if detect(p)), sources[0])
    reading = Reading(ID)
    micro = reading.value(parsed, "model.micro_batch_size") or 1
    gbs = reading.value(parsed, "model.global_batch_size")
    degrees = ("tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size")
    tp, pp, cp = (reading.value(parsed, f"model.{key}") or 1 for key in degrees)
    seq_len = next((v for path in SEQ_LEN_KEYS if (v := reading.value(parsed, path)) is not None), None)
    world = reading.world(world or _trainer_world(reading, parsed))
    data_parallel = model_parallel(reading, world.size, tp, pp, cp, NEMO_WORLD)
    if data_parallel is None:
        return reading.finish(world, micro_batch=micro, seq_len=seq_len)
    if gbs is None:
        gbs = micro * data_parallel
        reading.add(DEFAULT_GBS(Default(gbs)))
    accumulation = microbatches(reading, parsed, gbs, micro, data_parallel, GBS, "model.global_batch_size")
    if accumulation is not None and seq_len is not None:
        reading.step(Derivation.T_PRODUCT, (gbs, seq_len), gbs * seq_len)
    return reading.finish(
        world,
        data_parallel=data_parallel,
        micro_batch=micro,
        accumulation=accumulation,
        global_batch=gbs,
        seq_len=seq_len,
        shape=_shape(reading, parsed),
        memory=megatron_facts(
            nemo_arguments(parsed.data), parsed.where("num_layers"), fix(parsed, "model.micro_batch_size", 1)
        ),
    )


def _shape(reading: Reading, parsed: Parsed) -> ModelShape | None:
    """``model.num_layers``, ``model.hidden_size`` and ``trainer.max_steps``, for the batch-size laws."""
    layers, hidden = reading.value(parsed, "model.num_layers"), reading.value(parsed, "model.hidden_size")
    steps = reading.value(parsed, "trainer.max_steps", minimum=None)
    if layers is None or hidden is None or steps is None or steps < 1:
        return None
    return ModelShape(layers, hidden, steps)


def _trainer_world(reading: Reading, parsed: Parsed) -> World | None:
    devices, nodes = lookup(parsed.data, "trainer.devices"), lookup(parsed.data, "trainer.num_nodes") or 1
    if not isinstance(devices, int) or devices < 1 or not isinstance(nodes, int) or nodes < 1:
        return None  # -1 or "auto": as many as the machine has, unknown here
    reading.note("trainer.devices", devices, parsed.where("devices"))
    reading.note("trainer.num_nodes", nodes, parsed.where("num_nodes"))
    reading.step(Derivation.WORLD, (nodes, devices), nodes * devices)
    return World(nodes * devices, f"trainer.num_nodes × trainer.devices, {parsed.source.name}")
