"""OLMo-core's batch arithmetic (allenai/OLMo-core at fa6c5014, June 2026; the same in ai2-olmo-core 3.0.0).

Its configs are Python launch scripts, read here by the Python reader (``core.configs.read.python.sites``), never run;
a keyword the module's own names do not decide takes the whole reading's value at that call
(``max_sequence_length=opts.sequence_length``: argparse's default, or the launch line's flag). Batches
count TOKENS: ``NumpyDataLoaderConfig(global_batch_size=…)`` (or ``build_config``/``partial(build_config,
global_batch_size=…)``, internal/experiment.py:335) and ``TransformerTrainModuleConfig(rank_microbatch_size=…,
max_sequence_length=…)``; the data's length is ``Numpy*DatasetConfig(sequence_length=…)``.

- ``distributed/parallel/__init__.py:155-228`` ``build_world_mesh``: the DP world is the world divided by the PP,
  CP and TP degrees, each of which must divide what is left; EP shares HSDP's shard dimension (d unchanged), is
  refused beside TP and without HSDP; HSDP's ``shard_degree``/``num_replicas`` must divide the DP world
  (``data_parallel.py`` ``_check_shard_degree``/``_check_num_replicas``).
- ``train/train_module/transformer/train_module.py:164-168``: ``rank_microbatch_size`` must be a multiple of
  ``max_sequence_length`` (checked first, before the mesh).
- ``data/data_loader.py:201-205, 636-639``: the rank batch is ``global_batch_size // dp_world_size`` tokens and must
  be a multiple of the data's sequence length.
- ``train_module.py:283-289`` ``pre_train``: ``global_batch_size`` must divide by ``rank_microbatch_size · d``;
  ``:430-440`` splits a rank batch into micro-batches of ``rank_microbatch_size // seq_len`` sequences.
  So B = G / L sequences, b = R / L, a = (G / d) / R.
- ``train/callbacks/batch_size_scheduler.py:41-80``: ``BatchSizeSchedulerCallback`` changes the global batch during the
  run (and the learning rate by √(new / old)); its schedule must start at 0, grow, and change by whole factors.
"""

from __future__ import annotations

import math
import re

from effbatch.core.configs.base.errors import CheckError, ProblemKind
from effbatch.core.configs.base.memory import MemoryFacts
from effbatch.core.configs.base.results import Check, Derivation, Phase, World
from effbatch.core.configs.base.rules import Effect, Nothing, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.values import Reading, fix, neighbours, whole
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.read.python import sites
from effbatch.core.configs.read.python.sites import Call, Script, Value

ID = "olmo_core"
DEFAULT_MAX_SEQUENCE_LENGTH = 4096  # olmo_core/internal/experiment.py:336 build_config(max_sequence_length=4096)
DP = "olmo_core/dp"  # d = GPUs / (PP · CP · TP)
SEQUENCES = "olmo_core/sequences"  # B = G / L
MICRO = "olmo_core/micro"  # b = R / L
ACCUMULATION = "olmo_core/accumulation"  # a = G / (d · R)
MICRO_MESSAGE = (
    "'rank_microbatch_size' ({micro:,d} tokens) must be divisible by 'max_sequence_length' ({length:,d} tokens)"
)
DEGREE_MESSAGE = "{config}.degree must be at least 1 and divide into the world size"
DP_REQUIRED_MESSAGE = "Data parallel config is required in addition to expert/tensor/context/pipeline parallel configs"
EXPERT_TP_MESSAGE = "expert parallelism is mutually exclusive with tensor parallism"
EXPERT_HSDP_MESSAGE = "expert parallelism can currently only be used with HSDP data parallelism"
HSDP_MESSAGE = "data parallel world size ({size}) must be divisible by '{setting}' ({value})"
RANK_MESSAGE = "rank batch size (in tokens) {rank} must be divisible by sequence length {length}"
GLOBAL_MESSAGE = (
    "global batch size ({gbs:,d}) must be divisible by micro-batch size ({micro:,d}) x DP world size ({dp})"
)
#: The parallel configs build_world_mesh divides the world by, in its order, by what their class names contain.
DEGREES = (("PipelineParallelConfig", "pp"), ("ContextParallelConfig", "cp"), ("TensorParallelConfig", "tp"))
_OLMO_CORE = re.compile(r"^[ \t]*(?:from|import)[ \t]+olmo_core\b", re.MULTILINE)


