"""The batch-size laws reproduce their papers' own numbers; ranges and the M ≈ 6 · N approximation are stated."""

from __future__ import annotations

import math

import pytest

from effbatch.core.guidance import (
    DEEPSEEK_MAX_COMPUTE,
    DEEPSEEK_MIN_COMPUTE,
    deepseek_law,
    flops_per_token,
    guidance,
    plan_guidance,
    shape_guidance,
    step_law,
)
from effbatch.core.runs import find_run


@pytest.mark.parametrize(
    ("layers", "hidden", "paper_sequences", "paper_lr", "batch_within", "lr_within"),
    [
        # DeepSeek LLM (arXiv 2401.02954) Table 2: 7B = 30 layers, d_model 4096, context 4096, 2.0T tokens,
        # sequence batch 2304, LR 4.2e-4 – "we choose the hyper-parameters based on our findings in Section 3".
        # M from §3.2 Eq. (2), C = M · D: the law gives 9,2 Mio. tokens against the paper's 2.304 × 4.096 ≈ 9,4 Mio.
        (30, 4096, 2304, 4.2e-4, 0.03, 0.02),
        # 67B = 95 layers, d_model 8192: the law gives 20,7 Mio. tokens; the paper rounded down to 4.608 × 4.096
        # ≈ 18,9 Mio. (9 % below) and to LR 3,2e-4 (2,5 % above the law's 3,12e-4).
        (95, 8192, 4608, 3.2e-4, 0.10, 0.03),
    ],
    ids=["deepseek-7b", "deepseek-67b"],
)
def test_deepseek_law_reproduces_its_papers_models(
    layers: int, hidden: int, paper_sequences: int, paper_lr: float, batch_within: float, lr_within: float
) -> None:
    """B_opt = 0,2920 · C^0,3271 and η_opt = 0,3118 · C^−0,1250 with the paper's own M and D give its 7B and 67B."""
    compute = flops_per_token(layers, hidden, 4096) * 2 * 10**12
    estimate = deepseek_law(compute)
    assert estimate.batch_tokens == pytest.approx(paper_sequences * 4096, rel=batch_within)
    assert estimate.lr == pytest.approx(paper_lr, rel=lr_within)
    assert estimate.extrapolated  # 8,5e22 and 9,9e23 FLOPs lie far above the fitted 1e17-2e19


def test_deepseek_m_of_the_7b_shape() -> None:
    """M = 72 · 30 · 4096² + 12 · 30 · 4096 · 4096 = 42.278.584.320 FLOPs per token (§3.2, Eq. (2))."""
    assert flops_per_token(30, 4096, 4096) == 72 * 30 * 4096**2 + 12 * 30 * 4096 * 4096 == 42_278_584_320


def test_with_only_n_the_deepseek_m_is_six_n() -> None:
    """params=7B alone: M ≈ 6 · N = 4,2e10 (close to the 7B shape's 4,23e10), marked as an estimate."""
    found = guidance(7 * 10**9, 2 * 10**12, 2048 * 4096)
    assert found.flops_per_token == 4.2e10
    assert found.flops_per_token_estimated
    assert found.compute == pytest.approx(8.4e22)
    assert found.deepseek.batch_tokens == pytest.approx(2304 * 4096, rel=0.03)


@pytest.mark.parametrize(
    ("params", "tokens", "batch", "lr"),
    [
        # The formula as the paper states it, evaluated by hand: 0,58 · (10¹¹)^0,571 = 0,58 · 10^6,281.
        (10**9, 10**11, 0.58 * 10**6.281, 1.79 * 10 ** (-0.713 * 9) * 10 ** (0.307 * 11)),
        # The lead in shared/FRAMEWORKS.md: Llama 3 405B on 15,6 T tokens → ≈ 20 Mio. tokens (it used 16 Mio.).
        (405 * 10**9, 15_600 * 10**9, 19.8e6, 1.06e-4),
    ],
    ids=["1B-100B", "llama3-405b"],
)
def test_step_law_values(params: int, tokens: int, batch: float, lr: float) -> None:
    """B_opt = 0,58 · D^0,571 tokens and η_opt = 1,79 · N^−0,713 · D^0,307 (Li et al. 2025, arXiv 2503.04715)."""
    estimate = step_law(params, tokens)
    assert estimate.batch_tokens == pytest.approx(batch, rel=0.01)
    assert estimate.lr == pytest.approx(lr, rel=0.01)


