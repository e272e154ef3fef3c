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
  pipeline engine (torchtitan, which runs FSDP2 beside PP, aside); a framework given keeps to its own stages
  and splits (``_FRAMEWORKS``);
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
from effbatch.core.memory.setup import GPUS_PER_NODE, Framework, Offload, Recompute, Rules, Setup

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
    #: Megatron's sequence parallelism beside TP; None: on wherever TP splits the layers, as Megatron-LM runs it.
    sequence_parallel: bool | None = None


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


def layouts(model: ModelSpec, gpus: int, seq_len: int | None, base: Setup, fixed: Fixed) -> Iterator[Layout]:
    """Every layout the lists allow for ``model`` on ``gpus`` (the GPUs split whole into TP · PP · CP · d), and
    ``base.framework`` can run (a framework given keeps to what it has)."""
    rules, splits = base.rules, _FRAMEWORKS.get(base.framework) if base.framework else None
    for tp, pp, cp in product(_tps(model, gpus, fixed), _pps(model, fixed), _cps(seq_len, fixed)):
        if gpus % (tp * pp * cp) or (splits is not None and not splits.allows(tp, pp, cp)):
            continue
        dense_group = gpus // (tp * pp)
        for vpp, ep, zero, recompute in product(
            _vpps(model, pp, fixed),
            _eps(model, dense_group, fixed),
            _zeros(rules, pp, fixed, splits),
            _recomputes(rules, fixed),
        ):
            if zero >= _OFFLOAD_NEEDS[base.offload]:
                yield Layout(tp, pp, cp, ep, vpp, zero, recompute)


#: The ZeRO stage offloading needs: the optimizer states are offloaded from their shards (1), the parameters
#: from ZeRO-3's (as DeepSpeed's ``offload_optimizer`` and ``offload_param`` do).
_OFFLOAD_NEEDS = {Offload.NONE: 0, Offload.OPTIMIZER: 1, Offload.PARAMS: 3}


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


@dataclass(frozen=True)
class _Splits:
    """What a framework can split: its ZeRO (or FSDP) stages, and whether it runs TP, PP and CP beside them."""

    stages: tuple[int, ...]
    model_parallel: bool = True
    sharded_pipeline: bool = False  # ZeRO-2/3 (FSDP) together with a pipeline

    def allows(self, tp: int, pp: int, cp: int) -> bool:
        return self.model_parallel or tp * pp * cp == 1


#: A framework given (``framework=``) keeps the search to what it runs: Megatron-LM shards only the optimizer
#: (its distributed optimizer); FSDP's NO_SHARD, SHARD_GRAD_OP and FULL_SHARD are ZeRO 0, 2 and 3; torchtitan
#: runs FSDP2 with TP, PP and CP; DDP, the Hugging Face Trainer (DeepSpeed or FSDP inside) and Lightning Fabric
#: (LitGPT: DDP or FSDP) split no layer.
_FRAMEWORKS = {
    Framework.MEGATRON: _Splits((0, 1)),
    Framework.DEEPSPEED: _Splits((0, 1, 2, 3)),
    Framework.FSDP: _Splits((0, 2, 3), model_parallel=False),
    Framework.FSDP2: _Splits((0, 2, 3), model_parallel=False),
    Framework.TORCHTITAN: _Splits((2, 3), sharded_pipeline=True),
    Framework.DDP: _Splits((0,), model_parallel=False),
    Framework.HUGGINGFACE: _Splits((0, 1, 2, 3), model_parallel=False),
    Framework.LIGHTNING: _Splits((0, 2, 3), model_parallel=False),
    Framework.OLMO_CORE: _Splits((2, 3), model_parallel=False),
}


def _zeros(rules: Rules, pp: int, fixed: Fixed, splits: _Splits | None = None) -> tuple[int, ...]:
    if fixed.zero is not None:
        return (fixed.zero,)
    stages: tuple[int, ...] = {Rules.MEGATRON: (0, 1), Rules.DEEPSPEED: (2, 3)}.get(rules, (0, 1, 2, 3))
    if splits is not None:
        stages = tuple(zero for zero in stages if zero in splits.stages)
    sharded_pipeline = splits is not None and splits.sharded_pipeline
    return tuple(zero for zero in stages if pp == 1 or zero <= 1 or sharded_pipeline)


def _recomputes(rules: Rules, fixed: Fixed) -> tuple[Recompute, ...]:
    if fixed.recompute is not None:
        return (fixed.recompute,)
    if rules is Rules.MEGATRON:
        return (Recompute.NONE, Recompute.SELECTIVE)
    return (Recompute.SELECTIVE, Recompute.FULL)


def leanest_zero(base: Setup, pp: int, fixed: Fixed) -> int | None:
    """The ZeRO stage that keeps least on a GPU among those a layout with ``pp`` stages may take."""
    splits = _FRAMEWORKS.get(base.framework) if base.framework else None
    return max(_zeros(base.rules, pp, fixed, splits), default=None)


def leanest_recompute(rules: Rules, fixed: Fixed) -> Recompute:
    """The recomputation that keeps least among those searched."""
    return _recomputes(rules, fixed)[-1]