@context
class MicroMultiple:
    micro: int
    length: int


@context
class Degree:
    config: str
    degree: int
    size: int


@context
class Shards:
    setting: str
    value: int
    size: int


@context
class RankBatch:
    rank: int
    length: int
    data_parallel: int


@context
class GlobalDivisor:
    gbs: int
    micro: int
    data_parallel: int


@context
class Tokens:
    gbs: int
    length: int


@context
class Change:
    statement: str
    line: int


@context
class ChangedRefused:
    statement: str
    line: int
    micro: int
    gbs: int
    data_parallel: int


@context
class Schedule:
    phases: int


MICRO_MULTIPLE = Rule("olmo_core/microbatch-multiple-of-length", Effect.REFUSED, MicroMultiple)
DEGREE = Rule("olmo_core/degree-divides-world", Effect.REFUSED, Degree)
DP_REQUIRED = Rule("olmo_core/data-parallel-required", Effect.REFUSED, Nothing)
EXPERT_TP = Rule("olmo_core/expert-with-tensor-parallel", Effect.REFUSED, Nothing)
EXPERT_HSDP = Rule("olmo_core/expert-without-hsdp", Effect.REFUSED, Nothing)
HSDP = Rule("olmo_core/hsdp-degree", Effect.REFUSED, Shards)
RANK_BATCH = Rule("olmo_core/rank-batch-multiple-of-length", Effect.REFUSED, RankBatch)
GLOBAL = Rule("olmo_core/global-batch-divisible", Effect.REFUSED, GlobalDivisor)
TOKENS = Rule("olmo_core/global-batch-in-tokens", Effect.PITFALL, Tokens)
CHANGED = Rule("olmo_core/changed-at-run-time", Effect.PITFALL, Change)
CHANGED_REFUSED = Rule("olmo_core/changed-at-run-time-refused", Effect.PITFALL, ChangedRefused)
SCHEDULE_INVALID = Rule("olmo_core/batch-size-schedule-invalid", Effect.REFUSED, Nothing)
SCHEDULE = Rule("olmo_core/batch-size-schedule", Effect.NOTE, Schedule)
RULES = (
    MICRO_MULTIPLE,
    DEGREE,
    DP_REQUIRED,
    EXPERT_TP,
    EXPERT_HSDP,
    HSDP,
    RANK_BATCH,
    GLOBAL,
    TOKENS,
    CHANGED,
    CHANGED_REFUSED,
    SCHEDULE_INVALID,
    SCHEDULE,
)


def detect(parsed: Parsed) -> bool:
    """A Python script passing OLMo-core's own ``rank_microbatch_size``, or importing ``olmo_core`` and passing a
    ``global_batch_size`` (its checkpoint and data tools import it too, without batches)."""
    text = parsed.source.text
    return parsed.format is Format.PYTHON and (
        "rank_microbatch_size=" in text or ("global_batch_size=" in text and bool(_OLMO_CORE.search(text)))
    )


@context
class Sizes:
    """What the script passes, in tokens: G, R, the model's and the data's length."""

    gbs: int
    micro: int
    max_length: int
    length: int


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    parsed = next((p for p in sources if detect(p)), sources[0])
    reading = Reading(ID, pins)
    script = sites.read(parsed.source.text, parsed.source.name, parsed.python)
    sizes = _sizes(reading, parsed, script)
    world = reading.world(world)
    seq_len = sizes.length
    if sizes.gbs % seq_len:
        fixed = fix(parsed, "global_batch_size", *neighbours(sizes.gbs, seq_len))
        reading.add(TOKENS(Tokens(sizes.gbs, seq_len), fix=fixed))
    data_parallel, accepted = _refusals(reading, parsed, script, sizes, world.size)
    _changes(reading, script, sizes, data_parallel if accepted else None)
    micro = sizes.micro // seq_len if sizes.micro % sizes.max_length == 0 else 0
    if data_parallel is None or not accepted:
        return reading.finish(world, data_parallel=data_parallel, micro_batch=micro or None, seq_len=seq_len)
    batch, accumulation = sizes.gbs // seq_len, sizes.gbs // (data_parallel * sizes.micro)
    reading.step(SEQUENCES, (sizes.gbs, seq_len), batch)
    reading.step(MICRO, (sizes.micro, seq_len), micro)
    reading.step(ACCUMULATION, (sizes.gbs, data_parallel, sizes.micro), accumulation)
    reading.step(Derivation.T_PRODUCT, (batch, seq_len), batch * seq_len)
    return reading.finish(
        world,
        data_parallel=data_parallel,
        micro_batch=micro,
        accumulation=accumulation,
        global_batch=batch,
        seq_len=seq_len,
        schedule=_schedule(reading, parsed, script, seq_len),
        memory=_memory(parsed, script, data_parallel),
    )


