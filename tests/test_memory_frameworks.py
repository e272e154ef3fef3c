"""Memory as each framework holds it (``framework=``), the attention kernel as its own key, and what PyTorch's
counters miss: what a user receives in the terminal and in ``--json``.

Each row's bytes come from the framework's code, cited in ``core/memory/holders/`` and repeated here per row.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from effbatch.bot.document import AnswerKind, Visibility
from effbatch.bot.rendering.answers import answer_command
from effbatch.bot.rendering.plain_text import plain_text
from effbatch.bot.serving.cli import json_answer
from effbatch.core import InputError, parse_command
from effbatch.core.memory import MODELS
from effbatch.core.memory.capacity import CONTEXT_BYTES, NCCL_BYTES_PER_GROUP, RESERVE_SHARE

SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "schema" / "effbatch.schema.json").read_text())
GIB = 1024**3
MIB = 1024**2
LLAMA_8B = MODELS["llama3.1-8b"]


def memory_of(command: str) -> dict[str, Any]:
    answer = json_answer(command)
    assert isinstance(answer, dict)
    memory: dict[str, Any] = answer["memory"]
    return memory


def text_of(command: str) -> str:
    return plain_text(answer_command(command, Visibility.IN_CHANNEL, command="effbatch").document, choices=False)


@pytest.mark.parametrize(
    ("typed", "framework", "attention"),
    [
        ("framework=nemo", "megatron", "flash"),  # NeMo trains with Megatron's core
        ("rahmenwerk=fsdp2", "fsdp2", "flash"),
        ("framework=torchtitan attention=sdpa", "torchtitan", "flash"),  # SDPA's flash backend
        ("framework=hf attention=eager", "huggingface", "eager"),
        ("framework=deepspeed aufmerksamkeit=flash_attention_2", "deepspeed", "flash"),
    ],
)
def test_framework_and_attention_keys(typed: str, framework: str, attention: str) -> None:
    """``framework=`` (``rahmenwerk=``) and ``attention=`` are read with their natural spellings and said in JSON."""
    memory = memory_of(f"llama3.1-8b b=1 gpus=8 L=4k zero=3 {typed}")
    assert (memory["framework"], memory["attention"]) == (framework, attention)


def test_an_unknown_framework_is_refused_in_german() -> None:
    """A framework no holder models is refused, naming the ones there are."""
    with pytest.raises(InputError):
        parse_command("llama3.1-8b gpus=8 L=4k framework=jax")
    answer = answer_command("llama3.1-8b gpus=8 L=4k framework=jax", Visibility.IN_CHANNEL)
    assert answer.kind is AnswerKind.INPUT_ERROR
    shown = " ".join(str(part) for part in answer.document.parts)
    assert "„jax“ kenne ich hier nicht" in shown
    assert "torchtitan" in shown


def test_head_dim_changes_the_attention_width() -> None:
    """``head_dim=`` where the head is not hidden/heads (Qwen3: 128 with 5.120 / 64): Q and O grow with it."""
    base = memory_of("llama3.1-8b b=1 gpus=8 L=4k zero=3")
    wider = memory_of("llama3.1-8b b=1 gpus=8 L=4k zero=3 head_dim=256")
    assert wider["params"] > base["params"]
    assert wider["activations_bytes_per_layer"] > base["activations_bytes_per_layer"]


def test_no_recomputation_no_longer_means_eager_attention() -> None:
    """``recompute=none`` keeps FlashAttention (no s × s scores): Llama 2 13B, b = 2, L = 4.096 over 8 H100s with
    ZeRO-3 is about 80 GiB, not the 330 GiB eager attention's scores (5as/h) would add; ``attention=eager`` adds
    them."""
    flash = memory_of("llama2-13b b=2 L=4k gpus=8 zero=3 recompute=none gpu=h100")
    eager = memory_of("llama2-13b b=2 L=4k gpus=8 zero=3 recompute=none gpu=h100 attention=eager")
    assert flash["total_bytes_per_gpu"] < 85 * GIB
    scores = 5 * 40 * 4096 * 4096 * 2 * 40  # 5as · s · b bytes a layer (Korthikanti Table 2), 40 layers
    assert eager["total_bytes_per_gpu"] - flash["total_bytes_per_gpu"] == pytest.approx(scores, rel=1e-9)


N_8B = LLAMA_8B.total_params - LLAMA_8B.hidden  # the first stage's parameters: the final norm aside


@pytest.mark.parametrize(
    ("keys", "weights", "grads", "optimizer"),
    [
        # megatron/core/distributed/param_and_grad_buffer.py: bf16 param buffer 2, fp32 grad buffer 4
        # (arguments.py line 1216); optimizer.py fp32 main params + Adam 12 (theoretical_memory_usage.py: 18)
        ("framework=megatron distributed_optimizer=nein", 2, 4, 12),
        # distrib_optimizer.py keeps the 12 for 1/d of the buffer: 6 + 12/d; NeMo's and Megatron-Bridge's recipes
        # turn it on, so it is assumed where distributed_optimizer= is not given
        ("framework=megatron", 2, 4, 12 / 8),
        # bf16_optimizer.py: bf16 params 2, fp32 gradients whole 4 (line 162), fp32 master + Adam over d (line 156)
        ("framework=deepspeed zero=0", 2, 4, 12 / 8),
        # fp16 without ZeRO is fused_optimizer.py's FP16_Optimizer: nothing partitioned; its step flattens the fp16
        # gradients' fp32 casts into the master's gradient (2 + 4 + 4 at once), fp32 master + Adam 12 whole
        ("framework=deepspeed zero=0 dtype=fp16", 2, 10, 12),
        # stage_1_and_2.py: bf16 params and grads whole, fp32 master + its gradient + Adam (16) over d
        ("framework=deepspeed zero=1", 2, 2, 16 / 8),
        ("framework=deepspeed zero=2", 2, 2 / 8, 16 / 8),
        # stage3.py: everything partitioned
        ("framework=deepspeed zero=3", 2 / 8, 2 / 8, 16 / 8),
        # offloading the optimizer puts the gradient partition in the CPU's memory too (stage3.py line 261)
        ("framework=deepspeed zero=3 offload=optimizer", 2 / 8, 0, 0),
        ("framework=deepspeed zero=2 offload=optimizer", 2, 0, 0),
        ("framework=deepspeed zero=1 offload=optimizer", 2, 2, 0),  # stage 1 keeps every .grad until the step
        # FSDP's flat parameter in fp32, sharded with its fp32 gradient and Adam (16/d)
        ("framework=fsdp2 zero=3", 4 / 8, 4 / 8, 8 / 8),
        # FSDP reduces after every backward: accumulation keeps the gradients sharded
        ("framework=fsdp zero=3 a=4", 4 / 8, 4 / 8, 8 / 8),
        # the Trainer's FSDP goes through Accelerate, whose accumulate() enters no_sync: gradients whole, fp32
        ("framework=huggingface zero=3 a=4", 4 / 8, 4 / 8 + 4, 8 / 8),
        # DDP: fp32 weights and gradients whole, Adam 8 (the bucket copies are the framework's buffers)
        ("framework=ddp", 4, 4, 8),
        # pure bf16 (Lightning's bf16-true, torchtune): AdamW's moments like the parameter, bf16
        ("framework=ddp dtype=bf16-true", 2, 2, 4),
        ("framework=fsdp zero=3 dtype=bf16-true", 2 / 8, 2 / 8, 4 / 8),
        # LitGPT's finetune/full.py: Fabric's no_backward_sync keeps FSDP's gradients whole while accumulating,
        # in the parameters' bf16 under its configs' precision bf16-true
        ("framework=lightning zero=3 a=4 dtype=bf16-true", 2 / 8, 2 / 8 + 2, 4 / 8),
        ("framework=litgpt zero=3 a=1 dtype=bf16-true", 2 / 8, 2 / 8, 4 / 8),
    ],
)
def test_bytes_a_parameter_as_each_framework_holds_them(
    keys: str, weights: float, grads: float, optimizer: float
) -> None:
    """Weights, gradients and optimizer states per GPU are each framework's own bytes a parameter (d = 8)."""
    memory = memory_of(f"llama3.1-8b b=1 gpus=8 L=4k {keys}")
    got = (memory["weights_bytes"], memory["grads_bytes"], memory["optimizer_bytes"])
    assert got == pytest.approx((weights * N_8B, grads * N_8B, optimizer * N_8B), abs=2)


