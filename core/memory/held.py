"""Memory per GPU as the framework named by ``framework=`` holds it: its states and buffers
(``core.memory.holders``), its layers' saved tensors (``core.memory.saved``) and the loss's logits.

The first pipeline stage is the most loaded GPU (Korthikanti et al. 2022 §4.2.3: it holds min(a, PP)
micro-batches in flight); with PP = 1 it also computes the loss: about 10 bytes for every logit of the
micro-batch (bf16 logits 2, their fp32 copy 4, the fp32 softmax or its gradient 4 – torchtitan's
``cross_entropy_loss`` ``pred.flatten(0, 1).float()``, transformers' ``ForCausalLMLoss`` ``logits.float()``,
Megatron's ``_VocabParallelCrossEntropy``), divided by TP where the loss is vocabulary-parallel.
"""

from __future__ import annotations

from effbatch.core.memory import activations, saved
from effbatch.core.memory.holders import HOLDERS, Held, Policy, Shard, deepspeed, megatron
from effbatch.core.memory.holders.base import mixed
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Framework, Recompute, Setup

#: FSDP's and torchtitan's wrapping unit is a transformer block (``fully_shard`` per block, Accelerate's
#: ``TRANSFORMER_BASED_WRAP``); the embedding and output layer sit in the root unit.
BLOCK_WRAPPED = frozenset(
    {
        Framework.FSDP,
        Framework.FSDP2,
        Framework.TORCHTITAN,
        Framework.HUGGINGFACE,
        Framework.LIGHTNING,
        Framework.OLMO_CORE,
    }
)


def states(params: int, dense: float, expert: float, unit: float, setup: Setup) -> tuple[Held, Policy]:
    """The framework's states and buffers for the first stage's shard (``setup.framework`` given)."""
    assert setup.framework is not None
    holder, policy = HOLDERS[setup.framework]
    if setup.framework is Framework.DEEPSPEED and setup.tp > 1:
        policy = deepspeed.TP_POLICY  # DeepSpeed with TP trains a Megatron-style model: vocabulary-parallel loss
    dense_group = setup.data_parallel * setup.cp
    shard = Shard(dense, expert, dense_group, setup.expert_group, unit)
    return holder(shard, setup), policy


def unit(model: ModelSpec, setup: Setup) -> float:
    """The module gathered whole: a transformer block (FSDP) or the largest single module (ZeRO-3), after TP."""
    if setup.framework in BLOCK_WRAPPED:
        block = model.layer_params / model.layers
        return max(block, model.embedding_params) / setup.tp
    return model.largest_layer / setup.tp


def recompute(setup: Setup) -> Recompute:
    return setup.recompute_used


def layer_activations(model: ModelSpec, setup: Setup, policy: Policy, *, last: bool = False) -> tuple[float, float]:
    """(the first stage's – or the ``last`` one's – layers' activations, one layer's) for the micro-batch, with
    full recomputation's working set of one layer."""
    tokens = (setup.seq_len or 0) / (setup.cp * setup.sp) * setup.micro_batch
    used = setup.recompute_used
    layer = saved.per_token(model, setup, policy.kernels, used) * tokens
    stage = activations.last_stage_layers if last else activations.stage_layers
    total = layer * stage(model, setup)
    if used is Recompute.FULL or (used is Recompute.SELECTIVE and setup.framework is Framework.TORCHTITAN):
        total += saved.working_set(model, setup, policy.kernels, used)
    return total, layer


def logits(model: ModelSpec, setup: Setup, policy: Policy) -> float:
    """The loss's logits on the stage that computes it (the last; PP = 1: the only one), per micro-batch."""
    tokens = (setup.seq_len or 0) / (setup.cp * setup.sp) * setup.micro_batch
    split = setup.tp if policy.vocab_parallel_loss else 1
    compiled = policy.compiled_logits_bytes if setup.compile else None
    fused = policy.fused_logits_bytes if setup.loss_fusion else None
    return (compiled or fused or policy.logits_bytes) * tokens * model.vocab / split


def autocast_copies(params_on_gpu: float, setup: Setup, policy: Policy) -> float:
    """Autocast's bf16 copies of the fp32 weights, saved for the backward (DDP and the Trainer in mixed precision)."""
    sharded = setup.zero >= 2  # FSDP casts the parameters itself: its gathered bf16 units are the copies
    return 2 * params_on_gpu if policy.autocast_copies and mixed(setup) and not sharded else 0.0


def overlap(grads: float, activations: float, setup: Setup, policy: Policy) -> float:
    """Gradients and activations a step never holds in full at once, where the framework frees its gradients.

    torch/optim/optimizer.py ``Optimizer.zero_grad(set_to_none=True)`` (the default since PyTorch 2.0; so is
    ``nn.Module.zero_grad``, which Hugging Face's Trainer calls) drops every ``.grad`` after the step: the next
    forward starts without gradients, and the backward creates them layer by layer as it frees that layer's
    activations. With one micro-batch a step the peak is the larger of the two, not their sum. DLRover's atorch
    FSDP table (atorch/examples/llama2/README.md at 11bf2fbf) shows it: full fine-tuning peaks only Adam's 8/d
    above LoRA's 4/d, the gradients' 4/d absent. Accumulation (the gradients of the earlier micro-batches kept) and
    pipeline schedules (each stage's gradients accumulated over its micro-batches) hold both.
    """
    if not policy.grads_freed or (setup.accumulation or 1) > 1 or setup.pp > 1:
        return 0.0
    return min(grads, activations)


def kv_cache(model: ModelSpec, setup: Setup) -> float:
    """Every layer's K and V that a Hugging Face model returns when ``use_cache`` stays on in training.

    transformers' ``LlamaModel.forward`` (4.31-4.35: ``next_decoder_cache += (layer_outputs[...],)``, later a
    ``DynamicCache``) keeps each layer's rotated K and its V for the output's ``past_key_values`` whenever
    ``use_cache`` is on – Llama's config.json says ``"use_cache": true`` – unless the model's own
    ``gradient_checkpointing`` turns it off in training; a checkpoint wrapper of another library (atorch's, torch's
    ``checkpoint_wrapper``) or no recomputation leaves it on. They live as long as the output object: to the end of the
    forward where the loop keeps only ``.loss``, through the backward where it keeps the output.
    """
    if not setup.use_cache:
        return 0.0
    tokens = (setup.seq_len or 0) / (setup.cp * setup.sp) * setup.micro_batch
    return 2 * setup.dtype.bytes * tokens * model.kv_dim / setup.tp * model.layers / setup.pp


def userbuffers(model: ModelSpec, setup: Setup) -> float:
    """Device memory the framework registers outside PyTorch's allocator: Transformer Engine's userbuffers under
    Megatron's TP communication overlap (``holders.megatron.userbuffers``)."""
    return megatron.userbuffers(model.hidden, setup) if setup.framework is Framework.MEGATRON else 0.0