#: ``TransformerConfig``'s factories (``nn/transformer/config.py``) of the models effbatch's table has; the
#: vocabulary is the tokenizer's, padded to 128 (``data/tokenizer.py:77``): dolma2 100.352 (``build_config``'s
#: default), gpt2 50.304.
FACTORIES = {
    "olmo2_7B": "olmo2-7b",
    "olmo2_13B": "olmo2-13b",
    "olmo2_32B": "olmo2-32b",
    "llama2_7B": "llama2-7b",
    "llama2_13B": "llama2-13b",
    "llama2_70B": "llama2-70b",
    "llama3_8B": "llama3.1-8b",
    "llama3_70B": "llama3.1-70b",
    "llama3_405B": "llama3.1-405b",
}
TOKENIZERS = {"dolma2": 100_352, "dolma2_sigdig": 100_352, "gpt2": 50_304}
#: GPUs a node, over which HSDP shards by default (``data_parallel.py:48``: one replica a node).
GPUS_PER_NODE = 8


def _memory(parsed: Parsed, script: Script, data_parallel: int) -> MemoryFacts | None:
    """``TransformerConfig.<factory>(vocab_size=…)`` with the tokenizer's vocabulary; ``TransformerDataParallelConfig``
    ``name`` fsdp or hsdp as ZeRO-3 (HSDP sharding within a node unless ``shard_degree``/``num_replicas`` say
    otherwise), ddp none; the TP, CP and PP degrees; ``TransformerActivationCheckpointingConfig(mode=…)``: ``full``;
    the partial modes (``selected_modules``, ``selected_blocks``, ``budget`` …) counted as full too, what they keep
    not counted (a lower bound, said so); none: every activation, no s × s scores – the convention's default."""
    factory = next((c for c in script.calls if c.callee.startswith("TransformerConfig.")), None)
    model = FACTORIES.get(factory.callee.rsplit(".", 1)[-1]) if factory is not None else None
    if factory is None or model is None:
        return None
    tokenizer = next((c.callee.rsplit(".", 1)[-1] for c in script.calls if c.callee.startswith("TokenizerConfig.")), "")
    degrees = {key: _plain_degree(script, part) for part, key in DEGREES}
    dp = next((c for c in script.calls if "DataParallelConfig" in c.callee and "Transformer" in c.callee), None)
    kind = dp.keywords["name"].written.rsplit(".", 1)[-1] if dp is not None and "name" in dp.keywords else "fsdp"
    ac = next((c for c in script.calls if "ActivationCheckpointingConfig" in c.callee and "mode" in c.keywords), None)
    mode = ac.keywords["mode"].written.rsplit(".", 1)[-1] if ac is not None else ""
    return MemoryFacts(
        rules="effbatch",
        where=f"{parsed.source.name}:{factory.line}",
        model=model,
        vocab=TOKENIZERS.get(tokenizer, TOKENIZERS["dolma2"]),
        tp=degrees["tp"],
        pp=degrees["pp"],
        cp=degrees["cp"],
        dtype="bf16",
        zero=0 if dp is None or kind == "ddp" else 3,
        replicas=_replicas(script, dp, kind, data_parallel),
        recompute="full" if mode else None,
        caveat="partial_recompute" if mode and mode != "full" else "",
    )


def _plain_degree(script: Script, part: str) -> int:
    """A parallel config's ``degree`` where it folds to a whole number, else 1 (read without recording it)."""
    call = next((c for c in script.calls if part in c.callee and "degree" in c.keywords), None)
    value = _local(script, {}, call, "degree") if call is not None else None
    return value.number if value is not None and value.number is not None and value.number >= 1 else 1