def test_torchtitan_pipeline_stages_accumulate_whole_gradients() -> None:
    """With PP, torch.distributed.pipelining's ``backward_maybe_with_nosync`` skips FSDP2's gradient sync for every
    micro-batch but the last: the stage accumulates its unsharded gradients in fp32 (4 bytes a parameter), and
    keeps its bf16 parameters whole (torchtitan's reshard_after_forward default for PP: 2 bytes)."""
    one = memory_of("llama3.1-8b b=1 a=1 gpus=8 pp=2 L=4k zero=3 framework=torchtitan")
    four = memory_of("llama3.1-8b b=1 a=4 gpus=8 pp=2 L=4k zero=3 framework=torchtitan")
    plain = memory_of("llama3.1-8b b=1 a=4 gpus=8 L=4k zero=3 framework=torchtitan")
    assert four["grads_bytes"] - one["grads_bytes"] == pytest.approx(4 * four["params_per_gpu"], abs=2)
    assert four["buffers_bytes"] > plain["buffers_bytes"]


def test_ddp_keeps_its_gradient_buckets_and_autocasts_copies() -> None:
    """DDP (gradient_as_bucket_view=False) keeps a second fp32 copy of the gradients in its buckets (4 bytes a
    parameter) and autocast's bf16 weight copies (2) live until the backward; one GPU has no buckets."""
    eight = memory_of("llama3.1-8b b=1 gpus=8 L=4k framework=ddp")
    one = memory_of("llama3.1-8b b=1 gpus=1 L=4k framework=ddp")
    assert eight["buffers_bytes"] == pytest.approx(4 * N_8B, abs=2)
    assert "buffers_bytes" not in one
    assert eight["activations_bytes"] - one["activations_bytes"] == 0


