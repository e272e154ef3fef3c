"""B = b · d · a, T = B · L, and the planning rules around them.

- d = GPUs / (TP · PP · CP · SP) (Megatron-LM's data-parallel size); a GPU count the
  model-parallel product does not divide is an error naming the nearest that work.
- With a target B (or T) and two of b, d, a, the third is solved for, as DeepSpeed
  fills in a missing batch factor; a target not reachable in whole numbers yields the
  nearest feasible values below and above instead of an error. All three given and
  disagreeing with the target is DeepSpeed's consistency error.
- Optimizer steps for a token budget: ⌈budget / T⌉.
- Activation memory per device: b · activation per sequence; accumulation adds none.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from effbatch.core.arguments import FACTORS, MODEL_PARALLEL, TARGETS, Argument
from effbatch.core.errors import InputError, Problem, ProblemKind, Side
from effbatch.core.model import (
    Activation,
    BatchSetup,
    BinaryTarget,
    Comparison,
    LearningRates,
    Outcome,
    Parallelism,
    Plan,
    PlanRequest,
    Rollout,
    Solution,
    Target,
)
from effbatch.core.rules import missing_factors
from effbatch.core.runs import PublishedRun

#: b, d and a as far as they are known: given, derived from the GPUs, or solved for.
Factors = Mapping[Argument, int]


def compute(setup: BatchSetup) -> Outcome:
    """Global batch (sequences per optimizer update) and tokens per update."""
    global_batch = setup.micro_batch * setup.data_parallel * setup.accumulation
    tokens = None if setup.seq_len is None else global_batch * setup.seq_len
    return Outcome(setup=setup, global_batch=global_batch, tokens_per_step=tokens)


def plan(request: PlanRequest) -> Plan:
    """Resolve d from the GPUs, solve for a missing factor, add budget and memory; or InputError."""
    problems: list[Problem] = []
    data_parallel = _data_parallel(request, problems)
    rollout = _rollout(request, data_parallel, problems)
    target = _target(request, problems) if rollout is None else Target(argument=Argument.TARGET_BATCH, value=rollout)
    given = [Argument(key) for key in request.model_dump(exclude_none=True, exclude={"training"})]
    if (missing := missing_factors(given)) is not None:
        problems.append(missing)
    if problems:
        raise InputError(problems)
    values = {a: data_parallel if a is Argument.DATA_PARALLEL else request.value(a) for a in FACTORS}
    known = {a: v for a, v in values.items() if v is not None}
    unknown = [a for a in FACTORS if a not in known]
    if target is None or not unknown:
        if target is not None:
            _check_consistent(request, known, target)
        return Plan(request=request, outcome=_outcome(request, known), target=target)
    return _solve(request, known, unknown[0], target)


def concrete_request(request: PlanRequest, outcome: Outcome) -> PlanRequest:
    """``request`` with the outcome's b, d, a filled in and no target: the setup as it now stands.

    A GPU count stays the source of d (so doubling the devices doubles the GPUs); in a rollout a stays what
    mini · n / (b · d) makes it, so doubling n or mini doubles it.
    """
    data = request.model_dump(exclude={"target_global_batch", "target_tokens_per_step"})
    data |= {
        "micro_batch": outcome.setup.micro_batch,
        "accumulation": request.accumulation if request.rollout_given else outcome.setup.accumulation,
        "data_parallel": None if request.gpus is not None else outcome.setup.data_parallel,
    }
    return PlanRequest.model_validate(data)


def compare(before: PlanRequest, after: PlanRequest, lr: float | None) -> Comparison:
    """Both setups, k = B₂ / B₁ and, with a learning rate, its linear and square-root scaling."""
    sides: list[tuple[Plan, Outcome]] = []
    for side, request in ((Side.BEFORE, before), (Side.AFTER, after)):
        try:
            side_plan = plan(request)
        except InputError as error:
            raise InputError([p.on_side(side) for p in error.problems]) from None
        if side_plan.outcome is None:
            raise InputError([Problem(ProblemKind.NOT_EXACT_IN_COMPARISON, side=side)])
        sides.append((side_plan, side_plan.outcome))
    (first_plan, first), (second_plan, second) = sides
    comparison = Comparison(before=first, after=second, before_plan=first_plan, after_plan=second_plan)
    if lr is None:
        return comparison
    rates = LearningRates(base=lr, linear=lr * float(comparison.factor), sqrt=lr * comparison.sqrt_factor)
    return comparison.model_copy(update={"lr": rates})


@dataclass(frozen=True)
class RunComparison:
    """A setup beside a published run: ``comparison.after`` is the run's last phase as one setup (b = B)."""

    comparison: Comparison
    run: PublishedRun

    def as_json(self) -> dict[str, Any]:
        return {**self.comparison.as_json(), "run": self.run.as_json()}


