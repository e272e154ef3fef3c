"""LLaMA-Factory's batch arithmetic (hiyouga/LLaMA-Factory at ff6d4d1, August 2026; run here as llamafactory 0.9.5,
its Megatron-Bridge and v1 paths lifted verbatim and executed).

The environment of ``llamafactory-cli train x.yaml`` chooses one of three paths, not the YAML:

- by default the Hugging Face Trainer (``_shared.hf_trainer``): B = per_device_train_batch_size ·
  gradient_accumulation_steps · world. ``launcher.py:57-66`` starts torchrun with ``NNODES`` (1) ×
  ``NPROC_PER_NODE`` (the GPUs the machine has) when ``FORCE_TORCHRUN=1`` or more than one GPU is visible.
- ``USE_MEGATRON_BRIDGE=1``: ``train/megatron_bridge/config_builder.py:396-417``
  ``global = mbs · GA · world // (TP · PP · CP · EP)``, at least mbs; Megatron then runs a = global // (mbs · d)
  with d = world / (TP · PP · CP): dividing by EP, which Megatron's d does not exclude, trains an EP times
  smaller batch, and refuses where GA is no multiple of EP. ``hparams/parser.py:336-349`` first refuses a
  parallel size that exceeds or does not divide the world. Without the variable a YAML with Megatron-Bridge
  keys is refused by HfArgumentParser for its unknown keys.
- ``USE_MCA=1`` (``examples/megatron/``): the batch is counted inside the external mcore_adapter package, which
  effbatch does not read (said as a note, no batch given).
- ``USE_V1=1``: ``v1/core/utils/batching.py:184-195`` ``micro_batch_size`` (1) and ``global_batch_size``
  (None: dp · micro), a = global // dp // micro, refused where not whole; dp = world // cp_size
  (``v1/accelerator/interface.py:88-99``).

The sequence length is ``cutoff_len`` (2048, ``hparams/data_args.py:46-49``); ``packing: true`` or
``neat_packing: true`` makes it ``cutoff_len - 1`` (``data_args.py:185-189``); ``stage: pt`` packs by default
(``parser.py:645``, after that, so its cutoff_len stays). ``neat_packing`` outside SFT is refused (``parser.py:421``).
"""

from __future__ import annotations

from typing import Any

from effbatch.core.configs.base.results import Check, Derivation, World
from effbatch.core.configs.base.rules import Effect, Nothing, Rule, context
from effbatch.core.configs.base.source import Format, Parsed
from effbatch.core.configs.base.tokens import finish_with_tokens
from effbatch.core.configs.base.values import Reading, fix, lookup, neighbours
from effbatch.core.configs.base.versions import Pins
from effbatch.core.configs.base.world import program_flags
from effbatch.core.configs.frameworks._shared import hf_trainer, megatron_core, parser_fields

ID = "llamafactory"
NEAT_PACKING_MESSAGE = "`neat_packing` cannot be set as True except SFT."
EXCEEDS_MESSAGE = "Total Megatron Bridge parallel size ({parallel}) exceeds `world_size` ({world})."
DIVIDE_MESSAGE = "Total Megatron Bridge parallel size ({parallel}) must divide `world_size` ({world})."
UNUSED_MESSAGE = "Some keys are not used by the HfArgumentParser: {keys}"
V1_GLOBAL_MESSAGE = (
    "Global batch size must be divisible by DP size and micro batch size. Got {gbs} % ({dp} * {micro}) != 0."
)
V1_CP_MESSAGE = "world_size ({world}) must be divisible by cp_size ({cp})."
DEFAULT_CUTOFF = 2048
OWN_KEYS = {"finetuning_type", "template", "cutoff_len", "lora_target", "neat_packing", "dataset_dir"}
STAGES = ("pt", "sft", "rm", "ppo", "dpo", "kto")  # hparams/finetuning_args.py
V1_KEYS = {"model_class", "dist_config", "train_dataset"}
BRIDGE_KEYS = (
    "tensor_model_parallel_size",
    "pipeline_model_parallel_size",
    "context_parallel_size",
    "expert_model_parallel_size",
)
#: Keys only the Megatron-Bridge path reads (hparams/megatron_bridge_args.py), not MCA's.
BRIDGE_ONLY = ("use_packed_sequences", "export_hf_on_finish", "megatron_pretrained_checkpoint")
CUTOFF = "llamafactory/cutoff"  # L = cutoff_len - 1
BRIDGE_GLOBAL = "llamafactory/bridge_global"  # global = max(mbs · GA · world // (TP · PP · CP · EP), mbs)
V1_DATA_PARALLEL = "llamafactory/v1_dp"  # dp = world // cp_size
DYNAMIC = ("dynamic_batching", "dynamic_padding_free")