@pytest.mark.parametrize(
    ("keys", "per_logit", "split"),
    [
        ("framework=fsdp2 zero=3", 10, 1),  # bf16 logits 2, .float() 4, softmax/gradient 4: transformers, FSDP
        ("framework=torchtitan zero=3 tp=2", 10, 2),  # torchtitan's loss_parallel splits the vocabulary over TP
        ("framework=megatron tp=2", 6, 2),  # cross_entropy.py: .float() in place of exp, softmax kept: 2 + 4
        # --cross-entropy-loss-fusion: the same steps under torch.compile (jit.py line 21), whose functionalised graph
        # writes its in-place updates to a buffer of its own: one more fp32 copy, 4 (Liger's benchmark: 12 vs 8)
        ("framework=megatron tp=2 loss_fusion=ja", 10, 2),
        ("framework=megatron tp=2 cross_entropy_loss_fusion=nein", 6, 2),  # Megatron's own flag name, off
        ("framework=fsdp2 zero=3 loss_fusion=ja", 10, 1),  # a fused loss read only in Megatron's code
        # DeepSpeed with TP trains a Megatron-style model (atorch's cross_entropy.py): bf16 logits and their softmax
        ("framework=deepspeed zero=1 tp=2", 4, 2),
        # torchtitan compiles its loss under --training.compile (components/loss.py): bf16 logits and gradient
        ("framework=torchtitan zero=3 compile=ja", 4, 1),
        ("framework=fsdp2 zero=3 compile=ja", 10, 1),  # a plain FSDP2 loop's loss is not compiled with the model
        # OLMo-core's compile_model compiles the LM head, w_out and its loss in one graph (model.py lines 571-586 at
        # allenai/OLMo-core@7e58d128): bf16 logits and gradient, as torchtitan's compiled loss
        ("framework=olmo_core zero=3 compile=ja", 4, 1),
        ("framework=olmo-core zero=3", 10, 1),  # without compile_model: the eager loss's .float() and softmax
        # LitGPT's chunked_cross_entropy: bf16 logits, reshape's copy of the shifted view, each chunk's log-softmax
        ("framework=lightning zero=3 dtype=bf16-true", 6, 1),
    ],
)
def test_logits_and_loss(keys: str, per_logit: int, split: int) -> None:
    """The loss's logits: bytes a logit × b · s · V, divided by TP only where the loss is vocabulary-parallel."""
    memory = memory_of(f"llama3.1-8b b=2 gpus=8 L=4k {keys}")
    assert memory["logits_bytes"] == round(per_logit * 2 * 4096 * LLAMA_8B.vocab / split)