def run_request(run: PublishedRun) -> PlanRequest:
    """The run's last phase as a setup: its global batch as b, with d = a = 1 and its sequence length."""
    sequences = run.final.sequences
    if sequences is None:
        msg = f"{run.name}: the last phase needs its batch in sequences"
        raise ValueError(msg)
    return PlanRequest(micro_batch=sequences, data_parallel=1, accumulation=1, seq_len=run.seq_len)


def compare_run(before: PlanRequest, run: PublishedRun, lr: float | None) -> RunComparison:
    """A setup against a published run's batch: k = B_run / B, the learning-rate rules, the run's own rate."""
    return RunComparison(compare(before, run_request(run), lr), run)


def _degrees(request: PlanRequest) -> dict[Argument, int]:
    """TP, PP, CP, SP as given, 1 where not."""
    return {a: request.value(a) or 1 for a in MODEL_PARALLEL}


def split_problems(request: PlanRequest) -> list[Problem]:
    """What the GPU count says of d where no B is computed (a memory question): the GPUs not splitting into
    TP · PP · CP · SP, or a d given beside them that disagrees."""
    problems: list[Problem] = []
    _data_parallel(request, problems)
    return problems


def _data_parallel(request: PlanRequest, problems: list[Problem]) -> int | None:
    """d as given, or GPUs / (TP · PP · CP · SP) when the GPU count is given."""
    if request.gpus is None:
        return request.data_parallel
    degrees = _degrees(request)
    product = math.prod(degrees.values())
    derived, remainder = divmod(request.gpus, product)
    if remainder or derived == 0:
        below = derived * product
        problems.append(
            Problem(
                ProblemKind.GPUS_NOT_DIVISIBLE,
                argument=Argument.GPUS,
                ctx={
                    "gpus": request.gpus,
                    "degrees": degrees,
                    "product": product,
                    "remainder": remainder,
                    "below": below if below >= 1 else None,
                    "above": below + product,
                },
            )
        )
        return None
    if request.data_parallel is not None and request.data_parallel != derived:
        problems.append(
            Problem(
                ProblemKind.DATA_PARALLEL_CONFLICT,
                argument=Argument.DATA_PARALLEL,
                ctx={"given": request.data_parallel, "derived": derived, "gpus": request.gpus, "degrees": degrees},
            )
        )
        return None
    if derived > Argument.DATA_PARALLEL.upper_bound:
        problems.append(_out_of_range(Argument.DATA_PARALLEL, derived))
        return None
    return derived


