"""Memory per GPU: weights, gradients, optimizer states, activations – by one convention, said which.

``effbatch`` (the default) and ``korthikanti`` count model states as the ZeRO paper does (Rajbhandari
et al. 2020, §3.1 and §5.1): mixed-precision Adam keeps 2 bytes of weights, 2 of gradients and
K = 12 of optimizer states (fp32 master weights, momentum, variance) a parameter – 16 in all; fp32
training 4 + 4 + 8. ZeRO stage 1 (and Megatron's distributed optimizer) splits the optimizer states over
the data-parallel group, stage 2 the gradients too, stage 3 (FSDP's full shard) the weights too, and
stage 3 gathers the largest layer's weights and gradients whole (2 · 2 bytes a parameter in bf16, the
4 · largest layer of DeepSpeed's estimator). Tensor, pipeline and expert parallelism split the model
first: the first pipeline stage holds 1/PP of the layers, the embedding and (PP = 1, untied) the output
layer. Offloading moves the optimizer states (and with ``params`` the weights) to the CPU.

``megatron`` and ``deepspeed`` follow those frameworks' own estimators (``core.memory.megatron``,
``core.memory.deepspeed``); ``deepspeed`` adds activations by effbatch's rules, as DeepSpeed gives none.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from effbatch.core.memory import activations, capacity, deepspeed, held, megatron
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Attention, Dtype, Framework, Offload, Recompute, Rules, Setup


class Quirk(StrEnum):
    """Something an estimate leaves out or takes as its source does, for the answer to say."""

    PARAMS_ONLY = "params_only"  # no shape: model states only, activations need it
    NEEDS_SEQ_LEN = "needs_seq_len"  # shape known, but no L: no activations
    MEGATRON_IGNORES_CP = "megatron_ignores_cp"
    MEGATRON_IGNORES_ULYSSES = "megatron_ignores_ulysses"
    MEGATRON_NO_FULL_RECOMPUTE = "megatron_no_full_recompute"
    MEGATRON_WITHOUT_SP_FORMULA = "megatron_without_sp_formula"
    MEGATRON_NO_ZERO = "megatron_no_zero"  # ZeRO 2/3 asked: Megatron's estimate knows its distributed optimizer
    MEGATRON_NO_OFFLOAD = "megatron_no_offload"
    DEEPSPEED_WHOLE_MODEL = "deepspeed_whole_model"  # TP/PP ignored: every GPU a share of the whole model
    DEEPSPEED_ACTIVATIONS = "deepspeed_activations"  # activations by effbatch's rules
    KORTHIKANTI_SHAPE = "korthikanti_shape"  # Table 2 assumes MLP 4h and full multi-head attention
    CONTEXT_SPLIT = "context_split"  # CP/SP: s divided, the attention's communication buffers not counted
    MOE = "moe"  # experts split over EP · TP, activations by top-k: rough
    LARGEST_LAYER_UNKNOWN = "largest_layer_unknown"  # ZeRO-3 with params= only: no gather buffer counted


@dataclass(frozen=True)
class MemoryEstimate:
    """Bytes on the most loaded GPU (the first pipeline stage; with ``framework=`` and PP > 1 the last one where it
    holds more) and, with offloading, in a node's CPU memory."""

    rules: Rules
    params: int
    params_per_gpu: int
    weights: int
    grads: int
    optimizer: int
    gather_buffer: int = 0
    activations: int | None = None
    activations_per_layer: int | None = None
    activations_per_sample: float | None = None
    cpu_per_node: int | None = None
    recompute: Recompute | None = None
    quirks: tuple[Quirk, ...] = ()
    framework: Framework | None = None
    attention: Attention | None = None
    #: The framework's own buffers (gathered units, reduce buckets, DDP's gradient buckets, autocast's copies).
    buffers: int = 0
    #: The loss's logits (part of ``activations``), where the framework's loss is counted.
    logits: int | None = None
    #: The caching allocator's reserve above the allocated peak (``core.memory.capacity``).
    reserve: int = 0
    #: CUDA context and NCCL buffers: outside PyTorch's counters.
    context: int = 0
    #: Every layer's K and V that Hugging Face's ``use_cache`` returns (part of ``activations``).
    kv_cache: int = 0
    #: The part of ``activations`` that does not grow with the micro-batch (autocast's weight copies).
    activations_fixed: int = 0
    #: Gradients and activations never held in full at once (``core.memory.held.overlap``): counted once, not twice.
    overlap: int = 0
    #: What the last pipeline stage allocates at its peak, where it is weighed against the first (PP > 1,
    #: ``Policy.last_stage_weighed``): the rank Megatron logs (``_framework``), whichever stage is fuller.
    last_stage: int | None = None
    #: Device memory the framework registers outside PyTorch's allocator (Transformer Engine's userbuffers).
    userbuffers: int = 0

    @property
    def model_states(self) -> int:
        """Weights + gradients + optimizer states (+ ZeRO-3's gathered layer, the framework's buffers) on one GPU:
        what does not grow with the micro-batch."""
        return self.weights + self.grads + self.optimizer + self.gather_buffer + self.buffers

    @property
    def total(self) -> int:
        """What PyTorch allocates at the peak (``torch.cuda.max_memory_allocated``'s figure): the states and the
        activations, less what of the gradients and the activations is never held at once."""
        return self.model_states + (self.activations or 0) - self.overlap

    @property
    def reserved(self) -> int:
        """What the caching allocator holds at the peak (``max_memory_reserved``'s figure)."""
        return self.total + self.reserve

    @property
    def device_total(self) -> int:
        """Everything on the GPU (nvidia-smi's figure): the reserved memory, the CUDA context, NCCL's buffers and
        the framework's own allocations outside PyTorch."""
        return self.reserved + self.context + self.userbuffers


