"""Batch-size laws as estimates beside a setup: Step Law and DeepSeek LLM's hyper-parameter law.

Both are power laws fitted on small training runs. They give an estimate of a good batch (in
tokens) and peak learning rate, not a rule: the answer words them as estimates and says when a
setup lies outside the range a law was fitted on (then it extrapolates).

Step Law – Li et al. 2025, "Predictable Scale: Part I" (arXiv 2503.04715), the fitted law::

    B_opt = 0,58 · D^0,571            (tokens; D = tokens trained)
    η_opt = 1,79 · N^−0,713 · D^0,307 (N = non-embedding parameters)

DeepSeek LLM – Bi et al. 2024 (arXiv 2401.02954), §3.1, Eq. (1)::

    B_opt = 0,2920 · C^0,3271         (tokens)
    η_opt = 0,3118 · C^−0,1250
    C = M · D,  M = 72 · n_layer · d_model² + 12 · n_layer · d_model · l_seq  (§3.2, Eq. (2))

M is the non-embedding FLOPs per token including attention. Where the shape is known (a config
check reads n_layer, d_model and the sequence length) M is computed from it; with only a parameter
count N the shape is unknown and M is taken as 6 · N (the C = 6ND convention DeepSeek compares M
with in §3.2). 6 · N leaves out the attention term 12 · n_layer · d_model · l_seq, l_seq / (6 · d_model)
of 72 · n_layer · d_model²: at d_model 4.096 and 4K-8K context M comes out 14-25 % small and B_opt
(∝ C^0,3271) 5-10 % low. The answer says which M it used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from effbatch.core.runs import PublishedRun, nearest_runs

# --- Step Law (Li et al. 2025, arXiv 2503.04715; the formula as the paper states it, also in
# --- its reproductions, e.g. the "stepfun" baseline in SLDBench's evaluation script) ----------
STEP_LAW_BATCH_COEF = 0.58
STEP_LAW_BATCH_EXP = 0.571
STEP_LAW_LR_COEF = 1.79
STEP_LAW_LR_N_EXP = -0.713
STEP_LAW_LR_D_EXP = 0.307
#: The largest setting of the paper's grid (e.g. 400M on 40B and 1B on 100B tokens; its test point is
#: 1B parameters on 100B tokens, 0,094 % from the grid optimum). The grid's exact lower edges were not
#: verified; beyond these upper ones the answer says the law extrapolates.
STEP_LAW_MAX_PARAMS = 1e9
STEP_LAW_MAX_TOKENS = 1e11

# --- DeepSeek LLM (Bi et al. 2024, arXiv 2401.02954) ---------------------------------------
DEEPSEEK_BATCH_COEF = 0.2920  # §3.1, Eq. (1)
DEEPSEEK_BATCH_EXP = 0.3271
DEEPSEEK_LR_COEF = 0.3118
DEEPSEEK_LR_EXP = -0.1250
#: §3.1: "compute budgets ranging from 1e17 to 2e19" were fitted (validated at 1e20).
DEEPSEEK_MIN_COMPUTE = 1e17
DEEPSEEK_MAX_COMPUTE = 2e19
#: M ≈ 6 · N when only the parameter count is known (§3.2 compares M with 6N₁ and 6N₂).
FLOPS_PER_PARAM = 6


@dataclass(frozen=True)
class Shape:
    """n_layer, d_model and l_seq: what DeepSeek's M needs (§3.2, Eq. (2))."""

    layers: int
    hidden: int
    seq_len: int

    @property
    def flops_per_token(self) -> int:
        return flops_per_token(self.layers, self.hidden, self.seq_len)


@dataclass(frozen=True)
class Estimate:
    """A law's estimate: batch in tokens and peak learning rate; ``extrapolated`` outside its range."""

    batch_tokens: float
    lr: float
    extrapolated: bool


@dataclass(frozen=True)
class Guidance:
    """The laws beside one setup: N, D, the team's T, both estimates and the nearest published runs.

    ``shape`` is the shape DeepSeek's M was computed from; None where M was taken as 6 · N.
    """

    params: int
    tokens: int
    tokens_per_step: int | None
    flops_per_token: float
    step_law: Estimate
    deepseek: Estimate
    runs: tuple[PublishedRun, ...]
    shape: Shape | None = None

    @property
    def flops_per_token_estimated(self) -> bool:
        """M taken as 6 · N (the shape unknown), not from the shape."""
        return self.shape is None

    @property
    def compute(self) -> float:
        """C = M · D."""
        return self.flops_per_token * self.tokens

    @property
    def ratio(self) -> float | None:
        """T / Step Law's B: how the team's tokens per step compare with the estimate."""
        if self.tokens_per_step is None:
            return None
        return self.tokens_per_step / self.step_law.batch_tokens

    def as_json(self) -> dict[str, object]:
        return {
            "step_law_batch_tokens": round(self.step_law.batch_tokens),
            "step_law_lr": self.step_law.lr,
            "deepseek_batch_tokens": round(self.deepseek.batch_tokens),
            "deepseek_lr": self.deepseek.lr,
            "ratio": self.ratio,
            "runs": [run.name for run in self.runs],
            "params": self.params,
            "tokens": self.tokens,
            "flops_per_token": self.flops_per_token,
            "flops_per_token_estimated": self.flops_per_token_estimated,
            "step_law_extrapolated": self.step_law.extrapolated,
            "deepseek_extrapolated": self.deepseek.extrapolated,
        }


