"""Memory per GPU and time to train: pure arithmetic with its sources (no German, no I/O).

``estimate(model, setup)`` is the one entry a caller with a model and a set-up needs (the config check
too): a ``ModelSpec`` (from ``MODELS`` / ``find_model`` or built from a config's shape) and a ``Setup``
(the cluster split, micro-batch, sequence length, precision, ZeRO stage, recomputation, convention).
"""

from __future__ import annotations

from effbatch.core.memory.estimate import MemoryEstimate, Quirk, estimate, estimate_params
from effbatch.core.memory.gpus import GPUS, GpuSpec, find_gpu
from effbatch.core.memory.models import MODELS, Mla, ModelSpec, find_model
from effbatch.core.memory.setup import Dtype, Offload, Recompute, Rules, Setup

__all__ = [
    "GPUS",
    "MODELS",
    "Dtype",
    "GpuSpec",
    "MemoryEstimate",
    "Mla",
    "ModelSpec",
    "Offload",
    "Quirk",
    "Recompute",
    "Rules",
    "Setup",
    "estimate",
    "estimate_params",
    "find_gpu",
    "find_model",
]
