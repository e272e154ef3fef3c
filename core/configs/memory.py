"""Memory per GPU for a checked run, where its files fix the model.

A framework's check says what its files fix (``MemoryFacts``: the model by name or shape, TP/PP/CP/EP, the ZeRO
stage, offloading, recomputation, sequence parallelism, the precision) and by whose convention the estimate goes
– Megatron-LM's ``theoretical_memory_usage.py`` for the Megatron family, DeepSpeed's ZeRO-2/3 estimators for a
DeepSpeed ZeRO config, effbatch's otherwise. Here the world, the micro-batch and the sequence length the check
found are added and ``core.memory`` estimates the most loaded GPU. Against a GPU (``--gpu``/``gpu=`` or the
config's own) a micro-batch that cannot fit is a warning, never an error: it is an estimate.

``core.memory`` is imported only here and only for a check with a model, so a check without one pays nothing.
"""

from __future__ import annotations

import re
from dataclasses import asdict, replace
from typing import TYPE_CHECKING

from effbatch.core.configs.base import (
    Check,
    CheckError,
    CheckMemory,
    Effect,
    Finding,
    MemoryFacts,
    ProblemKind,
    Rule,
    context,
)

if TYPE_CHECKING:
    from effbatch.core.memory import GpuSpec, ModelSpec, Setup
    from effbatch.core.memory.fit import Fit
    from effbatch.core.memory.setup import Framework


@context
class MicroBatch:
    micro: int
    largest: int
    accumulation: int
    gpu: str
    total_bytes: int
    capacity_bytes: int


@context
class States:
    gpu: str
    total_bytes: int
    states_bytes: int
    capacity_bytes: int


MICRO_BATCH = Rule("memory/micro-batch-does-not-fit", Effect.PITFALL, MicroBatch)
STATES = Rule("memory/does-not-fit", Effect.PITFALL, States)
RULES = (MICRO_BATCH, STATES)
#: Micro-batches tried below the largest that fits for one that divides b · a (B kept); 1 always does.
MAX_TRIED = 4096


def accelerator(name: str | None) -> GpuSpec | None:
    """The GPU ``--gpu``/``gpu=`` names; ``CheckError`` naming the known ones where it is none of them."""
    if not name:
        return None
    from effbatch.core.memory import GPUS, find_gpu

    found = find_gpu(name)
    if found is None:
        raise CheckError(ProblemKind.UNKNOWN_GPU, gpu=name[:40], gpus=", ".join(GPUS))
    return found