TOY_GPT = "layers=12 hidden=512 heads=8 ffn=2048 vocab=50432 swiglu=false tied=true b=4 gpus=8 L=1024 gpu=h100"


@pytest.mark.parametrize(
    ("keys", "last_stage"),
    [
        # Megatron's last stage: 6 layers for one micro-batch, its copy of the tied output weight and the loss's
        # logits outweigh the first stage's two micro-batches in flight
        ("framework=megatron tp=2 pp=2 a=4", True),
        ("framework=megatron tp=2 pp=2 a=4 vpp=2", True),  # interleaved: (2 − 1) · 2 + 1 chunks on the last rank
        ("framework=megatron pp=2 a=4", True),
        ("framework=deepspeed zero=1 pp=2 a=4", False),  # DeepSpeed's pipeline schedule not read: the first stage
        ("framework=megatron tp=2 a=4", False),  # no pipeline: one stage, the loss on it
    ],
)
def test_megatrons_last_pipeline_stage_is_weighed(keys: str, last_stage: bool) -> None:
    """With Megatron and PP > 1 the answer is the fuller of the first and the last stage; the last one computes
    the loss, so its logits are said."""
    memory = memory_of(f"{TOY_GPT} {keys}")
    assert ("logits_bytes" in memory) is (last_stage or "pp=" not in keys)
    if last_stage:
        tp = 2 if "tp=2" in keys else 1
        assert memory["logits_bytes"] == round(6 * 4 * 1024 * 50432 / tp)
        assert memory["params_per_gpu"] > 50432 * 512 / tp  # the output weight's copy


@pytest.mark.parametrize(
    ("keys", "fuller"),
    [
        # the local spec's PP 4 with eager attention: the first stage's four micro-batches in flight, each with its
        # s × s scores, outweigh the last stage's one micro-batch and logits – yet Megatron logs the last rank
        ("framework=megatron pp=4 a=4 attention=eager", "first"),
        ("framework=megatron tp=2 pp=2 a=4", "last"),  # TE's flash attention: the logits make the last one fuller
        ("framework=megatron tp=2 a=4", None),  # one stage: nothing to say apart
        ("framework=deepspeed zero=1 pp=2 a=4", None),  # DeepSpeed's schedule not read: the first stage alone
    ],
)
def test_the_last_stage_is_said_apart(keys: str, fuller: str | None) -> None:
    """Where Megatron's last stage is weighed, JSON says its allocated peak apart (the rank Megatron logs,
    global_vars.py line 241): the total where it is the fuller stage, less where the first stage is."""
    jsonschema.validate(json_answer(f"{TOY_GPT} {keys}"), SCHEMA)
    memory = memory_of(f"{TOY_GPT} {keys}")
    last = memory.get("last_stage_bytes_per_gpu")
    said = None if last is None else "last" if last == memory["total_bytes_per_gpu"] else "first"
    assert said == fuller


TOY_MOE = f"{TOY_GPT} experts=8 topk=2 moe_ffn=2048 a=2 framework=megatron distributed_optimizer=true"