@context
class Cutoff:
    cutoff: int
    real: int


@context
class Parallel:
    parallel: int
    world: int


@context
class Expert:
    expert: int
    accumulation: int
    real: int


@context
class Keys:
    keys: str


@context
class V1Global:
    gbs: int
    data_parallel: int
    micro: int


@context
class Dynamic:
    strategy: str
    budget: int


@context
class Argument:
    argument: str
    known: str
    pinned: str


#: ``_parse_train_args`` (``hparams/parser.py``): HfArgumentParser over these dataclasses, ``parse_dict`` with
#: ``allow_extra_keys`` only where ``ALLOW_EXTRA_ARGS`` is set; TrainingArguments extends transformers'
#: Seq2SeqTrainingArguments (before it had its own, the parser took that class itself).
PARSED = [
    ("llamafactory", name)
    for name in ("ModelArguments", "DataArguments", "TrainingArguments", "FinetuningArguments", "GeneratingArguments")
] + [("transformers", "Seq2SeqTrainingArguments")]
#: The transformers releases any LLaMA-Factory release installs with (0.9.5's METADATA: ``transformers>=4.55.0,
#: <=5.6.0``; older ones ask for older), where no file pins transformers itself.
TRANSFORMERS_BOUND = "<=5.6.0"
#: A key no release of these dataclasses has (another trainer's): every release refuses it.
UNKNOWN_KEYS = Rule("llamafactory/unknown-keys", Effect.REFUSED, Keys)
#: A key some releases have, none the pins allow.
KEY_NOT_TAKEN = Rule("llamafactory/key-not-taken", Effect.REFUSED, Argument)
#: A key some releases the pins allow have, and others not.
KEY_BY_RELEASE = Rule("llamafactory/key-by-release", Effect.PITFALL, Argument)
NEAT_PACKING = Rule("llamafactory/neat-packing-outside-sft", Effect.REFUSED, Nothing)
PACKING_CUTOFF = Rule("llamafactory/packing-cutoff", Effect.NOTE, Cutoff)
PRETRAIN_PACKING = Rule("llamafactory/pretrain-packs", Effect.NOTE, Nothing)
EXCEEDS = Rule("llamafactory/megatron-bridge-parallel-exceeds", Effect.REFUSED, Parallel)
DIVIDE = Rule("llamafactory/megatron-bridge-parallel-divisible", Effect.REFUSED, Parallel)
DIVIDES_BY_EP = Rule("llamafactory/megatron-bridge-divides-by-ep", Effect.CHANGED, Expert)
BRIDGE_DIVISIBLE = Rule("llamafactory/megatron-bridge-global-batch-divisible", Effect.REFUSED, megatron_core.Divisor)
BRIDGE_ENV = Rule("llamafactory/megatron-bridge-needs-env", Effect.NOTE, Nothing)
MCA = Rule("llamafactory/mca-not-read", Effect.NOTE, Nothing)
FROM_MACHINE = Rule("llamafactory/world-from-machine", Effect.PITFALL, Nothing)
UNUSED = Rule("llamafactory/unused-keys", Effect.REFUSED, Keys)
V1_GLOBAL = Rule("llamafactory/v1-global-batch-divisible", Effect.REFUSED, V1Global)
V1_CP = Rule("llamafactory/v1-cp-divisible", Effect.REFUSED, Parallel)
V1_DYNAMIC = Rule("llamafactory/v1-token-budget", Effect.PITFALL, Dynamic)
RULES = (
    NEAT_PACKING,
    PACKING_CUTOFF,
    PRETRAIN_PACKING,
    EXCEEDS,
    DIVIDE,
    DIVIDES_BY_EP,
    BRIDGE_DIVISIBLE,
    BRIDGE_ENV,
    MCA,
    FROM_MACHINE,
    UNUSED,
    V1_GLOBAL,
    V1_CP,
    V1_DYNAMIC,
    UNKNOWN_KEYS,
    KEY_NOT_TAKEN,
    KEY_BY_RELEASE,
)