def test_step_law_beside_llama3_405b_own_schedule() -> None:
    """Llama 3 405B's last phase (16 Mio. tokens) is 0,85 × Step Law's estimate for its N and D."""
    run = find_run("llama3-405b")
    assert run is not None
    ratio = run.global_batch_tokens / step_law(run.params, run.tokens).batch_tokens
    assert ratio == pytest.approx(0.85, abs=0.01)


@pytest.mark.parametrize(
    ("params", "tokens", "extrapolated"),
    [
        (10**9, 10**11, False),  # the paper's own test setting: inside
        (10**8, 10**10, False),
        (7 * 10**9, 10**11, True),  # more parameters than it was fitted on
        (10**9, 10**12, True),  # more tokens
    ],
)
def test_step_law_range(params: int, tokens: int, extrapolated: bool) -> None:
    """Beyond 1B parameters or 100B tokens the answer says Step Law extrapolates."""
    assert step_law(params, tokens).extrapolated is extrapolated


@pytest.mark.parametrize(
    ("compute", "extrapolated"),
    [(DEEPSEEK_MIN_COMPUTE, False), (DEEPSEEK_MAX_COMPUTE, False), (1e16, True), (1e20, True)],
)
def test_deepseek_range(compute: float, extrapolated: bool) -> None:
    """§3.1 fitted budgets from 1e17 to 2e19 FLOPs; outside, the estimate extrapolates."""
    assert deepseek_law(compute).extrapolated is extrapolated


def test_ratio_is_t_over_step_law() -> None:
    """The team's T beside Step Law's B: 8.388.608 / 6.127.963 ≈ 1,37 for 7B on 2 T tokens."""
    found = guidance(7 * 10**9, 2 * 10**12, 8_388_608)
    assert found.ratio == pytest.approx(8_388_608 / step_law(7e9, 2e12).batch_tokens)
    assert found.ratio == pytest.approx(1.37, abs=0.01)
    assert guidance(7 * 10**9, 2 * 10**12).ratio is None


def test_nearest_runs_by_size() -> None:
    """params=7B: the three 7B runs of the table, nearest first."""
    assert [run.name for run in guidance(7 * 10**9, 2 * 10**12).runs] == ["llama2-7b", "deepseek-7b", "olmo2-7b"]


def test_plan_guidance_needs_params_and_budget() -> None:
    """Without N or D there is no estimate."""
    assert plan_guidance(None, 2 * 10**12, None) is None
    assert plan_guidance(7 * 10**9, None, None) is None
    assert plan_guidance(7 * 10**9, 2 * 10**12, None) is not None


def test_json_names_every_field_of_the_issue() -> None:
    """--json: step_law_batch_tokens, step_law_lr, deepseek_batch_tokens, deepseek_lr, ratio, runs."""
    data = guidance(7 * 10**9, 2 * 10**12, 8_388_608).as_json()
    assert {"step_law_batch_tokens", "step_law_lr", "deepseek_batch_tokens", "deepseek_lr", "ratio", "runs"} <= set(
        data
    )
    assert data["runs"] == ["llama2-7b", "deepseek-7b", "olmo2-7b"]
    assert data["flops_per_token_estimated"] is True


def test_shape_guidance_for_config_checks() -> None:
    """From a Megatron-like shape: N = 12 · 32 · 4096² ≈ 6,4 Mrd., D = steps × tokens per step, M from the shape."""
    found = shape_guidance(layers=32, hidden=4096, vocab=32_000, train_iters=500_000, tokens_per_step=4_194_304)
    assert found.params == 12 * 32 * 4096**2 == 6_442_450_944
    assert found.embedding_params == 32_000 * 4096
    assert found.tokens == 500_000 * 4_194_304
    assert found.flops_per_token is None
    assert found.guidance.flops_per_token_estimated
    shaped = shape_guidance(32, 4096, 32_000, 500_000, 4_194_304, seq_len=4096)
    assert shaped.flops_per_token == flops_per_token(32, 4096, 4096)
    assert not shaped.guidance.flops_per_token_estimated
    assert math.isclose(
        shaped.guidance.ratio or 0, 4_194_304 / step_law(6_442_450_944, 500_000 * 4_194_304).batch_tokens
    )
