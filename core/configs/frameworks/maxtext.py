"""MaxText's batch arithmetic (AI-Hypercomputer/maxtext at e591f30, August 2026).

- ``src/maxtext/configs/types.py:3458-3479`` ``calculate_global_batch_sizes``, called with
  ``num_target_devices = len(jax.devices())`` (:3407-3423), every chip including the tensor-, pipeline- and
  context-parallel ones: ``micro_batch_to_train = int(num_devices * per_device_batch_size)``,
  ``global_batch_to_train = int(micro_batch_to_train * grad_accum_steps)``. ``per_device_batch_size`` is a
  float; ``int()`` drops a fraction without a word. Below 1 each chip still loads a row and training slices
  the micro-batch down (``trainers/pre_train/train.py:130-133``). The old ``MaxText/pyconfig.py`` (kept as
  ``pyconfig_deprecated.py:1306-1325``) gives the same numbers.
- The batch dimension of the activations is sharded over the data, fsdp, fsdp_transpose and expert axes
  (and diloco) of the ICI and DCN mesh (``base.yml:595``): those are the data-parallel replicas.
  ``utils/max_utils.py:461-484`` ``fill_unspecified_mesh_axes`` fills the one axis set to -1 (``ici_fsdp``,
  ``dcn_data`` by default) and asserts that each product is the chips of a slice and the slices. The slices:
  ``num_slices`` where set, else one.
- Refusals: ``types.py:3878-3882`` FP8 with accumulation; :3999-4003 ``per_device_batch_size ·
  max_target_length`` not divisible by ``num_vocab_tiling`` (any non-integer product); :3605-3620 pipeline
  micro-batches (-1: the stages, twice that with ``pipeline_delay_activation_forwarding``; positive, a multiple of the
  stages, dividing a forward pass's batch).
- The values: ``base.yml`` (per_device_batch_size 12.0 :731, gradient_accumulation_steps 1 :968,
  max_target_length 2048 :880), the YAML given, and ``key=value`` after the YAML on the launch line
  (``python3 -m MaxText.train MaxText/configs/base.yml …``, ``python3 -m maxtext.trainers.pre_train.train …``),
  which win. The chips are not in any of them: they are asked for.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from effbatch.core.configs.base.errors import CheckError, ProblemKind
from effbatch.core.configs.base.memory import MemoryFacts
from effbatch.core.configs.base.results import Check, World
from effbatch.core.configs.base.rules import Effect, Fix, Nothing, Rule, Syntax, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Reading, whole, world_fix
from effbatch.core.configs.base.versions import Pins

ID = "maxtext"
PDB = "per_device_batch_size"
GA = "gradient_accumulation_steps"
LENGTH = "max_target_length"
#: base.yml's defaults and their lines.
DEFAULTS: dict[str, tuple[Any, str]] = {
    PDB: (12.0, "base.yml:731"),
    GA: (1, "base.yml:968"),
    LENGTH: (2048, "base.yml:880"),
}
AXES = (
    "diloco",
    "data",
    "fsdp",
    "fsdp_transpose",
    "sequence",
    "context",
    "context_usp_ulysses",
    "context_autoregressive",
    "tensor",
    "tensor_sequence",
    "autoregressive",
    "pipeline",
    "expert",
)
DATA_AXES = ("diloco", "data", "fsdp", "fsdp_transpose", "expert")
FP8 = ("fp8", "nanoo_fp8", "fp8_gpu", "te_fp8_delayedscaling")
TWO_UNSPECIFIED_MESSAGE = (
    "Found unspecified values (-1) for more than one {kind}      parallelism axis. At most one axis can be unspecified."
)
UNDETERMINED_MESSAGE = "Unspecified value unable to be determined with the given      {kind} parallelism values"
PRODUCT_MESSAGE = "Number of {target} {count} does not match the product of the {kind} parallelism {product}"
FP8_MESSAGE = "FP8 quantization is not compatible with gradient accumulation."
TILING_MESSAGE = "Per device batch size times sequence length should be divisible by the number of vocab tiles."
POSITIVE_MESSAGE = "num_pipeline_microbatches must be positive"
STAGES_MESSAGE = "The number of microbatches ({microbatches}) must be divisible by the number of stages ({stages})"
PASS_MESSAGE = (
    "The batch size for a single forward pass ({micro}) must be divisible "
    "by the number of microbatches ({microbatches})"
)
BATCH = "maxtext/batch"  # B = chips · per_device_batch_size · a
BATCH_FLOORED = "maxtext/batch-floored"  # B = int(chips · p/q) · a
DATA_PARALLEL = "maxtext/data-parallel"  # d = data · fsdp · fsdp_transpose · expert · diloco (ICI · DCN)
PROGRAMS = (
    "MaxText.train",
    "MaxText.train_compile",
    "maxtext.trainers.pre_train.train",
    "maxtext.trainers.pre_train.train_compile",
)
_OVERRIDE = re.compile(r"([A-Za-z_]\w*)=(.*)", re.DOTALL)
_OWN_KEYS = frozenset(
    {LENGTH, "base_output_directory", "logical_axis_rules", "mesh_axes", "remat_policy", "base_emb_dim"}
)
_DIFFUSION_KEYS = frozenset({"pretrained_model_name_or_path", "resolution"})


@context
class Mesh:
    kind: str
    count: int


@context
class Floored:
    chips: int
    real: int


@context
class ChipsCount:
    chips: int
    data_parallel: int


@context
class BelowOne:
    chips: int
    micro: int


@context
class Fp8:
    accumulation: int


@context
class Pipeline:
    micro: int
    microbatches: int
    stages: int


MESH = Rule("maxtext/mesh", Effect.REFUSED, Mesh)
FLOORED = Rule("maxtext/floored", Effect.CHANGED, Floored)
CHIPS = Rule("maxtext/per-device-counts-every-chip", Effect.PITFALL, ChipsCount)
BELOW_ONE = Rule("maxtext/below-one-per-device", Effect.NOTE, BelowOne)
FP8_ACCUMULATION = Rule("maxtext/fp8-accumulation", Effect.REFUSED, Fp8)
TILING = Rule("maxtext/vocab-tiling", Effect.REFUSED, Nothing)
PIPELINE = Rule("maxtext/pipeline-microbatches", Effect.REFUSED, Pipeline)
RULES = (MESH, FLOORED, CHIPS, BELOW_ONE, FP8_ACCUMULATION, TILING, PIPELINE)


def detect(parsed: Parsed) -> bool:
    """A launch line of MaxText's trainer, or a ``base.yml``-style YAML (not MaxDiffusion's, which shares keys)."""
    if parsed.format is Format.SHELL:
        return _launch(parsed) is not None
    keys = {key for key in parsed.data if isinstance(key, str)}  # YAML 1.1 reads `on:` as True
    mesh = any(key.startswith(("ici_", "dcn_")) and key.endswith("_parallelism") for key in keys)
    return (
        parsed.format is Format.YAML and PDB in keys and (mesh or bool(_OWN_KEYS & keys)) and not _DIFFUSION_KEYS & keys
    )


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    reading = Reading(ID, pins)
    settings = _settings(reading, sources)
    per_device = _per_device(settings)
    accumulation, seq_len = (_whole(settings, key) for key in (GA, LENGTH))
    _refusals(reading, settings, per_device, accumulation, seq_len)
    world = reading.world(world)
    chips = world.size
    axes: dict[str, int] = {}
    data_parallel = _mesh(reading, settings, chips, axes)
    micro = int(chips * per_device)  # types.py:3464: every chip counts, int() drops the fraction
    _pipeline(reading, settings, micro)
    if any(finding.effect is Effect.REFUSED for finding in reading.findings):
        return reading.finish(world, data_parallel=data_parallel, accumulation=accumulation, seq_len=seq_len)
    batch = micro * accumulation
    _batch_step(reading, settings, chips, per_device, accumulation, batch)
    if data_parallel is not None and data_parallel != chips:
        reading.add(CHIPS(ChipsCount(chips, data_parallel)))
    if per_device < 1:
        reading.add(BELOW_ONE(BelowOne(chips, micro)))
    per_replica = micro // data_parallel if data_parallel and micro % data_parallel == 0 else None
    return finish_with_tokens(
        reading,
        world,
        data_parallel=data_parallel,
        micro_batch=per_replica,
        accumulation=accumulation,
        global_batch=batch,
        seq_len=seq_len,
        memory=_memory(settings, axes),
    )


#: MaxText's ``model_name`` where effbatch's table calls the model otherwise (``src/maxtext/configs/models/``).
MODEL_NAMES = {"deepseek3-671b": "deepseek-v3"}
#: ``remat_policy`` values that recompute only the attention core (``src/maxtext/layers/decoders.py``).
MINIMAL_REMAT = frozenset({"minimal", "minimal_flash", "minimal_offloaded"})


def _memory(settings: Settings, axes: dict[str, int]) -> MemoryFacts | None:
    """``model_name`` (its ``configs/models/<name>.yml`` shapes are the table's), the tensor, pipeline, context and
    expert axes; FSDP's axes shard the states as ZeRO-3, the data axes replicate them (``replicas``);
    ``remat_policy``: ``minimal`` keeps what selective recomputation keeps (FlashAttention's, no s × s scores),
    ``full`` only each layer's input; the policies between (``save_qkv_proj`` …) are counted as full, the
    projections they keep as well not counted, which the answer says.
    Weights are float32 (``weight_dtype``) and activations bfloat16: 4 + 4 + 8 bytes, the 16 of mixed precision."""
    name, where = settings.get("model_name", ("default", ""))
    policy = str(settings.get("remat_policy", ("full", ""))[0])
    if not axes or str(name) == "default":
        return None
    fsdp = axes["fsdp"] * axes["fsdp_transpose"] * axes["expert"]
    return MemoryFacts(
        rules="effbatch",
        where=where,
        model=MODEL_NAMES.get(str(name), str(name)),
        tp=axes["tensor"] * axes["tensor_sequence"],
        pp=axes["pipeline"],
        cp=axes["context"],
        ep=axes["expert"],
        zero=3 if fsdp > 1 else 0,
        replicas=axes["data"] * axes["diloco"],
        recompute="selective" if policy in MINIMAL_REMAT else "full",
        sequence_parallel=axes["tensor_sequence"] > 1,
        caveat="" if policy in MINIMAL_REMAT or policy == "full" else "partial_recompute",
    )


#: A setting as MaxText will use it: the value and where it came from.
Settings = dict[str, tuple[Any, str]]


def _settings(reading: Reading, sources: list[Parsed]) -> Settings:
    """base.yml's defaults, then the YAML given, then the launch line's ``key=value`` (each recorded once)."""
    settings: Settings = dict(DEFAULTS)
    for parsed in sources:
        if parsed.format is Format.YAML and detect(parsed):
            settings |= {
                key: (value, parsed.where(key))
                for key, value in parsed.data.items()
                if isinstance(key, str) and value is not None
            }
    for parsed in sources:
        if parsed.format is Format.SHELL and (found := _launch(parsed)) is not None:
            settings |= found
    for key, (value, where) in settings.items():
        if _wanted(key, value) and not where.startswith("base.yml"):
            reading.note(key, _number(value) if key == PDB else value, where)
    return settings


def _number(value: Any) -> Any:
    """A float as written in an override (``0.25``) as the number it is, so it is shown as one."""
    try:
        return float(value) if isinstance(value, str) else value
    except ValueError:
        return value


def _wanted(key: str, value: Any) -> bool:
    """The settings a check uses; a mesh axis only where it is not base.yml's own value."""
    if key.startswith(("ici_", "dcn_")) and key.endswith("_parallelism"):
        default = -1 if key in ("ici_fsdp_parallelism", "dcn_data_parallelism") else 1
        return str(value).strip() != str(default)
    return key in (PDB, GA, LENGTH, "num_slices", "quantization", "num_vocab_tiling", "num_pipeline_microbatches")


def _launch(parsed: Parsed) -> Settings | None:
    """The ``key=value`` words after the trainer (``-m MaxText.train``, ``MaxText/train.py``) and its YAML."""
    if parsed.script is None:
        return None
    for command in parsed.script.commands:
        words = command.words
        starts = [
            index
            for index, word in enumerate(words)
            if (word in PROGRAMS and index > 0 and words[index - 1] == "-m") or word.endswith("MaxText/train.py")
        ]
        if starts:
            where = f"{parsed.source.name}:{command.line}"
            pairs = (_OVERRIDE.fullmatch(word) for word in words[starts[0] + 1 :])
            return {found.group(1): (found.group(2), where) for found in pairs if found is not None}
    return None


def _per_device(settings: Settings) -> float:
    """``per_device_batch_size``, a float as MaxText parses it; ``CheckError`` for anything else or below 0."""
    value, where = settings[PDB]
    try:
        number = float(value) if not isinstance(value, bool) else -1.0
    except ValueError:
        number = -1.0
    if not math.isfinite(number) or number <= 0 or number > 10**6:
        raise CheckError(ProblemKind.BAD_VALUE, key=PDB, value=str(value)[:60], where=where)
    return number


def _whole(settings: Settings, key: str, minimum: int | None = 1) -> int:
    value, where = settings[key]
    return whole(value, key, where, minimum=minimum)


def _refusals(reading: Reading, settings: Settings, per_device: float, accumulation: int, seq_len: int) -> None:
    """types.py's checks that need no chip count: FP8 with accumulation, the vocabulary tiles."""
    if str(settings.get("quantization", ("", ""))[0]).strip() in FP8 and accumulation > 1:
        fixed = Fix(GA, (1,), Syntax.OVERRIDE)
        reading.add(FP8_ACCUMULATION(Fp8(accumulation), message=FP8_MESSAGE, fix=fixed))
    tiles = _whole(settings, "num_vocab_tiling") if "num_vocab_tiling" in settings else 1
    if (per_device * seq_len) % tiles != 0:  # floats, as types.py:4001 computes it
        reading.add(TILING(Nothing(), message=TILING_MESSAGE, fix=_integral_fix(per_device)))


def _integral_fix(per_device: float) -> Fix | None:
    """Whole ``per_device_batch_size`` values just below and above a fraction."""
    values = tuple(v for v in (math.floor(per_device), math.ceil(per_device)) if v >= 1)
    return Fix(PDB, tuple(dict.fromkeys(values)), Syntax.OVERRIDE) if values else None


def _mesh(reading: Reading, settings: Settings, chips: int, axes: dict[str, int]) -> int | None:
    """``fill_unspecified_mesh_axes`` for ICI (the chips of a slice) and DCN (the slices); d = the data axes.
    ``axes`` receives each axis's ICI · DCN size."""
    slices = _whole(settings, "num_slices", minimum=None) if "num_slices" in settings else -1
    slices = slices if slices >= 1 else 1
    filled: dict[str, dict[str, int]] = {}
    for kind, prefix, count, default in (("ICI", "ici", chips // slices, "fsdp"), ("DCN", "dcn", slices, "data")):
        values = {
            axis: _whole(settings, key, minimum=None) if (key := f"{prefix}_{axis}_parallelism") in settings else 1
            for axis in AXES
        }
        if f"{prefix}_{default}_parallelism" not in settings:
            values[default] = -1  # base.yml:660, :674
        problem = _fill(values, count, kind)
        if problem is not None:
            fixed = world_fix(*_chips_that_fit(values, chips)) if kind == "ICI" and slices == 1 else None
            reading.add(MESH(Mesh(kind, count), message=problem, fix=fixed))
            return None
        filled[kind] = values
    axes.update({axis: filled["ICI"][axis] * filled["DCN"][axis] for axis in AXES})
    factors = [axes[axis] for axis in DATA_AXES]
    data_parallel = math.prod(factors)
    reading.step(DATA_PARALLEL, factors, data_parallel)
    return data_parallel


def _fill(values: dict[str, int], count: int, kind: str) -> str | None:
    """The one -1 axis filled in (in place); MaxText's assertion message where it cannot be."""
    unspecified = [axis for axis, value in values.items() if value == -1]
    if len(unspecified) > 1:
        return TWO_UNSPECIFIED_MESSAGE.format(kind=kind)
    if unspecified:
        product = math.prod(values.values())  # numpy's count / 0 is inf: a 0 axis leaves the -1 undetermined
        determined = count / (product * -1) if product else -math.inf
        if determined < 1 or not determined.is_integer():
            return UNDETERMINED_MESSAGE.format(kind=kind)
        values[unspecified[0]] = int(determined)
    product = math.prod(values.values())
    if product != count:
        target = "slices" if kind == "DCN" else "devices per slice"
        return PRODUCT_MESSAGE.format(target=target, count=count, kind=kind, product=product)
    return None


def _chips_that_fit(values: dict[str, int], chips: int) -> tuple[int | None, int]:
    """The chip counts nearest to ``chips`` that the fixed axes divide."""
    fixed = math.prod(value for value in values.values() if value > 0)
    below = chips // fixed * fixed
    return (below if below >= 1 else None), below + fixed


def _pipeline(reading: Reading, settings: Settings, micro: int) -> None:
    """types.py:3605-3620: the pipeline's micro-batches divide by the stages and divide a forward pass's batch."""
    stages = math.prod(
        _whole(settings, key) if (key := f"{prefix}_pipeline_parallelism") in settings else 1
        for prefix in ("ici", "dcn")
    )
    if stages == 1:
        return
    microbatches = (
        _whole(settings, "num_pipeline_microbatches", minimum=None) if "num_pipeline_microbatches" in settings else -1
    )
    if microbatches == -1:
        delayed = str(settings.get("pipeline_delay_activation_forwarding", (False, ""))[0]).lower() == "true"
        microbatches = 2 * stages if delayed else stages
    if microbatches < 1:
        message = POSITIVE_MESSAGE
    elif microbatches % stages:
        message = STAGES_MESSAGE.format(microbatches=microbatches, stages=stages)
    elif micro > 0 and micro % microbatches:
        message = PASS_MESSAGE.format(micro=micro, microbatches=microbatches)
    else:
        return
    reading.add(PIPELINE(Pipeline(micro, microbatches, stages), message=message))


def _batch_step(
    reading: Reading, settings: Settings, chips: int, per_device: float, accumulation: int, batch: int
) -> None:
    """The formula with per_device_batch_size as written (a fraction p/q where it is one), and the floor."""
    if per_device.is_integer():
        reading.step(BATCH, (chips, int(per_device), accumulation), batch)
        return
    ratio = Fraction(str(per_device)).limit_denominator(10**6)
    reading.step(BATCH_FLOORED, (chips, ratio.numerator, ratio.denominator, accumulation), batch)
    real = int(chips * per_device)
    if real != chips * ratio:  # a fraction dropped, or a float product just below the whole number
        reading.add(FLOORED(Floored(chips, real), fix=_integral_fix(per_device)))