def estimate(model: ModelSpec, setup: Setup) -> MemoryEstimate:
    """Memory per GPU for ``model`` trained as ``setup`` says, by ``setup.rules``; the config check's entry."""
    match setup.rules:
        case Rules.EFFBATCH if setup.framework is not None:
            found = _framework(model, setup)
        case Rules.MEGATRON:
            found = _megatron(model, setup)
        case Rules.DEEPSPEED:
            found = _deepspeed(model.total_params, model.largest_layer, setup)
            found = _with_activations(found, model, setup)
        case _:
            found = _with_activations(
                _zero_states(model.total_params, _shard(model, setup), setup, model), model, setup
            )
    quirks = (*found.quirks, *_common_quirks(model, setup))
    return _on_device(replace(found, quirks=tuple(dict.fromkeys(quirks))), setup)


def _on_device(found: MemoryEstimate, setup: Setup) -> MemoryEstimate:
    """The estimate with what PyTorch's counters miss: the allocator's reserve, the CUDA context and NCCL."""
    return replace(
        found,
        framework=setup.framework,
        attention=setup.attention_used,
        reserve=capacity.reserve(found.total),
        context=capacity.context(setup),
    )


def estimate_params(params: int, setup: Setup) -> MemoryEstimate:
    """Model states only, from a parameter count (``params=7B``): the shape is unknown, so no activations."""
    if setup.rules is Rules.DEEPSPEED:
        found = _deepspeed(params, setup.largest_layer or 0, setup)
    elif setup.rules is Rules.EFFBATCH and setup.framework is not None:
        shard = params / (setup.tp * setup.pp)
        found = _held_states(params, (shard, 0.0), (setup.largest_layer or 0) / setup.tp, setup)
    else:
        shard = params / (setup.tp * setup.pp)
        found = _zero_states(params, (shard, 0.0), setup, None)
    quirks = [Quirk.PARAMS_ONLY]
    if setup.zero == 3 and setup.largest_layer is None:
        quirks.append(Quirk.LARGEST_LAYER_UNKNOWN)
    return _on_device(replace(found, quirks=(*found.quirks, *quirks)), setup)