def detect(parsed: Parsed) -> bool:
    """A LLaMA-Factory YAML: ``stage`` beside its own keys (``template``, ``cutoff_len`` …), or a v1 YAML; or a
    ``llamafactory-cli train --stage … --template …`` line that passes them as flags."""
    if parsed.format is Format.SHELL:
        return detect(_flags_as_config(parsed)) if environment([parsed])[1] else False
    if parsed.format not in (Format.YAML, Format.JSON):
        return False
    keys = set(parsed.data)
    return (parsed.data.get("stage") in STAGES and bool(OWN_KEYS & keys)) or (
        "micro_batch_size" in keys and bool(V1_KEYS & keys)
    )


def check(sources: list[Parsed], world: World | None, pins: Pins) -> Check:
    parsed = next((p for p in sources if detect(p)), sources[0])
    if parsed.format is Format.SHELL:
        parsed = _flags_as_config(parsed)
    reading = Reading(ID, pins)
    env, line = environment(sources)
    world = world or _launched(env, line)
    if line and "NPROC_PER_NODE" not in env and _visible(env) is None:
        reading.add(FROM_MACHINE(Nothing()))
    path = _path(parsed, env, line)
    if path == "v1":
        return _v1(reading, parsed, world)
    megatron_keys = sorted(key for key in parsed.data if key in (*BRIDGE_KEYS, *BRIDGE_ONLY))
    if path == "hf" and megatron_keys and line:
        reading.add(UNUSED(Keys(str(megatron_keys)), message=UNUSED_MESSAGE.format(keys=megatron_keys)))
        return reading.finish(world)
    seq_len = _cutoff(reading, parsed)
    if any(finding.effect is Effect.REFUSED for finding in reading.findings):
        return reading.finish(world, seq_len=seq_len)
    if path == "mca":
        reading.add(MCA(Nothing()))
        return reading.finish(world, micro_batch=reading.value(parsed, hf_trainer.PER_DEVICE), seq_len=seq_len)
    if path == "bridge":
        if env.get("USE_MEGATRON_BRIDGE") != "1":
            reading.add(BRIDGE_ENV(Nothing()))
        return _bridge(reading, parsed, reading.world(world), seq_len)
    if env.get("ALLOW_EXTRA_ARGS", "0").lower() not in ("true", "1", "y"):  # extras.misc.is_env_enabled
        _strict_keys(reading, parsed, pins)
    return hf_trainer.trainer_batch(reading, sources, world, parsed).finish(reading, seq_len)


def _strict_keys(reading: Reading, parsed: Parsed, pins: Pins) -> None:
    """``parse_dict`` refuses the keys no field takes at the pinned releases, listing them sorted; a key some
    allowed releases take and others not is a warning naming both sides."""
    bounded = {**pins, "transformers": pins.get("transformers") or TRANSFORMERS_BOUND}
    refusal = parser_fields.keys_refused([str(key) for key in parsed.data], PARSED, bounded, known_only=False)
    unknown = [verdict.key for verdict in refusal.absent if not verdict.known]
    if unknown:
        reading.add(UNKNOWN_KEYS(Keys(", ".join(unknown)), message=refusal.message))
    if removed := [verdict for verdict in refusal.absent if verdict.known]:
        names = ", ".join(verdict.key for verdict in removed)
        known = "; ".join(f"{v.key}: {v.known}" if len(removed) > 1 else v.known for v in removed)
        reading.add(KEY_NOT_TAKEN(Argument(names, known, removed[0].pinned), message=refusal.message))
    for verdict in refusal.mixed:
        reading.add(KEY_BY_RELEASE(Argument(verdict.key, verdict.known, verdict.pinned)))


