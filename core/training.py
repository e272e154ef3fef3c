"""From a command's memory and time keys to an assessment: memory per GPU, fit, advice, time. Pure.

The bridge between ``PlanRequest`` (what was typed) and ``core.memory`` (the arithmetic): it builds the
``ModelSpec`` (a named model, its shape overridden by any shape key, or a shape typed whole) and the
``Setup`` (the cluster from b, d, a, L, GPUs and the degrees, the rest from the keys), then estimates.

A memory question needs no b, d, a: ``params=7B zero=3 gpus=8`` asks for the model states per GPU.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from effbatch.core.arguments import FACTORS, Argument
from effbatch.core.calculation import split_problems
from effbatch.core.errors import InputError, Problem, ProblemKind
from effbatch.core.memory import (
    GPUS,
    MODELS,
    MemoryEstimate,
    ModelSpec,
    Offload,
    Rules,
    Setup,
    estimate_params,
)
from effbatch.core.memory.capacity import usable
from effbatch.core.memory.estimate import estimate
from effbatch.core.memory.fit import Fit, fit
from effbatch.core.memory.gpus import GpuSpec
from effbatch.core.memory.report import memory_json
from effbatch.core.memory.setup import Framework
from effbatch.core.memory.step import StepPrediction, predict
from effbatch.core.memory.time import (
    DEFAULT_MFU,
    Breakdown,
    MfuSource,
    TimeEstimate,
    flops_per_token,
    mfu_from_step_time,
    mfu_from_throughput,
)
from effbatch.core.model import Outcome, PlanRequest
from effbatch.core.planner import Planned
from effbatch.core.planner.advice import advise
from effbatch.core.rules import memory_only, memory_question
from effbatch.core.training_keys import REQUIRED_SHAPE_KEYS, TIME_KEYS, TrainingKey
from effbatch.core.training_request import TrainingRequest

#: ``framework=megatron`` without ``distributed_optimizer=``: NeMo's and Megatron-Bridge's recipes and Megatron-LM's
#: Llama and Mixtral examples (examples/llama/train_llama3_8b_h100_fp8.sh) all pass ``--use-distributed-optimizer``;
#: Megatron-LM's bare argument default (False) is what ``distributed_optimizer=nein`` asks for. The same recipes turn
#: on Megatron's sequence parallelism wherever TP > 1 (``sequence_parallel=nein`` turns it off).
MEGATRON_RECIPES_DISTRIBUTE = True


def training_problems(request: PlanRequest) -> list[Problem]:
    """What the memory and time keys cannot answer together (found at parse time, all at once)."""
    training = request.training
    if training is None:
        return []
    problems = _shape_problems(training)
    rules, zero = training.rules, training.zero or 0
    if rules in (Rules.MEGATRON, Rules.KORTHIKANTI) and _shape(training) is None:
        problems.append(_problem(ProblemKind.RULES_NEED_SHAPE, TrainingKey.RULES, rules=rules))
    if rules is Rules.DEEPSPEED and zero < 2:
        problems.append(_problem(ProblemKind.DEEPSPEED_NEEDS_ZERO, TrainingKey.ZERO, zero=zero))
    if training.offload is Offload.PARAMS and zero < 3:
        problems.append(_problem(ProblemKind.OFFLOAD_PARAMS_NEEDS_ZERO3, TrainingKey.OFFLOAD, zero=zero))
    timing = [key for key in TIME_KEYS if training.value(key) is not None]
    if len(timing) > 1:
        problems.append(_problem(ProblemKind.TIME_KEYS_CONFLICT, timing[1], keys=timing))
    if (timing or request.budget is not None) and training.gpu is None and training.peak is None and timing:
        problems.append(_problem(ProblemKind.TIME_NEEDS_PEAK, timing[0]))
    if training.step_time is not None and (memory_only(request) or request.seq_len is None):
        problems.append(_problem(ProblemKind.STEP_TIME_NEEDS_TOKENS, TrainingKey.STEP_TIME))
    if training.offload is Offload.OPTIMIZER and zero == 0:
        problems.append(_problem(ProblemKind.OFFLOAD_NEEDS_ZERO, TrainingKey.OFFLOAD, offload=training.offload.value))
    problems += _model_problems(_shape(training), request) + _expert_grid_problems(request, training)
    if memory_only(request) and request.gpus is not None:
        problems += split_problems(request)  # the batch answer says it itself where B is computed
    return problems


def _model_problems(model: ModelSpec | None, request: PlanRequest) -> list[Problem]:
    """Shapes and layouts no model has: more pipeline stages than layers, virtual stages that do not split the
    layers, more experts a token than experts, expert or KV heads that do not divide, heads that do not split h."""
    if model is None:
        return []
    training = request.training or TrainingRequest()
    problems, pp, vpp, ep = [], request.value(Argument.PP) or 1, training.vpp, training.ep
    if pp > model.layers:
        problems.append(Problem(ProblemKind.PIPELINE_ABOVE_LAYERS, argument=Argument.PP, ctx={"pp": pp, **_of(model)}))
    elif vpp is not None and model.layers % (pp * vpp):
        ctx = {"pp": pp, "vpp": vpp, "product": pp * vpp, **_of(model)}
        problems.append(_problem(ProblemKind.LAYERS_NOT_DIVISIBLE, TrainingKey.VPP, **ctx))
    if model.moe and model.topk > model.experts:
        problems.append(_problem(ProblemKind.TOPK_ABOVE_EXPERTS, TrainingKey.TOPK, topk=model.topk, **_of(model)))
    if model.moe and ep is not None and model.experts % ep:
        problems.append(_problem(ProblemKind.EP_NOT_DIVIDING, TrainingKey.EP, ep=ep, **_of(model)))
    if model.mla is None and model.heads % model.kv_heads:
        ctx = {"kv_heads": model.kv_heads, **_of(model)}
        problems.append(_problem(ProblemKind.KV_HEADS_NOT_DIVIDING, TrainingKey.KV_HEADS, **ctx))
    if model.mla is None and model.head_dim is None and model.hidden % model.heads:
        problems.append(_problem(ProblemKind.HEADS_NOT_DIVIDING, TrainingKey.HEADS, **_of(model)))
    return problems


def _expert_grid_problems(request: PlanRequest, training: TrainingRequest) -> list[Problem]:
    """Megatron's expert grid where ``etp=`` is given: ETP · EP must divide a pipeline stage's GPUs
    (megatron/core/parallel_state.py lines 874-884: ``world_size % (etp · ep · pp)`` raises a RuntimeError)."""
    etp, ep = training.etp, training.ep or 1
    degrees = [request.value(a) or 1 for a in (Argument.TP, Argument.PP, Argument.CP, Argument.SP)]
    gpus = request.gpus or (request.data_parallel and request.data_parallel * math.prod(degrees))
    pp = degrees[1]
    if etp is None or not gpus or gpus % (etp * ep * pp) == 0:
        return []
    ctx = {"etp": etp, "ep": ep, "product": etp * ep, "gpus": gpus, "pp": pp, "per_stage": gpus // pp}
    return [_problem(ProblemKind.ETP_NOT_DIVIDING, TrainingKey.ETP, **ctx)]


def _of(model: ModelSpec) -> dict[str, Any]:
    """What a problem with a model's shape names of it: its layers, experts, heads and width."""
    return {"layers": model.layers, "experts": model.experts, "heads": model.heads, "hidden": model.hidden}