def _shard(model: ModelSpec, setup: Setup) -> tuple[float, float]:
    """(dense, expert) parameters on the first pipeline stage's GPU, after TP, PP and EP; the experts split over
    ETP · EP (megatron/core/transformer/moe/experts.py lines 210 and 1437: the experts' linear layers split over
    ``pg_collection.expt_tp``, the expert-TP group of ``--expert-tensor-parallel-size``)."""
    expert = model.expert_params_per_layer * model.moe_layers
    layers = (model.layer_params - expert) / setup.pp / setup.tp
    embeddings = model.embedding_params * (2 if not model.tied and setup.pp == 1 else 1) / setup.tp
    dense = layers + embeddings + model.positions * model.hidden
    return dense, expert / setup.pp / (setup.expert_tp * setup.ep)


def _state_bytes(dtype: Dtype) -> tuple[int, int, int]:
    """(weights, gradients, optimizer) bytes a parameter: mixed precision 2, 2, 12; fp32 4, 4, 8."""
    return (4, 4, 8) if dtype is Dtype.FP32 else (2, 2, 12)


def _zero_states(params: int, shard: tuple[float, float], setup: Setup, model: ModelSpec | None) -> MemoryEstimate:
    """The ZeRO paper's model states for the shard, split by the stage over the data-parallel group."""
    w, g, o = _state_bytes(setup.dtype)
    dense_group = setup.data_parallel * setup.cp
    groups = ((shard[0], dense_group), (shard[1], setup.expert_group))
    zero = max(setup.zero, 1 if setup.distributed_optimizer else 0)
    weights = sum(w * n / (group if zero >= 3 else 1) for n, group in groups)
    grads = sum(g * n / (group if zero >= 2 else 1) for n, group in groups)
    optimizer = sum(o * n / (group if zero >= 1 else 1) for n, group in groups)
    largest = setup.largest_layer or (model.largest_layer if model else 0)
    gather = 2 * setup.dtype.bytes * largest if zero >= 3 else 0
    offloaded = 0.0
    if setup.offload is not Offload.NONE:
        offloaded, optimizer = optimizer, 0.0
        if setup.offload is Offload.PARAMS and zero >= 3:
            offloaded, weights = offloaded + weights, 0.0
    return MemoryEstimate(
        rules=setup.rules,
        params=params,
        params_per_gpu=round(shard[0] + shard[1]),
        weights=round(weights),
        grads=round(grads),
        optimizer=round(optimizer),
        gather_buffer=gather,
        cpu_per_node=round(offloaded * setup.gpus_per_node) if setup.offload is not Offload.NONE else None,
    )


def _held_states(params: int, shard: tuple[float, float], unit: float, setup: Setup) -> MemoryEstimate:
    """The model states and buffers as ``setup.framework`` holds them (``core.memory.holders``)."""
    kept, _ = held.states(params, shard[0], shard[1], unit, setup)
    return MemoryEstimate(
        rules=setup.rules,
        params=params,
        params_per_gpu=round(shard[0] + shard[1]),
        weights=round(kept.weights),
        grads=round(kept.grads),
        optimizer=round(kept.optimizer),
        buffers=round(kept.buffers),
        cpu_per_node=round(kept.cpu * setup.gpus_per_node) if kept.cpu is not None else None,
        recompute=setup.recompute_used,
    )


def _framework(model: ModelSpec, setup: Setup) -> MemoryEstimate:
    """The most loaded GPU as ``setup.framework`` holds it: the first pipeline stage, or (where the framework's
    schedule was read: ``Policy.last_stage_weighed``) the last where its output weight, loss and logits outweigh
    the first stage's micro-batches in flight.

    Megatron logs the last rank's ``mem-max-allocated-bytes`` (megatron/training/global_vars.py line 241: the
    tensorboard writer only on ``rank == world_size - 1``): its toy GPT's 50k vocabulary makes that stage the
    fuller one, which the first stage alone missed by 30-50 %."""
    first = _stage(model, setup, _shard(model, setup), last=False)
    _, policy = held.states(model.total_params, 0.0, 0.0, 0.0, setup)
    if setup.pp == 1 or not setup.seq_len or not policy.last_stage_weighed:
        return first
    last = _stage(model, setup, _last_shard(model, setup), last=True)
    return replace(last if last.total > first.total else first, last_stage=last.total)