def _path(parsed: Parsed, env: dict[str, str], line: str) -> str:
    """The environment's choice (``cli.py``, ``hparams/parser.py:397-408``); without a launch line, the YAML's keys:
    Megatron-Bridge's own keys, else Megatron keys without them are an MCA config (``examples/megatron/``)."""
    keys = set(parsed.data)
    if env.get("USE_V1") == "1" or ("micro_batch_size" in keys and bool(V1_KEYS & keys)):
        return "v1"
    if env.get("USE_MCA") == "1":
        return "mca"
    if env.get("USE_MEGATRON_BRIDGE") == "1" or (not line and set(BRIDGE_ONLY) & keys):
        return "bridge"
    return "mca" if not line and set(BRIDGE_KEYS) & keys else "hf"


def environment(sources: list[Parsed]) -> tuple[dict[str, str], str]:
    """The variables a ``llamafactory-cli train`` line (or its script) sets, and where that line is."""
    for parsed in sources:
        if parsed.script is None:
            continue
        for command in parsed.script.commands:
            names = [word.rsplit("/", 1)[-1] for word in command.words]
            if ("llamafactory-cli" in names or "lmf" in names) and "train" in names:
                return dict(parsed.script.variables) | dict(command.env), f"{parsed.source.name}:{command.line}"
    return {}, ""


def _flags_as_config(parsed: Parsed) -> Parsed:
    """``llamafactory-cli train --stage sft --per_device_train_batch_size 4 …`` as the YAML it stands for: the same
    keys (``cli.py`` hands the flags to the same parser), each placed on its line."""
    data: dict[str, Any] = {}
    places: dict[str, str] = {}
    for flag, words in program_flags(parsed, ("--stage",)).items():
        key = flag.removeprefix("--").replace("-", "_")
        data[key] = words[0] if len(words) == 1 else " ".join(words) if words else True
        places[key] = parsed.where(flag)
    return Parsed(parsed.source, Format.YAML, data, places=places)


def _launched(env: dict[str, str], line: str) -> World | None:
    """``cli.py``: torchrun with ``NNODES`` (default 1) × ``NPROC_PER_NODE`` (default: the GPUs the process sees,
    ``CUDA_VISIBLE_DEVICES`` where set) when ``FORCE_TORCHRUN`` is set or more than one GPU is visible; else one
    process."""
    nodes, per_node = env.get("NNODES", "1"), env.get("NPROC_PER_NODE")
    visible = _visible(env)
    if per_node is None and visible is not None:
        if visible == 1 and env.get("FORCE_TORCHRUN", "0") not in ("1", "true", "True"):
            return World(1, f"CUDA_VISIBLE_DEVICES={env['CUDA_VISIBLE_DEVICES']}: ein Prozess, {line}")
        per_node = str(visible)
    if per_node is None or not per_node.isdigit() or not nodes.isdigit() or int(per_node) < 1 or int(nodes) < 1:
        return None
    return World(int(nodes) * int(per_node), f"NNODES {nodes} × NPROC_PER_NODE {per_node}, {line}")


def _visible(env: dict[str, str]) -> int | None:
    """The GPUs ``CUDA_VISIBLE_DEVICES`` leaves visible (None where it is not set, or only the run knows it)."""
    devices = env.get("CUDA_VISIBLE_DEVICES")
    if devices is None or "$" in devices or not devices.strip():
        return None
    return len([device for device in devices.split(",") if device.strip()])


def _cutoff(reading: Reading, parsed: Parsed) -> int | None:
    """``cutoff_len``, one less with ``packing``/``neat_packing`` (``data_args.py:185-189``); neat_packing needs SFT."""
    cutoff = reading.value(parsed, "cutoff_len") or DEFAULT_CUTOFF
    neat, packing = (reading.raw(parsed, key) is True for key in ("neat_packing", "packing"))
    stage = reading.raw(parsed, "stage")
    if neat and stage != "sft":
        reading.add(NEAT_PACKING(Nothing(), message=NEAT_PACKING_MESSAGE))
        return cutoff
    if neat or packing:
        reading.step(CUTOFF, (cutoff,), cutoff - 1)
        reading.add(PACKING_CUTOFF(Cutoff(cutoff, cutoff - 1)))
        return cutoff - 1
    if stage == "pt" and lookup(parsed.data, "packing") is None:
        reading.add(PRETRAIN_PACKING(Nothing()))
    return cutoff