def _problem(kind: ProblemKind, setting: TrainingKey, **ctx: Any) -> Problem:
    return Problem(kind, setting=setting.value, ctx=ctx)


def _shape_problems(training: TrainingRequest) -> list[Problem]:
    problems = []
    if training.model is None and training.shape_given:
        missing = [key for key in _required(training) if training.value(key) is None]
        if missing:
            problems.append(_problem(ProblemKind.SHAPE_INCOMPLETE, missing[0], missing=missing))
    if training.experts and (training.model is None or training.topk or training.moe_ffn):
        missing = [key for key in (TrainingKey.TOPK, TrainingKey.MOE_FFN) if training.value(key) is None]
        if missing and (training.model is None or not MODELS[training.model].moe):
            problems.append(_problem(ProblemKind.MOE_INCOMPLETE, missing[0], missing=missing))
    return problems


def _shape(training: TrainingRequest) -> ModelSpec | None:
    """The model: a named one with any shape key given replacing its value, or a shape typed whole."""
    base = MODELS.get(training.model) if training.model else None
    values: dict[str, Any] = {
        "layers": training.layers,
        "hidden": training.hidden,
        "heads": training.heads,
        "kv_heads": training.kv_heads,
        "ffn": training.ffn,
        "vocab": training.vocab,
        "swiglu": training.swiglu,
        "tied": training.tied,
        "experts": training.experts,
        "topk": training.topk,
        "moe_ffn": training.moe_ffn,
        "head_dim": training.head_dim,
    }
    given: dict[str, Any] = {key: value for key, value in values.items() if value is not None}
    if base is not None:
        return replace(base, **given) if given else base
    if any(training.value(key) is None for key in _required(training)):
        return None
    given.setdefault("kv_heads", given["heads"])
    if "ffn" not in given and given.get("experts") and "moe_ffn" in given:
        given["ffn"] = given["moe_ffn"]  # every typed layer is MoE (no dense_layers key): a dense FFN width is unused
    if training.rules is Rules.KORTHIKANTI and "ffn" not in given:
        given |= {"ffn": 4 * given["hidden"], "swiglu": given.get("swiglu", False)}  # the paper's GPT MLP: 4h GeLU
    return ModelSpec(**given)


