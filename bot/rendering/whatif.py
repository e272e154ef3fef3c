"""What-if choices: every answer carries the next questions.

No server-side state: each choice's value is the complete canonical command of the
answer it leads to (``b=8 d=64 a=8 L=4096``), so any replica can handle any click by
parsing it like typed text.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import ValidationError

from effbatch.bot.document import Choice
from effbatch.bot.rendering.formatting import number
from effbatch.bot.texts import answers as texts
from effbatch.core import (
    Argument,
    Comparison,
    InputError,
    Plan,
    PlanRequest,
    command_text,
    comparison_text,
    concrete_request,
    plan,
)

WHATIF_PREFIX = "whatif_"
OPTION_PREFIX = WHATIF_PREFIX + "option_"
ADJUST_ACTION = "adjust"

Change = Callable[[PlanRequest], dict[str, int | None] | None]


def _scaled(argument: Argument, factor: float) -> Change:
    """Multiply one factor (d through the GPU count when that is given); None where not whole."""

    def change(request: PlanRequest) -> dict[str, int | None] | None:
        field = Argument.GPUS if argument is Argument.DATA_PARALLEL and request.gpus is not None else argument
        value = request.value(field)
        if value is None or (value * factor) % 1:
            return None
        return {field.value: int(value * factor)}

    return change


#: (action suffix, German label, change) in the order the choices appear.
CHANGES: tuple[tuple[str, str, Change], ...] = (
    ("accumulation_double", texts.WHATIF_ACCUMULATION_DOUBLE, _scaled(Argument.ACCUMULATION, 2)),
    ("accumulation_half", texts.WHATIF_ACCUMULATION_HALF, _scaled(Argument.ACCUMULATION, 0.5)),
    ("devices_double", texts.WHATIF_DEVICES_DOUBLE, _scaled(Argument.DATA_PARALLEL, 2)),
    ("devices_half", texts.WHATIF_DEVICES_HALF, _scaled(Argument.DATA_PARALLEL, 0.5)),
    ("micro_double", texts.WHATIF_MICRO_DOUBLE, _scaled(Argument.MICRO_BATCH, 2)),
    ("micro_half", texts.WHATIF_MICRO_HALF, _scaled(Argument.MICRO_BATCH, 0.5)),
    ("samples_double", texts.WHATIF_SAMPLES_DOUBLE, _scaled(Argument.SAMPLES, 2)),
    ("mini_double", texts.WHATIF_MINI_DOUBLE, _scaled(Argument.MINI, 2)),
)
#: The label of every action the bot defines; a click names its action by id, never by its text.
LABELS = {WHATIF_PREFIX + suffix: label for suffix, label, _ in CHANGES} | {ADJUST_ACTION: texts.WHATIF_ADJUST}


def action_label(action_id: str) -> str:
    """What a click on ``action_id`` did, in the bot's own words (the clicked text is not trusted)."""
    return texts.WHATIF_TAKEN if action_id.startswith(OPTION_PREFIX) else LABELS.get(action_id, texts.WHATIF_TAKEN)


def _variant(request: PlanRequest, change: Change) -> PlanRequest | None:
    """The changed request if it is valid, else None (no choice for it).

    ``request`` is concrete (no target), so only the bounds and, for a GPU count, the
    model-parallel split can fail; the full ``plan`` runs only in that case.
    """
    update = change(request)
    if update is None:
        return None
    try:
        changed = PlanRequest.model_validate(request.model_dump() | update)
        if Argument.GPUS.value in update or changed.rollout_given:  # a rollout's mini-batch must still fit
            plan(changed)
    except (ValidationError, InputError):
        return None
    return changed


def _choices(current: PlanRequest, to_text: Callable[[PlanRequest], str], adjustable: bool) -> tuple[Choice, ...]:
    choices = [
        Choice(label=label, action_id=WHATIF_PREFIX + suffix, value=to_text(variant))
        for suffix, label, change in CHANGES
        if (variant := _variant(current, change)) is not None
    ]
    if adjustable:
        choices.append(Choice(label=texts.WHATIF_ADJUST, action_id=ADJUST_ACTION, value=to_text(current)))
    return tuple(choices)


def plan_choices(answered: Plan) -> tuple[Choice, ...]:
    """×2 / ÷2 for a, d and b where the value allows, and "Anpassen…"; or, when not exact, one per option."""
    if answered.outcome is not None:
        current = concrete_request(answered.request, answered.outcome)
        # the form asks for b, d, a and L; a rollout's P, n and mini are changed by the buttons or by typing
        return _choices(current, command_text, adjustable=not current.rollout_given)
    if answered.solution is None:
        return ()
    solved = answered.solution.argument
    return tuple(
        Choice(
            label=texts.WHATIF_TAKE.format(symbol=solved.symbol, value=number(getattr(option.setup, solved.value))),
            action_id=f"{OPTION_PREFIX}{index}",
            value=command_text(concrete_request(answered.request, option)),
        )
        for index, option in enumerate(answered.options)
    )


def comparison_choices(compared: Comparison) -> tuple[Choice, ...]:
    """The same what-ifs, applied to the second setup; the first stays as it was."""
    before = concrete_request(compared.before_plan.request, compared.before)
    after = concrete_request(compared.after_plan.request, compared.after)
    lr = compared.lr.base if compared.lr else None
    return _choices(after, lambda variant: comparison_text(before, variant, lr), adjustable=False)