def _rollout(request: PlanRequest, data_parallel: int | None, problems: list[Problem]) -> int | None:
    """A rollout's sequences per optimizer step, B = mini · n, as the target a is solved for; problems appended.

    mini counts prompts (verl's ``ppo_mini_batch_size``): it must fit into P (verl refuses ``train_batch_size <
    ppo_mini_batch_size``) and divide it (else the last mini-batch is short and k not whole), and mini · n must
    split evenly over b · d (verl asserts the mini-batch per GPU divides by the micro-batch).
    """
    if not request.rollout_given:
        return None
    prompts, samples, mini = request.prompts, request.samples, request.mini
    missing = [a for a in (Argument.PROMPTS, Argument.SAMPLES, Argument.MINI) if request.value(a) is None]
    if prompts is None or samples is None or mini is None:
        problems.append(Problem(ProblemKind.ROLLOUT_INCOMPLETE, ctx={"missing": missing}))
        return None
    if request.target_global_batch is not None or request.target_tokens_per_step is not None:
        problems.append(Problem(ProblemKind.ROLLOUT_WITH_TARGET, argument=Argument.MINI))
        return None
    if mini > prompts:
        problems.append(Problem(ProblemKind.MINI_ABOVE_ROLLOUT, argument=Argument.MINI, ctx=_mini_ctx(prompts, mini)))
        return None
    if prompts % mini:
        problems.append(Problem(ProblemKind.MINI_NOT_DIVIDING, argument=Argument.MINI, ctx=_mini_ctx(prompts, mini)))
        return None
    if (split := _split(request, data_parallel, mini * samples)) is not None:
        problems.append(split)
        return None
    return mini * samples


def _split(request: PlanRequest, data_parallel: int | None, sequences: int) -> Problem | None:
    """mini · n sequences over b · d GPUs: a whole a (or the a given), else the mini values that give one."""
    micro, samples, mini = request.micro_batch, request.samples or 1, request.mini or 1
    if micro is None or data_parallel is None:
        return None
    if (accumulation := request.accumulation) is not None:
        if micro * data_parallel * accumulation == sequences:
            return None
        given = {"mini": mini, "samples": samples, "sequences": sequences, "micro": micro}
        given |= {"data_parallel": data_parallel, "accumulation": accumulation}
        given["product"] = micro * data_parallel * accumulation
        return Problem(ProblemKind.ROLLOUT_CONFLICT, argument=Argument.ACCUMULATION, ctx=given)
    if sequences % (micro * data_parallel) == 0:
        return None
    step = micro * data_parallel // math.gcd(samples, micro * data_parallel)
    below = mini // step * step
    ctx: dict[str, int | None] = {"mini": mini, "samples": samples, "sequences": sequences, "micro": micro}
    ctx |= {"data_parallel": data_parallel, "below": below or None, "above": below + step}
    return Problem(ProblemKind.ROLLOUT_NOT_DIVISIBLE, argument=Argument.MINI, ctx=ctx)


def _mini_ctx(prompts: int, mini: int) -> dict[str, int | None]:
    """P and mini, with the divisors of P just below and above mini."""
    below = next((m for m in range(min(mini, prompts), 0, -1) if prompts % m == 0), None)
    above = next((m for m in range(mini + 1, prompts + 1) if prompts % m == 0), None)
    return {"prompts": prompts, "mini": mini, "below": below, "above": above}


def _target(request: PlanRequest, problems: list[Problem]) -> Target | None:
    """The one target B or T (with what a sequence contributes to it), or None; problems appended."""
    given = [(a, v) for a in TARGETS if (v := request.value(a)) is not None]
    if len(given) > 1:
        problems.append(Problem(ProblemKind.TWO_TARGETS))
    for argument in (Argument.TARGET_TOKENS, Argument.BUDGET):
        if request.value(argument) is not None and request.seq_len is None:
            problems.append(Problem(ProblemKind.NEEDS_SEQ_LEN, argument=argument))
    if len(given) != 1:
        return None
    argument, value = given[0]
    if argument is Argument.TARGET_BATCH:
        return Target(argument=argument, value=value)
    if request.seq_len is None:
        return None
    return Target(argument=argument, value=value, per_sequence=request.seq_len)


