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
from collections.abc import Callable, Collection

from core.errors import InputError, Problem, ProblemKind
from core.model import (
    FACTORS,
    MODEL_PARALLEL,
    UPPER_BOUNDS,
    Activation,
    Argument,
    BatchSetup,
    Comparison,
    LearningRates,
    Outcome,
    Parallelism,
    Plan,
    PlanRequest,
    Solution,
    Target,
)


def compute(setup: BatchSetup) -> Outcome:
    """Global batch (sequences per optimizer update) and tokens per update."""
    global_batch = setup.micro_batch * setup.data_parallel * setup.accumulation
    tokens = None if setup.seq_len is None else global_batch * setup.seq_len
    return Outcome(setup=setup, global_batch=global_batch, tokens_per_step=tokens)


def plan(request: PlanRequest) -> Plan:
    """Resolve d from the GPUs, solve for a missing factor, add budget and memory; or InputError."""
    problems: list[Problem] = []
    factors: dict[Argument, int | None] = {a: request.value(a) for a in FACTORS}
    factors[Argument.DATA_PARALLEL] = _data_parallel(request, problems)
    target = _target(request, problems)
    given = [Argument(key) for key in request.model_dump(exclude_none=True)]
    if (missing_problem := factor_problem(given)) is not None:
        problems.append(missing_problem)
    if problems:
        raise InputError(problems)

    def outcome(values: dict[Argument, int | None]) -> Outcome:
        return _outcome(request, values)

    if target is None:
        return Plan(request=request, outcome=outcome(factors))
    missing = [a for a in FACTORS if factors[a] is None]
    if not missing:
        _check_consistent(request, factors, target)
        return Plan(request=request, outcome=outcome(factors))
    return _solve(request, factors, missing[0], target, outcome)


def concrete_request(request: PlanRequest, outcome: Outcome) -> PlanRequest:
    """``request`` with the outcome's b, d, a filled in and no target: the setup as it now stands.

    A GPU count stays the source of d (so doubling the devices doubles the GPUs).
    """
    data = request.model_dump(exclude={"target_global_batch", "target_tokens_per_step"})
    data |= {
        "micro_batch": outcome.setup.micro_batch,
        "accumulation": outcome.setup.accumulation,
        "data_parallel": None if request.gpus is not None else outcome.setup.data_parallel,
    }
    return PlanRequest.model_validate(data)


def factor_problem(given: Collection[Argument]) -> Problem | None:
    """Too few of b, d, a: all three without a target, two with one (GPUs stand in for d)."""
    present = set(given) | ({Argument.DATA_PARALLEL} if Argument.GPUS in given else set())
    missing = [a for a in FACTORS if a not in present]
    if Argument.TARGET_BATCH in present or Argument.TARGET_TOKENS in present:
        if len(missing) > 1:
            return Problem(ProblemKind.NOT_ENOUGH_FACTORS, ctx={"missing": missing})
        return None
    return Problem(ProblemKind.MISSING_VALUES, ctx={"missing": missing}) if missing else None


def compare(before: PlanRequest, after: PlanRequest, lr: float | None) -> Comparison:
    """Both setups, k = B₂ / B₁ and, with a learning rate, its linear and square-root scaling."""
    plans = []
    for side, request in (("before", before), ("after", after)):
        try:
            side_plan = plan(request)
        except InputError as error:
            raise InputError([_on_side(p, side) for p in error.problems]) from None
        if side_plan.outcome is None:
            raise InputError([Problem(ProblemKind.NOT_EXACT_IN_COMPARISON, ctx={"side": side})])
        plans.append(side_plan)
    first, second = plans
    assert first.outcome is not None  # checked above
    assert second.outcome is not None
    comparison = Comparison(before=first.outcome, after=second.outcome, before_plan=first, after_plan=second)
    if lr is None:
        return comparison
    rates = LearningRates(base=lr, linear=lr * float(comparison.factor), sqrt=lr * comparison.sqrt_factor)
    return comparison.model_copy(update={"lr": rates})


def _on_side(problem: Problem, side: str) -> Problem:
    return Problem(problem.kind, argument=problem.argument, text=problem.text, ctx={**problem.ctx, "side": side})


