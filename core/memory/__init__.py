"""Memory per GPU and time to train: pure arithmetic with its sources (no German, no I/O).

``estimate.estimate(model, setup)`` is the one entry a caller with a model and a set-up needs (the config check
too): a ``ModelSpec`` (from ``MODELS`` / ``find_model`` or built from a config's shape) and a ``Setup``
(the cluster split, micro-batch, sequence length, precision, ZeRO stage, recomputation, convention).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from effbatch.core.memory.estimate import MemoryEstimate, Quirk, estimate_params
    from effbatch.core.memory.gpus import GPUS, GpuSpec, find_gpu
    from effbatch.core.memory.models import MODELS, Mla, ModelSpec, find_model
    from effbatch.core.memory.setup import Dtype, Offload, Recompute, Rules, Setup

#: Where each name lives: a module that needs only the set-up's enums (the parser, the calculator) does not load
#: the estimator, its holders and the step model with them (PEP 562). ``estimate`` itself is not here: its module
#: has its name, and an imported submodule shadows a lazily found attribute of the same name.
_HOME = {
    "MemoryEstimate": "estimate",
    "Quirk": "estimate",
    "estimate_params": "estimate",
    "GPUS": "gpus",
    "GpuSpec": "gpus",
    "find_gpu": "gpus",
    "MODELS": "models",
    "Mla": "models",
    "ModelSpec": "models",
    "find_model": "models",
    "Dtype": "setup",
    "Offload": "setup",
    "Recompute": "setup",
    "Rules": "setup",
    "Setup": "setup",
}


def __getattr__(name: str) -> object:
    if (home := _HOME.get(name)) is None:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


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
    "estimate_params",
    "find_gpu",
    "find_model",
]
