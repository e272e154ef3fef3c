"""Everything a command can set, in one table: symbol, canonical key and upper bound.

Upper bounds are generous sanity limits, not hardware facts: they catch typos
(an extra digit, a pasted ID) while admitting every real training run.

=====================  ======  =================  =========================================
argument               symbol  upper bound        why
=====================  ======  =================  =========================================
micro_batch            b       65.536 (2¹⁶)       sequences on one device in one pass
data_parallel          d       1.048.576 (2²⁰)    replicas; far above any cluster built
accumulation           a       65.536 (2¹⁶)       passes summed before one update
seq_len                L       16.777.216 (2²⁴)   tokens per sequence (16 Mi context)
gpus                   GPUs    16.777.216 (2²⁴)   world size
tp, pp, cp, sp         TP …    4.096 (2¹²)        model-parallel degrees
target_global_batch    B       2⁵²                the largest b · d · a
target_tokens_per_step T       2⁷⁶                the largest B · L
budget                 Budget  10¹⁸               a million times today's largest runs
activation_per_sample  act     2⁵⁰ bytes (1 PiB)  per sequence
lr                     lr      10                 learning rates live far below
prompts                P       16.777.216 (2²⁴)   prompts per rollout (reinforcement learning)
samples                n       65.536 (2¹⁶)       responses per prompt
mini                   mini    16.777.216 (2²⁴)   prompts per optimizer step (verl's ppo_mini_batch_size)
epochs                 epochs  4.096 (2¹²)        passes over one rollout
=====================  ======  =================  =========================================

Dependency-free: the parser, the calculation and the presentation all import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Argument(StrEnum):
    """Everything a command can set; the values double as JSON keys."""

    MICRO_BATCH = "micro_batch"
    DATA_PARALLEL = "data_parallel"
    ACCUMULATION = "accumulation"
    SEQ_LEN = "seq_len"
    GPUS = "gpus"
    TP = "tp"
    PP = "pp"
    CP = "cp"
    SP = "sp"
    TARGET_BATCH = "target_global_batch"
    TARGET_TOKENS = "target_tokens_per_step"
    BUDGET = "budget"
    ACTIVATION = "activation_per_sample"
    LR = "lr"
    PROMPTS = "prompts"
    SAMPLES = "samples"
    MINI = "mini"
    EPOCHS = "epochs"

    @property
    def symbol(self) -> str:
        """The short name used in formulas: b, d, a, L, GPUs, TP …"""
        return _SPECS[self].symbol

    @property
    def key(self) -> str:
        """The key a canonical command writes it with (what-if buttons carry these): b=, gpus=, B= …"""
        return _SPECS[self].key

    @property
    def upper_bound(self) -> int:
        """The largest value accepted."""
        return _SPECS[self].upper_bound


@dataclass(frozen=True)
class _Spec:
    symbol: str
    key: str
    upper_bound: int


_SPECS = {
    Argument.MICRO_BATCH: _Spec("b", "b", 2**16),
    Argument.DATA_PARALLEL: _Spec("d", "d", 2**20),
    Argument.ACCUMULATION: _Spec("a", "a", 2**16),
    Argument.SEQ_LEN: _Spec("L", "L", 2**24),
    Argument.GPUS: _Spec("GPUs", "gpus", 2**24),
    Argument.TP: _Spec("TP", "tp", 2**12),
    Argument.PP: _Spec("PP", "pp", 2**12),
    Argument.CP: _Spec("CP", "cp", 2**12),
    Argument.SP: _Spec("SP", "sp", 2**12),
    Argument.TARGET_BATCH: _Spec("B", "B", 2**52),
    Argument.TARGET_TOKENS: _Spec("T", "T", 2**76),
    Argument.BUDGET: _Spec("Budget", "budget", 10**18),
    Argument.ACTIVATION: _Spec("act", "act", 2**50),
    Argument.LR: _Spec("lr", "lr", 10),
    Argument.PROMPTS: _Spec("P", "prompts", 2**24),
    Argument.SAMPLES: _Spec("n", "n", 2**16),
    Argument.MINI: _Spec("mini", "mini", 2**24),
    Argument.EPOCHS: _Spec("epochs", "epochs", 2**12),
}

#: The three factors of B, in formula order.
FACTORS = (Argument.MICRO_BATCH, Argument.DATA_PARALLEL, Argument.ACCUMULATION)
#: The model-parallel degrees that split one replica: d = GPUs / (TP · PP · CP · SP).
MODEL_PARALLEL = (Argument.TP, Argument.PP, Argument.CP, Argument.SP)
#: The targets a missing factor is solved for.
TARGETS = (Argument.TARGET_BATCH, Argument.TARGET_TOKENS)
#: A reinforcement-learning rollout: P prompts, n responses each, mini prompts per optimizer step, epochs.
ROLLOUT = (Argument.PROMPTS, Argument.SAMPLES, Argument.MINI, Argument.EPOCHS)