def _data_parallel(request: PlanRequest, problems: list[Problem]) -> int | None:
    """d as given, or GPUs / (TP · PP · CP · SP) when the GPU count is given."""
    if request.gpus is None:
        return request.data_parallel
    degrees = {a: request.value(a) or 1 for a in MODEL_PARALLEL}
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
    if derived > UPPER_BOUNDS[Argument.DATA_PARALLEL]:
        problems.append(
            Problem(
                ProblemKind.SOLVED_OUT_OF_RANGE,
                argument=Argument.DATA_PARALLEL,
                ctx={"value": derived, "bound": UPPER_BOUNDS[Argument.DATA_PARALLEL]},
            )
        )
        return None
    return derived


def _target(request: PlanRequest, problems: list[Problem]) -> Target | None:
    given = [
        Target(argument=a, value=v)
        for a in (Argument.TARGET_BATCH, Argument.TARGET_TOKENS)
        if (v := request.value(a)) is not None
    ]
    if len(given) > 1:
        problems.append(Problem(ProblemKind.TWO_TARGETS))
        return None
    for argument in (Argument.TARGET_TOKENS, Argument.BUDGET):
        if request.value(argument) is not None and request.seq_len is None:
            problems.append(Problem(ProblemKind.NEEDS_SEQ_LEN, argument=argument))
    return given[0] if given else None


def _per_sequence(request: PlanRequest, target: Target) -> int:
    """What one unit of the product b · d · a contributes to the target: 1, or L tokens."""
    if target.argument is Argument.TARGET_TOKENS:
        assert request.seq_len is not None  # _target reported it otherwise
        return request.seq_len
    return 1


def _check_consistent(request: PlanRequest, factors: dict[Argument, int | None], target: Target) -> None:
    product = math.prod(v for v in factors.values() if v is not None) * _per_sequence(request, target)
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


def _solve(
    request: PlanRequest,
    factors: dict[Argument, int | None],
    unknown: Argument,
    target: Target,
    outcome: Callable[[dict[Argument, int | None]], Outcome],
) -> Plan:
    """unknown = target / (other factors [· L]); the neighbours when that is not whole."""
    divisor = math.prod(v for a, v in factors.items() if a is not unknown) * _per_sequence(request, target)
    quotient, remainder = divmod(target.value, divisor)
    solution = Solution(argument=unknown, target=target, divisor=divisor)
    bound = UPPER_BOUNDS[unknown]
    if remainder == 0:
        if quotient > bound:
            raise InputError([_out_of_range(unknown, quotient, bound)])
        return Plan(request=request, outcome=outcome({**factors, unknown: quotient}), solution=solution)
    candidates = [v for v in (quotient, quotient + 1) if 1 <= v <= bound]
    if not candidates:
        raise InputError([_out_of_range(unknown, quotient + 1, bound)])
    options = tuple(outcome({**factors, unknown: v}) for v in candidates)
    return Plan(request=request, outcome=None, solution=solution, options=options)


def _out_of_range(argument: Argument, value: int, bound: int) -> Problem:
    return Problem(ProblemKind.SOLVED_OUT_OF_RANGE, argument=argument, ctx={"value": value, "bound": bound})


def _outcome(request: PlanRequest, factors: dict[Argument, int | None]) -> Outcome:
    setup = BatchSetup.model_validate({a.value: factors[a] for a in FACTORS} | {"seq_len": request.seq_len})
    result = compute(setup)
    parallelism = None
    if request.model_parallel_given:
        degrees = {a.value: request.value(a) or 1 for a in MODEL_PARALLEL}
        gpus = request.gpus or setup.data_parallel * math.prod(degrees.values())
        parallelism = Parallelism(gpus=gpus, gpus_given=request.gpus is not None, **degrees)
    steps = None
    if request.budget is not None and result.tokens_per_step is not None:
        steps = -(-request.budget // result.tokens_per_step)
    activation = None
    if request.activation_per_sample is not None:
        activation = Activation(
            per_sample=request.activation_per_sample,
            per_device=setup.micro_batch * request.activation_per_sample,
        )
    return result.model_copy(
        update={
            "parallelism": parallelism,
            "budget": request.budget,
            "optimizer_steps": steps,
            "activation": activation,
        }
    )
