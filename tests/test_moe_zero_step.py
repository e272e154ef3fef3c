"""An MoE layer's routing and DeepSpeed's un-overlapped ZeRO-1/2 traffic: each behaves as the frameworks' code
says (Megatron-Core's token dispatcher, DeepSpeed's ZeRO config), no number fitted here."""

from __future__ import annotations

from dataclasses import replace

import pytest

from effbatch.core.memory import GPUS, MODELS
from effbatch.core.memory.comms import links
from effbatch.core.memory.kernels import MEMORY_EFFICIENCY, Kernels, shape_efficiency
from effbatch.core.memory.moe_step import LAUNCH_SECONDS, moe_routing
from effbatch.core.memory.setup import Dtype, Framework, Setup
from effbatch.core.memory.step import Part, predict
from effbatch.core.memory.zero_step import applies, data_parallel

H100 = GPUS["h100"]
LLAMA_8B, MIXTRAL = MODELS["llama3.1-8b"], MODELS["mixtral-8x7b"]
MOE = Setup(gpus=8, ep=8, micro_batch=1, accumulation=4, seq_len=4096, framework=Framework.MEGATRON)


def test_a_dense_model_routes_nothing() -> None:
    """Without experts there is no permutation and no host sync: the routing part is zero."""
    assert predict(LLAMA_8B, 0, MOE, H100).seconds[Part.MOE_ROUTING] == 0.0


@pytest.mark.parametrize(
    ("ep", "passes"),
    [
        (1, 2),  # permute and unpermute: one rank holds every expert, nothing to sort after an all-to-all
        (8, 4),  # several experts a rank: sorted by expert after the dispatching all-to-all, back before combining
    ],
)
def test_the_permutation_reads_and_writes_k_copies_a_pass(ep: int, passes: int) -> None:
    """Each pass reads and writes top-k · h values of 2 bytes a token, forward and backward, at memory speed; the
    host's launches come on top (``experts`` // EP local experts, 15 kernels each a layer)."""
    setup, model = replace(MOE, ep=ep, accumulation=1), replace(MIXTRAL, experts=64)  # 8 experts a rank at EP 8
    tokens = setup.micro_batch * 4096
    copies = 2 * passes * 2 * tokens * model.topk * model.hidden * 2 / (H100.hbm * MEMORY_EFFICIENCY)
    host = 15 * (model.experts // ep) * LAUNCH_SECONDS
    assert moe_routing(model, setup, H100) == pytest.approx(model.moe_layers * (copies + host))


def test_an_expert_runs_its_own_small_product() -> None:
    """A routed expert's product has the rows it got, not the batch's: 8 experts over 128 routed share less of
    the best rate than the same model's layers would with all tokens on one expert."""
    few = replace(MIXTRAL, experts=128, topk=1)
    assert shape_efficiency(few, MOE, H100) < shape_efficiency(replace(few, experts=8), MOE, H100)


@pytest.mark.parametrize(
    ("framework", "zero", "expected"),
    [
        (Framework.DEEPSPEED, 1, True),  # overlap_comm off unless ZeRO-3
        (Framework.DEEPSPEED, 2, True),
        (Framework.DEEPSPEED, 3, True),  # ZeRO-3 overlaps, but with DeepSpeed's dtype and reuse distance
        (Framework.DEEPSPEED, 0, False),  # no ZeRO: the engine's plain data parallelism
        (Framework.FSDP, 2, False),
    ],
)
def test_deepspeeds_default_decides(framework: Framework, zero: int, expected: bool) -> None:
    """DeepSpeed's ZeRO stages take DeepSpeed's own data-parallel model; everything else the common one."""
    assert applies(Setup(gpus=8, micro_batch=1, seq_len=2048, framework=framework, zero=zero)) is expected


@pytest.mark.parametrize(("zero", "reductions"), [(1, 1), (2, 8)])
def test_zero_2_reduces_every_micro_batch(zero: int, reductions: int) -> None:
    """ZeRO-1 reduces the gradients once a step, ZeRO-2 once a micro-batch, each an all-reduce (twice a ring's
    (d − 1)/d); the weights are gathered once, all in 2-byte BF16, none of it hidden."""
    setup = Setup(gpus=8, micro_batch=1, accumulation=8, seq_len=2048, framework=Framework.DEEPSPEED, zero=zero)
    setup = replace(setup, dtype=Dtype.BF16)
    ring = 7 / 8 * LLAMA_8B.total_params / links(setup, H100).nvlink
    idle = Kernels(0.0, 0.0, 0.0, 0.0, 1.0)
    assert data_parallel(LLAMA_8B, 0, setup, links(setup, H100), idle) == pytest.approx(ring * 2 * (2 * reductions + 1))
