"""torchtune's batch arithmetic (pytorch/torchtune at bd2a0fc, April 2026; run here as torchtune 0.6.1).

- ``torchtune/training/_distributed.py:79-90`` ``ParallelDims._validate``: ``data_parallel_shard_dim`` -1 is
  ``world // (dp_replicate * tp * cp)``, ``assert dp_shard >= 1``, and replicate · shard · TP · CP must be the
  world size ("Invalid parallel dims: …"). ``build_mesh`` (:112-125) flattens only replicate and shard into
  the "dp" mesh.
- ``recipes/full_finetune_distributed.py:181-188, 825-834``: the sampler splits the data over that dp mesh
  (``num_replicas=self.dp_degree``), ``batch_size`` a rank, and :1027 steps the optimizer every
  ``gradient_accumulation_steps`` batches: B = batch_size · d · a with d = world / (TP · CP). The recipe's
  docstring (:94) says "Total Batch Size = batch_size * number of GPUs * gradient accumulation steps", true
  only without TP and CP (run here: 2 × 8 GPUs with TP 8 and batch 4 train 8 sequences a step, not 64).
- :156-161 TP needs ``tensor_parallel_plan``; :228-232 ``optimizer_in_bwd`` refuses accumulation;
  ``torchtune/datasets/_alpaca.py:90-93`` (and the other builders) refuse ``packed`` without
  ``tokenizer.max_seq_len``; ``torchtune/_cli/run.py:206-210`` refuses torchrun options for a
  ``*_single_device`` recipe.
- The world size: ``tune run --nnodes N --nproc_per_node P RECIPE --config …`` (torchrun's options; none:
  one process), in a launch line or the header comment every shipped config carries; ``key=value`` after the
  config overrides it (``torchtune/config/_utils.py`` ``_merge_yaml_and_cli_args``), also on the lines a
  trailing backslash continues the command onto.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from effbatch.core.configs.base.results import Check, Derivation, World
from effbatch.core.configs.base.rules import Effect, Nothing, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Reading, fix, lookup, neighbours, whole, world_fix
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.base.words import split_words

ID = "torchtune"
DIMS_MESSAGE = "Invalid parallel dims: dp_replicate({replicate}) * dp_shard({shard}) * tp({tp}) != WORLD_SIZE({world})"
SHARD_MESSAGE = "assert dp_shard >= 1"
PLAN_MESSAGE = "Tensor Parallel plan needs to be provided when tensor parallel is enabled."
IN_BWD_MESSAGE = (
    "Gradient accumulation is not supported with optimizer in bwd.Please set gradient_accumulation_steps=1, or "
    "optimizer_in_bwd=False."
)
PACKED_MESSAGE = "PackedDataset requires a max_seq_len to be set on the tokenizer."
SINGLE_DEVICE_MESSAGE = (
    "tune run: error: Recipe {recipe} does not support distributed training.Please run without torchrun commands."
)
DATA_PARALLEL = "torchtune/data-parallel"  # d = dp_replicate · dp_shard = world / (TP · CP)
#: A ``tune run`` line with the lines a backslash before the newline continues it onto (bash joins them).
_TUNE_RUN = re.compile(r"\btune run\s+((?:[^\n]*\\\r?\n)*[^\n]+)$", re.MULTILINE)
_CONTINUATION = re.compile(r"\\\r?\n")
_OVERRIDE = re.compile(r"([A-Za-z_][\w.]*)=(.+)")
#: torchrun's options that take no value.
_SWITCHES = frozenset({"--standalone", "--no-python", "--no_python", "--run-path", "--run_path", "-m", "--module"})


@context
class Dims:
    world: int
    product: int


@context
class Docstring:
    world: int
    tp: int
    cp: int
    data_parallel: int
    docstring: int
    real: int


@context
class InBackward:
    accumulation: int


@context
class SingleDevice:
    recipe: str
    world: int


@context
class TuneRun:
    """What a ``tune run`` line says: the recipe, the processes its torchrun options start, where, and the
    ``key=value`` overrides after ``--config``."""

    recipe: str
    world: int
    distributed: bool
    where: str
    overrides: dict[str, str]


@dataclass
class Values:
    """The recipe's values as torchtune's config parser merges them: an override on the tune run line wins."""

    reading: Reading
    parsed: Parsed
    run: TuneRun | None

    def get(self, key: str, *, minimum: int | None = 1) -> int | None:
        """The whole number at ``key`` (recorded with where it was written); None when absent."""
        if self.run is None or key not in self.run.overrides:
            return self.reading.value(self.parsed, key, minimum=minimum)
        value, where = self.run.overrides[key], self.run.where
        if not any(read.key == key and read.where == where for read in self.reading.read):
            self.reading.note(key, value, where)
        return whole(value, key, where, minimum=minimum)


PARALLEL_DIMS = Rule("torchtune/parallel-dims", Effect.REFUSED, Dims)
DOCSTRING = Rule("torchtune/data-parallel-excludes-tp-cp", Effect.PITFALL, Docstring)
PLAN = Rule("torchtune/tensor-parallel-plan", Effect.REFUSED, Nothing)
IN_BWD = Rule("torchtune/optimizer-in-bwd-accumulation", Effect.REFUSED, InBackward)
PACKED = Rule("torchtune/packed-without-max-seq-len", Effect.REFUSED, Nothing)
SINGLE_DEVICE = Rule("torchtune/single-device-recipe-distributed", Effect.REFUSED, SingleDevice)
NO_LENGTH = Rule("torchtune/no-max-seq-len", Effect.NOTE, Nothing)
RULES = (PARALLEL_DIMS, DOCSTRING, PLAN, IN_BWD, PACKED, SINGLE_DEVICE, NO_LENGTH)


def detect(parsed: Parsed) -> bool:
    """A recipe YAML: ``_component_: torchtune.…`` sections, ``batch_size`` and ``gradient_accumulation_steps``.

    Without the accumulation key it is no training recipe (eleuther_eval's and generate's ``batch_size`` is
    an evaluation batch), and without ``_component_`` no torchtune file (Hydra writes ``_target_``).
    """
    data = parsed.data
    own = any(str(lookup(data, f"{key}._component_") or "").startswith("torchtune.") for key in data)
    return parsed.format is Format.YAML and own and {"batch_size", "gradient_accumulation_steps"} <= set(data)


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    parsed = next((p for p in sources if detect(p)), sources[0])
    reading, run = Reading(ID, pins), _tune_run(sources)
    values = Values(reading, parsed, run)
    batch_size = values.get("batch_size") or 1
    accumulation = values.get("gradient_accumulation_steps") or 1
    seq_len = values.get("tokenizer.max_seq_len")
    _refusals(reading, parsed, accumulation, seq_len)
    if run is not None and run.distributed and run.recipe.endswith("_single_device"):
        message = SINGLE_DEVICE_MESSAGE.format(recipe=run.recipe)
        reading.add(SINGLE_DEVICE(SingleDevice(run.recipe, run.world), message=message))
    if world is None and run is not None:
        world = World(run.world, run.where)
    world = reading.world(world)
    data_parallel = _data_parallel(values, world.size)
    if data_parallel is None:
        return reading.finish(world, micro_batch=batch_size, accumulation=accumulation, seq_len=seq_len)
    batch = batch_size * data_parallel * accumulation
    reading.step(Derivation.B_PRODUCT, (batch_size, data_parallel, accumulation), batch)
    if data_parallel != world.size:
        tp, cp = (values.get(key) or 1 for key in ("tensor_parallel_dim", "context_parallel_dim"))
        docstring = batch_size * world.size * accumulation
        reading.add(DOCSTRING(Docstring(world.size, tp, cp, data_parallel, docstring, batch)))
    return finish_with_tokens(
        reading,
        world,
        data_parallel=data_parallel,
        micro_batch=batch_size,
        accumulation=accumulation,
        global_batch=batch,
        seq_len=seq_len,
    )


def _refusals(reading: Reading, parsed: Parsed, accumulation: int, seq_len: int | None) -> None:
    """What the recipe and the dataset builder refuse before any batch is drawn."""
    if lookup(parsed.data, "optimizer_in_bwd") is True and accumulation > 1:
        fixed = fix(parsed, "gradient_accumulation_steps", 1)
        reading.add(IN_BWD(InBackward(accumulation), message=IN_BWD_MESSAGE, fix=fixed))
    datasets = parsed.data.get("dataset")
    packed = any(
        isinstance(d, dict) and d.get("packed") is True
        for d in (datasets if isinstance(datasets, list) else [datasets])
    )
    if seq_len is None:
        reading.add(PACKED(Nothing(), message=PACKED_MESSAGE) if packed else NO_LENGTH(Nothing()))


def _data_parallel(values: Values, world: int) -> int | None:
    """``ParallelDims``: shard -1 is the rest of the world; the product of all four must be the world size."""
    reading = values.reading
    tp = values.get("tensor_parallel_dim") or 1
    cp = values.get("context_parallel_dim") or 1
    replicate = values.get("data_parallel_replicate_dim") or 1
    shard = values.get("data_parallel_shard_dim", minimum=-1) or -1
    if tp > 1 and lookup(values.parsed.data, "tensor_parallel_plan") is None:
        reading.add(PLAN(Nothing(), message=PLAN_MESSAGE))
    if shard < 0:
        shard = world // (replicate * tp * cp)
    product = replicate * shard * tp * cp
    if shard < 1 or product != world:
        message = (
            SHARD_MESSAGE if shard < 1 else DIMS_MESSAGE.format(replicate=replicate, shard=shard, tp=tp, world=world)
        )
        fixed = world_fix(*neighbours(world, replicate * tp * cp))
        reading.add(PARALLEL_DIMS(Dims(world, product), message=message, fix=fixed))
        return None
    reading.step(DATA_PARALLEL, (world, tp, cp), replicate * shard)
    return replicate * shard


def _tune_run(sources: list[Parsed]) -> TuneRun | None:
    """The first ``tune run`` line of the sources (a launch line, or the header comment of the config)."""
    for parsed in sources:
        for found in _TUNE_RUN.finditer(parsed.source.text):
            line = parsed.source.text.count("\n", 0, found.start()) + 1
            words = split_words(_CONTINUATION.sub(" ", found.group(1)))
            run = _read_run(words, f"tune run, {parsed.source.name}:{line}")
            if run is not None:
                return run
    return None


def _read_run(words: list[str], where: str) -> TuneRun | None:
    """torchrun's options before the recipe (``--nnodes 2``, ``--nproc_per_node=8``), then the recipe."""
    options: dict[str, str] = {}
    index = 0
    while index < len(words) and words[index].startswith("-"):
        name, has_value, value = words[index].partition("=")
        if not has_value and name not in _SWITCHES and index + 1 < len(words):
            index += 1
            value = words[index]
        options[name.replace("-", "_").lstrip("_")] = value
        index += 1
    if index >= len(words):
        return None
    nodes, per_node = (_count(options.get(key, "1").rsplit(":", 1)[-1]) for key in ("nnodes", "nproc_per_node"))
    if nodes is None or per_node is None:
        return None
    found = (_OVERRIDE.fullmatch(word) for word in words[index + 1 :])
    overrides = {match.group(1): match.group(2) for match in found if match is not None}
    return TuneRun(words[index], nodes * per_node, bool(options), where, overrides)


def _count(text: str) -> int | None:
    return int(text) if text.isdigit() and int(text) > 0 else None