@pytest.mark.parametrize(
    ("keys", "etp"),
    [
        ("tp=2 ep=4", 2),  # no etp=: Megatron takes TP (parallel_state.py lines 871-872)
        ("tp=2 ep=4 etp=1", 1),  # the CI's 8experts_etp1_ep4 layout: experts whole, 4 GPUs an expert grid
        ("tp=4 ep=2 expert_tensor_parallel_size=2", 2),  # Megatron's own flag name
    ],
)
def test_the_experts_split_over_etp_and_ep(keys: str, etp: int) -> None:
    """The experts' weights split over ETP · EP (experts.py lines 210 and 1437: their linear layers over the
    expert-TP group), their optimizer states over GPUs / (ETP · EP · PP) (parallel_state.py line 880); the dense
    part stays over TP and d. Megatron's distributed optimizer keeps 12 bytes a parameter over its group."""
    tp, ep = int(keys.split()[0].removeprefix("tp=")), int(keys.split()[1].removeprefix("ep="))
    experts = 12 * 8 * 2 * 512 * 2048  # 12 layers of 8 experts, each fc1 and fc2 of 512 × 2048
    memory = memory_of(f"{TOY_MOE} {keys}")
    whole = memory_of(f"{TOY_MOE} tp={tp} ep={ep} etp={tp}")  # the same layout with the experts split as the dense
    dense = whole["params_per_gpu"] - experts / (tp * ep)
    assert memory["params_per_gpu"] == pytest.approx(dense + experts / (etp * ep), abs=2)
    expert_dp, dp = 8 // (etp * ep), 8 // tp
    assert memory["optimizer_bytes"] == pytest.approx(12 * (dense / dp + experts / (etp * ep) / expert_dp), rel=1e-6)


#: Transformer Engine's cuBLAS workspace on Hopper, three streams of it for the userbuffer GEMMs (gemm.py lines 37-62).
UB_WORKSPACE = 3 * (32 * MIB + 1024)


