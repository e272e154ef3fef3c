"""The layouts a plan searches: TP, PP, VPP, CP, EP, ZeRO stage and recomputation, bounded by construction.

Each degree is taken from a short list of the values runs use, and only where it can work on the
cluster and the model:

- TP 1, 2, 4, 8 within one node's NVLink domain (TP across nodes waits on the network every layer),
  dividing the attention heads and the KV heads (or divided by them);
- PP 1, 2, 4 … 64, at most the layers; interleaving (VPP 2 or 4) where the layers split into PP · VPP
  chunks – Megatron-LM's interleaved schedule also needs a multiple of PP micro-batches, checked with b;
- CP 1, 2, 4, 8 where every rank keeps at least ``MIN_CP_TOKENS`` tokens of the sequence in two chunks
  (the load-balanced ring splits a sequence into 2 · CP pieces);
- EP only for mixture-of-experts models: powers of two dividing the experts and the data-parallel group;
- ZeRO 0–3 (``megatron`` rules: without and with the distributed optimizer, 0 and 1; ``deepspeed``: the
  estimator's stages 2 and 3); ZeRO-2/3 only without a pipeline, as DeepSpeed refuses them with its
  pipeline engine;
- recomputation selective (FlashAttention) and full (``megatron`` rules: none and selective, as Megatron's
  estimator counts no full recomputation).

A degree the user fixed (``tp=8``) is the only value of its list. Every list is short, so the product is
bounded: at most ``4 · 7 · 3 · 4 · 7 · 4 · 2`` layouts, whatever the cluster.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import GPUS_PER_NODE, Recompute, Rules

TP_DEGREES = (1, 2, 4, 8)
PP_DEGREES = (1, 2, 4, 8, 16, 32, 64)
VPP_DEGREES = (None, 2, 4)
CP_DEGREES = (1, 2, 4, 8)
EP_DEGREES = (1, 2, 4, 8, 16, 32, 64)
#: The fewest tokens of a sequence a context-parallel rank keeps: below, the ring's exchange outweighs the work.
MIN_CP_TOKENS = 1024


@dataclass(frozen=True)
class Fixed:
    """What the user gave and the search keeps: None searches the value."""

    tp: int | None = None
    pp: int | None = None
    vpp: int | None = None
    cp: int | None = None
    ep: int | None = None
    zero: int | None = None
    recompute: Recompute | None = None
    micro_batch: int | None = None


@dataclass(frozen=True, order=True)
class Layout:
    """One way to lay the model over the GPUs, before the micro-batch is chosen."""

    tp: int
    pp: int
    cp: int
    ep: int
    vpp: int | None
    zero: int
    recompute: Recompute

    @property
    def model_parallel(self) -> int:
        """GPUs one model replica spans: TP · PP · CP."""
        return self.tp * self.pp * self.cp

    @property
    def simplicity(self) -> tuple[int, int, int, int, int, int]:
        """What a person tries first sorts first: the fewest GPUs a replica, no pipeline, the lowest ZeRO stage,
        selective recomputation, no interleaving, no expert split."""
        full = int(self.recompute is Recompute.FULL)
        return (self.model_parallel, self.pp, self.zero, full, self.vpp or 1, self.ep)


def layouts(model: ModelSpec, gpus: int, seq_len: int | None, rules: Rules, fixed: Fixed) -> Iterator[Layout]:
    """Every layout the lists allow for ``model`` on ``gpus`` (the GPUs split whole into TP · PP · CP · d)."""
    for tp, pp, cp in product(_tps(model, gpus, fixed), _pps(model, fixed), _cps(seq_len, fixed)):
        if gpus % (tp * pp * cp):
            continue
        dense_group = gpus // (tp * pp)
        for vpp, ep, zero, recompute in product(
            _vpps(model, pp, fixed),
            _eps(model, dense_group, fixed),
            _zeros(rules, pp, fixed),
            _recomputes(rules, fixed),
        ):
            yield Layout(tp, pp, cp, ep, vpp, zero, recompute)


def _only(value: int | None, choices: tuple[int, ...]) -> tuple[int, ...]:
    return (value,) if value is not None else choices


def _tps(model: ModelSpec, gpus: int, fixed: Fixed) -> tuple[int, ...]:
    node = min(gpus, GPUS_PER_NODE)
    fits = [tp for tp in TP_DEGREES if tp <= node and _splits_heads(model, tp)]
    return _only(fixed.tp, tuple(fits))


def _splits_heads(model: ModelSpec, tp: int) -> bool:
    if model.mla is not None:
        return model.heads % tp == 0
    return model.heads % tp == 0 and (model.kv_heads % tp == 0 or tp % model.kv_heads == 0)


def _pps(model: ModelSpec, fixed: Fixed) -> tuple[int, ...]:
    return _only(fixed.pp, tuple(pp for pp in PP_DEGREES if pp <= model.layers))


def _vpps(model: ModelSpec, pp: int, fixed: Fixed) -> tuple[int | None, ...]:
    if fixed.vpp is not None:
        return (fixed.vpp,)
    if pp == 1:
        return (None,)
    return tuple(v for v in VPP_DEGREES if v is None or model.layers % (pp * v) == 0)


def _cps(seq_len: int | None, fixed: Fixed) -> tuple[int, ...]:
    if seq_len is None:
        return _only(fixed.cp, (1,))
    split = tuple(cp for cp in CP_DEGREES if cp == 1 or (seq_len % (2 * cp) == 0 and seq_len // cp >= MIN_CP_TOKENS))
    return _only(fixed.cp, split)


def _eps(model: ModelSpec, dense_group: int, fixed: Fixed) -> tuple[int, ...]:
    if not model.moe:
        return (1,)
    return _only(fixed.ep, tuple(ep for ep in EP_DEGREES if model.experts % ep == 0 and dense_group % ep == 0))


def _zeros(rules: Rules, pp: int, fixed: Fixed) -> tuple[int, ...]:
    if fixed.zero is not None:
        return (fixed.zero,)
    stages = {Rules.MEGATRON: (0, 1), Rules.DEEPSPEED: (2, 3)}.get(rules, (0, 1, 2, 3))
    return tuple(zero for zero in stages if pp == 1 or zero <= 1)


def _recomputes(rules: Rules, fixed: Fixed) -> tuple[Recompute, ...]:
    if fixed.recompute is not None:
        return (fixed.recompute,)
    if rules is Rules.MEGATRON:
        return (Recompute.NONE, Recompute.SELECTIVE)
    return (Recompute.SELECTIVE, Recompute.FULL)


def leanest_zero(rules: Rules, pp: int, fixed: Fixed) -> int | None:
    """The ZeRO stage that keeps least on a GPU among those a layout with ``pp`` stages may take."""
    return max(_zeros(rules, pp, fixed), default=None)


def leanest_recompute(rules: Rules, fixed: Fixed) -> Recompute:
    """The recomputation that keeps least among those searched."""
    return _recomputes(rules, fixed)[-1]