def _required(training: TrainingRequest) -> tuple[TrainingKey, ...]:
    """The shape keys a typed shape needs: Korthikanti's rules take the paper's MLP (4h) where ffn= is not given,
    and an MoE shape whose layers are all experts (``experts=`` and ``moe_ffn=``) has no dense FFN to size."""
    if training.rules is Rules.KORTHIKANTI or (training.experts and training.moe_ffn):
        return tuple(key for key in REQUIRED_SHAPE_KEYS if key is not TrainingKey.FFN)
    return REQUIRED_SHAPE_KEYS


@dataclass(frozen=True)
class Assessment:
    """Everything the memory and time sections say, computed once."""

    model: ModelSpec | None
    params: int
    setup: Setup
    memory: MemoryEstimate
    gpu: GpuSpec | None
    capacity: int | None
    fit: Fit | None
    advice: Planned | None  # what fits instead, when the set-up does not
    time: TimeEstimate | None
    flops_per_token: float
    tokens_per_step: int | None
    micro_batch_given: bool

    def as_json(self) -> dict[str, Any]:
        """The issue's contract: ``memory`` and ``time``, keys the input cannot decide absent."""
        return {
            "memory": _memory_json(self),
            **({"time": _time_json(self)} if self.time or self.tokens_per_step else {}),
        }


def assess(request: PlanRequest, outcome: Outcome | None) -> Assessment | None:
    """Memory per GPU (and time) for ``request`` and, where B was computed, its outcome; None: no question."""
    given = [a for a in Argument if a is not Argument.LR and request.value(a) is not None]
    training = request.training or TrainingRequest()
    if not memory_question(given, request.training) and request.training is None:
        return None
    model = _shape(training)
    if model is None and request.params is None:
        return None
    setup = _setup(request, training, outcome)
    found = estimate(model, setup) if model else estimate_params(request.params or 0, setup)
    gpu = GPUS.get(training.gpu) if training.gpu else None
    capacity = capacity_of(training)
    most = Argument.MICRO_BATCH.upper_bound  # b beyond the bound no command takes: not counted
    fitted = fit(found, capacity, most) if capacity else None
    wanted = request.target_global_batch if outcome is None else None  # B asked for but not yet computed: held
    advice = advise(model, setup, capacity, gpu, wanted) if model and capacity and fitted and not fitted.fits else None
    params = model.total_params if model else request.params or 0
    per_token = flops_per_token(model, params, setup.seq_len, setup.rules)
    tokens = outcome.tokens_per_step if outcome else None
    time = _time(request, training, per_token, tokens, setup, gpu, model)
    micro_given = outcome is not None or request.micro_batch is not None
    return Assessment(model, params, setup, found, gpu, capacity, fitted, advice, time, per_token, tokens, micro_given)


