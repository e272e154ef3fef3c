"""The predicted step: each part behaves as the layout and the hardware say it must (no number fitted here)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from effbatch.core.memory import GPUS, MODELS
from effbatch.core.memory.kernels import attention_rate, kernels
from effbatch.core.memory.setup import Attention, Dtype, Framework, Recompute, Setup
from effbatch.core.memory.step import Assumed, Part, StepPrediction, predict
from effbatch.core.memory.time import flops_per_token
from effbatch.core.training_keys import TrainingKey, read_value

H100, A100 = GPUS["h100"], GPUS["a100-80"]
LLAMA_8B, LLAMA_70B, MIXTRAL = MODELS["llama3.1-8b"], MODELS["llama3.1-70b"], MODELS["mixtral-8x7b"]
BASE = Setup(gpus=16, micro_batch=1, accumulation=1, seq_len=8192)


def step(setup: Setup = BASE, model: object = LLAMA_8B, gpu: object = H100) -> StepPrediction:
    return predict(model, 0, setup, gpu)  # type: ignore[arg-type]


def test_the_step_is_the_sum_of_its_parts_and_mfu_follows() -> None:
    """step_seconds sums the parts; tokens/s and MFU follow from it and the model FLOPs."""
    found = step()
    assert found.step_seconds == pytest.approx(sum(found.seconds.values()))
    assert found.tokens_per_second == pytest.approx(found.tokens_per_step / found.step_seconds)
    flops = found.flops_per_token * found.tokens_per_step
    assert found.mfu == pytest.approx(flops / (found.step_seconds * 16 * H100.peak_flops))
    assert set(found.seconds) == set(Part)


def test_accumulation_amortises_the_gradient_all_reduce() -> None:
    """One all-reduce an optimizer step: with 16 micro-batches its share of the step shrinks at least tenfold."""
    one, many = step(), step(replace(BASE, accumulation=16))
    share = one.seconds[Part.DATA_PARALLEL] / one.step_seconds
    assert many.seconds[Part.DATA_PARALLEL] / many.step_seconds < share / 10


@pytest.mark.parametrize(
    ("recompute", "low", "high"),
    [
        (Recompute.FULL, 0.25, 0.34),  # the forward again: a third of products and memory-bound work
        (Recompute.SELECTIVE, 0.0, 0.08),  # the attention core's forward only (2/7 of attention)
        (None, 0.0, 0.0),  # FlashAttention keeps no scores: nothing recomputed
    ],
)
def test_recomputation_costs_a_forward(recompute: Recompute | None, low: float, high: float) -> None:
    """Full recomputation adds about a third of compute, selective little, none nothing."""
    found = step(replace(BASE, recompute=recompute))
    assert low <= found.seconds[Part.RECOMPUTE] / found.seconds[Part.COMPUTE] <= high


@pytest.mark.parametrize(("pp", "vpp", "micro"), [(4, None, 8), (4, 2, 8), (8, None, 32)])
def test_the_bubble_is_p_minus_1_over_v_m(pp: int, vpp: int | None, micro: int) -> None:
    """Without a model to place an output layer, the bubble is (p − 1)/(v · m) of the busy time exactly."""
    setup = Setup(gpus=64, pp=pp, vpp=vpp, micro_batch=1, accumulation=micro, seq_len=4096)
    found = predict(None, 8 * 10**9, setup, H100)
    busy = found.seconds[Part.COMPUTE] + found.seconds[Part.RECOMPUTE]
    assert found.seconds[Part.PIPELINE_BUBBLE] == pytest.approx((pp - 1) / ((vpp or 1) * micro) * busy)


def test_fp8_is_faster_but_not_twice() -> None:
    """FP8 doubles the products' peak, but casts and attention stay: between 1,2 and 2 times the tokens/s."""
    ratio = step(replace(BASE, dtype=Dtype.FP8)).tokens_per_second / step().tokens_per_second
    assert 1.2 < ratio < 2.0


def test_fp8_on_a_card_without_it_says_so() -> None:
    """A100 has no FP8 units: the products run at BF16 speed and the prediction names that assumption."""
    found = step(replace(BASE, dtype=Dtype.FP8), gpu=A100)
    assert Assumed.NO_FP8 in found.assumed
    assert found.tokens_per_second == pytest.approx(step(gpu=A100).tokens_per_second, rel=0.01)


