"""A memory and a time model of the planner's tests' own, passed in where a test asserts on the search's logic.

``FakeMemory``: model states of ``states`` bytes split over the GPUs a replica spans (TP · PP) and, from
ZeRO-3 on, over d too; ``per_sample`` bytes of activations a sequence. ``FakeTime``: one second of compute,
plus whatever ``extra`` says for a set-up; it records every set-up it was asked about.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType

from effbatch.core.memory import GpuSpec, MemoryEstimate, ModelSpec, Rules, Setup
from effbatch.core.memory.step import Part, StepPrediction


@dataclass
class FakeMemory:
    states: int
    per_sample: int
    calls: int = 0

    def __call__(self, model: ModelSpec, setup: Setup) -> MemoryEstimate:
        self.calls += 1
        shard = self.states // (setup.tp * setup.pp)
        weights = shard // setup.data_parallel if setup.zero >= 3 else shard
        return MemoryEstimate(
            rules=Rules.EFFBATCH,
            params=model.total_params,
            params_per_gpu=model.total_params // (setup.tp * setup.pp),
            weights=weights,
            grads=0,
            optimizer=0,
            activations=self.per_sample * setup.micro_batch,
            activations_per_layer=self.per_sample,
            activations_per_sample=self.per_sample,
        )


@dataclass
class FakeTime:
    extra: Callable[[Setup], float] = lambda setup: 0.0
    asked: list[Setup] = field(default_factory=list)

    def __call__(self, model: ModelSpec | None, params: int, setup: Setup, gpu: GpuSpec) -> StepPrediction:
        self.asked.append(setup)
        seconds = MappingProxyType({Part.COMPUTE: 1.0, Part.DATA_PARALLEL: self.extra(setup)})
        tokens = setup.micro_batch * (setup.accumulation or 1) * setup.data_parallel * (setup.seq_len or 1)
        return StepPrediction(seconds, tokens, 6.0 * params, setup.gpus, gpu.peak_flops)