def _replicas(script: Script, dp: Call | None, kind: str, data_parallel: int) -> int:
    """HSDP's replicas: ``num_replicas``, or d / ``shard_degree``, or one a node of eight GPUs."""
    if dp is None or kind != "hsdp":
        return 1
    for key in ("num_replicas", "shard_degree"):
        value = _local(script, {}, dp, key)
        if value is not None and value.number and data_parallel % value.number == 0:
            return value.number if key == "num_replicas" else data_parallel // value.number
    return max(1, data_parallel // GPUS_PER_NODE)


def _refusals(reading: Reading, parsed: Parsed, script: Script, sizes: Sizes, world: int) -> tuple[int | None, bool]:
    """In the order OLMo-core meets them: the micro-batch at the train module's build, the mesh, the data loader,
    ``pre_train``. The DP world (None where the mesh refuses) and whether everything passed."""
    if sizes.micro % sizes.max_length:
        message = MICRO_MESSAGE.format(micro=sizes.micro, length=sizes.max_length)
        fixed = fix(parsed, "rank_microbatch_size", *neighbours(sizes.micro, sizes.max_length))
        reading.add(MICRO_MULTIPLE(MicroMultiple(sizes.micro, sizes.max_length), message=message, fix=fixed))
        return None, False
    data_parallel = _mesh(reading, parsed, script, world)
    if data_parallel is None:
        return None, False
    return data_parallel, _divisible(reading, parsed, sizes, data_parallel)


def _sizes(reading: Reading, parsed: Parsed, script: Script) -> Sizes:
    """G, R and the lengths as the script passes them; ``common.*`` from ``build_config``'s keywords."""
    builder = {
        name: value
        for call in script.calls
        if call.callee.endswith("build_config") or (call.callee == "partial" and call.first.endswith("build_config"))
        for name, value in call.keywords.items()
    }
    common = {f"common.{name}": value.number for name, value in builder.items() if value.number is not None}
    common.setdefault("common.max_sequence_length", DEFAULT_MAX_SEQUENCE_LENGTH)
    loader = _keyword(script, common, "global_batch_size", "DataLoaderConfig") or builder.get("global_batch_size")
    module = next((c for c in script.calls if "rank_microbatch_size" in c.keywords), None)
    if loader is None or module is None:
        # a ladder or SFT script that computes both at run time: there is nothing to read
        raise CheckError(ProblemKind.NOTHING_TO_CHECK, names=[parsed.source.name])
    gbs = _number(reading, parsed, "global_batch_size", loader)
    micro = _number(reading, parsed, "rank_microbatch_size", _local(script, common, module, "rank_microbatch_size"))
    length_value = _local(script, common, module, "max_sequence_length") or builder.get("max_sequence_length")
    max_length = (
        _number(reading, parsed, "max_sequence_length", length_value)
        if length_value is not None
        else DEFAULT_MAX_SEQUENCE_LENGTH
    )
    data = _keyword(script, common, "sequence_length", "DatasetConfig", "from_data_mix")
    length = _number(reading, parsed, "sequence_length", data) if data is not None else max_length
    return Sizes(gbs, micro, max_length, length)


def _keyword(script: Script, common: dict[str, int], name: str, *callees: str) -> Value | None:
    """The first ``name=`` keyword of a call whose callee names one of ``callees``, folded in its function."""
    call = next((c for c in script.calls if name in c.keywords and any(n in c.callee for n in callees)), None)
    return _local(script, common, call, name)


def _local(script: Script, common: dict[str, int], call: Call | None, name: str) -> Value | None:
    """A keyword's value folded with the constants, ``common.*``, its function's parameters and locals."""
    if call is None or name not in call.keywords:
        return None
    known = {**script.constants, **common, **script.parameters.get(call.function, {})}
    for local, value in script.assigned.get(call.function, {}).items():
        if local not in known and (number := sites.resolve(value, known).number) is not None:
            known[local] = number
    return sites.resolve(call.keywords[name], known)


def _number(reading: Reading, parsed: Parsed, key: str, value: Value | None, *, minimum: int | None = 1) -> int:
    """The whole number a keyword folds to, recorded with its line; ``CheckError`` naming it where it does not."""
    where = f"{parsed.source.name}:{value.line}" if value else parsed.source.name
    shown = value.number if value and value.number is not None else (value.written if value else None)
    reading.note(key, shown, where)
    return whole(shown, key, where, minimum=minimum)


def _changes(reading: Reading, script: Script, sizes: Sizes, data_parallel: int | None) -> None:
    """``rank_microbatch_size *= 2`` on B200 clusters, ``//= 2`` from 1.024 GPUs on: the script changes it itself;
    where the changed value would be refused on these GPUs, that is said."""
    for target, statement, line in script.changes:
        name = target.rsplit(".", 1)[-1]
        if name not in ("rank_microbatch_size", "global_batch_size"):
            continue
        changed = _apply(sizes.micro, statement) if name == "rank_microbatch_size" else None
        divisor = changed * data_parallel if changed and data_parallel else None
        if changed and divisor and (sizes.gbs % divisor or changed % sizes.max_length):
            context = ChangedRefused(statement, line, changed, sizes.gbs, data_parallel or 0)
            reading.add(
                CHANGED_REFUSED(context, message=GLOBAL_MESSAGE.format(gbs=sizes.gbs, micro=changed, dp=data_parallel))
            )
        else:
            reading.add(CHANGED(Change(statement, line)))


_IN_PLACE = re.compile(r"(\*|//)=\s*(\d{1,6})\s*$")


def _apply(value: int, statement: str) -> int | None:
    """``x *= 2`` or ``x //= 2`` applied to ``value``; None for anything else."""
    match = _IN_PLACE.search(statement)
    if match is None or int(match.group(2)) == 0:
        return None
    factor = int(match.group(2))
    return value * factor if match.group(1) == "*" else value // factor


def _mesh(reading: Reading, parsed: Parsed, script: Script, world: int) -> int | None:
    """``build_world_mesh``: the DP world, or None with the refusal."""
    degrees = {key: _degree(reading, parsed, script, part) for part, key in (*DEGREES, ("ExpertParallelConfig", "ep"))}
    dp_call = next((c for c in script.calls if "DataParallelConfig" in c.callee and "Transformer" in c.callee), None)
    if dp_call is None:
        if any(d is not None for d in degrees.values()):
            reading.add(DP_REQUIRED(Nothing(), message=DP_REQUIRED_MESSAGE))
            return None
        reading.step(DP, (world, 1, 1, 1), world)
        return world
    size = world
    for part, key in DEGREES:
        degree = degrees[key]
        if degree is not None and (degree < 1 or size % degree):
            config = f"Transformer{part}"
            message = DEGREE_MESSAGE.format(config=config)
            reading.add(DEGREE(Degree(config, degree, size), message=message))
            return None
        size //= degree or 1
    reading.step(DP, (world, degrees["pp"] or 1, degrees["cp"] or 1, degrees["tp"] or 1), size)
    return _data_parallel(reading, parsed, dp_call, degrees, (size, world, script.constants))


def _degree(reading: Reading, parsed: Parsed, script: Script, part: str) -> int | None:
    """A parallel config's ``degree`` (any sign: EP's -1 means "the shard degree")."""
    call = next((c for c in script.calls if part in c.callee and "degree" in c.keywords), None)
    if call is None:
        return None
    key = f"{call.callee.split('.')[0]}.degree"
    return _number(reading, parsed, key, _local(script, {}, call, "degree"), minimum=None)


def _data_parallel(
    reading: Reading, parsed: Parsed, call: Call, degrees: dict[str, int | None], sizes: tuple[int, int, dict[str, int]]
) -> int | None:
    """EP beside TP or without HSDP is refused; HSDP's shard degree and replicas must divide the DP world.
    ``sizes``: the DP world, the world and the script's constants (``get_world_size() // 64`` is read)."""
    size, world, constants = sizes
    hsdp = "hsdp" in (call.keywords["name"].written if "name" in call.keywords else "")
    if degrees["ep"] is not None and (degrees["ep"] == 0 or size % degrees["ep"]):
        config = "TransformerExpertParallelConfig"
        reading.add(DEGREE(Degree(config, degrees["ep"], size), message=DEGREE_MESSAGE.format(config=config)))
        return None
    if degrees["ep"] is not None and degrees["tp"] is not None:
        reading.add(EXPERT_TP(Nothing(), message=EXPERT_TP_MESSAGE))
        return None
    if degrees["ep"] is not None and not hsdp:
        reading.add(EXPERT_HSDP(Nothing(), message=EXPERT_HSDP_MESSAGE))
        return None
    for setting in ("num_replicas", "shard_degree") if hsdp else ():
        value = call.keywords.get(setting)
        if value is None or value.written == "None":
            continue
        number = _number(reading, parsed, setting, sites.resolve(value, constants, world=world))
        if size % number:
            message = HSDP_MESSAGE.format(size=size, setting=setting, value=number)
            reading.add(HSDP(Shards(setting, number, size), message=message))
            return None
    return size


def _divisible(reading: Reading, parsed: Parsed, sizes: Sizes, data_parallel: int) -> bool:
    """The data loader's rank batch, then ``pre_train``'s global batch; False with the refusal."""
    rank = sizes.gbs // data_parallel
    if rank % sizes.length:
        message = RANK_MESSAGE.format(rank=rank, length=sizes.length)
        fixed = fix(parsed, "global_batch_size", *neighbours(sizes.gbs, sizes.length * data_parallel))
        reading.add(RANK_BATCH(RankBatch(rank, sizes.length, data_parallel), message=message, fix=fixed))
        return False
    divisor = sizes.micro * data_parallel
    if sizes.gbs % divisor:
        message = GLOBAL_MESSAGE.format(gbs=sizes.gbs, micro=sizes.micro, dp=data_parallel)
        fixed = (
            fix(parsed, "rank_microbatch_size", math.gcd(rank, sizes.micro))  # a multiple of L that divides the rank
            if sizes.gbs % data_parallel == 0
            else fix(parsed, "global_batch_size", *neighbours(sizes.gbs, divisor))
        )
        reading.add(GLOBAL(GlobalDivisor(sizes.gbs, sizes.micro, data_parallel), message=message, fix=fixed))
        return False
    return True


def _schedule(reading: Reading, parsed: Parsed, script: Script, length: int) -> tuple[Phase, ...]:
    """``BatchSizeSchedulerCallback(batch_sizes=[…], schedule=[Duration.tokens(…), …])`` as phases in sequences."""
    call = next((c for c in script.called("BatchSizeSchedulerCallback")), None)
    if call is None or "batch_sizes" not in call.keywords or "schedule" not in call.keywords:
        return ()
    known = dict(script.constants)
    sizes = sites.numbers(call.keywords["batch_sizes"], known)
    starts, units = sites.durations(call.keywords["schedule"], known)
    reading.note("batch_sizes", call.keywords["batch_sizes"].written, f"{parsed.source.name}:{call.line}")
    reading.note("schedule", call.keywords["schedule"].written, f"{parsed.source.name}:{call.line}")
    if sizes is None or starts is None:
        return ()
    message = _schedule_refusal(sizes, starts, units)
    if message is not None:
        reading.add(SCHEDULE_INVALID(Nothing(), message=message))
        return ()
    reading.add(SCHEDULE(Schedule(len(sizes))))
    if units != {"tokens"}:
        return ()
    entries = [(start // length, size // length) for start, size in zip(starts, sizes, strict=True)]
    ends = [start for start, _ in entries[1:]] + [None]
    return tuple(
        Phase(start, batch, None if end is None else end - start)
        for (start, batch), end in zip(entries, ends, strict=True)
    )


def _schedule_refusal(sizes: list[int], starts: list[int], units: set[str]) -> str | None:
    """``BatchSizeSchedulerCallback.__post_init__``'s checks, in its order, with its messages."""
    if len(sizes) != len(starts):
        return "batch_sizes and schedules should have the same number of items"
    if len(units) > 1:
        return "batch size scheduler must use consistent units for all points in the schedule"
    if starts and starts[0] != 0:
        return "batch size schedule must start at 0"
    for (size, start), (later, later_start) in zip(
        zip(sizes, starts, strict=True), zip(sizes[1:], starts[1:], strict=True), strict=False
    ):
        if later_start <= start:
            return "subsequent events in the batch size schedule must be configured to occur after previous events"
        if later == size:
            return "invalid batch size schedule, duplicate batch size in schedule"
        if min(later, size) == 0:  # its own ``later % size`` (or ``size % later``) on a 0: Python's error
            return "integer modulo by zero"
        if max(later, size) % min(later, size):
            direction = "increased" if later > size else "decreased"
            return f"invalid batch size schedule, batch size can only be {direction} by an integer factor"
    return None