def test_the_network_is_assumed_unless_given() -> None:
    """Across nodes the card's reference network is assumed and said; net= replaces it; a slower net costs."""
    setup = replace(BASE, zero=3)
    assert Assumed.NETWORK in step(setup).assumed
    slow = step(replace(setup, net_gbps=25.0))
    assert Assumed.NETWORK not in slow.assumed
    assert slow.net_gbps == 25.0
    assert slow.seconds[Part.DATA_PARALLEL] > step(setup).seconds[Part.DATA_PARALLEL]
    assert Assumed.NETWORK not in step(replace(BASE, gpus=8)).assumed  # one node: no network


def test_tensor_parallel_across_nodes_costs_more() -> None:
    """TP 8 talks over NVLink; TP 16 spans two nodes: the network's rails, not NVLink, bound its collectives."""
    inside = step(Setup(gpus=16, tp=8, micro_batch=1, accumulation=4, seq_len=8192), LLAMA_70B)
    across = step(Setup(gpus=16, tp=16, micro_batch=1, accumulation=4, seq_len=8192), LLAMA_70B)
    assert across.seconds[Part.TENSOR_PARALLEL] > inside.seconds[Part.TENSOR_PARALLEL]
    slow = step(Setup(gpus=16, tp=16, micro_batch=1, accumulation=4, seq_len=8192, net_gbps=100.0), LLAMA_70B)
    assert slow.seconds[Part.TENSOR_PARALLEL] > 2 * inside.seconds[Part.TENSOR_PARALLEL]


@pytest.mark.parametrize(("export", "base"), [("h800", "h100"), ("a800", "a100-80")])
def test_an_export_card_computes_as_its_base_but_talks_slower(export: str, base: str) -> None:
    """A800 and H800 are the A100's and H100's chips with NVLink at 400 GB/s (their data sheets): the same peak and
    memory, the same compute time, and TP 8's collectives inside the node take longer."""
    tp8 = Setup(gpus=16, tp=8, micro_batch=1, accumulation=4, seq_len=8192)
    slow, fast = step(tp8, LLAMA_70B, GPUS[export]), step(tp8, LLAMA_70B, GPUS[base])
    assert (GPUS[export].peak_flops, GPUS[export].memory) == (GPUS[base].peak_flops, GPUS[base].memory)
    assert GPUS[export].nvlink == 200e9
    assert slow.seconds[Part.COMPUTE] == fast.seconds[Part.COMPUTE]
    assert slow.seconds[Part.TENSOR_PARALLEL] > fast.seconds[Part.TENSOR_PARALLEL]


@pytest.mark.parametrize(
    ("card", "hbm", "memory_gib"),
    [
        ("h100", 3.35e12, 80),  # H100 whitepaper: HBM3 3.35 TB/s
        # torchtitan benchmarks/llama3_h100_202412_torchtitan.md line 13 (Grand Teton):
        # "Each H100 GPU is equipped with 96GB HBM2e with 2.4 TB/sec peak memory bandwidth."
        ("h100-96", 2.4e12, 96),
    ],
)
def test_the_96gb_hbm2e_h100_is_the_h100_chip_with_slower_memory(card: str, hbm: float, memory_gib: int) -> None:
    """Meta's H100 with 96 GB HBM2e has the SXM chip's peak and products, but its memory-bound kernels run at
    its own 2,4 TB/s: an eager (unfused) step takes longer on it, its matrix products do not."""
    gpu = GPUS[card]
    assert (gpu.hbm, gpu.memory, gpu.peak_flops) == (hbm, memory_gib * 1024**3, GPUS["h100"].peak_flops)
    setup = Setup(gpus=8, micro_batch=1, seq_len=8192, zero=3, framework=Framework.TORCHTITAN)
    per_token = flops_per_token(LLAMA_8B, 0, 8192, setup.rules)
    work, reference = kernels(LLAMA_8B, per_token, setup, gpu), kernels(LLAMA_8B, per_token, setup, GPUS["h100"])
    assert work.matmul == reference.matmul
    assert work.memory == pytest.approx(reference.memory * 3.35e12 / hbm)


def test_expert_all_to_all_and_context_ring() -> None:
    """EP costs all-to-alls in MoE layers; CP's ring at 128k hides behind the attention it feeds."""
    moe = step(Setup(gpus=16, ep=8, micro_batch=1, accumulation=4, seq_len=4096), MIXTRAL)
    assert moe.seconds[Part.EXPERT_PARALLEL] > 0
    long = step(Setup(gpus=8, cp=8, micro_batch=1, accumulation=1, seq_len=131072))
    assert long.seconds[Part.CONTEXT_PARALLEL] < 0.01 * long.step_seconds