def with_memory(check: Check, gpu: GpuSpec | None = None) -> Check:
    """``check`` with the memory per GPU where the files fix the model, and a warning where it cannot fit on
    ``gpu`` (given) or the GPU the files name."""
    facts = check.memory_facts
    if facts is None or check.world is None or not check.micro_batch or check.refused:
        return check
    from effbatch.core.memory import find_gpu
    from effbatch.core.memory.capacity import usable
    from effbatch.core.memory.estimate import estimate
    from effbatch.core.memory.fit import fit

    resolved = _model(facts)
    if resolved is None:
        return check
    model, vocab, like = resolved
    gpus = max(1, check.world.size // facts.replicas)  # a replica's GPUs: what ZeRO shards over
    setup = _setup(facts, gpus, check.micro_batch, check.accumulation, check.seq_len)
    setup = replace(setup, framework=holder(check, facts))
    found = estimate(model, setup)
    named = gpu or (find_gpu(facts.gpu) if facts.gpu else None)
    fitted = fit(found, usable(named.name, named.memory)) if named else None
    gpu_from = "" if named is None else "given" if gpu else "config"
    memory = CheckMemory(facts, model, setup, found, named, fitted, vocab, like, gpu_from)
    findings = check.findings
    if named is not None and fitted is not None and not fitted.fits:
        findings = (*findings, _finding(memory, named, fitted))
    return replace(check, memory=memory, findings=findings)


#: The checked frameworks whose training state one of ``core.memory.holders`` models, by their check's id; the
#: Trainer family (transformers, Accelerate, Axolotl, LLaMA-Factory …) by what its files shard with.
_HOLDERS = {"torchtitan": "torchtitan", "olmo_core": "olmo_core"}
_JAX = frozenset({"maxtext", "levanter"})


#: A key only DeepSpeed's config has: the Trainer's run goes through DeepSpeed's engine (stage 0 too).
_DEEPSPEED_KEYS = frozenset({"train_micro_batch_size_per_gpu", "train_batch_size_per_gpu"})


def holder(check: Check, facts: MemoryFacts) -> Framework | None:
    """Who holds the checked run's training state: Megatron's family and DeepSpeed configs by the estimate's rules
    (or DeepSpeed's keys among those read: stage 0 and 1 run through its engine too), torchtitan and OLMo-core
    (its FSDP2 train module) by the check's id, the Trainer's family as the Trainer (FSDP through Accelerate, or
    DDP); None for JAX frameworks."""
    from effbatch.core.memory.setup import Framework

    framework = check.framework
    if framework in _JAX:
        return None
    if facts.rules in ("megatron", "deepspeed"):
        return Framework(facts.rules)
    if framework in _HOLDERS:
        return Framework(_HOLDERS[framework])
    if any(read.key in _DEEPSPEED_KEYS for read in check.read):
        return Framework.DEEPSPEED
    return Framework.HUGGINGFACE  # FSDP through Accelerate where its ``fsdp`` words shard, else DDP


def _setup(facts: MemoryFacts, gpus: int, micro: int, accumulation: int | None, seq_len: int | None) -> Setup:
    """The set-up the files fix, with the world, b, a and L the check found."""
    from effbatch.core.memory import Setup
    from effbatch.core.memory.setup import Dtype, Offload, Optimizer, Recompute, Rules

    return Setup(
        gpus=gpus,
        tp=facts.tp,
        pp=facts.pp,
        cp=facts.cp,
        sp=facts.sp,
        ep=facts.ep,
        etp=facts.etp,
        vpp=facts.vpp,
        micro_batch=micro,
        accumulation=accumulation,
        seq_len=seq_len,
        dtype=Dtype(facts.dtype) if facts.dtype else Dtype.BF16,
        zero=facts.zero,
        distributed_optimizer=facts.distributed_optimizer,
        optimizer=Optimizer(facts.optimizer),
        grad_sync=Dtype(facts.grad_sync) if facts.grad_sync else None,
        optim_dtype=Dtype(facts.optim_dtype) if facts.optim_dtype else None,
        fp8_params=facts.fp8_params,
        offload=Offload(facts.offload),
        recompute=Recompute(facts.recompute) if facts.recompute else None,
        sequence_parallel=facts.sequence_parallel,
        rules=Rules(facts.rules),
    )


def _model(facts: MemoryFacts) -> tuple[ModelSpec, str, str] | None:
    """The model estimated, where the vocabulary came from, and the table model whose it is: a name the table
    knows, or the shape (its vocabulary, else a table model's of the same shape, else none)."""
    from effbatch.core.memory import MODELS, ModelSpec, find_model

    if facts.model is not None:
        named = find_model(facts.model) or find_model(_plain(facts.model))
        if named is not None and facts.vocab is not None and facts.vocab != named.vocab:
            named = replace(named, vocab=facts.vocab)
        return None if named is None else (named, "config", "")
    shape = facts.architecture
    if shape is None:
        return None
    if shape.vocab is not None:
        return ModelSpec(**asdict(shape)), "config", ""
    same = next(
        (row for row in MODELS.values() if _same_shape(row, ModelSpec(**asdict(replace(shape, vocab=0))))), None
    )
    if same is not None:
        return ModelSpec(**asdict(replace(shape, vocab=same.vocab))), "table", same.title
    return ModelSpec(**asdict(replace(shape, vocab=0))), "unknown", ""


#: What a Hugging Face id adds to a base model's name without changing its shape: ``Meta-`` before Llama,
#: ``-Instruct``, ``-Chat``, ``-hf``, ``-it``, ``-Base`` after it.
_VARIANT = re.compile(r"^meta-(?=llama)|(?:-(?:instruct|chat|hf|it|base))+$", re.IGNORECASE)


def _plain(name: str) -> str:
    """``meta-llama/Meta-Llama-3-8B-Instruct`` → ``Llama-3-8B``: the base model whose shape the variant has."""
    return _VARIANT.sub("", name.rsplit("/", 1)[-1])


def _same_shape(row: ModelSpec, model: ModelSpec) -> bool:
    keys = ("layers", "hidden", "heads", "kv_heads", "ffn", "swiglu", "experts", "moe_ffn")
    return all(getattr(row, key) == getattr(model, key) for key in keys)


def _finding(memory: CheckMemory, gpu: GpuSpec, fitted: Fit) -> Finding:
    """Not even b = 1 fits (or the model states alone do not); else the largest b that fits and keeps B whole."""
    found, setup = memory.estimate, memory.setup
    largest = fitted.largest_micro_batch
    if not largest:
        return STATES(States(gpu.title, found.total, found.model_states, fitted.capacity))
    per_replica = setup.micro_batch * (setup.accumulation or 1)
    smaller = next((b for b in range(largest, max(0, largest - MAX_TRIED), -1) if per_replica % b == 0), 1)
    shown = MicroBatch(setup.micro_batch, smaller, per_replica // smaller, gpu.title, found.total, fitted.capacity)
    setting = memory.facts.micro_setting
    return MICRO_BATCH(shown, fix=replace(setting, values=(smaller,)) if setting else None)
