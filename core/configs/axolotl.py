"""axolotl's batch arithmetic (``src/axolotl/utils/config/__init__.py`` ``normalize_config`` and
``utils/schemas/validation.py``, July 2026).

- At least two of micro_batch_size, gradient_accumulation_steps, batch_size must be set, and not
  both accumulation and batch_size.
- ``gradient_accumulation_steps = gradient_accumulation_steps or batch_size // micro_batch_size``:
  floored without a word; the Trainer then runs micro_batch_size · accumulation per device.
- With several processes the effective world is ``world // context_parallel_size // tensor_parallel_size``.
"""

from __future__ import annotations

from core.configs.common import Reading, check_data, positive, require_world
from core.configs.model import Check, CheckError, Derivation, Framework, Level, ProblemKind, Rule, World
from core.configs.reading import Format, Parsed

FIELDS = ("micro_batch_size", "gradient_accumulation_steps", "batch_size")
TWO_OF_THREE = f"At least two of {', '.join(FIELDS)} must be set"
ONLY_ONE = "please set only one of gradient_accumulation_steps or batch_size"


def check(sources: list[Parsed], world: World | None) -> Check:
    parsed = next((p for p in sources if p.format in (Format.YAML, Format.JSON) and "micro_batch_size" in p.data), None)
    if parsed is None:
        raise CheckError(ProblemKind.NOTHING_TO_CHECK, names=[p.source.name for p in sources])
    reading = Reading(Framework.AXOLOTL)

    def value(key: str) -> int | None:
        return positive(reading.key(parsed, key), key, parsed.where(key))

    micro, accumulation, batch_size = (value(key) for key in FIELDS)
    seq_len = value("sequence_len")
    tp, cp = value("tensor_parallel_size") or 1, value("context_parallel_size") or 1
    if sum(v is not None for v in (micro, accumulation, batch_size)) < 2:
        reading.finding(Level.ERROR, Rule.AXOLOTL_TWO_OF_THREE, message=TWO_OF_THREE)
        return Check(**check_data(Framework.AXOLOTL, reading, world, **_unknown(micro, seq_len)))
    if accumulation is not None and batch_size is not None:
        reading.finding(Level.ERROR, Rule.AXOLOTL_ONLY_ONE, message=ONLY_ONE)
        return Check(**check_data(Framework.AXOLOTL, reading, world, **_unknown(micro, seq_len)))
    if micro is None:
        assert accumulation is None
        assert batch_size is not None
        reading.finding(Level.ERROR, Rule.AXOLOTL_TWO_OF_THREE, message=TWO_OF_THREE)
        return Check(**check_data(Framework.AXOLOTL, reading, world, **_unknown(micro, seq_len)))
    if accumulation is None:
        assert batch_size is not None
        accumulation = batch_size // micro
        reading.step(Derivation.A_AXOLOTL, (batch_size, micro), accumulation)
        if batch_size % micro or accumulation == 0:
            reading.finding(
                Level.ERROR,
                Rule.AXOLOTL_FLOORED,
                batch_size=batch_size,
                micro=micro,
                accumulation=accumulation,
                real=micro * accumulation,
            )
            if accumulation == 0:
                return Check(**check_data(Framework.AXOLOTL, reading, world, **_unknown(micro, seq_len)))
    world = require_world(world, Framework.AXOLOTL)
    reading.note("world_size", world.size, world.where)
    data_parallel = world.size // cp // tp
    if tp > 1 or cp > 1:
        reading.finding(Level.INFO, Rule.AXOLOTL_PARALLEL, tp=tp, cp=cp)
    reading.step(Derivation.DP_AXOLOTL, (world.size, cp, tp), data_parallel)
    batch = micro * accumulation * data_parallel
    reading.step(Derivation.B_PRODUCT, (micro, data_parallel, accumulation), batch)
    if seq_len is not None:
        reading.step(Derivation.T_PRODUCT, (batch, seq_len), batch * seq_len)
    return Check(
        **check_data(
            Framework.AXOLOTL,
            reading,
            world,
            data_parallel=data_parallel,
            micro_batch=micro,
            accumulation=accumulation,
            global_batch=batch,
            seq_len=seq_len,
        )
    )


def _unknown(micro: int | None, seq_len: int | None) -> dict[str, int | None]:
    return {"data_parallel": None, "micro_batch": micro, "accumulation": None, "global_batch": None, "seq_len": seq_len}