def test_fused_kernels_are_faster_than_eager() -> None:
    """Megatron's fused norms and activations move a third of eager PyTorch's bytes: a faster step."""
    assert step(replace(BASE, framework=Framework.MEGATRON)).step_seconds < step().step_seconds


@pytest.mark.parametrize("name", sorted(GPUS))
def test_every_card_has_what_the_step_needs(name: str) -> None:
    """Each row has its memory and link bandwidths and network default, FP8 at twice BF16 where it has FP8."""
    gpu = GPUS[name]
    assert min(gpu.hbm, gpu.nvlink, gpu.net_gbps) > 0
    assert gpu.links_source
    assert gpu.fp8_flops is None or gpu.fp8_flops == pytest.approx(2 * gpu.peak_flops, rel=0.02)  # L40S: 733/362


@pytest.mark.parametrize(("text", "gbps"), [("400", 400.0), ("400G", 400.0), ("400Gb/s", 400.0), ("3,2T", 3200.0)])
def test_net_reads_gbit_per_second(text: str, gbps: float) -> None:
    """net= takes Gbit/s per GPU as data sheets print it (Tbit/s with T)."""
    assert read_value(TrainingKey.NET_GBPS, text) == gbps


def test_eager_attention_pays_the_s_squared_term() -> None:
    """Eager attention (the whole score matrix, through memory) is slower than FlashAttention, more so at 32k."""

    def ratio(seq_len: int) -> float:
        setup = Setup(gpus=8, micro_batch=1, seq_len=seq_len, zero=3)
        return step(replace(setup, attention=Attention.EAGER)).step_seconds / step(setup).step_seconds

    assert 1 < ratio(4096) < ratio(32768)


@pytest.mark.parametrize(
    ("attention", "gpu", "seq_len", "tflops"),
    [
        (Attention.FLASH, H100, 512, 163),  # FlashAttention-2 paper, Fig. 7 (d): causal, head size 128
        (Attention.FLASH, H100, 2048, 265),
        (Attention.FLASH, H100, 3072, 265 + 29 * math.log2(1.5)),  # between 2k and 4k, on a log scale
        (Attention.FLASH, H100, 131072, 328),  # beyond the bars: the 16k rate
        (Attention.FLASH, GPUS["h200"], 16384, 328),  # the H100's chip
        (Attention.FLASH, A100, 8192, 182),  # Fig. 4 (d)
        (Attention.TRITON, A100, 8192, 78),  # the "FlashAttention Triton" bars
        (Attention.TRITON, H100, 16384, 137),  # FlashAttention-1's H100 bars, which Triton tracks on A100
        (Attention.FLASH, GPUS["b200"], 8192, 0.35 * 2250),  # no bars: the card's attention share of its peak
    ],
)
def test_attention_runs_at_its_kernels_measured_rate(
    attention: Attention, gpu: object, seq_len: int, tflops: float
) -> None:
    """FlashAttention's rate is the one its own benchmarks measured on that card at that length, not a flat share."""
    setup = Setup(gpus=8, micro_batch=1, seq_len=seq_len, attention=attention)
    assert attention_rate(LLAMA_8B, setup, gpu) / 1e12 == pytest.approx(tflops)  # type: ignore[arg-type]


def test_ring_attention_runs_the_kernel_at_the_local_chunks_length() -> None:
    """With CP the kernel sees s / CP a call: 16k over CP 8 runs at the 2k rate."""
    setup = Setup(gpus=8, cp=8, micro_batch=1, seq_len=16384)
    assert attention_rate(LLAMA_8B, setup, H100) == pytest.approx(265e12)


@pytest.mark.parametrize(("cp", "tp", "seq_len"), [(64, 64, 1), (8, 1, 16), (1, 64, 131072)])
@pytest.mark.parametrize("name", sorted(GPUS))
def test_extreme_layouts_still_predict(name: str, cp: int, tp: int, seq_len: int) -> None:
    """More context ranks than tokens, TP wider than the heads: a positive step, never a division by zero."""
    setup = Setup(gpus=512, cp=cp, tp=tp, ep=8, micro_batch=1, seq_len=seq_len)
    assert step(setup, MIXTRAL, GPUS[name]).step_seconds > 0
