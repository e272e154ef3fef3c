"""What-if buttons: every answer carries the next questions as buttons.

No server-side state: each button's value is the complete canonical command of the
answer it leads to (``b=8 d=64 a=8 L=4096``), so any replica can handle any click by
parsing it like typed text.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import ValidationError
from slack_sdk.models.blocks import ActionsBlock, ButtonElement

from bot import texts
from core import (
    Comparison,
    InputError,
    Plan,
    PlanRequest,
    command_text,
    comparison_text,
    concrete_request,
    plan,
)
from core.model import Argument

WHATIF_PREFIX = "whatif_"
ADJUST_ACTION = "adjust"
BLOCK_ID = "whatif"

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


#: (action suffix, German label, change) in the order the buttons appear.
CHANGES: tuple[tuple[str, str, Change], ...] = (
    ("accumulation_double", texts.WHATIF_ACCUMULATION_DOUBLE, _scaled(Argument.ACCUMULATION, 2)),
    ("accumulation_half", texts.WHATIF_ACCUMULATION_HALF, _scaled(Argument.ACCUMULATION, 0.5)),
    ("devices_double", texts.WHATIF_DEVICES_DOUBLE, _scaled(Argument.DATA_PARALLEL, 2)),
    ("devices_half", texts.WHATIF_DEVICES_HALF, _scaled(Argument.DATA_PARALLEL, 0.5)),
    ("micro_double", texts.WHATIF_MICRO_DOUBLE, _scaled(Argument.MICRO_BATCH, 2)),
    ("micro_half", texts.WHATIF_MICRO_HALF, _scaled(Argument.MICRO_BATCH, 0.5)),
)
LABELS = {WHATIF_PREFIX + suffix: label for suffix, label, _ in CHANGES}


def _variant(request: PlanRequest, change: Change) -> PlanRequest | None:
    """The changed request if it is valid, else None (no button for it).

    ``request`` is concrete (no target), so only the bounds and, for a GPU count, the
    model-parallel split can fail; the full ``plan`` runs only in that case.
    """
    update = change(request)
    if update is None:
        return None
    try:
        changed = PlanRequest.model_validate(request.model_dump() | update)
        if Argument.GPUS.value in update:
            plan(changed)
    except (ValidationError, InputError):
        return None
    return changed


def _buttons(current: PlanRequest, to_text: Callable[[PlanRequest], str], adjustable: bool) -> ActionsBlock:
    elements = [
        ButtonElement(text=label, action_id=WHATIF_PREFIX + suffix, value=to_text(variant))
        for suffix, label, change in CHANGES
        if (variant := _variant(current, change)) is not None
    ]
    if adjustable:
        elements.append(ButtonElement(text=texts.WHATIF_ADJUST, action_id=ADJUST_ACTION, value=to_text(current)))
    return ActionsBlock(block_id=BLOCK_ID, elements=elements)


def plan_actions(answered: Plan) -> ActionsBlock:
    """×2 / ÷2 for a, d and b where the value allows, and "Anpassen…"; or, when not exact, one per option."""
    if answered.outcome is not None:
        current = concrete_request(answered.request, answered.outcome)
        return _buttons(current, command_text, adjustable=True)
    assert answered.solution is not None  # only a solved-for factor can miss
    symbol = answered.solution.argument
    elements = []
    for index, option in enumerate(answered.options):
        value = getattr(option.setup, symbol.value)
        request = concrete_request(answered.request, option)
        elements.append(
            ButtonElement(
                text=texts.whatif_take(symbol.symbol, value),
                action_id=f"{WHATIF_PREFIX}option_{index}",
                value=command_text(request),
            )
        )
    return ActionsBlock(block_id=BLOCK_ID, elements=elements)


def comparison_actions(compared: Comparison) -> ActionsBlock:
    """The same what-ifs, applied to the second setup; the first stays as it was."""
    before = concrete_request(compared.before_plan.request, compared.before)
    after = concrete_request(compared.after_plan.request, compared.after)
    lr = compared.lr.base if compared.lr else None
    return _buttons(after, lambda variant: comparison_text(before, variant, lr), adjustable=False)
