"""B = b · d · a and T = B · L, with the worked examples of the /effbatch issue."""

from __future__ import annotations

import pytest

from effbatch.core import BatchSetup, compute


@pytest.mark.parametrize(
    ("b", "d", "a", "seq_len", "global_batch", "tokens"),
    [
        (8, 64, 4, 4096, 2_048, 8_388_608),  # the worked example
        (8, 64, 8, 4096, 4_096, 16_777_216),  # doubling a doubles B
        (8, 64, 4, None, 2_048, None),  # without L there are no tokens
        (2, 8, 128, 2048, 2_048, 4_194_304),  # BLOOM-176B: micro-batch 2, d = 384/(4·12) = 8, batch 2.048
        (12, 8, 5, 1024, 480, 491_520),  # nanoGPT GPT-2 124M: 12 × 1.024 × 40 (5 per GPU × 8 GPUs)
        (1, 1, 1, 1, 1, 1),  # the smallest setup
    ],
)
def test_compute(b: int, d: int, a: int, seq_len: int | None, global_batch: int, tokens: int | None) -> None:
    """B and T follow exactly from the inputs."""
    result = compute(BatchSetup(micro_batch=b, data_parallel=d, accumulation=a, seq_len=seq_len))
    assert (result.global_batch, result.tokens_per_step) == (global_batch, tokens)


def test_json_keys() -> None:
    """The flat JSON object has exactly the keys effbatch --json promises."""
    result = compute(BatchSetup(micro_batch=8, data_parallel=64, accumulation=4))
    assert result.as_json() == {
        "micro_batch": 8,
        "data_parallel": 64,
        "accumulation": 4,
        "seq_len": None,
        "global_batch": 2048,
        "tokens_per_step": None,
    }


def test_setup_rejects_non_integers() -> None:
    """The model is strict: a float or a string is not silently coerced."""
    with pytest.raises(ValueError, match="micro_batch"):
        BatchSetup(micro_batch=8.0, data_parallel=64, accumulation=4)  # type: ignore[arg-type]