def step_law(params: float, tokens: float) -> Estimate:
    """Step Law's B_opt and η_opt for N non-embedding parameters and D tokens."""
    batch = STEP_LAW_BATCH_COEF * tokens**STEP_LAW_BATCH_EXP
    lr = STEP_LAW_LR_COEF * params**STEP_LAW_LR_N_EXP * tokens**STEP_LAW_LR_D_EXP
    outside = params > STEP_LAW_MAX_PARAMS or tokens > STEP_LAW_MAX_TOKENS
    return Estimate(batch, lr, outside)


def deepseek_law(compute: float) -> Estimate:
    """DeepSeek LLM's B_opt and η_opt for a compute budget C = M · D in FLOPs."""
    batch = DEEPSEEK_BATCH_COEF * compute**DEEPSEEK_BATCH_EXP
    lr = DEEPSEEK_LR_COEF * compute**DEEPSEEK_LR_EXP
    outside = not DEEPSEEK_MIN_COMPUTE <= compute <= DEEPSEEK_MAX_COMPUTE
    return Estimate(batch, lr, outside)


def flops_per_token(layers: int, hidden: int, seq_len: int) -> int:
    """DeepSeek's M = 72 · n_layer · d_model² + 12 · n_layer · d_model · l_seq (§3.2, Eq. (2))."""
    return 72 * layers * hidden**2 + 12 * layers * hidden * seq_len


def guidance(params: int, tokens: int, tokens_per_step: int | None = None, shape: Shape | None = None) -> Guidance:
    """Both laws for N = ``params`` and D = ``tokens``; DeepSeek's M from ``shape``, or 6 · N without it."""
    per_token = float(FLOPS_PER_PARAM * params if shape is None else shape.flops_per_token)
    return Guidance(
        params=params,
        tokens=tokens,
        tokens_per_step=tokens_per_step,
        flops_per_token=per_token,
        step_law=step_law(params, tokens),
        deepseek=deepseek_law(per_token * tokens),
        runs=nearest_runs(params),
        shape=shape,
    )


@dataclass(frozen=True)
class ShapeEstimate:
    """N and D estimated from a config's shape and length, each with what it was computed from."""

    params: int
    embedding_params: int
    tokens: int
    flops_per_token: int | None
    guidance: Guidance


def shape_guidance(
    layers: int, hidden: int, vocab: int, train_iters: int, tokens_per_step: int, seq_len: int | None = None
) -> ShapeEstimate:
    """For config checks: N ≈ 12 · n_layer · d_model² (non-embedding), D = steps × tokens per step.

    12 · n · d² counts attention (4 d²) and a 4×-wide MLP (8 d²) per layer, as Kaplan et al. 2020
    (§2.1) count non-embedding parameters; the embedding (vocab · d_model) is reported beside it.
    With the sequence length, DeepSeek's M is computed from the shape instead of 6 · N.
    """
    params = 12 * layers * hidden**2
    tokens = train_iters * tokens_per_step
    shape = Shape(layers, hidden, seq_len) if seq_len else None
    return ShapeEstimate(
        params=params,
        embedding_params=vocab * hidden,
        tokens=tokens,
        flops_per_token=shape.flops_per_token if shape else None,
        guidance=guidance(params, tokens, tokens_per_step, shape),
    )


@dataclass(frozen=True)
class BatchRange:
    """Where the two laws put the batch: between their estimates, in tokens and (with L) in whole sequences."""

    low_tokens: int
    high_tokens: int
    seq_len: int | None = None

    @property
    def sequences(self) -> tuple[int, int] | None:
        """The whole numbers of sequences inside the range (rounded inwards), or None without L."""
        if self.seq_len is None:
            return None
        low, high = math.ceil(self.low_tokens / self.seq_len), self.high_tokens // self.seq_len
        if low > high:  # both estimates within one sequence (or below one): the nearest whole number
            low = high = max(1, round((self.low_tokens + self.high_tokens) / 2 / self.seq_len))
        return low, high

    @property
    def power_of_two(self) -> int | None:
        """A power of two of sequences inside the range (the batch people pick), the largest if several."""
        if self.sequences is None:
            return None
        low, high = self.sequences
        power = 1 << (high.bit_length() - 1)
        return power if power >= low else None

    def as_json(self) -> dict[str, object]:
        sequences = self.sequences
        return {
            "tokens": [self.low_tokens, self.high_tokens],
            "sequences": list(sequences) if sequences else None,
            "seq_len": self.seq_len,
        }


def batch_range(found: Guidance, seq_len: int | None = None) -> BatchRange:
    """The range between Step Law's and DeepSeek's batch estimates (rounded to whole tokens)."""
    estimates = sorted(round(e.batch_tokens) for e in (found.step_law, found.deepseek))
    return BatchRange(estimates[0], estimates[1], seq_len)


def plan_guidance(params: int | None, budget: int | None, tokens_per_step: int | None) -> Guidance | None:
    """The laws for a planned setup: N from ``params=``, D from ``budget=``; None unless both are given."""
    if params is None or budget is None:
        return None
    return guidance(params, budget, tokens_per_step)