def _check_consistent(request: PlanRequest, factors: Factors, target: Target) -> None:
    """All three factors and a target: DeepSpeed's check that the product equals it."""
    product = math.prod(factors.values()) * target.per_sequence
    if product != target.value:
        raise InputError(
            [
                Problem(
                    ProblemKind.TARGET_CONFLICT,
                    argument=target.argument,
                    ctx={
                        "target": target.value,
                        "product": product,
                        "factors": dict(factors),
                        "seq_len": request.seq_len if target.argument is Argument.TARGET_TOKENS else None,
                    },
                )
            ]
        )


def _solve(request: PlanRequest, known: Factors, unknown: Argument, target: Target) -> Plan:
    """unknown = target / (other factors [· L]); the neighbours when that is not whole."""
    divisor = math.prod(known.values()) * target.per_sequence
    quotient, remainder = divmod(target.value, divisor)
    solution = Solution(argument=unknown, target=target, divisor=divisor)
    bound = unknown.upper_bound
    if remainder == 0:
        if quotient > bound:
            raise InputError([_out_of_range(unknown, quotient, target)])
        outcome = _outcome(request, {**known, unknown: quotient})
        return Plan(request=request, outcome=outcome, target=target, solution=solution)
    candidates = [v for v in (quotient, quotient + 1) if 1 <= v <= bound]
    if not candidates:
        raise InputError([_out_of_range(unknown, quotient + 1, target)])
    options = tuple(_outcome(request, {**known, unknown: v}) for v in candidates)
    binary = _binary_target(target, divisor, bound)
    return Plan(request=request, outcome=None, target=target, solution=solution, options=options, binary=binary)


#: Binary units a token target may be typed with, largest first.
_BINARY_UNITS = ((3, "Gi"), (2, "Mi"), (1, "Ki"))


def _binary_target(target: Target, divisor: int, bound: int) -> BinaryTarget | None:
    """``T=4M`` misses, ``T=4Mi`` may not: a decimal token target read in binary units, where that divides."""
    if target.argument is not Argument.TARGET_TOKENS:
        return None
    for power, unit in _BINARY_UNITS:
        count, rest = divmod(target.value, 1000**power)
        if rest:
            continue
        value = count * 1024**power
        solved, remainder = divmod(value, divisor)
        if remainder == 0 and 1 <= solved <= bound:
            return BinaryTarget(text=f"{count}{unit}", value=value, solved=solved)
        return None
    return None


def _out_of_range(argument: Argument, value: int, target: Target | None = None) -> Problem:
    ctx = {
        "value": value,
        "bound": argument.upper_bound,
        "target": target.argument if target else None,
        "target_value": target.value if target else None,
    }
    return Problem(ProblemKind.SOLVED_OUT_OF_RANGE, argument=argument, ctx=ctx)


def _outcome(request: PlanRequest, factors: Factors) -> Outcome:
    setup = BatchSetup(
        micro_batch=factors[Argument.MICRO_BATCH],
        data_parallel=factors[Argument.DATA_PARALLEL],
        accumulation=factors[Argument.ACCUMULATION],
        seq_len=request.seq_len,
    )
    result = compute(setup)
    parallelism = None
    if request.model_parallel_given:
        degrees = _degrees(request)
        gpus = request.gpus or setup.data_parallel * math.prod(degrees.values())
        parallelism = Parallelism(
            gpus=gpus, gpus_given=request.gpus is not None, **{a.value: v for a, v in degrees.items()}
        )
    steps = None
    if request.budget is not None and result.tokens_per_step is not None:
        steps = -(-request.budget // result.tokens_per_step)
    activation = None
    if request.activation_per_sample is not None:
        activation = Activation(
            per_sample=request.activation_per_sample,
            per_device=setup.micro_batch * request.activation_per_sample,
        )
    rollout = None
    if request.prompts is not None and request.samples is not None and request.mini is not None:
        rollout = Rollout(
            prompts=request.prompts, samples=request.samples, mini=request.mini, epochs=request.epochs or 1
        )
    return result.model_copy(
        update={
            "rollout": rollout,
            "parallelism": parallelism,
            "budget": request.budget,
            "optimizer_steps": steps,
            "activation": activation,
        }
    )
