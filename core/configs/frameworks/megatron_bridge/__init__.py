"""Megatron-Bridge's batch arithmetic (NVIDIA-NeMo/Megatron-Bridge at 067f987d, August 2026), and NeMo 2's recipes
(NVIDIA/NeMo ``nemo/collections/llm/recipes/``), both Python, read by the Python reader
(``core.configs.read.python.sites``), never run.

- A Bridge recipe is a function ``cfg = _pretrain_common()`` (or ``_sft_common``/``_peft_common``/``*_vlm``)
  followed by ``cfg.train.global_batch_size = …`` and the like; ``recipes/common.py`` gives the defaults (pretrain
  32 × 4096 with micro-batch 2; SFT/PEFT 128 × 2048, micro-batch 1, offline packing on; VLM 32 × 4096, micro-batch 2,
  in-batch packing). The function's name carries the GPU count it is laid out for (``…_2gpu_h100_bf16_config``).
- ``training/config.py:1013-1027`` ``get_data_parallel_size``: d = world / (TP · PP · CP); EP is not in the divisor.
- ``config.py:1574-1577``: with CP > 1 the model's sequence length must divide by 2 · CP.
- ``config.py:1600-1623``: offline-packed sequences need micro-batch 1; in-batch packing needs more than 1.
- ``config.py:1433-1442, 1473-1478``: the evaluation batch (the training one unless set) must divide by its
  micro-batch · d – this fires before megatron-core's calculator.
- ``training/initialize.py:115-122`` → megatron-core ``init_num_microbatches_calculator``: a = B / (b · d), or with
  ``decrease_batch_size_if_needed`` B floored to a multiple of b · d; ``rampup_batch_size`` [start, increment, samples].
- NeMo 2: ``run.Config(MockDataModule, seq_length=…, global_batch_size=…, micro_batch_size=…)`` (defaults 2048, 8, 4
  in ``gpt/data/mock.py``), ``run.Config(nl.MegatronStrategy, tensor_model_parallel_size=…)``,
  ``run.Config(nl.Trainer, devices=…, num_nodes=…)`` with the values the recipe passes to ``trainer(...)``;
  megatron-core's ``parallel_state.py:739-741`` refuses a world TP · PP · CP does not divide.
- NeMo 2 recipes used, not defined (``llm.llama3_8b.pretrain_recipe(…)`` then ``recipe.data.… = …``): ``recipe_use``;
  megatron-core's ``initialize_model_parallel`` then refuses a virtual pipeline size with PP 1 (after the world).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from effbatch.core.configs.base.errors import CheckError, ProblemKind
from effbatch.core.configs.base.memory import MemoryFacts
from effbatch.core.configs.base.results import Check, Derivation, Phase, World
from effbatch.core.configs.base.rules import Effect, Nothing, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.values import Reading, fix, neighbours
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.frameworks._shared import megatron_core
from effbatch.core.configs.frameworks._shared.megatron_core import Divisor, ModelParallel
from effbatch.core.configs.frameworks.megatron_bridge import recipe_use
from effbatch.core.configs.read.python import sites
from effbatch.core.configs.read.python.sites import Call, Script, Value

ID = "megatron_bridge"
#: The recipe bases of recipes/common.py and what they set: (global batch, micro-batch, length, packing).
BASES: Mapping[str, tuple[int, int, int, str]] = {
    "_pretrain_common": (32, 2, 4096, ""),
    "_sft_common": (128, 1, 2048, "offline"),
    "_peft_common": (128, 1, 2048, "offline"),
    "_sft_common_vlm": (32, 2, 4096, "in_batch"),
    "_peft_common_vlm": (32, 2, 4096, "in_batch"),
}
MOCK_DEFAULTS = {"seq_length": 2048, "global_batch_size": 8, "micro_batch_size": 4}  # nemo gpt/data/mock.py
PARALLEL = ("tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size")
#: NeMo 2's MegatronStrategy keywords and the trainer() parameters recipes pass them as.
NEMO2_PARALLEL = {
    "tensor_model_parallel_size": "tensor_parallelism",
    "pipeline_model_parallel_size": "pipeline_parallelism",
    "context_parallel_size": "context_parallelism",
}
WORLD_MESSAGE = (
    "world size ({world}) is not divisible by total_model_size (model_cfg.tensor_model_parallel_size={tp} * "
    "model_cfg.pipeline_model_parallel_size={pp} * model_cfg.context_parallel_size={cp})"
)
NEMO2_WORLD_MESSAGE = "world_size ({world}) is not divisible by {total}"
EVAL_MESSAGE = (
    "eval_global_batch_size ({gbs}) must be divisible by eval_micro_batch_size * eval_data_parallel_size "
    "({mbs} * {dp} = {product})"
)
CP_MESSAGE = "Sequence length must be divisible by 2 * context parallel size if context parallel is used."
PACKED_MESSAGE = (
    "Micro batch size should be 1 when training with packed sequence, but your micro batch size is {mbs}. \n"
    "The following config is equivalent to your current setting for a packed dataset. Please update your config to "
    "the following: \nSet micro batch size to 1 (currently {mbs})\nSet global batch size to {gbs_one} (currently "
    "{gbs}) \nSet packed sequence length to {packed_one} (currently {packed}) \nFor details please visit "
    "https://docs.nvidia.com/nemo-framework/user-guide/latest/sft_peft/packed_sequence.html"
)
IN_BATCH_MESSAGE = (
    "micro_batch_size should be greater than 1 when using enable_in_batch_packing=True. In-batch packing concatenates "
    "multiple sequences within a microbatch, so at least 2 sequences are required per micro-batch."
)
DECREASE_MESSAGE = (
    "decreasing batch size from {gbs} to {real}to keep divisiblity by micro_batch_size={mbs} * data_parallel_size={dp}"
)
INTERLEAVED_MESSAGE = "pipeline-model-parallel size should be greater than 1 with interleaved schedule"
_GPUS_IN_NAME = re.compile(r"_(\d{1,6})gpus?_")
_BRIDGE = re.compile(r"^[ \t]*(?:from|import)[ \t]+megatron\.bridge\b", re.MULTILINE)
_NEMO2 = re.compile(r"^[ \t]*(?:from|import)[ \t]+(?:nemo_run|nemo\b)", re.MULTILINE)


@context
class Sequence:
    seq_len: int
    cp: int


@context
class Packed:
    micro: int
    gbs: int
    packed: int


@context
class Packs:
    packed: int


@context
class Decreased:
    configured: int
    real: int
    divisor: int


@context
class Inherited:
    gbs: int
    seq_len: int
    base: str


@context
class NamedWorld:
    function: str
    world: int


@context
class FirstRecipe:
    function: str
    count: int


@context
class Rampup:
    start: int
    increment: int
    samples: int
    gbs: int


@context
class Nodes:
    default: int
    used: int


@context
class Interleaved:
    vpp: int
    pp: int


@context
class UnknownDefaults:
    recipe: str
    settings: str


WORLD = Rule("megatron_bridge/world-size-divisible", Effect.REFUSED, ModelParallel)
EVAL = Rule("megatron_bridge/eval-batch-divisible", Effect.REFUSED, Divisor)
GBS = Rule("megatron_bridge/global-batch-size-divisible", Effect.REFUSED, Divisor)
DECREASED = Rule("megatron_bridge/batch-size-decreased", Effect.CHANGED, Decreased)
CP_SEQUENCE = Rule("megatron_bridge/context-parallel-sequence-length", Effect.REFUSED, Sequence)
PACKED = Rule("megatron_bridge/packed-micro-batch", Effect.REFUSED, Packed)
IN_BATCH = Rule("megatron_bridge/in-batch-packing-micro-batch", Effect.REFUSED, Nothing)
PACKS = Rule("megatron_bridge/packed-sequences", Effect.NOTE, Packs)
INHERITED = Rule("megatron_bridge/inherited-global-batch-size", Effect.PITFALL, Inherited)
NAMED_WORLD = Rule("megatron_bridge/world-from-recipe-name", Effect.NOTE, NamedWorld)
FIRST = Rule("megatron_bridge/first-recipe-of-file", Effect.NOTE, FirstRecipe)
RAMPUP = Rule("megatron_bridge/rampup", Effect.NOTE, Rampup)
RAMPUP_PHASE = Rule("megatron_bridge/rampup-divisible", Effect.REFUSED, Divisor)
NODES = Rule("megatron_bridge/nemo2-num-nodes", Effect.PITFALL, Nodes)
INTERLEAVED = Rule("megatron_bridge/interleaved-needs-pipeline", Effect.REFUSED, Interleaved)
UNKNOWN = Rule("megatron_bridge/nemo2-recipe-defaults-unknown", Effect.NOTE, UnknownDefaults)
RULES = (
    WORLD,
    EVAL,
    GBS,
    DECREASED,
    CP_SEQUENCE,
    PACKED,
    IN_BATCH,
    PACKS,
    INHERITED,
    NAMED_WORLD,
    FIRST,
    RAMPUP,
    RAMPUP_PHASE,
    NODES,
    INTERLEAVED,
    UNKNOWN,
)


def detect(parsed: Parsed) -> bool:
    """A Bridge recipe (``megatron_core.bridge`` imported, or a recipe base called) or a NeMo 2 recipe with its data
    module or Megatron strategy; ``global_batch_size`` alone is OLMo-core's (in tokens) or anyone's."""
    if parsed.format is not Format.PYTHON:
        return False
    text = parsed.source.text
    bridge = bool(_BRIDGE.search(text)) or any(f"{base}()" in text for base in BASES)
    used = recipe_use.used(text)
    nemo2 = bool(_NEMO2.search(text)) and ("DataModule" in text or "MegatronStrategy" in text or used)
    return (bridge or nemo2) and "rank_microbatch_size" not in text


@context
class Plan:
    """What a recipe sets, defaults filled in: batches in sequences (packs where packed)."""

    gbs: int
    micro: int
    seq_len: int
    tp: int
    pp: int
    cp: int
    packing: str = ""
    packed: int = 0
    eval_gbs: int | None = None
    eval_micro: int | None = None
    decrease: bool = False
    rampup: tuple[int, ...] = ()
    vpp: int | None = None


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    parsed = next((p for p in sources if detect(p)), sources[0])
    reading = Reading(ID, pins)
    script = sites.read(parsed.source.text, parsed.source.name)
    uses = recipe_use.recipe_calls(script)
    use = uses[0] if uses else None
    nemo2 = bool(script.called("MockDataModule") or [c for c in script.calls if c.first.endswith("DataModule")])
    if use is not None:
        used = _used(reading, parsed, script, use, world)
        if used is None:
            return reading.finish(world)
        plan, world = used
    else:
        plan, world = _nemo2(reading, parsed, script, world) if nemo2 else _recipe(reading, parsed, script, world)
    template = NEMO2_WORLD_MESSAGE if nemo2 or use else WORLD_MESSAGE
    data_parallel = megatron_core.model_parallel(reading, world.size, plan.tp, plan.pp, plan.cp, WORLD, template)
    if data_parallel is not None and plan.vpp is not None and plan.pp <= 1:
        reading.add(INTERLEAVED(Interleaved(plan.vpp, plan.pp), message=INTERLEAVED_MESSAGE))
        data_parallel = None
    if data_parallel is None or not _validate(reading, parsed, plan, data_parallel):
        return reading.finish(world, data_parallel=data_parallel, micro_batch=plan.micro, seq_len=plan.seq_len)
    gbs, schedule = _batch(reading, parsed, plan, data_parallel)
    accumulation = None
    if gbs is not None:
        accumulation = megatron_core.microbatches(
            reading, parsed, gbs, plan.micro, data_parallel, GBS, "global_batch_size"
        )
    if accumulation is not None and gbs is not None:
        reading.step(Derivation.T_PRODUCT, (gbs, plan.seq_len), gbs * plan.seq_len)
    return reading.finish(
        world,
        data_parallel=data_parallel,
        micro_batch=plan.micro,
        accumulation=accumulation,
        global_batch=gbs if accumulation is not None else None,
        seq_len=plan.seq_len,
        schedule=schedule,
        intended=plan.gbs if gbs is not None and gbs != plan.gbs and not plan.rampup else None,
        memory=_memory(parsed, script, plan, nemo2),
    )


#: NeMo 2's model configs (``nemo/collections/llm/gpt/model/``) of the models effbatch's table has.
NEMO2_MODELS = {
    "Llama2Config7B": "llama2-7b",
    "Llama2Config13B": "llama2-13b",
    "Llama2Config70B": "llama2-70b",
    "Llama3Config8B": "llama3.1-8b",
    "Llama31Config8B": "llama3.1-8b",
    "Llama3Config70B": "llama3.1-70b",
    "Llama31Config70B": "llama3.1-70b",
    "Llama31Config405B": "llama3.1-405b",
    "MistralConfig7B": "mistral-7b",
    "MixtralConfig8x7B": "mixtral-8x7b",
    "DeepSeekV3Config": "deepseek-v3",
}
#: The GPU a Bridge recipe is laid out for, in its name (``llama3_8b_pretrain_2gpu_h100_bf16_config``).
_GPU_IN_NAME = re.compile(r"_(h100|h200|b200|a100|l40s|mi300x)_")
_HF_ID = re.compile(r"""from_hf_pretrained\(\s*(["'])([^"'\n]{1,200})\1""")


def _memory(parsed: Parsed, script: Script, plan: Plan, nemo2: bool) -> MemoryFacts | None:
    """The model a recipe builds – Bridge's ``AutoBridge.from_hf_pretrained("…")``, NeMo 2's ``Llama3Config8B`` … –
    with the plan's TP, PP, CP, the distributed optimizer both recipe families use (``_pretrain_common`` /
    ``_sft_common``, ``distributed_fused_adam_with_cosine_annealing``), ``sequence_parallel`` and
    ``recompute_granularity`` as written, the GPU a Bridge recipe's name is laid out for; by Megatron's convention.
    PEFT and VLM recipes have none."""
    if nemo2:
        model = next((NEMO2_MODELS[c.first] for c in script.calls if c.first in NEMO2_MODELS), None)
        line = next((c.line for c in script.calls if c.first in NEMO2_MODELS), 0)
        written = {k: v.written for c in script.calls if "MegatronStrategy" in c.first for k, v in c.keywords.items()}
    else:
        recipes = [(c.function, c.callee) for c in script.calls if c.callee in BASES and c.function]
        if not recipes or recipes[0][1] not in ("_pretrain_common", "_sft_common"):
            return None
        call = next((c for c in script.calls if c.function == recipes[0][0] and "from_hf_pretrained" in c.callee), None)
        lines = parsed.source.text.splitlines()
        found = _HF_ID.search(lines[call.line - 1]) if call is not None and call.line <= len(lines) else None
        model, line = (found.group(2), call.line) if found and call else (None, 0)
        written = {k.split(".")[-1]: v.written for k, v in script.assigned.get(recipes[0][0], {}).items()}
        if (named := _GPU_IN_NAME.search(recipes[0][0])) is not None:
            written["gpu"] = named.group(1)
    if model is None:
        return None
    recompute = written.get("recompute_granularity", "").strip("\"'")
    return MemoryFacts(
        rules="megatron",
        where=f"{parsed.source.name}:{line}",
        model=model,
        tp=plan.tp,
        pp=plan.pp,
        cp=plan.cp,
        dtype="bf16",
        distributed_optimizer=True,
        recompute=recompute if recompute in ("selective", "full") else "none",
        sequence_parallel=written.get("sequence_parallel") == "True" and plan.tp > 1,
        micro_setting=None if nemo2 else fix(parsed, "train.micro_batch_size", 1),
        gpu=written.get("gpu"),
    )


def _recipe(reading: Reading, parsed: Parsed, script: Script, world: World | None) -> tuple[Plan, World]:
    """The file's first recipe function: its base's defaults, then what it assigns (``cfg.train.…``)."""
    recipes = [(c.function, c.callee) for c in script.calls if c.callee in BASES and c.function]
    if not recipes:
        raise CheckError(ProblemKind.NOTHING_TO_CHECK, names=[parsed.source.name])
    function, base = recipes[0]
    if len({f for f, _ in recipes}) > 1:
        reading.add(FIRST(FirstRecipe(function, len({f for f, _ in recipes}))))
    known = {**script.constants, **script.parameters.get(function, {})}
    own = {key.split(".", 1)[-1]: value for key, value in script.assigned.get(function, {}).items()}
    assigned = _helpers(script, function, known) | own
    helpers = {k: v for c in script.calls if c.function == function for k, v in c.keywords.items()}
    gbs_default, micro_default, seq_default, packing = BASES[base]

    def number(key: str, default: int | None) -> int | None:
        value = assigned.get(key) or helpers.get(key.rsplit(".", 1)[-1])
        return default if value is None else _whole(reading, parsed, key, sites.resolve(value, known))

    gbs, micro = number("train.global_batch_size", gbs_default), number("train.micro_batch_size", micro_default)
    seq_len = number("dataset.seq_length", seq_default) or seq_default
    if "train.global_batch_size" not in assigned and base == "_pretrain_common":
        reading.add(INHERITED(Inherited(gbs_default, seq_len, f"{base}()")))
    flags = {key: assigned[key].written for key in assigned if key.startswith(("dataset.enable_", "train.decrease"))}
    packing = _packing(packing, flags)
    tp, pp, cp = (number(f"model.{key}", 1) or 1 for key in PARALLEL)
    plan = Plan(
        gbs or gbs_default,
        micro or micro_default,
        number("model.seq_length", seq_len) or seq_len,
        tp,
        pp,
        cp,
        packing=packing,
        packed=number("dataset.offline_packing_specs.packed_sequence_size", seq_default) or seq_default,
        eval_gbs=number("validation.eval_global_batch_size", None),
        eval_micro=number("validation.eval_micro_batch_size", None),
        decrease=flags.get("train.decrease_batch_size_if_needed") == "True",
        rampup=_rampup(assigned.get("train.rampup_batch_size"), known),
    )
    return plan, _named_world(reading, function, world)


def _rampup(value: Value | None, known: dict[str, int]) -> tuple[int, ...]:
    """``cfg.train.rampup_batch_size = [start, increment, samples]`` folded; () where absent or not foldable."""
    return tuple(sites.numbers(value, known) or ()) if value is not None else ()


def _helpers(script: Script, function: str, known: Mapping[str, int]) -> dict[str, Value]:
    """What the file's own helpers a recipe calls (``_apply_exaone45_common(cfg)``) assign, with what it passes."""
    assigned: dict[str, Value] = {}
    for call in script.calls:
        if call.function != function or call.callee == function or call.callee not in script.parameters:
            continue
        passed = {k: n for k, v in call.keywords.items() if (n := sites.resolve(v, known).number) is not None}
        inner = {**script.constants, **script.parameters[call.callee], **passed}
        for key, value in script.assigned.get(call.callee, {}).items():
            assigned.setdefault(key.split(".", 1)[-1], sites.resolve(value, inner))
    return assigned


def _packing(base: str, flags: Mapping[str, str]) -> str:
    """The base's packing unless the recipe switches it: ``offline``, ``in_batch`` or ``""``."""
    packing = base
    for key, kind in (("dataset.enable_offline_packing", "offline"), ("dataset.enable_in_batch_packing", "in_batch")):
        if flags.get(key) == "True":
            packing = kind
        elif flags.get(key) == "False" and packing == kind:
            packing = ""
    return packing


def _named_world(reading: Reading, function: str, world: World | None) -> World:
    """The world given or launched; else the GPU count the recipe's name carries (``…_16gpu_h100_…``)."""
    if world is not None:
        return reading.world(world)
    match = _GPUS_IN_NAME.search(f"_{function}_")
    if match is None or int(match.group(1)) < 1:
        return reading.world(None)
    size = int(match.group(1))
    reading.add(NAMED_WORLD(NamedWorld(function, size)))
    return reading.world(World(size, f"{function}()"))


def _nemo2(reading: Reading, parsed: Parsed, script: Script, world: World | None) -> tuple[Plan, World]:
    """NeMo 2: the data module's keywords, the strategy's and the trainer's with what the recipe passes on."""
    data = next(c for c in script.calls if c.first.endswith("DataModule") or c.callee.endswith("MockDataModule"))
    data_known = {**script.constants, **script.parameters.get(data.function, {})}
    seq_len, gbs, micro = (_of(reading, parsed, data, k, data_known, d) for k, d in MOCK_DEFAULTS.items())
    # the strategy in this file, else a shared trainer helper it passes the degrees to (llama3_8b.trainer(…))
    strategy = next((c for c in script.calls if "MegatronStrategy" in f"{c.callee} {c.first}"), None)
    helper = next((c for c in script.calls if "tensor_parallelism" in c.keywords), None)
    call = strategy or helper
    if call is None:
        raise CheckError(ProblemKind.NOTHING_TO_CHECK, names=[parsed.source.name])
    known = _passed(script, call.function)
    degrees = [_of(reading, parsed, call, key, known, known.get(alias, 1)) for key, alias in NEMO2_PARALLEL.items()]
    if strategy is None:
        degrees = [_of(reading, parsed, call, alias, known, 1) for alias in NEMO2_PARALLEL.values()]
    trainer = next((c for c in script.calls if c.first.endswith(".Trainer") or c.first == "Trainer"), helper)
    if world is None and trainer is not None:
        world = _trainer_world(reading, parsed, script, trainer)
    tp, pp, cp = degrees
    return Plan(gbs, micro, seq_len, tp, pp, cp), reading.world(world)


def _trainer_world(reading: Reading, parsed: Parsed, script: Script, trainer: Call) -> World | None:
    """num_nodes × devices (or num_gpus_per_node) as the recipe passes them; the trainer's own default noted."""
    known = _passed(script, trainer.function)
    names = ("num_nodes", "devices") if "devices" in trainer.keywords else ("num_nodes", "num_gpus_per_node")
    if not all(name in trainer.keywords or name in known for name in names):
        return None
    nodes, per_node = (_of(reading, parsed, trainer, name, known, known.get(name, 1)) for name in names)
    default = script.parameters.get(trainer.function, {}).get("num_nodes")
    if default is not None and default != nodes:
        reading.add(NODES(Nodes(default, nodes)))
    reading.step(Derivation.WORLD, (nodes, per_node), nodes * per_node)
    return World(nodes * per_node, f"num_nodes × devices, {parsed.source.name}:{trainer.line}")


def _of(reading: Reading, parsed: Parsed, call: Call, key: str, known: Mapping[str, int], default: int) -> int:
    """A keyword of ``call`` resolved with ``known``; ``default`` where it is not passed."""
    if key not in call.keywords:
        return default
    return _whole(reading, parsed, key, sites.resolve(call.keywords[key], known))


def _passed(script: Script, function: str) -> dict[str, int]:
    """A function's parameter defaults, overridden by what the first call of it passes (resolved in its caller)."""
    known = {**script.constants, **script.parameters.get(function, {})}
    caller = next((c for c in script.calls if c.callee == function), None)
    if caller is not None:
        outer = {**script.constants, **script.parameters.get(caller.function, {})}
        for key, value in caller.keywords.items():
            if (number := sites.resolve(value, outer).number) is not None:
                known[key] = number
    return known


_whole = recipe_use.whole_value


def _used(
    reading: Reading, parsed: Parsed, script: Script, call: Call, world: World | None
) -> tuple[Plan, World] | None:
    """A library recipe as the script leaves it; None (said) where a setting the batch needs is unknown."""
    use = recipe_use.read(reading, parsed, script, call)
    if (count := len(recipe_use.recipe_calls(script))) > 1:
        reading.add(FIRST(FirstRecipe(use.recipe, count)))
    if use.unknown:
        reading.add(UNKNOWN(UnknownDefaults(use.recipe, ", ".join(use.unknown))))
    values = use.values
    nodes, gpus = values.get("nodes"), values.get("gpus")
    if world is None and nodes is not None and gpus is not None:
        reading.step(Derivation.WORLD, (nodes, gpus), nodes * gpus)
        world = World(nodes * gpus, f"num_nodes × num_gpus_per_node, {parsed.source.name}:{use.line}")
    needed = [values.get(k) for k in ("gbs", "micro", "seq_len", "tp", "pp", "cp")]
    if any(v is None for v in needed):
        return None
    gbs, micro, seq_len, tp, pp, cp = (v or 1 for v in needed)
    return Plan(gbs, micro, seq_len, tp, pp, cp, vpp=values.get("vpp")), reading.world(world)


def _validate(reading: Reading, parsed: Parsed, plan: Plan, data_parallel: int) -> bool:
    """``ConfigContainer.validate`` in its order: CP and the length, packing and the micro-batch, the eval batch."""
    if plan.cp > 1 and plan.seq_len % (2 * plan.cp):
        fixed = fix(parsed, "seq_length", *neighbours(plan.seq_len, 2 * plan.cp))
        reading.add(CP_SEQUENCE(Sequence(plan.seq_len, plan.cp), message=CP_MESSAGE, fix=fixed))
        return False
    if plan.packing == "offline":
        if plan.micro > 1:
            halved = {"gbs_one": plan.gbs // plan.micro, "packed_one": plan.packed * plan.micro}
            # the framework's lines joined as one (its text breaks lines with "\n")
            message = " ".join(
                PACKED_MESSAGE.format(mbs=plan.micro, gbs=plan.gbs, packed=plan.packed, **halved).split()
            )
            fixed = fix(parsed, "micro_batch_size", 1)
            reading.add(PACKED(Packed(plan.micro, plan.gbs, plan.packed), message=message, fix=fixed))
            return False
        reading.add(PACKS(Packs(plan.packed)))
    if plan.packing == "in_batch" and plan.micro == 1:
        reading.add(IN_BATCH(Nothing(), message=IN_BATCH_MESSAGE, fix=fix(parsed, "micro_batch_size", 2)))
        return False
    eval_gbs, eval_micro = plan.eval_gbs or plan.gbs, plan.eval_micro or plan.micro
    divisor = eval_micro * data_parallel
    if eval_gbs % divisor:
        message = EVAL_MESSAGE.format(gbs=eval_gbs, mbs=eval_micro, dp=data_parallel, product=divisor)
        setting = "eval_global_batch_size" if plan.eval_gbs else "global_batch_size"
        fixed = fix(parsed, setting, *neighbours(eval_gbs, divisor))
        reading.add(EVAL(Divisor(eval_gbs, divisor), message=message, fix=fixed))
        return False
    return True


def _batch(reading: Reading, parsed: Parsed, plan: Plan, data_parallel: int) -> tuple[int | None, tuple[Phase, ...]]:
    """The batch the calculator runs: floored where ``decrease_batch_size_if_needed`` is set, a ramp's phases."""
    divisor = plan.micro * data_parallel
    if plan.decrease and plan.gbs % divisor and plan.gbs >= divisor:
        real = plan.gbs // divisor * divisor
        message = DECREASE_MESSAGE.format(gbs=plan.gbs, real=real, mbs=plan.micro, dp=data_parallel)
        reading.add(DECREASED(Decreased(plan.gbs, real, divisor), message=message))
        return real, ()
    if len(plan.rampup) != 3:
        return plan.gbs, ()
    start, increment, samples = plan.rampup
    reading.add(RAMPUP(Rampup(start, increment, samples, plan.gbs)))
    if start < 1 or increment < 1 or plan.gbs < start or (plan.gbs - start) % increment:
        message = megatron_core.RAMPUP_INTERVAL_MESSAGE.format(interval=plan.gbs - start, increment=increment)
        reading.add(RAMPUP_PHASE(Divisor(plan.gbs, increment), message=message))
        return None, ()
    increments = (plan.gbs - start) // increment
    bad = start if start % divisor else (start + increment if increment % divisor else None)
    if bad is not None and increments:
        message = megatron_core.RAMPUP_PHASE_MESSAGE.format(gbs=bad, mbs=plan.micro, dp=data_parallel)
        reading.add(RAMPUP_PHASE(Divisor(bad, divisor), message=message))
        return None, ()
    shown = [*range(min(increments, megatron_core.MAX_PHASES - 1)), increments]
    entries = [(-(-i * samples // increments) if increments else 0, start + i * increment) for i in shown]
    ends = [begin for begin, _ in entries[1:]] + [None]
    phases = tuple(
        Phase(begin, batch, None if end is None else end - begin)
        for (begin, batch), end in zip(entries, ends, strict=True)
    )
    return plan.gbs, phases