def _last_shard(model: ModelSpec, setup: Setup) -> tuple[float, float]:
    """(dense, expert) parameters on the last pipeline stage's GPU: its layers and the output layer.

    With tied embeddings Megatron's last stage still allocates its own copy of the word embeddings as the output
    weight (megatron/core/models/common/language_module/language_module.py lines 280-290:
    the last stage's ``output_layer.weight`` is zero-filled and all-reduced with the first stage's embedding, read
    at NVIDIA/Megatron-LM@d98e8a64); untied, the output layer is the last stage's anyway.
    """
    expert = model.expert_params_per_layer * model.moe_layers
    layers = (model.layer_params - expert) / setup.pp / setup.tp
    return layers + model.embedding_params / setup.tp, expert / setup.pp / (setup.expert_tp * setup.ep)


def _stage(model: ModelSpec, setup: Setup, shard: tuple[float, float], *, last: bool) -> MemoryEstimate:
    """States, buffers, the layers' saved tensors and the loss's logits of one stage as ``setup.framework`` keeps
    them: the first stage, or (``last``) the last one, which computes the loss."""
    found = _held_states(model.total_params, shard, held.unit(model, setup), setup)
    if not setup.seq_len:
        return found
    _, policy = held.states(model.total_params, shard[0], shard[1], 0.0, setup)
    layers, layer = held.layer_activations(model, setup, policy, last=last)
    loss = setup.pp == 1 or last
    logits = held.logits(model, setup, policy) if loss else 0.0
    copies = held.autocast_copies(sum(shard), setup, policy)
    sbh = setup.seq_len / (setup.cp * setup.sp) * setup.micro_batch * model.hidden
    embedding = 0.0 if last else 2 * sbh * setup.in_flight  # the embedding's output per micro-batch in flight
    edges = embedding + (4 * sbh / setup.tp if loss else 0.0)  # the final norm's
    cache = held.kv_cache(model, setup)
    total = layers + logits + edges + copies + cache
    return replace(
        found,
        overlap=round(held.overlap(found.grads, total, setup, policy)),
        kv_cache=round(cache),
        activations_fixed=round(copies),
        activations=round(total),
        activations_per_layer=round(layer),
        activations_per_sample=(total - copies) / setup.micro_batch,
        logits=round(logits) if loss else None,
        userbuffers=round(held.userbuffers(model, setup)),
    )


def _megatron(model: ModelSpec, setup: Setup) -> MemoryEstimate:
    """Megatron's report, split as its comment says: 2 bytes bf16 weights, 4 fp32 gradients, the rest optimizer."""
    found = megatron.report(model, setup)
    shard = found.params_on_most_loaded_shard
    total = round(found.weight_and_optimizer)
    weights, grads = round(2 * shard), round(4 * shard)
    act = round(found.activations) if setup.seq_len else None
    per_layer = round(megatron.per_layer(model, setup, found.with_sp_formula)) if setup.seq_len else None
    return MemoryEstimate(
        rules=Rules.MEGATRON,
        params=model.total_params,
        params_per_gpu=round(shard),
        weights=weights,
        grads=grads,
        optimizer=total - weights - grads,
        activations=act,
        activations_per_layer=per_layer,
        activations_per_sample=found.activations / setup.micro_batch if setup.seq_len else None,
        recompute=setup.recompute_used,
        quirks=_megatron_quirks(setup, found.with_sp_formula),
    )


