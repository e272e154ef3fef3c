"""Inputs no layout can hold, refused by name before any search: a plan is never made of them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from effbatch.core.memory.models import ModelSpec
from effbatch.core.planner.space import Fixed


class Impossible(StrEnum):
    """Why an input cannot be planned."""

    PIPELINE_ABOVE_LAYERS = "pipeline_above_layers"  # more pipeline stages than the model has layers
    TOPK_ABOVE_EXPERTS = "topk_above_experts"  # more experts a token than the model has
    PARALLEL_ABOVE_GPUS = "parallel_above_gpus"  # TP · PP · CP given above the GPUs
    PARALLEL_NOT_DIVIDING = "parallel_not_dividing"  # TP · PP · CP given that does not divide the GPUs
    TP_NOT_DIVIDING_HEADS = "tp_not_dividing_heads"  # TP given that does not split the attention heads


@dataclass(frozen=True)
class Refusal:
    """One reason, with the numbers its message names."""

    kind: Impossible
    ctx: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))


class PlanRefusedError(ValueError):
    """The input cannot be planned; ``refusals`` says why, each by name."""

    def __init__(self, refusals: tuple[Refusal, ...]) -> None:
        super().__init__(", ".join(refusal.kind.value for refusal in refusals))
        self.refusals = refusals


def refusals(model: ModelSpec, gpus: int, fixed: Fixed) -> tuple[Refusal, ...]:
    """Every reason ``model`` on ``gpus`` with the degrees ``fixed`` cannot be planned (none: it can)."""
    found: list[Refusal] = []
    if fixed.pp is not None and fixed.pp > model.layers:
        found.append(
            Refusal(Impossible.PIPELINE_ABOVE_LAYERS, MappingProxyType({"pp": fixed.pp, "layers": model.layers}))
        )
    if model.moe and model.topk > model.experts:
        ctx = {"topk": model.topk, "experts": model.experts}
        found.append(Refusal(Impossible.TOPK_ABOVE_EXPERTS, MappingProxyType(ctx)))
    if fixed.tp is not None and model.heads % fixed.tp:
        ctx = {"tp": fixed.tp, "heads": model.heads}
        found.append(Refusal(Impossible.TP_NOT_DIVIDING_HEADS, MappingProxyType(ctx)))
    product = (fixed.tp or 1) * (fixed.pp or 1) * (fixed.cp or 1)
    if product > gpus:
        ctx = {"product": product, "gpus": gpus}
        found.append(Refusal(Impossible.PARALLEL_ABOVE_GPUS, MappingProxyType(ctx)))
    elif gpus % product:
        ctx = {"product": product, "gpus": gpus}
        found.append(Refusal(Impossible.PARALLEL_NOT_DIVIDING, MappingProxyType(ctx)))
    return tuple(found)


def refuse(model: ModelSpec, gpus: int, fixed: Fixed) -> None:
    """``PlanRefusedError`` naming every reason the input cannot be planned."""
    if found := refusals(model, gpus, fixed):
        raise PlanRefusedError(found)