def layout(request: PlanRequest, outcome: Outcome | None) -> tuple[ModelSpec | None, int, Setup] | None:
    """The model, its parameters and the set-up ``assess`` estimates, without estimating (the scaling table's input,
    where memory and advice would only cost time); None where neither a model nor ``params=`` is given."""
    training = request.training or TrainingRequest()
    model = _shape(training)
    if model is None and request.params is None:
        return None
    return model, model.total_params if model else request.params or 0, _setup(request, training, outcome)


def _setup(request: PlanRequest, training: TrainingRequest, outcome: Outcome | None) -> Setup:
    """The cluster from the batch answer (or the request), the techniques from the keys."""
    degrees: dict[str, Any] = {
        a.value: request.value(a) or 1 for a in (Argument.TP, Argument.PP, Argument.CP, Argument.SP)
    }
    accumulation: int | None
    if outcome is not None:
        micro, accumulation = outcome.setup.micro_batch, outcome.setup.accumulation
        gpus = outcome.parallelism.gpus if outcome.parallelism else outcome.setup.data_parallel
    else:
        micro, accumulation = request.micro_batch or 1, request.accumulation
        gpus = request.gpus or (request.data_parallel or 1) * math.prod(degrees.values())
    options: dict[str, Any] = {
        key.value: value
        for key in (TrainingKey.DTYPE, TrainingKey.ZERO, TrainingKey.DISTRIBUTED_OPTIMIZER, TrainingKey.OFFLOAD,
                    TrainingKey.RECOMPUTE, TrainingKey.SEQUENCE_PARALLEL, TrainingKey.EP, TrainingKey.ETP,
                    TrainingKey.VPP, TrainingKey.LARGEST_LAYER, TrainingKey.ZERO_INIT, TrainingKey.COMPILE,
                    TrainingKey.USE_CACHE, TrainingKey.LOSS_FUSION, TrainingKey.TP_COMM_OVERLAP,
                    TrainingKey.AUTOCAST, TrainingKey.OPTIMIZER, TrainingKey.GRAD_SYNC, TrainingKey.NODES,
                    TrainingKey.OPTIM_DTYPE, TrainingKey.FP8_PARAMS, TrainingKey.RULES, TrainingKey.FRAMEWORK,
                    TrainingKey.ATTENTION, TrainingKey.NET_GBPS)
        if (value := training.value(key)) is not None
    }  # fmt: skip
    if training.framework is Framework.MEGATRON and training.distributed_optimizer is None:
        options["distributed_optimizer"] = MEGATRON_RECIPES_DISTRIBUTE
    if training.framework is Framework.MEGATRON and training.sequence_parallel is None and degrees["tp"] > 1:
        options["sequence_parallel"] = True
    return Setup(gpus=gpus, micro_batch=micro, accumulation=accumulation, seq_len=request.seq_len, **degrees, **options)


def _time(
    request: PlanRequest,
    training: TrainingRequest,
    per_token: float,
    tokens: int | None,
    setup: Setup,
    gpu: GpuSpec | None,
    model: ModelSpec | None,
) -> TimeEstimate | None:
    """Step time, days and GPU-hours at the MFU given or derived, else predicted part by part on the GPU named
    (assumed only for a peak typed without a GPU); None without a peak."""
    peak = training.peak or (gpu.peak_flops if gpu else None)
    wanted = request.budget is not None or any(training.value(key) is not None for key in TIME_KEYS)
    if peak is None or not (wanted or tokens):
        return None
    gpus, source, breakdown = setup.gpus, MfuSource.GIVEN, None
    if training.step_time is not None and tokens:
        mfu, source = mfu_from_step_time(per_token * tokens, training.step_time, gpus, peak), MfuSource.STEP_TIME
        _possible(mfu, TrainingKey.STEP_TIME, training.step_time)
    elif training.tokens_per_second is not None:
        mfu = mfu_from_throughput(per_token, training.tokens_per_second, gpus, peak)
        source = MfuSource.TOKENS_PER_SECOND
        _possible(mfu, TrainingKey.TOKENS_PER_SECOND, training.tokens_per_second)
    elif training.mfu is not None:
        mfu = training.mfu
    elif gpu is not None and training.peak is None and setup.seq_len:
        step = predict(model, model.total_params if model else request.params or 0, setup, gpu)
        mfu, source, breakdown = step.mfu, MfuSource.PREDICTED, _breakdown(step)
    else:
        mfu, source = DEFAULT_MFU, MfuSource.ASSUMED
    assumed = source is MfuSource.ASSUMED
    return TimeEstimate(per_token, peak, gpus, mfu, assumed, tokens, request.budget, source, breakdown)