@pytest.mark.parametrize(
    ("keys", "workspace", "userbuffers"),
    [
        # twelve userbuffers of (s · b / CP) × h (module/base.py lines 336-346, 560-569): the eight all-gather ones
        # in FP8 under FP8 (lines 472-476), the four reduce-scatter ones in bf16
        ("tp=2 dtype=fp8 tp_comm_overlap=ja", UB_WORKSPACE, 4 * 1024 * 512 * (8 * 1 + 4 * 2)),
        ("tp=2 tp-comm-overlap=ja", UB_WORKSPACE, 4 * 1024 * 512 * 12 * 2),  # bf16: all twelve in bf16
        ("tp=2 cp=2 tp_overlap=ja", UB_WORKSPACE, 4 * 1024 // 2 * 512 * 12 * 2),  # initialize.py: s · b / CP
        ("tp_comm_overlap=ja", 0, 0),  # TP 1: no overlap (it needs sequence parallelism, arguments.py line 1442)
        ("tp=2", 0, 0),
    ],
)
def test_tp_comm_overlap_costs_a_workspace_and_userbuffers(keys: str, workspace: int, userbuffers: int) -> None:
    """Megatron's TP communication overlap adds Transformer Engine's workspaces for its GEMMs inside PyTorch's
    counters and its userbuffers (cudaMalloc / cuMemCreate) outside them, on the device."""
    memory = memory_of(f"{TOY_GPT} framework=megatron a=4 {keys}")
    assert (memory.get("buffers_bytes", 0), memory.get("userbuffers_bytes", 0)) == (workspace, userbuffers)
    outside = memory["reserved_bytes_per_gpu"] + memory["context_bytes"]
    assert memory["device_bytes_per_gpu"] == outside + userbuffers
    jsonschema.validate(json_answer(f"{TOY_GPT} framework=megatron a=4 {keys}"), SCHEMA)
    assert ("Userbuffers von Transformer Engine" in text_of(f"{TOY_GPT} framework=megatron a=4 {keys}")) is (
        userbuffers > 0
    )


@pytest.mark.parametrize(
    ("keys", "weights", "grads", "optimizer"),
    [
        # bytes a parameter; d = 8. Megatron-core's distributed optimizer: bf16 params 2, fp32 grad buffer 4, 12/d
        ("gpus=8", 2, 4, 12 / 8),
        # Apex's DistributedFusedAdam (apex distributed_fused_adam.py at f3f04924): the whole grad buffer and its
        # reduced shard in grad_sync_dtype, which defaults to the optimizer's fp32 (lines 586-587, 1103-1123,
        # 1856-1859); Adam's two fp32 moments (lines 466-477) and the int16 remainders NeMo asks for a bf16 model
        # under an fp32 optimizer (megatron_base_model.py lines 787-790, apex lines 459-464): 8 + 2, 1/d
        ("gpus=8 optimizer=distributed_fused_adam", 2, 4 + 4 / 8, 10 / 8),
        ("gpus=8 optimizer=dfa grad_sync=bf16", 2, 2 + 2 / 8, 10 / 8),  # NeMo's optim.grad_sync_dtype: bf16
        ("gpus=8 optimizer=dfa dtype=fp32", 4, 4 + 4 / 8, 8 / 8),  # optimizer and model both fp32: no copy
        # d = 1: the bucket is its own shard (line 1852); optim.dtype bf16: moments 2 + 2; fp8_params: store_params
        # in the optimizer's dtype (megatron_base_model.py lines 783-784); FP8 weights still counted at bf16 width
        ("gpus=1 optimizer=dfa optim_dtype=bf16 grad_sync=bf16 fp8_params=ja dtype=fp8", 2, 2, 6),
        ("gpus=1 optimizer=dfa optim_dtype=bf16", 2, 2, 4),  # grad sync in the optimizer's bf16; dtypes agree: no copy
    ],
)
def test_distributed_fused_adam_keeps_its_own_buffers(
    keys: str, weights: float, grads: float, optimizer: float
) -> None:
    """With Apex's DistributedFusedAdam (NeMo's optim.name) Megatron holds no fp32 grad buffer: the gradients in their
    sync dtype, Adam's moments and the master copy (or its remainders) in the optimizer's dtype, split over d."""
    memory = memory_of(f"{TOY_GPT.replace('gpus=8 ', '')} framework=megatron {keys}")
    n = memory["params_per_gpu"]
    found = (memory["weights_bytes"] / n, memory["grads_bytes"] / n, memory["optimizer_bytes"] / n)
    assert found == pytest.approx((weights, grads, optimizer))


def test_what_pytorchs_counters_miss_is_added_and_said() -> None:
    """The allocator's 5 % reserve, the CUDA context and one NCCL buffer set per communicator come on top of the
    allocated peak; the sum is held against what an H100 offers a process (81.559 MiB), and the answer names each
    assumed number where it stands."""
    memory = memory_of("llama3.1-8b b=1 gpus=16 tp=2 L=4k gpu=h100 framework=megatron")
    total = memory["total_bytes_per_gpu"]
    assert memory["allocator_reserve_bytes"] == round(total * RESERVE_SHARE)
    assert memory["context_bytes"] == CONTEXT_BYTES + 2 * NCCL_BYTES_PER_GROUP  # data parallel and TP
    assert memory["device_bytes_per_gpu"] == total + memory["allocator_reserve_bytes"] + memory["context_bytes"]
    assert memory["gpu_memory_bytes"] == 81_559 * MIB
    shown = text_of("llama3.1-8b b=1 gpus=16 tp=2 L=4k gpu=h100 framework=megatron")
    assert "Gehalten wie von Megatron-LM" in shown
    assert "Reserve des Allokators" in shown
    assert "(angenommen 5\u00a0%)" in shown
    assert "CUDA-Kontext und NCCL" in shown
    assert "je Kommunikator × 2" in shown
    assert "von 79,6\u00a0GiB nutzbar (H100 SXM)" in shown
    assert "FlashAttention" in shown


def test_a_run_that_only_fits_the_data_sheet_does_not_pass() -> None:
    """„Passt“ means it runs: a set-up whose allocated peak fits 80 GiB but not with the reserve, the context and
    NCCL on the 79,6 GiB an H100 offers is answered „passt nicht“."""
    memory = memory_of("llama2-13b b=2 L=4k gpus=8 zero=3 recompute=none gpu=h100")
    assert memory["total_bytes_per_gpu"] < 80 * GIB < memory["device_bytes_per_gpu"]
    assert memory["fits"] is False


def test_korthikanti_takes_the_papers_mlp_without_ffn() -> None:
    """``regeln=korthikanti`` with a typed shape and no ``ffn=``: the paper's GPT MLP (4h, GeLU), as Table 2 assumes;
    GPT-3 175B's shape typed so gives Table 2's bytes a layer (sbh (10 + 24/t) with the scores, t = 8)."""
    memory = memory_of("layers=96 hidden=12288 heads=96 vocab=51200 regeln=korthikanti L=2048 gpus=8 tp=8 b=1")
    named = memory_of("gpt3-175b regeln=korthikanti L=2048 gpus=8 tp=8 b=1")
    assert memory["activations_bytes_per_layer"] == named["activations_bytes_per_layer"]
    sbh = 2048 * 12288
    assert memory["activations_bytes_per_layer"] == sbh * (10 + 24 / 8 + 5 * 96 * 2048 / (12288 * 8))


def test_deepspeeds_cpu_line_is_always_said() -> None:
    """DeepSpeed's ZeRO-2 estimator prints a CPU figure without offloading too (4 bytes a parameter for each GPU
    of the node, × 1,5): effbatch reports it, worded as DeepSpeed's estimate without offload."""
    memory = memory_of("llama3.1-8b b=1 gpus=8 L=4k zero=2 regeln=deepspeed")
    assert memory["cpu_bytes"] == int(LLAMA_8B.total_params * 4 * 8 * 1.5)
    shown = text_of("llama3.1-8b b=1 gpus=8 L=4k zero=2 regeln=deepspeed")
    assert "Dazu im CPU-Speicher je Knoten (Schätzung von DeepSpeed für den Aufbau des Modells, ohne Offload" in shown


@pytest.mark.parametrize(
    "command",
    [
        "llama3.1-8b b=2 gpus=16 tp=2 L=8k gpu=h100 framework=torchtitan zero=3",
        "llama3.1-8b b=1 gpus=8 L=4k gpu=a100-80 framework=huggingface attention=eager",
        "params=7B gpus=8 zero=3 framework=fsdp2",
    ],
)
def test_the_json_keys_are_in_the_schema(command: str) -> None:
    """framework, attention, buffers, logits, the reserve, the context and the device total are schema/'s keys."""
    data = json_answer(command)
    jsonschema.validate(data, SCHEMA)
    assert isinstance(data, dict)
    assert {"framework", "device_bytes_per_gpu", "context_bytes", "allocator_reserve_bytes"} <= set(data["memory"])


def test_megatron_is_not_advised_zero_2_or_3() -> None:
    """Megatron shards the optimizer states (its distributed optimizer, ZeRO-1's split) and no more: for
    ``framework=megatron`` the advice (whole combinations that fit, from the planner) offers ``zero=1`` at most."""
    shown = text_of("llama3.1-8b b=8 gpus=8 L=8k gpu=h100 framework=megatron distributed_optimizer=nein")
    advice = shown.split("Was hilft", 1)[1]
    assert "zero=1" in advice
    assert "zero=2" not in shown


@pytest.mark.parametrize(
    ("keys", "once"),
    [
        ("framework=fsdp zero=3 a=1", True),  # zero_grad(set_to_none=True) frees the sharded gradients
        ("framework=torchtitan zero=3 a=1", True),
        ("framework=ddp a=1", True),
        ("framework=fsdp zero=3 a=4", False),  # the earlier micro-batches' gradients are kept
        ("framework=torchtitan zero=3 pp=2 a=4", False),  # the stage accumulates over its micro-batches
        ("framework=megatron a=1", False),  # the grad buffer lives for the whole run
        ("framework=deepspeed zero=3 a=1", False),  # so do ZeRO's gradient partitions
    ],
)
def test_freed_gradients_and_activations_are_counted_once(keys: str, once: bool) -> None:
    """Where the step frees the gradients and a step is one micro-batch, the backward creates the gradients as it
    frees the activations: the sum counts the smaller of the two once, says so, and stays in the schema."""
    command = f"llama3.1-8b b=1 gpus=16 L=4k gpu=h100 {keys}"
    memory = memory_of(command)
    states, activations = memory["model_states_bytes_per_gpu"], memory["activations_bytes"]
    overlap = min(memory["grads_bytes"], activations) if once else 0
    assert memory["total_bytes_per_gpu"] == states + activations - overlap
    assert memory.get("overlap_bytes", 0) == overlap
    jsonschema.validate(json_answer(command), SCHEMA)
    assert ("Gradienten und Aktivierungen nie zugleich ganz" in text_of(command)) is once


def test_use_cache_keeps_every_layers_keys_and_values() -> None:
    """``use_cache=ja``: a Hugging Face model whose cache stays on in training returns every layer's K and V (bf16,
    K and V at the key-value heads' width), counted among the activations and said beside the logits."""
    command = "llama3.1-8b b=2 gpus=8 L=4k zero=3 framework=deepspeed"
    plain, cached = memory_of(command), memory_of(f"{command} use_cache=ja")
    expected = 2 * 2 * (2 * 4096) * LLAMA_8B.kv_dim * LLAMA_8B.layers
    assert cached["kv_cache_bytes"] == expected
    assert cached["activations_bytes"] - plain["activations_bytes"] == expected
    assert "kv_cache_bytes" not in plain
    jsonschema.validate(json_answer(f"{command} use_cache=ja"), SCHEMA)
    assert "davon K und V jeder Schicht (use_cache" in text_of(f"{command} use_cache=ja")


@pytest.mark.parametrize(
    "keys", ["gpus=8 framework=fsdp zero=3 a=1", "gpus=2 framework=ddp a=1", "gpus=8 framework=megatron a=1"]
)
def test_the_largest_micro_batch_agrees_with_the_verdict(keys: str) -> None:
    """The largest micro-batch said is the one the verdict accepts: „passt“ with it, „passt nicht“ with one more,
    where the freed gradients make room for the activations too."""
    command = f"layers=24 hidden=2048 heads=16 ffn=8192 vocab=50304 L=4k gpu=h100 {keys}"
    largest = memory_of(f"{command} b=1")["largest_micro_batch"]
    assert largest >= 1
    assert memory_of(f"{command} b={largest}")["fits"] is True
    assert memory_of(f"{command} b={largest + 1}")["fits"] is False


def test_autocast_without_fsdp_mixed_precision_gathers_and_streams_fp32() -> None:
    """``autocast=ja``: FSDP without a MixedPrecision policy gathers its units in fp32 and computes their gradient in
    fp32 (4 · 2 + 4 = 12 bytes a unit's parameter instead of 2 · 2 + 2 + 4 = 10), and a Hugging Face model's residual
    stream under autocast stays fp32: full recomputation keeps 4 bytes of each layer's input instead of 2."""
    command = "llama3.1-8b b=1 gpus=8 L=4k zero=3 framework=fsdp recompute=full"
    plain, autocast = memory_of(command), memory_of(f"{command} autocast=ja")
    assert autocast["buffers_bytes"] * 10 == pytest.approx(plain["buffers_bytes"] * 12, rel=1e-6)
    assert autocast["activations_bytes_per_layer"] == 2 * plain["activations_bytes_per_layer"]


def test_distributed_fused_adams_states_are_said_as_held() -> None:
    """With Apex's DistributedFusedAdam the answer says how that optimizer holds the states (no Megatron-core FP32
    gradient buffer), not Megatron's own 2 + 4 + 12 bytes a parameter."""
    command = "llama2-70b gpus=16 tp=4 pp=4 b=1 a=8 L=4k gpu=h100 framework=megatron"
    own, apex = text_of(command), text_of(f"{command} optimizer=distributed_fused_adam")
    assert "FP32-Gradienten 4" in own
    assert "DistributedFusedAdam" not in own
    assert "mit Apex' DistributedFusedAdam statt des eigenen Optimierers" in apex
    assert "FP32-Gradienten 4" not in apex
