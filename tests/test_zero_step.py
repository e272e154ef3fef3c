"""DeepSpeed's ZeRO-3 traffic and its optimizer step's memory passes, counted as DeepSpeed's code runs them
(deepspeedai/DeepSpeed edaa722: ``stage3.py``, ``stage_1_and_2.py``, ``partitioned_param_coordinator.py``), no
number fitted here. ZeRO-1/2's un-overlapped all-reduce: ``test_moe_zero_step.py``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from effbatch.core.memory import GPUS, MODELS
from effbatch.core.memory.comms import OPTIMIZER_BYTES, links
from effbatch.core.memory.kernels import Kernels
from effbatch.core.memory.setup import Dtype, Framework, Setup
from effbatch.core.memory.step import Part, predict
from effbatch.core.memory.zero_step import data_parallel, step_bytes

A100 = GPUS["a100-80"]
LLAMA_7B = MODELS["llama2-7b"]
#: FlagPerf's Llama 2 7B in DeepSpeed ZeRO-3 on one node of 8 (throughput_c), with a = 2 to count micro-batches.
ZERO3 = Setup(
    gpus=8, micro_batch=1, accumulation=2, seq_len=4096, framework=Framework.DEEPSPEED, zero=3, dtype=Dtype.BF16
)
#: Kernels that take no time: nothing hides the traffic, so the exposed seconds are all its seconds.
IDLE = Kernels(0.0, 0.0, 0.0, 0.0, 1.0)


@pytest.mark.parametrize(
    ("local", "gathers"),
    [
        (LLAMA_7B.total_params, 2 - 5e8 / LLAMA_7B.total_params),  # the last 5e8 elements stay for the backward
        (4e8, 1.0),  # a model inside the reuse distance is gathered once: forward and backward reuse it
    ],
)
def test_zero_3_gathers_twice_but_what_comes_back_soon(local: float, gathers: float) -> None:
    """Each micro-batch: the weights gathered forward and (less what is reused within 1e9 elements of the trace)
    backward, the gradients reduce-scattered, all in 2-byte BF16 (``communication_data_type``)."""
    lk = links(ZERO3, A100)
    seconds = data_parallel(None, int(local), ZERO3, lk, IDLE)
    assert seconds == pytest.approx(2 * 7 / 8 * local * 2 * (gathers + 1) / lk.nvlink)


def test_zero_3_hides_behind_compute_but_one_layer() -> None:
    """With compute to hide behind, only one layer's share stays exposed and the rest costs NCCL's SMs."""
    lk = links(ZERO3, A100)
    busy = Kernels(10.0, 0.0, 0.0, 0.0, 1.0)  # 5 s a micro-batch, far longer than its traffic
    per_micro = data_parallel(LLAMA_7B, 0, ZERO3, lk, IDLE) / 2
    hidden = per_micro * (1 - 1 / LLAMA_7B.layers)
    expected = 2 * (per_micro / LLAMA_7B.layers + hidden * lk.contention)
    assert data_parallel(LLAMA_7B, 0, ZERO3, lk, busy) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("framework", "zero", "dtype", "expected"),
    [
        # norm 2, flatten 2 + 2, widen 2 + 4, unscale 4 + 4, FusedAdam 28, copy back 4 + 2
        (Framework.DEEPSPEED, 1, Dtype.BF16, 54),
        (Framework.DEEPSPEED, 3, Dtype.BF16, 54),
        (Framework.DEEPSPEED, 2, Dtype.FP16, 54 + 28),  # and ``_has_inf_or_nan`` over the gradients
        (Framework.DEEPSPEED, 1, Dtype.FP32, 4 + 8 + 8 + 28),  # no 2-byte copy to widen from or copy back to
        (Framework.DEEPSPEED, 0, Dtype.BF16, OPTIMIZER_BYTES),  # no ZeRO: not this optimizer
        (Framework.FSDP, 3, Dtype.BF16, OPTIMIZER_BYTES),
    ],
)
def test_the_optimizer_step_passes(framework: Framework, zero: int, dtype: Dtype, expected: float) -> None:
    """Bytes DeepSpeed's ZeRO step moves a parameter of the GPU's share; other frameworks keep the common count."""
    assert (
        step_bytes(Setup(gpus=8, micro_batch=1, seq_len=2048, framework=framework, zero=zero, dtype=dtype)) == expected
    )


def test_the_step_reads_deepspeeds_passes() -> None:
    """The predicted step spends the GPU's eighth of the weights times those bytes at the memory's reached speed."""
    seconds = predict(LLAMA_7B, 0, ZERO3, A100).seconds[Part.OPTIMIZER]
    assert seconds == pytest.approx(LLAMA_7B.total_params / 8 * 54 / (A100.hbm * 0.8))
    fsdp = predict(LLAMA_7B, 0, replace(ZERO3, framework=Framework.FSDP), A100).seconds[Part.OPTIMIZER]
    assert seconds / fsdp == pytest.approx(54 / OPTIMIZER_BYTES)