def _megatron_quirks(setup: Setup, with_sp: bool) -> tuple[Quirk, ...]:
    quirks = [
        *((Quirk.MEGATRON_IGNORES_CP,) if setup.cp > 1 else ()),
        *((Quirk.MEGATRON_IGNORES_ULYSSES,) if setup.sp > 1 else ()),
        *((Quirk.MEGATRON_NO_FULL_RECOMPUTE,) if setup.recompute_used is Recompute.FULL else ()),
        *((Quirk.MEGATRON_NO_ZERO,) if setup.zero >= 2 else ()),
        *((Quirk.MEGATRON_NO_OFFLOAD,) if setup.offload is not Offload.NONE else ()),
    ]
    if not with_sp and setup.seq_len:
        quirks.append(Quirk.MEGATRON_WITHOUT_SP_FORMULA)
    return tuple(quirks)


def _deepspeed(params: int, largest_layer: int, setup: Setup) -> MemoryEstimate:
    """DeepSpeed's estimator line for ZeRO-2 or -3 and the offload asked, split 2 : 4 : 12 of its 18."""
    gpn, nodes = setup.gpus_per_node, setup.node_count
    optimizer_off = setup.offload is not Offload.NONE
    if setup.zero == 3:
        line = deepspeed.zero3(
            params,
            setup.largest_layer or largest_layer,
            gpn,
            nodes,
            cpu_offload=optimizer_off,
            cpu_offload_params=setup.offload is Offload.PARAMS,
            zero_init=setup.zero_init,
        )
    else:
        line = deepspeed.zero2(params, gpn, nodes, cpu_offload=optimizer_off)
    sharded = line.gpu - line.largest_layer_memory
    replicated = 2 * params if setup.zero != 3 else 0  # ZeRO-2's fp16 weights on every GPU
    rest = sharded - replicated  # the 18 (ZeRO-2: gradients 2 + 4, the rest optimizer; ZeRO-3: 2 weights, 4 gradients)
    if optimizer_off:
        weights, grads = replicated + rest, 0
    elif setup.zero == 3:
        weights, grads = rest * 2 // 18, rest * 4 // 18
    else:
        weights, grads = replicated, rest * 6 // 18
    quirks = (Quirk.DEEPSPEED_WHOLE_MODEL,) if setup.tp * setup.pp * setup.cp * setup.sp > 1 else ()
    return MemoryEstimate(
        rules=Rules.DEEPSPEED,
        params=params,
        params_per_gpu=params,
        weights=weights,
        grads=grads,
        optimizer=sharded - weights - grads,
        gather_buffer=line.largest_layer_memory,
        cpu_per_node=line.cpu,  # DeepSpeed's estimator prints its CPU line for every stage and offload
        quirks=(*quirks, Quirk.DEEPSPEED_ACTIVATIONS),
    )


def _with_activations(found: MemoryEstimate, model: ModelSpec, setup: Setup) -> MemoryEstimate:
    """The first stage's activations, by effbatch's rules (``korthikanti``: Table 2 as printed)."""
    if not setup.seq_len:
        return replace(found, recompute=setup.recompute_used)
    rules = Rules.KORTHIKANTI if setup.rules is Rules.KORTHIKANTI else Rules.EFFBATCH
    counted = replace(setup, rules=rules)
    total, layer = activations.first_stage(model, counted)
    return replace(
        found,
        activations=round(total),
        activations_per_layer=round(layer),
        activations_per_sample=total / setup.micro_batch,
        recompute=setup.recompute_used,
    )


def _common_quirks(model: ModelSpec, setup: Setup) -> tuple[Quirk, ...]:
    quirks = []
    if not setup.seq_len:
        quirks.append(Quirk.NEEDS_SEQ_LEN)
    if setup.rules is Rules.KORTHIKANTI:
        quirks.append(Quirk.KORTHIKANTI_SHAPE)
    if setup.cp * setup.sp > 1 and setup.rules is not Rules.MEGATRON:
        quirks.append(Quirk.CONTEXT_SPLIT)
    if model.moe:
        quirks.append(Quirk.MOE)
    return tuple(quirks)