def _bridge(reading: Reading, parsed: Parsed, world: World, seq_len: int | None) -> Check:
    """``_compute_train_schedule`` and Megatron's calculator on its result."""
    micro = reading.value(parsed, hf_trainer.PER_DEVICE) or hf_trainer.DEFAULTS[hf_trainer.PER_DEVICE]
    accumulation = reading.value(parsed, hf_trainer.ACCUMULATION) or 1
    tp, pp, cp, ep = (reading.value(parsed, key) or 1 for key in BRIDGE_KEYS)
    parallel = tp * pp * cp * ep
    if parallel > world.size or world.size % parallel:
        rule, message = (EXCEEDS, EXCEEDS_MESSAGE) if parallel > world.size else (DIVIDE, DIVIDE_MESSAGE)
        reading.add(rule(Parallel(parallel, world.size), message=message.format(parallel=parallel, world=world.size)))
        return reading.finish(world, micro_batch=micro, seq_len=seq_len)
    gbs = max(micro * accumulation * world.size // parallel, micro)
    reading.step(BRIDGE_GLOBAL, (micro, accumulation, world.size, tp, pp, cp, ep), gbs)
    data_parallel = megatron_core.model_parallel(reading, world.size, tp, pp, cp, megatron_core.WORLD) or 1
    fixed = fix(parsed, hf_trainer.ACCUMULATION, accumulation * ep)
    steps = megatron_core.microbatches(reading, parsed, gbs, micro, data_parallel, BRIDGE_DIVISIBLE, fixed=fixed)
    intended = micro * accumulation * data_parallel
    if steps is not None and gbs != intended:
        reading.add(DIVIDES_BY_EP(Expert(ep, accumulation, steps), fix=fixed))
    return finish_with_tokens(
        reading,
        world,
        data_parallel=data_parallel,
        micro_batch=micro,
        accumulation=steps,
        global_batch=gbs if steps is not None else None,  # refused: no batch, so no T = B · L either
        seq_len=seq_len,
        intended=intended if gbs != intended else None,
    )


def _v1(reading: Reading, parsed: Parsed, given: World | None) -> Check:
    """v1's ``BatchGenerator``: dp = world // cp_size, a = global // dp // micro (global default dp · micro)."""
    micro = reading.value(parsed, "micro_batch_size") or 1
    gbs = reading.value(parsed, "global_batch_size")
    cp = reading.value(parsed, "cp_size") or 1
    seq_len = reading.value(parsed, "cutoff_len") or DEFAULT_CUTOFF
    world = reading.world(given)
    if world.size % cp:
        reading.add(V1_CP(Parallel(cp, world.size), message=V1_CP_MESSAGE.format(world=world.size, cp=cp)))
        return reading.finish(world, micro_batch=micro, seq_len=seq_len)
    data_parallel = world.size // cp
    reading.step(V1_DATA_PARALLEL, (world.size, cp), data_parallel)
    gbs = gbs or data_parallel * micro
    if gbs % (data_parallel * micro):
        message = V1_GLOBAL_MESSAGE.format(gbs=gbs, dp=data_parallel, micro=micro)
        fixed = fix(parsed, "global_batch_size", *neighbours(gbs, data_parallel * micro))
        reading.add(V1_GLOBAL(V1Global(gbs, data_parallel, micro), message=message, fix=fixed))
        return reading.finish(world, data_parallel=data_parallel, micro_batch=micro, seq_len=seq_len)
    strategy = reading.raw(parsed, "batching_strategy")
    if strategy in DYNAMIC:
        reading.add(V1_DYNAMIC(Dynamic(str(strategy), micro * seq_len)))
    accumulation = gbs // data_parallel // micro
    reading.step(Derivation.A_FROM_B, (gbs, micro, data_parallel), accumulation)
    reading.step(Derivation.T_PRODUCT, (gbs, seq_len), gbs * seq_len)
    return reading.finish(
        world,
        data_parallel=data_parallel,
        micro_batch=micro,
        accumulation=accumulation,
        global_batch=gbs,
        seq_len=seq_len,
    )
