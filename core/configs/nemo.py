"""NeMo's (Megatron-based) YAML: the trainer gives the world size, the model Megatron's batch arithmetic.

``trainer.devices`` × ``trainer.num_nodes`` processes; ``model.micro_batch_size``,
``model.global_batch_size``, ``model.tensor_model_parallel_size``, ``pipeline_model_parallel_size``,
``context_parallel_size``; the sequence length from ``model.encoder_seq_length`` (or
``model.seq_length``, ``model.data.seq_length``). The checks are Megatron core's
(``num_microbatches_calculator.py``), which NeMo calls with these values.
"""

from __future__ import annotations

from core.configs.common import Reading, check_data, lookup, positive, require_world
from core.configs.megatron import microbatches, model_parallel
from core.configs.model import Check, CheckError, Derivation, Framework, Level, ProblemKind, Rule, World
from core.configs.reading import Format, Parsed

SEQ_LEN_KEYS = ("model.encoder_seq_length", "model.seq_length", "model.data.seq_length")


def check(sources: list[Parsed], world: World | None) -> Check:
    parsed = next(
        (p for p in sources if p.format in (Format.YAML, Format.JSON) and isinstance(p.data.get("model"), dict)), None
    )
    if parsed is None:
        raise CheckError(ProblemKind.NOTHING_TO_CHECK, names=[p.source.name for p in sources])
    reading = Reading(Framework.NEMO)

    def value(path: str) -> int | None:
        return positive(reading.key(parsed, path), path, parsed.where(path.rsplit(".", 1)[-1]))

    micro = value("model.micro_batch_size") or 1
    gbs = value("model.global_batch_size")
    degrees = ("tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size")
    tp, pp, cp = (value(f"model.{key}") or 1 for key in degrees)
    seq_len = next((v for path in SEQ_LEN_KEYS if (v := value(path)) is not None), None)
    world = world or _trainer_world(reading, parsed)
    world = require_world(world, Framework.NEMO)
    reading.note("world_size", world.size, world.where)
    data_parallel = model_parallel(reading, world.size, tp, pp, cp, Rule.NEMO_WORLD)
    if data_parallel is None:
        numbers = {"data_parallel": None, "micro_batch": micro, "accumulation": None, "global_batch": None}
        return Check(**check_data(Framework.NEMO, reading, world, seq_len=seq_len, **numbers))
    if gbs is None:
        gbs = micro * data_parallel
        reading.finding(Level.INFO, Rule.MEGATRON_DEFAULT_GBS, value=gbs)
    accumulation = microbatches(reading, gbs, micro, data_parallel, Rule.NEMO_GBS)
    if accumulation is not None and seq_len is not None:
        reading.step(Derivation.T_PRODUCT, (gbs, seq_len), gbs * seq_len)
    return Check(
        **check_data(
            Framework.NEMO,
            reading,
            world,
            data_parallel=data_parallel,
            micro_batch=micro,
            accumulation=accumulation,
            global_batch=gbs if accumulation is not None else None,
            seq_len=seq_len,
        )
    )


def _trainer_world(reading: Reading, parsed: Parsed) -> World | None:
    devices, nodes = lookup(parsed.data, "trainer.devices"), lookup(parsed.data, "trainer.num_nodes") or 1
    if not isinstance(devices, int) or devices < 1 or not isinstance(nodes, int) or nodes < 1:
        return None  # -1 or "auto": as many as the machine has, unknown here
    reading.note("trainer.devices", devices, parsed.where("devices"))
    reading.note("trainer.num_nodes", nodes, parsed.where("num_nodes"))
    reading.step(Derivation.WORLD, (nodes, devices), nodes * devices)
    return World(nodes * devices, f"trainer.num_nodes × trainer.devices, {parsed.source.name}")