def _breakdown(step: StepPrediction) -> Breakdown:
    """A predicted step as the time answer carries it: seconds by part, what was assumed, the bound."""
    seconds = {part.value: s for part, s in step.seconds.items()}
    assumed = tuple(a.value for a in step.assumed)
    return Breakdown(seconds, assumed, step.bound_by.value, step.matmul_efficiency, step.net_gbps)


def _possible(mfu: float, key: TrainingKey, value: float) -> None:
    """An MFU from a step time or a throughput: above 100 % no GPU computes, so the value given cannot be (a unit
    mistaken, ``1ms`` for ``1s``): ``InputError`` naming it."""
    if mfu > 1:
        raise InputError([_problem(ProblemKind.MFU_ABOVE_PEAK, key, value=value, mfu=mfu)])


def _memory_json(found: Assessment) -> dict[str, Any]:
    return memory_json(found.memory, found.setup.micro_batch, found.model, found.gpu, found.fit)


def _time_json(found: Assessment) -> dict[str, Any]:
    data: dict[str, Any] = {"flops_per_token": found.flops_per_token}
    if found.tokens_per_step:
        data["flops_per_step"] = found.flops_per_token * found.tokens_per_step
    time = found.time
    if time is None:
        return data
    data |= {
        "peak_flops": time.peak_flops,
        "mfu": time.mfu,
        "mfu_assumed": time.mfu_assumed,
        "mfu_source": time.source.value,
        "tflops_per_gpu": time.tflops_per_gpu,
        "tokens_per_second": time.tokens_per_second,
    }
    if time.breakdown is not None:
        data["breakdown"] = _breakdown_json(time.breakdown)
    if time.step_seconds is not None:
        data["step_seconds"] = time.step_seconds
    if time.train_days is not None:
        data |= {"total_flops": time.total_flops, "train_days": time.train_days, "gpu_hours": time.gpu_hours}
    return data


def _breakdown_json(breakdown: Breakdown) -> dict[str, Any]:
    """The predicted step: seconds by part, the part beside compute that costs most, what was assumed."""
    data: dict[str, Any] = {"seconds": dict(breakdown.seconds), "bound_by": breakdown.bound_by}
    data["assumed"] = list(breakdown.assumed)
    if breakdown.matmul_efficiency is not None:
        data["matmul_efficiency"] = breakdown.matmul_efficiency
    if breakdown.net_gbps is not None:
        data["net_gbps"] = breakdown.net_gbps
    return data


#: For the answer: the factors a memory-only question lacks for B.
def missing_for_batch(request: PlanRequest) -> list[Argument]:
    return [a for a in FACTORS if request.value(a) is None and not (a is Argument.DATA_PARALLEL and request.gpus)]


def capacity_of(training: TrainingRequest) -> int | None:
    """The bytes a GPU offers a training process: ``gpu_mem=`` as given, else what the GPU type's card leaves usable
    (``core.memory.capacity``); None without either."""
    gpu = GPUS.get(training.gpu) if training.gpu else None
    return training.gpu_mem or (usable(gpu.name, gpu.memory) if gpu else None)


def model_of(training: TrainingRequest) -> ModelSpec | None:
    """The model the keys name or shape (None without one): what the planner plans for."""
    return _shape(training)


def setup_of(request: PlanRequest) -> Setup:
    """The set-up the keys describe without a batch answer: the techniques a plan keeps beside the GPUs."""
    return _setup(request, request.training or TrainingRequest(), None)
